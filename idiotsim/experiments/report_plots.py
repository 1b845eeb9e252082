"""The plot of a deal design's report: one panel per headline number against the sweep."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from idiotsim.experiments.spec import Spec
from idiotsim.experiments.strategy_text import value_text


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
        ax.set_ylabel(ylabel)
        _x_axis(ax, spec, ticks)
        ax.grid(alpha=0.3)
        if len(series) > 1:
            ax.legend(fontsize=7)
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
