"""The strategy chart (issue 44 item 4): one page a player can memorise, every cell measured at strong play.

Every cell is a paired contrast asked of the strong player S (the spec's `strategy`: the gated player
`learned-search-{players}p`), constrained by the tips' constraints (``idiotsim.strategies.constraints``), in a
seat that rotates over every seat of a deal with `basic` in the others; the arms of a cell play the same deals
with the same game ids, so the same random draws:

- the swap (R6). Each face-up row T of the spec's `rows`: on the seats whose six cards hold exactly T's ranks,
  so that ``up=`` lays exactly T face-up, S with T face-up (``S:swap=0+up=...``) against S with `basic`'s row
  (``S:swap=0``: the three best cards by basic's key), and against S's own row; the rows ranked by the first.
  Each rank R kept in hand: on the seats whose basic row lays an R face-up, ``S:swap=0+hand=R`` (basic's row
  but R kept in hand) against ``S:swap=0``.
- pickups (R14): ``S+pickup=must:N:R`` (piles of 1..N cards, every one a 2 or an ordinary rank >= R, picked
  up in the hand phase) against ``S+pickup=never`` (never by choice, the beginner's rule), and against S.
- burning: ``S+tens=N`` (a 10 as soon as the pile holds N cards, saved below) against ``S+tens=never`` (saved
  while another play is legal, the beginner's rule), and against S.
- copies: ``S+copies=N`` (at most N cards a play from the hand while the talon lasts) against S.
- counting: the learned players with full memory, with only the burned 2s and 10s, and without memory (one
  training run each, ``strategies.learned.model.H_MEMORY``), each against `basic` in the same seat; their
  differences are what remembering is worth to a learned player (the gated player's search has no memory
  kinds of its own, so this cell is asked of the learned players, as the page says).
- the chart player (``strategies/chart.py``, which follows the page) and S, each against `basic` in the same
  seat, on fresh deals (another range than the cells'): its gain and its share of S's gain.

A rule enters the chart (``chart_rules``) where it beats the beginner's rule with a Holm-adjusted p below 0.05
and costs the strong player nothing measurable (against S, not significantly worse); the rows are ranked by
their effect against basic's row, and a row is on the chart when it beats basic's row so. Every difference on
the page is one Holm family.

Sizes: `games` is each arm's games: games / players deals for the rotated cells (each deal at every seat), the
same number of seats (instances) for each swap row and rank, found by scanning the deals of their own range.
Everything is kept as integers per deal, so the report is byte-identical for any chunking and worker count.
"""
from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from idiotsim.analysis.stats import (ClusterSums, Interval, Moments, adjust_holm, decimals_for, format_p,
                                     mean_interval, ratio_interval)
from idiotsim.experiments.design import CellTable, Rendered
from idiotsim.experiments.report_markdown import opening, source_lines
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.strategy_text import at_players, row_ranks, row_text, with_knobs
from idiotsim.experiments.text import csv_value, format_number, format_percent, rules_text
from idiotsim.game.cards import BASIC_KEY, RANK_NAMES, RANK_OF_NAME
from idiotsim.game.observation import NR
from idiotsim.game.rng import nb_shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.runs.chunks import Executor, map_in_order

PICKUP_SIZES = (1, 2, 3, 5)  # piles of 1..N cards
PICKUP_RANKS = ("9", "J", "Q", "K", "A")  # every card a 2 or this rank or higher
BURN_SIZES = (1, 3, 5, 8, 12)  # a 10 as soon as the pile holds N cards
COPIES = (1, 2)  # at most N cards a play while the talon lasts
KEEP_RANKS = ("10", "2", "A", "K", "Q", "J", "9", "8", "7")  # ranks basic lays face-up often enough to ask
CHART_FIRST_DEAL = 1_000_000  # the chart player's fresh deals
ORDER_FIRST_DEAL = 3_000_000  # the play order's deals (basic's play: engine speed) ...
ORDER_DEALS = 25  # ... this many times the cells' deals
SWAP_FIRST_DEAL = 2_000_000  # the deals scanned for the swap rows' and ranks' seats
SCAN_BLOCK = 20_000  # deals scanned at a time
MAX_SCAN = 400  # at most this many deals scanned per instance wanted
CHUNK_GAMES = 2_000  # games per task
QUICK_GAMES = 40  # each arm's games with --quick
def _cards(k: int) -> str:
    """A pile of up to k cards in words: "1 card", "1-2 cards"."""
    return "1 card" if k == 1 else f"1-{k} cards"


ORDER_RANKS = ("J", "Q", "K", "A")  # the play order: a 2 rather than an ordinary rank this high or higher
SAVE_SIZES = (1, 2)  # the play order: pick up a pile of 1..N cards rather than spend a 2 or a 10 on it
# the chart player with every section off: basic (tests/experiments/test_chart.py)
BASIC_KNOBS = "swap=0,pickups=0,burning=0,copies=0,two_from=0,stop=0,save_specials=0"
ORDER_RULES = tuple((r, f"a 2 rather than {'an' if r == 'A' else 'a'} {r}{'' if r == 'A' else ' or higher'}",
                     f"two_from={RANK_OF_NAME[r]}") for r in ORDER_RANKS) + (
    ("stop", "the lowest card the next player's face-up cards cannot beat, when that is all they have", "stop=1"),
) + tuple((f"save:{k}", f"pick up a pile of {_cards(k)} rather than spend a 2 or a 10 on it",
           f"save_specials={k}") for k in SAVE_SIZES)  # (key, words, knob) of each play-order cell
CHART_SECTIONS = (("swap", "swap=0"), ("pickups", "pickups=0"), ("burning", "burning=0"), ("copies", "copies=0"),
                  ("play order", "two_from=0,stop=0,save_specials=0"))  # the chart's sections, each switched off
COUNTING = (("full", "learned-fast-{players}p"), ("burned 2s and 10s", "learned-fast-specials-{players}p"),
            ("none", "learned-fast-nomem-{players}p"))


# ---- rows and seats ------------------------------------------------------------------------------------------

@njit(cache=True)
def _six_cards(seed, first_deal, deals, n, n_cards, out):
    """out[d, s, r]: the rank-r cards among seat s's face-up and hand cards as dealt (R5) in deal first_deal + d."""
    deck = np.zeros(n_cards, np.int64)
    state = np.zeros(1, np.uint64)
    for d in range(deals):
        nb_shuffled_deck(seed, first_deal + d, 0, deck, state)
        for s in range(n):
            for j in range(3):
                out[d, s, deck[3 * n + 3 * s + j] // 4] += 1
                out[d, s, deck[6 * n + 3 * s + j] // 4] += 1


def six_cards(rules: Rules, seed: int, first_deal: int, deals: int) -> np.ndarray:
    out = np.zeros((deals, rules.players, NR), np.int64)
    _six_cards(seed, first_deal, deals, rules.players, rules.num_cards, out)
    return out


def basic_rows(counts: np.ndarray) -> np.ndarray:
    """basic's face-up row (R6: the three best of the six cards by its key) as rank counts, for counts (..., NR)."""
    order = np.argsort(-BASIC_KEY, kind="stable")  # ranks, best first
    left = np.full(counts.shape[:-1], 3, np.int64)
    row = np.zeros_like(counts)
    for r in order:
        take = np.minimum(counts[..., r], left)
        row[..., r] = take
        left -= take
    return row


def row_counts(ranks) -> np.ndarray:
    return np.bincount(np.asarray(ranks), minlength=NR)


@dataclass(frozen=True)
class Seats:
    """Instances: (deal, seat) pairs of one range, in order."""
    deal: np.ndarray
    seat: np.ndarray

    def __len__(self):
        return len(self.deal)


def find_seats(rules: Rules, seed: int, rows, keep_ranks, wanted: int) -> tuple[dict, dict, dict]:
    """For each row (rank tuple), the first `wanted` seats of the swap range whose six cards hold exactly its ranks;
    for each rank kept in hand, the first `wanted` seats whose basic row lays it face-up; and per row, whether
    basic's row is that row at each seat. Scans blocks of deals until each has its seats, or MAX_SCAN per seat."""
    found_rows = {row: ([], [], []) for row in rows}
    found_keep = {r: ([], []) for r in keep_ranks}
    targets = {row: row_counts(row) for row in rows}
    scanned = 0
    limit = max(SCAN_BLOCK, MAX_SCAN * wanted)
    while scanned < limit and (any(len(v[0]) < wanted for v in found_rows.values())
                               or any(len(v[0]) < wanted for v in found_keep.values())):
        block = min(SCAN_BLOCK, limit - scanned)
        counts = six_cards(rules, seed, SWAP_FIRST_DEAL + scanned, block)
        basic = basic_rows(counts)
        for row, target in targets.items():
            deals, seats, same = found_rows[row]
            need = wanted - len(deals)
            if need <= 0:
                continue
            present = target > 0
            hit = np.all(counts[..., present] == target[present], axis=-1)
            d, s = np.nonzero(hit)
            d, s = d[:need], s[:need]
            deals += (d + SWAP_FIRST_DEAL + scanned).tolist()
            seats += s.tolist()
            same += np.all(basic[d, s] == target, axis=-1).tolist()
        for r, (deals, seats) in found_keep.items():
            need = wanted - len(deals)
            if need <= 0:
                continue
            d, s = np.nonzero(basic[..., r] > 0)
            deals += (d[:need] + SWAP_FIRST_DEAL + scanned).tolist()
            seats += s[:need].tolist()
        scanned += block
    rows_out = {row: Seats(np.array(v[0], np.int64), np.array(v[1], np.int64)) for row, v in found_rows.items()}
    same_out = {row: np.array(v[2], bool) for row, v in found_rows.items()}
    keep_out = {r: Seats(np.array(v[0], np.int64), np.array(v[1], np.int64)) for r, v in found_keep.items()}
    return rows_out, keep_out, same_out


def rotated(first_deal: int, deals: int, n: int) -> Seats:
    ids = np.arange(first_deal, first_deal + deals, dtype=np.int64)
    return Seats(np.repeat(ids, n), np.tile(np.arange(n, dtype=np.int64), deals))


# ---- playing -------------------------------------------------------------------------------------------------

def play_task(rules_fields: dict, spec: str, seed: int, deal: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """The focal seat's place in each game (deal[i], `spec` at seat[i], basic elsewhere; game id
    deal * players + seat, so every arm of a seat draws the same random numbers): a pure function."""
    from idiotsim.engine.batches import play_seated
    from idiotsim.strategies.loading import load_strategy
    rules = Rules(**rules_fields)
    n = rules.players
    seating = np.zeros((len(deal), n), np.int8)
    if spec != "basic":
        seating[np.arange(len(deal)), seat] = 1
    strategies = [load_strategy("basic")] + ([] if spec == "basic" else [load_strategy(spec)])
    places = play_seated(rules, strategies, seed, deal * n + seat, deal, seating)["places"]
    return places[np.arange(len(deal)), seat].astype(np.int8)


def play_arms(rules: Rules, seed: int, jobs: list, executor: Executor | None) -> list:
    """jobs: (spec, Seats); each job's focal places, in order (chunks of CHUNK_GAMES games)."""
    fields = rules.as_dict()
    tasks, owners = [], []
    for j, (spec, seats) in enumerate(jobs):
        for lo in range(0, len(seats), CHUNK_GAMES):
            tasks.append((fields, spec, seed, seats.deal[lo:lo + CHUNK_GAMES], seats.seat[lo:lo + CHUNK_GAMES]))
            owners.append(j)
    parts = [[] for _ in jobs]
    for j, places in zip(owners, map_in_order(play_task, tasks, executor)):
        parts[j].append(places)
    return [np.concatenate(p) if p else np.zeros(0, np.int8) for p in parts]


# ---- the cells -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Cell:
    """One contrast of the page: `arm` against `reference` on the same seats (negative: the arm finishes better)."""
    section: str  # swap, keep, pickup, burn, copies, counting, chart
    name: str  # the cell's words on the page (a row, a rank, "1-3 cards, J or higher", ...)
    arm: str
    reference: str
    key: str  # what it names in the CSV (the row, N:R, N, ...)


@dataclass
class PlayedChart:
    spec: Spec
    games: int  # each arm's games
    deals: int  # rotated deals of the cells (and of the chart player)
    places: dict  # (spec, range name) -> focal places
    seats: dict  # range name -> Seats
    same_row: dict  # row text -> bool per seat: basic's row is that row
    quick: bool = False
    reduced: bool = False


def strong_spec(spec: Spec) -> str:
    return at_players(spec.strategy, spec.players)


def basic_row_spec(spec: Spec) -> str:
    return with_knobs(strong_spec(spec), {"swap": 0})


def arms_of(spec: Spec) -> dict:
    """range name -> the specs played there."""
    s, b = strong_spec(spec), basic_row_spec(spec)
    rotated_arms = [s, b, "basic", f"{s}+pickup=never", f"{s}+tens=never"]
    rotated_arms += [f"{s}+pickup=must:{k}:{r}" for k in PICKUP_SIZES for r in PICKUP_RANKS]
    rotated_arms += [f"{s}+tens={k}" for k in BURN_SIZES] + [f"{s}+copies={k}" for k in COPIES]
    rotated_arms += [at_players(m, spec.players) for _, m in COUNTING]
    arms = {"cells": rotated_arms, "order": ["basic"] + [order_spec(knob) for _, _, knob in ORDER_RULES],
            "chart": ["basic", s, "chart"] + [f"chart:{k}" for _, k in CHART_SECTIONS]}
    for row in spec.rows:
        ranks = row_ranks(row)
        up = "/".join(RANK_NAMES[r] for r in sorted(set(ranks)))
        arms[f"row {row_text(ranks)}"] = [f"{b}+up={up}", b, s]
    for name in KEEP_RANKS:
        arms[f"keep {name}"] = [f"{b}+hand={name}", b]
    return arms


def order_spec(knob: str) -> str:
    """basic with one play-order rule of the chart player (`knob`, e.g. two_from=12)."""
    name = knob.split("=")[0]
    return "chart:" + ",".join(knob if k.split("=")[0] == name else k for k in BASIC_KNOBS.split(","))


def cells_of(spec: Spec) -> list[Cell]:
    s, b = strong_spec(spec), basic_row_spec(spec)
    cells = []
    for row in spec.rows:
        text = row_text(row_ranks(row))
        up = "/".join(RANK_NAMES[r] for r in sorted(set(row_ranks(row))))
        cells.append(Cell("swap", text, f"{b}+up={up}", b, text))
        cells.append(Cell("swap-own", text, f"{b}+up={up}", s, text))
    for name in KEEP_RANKS:
        cells.append(Cell("keep", name, f"{b}+hand={name}", b, name))
    cells.append(Cell("own-swap", "the strong player's own row", s, b, "own"))
    cells.append(Cell("pickup", "never by choice", f"{s}+pickup=never", s, "never"))
    for k in PICKUP_SIZES:
        for r in PICKUP_RANKS:
            arm = f"{s}+pickup=must:{k}:{r}"
            cells.append(Cell("pickup", f"1-{k} cards, {r} or higher", arm, f"{s}+pickup=never", f"{k}:{r}"))
            cells.append(Cell("pickup-own", f"1-{k} cards, {r} or higher", arm, s, f"{k}:{r}"))
    cells.append(Cell("burn", "save 10s", f"{s}+tens=never", s, "never"))
    for k in BURN_SIZES:
        cells.append(Cell("burn", f"from {k} cards", f"{s}+tens={k}", f"{s}+tens=never", str(k)))
        cells.append(Cell("burn-own", f"from {k} cards", f"{s}+tens={k}", s, str(k)))
    for k in COPIES:
        cells.append(Cell("copies", f"at most {k}", f"{s}+copies={k}", s, str(k)))
    players = {name: at_players(m, spec.players) for name, m in COUNTING}
    for name, model in players.items():
        cells.append(Cell("counting", f"memory: {name}", model, "basic", name))
    cells.append(Cell("counting-diff", "everything", players["full"], players["none"], "full-none"))
    cells.append(Cell("counting-diff", "the burned 2s and 10s", players["burned 2s and 10s"], players["none"],
                      "specials-none"))
    for key, words, knob in ORDER_RULES:
        cells.append(Cell("order", words, order_spec(knob), "basic", key))
    cells.append(Cell("chart", "the chart player", "chart", "basic", "chart"))
    cells.append(Cell("chart", "the strong player", s, "basic", "strong"))
    for section, knob in CHART_SECTIONS:
        cells.append(Cell("chart-section", f"without its {section}", f"chart:{knob}", "chart", section))
    return cells


def range_of(spec: Spec, cell: Cell) -> str:
    if cell.section in ("swap", "swap-own"):
        return f"row {cell.name}"
    if cell.section == "keep":
        return f"keep {cell.name}"
    if cell.section in ("chart", "chart-section"):
        return "chart"
    if cell.section == "order":
        return "order"
    return "cells"


# ---- the design ----------------------------------------------------------------------------------------------

class ChartDesign:
    name = "chart"
    full_size_files = (".md", ".csv", ".png")

    def committed_games(self, spec: Spec, csv_path: Path) -> int:
        with Path(csv_path).open(newline="") as f:
            rows = list(csv.DictReader(f))
        return int(rows[0]["games_in_all"]) if rows else 0

    def play(self, spec: Spec, out_dir: Path, games: int | None = None, precision: float | None = None,
             quick: bool = False, executor: Executor | None = None) -> PlayedChart:
        import sys
        if precision is not None:
            print(f"note: --precision does not apply to the chart spec {spec.path}; it plays its size",
                  file=sys.stderr)
        size = QUICK_GAMES if quick and games is None else (games or spec.games)
        rules = spec.points[0].rules
        n = rules.players
        deals = -(-size // n)
        rows = [row_ranks(r) for r in spec.rows]
        row_seats, keep_seats, same = find_seats(rules, spec.seed, rows, [RANK_OF_NAME[r] for r in KEEP_RANKS],
                                                 deals * n)
        seats = {"cells": rotated(0, deals, n), "order": rotated(ORDER_FIRST_DEAL, ORDER_DEALS * deals, n),
                 "chart": rotated(CHART_FIRST_DEAL, deals, n)}
        for ranks in rows:
            seats[f"row {row_text(ranks)}"] = row_seats[ranks]
        for name in KEEP_RANKS:
            seats[f"keep {name}"] = keep_seats[RANK_OF_NAME[name]]
        jobs = [(arm, seats[where]) for where, arms in arms_of(spec).items() for arm in arms]
        places = dict(zip(((arm, seats_name) for seats_name, arms in arms_of(spec).items() for arm in arms),
                          play_arms(rules, spec.seed, jobs, executor)))
        return PlayedChart(spec, size, deals, places, seats,
                           {row_text(ranks): same[ranks] for ranks in rows}, quick=quick)

    def analyse(self, played: PlayedChart) -> list:
        """(cell, interval, instances, share of the instances where the arms differ) per cell, Holm over the page."""
        spec = played.spec
        n = spec.players
        out = []
        for cell in cells_of(spec):
            where = range_of(spec, cell)
            seats = played.seats[where]
            a = played.places[(cell.arm, where)].astype(np.int64)
            b = played.places[(cell.reference, where)].astype(np.int64)
            diff = a - b
            if where in ("cells", "order", "chart"):
                moments = Moments()
                moments.add(diff.reshape(-1, n).sum(axis=1))
                interval = mean_interval(moments, n)
            else:
                interval = _clustered_mean(seats.deal, diff)
            out.append([cell, interval, len(seats), float(np.mean(diff != 0)) if len(diff) else math.nan])
        tested = adjust_holm([None if math.isnan(x[1].lo) else x[1] for x in out])
        for row, t in zip(out, tested):
            if t is not None:
                row[1] = t
        return [tuple(r) for r in out]

    def render(self, played: PlayedChart, rows: list, out_dir: Path) -> Rendered:
        rules = chart_rules(rows, played.spec)
        answer = _answer(played, rows, rules)
        plot = _plot(played, rows, rules, Path(out_dir) / f"{played.spec.name}.png")
        games = games_in_all(played)
        return Rendered(_markdown(played, rows, rules, answer, plot.name), _csv(played, rows, games), answer, games,
                        files=[plot], table=_main_figures(rows), plain=_plain(played, rows, rules))


def _clustered_mean(deal: np.ndarray, diff: np.ndarray) -> Interval:
    """The mean of per-seat differences, with a 95% interval clustered by deal."""
    if len(diff) < 2:
        return Interval(float(diff.mean()) if len(diff) else math.nan)
    keys, index = np.unique(deal, return_inverse=True)
    sums = np.bincount(index, weights=diff).astype(np.int64)
    counts = np.bincount(index).astype(np.int64)
    return ratio_interval(sums, counts)


def games_in_all(played: PlayedChart) -> int:
    return int(sum(len(v) for v in played.places.values()))


# ---- the chart's rules ---------------------------------------------------------------------------------------

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


def _beats(x: Interval) -> bool:
    return x.significant() and x.mean < 0


def _costs(x: Interval) -> bool:
    return x.significant() and x.mean > 0


def chart_rules(rows: list, spec: Spec) -> ChartRules:
    """The rules the measured cells put on the chart (module docstring)."""
    by = {(c.section, c.key): x for c, x, _, _ in rows}
    swap = sorted(((x.mean, c.key) for c, x, _, _ in rows if c.section == "swap" and _beats(x)))
    keep = tuple(c.key for c, x, _, _ in rows if c.section == "keep" and _beats(x))
    pickups = [(x.mean, c.key) for c, x, _, _ in rows if c.section == "pickup" and c.key != "never" and _beats(x)
               and not _costs(by[("pickup-own", c.key)])]
    burns = [(x.mean, c.key) for c, x, _, _ in rows if c.section == "burn" and c.key != "never" and _beats(x)
             and not _costs(by[("burn-own", c.key)])]
    copies = [(x.mean, c.key) for c, x, _, _ in rows if c.section == "copies" and _beats(x)]
    order = [(x.mean, c.key) for c, x, _, _ in rows if c.section == "order" and c.key in ORDER_RANKS and _beats(x)]
    stop = any(c.section == "order" and c.key == "stop" and _beats(x) for c, x, _, _ in rows)
    save = [(x.mean, c.key) for c, x, _, _ in rows if c.section == "order" and c.key.startswith("save:") and _beats(x)]
    pickup = None
    if pickups:
        n, r = min(pickups)[1].split(":")
        pickup = (int(n), r)
    return ChartRules(rows=tuple(k for _, k in swap), keep=keep, pickup=pickup,
                      burn=int(min(burns)[1]) if burns else None, copies=int(min(copies)[1]) if copies else None,
                      two_from=min(order)[1] if order else None, stop=stop,
                      save_specials=int(min(save)[1].split(":")[1]) if save else None)


# ---- the page ------------------------------------------------------------------------------------------------

def _diff(x: Interval, least: int = 3) -> str:
    """`+0.012 (-0.003 to +0.027)`, the digit rule; `n/a` where there was nothing to compare."""
    if math.isnan(x.mean):
        return "n/a"
    if x.mean == 0 and x.lo == 0 and x.hi == 0:
        return "0 (the same games)"
    if math.isnan(x.lo):
        return format_number(x.mean, least, True) + " (too few to judge)"
    d = decimals_for(x.lo, x.hi, least)
    return f"{_signed(x.mean, d)} ({_signed(x.lo, d)} to {_signed(x.hi, d)})"


def _signed(v: float, digits: int) -> str:
    """A signed number, but a bare 0.000 where it rounds to zero (never "+0.000" or "-0.000")."""
    text = format_number(v, digits, True)
    return text.lstrip("+-") if text.lstrip("+-") == "0." + "0" * digits else text


def _mark(x: Interval) -> str:
    return "better" if _beats(x) else ("worse" if _costs(x) else "no significant difference")


def _find(rows: list, section: str, key: str):
    for c, x, seats, differs in rows:
        if c.section == section and c.key == key:
            return x, seats, differs
    raise KeyError((section, key))


def _share(chart: Interval, strong: Interval, played: PlayedChart) -> Interval:
    """The chart player's gain over the strong player's on the same fresh deals (per-deal sums), clustered."""
    n = played.spec.players
    seats = played.seats["chart"]
    basic = played.places[("basic", "chart")].astype(np.int64)
    c = (played.places[("chart", "chart")] - basic).reshape(-1, n).sum(axis=1)
    s = (played.places[(strong_spec(played.spec), "chart")] - basic).reshape(-1, n).sum(axis=1)
    return ClusterSums.of(c, s).ratio(0, 1) if len(seats) else Interval(math.nan)


def _percent(x: Interval) -> str:
    """A share and its interval in whole percent (n/a where the strong player's gain is not settled)."""
    if any(math.isnan(v) for v in (x.mean, x.lo, x.hi)):
        return "n/a"
    def pct(v):
        text = f"{100 * v:.0f}%"
        return "0%" if text == "-0%" else text
    return f"{pct(x.mean)} ({pct(x.lo)} to {pct(x.hi)})"


def _rank_word(name: str) -> str:
    return {"A": "an A", "J": "a J", "Q": "a Q", "K": "a K", "8": "an 8"}.get(name, f"a {name}")


def _low_pairs(rows_on_chart) -> list[str]:
    """The pairs that a chart's rows lay beside a 10 ("3" for 3-3-10), in the list's order."""
    return [r.split("-")[0] for r in rows_on_chart if r.endswith("-10") and r.split("-")[0] == r.split("-")[1]]


def _rules_lines(rows: list, rules: ChartRules) -> list[str]:
    """The chart itself: what a player memorises, one numbered line a section."""
    listed = ", ".join(rules.rows)
    keep = " and ".join(f"{r}s" for r in rules.keep)
    swap = (f"Lay face-up the first of these rows your six cards can make, best first: {listed}. Otherwise"
            if rules.rows else "Lay face-up")
    swap += " your three best cards, 10 before 2 before A, K, Q, ... down to 3"
    swap += f", but keep your {keep} in hand (face-up only if the hand has no room)." if keep else "."
    pairs = _low_pairs(rules.rows)
    if len(pairs) >= 3:
        swap += (f" In short: a pair of {pairs[0]}s to {pairs[-1]}s beside a 10 lies face-up, the lower pair "
                 "first, and the high cards stay in hand.")
    play = "The lowest card you may play, with every copy of it"
    if rules.two_from:
        play += (f"; but when that is {_rank_word(rules.two_from)}"
                 + ("" if rules.two_from == "A" else " or higher") + ", a 2 instead if you hold one")
    if rules.stop:
        play += ("; when the next player has only face-up cards left, the lowest card none of them can beat, if "
                 "you hold one")
    play += "; otherwise 2s, and a 10 last"
    play += (f", but pick up a pile of 1 to {rules.save_specials} cards rather than spend a 2 or a 10 on it."
             if rules.save_specials else ".")
    pickup = (f"Pick up a pile of 1 to {rules.pickup[0]} cards by choice when every card in it is "
              f"{rules.pickup[1]} or higher, or a 2 (while you play from your hand)." if rules.pickup else
              "Never pick up the pile by choice.")
    burn = (f"Burn with a 10 as soon as the pile holds {rules.burn} cards or more." if rules.burn else
            "Save your 10s: play one only when nothing else may be played.")
    copies = (f"While the talon lasts, play at most {rules.copies} card{'s' if rules.copies > 1 else ''} at a time."
              if rules.copies else "Play every copy of the rank you play, talon or not.")
    full, _, _ = _find(rows, "counting-diff", "full-none")
    specials, _, _ = _find(rows, "counting-diff", "specials-none")
    counting = (f"Remembering the burned 2s and 10s is worth {_diff(specials)} places a game to a learned player "
                f"({_mark(specials)}); remembering every card that left play {_diff(full)} ({_mark(full)}). "
                "The chart player does not count.")
    return [f"1. **The swap.** {swap}", f"2. **Playing.** {play}", f"3. **Picking up.** {pickup}",
            f"4. **Burning.** {burn}", f"5. **Copies.** {copies}", f"6. **Counting.** {counting}"]


def _answer(played: PlayedChart, rows: list, rules: ChartRules) -> str:
    chart, _, _ = _find(rows, "chart", "chart")
    strong, _, _ = _find(rows, "chart", "strong")
    share = _share(chart, strong, played)
    n = played.spec.players
    lead = ("A player who follows this page finishes " +
            ("better than" if _beats(chart) else "worse than" if _costs(chart) else "no better than") +
            f" a beginner (`basic`) at {n} players: {_diff(chart)} in mean place a game")
    parts = [f"lay face-up the first of {len(rules.rows)} listed rows you can make" if rules.rows
             else "lay your best cards face-up"]
    if rules.keep:
        parts.append("keep " + " and ".join(f"{r}s" for r in rules.keep) + " in hand")
    if rules.two_from:
        parts.append(f"play a 2 rather than {_rank_word(rules.two_from)}"
                     + ("" if rules.two_from == "A" else " or higher"))
    if rules.stop:
        parts.append("stop a next player who is down to face-up cards")
    if rules.save_specials:
        parts.append(f"pick up a pile of 1 to {rules.save_specials} cards rather than spend a 2 or a 10 on it")
    parts.append(f"pick up piles of 1 to {rules.pickup[0]} cards of {rules.pickup[1]} or higher and 2s"
                 if rules.pickup else "never pick up by choice")
    parts.append(f"burn with a 10 from {rules.burn} cards on" if rules.burn else "save your 10s")
    parts.append(f"play at most {rules.copies} card{'s' if rules.copies > 1 else ''} at a time while the talon "
                 "lasts" if rules.copies else "play every copy")
    return (f"{lead}, {_percent(share)} of what the strong player gains ({_diff(strong)}); its rules: "
            f"{'; '.join(parts)}.")


def _plain(played: PlayedChart, rows: list, rules: ChartRules) -> str:
    """The page's first sentence: what memorising it is worth, in words a player reads in five seconds."""
    chart, _, _ = _find(rows, "chart", "chart")
    strong, _, _ = _find(rows, "chart", "strong")
    share = _share(chart, strong, played)
    if not _beats(chart):
        return ("Memorising this chart gains nothing measurable over a beginner's play (`basic`); the strong "
                f"player gains {abs(strong.mean):.2f} places a game.")
    pct = "" if math.isnan(share.mean) else f", about {100 * share.mean:.0f}% of what the strong player gains"
    rule = ("a 2 rather than " + ("an A" if rules.two_from == "A" else f"a {rules.two_from} or higher")
            if rules.two_from else None)
    pairs = _low_pairs(rules.rows)
    row = ("a low pair and a 10 face-up" if len(pairs) >= 3 else
           f"the best of {len(rules.rows)} face-up rows" if rules.rows else None)
    tips = [t for t in (row, rule,
                        "never pick up by choice" if not rules.pickup else None,
                        "save your 10s" if not rules.burn else None) if t]
    return (f"Memorise this chart and you finish about {abs(chart.mean):.2f} places a game better than a beginner "
            f"(`basic`){pct}: {', '.join(tips)}.")


def _markdown(played: PlayedChart, rows: list, rules: ChartRules, answer: str, plot_name: str) -> str:
    spec = played.spec
    s = strong_spec(spec)
    lines = opening(spec.title, _plain(played, rows, rules), spec.question, answer)
    lines += ["## The chart", "", *_rules_lines(rows, rules), "",
             "A rule is on the chart where it beats the beginner's rule at strong play with a Holm-adjusted p below "
             "0.05 and does not cost the strong player measurably against its own choice; where no rule did, the "
             "chart keeps the beginner's rule. The sections below give every cell the page rests on.", "",
             f"Every cell is measured at strong play unless it says otherwise: the strong player is `{s}` (the "
             "learned player that searches its close turns), constrained to the rule (docs/strategies.md, "
             "\"Constraints\"), in every seat of a deal in turn with `basic` in the others. Each number is a paired "
             "difference in mean place on the same deals and random draws (negative: better), with its 95% CI "
             "clustered by deal; every p-value is Holm-adjusted over the page's "
             f"{sum(1 for _, x, _, _ in rows if not math.isnan(x.lo))} tests.", ""]
    if spec.notes.strip():
        lines += [spec.notes.strip(), ""]
    lines += [f"![{spec.title}]({plot_name})", ""]
    lines += ["## The chart as a player", "",
              "`chart` (strategies/chart.py) plays the committed page and nothing else: its rows, ranks kept in "
              "hand, play order, pickups, burning and copies as above, `basic`'s move everywhere else. On fresh "
              f"deals (deals from {CHART_FIRST_DEAL:,} on, which no cell used), each against `basic` in the same "
              "seat:", "", "| player | against basic |", "|---|---|"]
    chart, _, _ = _find(rows, "chart", "chart")
    strong, _, _ = _find(rows, "chart", "strong")
    lines += [f"| `chart` | {_diff(chart)} |", f"| `{s}` | {_diff(strong)} |"]
    share = _share(chart, strong, played)
    lines += ["", f"The chart recovers {_percent(share)} of the strong player's gain (the ratio of the two gains on "
              "the same deals, its 95% CI by the delta method over deals). What each section is worth to the chart "
              "player (the chart with that section played as `basic` plays it, against the chart; positive: the "
              "section helps):", "", "| without | against the chart |", "|---|---|"]
    for section, _ in CHART_SECTIONS:
        x, _, _ = _find(rows, "chart-section", section)
        lines.append(f"| its {section} | {_diff(x)} |")
    lines += ["", "## The swap: which three cards lie face-up", "",
              "A row's number is the strong player laying exactly that row against it laying basic's row (the three "
              "best by 3 < 4 < ... < A < 2 < 10), on seats whose six cards hold exactly the row's ranks (so the row "
              "can be laid), the strong player playing on; and against the strong player's own swap. Bold rows "
              "beat basic's row (on the chart); the others are listed for the ranking. \"Same as basic\" is the "
              "share of those seats where basic's row is that row (there the two arms play the same game).", "",
              "| place | row | against basic's row | against the strong player's own row | seats | same as basic |",
              "|---|---|---|---|---|---|"]
    swap = sorted(((x.mean, c.key, x, seats) for c, x, seats, _ in rows if c.section == "swap"),
                  key=lambda t: (math.inf if math.isnan(t[0]) else t[0], t[1]))
    for place, (_, key, x, seats) in enumerate(swap, 1):
        own, _, _ = _find(rows, "swap-own", key)
        same = played.same_row[key]
        name = f"**{key}**" if key in rules.rows else key
        lines.append(f"| {place} | {name} | {_diff(x)} | {_diff(own)} | {seats:,} | "
                     f"{format_percent(float(np.mean(same)) if len(same) else math.nan, 0)} |")
    own, _, _ = _find(rows, "own-swap", "own")
    lines += ["", f"The strong player's own swap against basic's row, on every seat: {_diff(own)}.", "",
              "Ranks to keep in hand: on seats where basic's row lays the rank face-up, the same row with that "
              "rank kept in hand instead (the next best card face-up), the strong player playing on:", "",
              "| rank | kept in hand, against basic's row | seats | verdict |", "|---|---|---|---|"]
    for c, x, seats, _ in rows:
        if c.section == "keep":
            verdict = "**keep in hand**" if c.key in rules.keep else _mark(x)
            lines.append(f"| {c.key} | {_diff(x)} | {seats:,} | {verdict} |")
    lines += ["", "## The play order", "",
              "No constraint of the strong player's play order exists (it would leave the search little to "
              "choose), so these rules are measured on the beginner's play, as the chart player plays them: "
              f"`basic` with the one rule against `basic`, on deals of their own, {ORDER_DEALS} times as many as "
              "the strong player's cells (Size). A bold rule is on the chart.", "",
              "| rule | against basic | verdict |", "|---|---|---|"]
    for key, words, _ in ORDER_RULES:
        x, _, _ = _find(rows, "order", key)
        on = key in (rules.two_from, "stop" if rules.stop else None, f"save:{rules.save_specials}")
        lines.append(f"| {'**' + words + '**' if on else words} | {_diff(x)} | "
                     f"{'**on the chart**' if on else _mark(x)} |")
    lines += ["", "## Voluntary pickups (R14)", "",
              "Picking up, in the hand phase, every pile of 1 to N cards whose cards are all 2s or of the rank "
              "given or higher, against never picking up by choice (the beginner's rule); below it (own), the same "
              "against the strong player's own choice. "
              + (f"On the chart: piles of 1 to {rules.pickup[0]} cards of {rules.pickup[1]} or higher."
                 if rules.pickup else "No pickup rule beats never picking up without costing the strong player: "
                 "never pick up by choice."), ""]
    never, _, _ = _find(rows, "pickup", "never")
    header = "| pile | " + " | ".join(f"{r} or higher" for r in PICKUP_RANKS) + " |"
    lines += [header, "|---|" + "---|" * len(PICKUP_RANKS)]
    for k in PICKUP_SIZES:
        cells = []
        for r in PICKUP_RANKS:
            x, _, _ = _find(rows, "pickup", f"{k}:{r}")
            y, _, _ = _find(rows, "pickup-own", f"{k}:{r}")
            text = f"{_diff(x)}<br>own: {_diff(y)}"
            cells.append(f"**{text}**" if rules.pickup == (k, r) else text)
        lines.append(f"| {_cards(k)} | " + " | ".join(cells) + " |")
    lines += ["", f"Never picking up by choice against the strong player's own pickups: {_diff(never)}.", ""]
    lines += ["## Burning with a 10", "",
              "A 10 as soon as the pile holds N cards (saved below), against saving 10s while another play is "
              "legal (the beginner's rule), and against the strong player's own choice. "
              + (f"On the chart: burn from {rules.burn} cards on." if rules.burn else
                 "No pile size beats saving the 10 without costing the strong player: save your 10s."), "",
              "| pile | against saving 10s | against the strong player's own |", "|---|---|---|"]
    for k in BURN_SIZES:
        x, _, _ = _find(rows, "burn", str(k))
        y, _, _ = _find(rows, "burn-own", str(k))
        lines.append(f"| from {k} card{'s' if k > 1 else ''} | {_diff(x)} | {_diff(y)} |")
    save, _, _ = _find(rows, "burn", "never")
    lines += ["", f"Saving 10s against the strong player's own choice: {_diff(save)}.", "",
              "## Copies while the talon lasts", "",
              "At most N cards a play from the hand while the talon lasts, against the strong player's own choice "
              "of how many copies to play. " + (f"On the chart: at most {rules.copies}." if rules.copies else
                                                "Holding copies back does not pay: play every copy."), "",
              "| at most | against the strong player's own |", "|---|---|"]
    for k in COPIES:
        x, _, _ = _find(rows, "copies", str(k))
        lines.append(f"| {k} | {_diff(x)} |")
    lines += ["", "## Counting", "",
              "What remembering the cards that have left play (burned, buried in the pile, picked up in sight) is "
              "worth, asked of the learned players (`learned-fast-*`, 24 hidden units: the gated player has no "
              "model of each kind): three models of one recipe, none of them a model with inputs zeroed: full "
              "memory (the shipped model), no memory (trained in its own run, without the memory inputs) and only "
              "the burned 2s and 10s remembered (fitted on the no-memory run's positions with those inputs), each "
              "against `basic` in the same seat, so every control's strength is in the table.", "",
              "| memory | against basic |", "|---|---|"]
    for name, model in COUNTING:
        x, _, _ = _find(rows, "counting", name)
        lines.append(f"| {name} (`{at_players(model, spec.players)}`) | {_diff(x)} |")
    full, _, _ = _find(rows, "counting-diff", "full-none")
    specials, _, _ = _find(rows, "counting-diff", "specials-none")
    lines += ["", f"Remembering everything, against no memory: {_diff(full)}; the burned 2s and 10s alone, against "
              f"no memory: {_diff(specials)}.", "", "## Size", "", _size_text(played), "",
              *source_lines(spec, played.reduced)]
    return "\n".join(lines)


def _size_text(played: PlayedChart) -> str:
    spec = played.spec
    seats = [len(v) for k, v in played.seats.items() if k.startswith(("row ", "keep "))]
    deals = [len(np.unique(v.deal)) for k, v in played.seats.items() if k.startswith(("row ", "keep "))]
    caveat = (" (`--quick` check size: not the shipped numbers)" if played.quick else "") + \
             (" (the reduced size CI checks: not the shipped numbers)" if played.reduced else "")
    span = f"{min(seats):,}" if min(seats) == max(seats) else f"{min(seats):,} to {max(seats):,}"
    return (f"{played.deals:,} deals, each at every seat, for the pickup, burning, copies and counting cells "
            f"({played.deals * spec.players:,} games an arm); the same number of fresh deals for the chart player; "
            f"{ORDER_DEALS * played.deals:,} deals, each at every seat, for the play order (played at engine speed: "
            f"{ORDER_DEALS * played.deals * spec.players:,} games an arm); {span} seats (from {min(deals):,} to "
            f"{max(deals):,} deals) for each face-up row and rank kept in hand (the first seats of deals from "
            f"{SWAP_FIRST_DEAL:,} on that hold it, every arm of a row on the same seats); "
            f"{games_in_all(played):,} games in all{caveat}. Rules: {rules_text(spec.points[0].rules) or 'canonical'}; "
            f"seed {spec.seed}.")


CSV_COLUMNS = ("section", "cell", "key", "arm", "reference", "seats", "differs", "mean", "lo", "hi", "p", "p_holm",
               "on_chart", "games_in_all")


def _on_chart(cell: Cell, rules: ChartRules) -> bool:
    return ((cell.section == "swap" and cell.key in rules.rows) or (cell.section == "keep" and cell.key in rules.keep)
            or (cell.section == "pickup" and rules.pickup is not None and cell.key == f"{rules.pickup[0]}:"
                f"{rules.pickup[1]}") or (cell.section == "burn" and cell.key == str(rules.burn))
            or (cell.section == "copies" and cell.key == str(rules.copies))
            or (cell.section == "order" and cell.key in (rules.two_from, "stop" if rules.stop else None,
                                                         f"save:{rules.save_specials}")))


def _csv(played: PlayedChart, rows: list, games: int) -> str:
    rules = chart_rules(rows, played.spec)
    buffer = io.StringIO()
    w = csv.writer(buffer, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for c, x, seats, differs in rows:
        w.writerow([csv_value(v) for v in (c.section, c.name, c.key, c.arm, c.reference, seats, differs, x.mean, x.lo,
                                           x.hi, x.p, x.p_holm, _on_chart(c, rules), games)])
    return buffer.getvalue()


def _main_figures(rows: list) -> CellTable:
    cells = [[c.section, c.name, _diff(x), format_p(x.p_holm)] for c, x, _, _ in rows
             if c.section in ("chart", "counting-diff", "own-swap")]
    return CellTable("The chart player, the strong player and counting (mean place against the reference; "
                     "negative: better)", [("section", "left"), ("cell", "left"), ("effect (95% CI)", "right"),
                                           ("Holm p", "right")], cells)


def _plot(played: PlayedChart, rows: list, rules: ChartRules, path: Path) -> Path:
    import textwrap

    import matplotlib.pyplot as plt

    from idiotsim.analysis.figures import save_png
    fig = plt.figure(figsize=(14, 18))
    grid = fig.add_gridspec(3, 2, height_ratios=[0.45, 1.25, 1.0])
    card = fig.add_subplot(grid[0, :])
    card.axis("off")
    chart, _, _ = _find(rows, "chart", "chart")
    strong, _, _ = _find(rows, "chart", "strong")
    text = [f"THE CHART: {played.spec.title}", f"(every cell measured at strong play, {strong_spec(played.spec)}, "
                                                f"with its 95% CI, Holm-adjusted; see chart.md)", ""]
    for line in _rules_lines(rows, rules):
        plain = line.replace("**", "").replace("`", "")
        text += textwrap.wrap(plain, 118, subsequent_indent="   ")
    text += ["", *textwrap.wrap(f"Worth: {_diff(chart)} places a game against basic on fresh deals (negative: better); "
                                f"the strong player {_diff(strong)}; the chart recovers "
                                f"{_percent(_share(chart, strong, played))} of its gain.", 118)]
    card.text(0.0, 1.0, "\n".join(text), va="top", ha="left", family="monospace", fontsize=10.5,
              transform=card.transAxes)
    swap = sorted(((x.mean, c.key, x) for c, x, _, _ in rows if c.section == "swap" and not math.isnan(x.mean)))
    ax = fig.add_subplot(grid[1:, 0])
    labels = [k for _, k, _ in swap]
    means = np.array([x.mean for _, _, x in swap])
    lo = np.array([x.lo for _, _, x in swap])
    hi = np.array([x.hi for _, _, x in swap])
    y = np.arange(len(swap))[::-1]
    colours = ["tab:green" if k in rules.rows else "tab:grey" for k in labels]
    ax.barh(y, means, color=colours)
    ax.errorbar(means, y, xerr=[np.nan_to_num(means - lo), np.nan_to_num(hi - means)], fmt="none", ecolor="black",
                lw=0.7)
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_ylim(-0.7, len(swap) - 0.3)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("mean place, the row face-up against basic's row (negative: better)")
    ax.set_title("The swap: face-up rows, best first (green: on the chart)")
    ax = fig.add_subplot(grid[1, 1])
    grid_values = np.array([[_find(rows, "pickup", f"{k}:{r}")[0].mean for r in PICKUP_RANKS] for k in PICKUP_SIZES])
    limit = max(0.01, float(np.nanmax(np.abs(grid_values)))) if np.isfinite(grid_values).any() else 0.01
    image = ax.imshow(grid_values, cmap="RdYlGn_r", vmin=-limit, vmax=limit)
    for i, k in enumerate(PICKUP_SIZES):
        for j, r in enumerate(PICKUP_RANKS):
            x = _find(rows, "pickup", f"{k}:{r}")[0]
            ax.text(j, i, ("* " if _beats(x) or _costs(x) else "") + format_number(x.mean, 3, True), ha="center",
                    va="center", fontsize=8)
    ax.set_xticks(range(len(PICKUP_RANKS)), [f"{r} or higher" for r in PICKUP_RANKS], fontsize=8)
    ax.set_yticks(range(len(PICKUP_SIZES)), [_cards(k) for k in PICKUP_SIZES], fontsize=8)
    ax.set_title("Picking up such piles on purpose, against never\n(mean place; * significant; red: worse)")
    fig.colorbar(image, ax=ax, shrink=0.7, label="mean place (negative: better)")
    ax = fig.add_subplot(grid[2, 1])
    items = [(f"burn from {k} card{'s' if k > 1 else ''}", _find(rows, "burn", str(k))[0]) for k in BURN_SIZES]
    items += [(f"at most {k} a play (talon)", _find(rows, "copies", str(k))[0]) for k in COPIES]
    items += [(f"keep {c.key}s in hand", x) for c, x, _, _ in rows if c.section == "keep"]
    short = {"stop": "stop the next player"} | {r: f"a 2 rather than {r}" + ("" if r == "A" else "+")
                                                  for r in ORDER_RANKS}
    items += [(short[key] if key in short else f"pick up {_cards(int(key[5:]))}, not a 2/10",
               _find(rows, "order", key)[0])
              for key, _, _ in ORDER_RULES]
    items += [(f"memory: {name}", _find(rows, "counting", name)[0]) for name, _ in COUNTING]
    _bars(ax, items, "Burning (against saving 10s), copies (against own), ranks kept\n(against basic's row), "
                     "play order and memory (against basic)")
    return save_png(fig, path)


def _bars(ax, items, title: str) -> None:
    labels = [k for k, _ in items]
    means = np.array([x.mean for _, x in items])
    lo = np.array([x.lo for _, x in items])
    hi = np.array([x.hi for _, x in items])
    y = np.arange(len(items))[::-1]
    ax.barh(y, means, color=["tab:green" if _beats(x) else ("tab:red" if _costs(x) else "tab:grey") for _, x in items])
    ax.errorbar(means, y, xerr=[np.nan_to_num(means - lo), np.nan_to_num(hi - means)], fmt="none", ecolor="black",
                lw=0.7)
    ax.set_yticks(y, labels, fontsize=8)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("mean place difference (negative: better)")
    ax.set_title(title)


def rules_from_csv(path) -> ChartRules:
    """The chart's rules as a committed NAME.csv states them (its `on_chart` column), rows best first."""
    with Path(path).open(newline="") as f:
        picked = [r for r in csv.DictReader(f) if r["on_chart"] == "true"]
    rows = sorted((float(r["mean"]), r["key"]) for r in picked if r["section"] == "swap")
    pickup = [r["key"].split(":") for r in picked if r["section"] == "pickup"]
    burn = [int(r["key"]) for r in picked if r["section"] == "burn"]
    copies = [int(r["key"]) for r in picked if r["section"] == "copies"]
    order = [r["key"] for r in picked if r["section"] == "order" and r["key"] in ORDER_RANKS]
    save = [int(r["key"].split(":")[1]) for r in picked if r["section"] == "order" and r["key"].startswith("save:")]
    return ChartRules(rows=tuple(k for _, k in rows), keep=tuple(r["key"] for r in picked if r["section"] == "keep"),
                      pickup=(int(pickup[0][0]), pickup[0][1]) if pickup else None, burn=burn[0] if burn else None,
                      copies=copies[0] if copies else None, two_from=order[0] if order else None,
                      stop=any(r["section"] == "order" and r["key"] == "stop" for r in picked),
                      save_specials=save[0] if save else None)
