"""Tournament plots (matplotlib, PNG), drawn from a ``Summary``."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from idiotsim.analysis.figures import plt, save_png

PLOTS = ("mean_place.png", "places.png", "head_to_head.png", "seat_wins.png", "game_length.png",
         "convergence.png")


LABEL_WIDTH = 30  # characters of a strategy's name on a plot; the tables keep it whole


def plot_labels(names: list[str]) -> list[str]:
    """Strategy names as the plots show them: a name longer than LABEL_WIDTH (a strategy file's path, say)
    keeps its end, so the axes keep their room; whole names if shortening would make two of them alike."""
    short = [name if len(name) <= LABEL_WIDTH else "…" + name[1 - LABEL_WIDTH:] for name in names]
    return short if len(set(short)) == len(set(names)) else list(names)


def mean_place(summary, path: Path) -> Path:
    t = summary.strategies
    names = t["strategy"].to_list()
    mean = t["mean_place"].to_numpy()
    err = np.vstack([mean - t["mean_place_lo"].to_numpy(), t["mean_place_hi"].to_numpy() - mean])
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(names) + 1.5))
    y = np.arange(len(names))[::-1]
    ax.errorbar(mean, y, xerr=np.nan_to_num(err), fmt="o", capsize=4)
    ax.set_yticks(y, plot_labels(names))
    ax.set_xlabel("mean place (lower is better), 95% CI")
    ax.set_title(f"Mean place, {summary.games:,} games, {summary.players} players")
    ax.grid(axis="x", alpha=0.3)
    return save_png(fig, path)


def places(summary, path: Path) -> Path:
    names = summary.strategies["strategy"].to_list()
    n = summary.players
    share = np.zeros((len(names), n))
    for row in summary.places.iter_rows(named=True):
        share[names.index(row["strategy"]), row["place"] - 1] += row["count"]
    share /= share.sum(axis=1, keepdims=True)
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(names) + 1.5))
    left = np.zeros(len(names))
    y = np.arange(len(names))[::-1]
    colors = plt.cm.RdYlGn_r(np.linspace(0.1, 0.9, n))
    for p in range(n):
        ax.barh(y, share[:, p], left=left, color=colors[p], label=f"place {p + 1}")
        left += share[:, p]
    ax.set_yticks(y, plot_labels(names))
    ax.set_xlabel("share of seat-games")
    ax.set_title("Distribution of places")
    ax.legend(ncol=min(n, 5), fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.18))
    return save_png(fig, path)


def head_to_head(summary, path: Path) -> Path:
    names = summary.strategies["strategy"].to_list()
    grid = np.full((len(names), len(names)), np.nan)
    for r in summary.head_to_head.iter_rows(named=True):
        grid[names.index(r["a"]), names.index(r["b"])] = r["a_ahead"]
    fig, ax = plt.subplots(figsize=(1.1 * len(names) + 3, 0.9 * len(names) + 2))
    im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    labels = plot_labels(names)
    ax.set_xticks(range(len(names)), labels, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), labels)
    for i in range(len(names)):
        for j in range(len(names)):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=8)
    fig.colorbar(im, ax=ax, label="row finishes ahead of column")
    ax.set_title("Head to head")
    return save_png(fig, path)


def seat_wins(summary, path: Path) -> Path:
    t = summary.seats
    rate = t["win_rate"].to_numpy()
    err = np.vstack([rate - t["lo"].to_numpy(), t["hi"].to_numpy() - rate])
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.bar(t["seat"].to_numpy(), rate, yerr=err, capsize=4)
    ax.axhline(1 / summary.players, color="grey", ls="--", lw=1, label="1 / players")
    ax.set_xlabel("seat (0 starts round 1)")
    ax.set_ylabel("win rate, 95% CI over deals")
    ax.set_title("Win rate by seat")
    ax.legend()
    return save_png(fig, path)


def game_length(summary, path: Path) -> Path:
    t = summary.length
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.bar(t["actions"].to_numpy(), t["games"].to_numpy() / t["games"].sum(), width=1.0)
    ax.set_xlabel("actions per game")
    ax.set_ylabel("share of games")
    hi = np.quantile(np.repeat(t["actions"].to_numpy(), np.minimum(t["games"].to_numpy(), 1000)), 0.995)
    ax.set_xlim(0, hi)
    ax.set_title(f"Game length (mean {summary.length_ci[0]:.1f} actions)")
    return save_png(fig, path)


def convergence(summary, path: Path) -> Path:
    fig, ax = plt.subplots(figsize=(7, 4))
    groups = list(summary.convergence.group_by("strategy", maintain_order=True))
    for ((name,), group), label in zip(groups, plot_labels([name for (name,), _ in groups])):
        ax.plot(group["games"].to_numpy(), group["mean_place"].to_numpy(), label=label)
    ax.set_xscale("log")
    ax.set_xlabel("seat-games played")
    ax.set_ylabel("running mean place")
    ax.set_title("Convergence of the mean place")
    ax.legend(fontsize=8)
    return save_png(fig, path)


def write_plots(summary, out_dir) -> list[Path]:
    out = Path(out_dir)
    makers = (mean_place, places, head_to_head, seat_wins, game_length, convergence)
    return [make(summary, out / name) for make, name in zip(makers, PLOTS)]
