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
- counting: the learned players with only the burned 2s and 10s remembered and without memory (one training
  run each, ``strategies.learned.model.H_MEMORY``), each against `basic` in the same seat; their difference is
  what the cheapest memory a chart could ask for is worth. What remembering every card that left play is worth
  is not measured here: the page quotes reports/counting_strong.csv, its one home (``chart_page.counting_section``).
- the chart player (``strategies/chart.py``, which follows the page) and S, each against `basic` in the same
  seat, on held-out deals (another range than the cells', CHART_DEALS times as many, on the spec's seed +
  HELDOUT_SEED_OFFSET, which no rule was chosen on): its gain, its share of S's gain, and what each of its rules
  and sections is worth (the chart with it switched off, against the chart); and at the other table sizes
  (OTHER_SIZES, OTHER_DEALS times the cells' deals each), the chart player and S at that size against `basic`.
- where S's gain comes from: S against S playing `basic`'s move in the decisions of one kind
  (``strategies/search/split.py``, `strong-split`), on deals of their own (SPLIT_DEALS times the cells'), the
  same game ids so the same random draws up to the first decision the split changes; S against `basic` there.

A rule enters the chart (``chart_rules``) where it beats the beginner's rule with a Holm-adjusted p below 0.05
and costs the strong player nothing measurable (against S, not significantly worse); the rows are ranked by
their effect against basic's row, and a row is on the chart when it beats basic's row so. Every difference on
the page is one Holm family.

Sizes: `games` is each arm's games: games / players deals for the rotated cells (each deal at every seat), the
same number of seats (instances) for each swap row and rank, found by scanning the deals of their own range.
Everything is kept as integers per deal, so the report is byte-identical for any chunking and worker count.

Layout: ``chart_cells`` (the cells and the arms each range of deals plays), ``chart_seats`` (the seats the swap
cells scan for), ``chart_play`` (the chunk tasks), ``chart_analysis`` (the intervals and the rules on the chart),
``chart_page`` (chart.md and chart.csv) and ``report_plots.chart_plot`` (chart.png); this module is the design
that strings them together.
"""
from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

from idiotsim.experiments.chart_analysis import analyse_chart, chart_rules
from idiotsim.experiments.chart_cells import (CHART_DEALS, CHART_FIRST_DEAL, KEEP_RANKS, ORDER_DEALS, ORDER_FIRST_DEAL,
                                              OTHER_DEALS, OTHER_SIZES, SPLIT_DEALS, SPLIT_FIRST_DEAL, arms_of,
                                              heldout_seed, size_range)
from idiotsim.experiments.chart_page import (SOURCES_PLOT, chart_answer, chart_csv, chart_main_figures, chart_markdown,
                                             chart_plain)
from idiotsim.experiments.chart_play import PlayedChart, games_in_all, play_arms
from idiotsim.experiments.chart_seats import find_seats, rotated
from idiotsim.experiments.design import Rendered
from idiotsim.experiments.report_plots import chart_plot, sources_plot
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.strategy_text import row_ranks, row_text
from idiotsim.game.cards import RANK_OF_NAME
from idiotsim.runs.chunks import Executor

QUICK_GAMES = 40  # each arm's games with --quick


class ChartDesign:
    name = "chart"
    full_size_files = (".md", ".csv", ".png", SOURCES_PLOT)

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
                 "chart": rotated(CHART_FIRST_DEAL, CHART_DEALS * deals, n),
                 "split": rotated(SPLIT_FIRST_DEAL, SPLIT_DEALS * deals, n)}
        for k in OTHER_SIZES:
            seats[size_range(k)] = rotated(CHART_FIRST_DEAL, int(OTHER_DEALS * deals), k)
        for ranks in rows:
            seats[f"row {row_text(ranks)}"] = row_seats[ranks]
        for name in KEEP_RANKS:
            seats[f"keep {name}"] = keep_seats[RANK_OF_NAME[name]]
        keys = [(arm, where) for where, arms in arms_of(spec).items() for arm in arms]
        held_out = {"chart": n, **{size_range(k): k for k in OTHER_SIZES}}  # range -> its table size
        groups = [([key for key in keys if key[1] not in held_out], spec.seed, n)]
        groups += [([key for key in keys if key[1] == where], heldout_seed(spec), k) for where, k in held_out.items()]
        places = {}
        for mine, seed, players in groups:
            places.update(zip(mine, play_arms(replace(rules, players=players), seed,
                                              [(arm, seats[where]) for arm, where in mine], executor)))
        places = {k: places[k] for k in keys}
        return PlayedChart(spec, size, deals, places, seats,
                           {row_text(ranks): same[ranks] for ranks in rows}, quick=quick)

    def analyse(self, played: PlayedChart) -> list:
        """(cell, interval, instances, share of the instances where the arms differ) per cell, Holm over the page."""
        return analyse_chart(played)

    def render(self, played: PlayedChart, rows: list, out_dir: Path) -> Rendered:
        rules = chart_rules(rows, played.spec)
        answer = chart_answer(played, rows, rules)
        plot = chart_plot(played, rows, rules, Path(out_dir) / f"{played.spec.name}.png")
        sources = sources_plot(played, rows, Path(out_dir) / f"{played.spec.name}{SOURCES_PLOT}")
        games = games_in_all(played)
        return Rendered(chart_markdown(played, rows, rules, answer, plot.name), chart_csv(played, rows, games), answer,
                        games, files=[plot, sources], table=chart_main_figures(rows), plain=chart_plain(played, rows, rules))
