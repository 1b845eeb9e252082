"""Playing the deal designs (paired, seats): chunks of deals, sequential looks, exact statistics.

Every setting ("point") plays deals 0, 1, 2, ... of the spec's seed; a deal is
one cluster of games (its seats, arms or rotations). The deals are cut into
chunks, each a pure function of plain data (``play_chunk_task``) submitted
through ``idiotsim.runs.chunks``, and the outputs are added to each point's exact
integer sums in deal order, so the numbers depend on neither the chunk size
nor where the chunks ran.

Sequential mode (``precision``): looks after G1, 2 G1, 4 G1, ... games per
point (capped by the size); play stops at the first look where every point's
95% half-width of the mean place difference is at most the target and at least
``MIN_DIFFERING_DEALS`` of its deals have a non-zero difference. The rule looks
at the spread only, never at the estimate, so the 95% t interval at stopping
keeps its coverage (a fixed-width sequential interval, Chow and Robbins 1965);
the minimum guards against stopping on a variance estimated from a handful of
differing deals (pairings that make most deals tie), which would be too small.
``tests/analysis/test_coverage.py`` checks the coverage at stopping.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from idiotsim.runs.chunks import Executor, map_in_order, parallelism
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.spec_points import Point
from idiotsim.game.rng import nb_shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.runs.chunk_sizes import games_per_chunk, note_long_run, table_cost
from idiotsim.analysis.stats import ClusterSums, Interval, Moments, mean_interval, median_of_counts

FIRST_LOOK_GAMES = 20_000  # sequential mode: games per point at the first look
MIN_DIFFERING_DEALS = 200  # sequential mode: deals with a non-zero difference before a look may stop


@njit(cache=True)
def _rotated_decks(seed, deal_ids, rotations, n, rounds, n_cards, out):
    """Row i * rounds + r: round r's shuffle of deal_ids[i] with the cards dealt to
    seat h (blind, face-up, hand; R5) moved to seat (h + rotations[i]) mod n."""
    deck = np.zeros(n_cards, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    for i in range(deal_ids.shape[0]):
        rot = rotations[i]
        for rd in range(rounds):
            nb_shuffled_deck(seed, deal_ids[i], rd, deck, state)
            row = i * rounds + rd
            for c in range(n_cards):
                out[row, c] = deck[c]
            for h in range(n):
                t = (h + rot) % n
                for part in range(3):
                    for j in range(3):
                        out[row, 3 * n * part + 3 * t + j] = deck[3 * n * part + 3 * h + j]


def rotated_decks(rules: Rules, seed: int, deal_ids: np.ndarray, rotations: np.ndarray) -> np.ndarray:
    out = np.zeros((len(deal_ids) * rules.rounds, rules.num_cards), dtype=np.int64)
    _rotated_decks(seed, np.ascontiguousarray(deal_ids, dtype=np.int64),
                   np.ascontiguousarray(rotations, dtype=np.int64), rules.players, rules.rounds, rules.num_cards, out)
    return out


def play_chunk_task(rules_fields: dict, labels: list, specs: list, seed: int, games: dict) -> dict:
    """Play one chunk of an experiment's games: a pure function of its arguments (it may run on a worker)."""
    from idiotsim.engine.batches import play_seated
    from idiotsim.strategies.loading import load_strategy
    strategies = [load_strategy(spec) for spec in specs]
    for strategy, label in zip(strategies, labels):
        object.__setattr__(strategy, "label", label)
    return play_seated(Rules(**rules_fields), strategies, seed, games["game_ids"], games["deal_ids"],
                       games["seating"], decks=games["decks"])


class DealStatistics:
    """What every point's statistics share: `diff` holds one difference per deal, each the sum
    over the `n` games (seats or rotations) of that deal, `differing` counts the deals where it
    is not 0; the CI of its mean and that count are the stopping rule."""
    n: int
    diff: Moments
    differing: int = 0

    @property
    def deals(self) -> int:
        return self.diff.n

    def add_differences(self, per_deal: np.ndarray) -> None:
        self.diff.add(per_deal)
        self.differing += int(np.count_nonzero(per_deal))

    def half_width(self) -> float:
        return mean_interval(self.diff, self.n).half

    def may_stop(self, precision: float) -> bool:
        return self.differing >= MIN_DIFFERING_DEALS and self.half_width() <= precision


class GameLengths:
    """Game length without the action limit: per deal the actions and the count of the games that did
    not stall, and the stalled games; the histogram of the lengths that did not stall (for the median)."""

    def __init__(self):
        self.sums = ClusterSums(4)  # per deal: actions of the games that did not stall, those games, stalls, games
        self.counts = np.zeros(1, dtype=np.int64)

    def add(self, actions: np.ndarray, stalled: np.ndarray) -> np.ndarray:
        """actions and stalled (deals, games a deal); returns per deal (actions, games) of the games that did not stall."""
        ok = ~stalled.astype(bool)
        kept = np.where(ok, actions.astype(np.int64), 0)
        per_deal = np.column_stack([kept.sum(axis=1), ok.sum(axis=1), (~ok).sum(axis=1),
                                    np.full(len(actions), actions.shape[1])])
        self.sums.add(per_deal)
        counts = np.bincount(actions[ok].astype(np.int64).ravel())
        if len(counts) > len(self.counts):
            self.counts = np.pad(self.counts, (0, len(counts) - len(self.counts)))
        self.counts[:len(counts)] += counts
        return per_deal[:, :2]

    def mean(self) -> Interval:
        return self.sums.ratio(0, 1)

    def median(self) -> float:
        return median_of_counts(self.counts)

    def stall(self) -> Interval:
        return self.sums.ratio(2, 3).as_rate()


def length_difference(pairs: ClusterSums) -> Interval:
    """Mean length that did not stall, b minus a, from per-deal columns (actions a, games a, actions b, games b)."""
    return pairs.ratio_difference(0, 1, 2, 3)


@dataclass
class Played:
    """A played deal design: per-point statistics and how play ended."""
    spec: Spec
    games: int | None  # games of every point (as requested); None: each point's own size (`point_games`)
    stats: list  # the design's statistics, one per point
    precision: float | None = None
    looks: int = 1
    reached: bool = True  # sequential mode: precision reached
    quick: bool = False
    reduced: bool = False  # the reduced size CI checks (check_games), written to check/NAME.*


@dataclass(frozen=True)
class Piece:
    """Deals lo .. hi - 1 of one point, played as one chunk task."""
    chunk_start: int  # the first deal of the chunk: every point's piece of a chunk shares it
    point: int
    lo: int
    hi: int


def plan_look(done: list[int], targets: list[int], chunk: int) -> list[Piece]:
    """What a look plays: chunk by chunk of deals, each point's deals not played yet, up to its target."""
    pieces = [Piece(start, i, max(start, done[i]), min(start + chunk, targets[i]))
              for start in range(min(done), max(targets), chunk) for i in range(len(targets))]
    return [p for p in pieces if p.lo < p.hi]


def point_cost(point) -> float:
    """A game of the point in games of basic (search seats cost thousands), for chunk sizes."""
    seated = [s for s in (point.treatment, point.control, point.strategy) if s]
    return max(table_cost([subject, *point.opponents], point.players) for subject in seated)


def play_deals(design, spec: Spec, size: int | None, precision: float | None, quick: bool,
               executor: Executor | None, first_look_games: int = FIRST_LOOK_GAMES) -> Played:
    """Play every point of `spec` for `design` (a ``DealDesign``), look by look and chunk by chunk; `size`:
    games of every point (None: each point's own, `point_games`)."""
    points = spec.points
    tasks = [_task_maker(design, spec, p) for p in points]
    played = Played(spec, size, [design.new_statistics(spec, p) for p in points], precision=precision, quick=quick)
    chunk = max(1, games_per_chunk(design.chunk_games, max(point_cost(p) for p in points))
                // max(design.games_per_deal(p) for p in points))
    done = [0] * len(points)
    planned = looks(design, spec, size, precision, first_look_games)
    games = [deals * design.games_per_deal(p) for deals, p in zip(planned[-1], points)]
    note_long_run(sum(games), sum(g * point_cost(p) for g, p in zip(games, points)), resumes=False,
                  parallelism=parallelism(executor))
    for look, targets in enumerate(planned, start=1):
        pieces = plan_look(done, targets, chunk)
        outputs = map_in_order(play_chunk_task, (tasks[p.point](p.lo, p.hi) for p in pieces), executor)
        for start, chunk_pieces in itertools.groupby(pieces, key=lambda p: p.chunk_start):
            added = {p.point: (p.lo, p.hi, design.add(played.stats[p.point], next(outputs), p.hi - p.lo))
                     for p in chunk_pieces}
            design.pair_with_first(played.stats, added)
            done = [max(d, min(start + chunk, t)) for d, t in zip(done, targets)]
        played.looks = look
        if precision is not None:
            played.reached = all(st.may_stop(precision) for st in played.stats)
            if played.reached:
                break
    return played


def deals_for(design, games: int, point: Point) -> int:
    return max(2, math.ceil(games / design.games_per_deal(point)))


def point_games(spec: Spec, point: Point, size: int | None = None) -> int:
    """Games of a point: `size` when given (--games, --quick, the check size), else its field's or the spec's."""
    return size or point.games or spec.games


def looks(design, spec: Spec, size: int | None, precision: float | None,
          first_look_games: int = FIRST_LOOK_GAMES) -> list[list[int]]:
    """Deals per point at each look: the whole size at once, or doubling looks in sequential mode."""
    caps = [deals_for(design, point_games(spec, p, size), p) for p in spec.points]
    if precision is None:
        return [caps]
    planned = []
    games = min(first_look_games, max(point_games(spec, p, size) for p in spec.points))
    while True:
        planned.append([min(c, deals_for(design, games, p)) for c, p in zip(caps, spec.points)])
        if planned[-1] == caps:
            return planned
        games *= 2


def _task_maker(design, spec: Spec, point: Point):
    """deals lo .. hi - 1 -> the arguments of ``play_chunk_task`` (built lazily: decks can be large)."""
    specs, labels = design.seat_specs(point)
    rules_fields = point.rules.as_dict()

    def task(lo: int, hi: int) -> tuple:
        return rules_fields, labels, specs, spec.seed, design.games(spec, point, np.arange(lo, hi, dtype=np.int64))
    return task
