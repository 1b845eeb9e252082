"""``idiotsim review``: every decision one seat took in a recorded game, judged by the search.

Each decision of the seat with more than one legal move (the swap, R6, and every turn; a blind flip,
R15, has nothing to choose) becomes an ``idiotsim analyze`` position: every legal move is played
on the same K sampled states (common random numbers, ``analyze.judge``), rolled out with basic at
every seat. The first half of the samples picks the best move (the lowest mean place; basic's move
keeps ties); the other half measures the decision's cost: the paired difference between the places
of the move made and of that best move, with a 95% CI. Picking the best of many moves on the very
samples that measure it would flatter the best (the winner's curse) and call near-ties costly;
split, the cost is an unbiased estimate of what the move lost against the move the search would
play. A cost is the search's estimate, not a game result. The total cost adds the decisions'
costs; its CI adds their variances (each decision is judged on samples of its own: the random
stream of its trace line).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from idiotsim.game import observation as ob
from idiotsim.game.cards import BASIC_KEY, RANK_NAMES
from idiotsim.errors import UserError
from idiotsim.game.rng import new_state
from idiotsim.analysis.stats import Moments, mean_interval
from idiotsim.game.moves import CHANCE, PICKUP, play_parts, swap_ranks

DEFAULT_ROLLOUTS = 10_000  # K: a whole game's 20-30 decisions in seconds on one core (README: review)
Z95 = 1.959963984540054


@dataclass
class Judged:
    """One decision: where it is in the trace, the moves (made, best by the search, basic's) and
    the made move's cost in places against the best (95% CI), with both mean places."""
    line: int
    round_no: int
    kind: str
    made: str
    best: str
    basic: str
    moves: int
    cost: float
    cost_lo: float
    cost_hi: float
    made_place: float
    best_place: float

    @property
    def half(self) -> float:
        return (self.cost_hi - self.cost_lo) / 2

    @property
    def significant(self) -> bool:
        return self.cost_lo > 0


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
    from idiotsim.game.cards import card_rank
    from idiotsim.analysis.positions import Position
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
    cost = _paired_interval(measuring[:, index] - measuring[:, best])
    return Judged(line, int(obs[ob.ROUND]), "swap" if kind == ob.SWAP else "turn", short_name(made, kind),
                  short_name(int(moves[best]), kind), short_name(int(moves[0]), kind), len(moves),
                  cost.mean, cost.lo, cost.hi, float(measuring[:, index].mean()), float(measuring[:, best].mean()))


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
    """Every decision of `seat` with a choice, judged; costliest first. `progress(done, total)` is
    called as the decisions are judged."""
    found = list(decisions_of(record, seat))
    judged = []
    for done, (line, decision, move) in enumerate(found, 1):
        result = judge_decision(record, line, decision, move, rollouts, seed)
        if result is not None:
            judged.append(result)
        if progress is not None:
            progress(done, len(found))
    return sorted(judged, key=lambda j: (-j.cost, j.line))


def total_cost(judged: list[Judged]) -> tuple[float, float, float]:
    """The summed cost with a 95% CI (independent decisions: the variances add)."""
    total = sum(j.cost for j in judged)
    half = math.sqrt(sum((j.half / Z95) ** 2 for j in judged)) * Z95
    return total, total - half, total + half


def review_json(record, seat: int, rollouts: int, seed: int, judged: list[Judged]) -> dict:
    total, lo, hi = total_cost(judged)
    return {
        "seat": seat, "label": record.seats[seat], "rollouts": rollouts, "search_seed": seed,
        "finished": record.finished, "decisions": len(judged),
        "total_cost": total, "total_cost_ci": [lo, hi],
        "judged": [dict(line=j.line, round=j.round_no, kind=j.kind, made=j.made, best=j.best, basic=j.basic,
                        moves=j.moves, cost=j.cost, cost_ci=[j.cost_lo, j.cost_hi], made_mean_place=j.made_place,
                        best_mean_place=j.best_place) for j in judged],
    }


def review_table(judged: list[Judged], limit: int | None = None, rounds: int = 1):
    """The review as a rich table (costliest first; `limit` rows; a round column for a match)."""
    from rich.table import Table
    table = Table(box=None, padding=(0, 1), header_style="bold")
    columns = [("line", "right")] + ([("round", "right")] if rounds > 1 else []) + [
        ("played", "left"), ("best", "left"), ("cost, places [95% CI]", "right"), ("basic", "left")]
    for name, justify in columns:
        table.add_column(name, justify=justify, no_wrap=True)
    for j in judged[:limit]:
        cost = "-" if j.made == j.best else f"{j.cost:+.3f} [{j.cost_lo:+.3f}, {j.cost_hi:+.3f}]"
        cells = [str(j.line)] + ([str(j.round_no)] if rounds > 1 else []) + [j.made, j.best, cost, j.basic]
        table.add_row(*cells, style="bold" if j.significant else None)
    return table


def summary_lines(record, seat: int, rollouts: int, judged: list[Judged]) -> list[str]:
    total, lo, hi = total_cost(judged)
    costly = sum(j.significant for j in judged)
    differ = sum(j.made != j.best for j in judged)
    who = "you" if seat == record.human_seat else f"{record.seats[seat]}"
    return [f"review of seat {seat} ({who}): {len(judged)} decisions with a choice, each move played on the "
            f"same {rollouts:,} sampled states (rollouts: basic at every seat); the first half picks the best "
            "move, the other half measures the cost",
            f"total cost {total:+.3f} places [95% CI {lo:+.3f}, {hi:+.3f}]; the search's best differed at "
            f"{differ}, significantly worse (bold) at {costly}",
            "line: the decision's line in `idiotsim trace --game-file`; cost: the move's places minus the best's "
            "on the same samples"]


__all__ = ["DEFAULT_ROLLOUTS", "Judged", "review", "review_json", "review_table", "summary_lines", "total_cost",
           "short_name"]
