"""``idiotsim review``: every decision one seat took in a recorded game, judged by the search, with a
verdict word per decision and a summary as chess sites give one.

Each decision of the seat with more than one legal move (the swap, R6, and every turn; a blind flip,
R15, has nothing to choose) becomes an ``idiotsim analyze`` position: every legal move is played
on the same K sampled states (common random numbers, ``analyze.judge``), rolled out with basic at
every seat. The first half of the samples picks the best move (the lowest mean place; basic's move
keeps ties); the other half measures the decision's cost: the paired difference between the places
of the move made and of that best move, with a 95% CI. Picking the best of many moves on the very
samples that measure it would flatter the best (the winner's curse) and call near-ties costly;
split, the cost is an unbiased estimate of what the move lost against the move the search would
play. A cost is the search's estimate, not a game result.

A cost is never below 0 as shown: a move that did as well as the search's pick on the measuring
half, or better, lost nothing against it (the estimate and its CI are cut at 0; the JSON keeps the
paired difference as measured). The verdict of a decision (``VERDICTS``): ``best`` when the move is
the search's pick; else ``close`` when the cost is not significantly above 0 (its 95% CI reaches 0)
or below the inaccuracy threshold; else ``inaccuracy``, ``mistake`` or ``blunder`` by the cost's
size. The thresholds are shares of the place scale, 1..n at n players (``THRESHOLD_SHARES``): the
cost of a decision in places can be at most n - 1.

The summary: the decisions that matched the search's best, the counts by verdict and the mean cost
per decision with its 95% CI (each decision is judged on samples of its own, the random stream of
its trace line, so the variances add). No total is shown: the costs are each measured against a
game that goes on with basic at every seat, so their sum is not the places this game lost and can
exceed the whole place scale.
"""
from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass

import numpy as np

from idiotsim.analysis.stats import Moments, decimals_for, mean_interval
from idiotsim.errors import UserError
from idiotsim.game import observation as ob
from idiotsim.game.cards import BASIC_KEY, RANK_NAMES
from idiotsim.game.moves import CHANCE, PICKUP, play_parts, swap_ranks
from idiotsim.game.rng import new_state

DEFAULT_ROLLOUTS = 10_000  # K: a whole game's 20-30 decisions in seconds on one core (README: review)
Z95 = 1.959963984540054
VERDICTS = ("best", "close", "inaccuracy", "mistake", "blunder")
# The smallest cost of each verdict, as a share of the place scale (n - 1 places at n players): at 4
# players 0.03, 0.09 and 0.21 places; at 2 players, where a place is the chance of losing, 1, 3 and 7
# points of that chance. A verdict above `close` also needs the cost's 95% CI above 0.
THRESHOLD_SHARES = (("inaccuracy", 0.01), ("mistake", 0.03), ("blunder", 0.07))
SCREEN_LINES = 24  # the default output fits a terminal of 80 x 24 (the command's own line included)
SCREEN_WIDTH = 80


def thresholds(players: int) -> dict[str, float]:
    """The smallest cost, in places, of each verdict above ``close`` at `players` players."""
    return {word: share * (players - 1) for word, share in THRESHOLD_SHARES}


@dataclass
class Judged:
    """One decision: where it is in the trace, the moves (made, best by the search, basic's), the
    paired difference in places between the move made and the best on the measuring samples (95%
    CI), both mean places, and the verdict."""
    line: int
    round_no: int
    kind: str
    made: str
    best: str
    basic: str
    moves: int
    diff: float
    diff_lo: float
    diff_hi: float
    made_place: float
    best_place: float
    verdict: str = ""

    @property
    def half(self) -> float:
        return (self.diff_hi - self.diff_lo) / 2

    @property
    def cost(self) -> float:
        """The places lost against the search's best (never below 0)."""
        return _at_least_0(self.diff)

    @property
    def cost_lo(self) -> float:
        return _at_least_0(self.diff_lo)

    @property
    def cost_hi(self) -> float:
        return _at_least_0(self.diff_hi)

    @property
    def significant(self) -> bool:
        return self.diff_lo > 0


def _at_least_0(x: float) -> float:
    return x if x > 0 else 0.0  # 0.0, never -0.0


def verdict_of(judged: Judged, players: int) -> str:
    if judged.made == judged.best:
        return "best"
    word = "close"
    if judged.significant:
        for name, least in thresholds(players).items():
            if judged.diff >= least:
                word = name
    return word


def short_name(move: int, decision: int) -> str:
    """A move in a few characters: ``7 x2``, ``7 x1 +1up``, ``pick up``, ``chance``, ``up K A 2``."""
    if decision == ob.SWAP:
        ranks = sorted(swap_ranks(move), key=lambda r: -BASIC_KEY[r])
        return "up " + " ".join(RANK_NAMES[r] for r in ranks)
    if move == PICKUP:
        return "pick up"
    if move == CHANCE:
        return "chance"
    rank, count, extra = play_parts(move)
    return f"{RANK_NAMES[rank]} x{count}" + (f" +{extra}up" if extra else "")


def decisions_of(record, seat: int):
    """(trace line, the analyze Decision, the move made) for each decision `seat` took."""
    from idiotsim.analysis.position_analysis import DECISION_EVENTS, replay_decisions
    from idiotsim.table.gamefile import replay_seats
    events, decisions = replay_decisions(record.rules, replay_seats(record), record.decks, record.seed, record.game)
    lines = [i + 1 for i, e in enumerate(events) if e["action"] in DECISION_EVENTS]
    for line, decision, (who, move) in zip(lines, decisions, record.decisions):
        if who == seat:
            yield line, decision, move


def judge_decision(record, line: int, decision, move: int, rollouts: int, seed: int) -> Judged | None:
    """The decision judged on `rollouts` sampled states; None when there is nothing to choose."""
    from idiotsim.analysis import position_analysis as an
    from idiotsim.analysis.positions import Position
    from idiotsim.game.cards import card_rank
    obs = decision.obs
    kind = int(obs[ob.DECISION])
    if kind == ob.BLIND:
        return None
    pile = None if kind == ob.SWAP else [card_rank(c) for c in decision.table.pile]
    position = Position(record.rules, obs, decision.hand, pile, origin=f"trace line {line}")
    moves = an.legal_moves(position)
    if len(moves) < 2:
        return None
    made = an.canonical_swap(move) if kind == ob.SWAP else move
    index = {int(m): i for i, m in enumerate(moves)}[int(made)]
    places = _judge(position, moves, rollouts, new_state(seed, line, an.ANALYZE_STREAM))
    picking, measuring = places[:rollouts // 2], places[rollouts // 2:]
    best = int(np.argmin(picking.mean(axis=0)))  # the first of equal means: basic's move keeps ties
    diff = _paired_interval(measuring[:, index] - measuring[:, best])
    judged = Judged(line, int(obs[ob.ROUND]), "swap" if kind == ob.SWAP else "turn", short_name(made, kind),
                    short_name(int(moves[best]), kind), short_name(int(moves[0]), kind), len(moves),
                    diff.mean, diff.lo, diff.hi, float(measuring[:, index].mean()), float(measuring[:, best].mean()))
    judged.verdict = verdict_of(judged, record.rules.players)
    return judged


def _judge(position, moves, rollouts: int, rng) -> np.ndarray:
    """``analyze.judge`` on a stream of the decision's own (its trace line), so that the decisions'
    estimates are independent and their variances add."""
    from idiotsim.strategies.search import pimc as search
    places = np.zeros((rollouts, len(moves)), np.int64)
    if search.place_matrix(position.obs, position.hand, rng, moves, rollouts, 0, places) < 0:
        raise UserError(f"{position.origin}: the position cannot be sampled (its cards do not add up to the deck)")
    return places


def _paired_interval(differences: np.ndarray):
    """Mean and 95% CI of paired differences (0 with a CI of [0, 0] when the move is the best)."""
    moments = Moments()
    moments.add(differences)
    return mean_interval(moments, 1.0)


def review(record, seat: int, rollouts: int = DEFAULT_ROLLOUTS, seed: int = 0, progress=None) -> list[Judged]:
    """Every decision of `seat` with a choice, judged, in the order played. `progress(done, total)`
    is called as the decisions are judged."""
    found = list(decisions_of(record, seat))
    judged = []
    for done, (line, decision, move) in enumerate(found, 1):
        result = judge_decision(record, line, decision, move, rollouts, seed)
        if result is not None:
            judged.append(result)
        if progress is not None:
            progress(done, len(found))
    return judged


def costliest(judged: list[Judged]) -> list[Judged]:
    """The decisions, the worst verdict first, then the highest cost, then the order played."""
    return sorted(judged, key=lambda j: (-VERDICTS.index(j.verdict), -j.cost, j.line))


@dataclass(frozen=True)
class Summary:
    decisions: int
    matched: int
    counts: dict
    mean: float  # the mean paired difference per decision (may be below 0: noise of close calls)
    lo: float
    hi: float


def summarize(judged: list[Judged]) -> Summary:
    """The matched decisions, the counts by verdict and the mean cost per decision with its 95% CI
    (independent decisions: the variances of their estimates add)."""
    n = len(judged)
    counts = {word: sum(j.verdict == word for j in judged) for word in VERDICTS}
    if not n:
        return Summary(0, 0, counts, math.nan, math.nan, math.nan)
    mean = sum(j.diff for j in judged) / n
    half = math.sqrt(sum((j.half / Z95) ** 2 for j in judged if not math.isnan(j.half))) * Z95 / n
    return Summary(n, counts["best"], counts, mean, mean - half, mean + half)


def cost_text(estimate: float, lo: float, hi: float, least: int = 3) -> str:
    """A cost in places with its 95% CI, cut at 0 (`0.226 (0.214 to 0.239)`); `0` when even the CI's
    top is not above 0. Digits: `least` decimals, more where a bound above 0 would print as 0."""
    estimate, lo, hi = _at_least_0(estimate), _at_least_0(lo), _at_least_0(hi)
    if math.isnan(hi) or hi <= 0:
        return "0"
    d = decimals_for(lo if lo > 0 else hi, hi, least)
    return f"{estimate:.{d}f} ({lo:.{d}f} to {hi:.{d}f})"


def review_json(record, seat: int, rollouts: int, seed: int, judged: list[Judged]) -> dict:
    summary = summarize(judged)
    players = record.rules.players
    return {
        "seat": seat, "label": record.seats[seat], "rollouts": rollouts, "search_seed": seed,
        "finished": record.finished, "players": players, "decisions": len(judged), "matched_best": summary.matched,
        "verdicts": summary.counts, "thresholds": thresholds(players),
        "mean_cost": _at_least_0(summary.mean), "mean_cost_ci": [_at_least_0(summary.lo), _at_least_0(summary.hi)],
        "judged": [dict(line=j.line, round=j.round_no, kind=j.kind, made=j.made, best=j.best, basic=j.basic,
                        moves=j.moves, verdict=j.verdict, cost=j.cost, cost_ci=[j.cost_lo, j.cost_hi],
                        difference=j.diff, difference_ci=[j.diff_lo, j.diff_hi], made_mean_place=j.made_place,
                        best_mean_place=j.best_place) for j in judged],
    }


# ---- the text --------------------------------------------------------------------------------

def _wrap(text: str, width: int = SCREEN_WIDTH, indent: str = "") -> list[str]:
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False,
                         break_long_words=False)


def summary_lines(record, seat: int, rollouts: int, judged: list[Judged]) -> list[str]:
    """The summary: who, how many decisions, matched, verdict counts, mean cost, how it is measured."""
    s = summarize(judged)
    n = record.rules.players
    who = "you" if seat == record.human_seat else record.seats[seat]
    state = ", unfinished" if not record.finished else ""
    lines = _wrap(f"review of seat {seat} ({who}), a {n}-player game{state}: {s.decisions} decision"
                  f"{'s' * (s.decisions != 1)} with a choice")
    if not s.decisions:
        return lines
    lines.append(f"  matched the search's best move at {s.matched} of {s.decisions} "
                 f"({100 * s.matched / s.decisions:.0f}%)")
    lines.append("  " + ", ".join(f"{word} {s.counts[word]}" for word in VERDICTS))
    mean = cost_text(s.mean, s.lo, s.hi).replace(" (", " places (95% CI ", 1)
    lines += _wrap(f"mean cost per decision {mean if mean != '0' else '0 places'}, place scale 1..{n}", indent="  ")
    t = thresholds(n)
    shares = ", ".join(f"{100 * share:g}%" for _, share in THRESHOLD_SHARES)
    lines += _wrap(f"cost: the places a move lost against the search's best, measured on {rollouts:,} sampled "
                   "states with basic at every seat (an estimate, not this game's result). close: below "
                   f"{_places(t['inaccuracy'])} or its 95% CI reaches 0; inaccuracy from {_places(t['inaccuracy'])}, "
                   f"mistake from {_places(t['mistake'])}, blunder from {_places(t['blunder'])} ({shares} of "
                   f"the place scale).")
    return lines


def _places(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".") if x >= 0.1 else f"{x:.3f}".rstrip("0")


COLUMNS = (("line", ">"), ("verdict", "<"), ("played", "<"), ("best", "<"), ("basic", "<"),
           ("cost, places (95% CI)", "<"))


def table_rows(judged: list[Judged]) -> tuple[str, list[tuple[str, bool]]]:
    """The table's header and one row per decision (the text and whether its cost is significant)."""
    cells = [[str(j.line), j.verdict, j.made, j.best, j.basic, "-" if j.verdict == "best" else
              cost_text(j.diff, j.diff_lo, j.diff_hi)] for j in judged]
    widths = [max([len(name)] + [len(row[i]) for row in cells]) for i, (name, _) in enumerate(COLUMNS)]
    widths[-1] = len(COLUMNS[-1][0])  # the last column is left-aligned: no padding needed

    def line(values) -> str:
        return "  ".join(f"{v:{align}{w}}" for v, (_, align), w in zip(values, COLUMNS, widths)).rstrip()

    return line([name for name, _ in COLUMNS]), [(line(row), j.significant) for row, j in zip(cells, judged)]


def review_lines(record, seat: int, rollouts: int, judged: list[Judged], trace_command: str,
                 show_all: bool = False, top: int | None = None, lines_after: int = 1) -> list[tuple[str, str | None]]:
    """The review as (line, style) pairs: the summary, then the costliest decisions (as many as fit a
    screen of ``SCREEN_LINES`` with `lines_after` lines printed after them, unless `top` says how
    many), or with `show_all` every decision in the order played. `trace_command` is the command
    whose numbered lines the line column refers to."""
    out = [(line, None) for line in summary_lines(record, seat, rollouts, judged)]
    if not judged:
        return out
    rows = judged if show_all else costliest(judged)
    where = f"(line: as numbered by {trace_command})"
    if show_all:
        title = _wrap(f"every decision, in the order played {where}:")
        shown = rows
    else:
        title = _wrap(f"the {len(rows)} costliest decisions {where}:")  # as long as any count's title
        fixed = len(out) + 1 + len(title) + 1 + 1 + lines_after  # blank, title, header, "more", after
        fit = max(3, SCREEN_LINES - 1 - fixed)  # the shell's next prompt keeps the last line
        count = min(len(rows), top if top is not None else fit)
        shown = rows[:count]
        title = _wrap(f"the {count} costliest decision{'s' * (count != 1)} {where}:" if count < len(rows)
                      else f"every decision, the costliest first {where}:")
    header, body = table_rows(shown)
    out += [("", None)] + [(line, None) for line in title] + [(header, "bold")]
    out += [(text, "bold" if significant else None) for text, significant in body]
    if len(shown) < len(rows):
        more = len(rows) - len(shown)
        out.append((f"{more} more: --all lists every decision in the order played, --json for scripts", None))
    return out


__all__ = ["DEFAULT_ROLLOUTS", "Judged", "Summary", "VERDICTS", "THRESHOLD_SHARES", "costliest", "cost_text",
           "review", "review_json", "review_lines", "summarize", "summary_lines", "thresholds", "short_name"]
