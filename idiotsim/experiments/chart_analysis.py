"""The chart's statistics: each cell's interval (one Holm family over the page), the chart player's share of
the strong player's gain, and the rules the cells put on the chart."""
from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from idiotsim.analysis.stats import ClusterSums, Interval, Moments, adjust_holm, clustered_mean, mean_interval
from idiotsim.experiments.chart_cells import ORDER_RANKS, cells_of, range_of, range_players, size_range, strong_spec
from idiotsim.experiments.chart_play import PlayedChart
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.strategy_text import at_players


def analyse_chart(played: PlayedChart) -> list:
    """(cell, interval, instances, share of the instances where the arms differ) per cell, Holm over the page."""
    spec = played.spec
    out = []
    for cell in cells_of(spec):
        where = range_of(spec, cell)
        n = range_players(spec, where)
        seats = played.seats[where]
        a = played.places[(cell.arm, where)].astype(np.int64)
        b = played.places[(cell.reference, where)].astype(np.int64)
        diff = a - b
        if where in ("cells", "order", "chart", "split") or where.startswith("chart "):
            moments = Moments()
            moments.add(diff.reshape(-1, n).sum(axis=1))
            interval = mean_interval(moments, n)
        else:
            interval = clustered_mean(seats.deal, diff)
        out.append([cell, interval, len(seats), float(np.mean(diff != 0)) if len(diff) else math.nan])
    tested = adjust_holm([None if math.isnan(x[1].lo) else x[1] for x in out])
    for row, t in zip(out, tested):
        if t is not None:
            row[1] = t
    return [tuple(r) for r in out]


@dataclass(frozen=True)
class ChartRules:
    """What the page tells a player (the `chart` strategy holds the same)."""
    rows: tuple = ()  # face-up rows better than basic's, best first ("10-5-5")
    keep: tuple = ()  # ranks to keep in hand ("2")
    pickup: tuple | None = None  # (N, rank name): pick up piles of 1..N cards of that rank or higher and 2s
    burn: int | None = None  # a 10 as soon as the pile holds this many cards (None: save 10s)
    copies: int | None = None  # at most this many cards a play while the talon lasts (None: every copy)
    two_from: str | None = None  # the play order: a 2 rather than an ordinary rank this high or higher (None: never)
    stop: bool = False  # the play order: the lowest card the next player's face-up cards cannot beat
    save_specials: int | None = None  # pick up a pile of 1..N cards rather than spend a 2 or a 10 on it (None: never)
    # the rules grown from where the strong player's gain comes from (chosen on deals of their own; their worth on
    # the held-out deals is on the page): the `chart` player's constants, which the page states
    grown: tuple = ()  # keys of GROWN_RULES on the chart
    pairs_to: str | None = None  # "pairs": the highest pair up to this rank lies face-up (with the best other card)
    singly: tuple = ()  # "high-singly"/"tens-singly": ranks played one at a time from the hand


GROWN_RULES = ("triples", "pairs", "high-singly", "tens-singly", "twos-singly")  # keys of chart_cells.chart_rule_words


def grown_rules() -> dict:
    """The grown rules as the `chart` player holds them (strategies/chart.py): keys on the chart, pairs_to, singly."""
    from idiotsim.game.cards import RANK_NAMES
    from idiotsim.strategies import chart
    keys = tuple(k for k, on in zip(GROWN_RULES, (chart.SWAP_TRIPLES, chart.SWAP_PAIRS_TO,
                                                  set(chart.SINGLY) & {"K", "A"}, "10" in chart.SINGLY,
                                                  chart.TWOS_SINGLY)) if on)
    return dict(grown=keys, pairs_to=RANK_NAMES[chart.SWAP_PAIRS_TO] if chart.SWAP_PAIRS_TO else None,
                singly=tuple(chart.SINGLY))


def beats(x: Interval) -> bool:
    return x.significant() and x.mean < 0


def costs(x: Interval) -> bool:
    return x.significant() and x.mean > 0


def chart_rules(rows: list, spec: Spec) -> ChartRules:
    """The rules the measured cells put on the chart (module docstring)."""
    by = {(c.section, c.key): x for c, x, _, _ in rows}
    swap = sorted(((x.mean, c.key) for c, x, _, _ in rows if c.section == "swap" and beats(x)))
    keep = tuple(c.key for c, x, _, _ in rows if c.section == "keep" and beats(x))
    pickups = [(x.mean, c.key) for c, x, _, _ in rows if c.section == "pickup" and c.key != "never" and beats(x)
               and not costs(by[("pickup-own", c.key)])]
    burns = [(x.mean, c.key) for c, x, _, _ in rows if c.section == "burn" and c.key != "never" and beats(x)
             and not costs(by[("burn-own", c.key)])]
    copies = [(x.mean, c.key) for c, x, _, _ in rows if c.section == "copies" and beats(x)]
    order = [(x.mean, c.key) for c, x, _, _ in rows if c.section == "order" and c.key in ORDER_RANKS and beats(x)]
    stop = any(c.section == "order" and c.key == "stop" and beats(x) for c, x, _, _ in rows)
    save = [(x.mean, c.key) for c, x, _, _ in rows if c.section == "order" and c.key.startswith("save:") and beats(x)]
    pickup = None
    if pickups:
        n, r = min(pickups)[1].split(":")
        pickup = (int(n), r)
    return ChartRules(rows=tuple(k for _, k in swap), keep=keep, pickup=pickup,
                      burn=int(min(burns)[1]) if burns else None, copies=int(min(copies)[1]) if copies else None,
                      two_from=min(order)[1] if order else None, stop=stop,
                      save_specials=int(min(save)[1].split(":")[1]) if save else None, **grown_rules())


def chart_share(played: PlayedChart, players: int | None = None) -> Interval:
    """The chart player's gain over the strong player's on the same held-out deals (per-deal sums), clustered; at
    the spec's table size, or at one of OTHER_SIZES."""
    spec = played.spec
    n = players or spec.players
    where = "chart" if n == spec.players else size_range(n)
    seats = played.seats[where]
    basic = played.places[("basic", where)].astype(np.int64)
    c = (played.places[("chart", where)] - basic).reshape(-1, n).sum(axis=1)
    s = (played.places[(at_players(spec.strategy, n), where)] - basic).reshape(-1, n).sum(axis=1)
    return ClusterSums.of(c, s).ratio(0, 1) if len(seats) else Interval(math.nan)


def split_shares(played: PlayedChart, rows: list) -> list:
    """Where the strong player's gain comes from: (cell, what it loses playing basic's move in that kind, that loss's
    share of its gain over basic on the same deals with its 95% CI by the delta method over deals), largest first."""
    n = played.spec.players
    s = strong_spec(played.spec)
    strong = played.places[(s, "split")].astype(np.int64)
    gain = (played.places[("basic", "split")] - strong).reshape(-1, n).sum(axis=1)
    out = []
    for c, x, _, _ in rows:
        if c.section == "split":
            loss = (played.places[(c.arm, "split")] - strong).reshape(-1, n).sum(axis=1)
            share = ClusterSums.of(loss, gain).ratio(0, 1) if len(gain) else Interval(math.nan)
            out.append((c, x, share))
    return sorted(out, key=lambda t: (-t[1].mean if not math.isnan(t[1].mean) else math.inf, t[0].key))


def rules_from_csv(path) -> ChartRules:
    """The chart's rules as a committed NAME.csv states them (its `on_chart` column), rows best first; of the grown
    rules, the keys (their values are in their words: tests/experiments/test_chart.py)."""
    with Path(path).open(newline="") as f:
        picked = [r for r in csv.DictReader(f) if r["on_chart"] == "true"]
    rows = sorted((float(r["mean"]), r["key"]) for r in picked if r["section"] == "swap")
    pickup = [r["key"].split(":") for r in picked if r["section"] == "pickup"]
    burn = [int(r["key"]) for r in picked if r["section"] == "burn"]
    copies = [int(r["key"]) for r in picked if r["section"] == "copies"]
    order = [r["key"] for r in picked if r["section"] == "order" and r["key"] in ORDER_RANKS]
    save = [int(r["key"].split(":")[1]) for r in picked if r["section"] == "order" and r["key"].startswith("save:")]
    return ChartRules(grown=tuple(r["key"] for r in picked if r["section"] == "chart-rule"),
                      rows=tuple(k for _, k in rows), keep=tuple(r["key"] for r in picked if r["section"] == "keep"),
                      pickup=(int(pickup[0][0]), pickup[0][1]) if pickup else None, burn=burn[0] if burn else None,
                      copies=copies[0] if copies else None, two_from=order[0] if order else None,
                      stop=any(r["section"] == "order" and r["key"] == "stop" for r in picked),
                      save_specials=save[0] if save else None)
