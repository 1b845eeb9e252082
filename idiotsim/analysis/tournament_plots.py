"""Tournament plots (matplotlib, PNG), drawn from a ``Summary``: each one read at a glance.

- mean_place.png: each strategy's mean place with its 95% CI (the bar around the dot, which is small so the
  bar shows), the figures written at the right; a strategy far from the rest (``random``) gets a panel of
  its own behind a broken axis, so it does not squash the others into a sliver.
- places.png: the share of each finishing place, one bar a strategy.
- head_to_head.png: a heat map on a diverging scale centred on even (50%), the row's share in each cell
  where the number fits, its text black or white by the cell's colour; its title wraps to the figure's width.
- seat_wins.png: win rate by seat (integer seats).
- game_length.png: the length of the games that did not stall, and the stalled games' share in a panel with
  its own axis (so a tournament whose games mostly stall keeps a readable histogram).
- convergence.png: the running mean place; at most ``HIGHLIGHTED`` lines in colours (the top strategies,
  ``basic``, the last), each labelled at its end, the others grey; a broken axis as in mean_place.png.

Each ``draw_*`` function returns the laid-out figure (the tests measure its text extents); the writer of
the same name saves it.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from idiotsim.analysis.figures import lay_out, plt, save_png

PLOTS = ("mean_place.png", "places.png", "head_to_head.png", "seat_wins.png", "game_length.png",
         "convergence.png")

LABEL_WIDTH = 30  # characters of a strategy's name on a plot; the tables keep it whole
HIGHLIGHTED = 8  # coloured, labelled lines of convergence.png at most (tab10 tells them apart)
TOP_HIGHLIGHTED = 5  # of which the top strategies by rank
ROW_INCHES = 0.3  # a strategy's row in mean_place.png and places.png
REFERENCE = "basic"  # highlighted in convergence.png when present
SQUASH = 1.5  # outlier_split: a gap this many times the rest's span breaks the axis
HEAT_INCHES = 12.0  # head_to_head.png: the cells' square at most (then the numbers may no longer fit)


def plot_labels(names: list[str]) -> list[str]:
    """Strategy names as the plots show them: a name longer than LABEL_WIDTH (a strategy file's path, say)
    keeps its end, so the axes keep their room; whole names if shortening would make two of them alike."""
    short = [name if len(name) <= LABEL_WIDTH else "…" + name[1 - LABEL_WIDTH:] for name in names]
    return short if len(set(short)) == len(set(names)) else list(names)


# ---- a broken axis for a strategy far from the rest -------------------------------------------------

def outlier_split(values) -> tuple[np.ndarray, np.ndarray]:
    """(main, outliers): indices of the values on either side of the widest gap between neighbours, when
    that gap is wider than SQUASH times the larger side's whole span (then one axis would squash that side into
    less than 40% of it: ``random`` against the rest); the smaller side is the outliers. Else all are main."""
    v = np.asarray(values, dtype=float)
    everything = np.arange(len(v))
    if len(v) < 3 or not np.all(np.isfinite(v)):
        return everything, everything[:0]
    order = np.argsort(v, kind="stable")
    gaps = np.diff(v[order])
    k = int(np.argmax(gaps))
    low, high = order[:k + 1], order[k + 1:]
    main, out = (low, high) if len(low) >= len(high) else (high, low)
    if gaps[k] <= max(SQUASH * np.ptp(v[main]), 0.05):
        return everything, everything[:0]
    return np.sort(main), np.sort(out)


def padded(lo, hi, share: float = 0.08, least: float = 0.01) -> tuple[float, float]:
    """An axis range holding [min lo, max hi] with a margin."""
    a, b = float(np.nanmin(lo)), float(np.nanmax(hi))
    pad = max((b - a) * share, least)
    return a - pad, b + pad


def break_marks(ax, sides: str) -> None:
    """Short diagonal strokes where an axis is broken: `sides` among l, r (x axis) and t, b (y axis)."""
    size = 0.015
    kw = dict(transform=ax.transAxes, color="k", clip_on=False, lw=1)
    for side in sides:
        if side in "lr":
            x = 0.0 if side == "l" else 1.0
            for y in (0.0, 1.0):
                ax.plot((x - size, x + size), (y - 2 * size, y + 2 * size), **kw)
        else:
            y = 0.0 if side == "b" else 1.0
            for x in (0.0, 1.0):
                ax.plot((x - size, x + size), (y - 2 * size, y + 2 * size), **kw)


# ---- mean place -------------------------------------------------------------------------------------

def draw_mean_place(summary, title: str | None = None, xlabel: str | None = None):
    from idiotsim.analysis.tournament_summary import fmt_ci
    t = summary.strategies
    names = plot_labels(t["strategy"].to_list())
    mean = t["mean_place"].to_numpy()
    given_lo, given_hi = t["mean_place_lo"].to_numpy(), t["mean_place_hi"].to_numpy()
    lo, hi = np.where(np.isnan(given_lo), mean, given_lo), np.where(np.isnan(given_hi), mean, given_hi)
    n = len(names)
    main, out = outlier_split(mean)
    groups = [main] if len(out) == 0 else sorted([main, out], key=lambda g: mean[g].min())
    ratios = [4 if g is main else 1 for g in groups]
    fig, axes = plt.subplots(1, len(groups), sharey=True, squeeze=False,
                             figsize=(9, ROW_INCHES * n + 1.7), gridspec_kw=dict(width_ratios=ratios))
    axes = list(axes[0])
    y = np.arange(n)[::-1]
    for ax, group in zip(axes, groups):
        for row in y:
            ax.axhline(row, color="0.9", lw=0.6, zorder=0)
        ax.errorbar(mean, y, xerr=np.vstack([mean - lo, hi - mean]), fmt="o", ms=3, color="C0", ecolor="C0",
                    elinewidth=1.8, capsize=3, capthick=1.2, zorder=3)
        ax.set_xlim(*padded(lo[group], hi[group]))
        ax.xaxis.set_major_locator(plt.MaxNLocator(6 if group is main else 2))
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(y, names)
    axes[0].set_ylim(-0.7, n - 0.3)
    for left, right in zip(axes, axes[1:]):
        left.spines["right"].set_visible(False)
        right.spines["left"].set_visible(False)
        right.yaxis.set_tick_params(which="both", left=False, length=0)
        break_marks(left, "r")
        break_marks(right, "l")
    figures = axes[-1].twinx()
    figures.set_ylim(axes[0].get_ylim())
    figures.set_yticks(y, [fmt_ci(m, a, b) for m, a, b in zip(mean, given_lo, given_hi)], fontsize=8)
    figures.tick_params(axis="y", right=False)
    for side in ("left", "right", "top", "bottom"):
        figures.spines[side].set_visible(len(axes) == 1 or side == "right")
    broken = "; the axis is broken between the groups" if len(out) else ""
    fig.supxlabel(xlabel or f"mean place (lower is better): dot and bar, 95% CI{broken}", fontsize=10)
    axes[0].set_title(title or f"Mean place, {summary.games:,} games, {summary.players} players", loc="left",
                      pad=12)  # above the break marks
    return lay_out(fig)


def mean_place(summary, path: Path) -> Path:
    return save_png(draw_mean_place(summary), path)


# ---- places -----------------------------------------------------------------------------------------

def draw_places(summary, title: str = "Distribution of places"):
    names = summary.strategies["strategy"].to_list()
    n = summary.players
    share = np.zeros((len(names), n))
    for row in summary.places.iter_rows(named=True):
        if row["strategy"] in names:
            share[names.index(row["strategy"]), row["place"] - 1] += row["count"]
    share /= np.maximum(share.sum(axis=1, keepdims=True), 1)
    fig, ax = plt.subplots(figsize=(7, ROW_INCHES * len(names) + 1.9))
    left = np.zeros(len(names))
    y = np.arange(len(names))[::-1]
    colors = plt.cm.RdYlGn_r(np.linspace(0.1, 0.9, n))
    for p in range(n):
        ax.barh(y, share[:, p], left=left, color=colors[p], label=f"place {p + 1}")
        left += share[:, p]
    ax.set_yticks(y, plot_labels(names))
    ax.set_ylim(-0.6, len(names) - 0.4)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:.0%}"))
    ax.set_xlabel("share of the strategy's seat-games")
    ax.set_title(title, loc="left", pad=22)
    ax.legend(ncol=min(n, 5), fontsize=8, loc="lower left", bbox_to_anchor=(0.0, 1.0), frameon=False,
              borderaxespad=0.2, handlelength=1.2, columnspacing=1.0)
    return lay_out(fig)


def places(summary, path: Path) -> Path:
    return save_png(draw_places(summary), path)


# ---- head to head -----------------------------------------------------------------------------------

H2H_FORMATS = ("{:.1f}", "{:.0f}")  # the row's share in percent, the first that fits every cell
H2H_MIN_SPREAD = 0.02  # the colour scale spans at least 48% to 52%


def head_to_head_grid(summary) -> tuple[list[str], np.ndarray]:
    names = summary.strategies["strategy"].to_list()
    grid = np.full((len(names), len(names)), np.nan)
    index = {name: i for i, name in enumerate(names)}
    for r in summary.head_to_head.iter_rows(named=True):
        if r["a"] in index and r["b"] in index:
            grid[index[r["a"]], index[r["b"]]] = r["a_ahead"]
    return names, grid


def colour_spread(grid: np.ndarray, means) -> float:
    """Half the colour scale's span around 50%: the widest distance from even among the strategies of the
    main group (``outlier_split``), so the cells of an outlier saturate instead of washing out the rest."""
    main, _ = outlier_split(means)
    inner = grid[np.ix_(main, main)]
    spread = np.nanmax(np.abs(inner - 0.5)) if np.isfinite(inner).any() else 0.5
    return float(min(0.5, max(H2H_MIN_SPREAD, np.ceil(spread * 100) / 100)))


def text_colour(rgba) -> str:
    """Black on a light cell, white on a dark one (relative luminance, WCAG)."""
    def channel(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgba[:3])
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 else "white"


def draw_head_to_head(summary):
    from matplotlib.colors import Normalize
    names, grid = head_to_head_grid(summary)
    k = len(names)
    means = summary.strategies["mean_place"].to_numpy()
    spread = colour_spread(grid, means)
    norm = Normalize(0.5 - spread, 0.5 + spread)
    cmap = plt.get_cmap("RdBu").with_extremes(bad="0.85")
    cell = min(1.0, max(0.36, 6.0 / max(k, 1)), HEAT_INCHES / max(k, 1))
    labels = [f"{i + 1} {name}" for i, name in enumerate(plot_labels(names))]
    label_inches = 0.065 * max(map(len, labels)) + 0.3
    side = cell * k
    fig, ax = plt.subplots(figsize=(side + label_inches + 1.3, side + 1.1))
    im = ax.imshow(grid, cmap=cmap, norm=norm, aspect="equal")
    ax.set_xticks(range(k), [str(i + 1) for i in range(k)], fontsize=8)
    ax.set_yticks(range(k), labels, fontsize=8)
    ax.tick_params(top=True, labeltop=True, bottom=False, labelbottom=False, length=0)
    ax.set_xticks(np.arange(k + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(k + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", lw=0.8)
    ax.tick_params(which="minor", length=0)
    ax.set_xlabel("column strategy (by rank)")
    extend = "both" if np.nanmin(grid, initial=0.5) < 0.5 - spread or np.nanmax(grid, initial=0.5) > 0.5 + spread \
        else "neither"
    bar = fig.colorbar(im, ax=ax, extend=extend, shrink=min(1.0, 4.0 / max(side, 0.1)), pad=0.02)
    bar.set_ticks([0.5 - spread, 0.5, 0.5 + spread])
    bar.set_ticklabels([f"{100 * (0.5 - spread):.0f}%", "50%, even", f"{100 * (0.5 + spread):.0f}%"])
    bar.ax.tick_params(labelsize=8)
    fitted_title(fig, ax, "Head to head: % of the shared tables at which the row finishes ahead of the column "
                          "(a tie counts half)", first_line=53)
    cell_numbers(fig, ax, grid, norm, cmap)
    return fig


def fitted_title(fig, ax, text: str, first_line: int, fontsize: float = 10) -> None:
    """`text` as the axes' left-aligned title in lines of at most `first_line` characters, or shorter lines
    where those would reach past the figure's right edge (a narrow figure: two strategies); lays `fig` out."""
    import textwrap
    for width in range(first_line, 9, -4):
        title = ax.set_title("\n".join(textwrap.wrap(text, width)), fontsize=fontsize, loc="left")
        lay_out(fig)
        fig.canvas.draw()  # places the title where the layout puts the axes
        box = title.get_window_extent(fig.canvas.get_renderer())
        if box.x1 <= fig.bbox.width - 2:
            return


def cell_numbers(fig, ax, grid, norm, cmap) -> None:
    """The row's share in each cell, in the first of H2H_FORMATS whose every number fits its cell (measured
    with the renderer); none where even the shortest does not fit."""
    k = grid.shape[0]
    renderer = fig.canvas.get_renderer()
    corner = ax.transData.transform([(0, 0), (1, 1)])
    cell_px = float(np.min(np.abs(corner[1] - corner[0])))
    size = float(np.clip(cell_px / fig.dpi * 72 * 0.34, 6.5, 10))
    cells = [(i, j) for i in range(k) for j in range(k) if np.isfinite(grid[i, j])]
    for form in H2H_FORMATS:
        numbers = [form.format(100 * grid[i, j]) for i, j in cells]
        widest = ax.text(0, 0, max(numbers, key=len, default=""), fontsize=size)
        box = widest.get_window_extent(renderer)
        widest.remove()
        if box.width <= 0.9 * cell_px and box.height <= 0.9 * cell_px:
            for (i, j), number in zip(cells, numbers):
                ax.text(j, i, number, ha="center", va="center", fontsize=size,
                        color=text_colour(cmap(norm(grid[i, j]))))
            return


def head_to_head(summary, path: Path) -> Path:
    return save_png(draw_head_to_head(summary), path)


# ---- seats ------------------------------------------------------------------------------------------

def draw_seat_wins(summary):
    t = summary.seats
    seats = t["seat"].to_numpy()
    rate = t["win_rate"].to_numpy()
    err = np.vstack([rate - t["lo"].to_numpy(), t["hi"].to_numpy() - rate])
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.bar(seats, rate, yerr=np.nan_to_num(err), capsize=4, width=0.6)
    ax.axhline(1 / summary.players, color="grey", ls="--", lw=1, label="even: 1 / players")
    ax.set_xticks(seats, [str(s) for s in seats])
    ax.set_xlim(seats.min() - 0.6, seats.max() + 0.6)
    ax.set_ylim(0, max(float(np.nanmax(t["hi"].to_numpy(), initial=0)), 1 / summary.players) * 1.25)
    ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:.0%}"))
    ax.set_xlabel("seat (seat 0 starts round 1)")
    ax.set_ylabel("win rate, 95% CI")
    ax.set_title("Win rate by seat", loc="left")
    ax.legend(loc="upper right", fontsize=8)
    return lay_out(fig)


def seat_wins(summary, path: Path) -> Path:
    return save_png(draw_seat_wins(summary), path)


# ---- game length ------------------------------------------------------------------------------------

LENGTH_QUANTILE = 0.995  # the histogram's axis ends here; the games beyond are counted in the title


def length_counts(summary) -> tuple[np.ndarray, np.ndarray, int]:
    """(actions, games that did not stall, stalled games) from the summary's histograms."""
    t = summary.length
    actions, games = t["actions"].to_numpy(), t["games"].to_numpy().astype(np.int64)
    stalled_table = getattr(summary, "length_stalled", None)
    stalled = np.zeros_like(games)
    if stalled_table is not None and stalled_table.height:
        at = {a: g for a, g in stalled_table.iter_rows()}
        stalled = np.array([at.get(a, 0) for a in actions.tolist()], dtype=np.int64)
    return actions, games - stalled, int(stalled.sum())


def draw_game_length(summary):
    """The lengths of the games that did not stall as shares of those games (so the histogram keeps its height
    however many stall), and the stalled games' share of all games in a panel of its own, on its own 0 to 100%
    axis, its figures above the bar."""
    actions, ok, stalled = length_counts(summary)
    total = max(int(ok.sum()) + stalled, 1)
    fig, (ax, side) = plt.subplots(1, 2, figsize=(7, 3.6), gridspec_kw=dict(width_ratios=(6, 1.1)))
    ax.bar(actions, ok / max(int(ok.sum()), 1), width=1.0, color="C0", lw=0)
    if ok.sum():
        cumulative = np.cumsum(ok) / ok.sum()
        end = int(actions[min(np.searchsorted(cumulative, LENGTH_QUANTILE), len(actions) - 1)])
        start = int(actions[np.argmax(ok > 0)])
        beyond = int(ok[actions > end].sum())
    else:
        start, end, beyond = 0, 1, 0
    ax.set_xlim(start - 1, end + 1)
    ax.set_xlabel("actions per game (games that did not stall)")
    ax.set_ylabel("share of the games that did not stall", fontsize=9)
    ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:.1%}"))
    stall_panel(side, stalled, total)
    mean = summary.length_ci[0]
    cut = f"; {beyond:,} longer games beyond the axis" if beyond else ""
    ax.set_title(f"Game length: mean {mean:.1f}, median {summary.length_median:g} actions{cut}", loc="left",
                 fontsize=10)
    return lay_out(fig)


STALL_AXIS_TOP = 1.3  # the stalled panel's axis runs past 100% so the figures fit above a full bar


def stall_panel(side, stalled: int, total: int) -> None:
    """The stalled games' share of all games: one bar on a 0 to 100% axis of its own, its share and count
    above it."""
    share = stalled / total
    side.bar([0], [share], width=0.6, color="C3")
    side.set_xlim(-0.8, 0.8)
    side.set_ylim(0, STALL_AXIS_TOP)
    side.set_xticks([0], ["stalled"])
    side.set_yticks([0, 0.5, 1.0], ["0%", "50%", "100%"], fontsize=8)
    side.yaxis.tick_right()
    side.yaxis.set_label_position("right")
    side.set_ylabel("share of all games", fontsize=8)
    side.spines[["top", "left"]].set_visible(False)
    side.spines["right"].set_bounds(0, 1)
    count = f"{stalled:,}" if stalled < 10 ** 9 else f"{stalled / 10 ** 9:,.1f} billion"  # fits the panel
    side.text(0, share + 0.03, f"{share:.2%}\n{count}\ngames", ha="center", va="bottom", fontsize=8)


def game_length(summary, path: Path) -> Path:
    return save_png(draw_game_length(summary), path)


# ---- convergence ------------------------------------------------------------------------------------

def highlighted(names: list[str]) -> list[int]:
    """Indices (of rank-ordered names) drawn in colour: all of them if at most HIGHLIGHTED, else the top
    TOP_HIGHLIGHTED, ``basic`` and the last."""
    if len(names) <= HIGHLIGHTED:
        return list(range(len(names)))
    chosen = list(range(TOP_HIGHLIGHTED))
    if REFERENCE in names and names.index(REFERENCE) not in chosen:
        chosen.append(names.index(REFERENCE))
    if len(names) - 1 not in chosen:
        chosen.append(len(names) - 1)
    return chosen


def spread_labels(wanted: np.ndarray, gap: float, lo: float, hi: float) -> np.ndarray:
    """Label positions as near `wanted` as may be, each at least `gap` from the next, inside [lo, hi]."""
    order = np.argsort(wanted, kind="stable")
    y = np.asarray(wanted, dtype=float)[order].copy()
    for _ in range(2):
        y[0] = max(y[0], lo)
        for i in range(1, len(y)):
            y[i] = max(y[i], y[i - 1] + gap)
        overflow = y[-1] - hi if len(y) else 0.0
        if overflow > 0:
            y[-1] = hi
            for i in range(len(y) - 2, -1, -1):
                y[i] = min(y[i], y[i + 1] - gap)
    out = np.empty_like(y)
    out[order] = y
    return out


def draw_convergence(summary, title: str = "Convergence of the mean place", xlabel: str = "seat-games played"):
    names = summary.strategies["strategy"].to_list()
    labels = dict(zip(names, plot_labels(names)))
    curves = {name: (group["games"].to_numpy(), group["mean_place"].to_numpy())
              for (name,), group in summary.convergence.group_by("strategy", maintain_order=True)}
    names = [name for name in names if name in curves]
    finals = np.array([curves[name][1][-1] for name in names])
    main, out = outlier_split(finals)
    coloured = highlighted(names)
    groups = [main] if len(out) == 0 else sorted([main, out], key=lambda g: -finals[g].min())  # top panel first
    ratios = [4 if g is main else 1 for g in groups]
    fig, axes = plt.subplots(len(groups), 1, sharex=True, squeeze=False, figsize=(7.5, 4.6),
                             gridspec_kw=dict(height_ratios=ratios))
    axes = list(axes[:, 0])
    grey = len(names) - len(coloured)
    panels = []
    for ax, group in zip(axes, groups):
        ends = []
        for i in group:
            x, y = curves[names[i]]
            if i in coloured:
                colour = f"C{coloured.index(i) % 10}"
                ax.plot(x, y, color=colour, lw=1.6, zorder=3)
                ends.append((i, x[-1], y[-1], colour))
            else:
                ax.plot(x, y, color="0.75", lw=0.8, zorder=2)
        ys = np.concatenate([curves[names[i]][1] for i in group])
        ax.set_ylim(*padded(ys, ys, share=0.06, least=0.005))
        ax.set_xscale("log")
        ax.grid(alpha=0.3)
        ax.yaxis.set_major_locator(plt.MaxNLocator(5 if group is main else 2))
        panels.append(ends)
    for upper, lower in zip(axes, axes[1:]):
        upper.spines["bottom"].set_visible(False)
        lower.spines["top"].set_visible(False)
        upper.tick_params(axis="x", which="both", bottom=False)
        break_marks(upper, "b")
        break_marks(lower, "t")
    axes[-1].set_xlabel(f"{xlabel} (log scale)")
    fig.supylabel("running mean place (lower is better)", fontsize=10)
    others = f"; grey: the other {grey}" if grey else ""
    axes[0].set_title(f"{title}{others}", loc="left", fontsize=10)
    lay_out(fig)  # the labels' spacing needs the axes' final height
    for ax, ends in zip(axes, panels):
        end_labels(fig, ax, ends, labels, names)
    return lay_out(fig)


def end_labels(fig, ax, ends, labels, names) -> None:
    """Each coloured line's name right of the axes at its end's height, moved apart so no two overlap."""
    if not ends:
        return
    lo, hi = ax.get_ylim()
    height_in = fig.get_figheight() * ax.get_position().height
    gap = (hi - lo) * (10.5 / 72) / max(height_in, 0.1)  # a line of 8-point text and a little, in data units
    ys = spread_labels(np.array([e[2] for e in ends]), gap, lo + gap / 2, hi - gap / 2)
    for (i, x, y, colour), label_y in zip(ends, ys):
        ax.annotate(labels[names[i]], xy=(x, y), xytext=(1.02, label_y), textcoords=("axes fraction", "data"),
                    va="center", fontsize=8, color=colour,
                    arrowprops=dict(arrowstyle="-", color=colour, lw=0.8, ls=":", shrinkA=1, shrinkB=0,
                                    relpos=(0, 0.5)))


def convergence(summary, path: Path) -> Path:
    return save_png(draw_convergence(summary), path)


def write_plots(summary, out_dir) -> list[Path]:
    out = Path(out_dir)
    makers = (mean_place, places, head_to_head, seat_wins, game_length, convergence)
    return [make(summary, out / name) for make, name in zip(makers, PLOTS)]
