"""The chart's cells: each contrast of the page, the arms every range of deals plays, and the ranges."""
from __future__ import annotations

from dataclasses import dataclass

from idiotsim.experiments.spec import Spec
from idiotsim.experiments.strategy_text import at_players, row_ranks, row_text, with_knobs
from idiotsim.game.cards import RANK_NAMES, RANK_OF_NAME
from idiotsim.strategies.split_kinds import KINDS as SPLIT_KINDS

PICKUP_SIZES = (1, 2, 3, 5)  # piles of 1..N cards
PICKUP_RANKS = ("9", "J", "Q", "K", "A")  # every card a 2 or this rank or higher
BURN_SIZES = (1, 3, 5, 8, 12)  # a 10 as soon as the pile holds N cards
COPIES = (1, 2)  # at most N cards a play while the talon lasts
KEEP_RANKS = ("10", "2", "A", "K", "Q", "J", "9", "8", "7")  # ranks basic lays face-up often enough to ask
CHART_FIRST_DEAL = 1_000_000  # the chart player's held-out deals ...
CHART_DEALS = 10  # ... this many times the cells' deals, ...
HELDOUT_SEED_OFFSET = 1  # ... of the spec's seed + this (no rule was chosen on that seed)
OTHER_SIZES = (2, 3, 5)  # the chart's worth at these table sizes too, on held-out deals ...
OTHER_DEALS = 2.5  # ... this many times the cells' deals (at each size)
SPLIT_FIRST_DEAL = 6_000_000  # the strong player's gain split by kind of decision: deals of their own ...
SPLIT_DEALS = 2  # ... this many times the cells' deals
ORDER_FIRST_DEAL = 3_000_000  # the play order's deals (basic's play: engine speed) ...
ORDER_DEALS = 25  # ... this many times the cells' deals


def pile_words(k: int) -> str:
    """A pile of up to k cards in words: "1 card", "1-2 cards"."""
    return "1 card" if k == 1 else f"1-{k} cards"


ORDER_RANKS = ("J", "Q", "K", "A")  # the play order: a 2 rather than an ordinary rank this high or higher
SAVE_SIZES = (1, 2)  # the play order: pick up a pile of 1..N cards rather than spend a 2 or a 10 on it


# the chart player with every section off: basic (tests/experiments/test_chart.py)
BASIC_KNOBS = ("swap=0,pickups=0,burning=0,copies=0,two_from=0,stop=0,save_specials=0,triples=0,pairs=0,"
               "high_singly=0,tens_singly=0,twos_singly=0")
ORDER_RULES = tuple((r, f"a 2 rather than {'an' if r == 'A' else 'a'} {r}{'' if r == 'A' else ' or higher'}",
                     f"two_from={RANK_OF_NAME[r]}") for r in ORDER_RANKS) + (
    ("stop", "the lowest card the next player's face-up cards cannot beat, when that is all they have", "stop=1"),
) + tuple((f"save:{k}", f"pick up a pile of {pile_words(k)} rather than spend a 2 or a 10 on it",
           f"save_specials={k}") for k in SAVE_SIZES)  # (key, words, knob) of each play-order cell




def chart_rule_words() -> tuple:
    """(key, words, knobs) of each of the chart's rules, each switched off (the words of the grown ones from the
    `chart` player's constants, strategies/chart.py): what each is worth to the chart player."""
    from idiotsim.strategies import chart
    pairs = RANK_NAMES[chart.SWAP_PAIRS_TO] if chart.SWAP_PAIRS_TO else "-"
    high = " and ".join(f"{r}s" for r in chart.SINGLY if r in ("K", "A"))
    return (("rows", "the listed rows (a low pair beside a 10, ...)", "swap=0"),
            ("triples", "three of a kind face-up", "triples=0"),
            ("pairs", f"the highest pair up to {pairs} face-up, with the best other card", "pairs=0"),
            ("two-for-A", "a 2 rather than an A", "two_from=0"),
            ("high-singly", f"{high} one at a time (all of them when they make four of a kind)", "high_singly=0"),
            ("tens-singly", "10s one at a time", "tens_singly=0"),
            ("twos-singly", "2s one at a time while the talon lasts", "twos_singly=0"),
            ("pickups", "never pick up by choice", "pickups=0"),
            ("burning", "save your 10s", "burning=0"),
            ("copies", "every copy of the other ranks", "copies=0"))


# The chart's two sections, each switched off whole: the swap and the play.
CHART_SECTIONS = (("swap", "the swap (rows, three of a kind, pairs)", "swap=0,triples=0,pairs=0"),
                  ("play", "the play (a 2 rather than an A, one at a time)",
                   "two_from=0,stop=0,save_specials=0,high_singly=0,tens_singly=0,twos_singly=0"))


# The memory a chart could ask for, measured here: the burned 2s and 10s alone, against no memory. What
# remembering every card that left play is worth has one home, COUNTING_REPORT, which the page quotes.
COUNTING = (("burned 2s and 10s", "learned-fast-specials-{players}p"), ("none", "learned-fast-nomem-{players}p"))
COUNTING_REPORT = "counting_strong"


@dataclass(frozen=True)
class Cell:
    """One contrast of the page: `arm` against `reference` on the same seats (negative: the arm finishes better)."""
    section: str  # swap, keep, pickup, burn, copies, counting, chart
    name: str  # the cell's words on the page (a row, a rank, "1-3 cards, J or higher", ...)
    arm: str
    reference: str
    key: str  # what it names in the CSV (the row, N:R, N, ...)


def strong_spec(spec: Spec) -> str:
    return at_players(spec.strategy, spec.players)


def size_range(players: int) -> str:
    """The range of the chart player's held-out deals at another table size."""
    return f"chart {players}p"


def range_players(spec: Spec, where: str) -> int:
    """The table size a range is played at."""
    return int(where.split()[1][:-1]) if where.startswith("chart ") else spec.players


def heldout_seed(spec: Spec) -> int:
    """The seed of the chart player's held-out deals."""
    return spec.seed + HELDOUT_SEED_OFFSET


def split_spec(spec: Spec, kind: int) -> str:
    """The strong player with basic's move in the decisions of one kind (strategies/search/split.py)."""
    return f"strong-split:kind={kind},players={spec.players}"


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
            "chart": ["basic", s, "chart"] + [f"chart:{k}" for _, _, k in chart_rule_words() + CHART_SECTIONS],
            "split": ["basic", s] + [split_spec(spec, i) for i in range(1, len(SPLIT_KINDS))]}
    for k in OTHER_SIZES:
        arms[size_range(k)] = ["basic", at_players(spec.strategy, k), "chart"]
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
    cells.append(Cell("counting-diff", "the burned 2s and 10s", players["burned 2s and 10s"], players["none"],
                      "specials-none"))
    for key, words, knob in ORDER_RULES:
        cells.append(Cell("order", words, order_spec(knob), "basic", key))
    cells.append(Cell("chart", "the chart player", "chart", "basic", "chart"))
    cells.append(Cell("chart", "the strong player", s, "basic", "strong"))
    for key, words, knob in chart_rule_words():
        cells.append(Cell("chart-rule", f"without: {words}", f"chart:{knob}", "chart", key))
    for key, words, knob in CHART_SECTIONS:
        cells.append(Cell("chart-section", f"without {words}", f"chart:{knob}", "chart", key))
    for k in OTHER_SIZES:
        cells.append(Cell("size", f"{k} players: the chart player", "chart", "basic", f"{k}:chart"))
        cells.append(Cell("size", f"{k} players: the strong player", at_players(spec.strategy, k), "basic",
                          f"{k}:strong"))
    cells.append(Cell("split-total", "the strong player's gain", s, "basic", "strong"))
    for i in range(1, len(SPLIT_KINDS)):
        key, words = SPLIT_KINDS[i]
        cells.append(Cell("split", words, split_spec(spec, i), s, key))
    return cells


def range_of(spec: Spec, cell: Cell) -> str:
    if cell.section in ("swap", "swap-own"):
        return f"row {cell.name}"
    if cell.section == "keep":
        return f"keep {cell.name}"
    if cell.section in ("chart", "chart-section", "chart-rule"):
        return "chart"
    if cell.section in ("split", "split-total"):
        return "split"
    if cell.section == "size":
        return size_range(int(cell.key.split(":")[0]))
    if cell.section == "order":
        return "order"
    return "cells"
