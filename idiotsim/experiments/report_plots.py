"""The reports' plots: a deal design's (one panel per headline number against the sweep), the chart's (its
card, the swap rows, the pickup grid and the other cells' bars) and the learned player's frontier (strength
against time per decision, each point labelled where its label overlaps nothing)."""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from idiotsim.experiments.chart_analysis import ChartRules, beats, chart_share, costs, split_shares
from idiotsim.experiments.chart_cells import (BURN_SIZES, COPIES, COUNTING, ORDER_RANKS, ORDER_RULES, PICKUP_RANKS,
                                              PICKUP_SIZES, pile_words, strong_spec)
from idiotsim.experiments.chart_page import difference_text, find_cell, percent_text, rules_lines
from idiotsim.experiments.chart_play import PlayedChart
from idiotsim.experiments.learned_rows import FRONTIER_KINDS, SEARCH_DEFAULT_ROLLOUTS, Rows, cell, knobs_of, number
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.strategy_text import value_text
from idiotsim.experiments.text import format_number


def plot(design, spec: Spec, rows: list, path: Path) -> Path:
    from idiotsim.analysis.figures import plt, save_png  # the project's headless matplotlib

    points = spec.points
    fig, axes = plt.subplots(1, len(design.plot_panels), figsize=(4.6 * len(design.plot_panels), 3.8))
    numeric = bool(spec.sweep_name) and spec.sweep_name != "variant" and all(
        isinstance(p.x, (int, float)) and not isinstance(p.x, bool) for p in points)
    series = list(dict.fromkeys(p.series for p in points))
    ticks = None if numeric else list(dict.fromkeys(value_text(p.x) for p in points))

    def x_position(p, k: int) -> float:
        if numeric:
            return float(p.x)
        return ticks.index(value_text(p.x)) + (k - (len(series) - 1) / 2) * 0.12

    for ax, (attribute, scale, ylabel, zero) in zip(axes, design.plot_panels):
        for k, s in enumerate(series):
            chosen = [(p, getattr(r, attribute)) for p, r in zip(points, rows) if p.series == s]
            x = [x_position(p, k) for p, _ in chosen]
            y = np.array([e.mean for _, e in chosen]) * scale
            err = np.vstack([y - np.array([e.lo for _, e in chosen]) * scale,
                             np.array([e.hi for _, e in chosen]) * scale - y])
            ax.errorbar(x, y, yerr=np.clip(np.nan_to_num(err), 0, None), fmt="o-" if numeric else "o", capsize=3,
                        label=s or None)
        if zero:
            ax.axhline(0, color="grey", lw=0.8)
        ax.set_ylabel(ylabel.format(control=spec.control_label))  # a design's label may name the control
        _x_axis(ax, spec, ticks)
        ax.grid(alpha=0.3)
        if len(series) > 1:
            ax.legend(fontsize=7)
    shared = getattr(design, "shared_panels", 0)  # the deal designs' attribute (PairedDesign)
    if shared > 1:  # effects a reader compares side by side: one scale
        lows, highs = zip(*(ax.get_ylim() for ax in axes[:shared]))
        for ax in axes[:shared]:
            ax.set_ylim(min(lows), max(highs))
    fig.suptitle(f"{spec.title} (95% CI)", fontsize=10)
    return save_png(fig, path, dpi=100)


def _x_axis(ax, spec: Spec, ticks) -> None:
    from matplotlib.ticker import MaxNLocator
    if ticks is not None:
        crowded = len(ticks) > 3
        ax.set_xticks(range(len(ticks)), ticks, rotation=30 if crowded else 0, ha="right" if crowded else "center",
                      fontsize=8)
        return
    ax.set_xlabel(spec.sweep_name)
    values = sorted({float(p.x) for p in spec.points})
    if all(v == int(v) for v in values):
        if len(values) <= 12:
            ax.set_xticks(values, [str(int(v)) for v in values])
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def chart_plot(played: PlayedChart, rows: list, rules: ChartRules, path: Path) -> Path:
    import textwrap

    import matplotlib.pyplot as plt

    from idiotsim.analysis.figures import save_png
    fig = plt.figure(figsize=(14, 19.5))
    grid = fig.add_gridspec(3, 2, height_ratios=[0.62, 1.25, 1.0])
    card = fig.add_subplot(grid[0, :])
    card.axis("off")
    chart, _, _ = find_cell(rows, "chart", "chart")
    strong, _, _ = find_cell(rows, "chart", "strong")
    text = [f"THE CHART: {played.spec.title}", f"(every cell measured at strong play, {strong_spec(played.spec)}, "
                                                f"with its 95% CI, Holm-adjusted; see chart.md)", ""]
    for line in rules_lines(rows, rules):
        plain = line.replace("**", "").replace("`", "")
        text += textwrap.wrap(plain, 118, subsequent_indent="   ")
    text += ["", *textwrap.wrap(f"Worth: {difference_text(chart)} places a game against basic on held-out deals "
                                f"(negative: better); the strong player {difference_text(strong)}; the chart recovers "
                                f"{percent_text(chart_share(played))} of its gain.", 118)]
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
    grid_values = np.array([[find_cell(rows, "pickup", f"{k}:{r}")[0].mean for r in PICKUP_RANKS]
                            for k in PICKUP_SIZES])
    limit = max(0.01, float(np.nanmax(np.abs(grid_values)))) if np.isfinite(grid_values).any() else 0.01
    image = ax.imshow(grid_values, cmap="RdYlGn_r", vmin=-limit, vmax=limit)
    for i, k in enumerate(PICKUP_SIZES):
        for j, r in enumerate(PICKUP_RANKS):
            x = find_cell(rows, "pickup", f"{k}:{r}")[0]
            ax.text(j, i, ("* " if beats(x) or costs(x) else "") + format_number(x.mean, 3, True), ha="center",
                    va="center", fontsize=8)
    ax.set_xticks(range(len(PICKUP_RANKS)), [f"{r} or higher" for r in PICKUP_RANKS], fontsize=8)
    ax.set_yticks(range(len(PICKUP_SIZES)), [pile_words(k) for k in PICKUP_SIZES], fontsize=8)
    ax.set_title("Picking up such piles on purpose, against never\n(mean place; * significant; red: worse)")
    fig.colorbar(image, ax=ax, shrink=0.7, label="mean place (negative: better)")
    ax = fig.add_subplot(grid[2, 1])
    items = [(f"burn from {k} card{'s' if k > 1 else ''}", find_cell(rows, "burn", str(k))[0]) for k in BURN_SIZES]
    items += [(f"at most {k} a play (talon)", find_cell(rows, "copies", str(k))[0]) for k in COPIES]
    items += [(f"keep {c.key}s in hand", x) for c, x, _, _ in rows if c.section == "keep"]
    short = {"stop": "stop the next player"} | {r: f"a 2 rather than {r}" + ("" if r == "A" else "+")
                                                  for r in ORDER_RANKS}
    items += [(short[key] if key in short else f"pick up {pile_words(int(key[5:]))}, not a 2/10",
               find_cell(rows, "order", key)[0])
              for key, _, _ in ORDER_RULES]
    items += [(f"memory: {name}", find_cell(rows, "counting", name)[0]) for name, _ in COUNTING]
    _bars(ax, items, "Burning (against saving 10s), copies (against own), ranks kept\n(against basic's row), "
                     "play order and memory (against basic)")
    return save_png(fig, path)


def sources_plot(played: PlayedChart, rows: list, path: Path) -> Path:
    """Where the strong player's gain comes from: what it loses playing basic's move in each kind, largest first."""
    import matplotlib.pyplot as plt

    from idiotsim.analysis.figures import save_png
    shares = split_shares(played, rows)
    total, _, _ = find_cell(rows, "split-total", "strong")
    fig, ax = plt.subplots(figsize=(10, 0.42 * len(shares) + 1.8))
    labels = [c.name for c, _, _ in shares]
    means = np.array([x.mean for _, x, _ in shares])
    lo = np.array([x.lo for _, x, _ in shares])
    hi = np.array([x.hi for _, x, _ in shares])
    y = np.arange(len(shares))[::-1]
    kinds = ["tab:blue" if costs(x) else ("tab:red" if beats(x) else "tab:grey") for _, x, _ in shares]
    ax.barh(y, means, color=kinds)
    ax.errorbar(means, y, xerr=[np.nan_to_num(means - lo), np.nan_to_num(hi - means)], fmt="none", ecolor="black",
                lw=0.7)
    for yi, (_, x, share) in zip(y, shares):
        if not math.isnan(share.mean):
            ax.text(max(x.hi, 0) if not math.isnan(x.hi) else 0, yi, f"  {100 * share.mean:.0f}%", va="center",
                    fontsize=8)
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_ylim(-0.7, len(shares) - 0.3)
    ax.axvline(0, color="black", lw=0.8)
    for colour, meaning in (("tab:blue", "its own move is better there (95% CI above 0)"),
                            ("tab:grey", "no clear difference (the 95% CI holds 0)"),
                            ("tab:red", "basic's move is better there")):
        if colour in kinds:
            ax.barh([np.nan], [np.nan], color=colour, label=meaning)  # a legend entry only
    if not math.isnan(total.mean):
        ax.axvline(-total.mean, color="tab:green", lw=1, ls="--", label=f"its whole gain over basic "
                                                                         f"({-total.mean:.3f})")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_xlabel("places a game the strong player loses playing basic's move there (95% CI; % of its gain)")
    ax.set_title(f"Where {strong_spec(played.spec)}'s gain over basic comes from, largest first")
    return save_png(fig, path)


def _bars(ax, items, title: str) -> None:
    labels = [k for k, _ in items]
    means = np.array([x.mean for _, x in items])
    lo = np.array([x.lo for _, x in items])
    hi = np.array([x.hi for _, x in items])
    y = np.arange(len(items))[::-1]
    ax.barh(y, means, color=["tab:green" if beats(x) else ("tab:red" if costs(x) else "tab:grey") for _, x in items])
    ax.errorbar(means, y, xerr=[np.nan_to_num(means - lo), np.nan_to_num(hi - means)], fmt="none", ecolor="black",
                lw=0.7)
    ax.set_yticks(y, labels, fontsize=8)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("mean place difference (negative: better)")
    ax.set_title(title)


# The frontier plot's marker of each kind of player (learned_rows.FRONTIER_KINDS).
FRONTIER_MARKERS = {"learned": "o", "search": "^", "plain search": "s", "search, learned rollouts": "D",
                    "gated search": "*"}


def frontier_figure(folder):
    """Strength against time per decision, a point per row of learned_frontier.csv, each labelled where its
    label overlaps no other label, point or the legend."""
    from idiotsim.analysis.figures import plt
    rows = Rows(Path(folder))("learned_frontier.csv")
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    labels = []
    kinds = [*FRONTIER_KINDS, *sorted({cell(r, "kind") for r in rows} - set(FRONTIER_KINDS))]
    for kind in kinds:
        points = sorted((r for r in rows if cell(r, "kind") == kind), key=lambda r: number(r, "us_per_decision"))
        if not points:
            continue
        x = [max(number(r, "us_per_decision"), 0.05) for r in points]
        y = [-number(r, "vs_basic") for r in points]
        err = [[yi + number(r, "hi") for r, yi in zip(points, y)], [-number(r, "lo") - yi for r, yi in zip(points, y)]]
        ax.errorbar(x, y, yerr=err, fmt=FRONTIER_MARKERS.get(kind, "v") + ("-" if kind in ("search", "plain search")
                                                                            else ""), label=kind, capsize=3)
        labels += [(xi, yi, short_label(cell(r, "player"))) for xi, yi, r in zip(x, y, points)]
    ax.set_xscale("log")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("time per decision of the player's seat (microseconds, one thread, log scale)")
    ax.set_ylabel("places better than basic (rotated, paired)")
    ax.set_title("Strength against time per decision, 4 players, three basic opponents")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()  # the labels are placed on the final layout, and take no part in it
    place_labels(ax, labels)
    return fig


def frontier_plot(folder, path) -> Path:
    """learned_frontier.png (`frontier_figure`)."""
    from idiotsim.analysis.figures import save_png
    return save_png(frontier_figure(folder), Path(path))


def short_label(player: str) -> str:
    """A point's label on the plot: `K=16` for the search, `learned-fast-4p, 8 units` for an earlier model."""
    if player.startswith("search:"):
        return f"K={knobs_of(player).get('rollouts', SEARCH_DEFAULT_ROLLOUTS)}"
    m = re.fullmatch(r"(\S+) \(iteration (\d+)(?:, (\d+) units)?\)", player)
    if m:
        return f"{m.group(1)}, " + (f"{m.group(3)} units" if m.group(3) else f"iteration {m.group(2)}")
    return player


# A label's tries: right of its point, then left, then up or down in steps of 9 points on either side.
LABEL_PLACES = tuple((side, step) for step in (0, 1, -1, 2, -2, 3, -3, 4, -4) for side in (1, -1))


def place_labels(ax, labels, fontsize: int = 7) -> list:
    """Each point's label beside it, at the first place (`LABEL_PLACES`) where it overlaps no label placed
    before it, no point and not the legend, lowest points first; a label moved up or down has a leader line
    to its point. Returns the labels (matplotlib texts)."""
    from matplotlib.transforms import Bbox
    renderer = ax.figure.canvas.get_renderer()
    taken = [ax.get_legend().get_window_extent(renderer)] if ax.get_legend() else []
    for x, y, _ in labels:  # the points themselves, a few pixels each way
        px, py = ax.transData.transform((x, y))
        taken.append(Bbox.from_extents(px - 3, py - 3, px + 3, py + 3))
    axes = ax.get_window_extent(renderer)
    texts = []
    for x, y, text in sorted(labels, key=lambda item: item[1]):
        for side, step in LABEL_PLACES:
            place = dict(fontsize=fontsize, textcoords="offset points", va="center", xytext=(7 * side, 9 * step),
                         ha="left" if side > 0 else "right")
            note = ax.annotate(text, (x, y), **place)
            box = note.get_window_extent(renderer)
            note.remove()
            inside = axes.contains(box.x0, box.y0) and axes.contains(box.x1, box.y1)
            if inside and not any(box.padded(-1).overlaps(other) for other in taken):  # touching is not overlapping
                break
        if step:  # a leader line from a moved label to its point
            place["arrowprops"] = {"arrowstyle": "-", "lw": 0.5, "color": "grey", "shrinkA": 0, "shrinkB": 3}
        note = ax.annotate(text, (x, y), **place)
        note.set_in_layout(False)
        taken.append(box)
        texts.append(note)
    return texts
