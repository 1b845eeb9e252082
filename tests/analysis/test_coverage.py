"""Coverage of every printed 95% interval, by simulation on the numba engine.

Each test plays thousands of small replications in-process (fixed seeds: the
test is deterministic) and requires the share of 95% intervals that cover the
truth to lie within 95% +/- 1.5 points. With 2,000 replications a correct
interval's coverage has a standard error of 0.49 points, so the band is three
of them wide on each side; an interval that ignores the deal clusters misses it.

The truth: in an A/A comparison (names of the stochastic `random` player) a
difference is 0, a head-to-head share 1/2, a mean place (n + 1)/2 and a win or
Idiot rate 1/n by symmetry; a seat effect, whose value symmetry does not give,
is the pooled estimate over all replications, whose error is 1/sqrt(2,000) of
one replication's.

The replications of a design are carved out of one batch of games (the real
seating, statistics and analysis code on each replication's share of deals), so
the engine runs once per test rather than once per replication.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from idiotsim import experiments as ex
from idiotsim.analysis import tournament_summary as sm
from idiotsim.experiments.paired_design import PairedStatistics
from idiotsim.experiments.deal_play import Played, play_deals
from idiotsim.experiments.seats import SeatStatistics
from idiotsim.experiments.strong import StrongStatistics
from idiotsim.engine.batches import play_seated
from idiotsim.strategies.loading import load_strategy
from idiotsim.runs.tournament import Tournament, TournamentConfig

REPLICATIONS = 2000
BAND = (0.935, 0.965)


def coverage(intervals, truths) -> float:
    """Share of (lo, hi) intervals holding their truth (one truth, or one per interval)."""
    lo, hi = np.array([x[0] for x in intervals]), np.array([x[1] for x in intervals])
    truth = np.broadcast_to(np.asarray(truths, dtype=float), lo.shape)
    return float(np.mean((lo <= truth) & (truth <= hi)))


def assert_covered(coverages: dict) -> None:
    bad = {k: v for k, v in coverages.items() if not BAND[0] <= v <= BAND[1]}
    assert not bad, f"coverage outside {BAND}: {bad} (all: {coverages})"


def write_spec(tmp_path: Path, text: str):
    path = tmp_path / "spec.toml"
    path.write_text(text)
    return ex.load_spec(path)


# ---- tournaments: mean place, difference, head to head, rates, seat win rates ----------------

TOURNAMENT_BLOCKS = 20  # blocks (clusters) per replication


@pytest.mark.long(12)
def test_tournament_intervals_cover():
    """A/A tournaments: `random` under three names, 3 players, 20 blocks of 3 games each."""
    config = TournamentConfig(strategies=("random", "random", "random"), players=3, games=1, seed=21,
                              chunk_games=10 ** 9)
    block_games = Tournament(config).block_games
    tournament = Tournament(dataclasses.replace(config, games=REPLICATIONS * TOURNAMENT_BLOCKS * block_games))
    games = tournament.play_chunk(0).with_columns(pl.col("block").alias("cluster"),
                                                  (pl.col("block") // TOURNAMENT_BLOCKS).alias("replication"))
    scored = sm.with_tie_shares(games.lazy(), 3)
    strategies = sm.strategy_sums(scored, 3).with_columns(replication=pl.col("cluster") // TOURNAMENT_BLOCKS)
    pairs = sm.pair_sums(scored, 3).with_columns(replication=pl.col("cluster") // TOURNAMENT_BLOCKS)
    seats = sm.seat_sums(scored, 3).with_columns(replication=pl.col("cluster") // TOURNAMENT_BLOCKS)
    by_rep = [part.drop("replication") for part in strategies.partition_by("replication", maintain_order=True)]
    pair_parts = pairs.partition_by("replication", maintain_order=True)
    seat_parts = seats.partition_by("replication", maintain_order=True)

    rows: dict = {}
    differences, shares, seat_rows = [], [], []
    for per_cluster, pair, seat in zip(by_rep, pair_parts, seat_parts):
        table = sm.strategy_table(per_cluster)
        for r in table.iter_rows(named=True):
            rows.setdefault(r["strategy"], []).append(r)
        diffs = sm.differences(table, per_cluster)
        aa = diffs.filter(pl.col("better").is_in(["random", "random#2"]) & pl.col("worse").is_in(["random", "random#2"]))
        differences.append(aa.select("lo", "hi").row(0))
        head = sm.head_to_head_table(pair.drop("replication")).filter((pl.col("a") == "random")
                                                                        & (pl.col("b") == "random#2"))
        shares.append(head.select("lo", "hi").row(0))
        seat_rows.append(sm.seat_table(seat.drop("replication")))

    result = {"mean-place difference random - random#2": coverage(differences, 0.0),
              "head to head random vs random#2": coverage(shares, 0.5)}
    for name, values in rows.items():
        for column, lo, hi, truth in (("mean_place", "mean_place_lo", "mean_place_hi", 2.0),
                                      ("win_rate", "win_lo", "win_hi", 1 / 3),
                                      ("idiot_rate", "idiot_lo", "idiot_hi", 1 / 3)):
            result[f"{column} {name}"] = coverage([(r[lo], r[hi]) for r in values], truth)
    for seat in range(3):
        values = [t.row(seat, named=True) for t in seat_rows]
        result[f"seat {seat} win rate"] = coverage([(r["lo"], r["hi"]) for r in values],
                                                   np.mean([r["win_rate"] for r in values]))
    assert_covered(result)


# ---- the deal designs: paired and seats -----------------------------------------------------

PAIRED = """\
question = "paired"
treatment = "hold-back"
control = "basic"
opponents = ["basic"]
players = 3
games = 1000
seed = 31
"""
PAIRED_DEALS = 100  # deals (clusters) per replication


def play_all(design, spec, deals: int) -> dict:
    """One batch of the design's games for deals 0 .. deals - 1 of the spec's only point."""
    point = spec.points[0]
    specs, labels = design.seat_specs(point)
    strategies = [load_strategy(s) for s in specs]
    for s, label in zip(strategies, labels):
        object.__setattr__(s, "label", label)
    games = design.games(spec, point, np.arange(deals, dtype=np.int64))
    return play_seated(point.rules, strategies, spec.seed, games["game_ids"], games["deal_ids"], games["seating"],
                       decks=games["decks"])


def replications(design, outputs: dict, deals: int, per_rep: int, new_statistics):
    """The statistics of each replication: its deals' outputs added as the design adds a chunk."""
    games = len(outputs["actions"]) // deals
    for start in range(0, deals, per_rep):
        rows = slice(start * games, (start + per_rep) * games)
        st = new_statistics()
        design.add(st, {key: value[rows] for key, value in outputs.items()}, per_rep)
        yield st


def analysed_replications(tmp_path, text: str, deals: int, new_statistics) -> list:
    """The analysed row of each of REPLICATIONS replications of `deals` deals of the spec in `text`."""
    spec = write_spec(tmp_path, text)
    design = ex.DESIGNS[spec.design]
    total = REPLICATIONS * deals
    outputs = play_all(design, spec, total)
    return [design.analyse(Played(spec, 0, [st]))[0]
            for st in replications(design, outputs, total, deals, new_statistics)]


def pooled_coverage(values) -> float:
    """Coverage of the intervals when the truth is their pooled estimate."""
    return coverage([(x.lo, x.hi) for x in values], np.mean([x.mean for x in values]))


def test_paired_design_intervals_cover(tmp_path):
    """`hold-back` against `basic` with `basic` opponents (deterministic players: the deals are the only
    randomness, and the arms differ on about 64% of them; truth: pooled over replications).

    An A/A pair of `random` players is no test here: against `basic` the random player is last on almost
    every deal, so almost every difference is 0, and against `random` opponents the games are 10 times slower."""
    rows = analysed_replications(tmp_path, PAIRED, PAIRED_DEALS, lambda: PairedStatistics(3))
    assert_covered({name: pooled_coverage([getattr(r, name) for r in rows])
                    for name in ("place_diff", "win_diff", "idiot_diff")})


SEATS = """\
question = "seats"
design = "seats"
strategy = "basic"
players = 3
games = 1000
seed = 41
"""
SEATS_DEALS = 30


def test_seats_design_intervals_cover(tmp_path):
    """The seat effect and the seat win rates of `basic` at 3 players (truth: pooled over replications)."""
    rows = analysed_replications(tmp_path, SEATS, SEATS_DEALS, lambda: SeatStatistics(3))
    result = {"seat 0 minus seat 2, place": pooled_coverage([r.place_diff for r in rows]),
              "seat 0 minus seat 2, win rate": pooled_coverage([r.win_diff for r in rows])}
    result.update({f"seat {k} win rate": pooled_coverage([r.seat_win[k] for r in rows]) for k in range(3)})
    assert_covered(result)


STRONG = """\
question = "strong"
design = "strong"
treatment = "hold-back"
control = "basic"
opponents = ["basic"]
players = 3
games = 1000
seed = 33

[beginner]
treatment = "heuristic:burn_min=8"
control = "basic"
"""
STRONG_DEALS = 30


def test_strong_minus_beginner_interval_covers(tmp_path):
    """The strong design's difference of two effects on the same deals (hold-back against basic, minus
    burn_min=8 against basic, both among basic opponents; deterministic players, so the deals are the only
    randomness) and the beginner effect beside it: truth pooled over the replications."""
    rows = analysed_replications(tmp_path, STRONG, STRONG_DEALS, lambda: StrongStatistics(3))
    assert abs(np.mean([r.gap.mean for r in rows])) > 0.01  # the two effects differ: a real test
    assert_covered({"strong minus beginner": pooled_coverage([r.gap for r in rows]),
                    "beginner effect": pooled_coverage([r.beginner_diff for r in rows])})


# ---- the sequential mode at stopping ----------------------------------------------------------

SEQUENTIAL = PAIRED.replace("hold-back", "heuristic:burn_min=8").replace("players = 3", "players = 2")
FIRST_LOOK_GAMES = 1600  # 400 deals of 4 games; looks at 400, 800 and 1,600 deals
MOST_GAMES = 4 * FIRST_LOOK_GAMES
PRECISION = 0.018  # about the half-width at 800 deals: the stopping look varies from replication to replication
TRUTH_DEALS = 200_000


@pytest.mark.long(60)
def test_sequential_mode_covers_at_stopping(tmp_path):
    """burn_min=8 against `basic` at 2 players, whose arms differ on only about 27% of the deals: the interval
    printed where the sequential mode stops covers the effect (from 200,000 deals) about 95% of the time."""
    spec = write_spec(tmp_path, SEQUENTIAL)
    design = ex.DESIGNS["paired"]
    big = PairedStatistics(2)
    design.add(big, play_all(design, spec, TRUTH_DEALS), TRUTH_DEALS)
    truth = big.diff.mean() / 2
    covered, stopped_at = [], []
    for seed in range(1, REPLICATIONS + 1):  # seed 31 plays the truth
        played = play_deals(design, dataclasses.replace(spec, seed=seed + 1000), MOST_GAMES, PRECISION, False,
                            None, first_look_games=FIRST_LOOK_GAMES)
        row = design.analyse(played)[0]
        covered.append((row.place_diff.lo, row.place_diff.hi))
        stopped_at.append(played.looks if played.reached else 0)
    stops = np.bincount(stopped_at, minlength=4)
    assert stops[0] < REPLICATIONS / 4 and max(stops) < 0.9 * REPLICATIONS, f"stopping looks (0 = never): {stops}"
    assert_covered({"place difference at stopping": coverage(covered, truth)})
