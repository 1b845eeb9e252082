"""The disagreement design ("where does basic lose?"): on positions of basic self-play, how often the
search player would play another move than basic, by the kind of disagreement, and what each kind
is worth in mean place.

Positions: every SWAP decision (R6) and every TURN decision with more than one legal move of `games`
games of `basic` self-play (reference engine, deals of the spec's seed). At each, the search (the
spec's `strategy`, a `search` spec; with `swap=1` it searches the swap too) decides from the seat's
observation and hand; where it differs from basic, both moves are played on the same `judge` fresh
sampled states (``search.place_matrix``, common random numbers) and the disagreement's value is the
mean place after the search's move minus after basic's (negative: the search's move is better).

Per kind: the disagreements, their share of the decisions of their type (swaps, or turns) and their
mean value, each with a 95% CI clustered by game (the positions of one game are not independent);
the values form one Holm family. Everything is kept as exact integers per game (decisions,
disagreements, sums of place differences over the judging states), so the report is byte-identical
for any chunking and worker count. Each position draws from its own stream (game, position index).
"""
from __future__ import annotations

import csv
import io
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from idiotsim.game import observation as ob
from idiotsim.game.cards import TEN, TWO
from idiotsim.runs.chunks import Executor, map_in_order
from idiotsim.experiments.design import CellTable, Rendered
from idiotsim.experiments.report_markdown import opening, size_caveat, source_lines
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.text import about, csv_value, format_number, format_percent, rules_text, unadjusted_note
from idiotsim.game.observation import NR
from idiotsim.game.rng import SEAT_STREAM, new_state
from idiotsim.game.rules import Rules
from idiotsim.analysis.move_kinds import KINDS, SWAP_KINDS, face_up_ranks, kind_of, swap_kind_of
from idiotsim.analysis.stats import (UNADJUSTED_ONLY, Interval, adjust_holm, decimals_for, format_p, p_clause, rate_interval,
                                     ratio_interval)
from idiotsim.game.moves import PICKUP

ANY_SWAP, ANY_TURN = "any swap", "any turn decision"
DISAGREEMENT_STREAM = SEAT_STREAM - 2  # the search's samples here: no seat of a game uses it
POSITION_KEY = 100_000  # the stream's game key: game * POSITION_KEY + the position's index in the game
CHUNK_GAMES = 25  # games of basic self-play per chunk task
QUICK_GAMES = 4  # games with --quick


def basic_positions(rules: Rules, seed: int, game: int) -> list:
    """(obs, hand) of every SWAP and TURN decision of game `game` of `seed`, `basic` at every seat,
    on the reference engine."""
    from types import SimpleNamespace

    from idiotsim.game.reference import play_match
    from idiotsim.game.rng import shuffled_deck
    from idiotsim.strategies.loading import SeatStrategy, load_strategies
    from idiotsim.strategies.toolkit import Strategy
    found = []

    def recorder(seat):
        def decide(obs, hand, params, rng):
            if obs[ob.DECISION] in (ob.SWAP, ob.TURN):
                found.append((obs.copy(), hand.copy()))
            return seat.decide.py_func(obs, hand, params, rng)
        return SeatStrategy(seat.label, Strategy(name=seat.label, decide=SimpleNamespace(py_func=decide),
                                                 description=""), seat.params)

    decks = [shuffled_deck(seed, game, r, rules.decks) for r in range(rules.rounds)]
    play_match(decks, rules, [recorder(s) for s in load_strategies("basic", rules.players)], seed, game)
    return found


def disagreements(rules: Rules, seed: int, strategy: str, judge: int, lo: int, hi: int) -> dict:
    """Games lo .. hi - 1: per game the swap and the turn decisions looked at, and each disagreement as
    (game, kind index in KINDS, sum over the `judge` states of place(search's move) - place(basic's))."""
    from idiotsim.strategies.search import pimc as search
    from idiotsim.game.moves import compiled
    from idiotsim.strategies.loading import load_strategy
    seat = load_strategy(strategy)
    params = seat.params
    decide = compiled(seat.decide)  # the search family's decide: the compiled code its games run
    swaps, turns = np.zeros(hi - lo, np.int64), np.zeros(hi - lo, np.int64)
    found = []
    moves = np.zeros(search.MAX_MOVES, np.int64)
    for game in range(lo, hi):
        for index, (obs, hand) in enumerate(basic_positions(rules, seed, game)):
            rng = new_state(seed, game * POSITION_KEY + index, DISAGREEMENT_STREAM)
            swap = obs[ob.DECISION] == ob.SWAP
            if search.list_search_moves(obs, hand, params, moves) < 2:
                continue
            (swaps if swap else turns)[game - lo] += 1
            basic = int(moves[0])
            choice = int(decide(obs, hand, params, rng))
            if (face_up_ranks(choice) == face_up_ranks(basic)) if swap else choice == basic:
                continue
            places = np.zeros((judge, 2), np.int64)
            if search.place_matrix(obs, hand, rng, np.array([basic, choice], np.int64), judge, 0, places) < 0:
                raise RuntimeError(f"game {game}, position {index}: a sampled state could not be built")
            kind = swap_kind_of(basic, choice) if swap else kind_of(basic, choice)
            found.append((game, KINDS.index(kind), int((places[:, 1] - places[:, 0]).sum())))
    found = np.array(found, np.int64).reshape(-1, 3)
    return dict(swaps=swaps, turns=turns, game=found[:, 0], kind=found[:, 1], value=found[:, 2])


def chunk_task(rules_fields: dict, seed: int, strategy: str, judge: int, lo: int, hi: int) -> dict:
    """One chunk of games: a pure function of its arguments (it may run on a worker)."""
    return disagreements(Rules(**rules_fields), seed, strategy, judge, lo, hi)


@dataclass
class PlayedDisagreement:
    spec: Spec
    games: int
    swaps: np.ndarray  # per game: swap decisions with more than one choice
    turns: np.ndarray  # per game: turn decisions with more than one legal move
    game: np.ndarray  # per disagreement: its game, kind (index in KINDS) and summed place difference
    kind: np.ndarray
    value: np.ndarray
    quick: bool = False
    reduced: bool = False  # the reduced size CI checks (check_games), written to check/NAME.*


@dataclass(frozen=True)
class KindRow:
    kind: str
    decisions: str  # "swaps" or "turns": the decisions its share is of
    disagreements: int
    share: Interval
    value: Interval  # mean place, search's move minus basic's (Holm p over the report's rows)


class DisagreementDesign:
    name = "disagreement"
    full_size_files = (".md", ".csv")

    def committed_games(self, spec: Spec, csv_path: Path) -> int:
        return spec.games  # its rows are kinds of decisions, of the spec's games

    def play(self, spec: Spec, out_dir: Path, games: int | None = None, precision: float | None = None,
             quick: bool = False, executor: Executor | None = None) -> PlayedDisagreement:
        """Every position of `games` (the spec's size, or --quick's) games of basic self-play, in chunks."""
        if precision is not None:
            print(f"note: --precision does not apply to the disagreement spec {spec.path}; it plays its size",
                  file=sys.stderr)
        size = QUICK_GAMES if quick and games is None else (games or spec.games)
        rules = spec.points[0].rules.as_dict()
        tasks = ((rules, spec.seed, spec.strategy, spec.judge, lo, min(lo + CHUNK_GAMES, size))
                 for lo in range(0, size, CHUNK_GAMES))
        parts = list(map_in_order(chunk_task, tasks, executor))
        joined = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
        return PlayedDisagreement(spec, size, quick=quick, **joined)

    def analyse(self, played: PlayedDisagreement) -> list[KindRow]:
        """One row for any swap, one per kind of swap disagreement found, one for any turn decision, one
        per kind of turn disagreement found."""
        rows = []
        judge = played.spec.judge
        is_swap = played.kind < len(SWAP_KINDS)
        for kind in (ANY_SWAP, *SWAP_KINDS, ANY_TURN, *KINDS[len(SWAP_KINDS):]):
            if kind in (ANY_SWAP, ANY_TURN):
                picked = is_swap if kind == ANY_SWAP else ~is_swap
            else:
                picked = played.kind == KINDS.index(kind)
                if not picked.any():
                    continue
            per_game = np.bincount(played.game[picked], minlength=played.games)
            value_sum = np.zeros(played.games, np.int64)
            np.add.at(value_sum, played.game[picked], played.value[picked])  # exact integers
            swaps = kind == ANY_SWAP or kind in SWAP_KINDS
            share = rate_interval(per_game, played.swaps if swaps else played.turns)  # games without any hold nothing
            value = ratio_interval(value_sum, judge * per_game)
            rows.append(KindRow(kind, "swaps" if swaps else "turns", int(picked.sum()), share, value))
        tested = adjust_holm([None if _too_few(r.value) else r.value for r in rows])
        return [r if t is None else KindRow(r.kind, r.decisions, r.disagreements, r.share, t)
                for r, t in zip(rows, tested)]

    def render(self, played: PlayedDisagreement, rows: list, out_dir: Path) -> Rendered:
        answer = _answer(played, rows)
        plain = _plain(rows)
        return Rendered(_markdown(played, rows, answer, plain), _csv(rows), answer, played.games,
                        table=_main_figures(rows), plain=plain)


def _main_figures(rows: list) -> CellTable:
    """The numbers table for the terminal (NAME.md has it with its notes)."""
    columns = [("kind", "left"), ("decisions", "left"), ("disagreements", "right"),
               ("share of those decisions (95% CI)", "right"), ("value, places (95% CI)", "right"), ("Holm p", "right")]
    cells = [[r.kind, r.decisions, f"{r.disagreements:,}", _share_text(r.share), _value_text(r.value, holm=False),
              format_p(r.value.p_holm)] for r in rows]
    return CellTable("The search's move against basic's where they differ (value: mean place after the search's "
                     "move minus after basic's; negative: the search's move is better)", columns, cells, optional=(1,),
                     note=_uncalled_note(rows))


def _uncalled_note(rows: list) -> str:
    """``unadjusted_note`` over the value rows (the Holm family)."""
    tested = [(r.kind, r.value) for r in rows if not _too_few(r.value)]
    return unadjusted_note(tested, len(tested))


def _too_few(value: Interval) -> bool:
    return math.isnan(value.lo)


def _value_text(value: Interval, holm: bool = True) -> str:
    if _too_few(value):
        return "none" if math.isnan(value.mean) else f"{format_number(value.mean, 3, True)} (too few to judge)"
    d = decimals_for(value.lo, value.hi, 3)
    text = (f"{format_number(value.mean, d, True)} ({format_number(value.lo, d, True)} to "
            f"{format_number(value.hi, d, True)})")
    return text + (f", {p_clause('Holm', value.p_holm)}" if holm else "")


def _share_text(share: Interval) -> str:
    d = decimals_for(100 * share.lo, 100 * share.hi, 2)
    return f"{format_percent(share.mean, d)} ({format_percent(share.lo, d)} to {format_percent(share.hi, d)})"


def _worth(value: Interval) -> str:
    if _too_few(value) or not value.significant():
        return "a difference not told from 0" + (f": {UNADJUSTED_ONLY}" if value.unadjusted_only() else "")
    return "better for the search's move" if value.mean < 0 else "better for basic's move"


def _answer(played: PlayedDisagreement, rows: list) -> str:
    by_kind = {r.kind: r for r in rows}
    turn, swap = by_kind[ANY_TURN], by_kind[ANY_SWAP]
    kinds = [r for r in rows if r.decisions == "turns" and r.kind != ANY_TURN and not _too_few(r.value)]
    biggest = sorted(kinds, key=lambda r: -r.disagreements * abs(r.value.mean))[:2]
    parts = [f"`{played.spec.strategy}` plays another move than basic at {_share_text(turn.share)} of the turn "
             f"decisions of basic self-play, worth {_value_text(turn.value)} places each ({_worth(turn.value)})"]
    if biggest:
        parts.append("most of it in " + " and ".join(f"{r.kind} ({_share_text(r.share)} of turns, "
                                                     f"{_value_text(r.value, holm=False)})" for r in biggest))
    swap_kinds = sorted((r for r in rows if r.kind in SWAP_KINDS), key=lambda r: -r.disagreements)
    parts.append(f"it swaps otherwise at {_share_text(swap.share)} of the swaps, worth "
                 + (f"{_value_text(swap.value)} places each ({_worth(swap.value)}; most often {swap_kinds[0].kind[10:]}"
                    f", {_value_text(swap_kinds[0].value, holm=False)})" if swap.disagreements
                    else "nothing (no swap differed)"))
    return "; ".join(parts) + "."


def _plain(rows: list) -> str:
    """The first sentence: how often the search plays otherwise, and what that is worth."""
    by_kind = {r.kind: r for r in rows}
    parts = []
    for kind, what in ((ANY_TURN, "turns"), (ANY_SWAP, "swaps")):
        r = by_kind[kind]
        worth = ("" if _too_few(r.value) else
                 f", each {'gaining' if r.value.mean < 0 else 'losing'} about {about(r.value.mean)} places"
                 if r.value.significant() else ", each making no clear difference")
        parts.append(f"at {100 * r.share.mean:.0f}% of basic's {what}{worth}")
    return f"The search plays otherwise than basic {parts[0]}, and {parts[1]}."


def _markdown(played: PlayedDisagreement, rows: list, answer: str, plain: str) -> str:
    spec = played.spec
    rules = spec.points[0].rules
    lines = opening(spec.title, plain, spec.question, answer)
    if spec.notes.strip():
        lines += [spec.notes.strip(), ""]
    lines += ["## Setup", "",
              f"- Positions: every swap (R6) and every turn with more than one legal move of {played.games:,} games "
              f"of `basic` self-play ({spec.players} players; rules: {rules_text(rules, exclude=('players',))}; "
              f"seed {spec.seed}; reference engine)",
              f"- Search: `{spec.strategy}` decides at each from the seat's observation and hand "
              "(the swap is searched only with `swap=1`)",
              f"- Judge: each disagreement, both moves played on the same {spec.judge} fresh sampled states "
              "(common random numbers) and rolled out by basic to the seat's place; its value is the mean place "
              "after the search's move minus after basic's (negative: the search's move is better)", "",
              "## Numbers", "",
              "| kind | decisions | disagreements | share of those decisions (95% CI) | value, places (95% CI) "
              "| Holm p |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r.kind} | {r.decisions} | {r.disagreements:,} | {_share_text(r.share)} | "
                     f"{_value_text(r.value, holm=False)} | {format_p(r.value.p_holm)} |")
    note = _uncalled_note(rows)
    lines += ["", note] if note else []
    swaps, turns = int(played.swaps.sum()), int(played.turns.sum())
    lines += ["", "Intervals are 95% CIs clustered by game (a ratio of per-game sums over games: the positions of "
              "one game are not independent); the value rows form one family and each p-value (value against 0) is "
              "Holm-adjusted over it. A share is of the decisions of its type: swaps for the swap rows (a swap kind: by how many "
              "of the three face-up cards are 2s and 10s, the search's choice against basic's), turns with more than "
              "one legal move for the rest. A value is what the search's choice is worth where it differs, "
              "judged by the same search machinery with basic's rollouts: a measure of how much the search "
              "believes it gains, on fresh samples, not a measured game result.", "",
              "## Size", "",
              f"{played.games:,} games{size_caveat(played)}: "
              f"{swaps:,} swaps and {turns:,} turn decisions looked at, {int(len(played.kind)):,} disagreements, each "
              f"judged on {spec.judge} sampled states. The games are the clusters; the widest value interval above is "
              f"{_widest(rows)} places wide.", "", *source_lines(spec, played.reduced)]
    return "\n".join(lines)


def _widest(rows: list) -> str:
    widths = [r.value.hi - r.value.lo for r in rows if not _too_few(r.value)]
    return format_number(max(widths), 3) if widths else "n/a"


CSV_COLUMNS = ("kind", "decisions", "disagreements", "share", "share_lo", "share_hi", "value", "value_lo", "value_hi",
               "value_p", "value_p_holm")


def _csv(rows: list) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in rows:
        writer.writerow([csv_value(v) for v in (r.kind, r.decisions, r.disagreements, r.share.mean, r.share.lo,
                                                r.share.hi, r.value.mean, r.value.lo, r.value.hi, r.value.p,
                                                r.value.p_holm)])
    return buf.getvalue()
