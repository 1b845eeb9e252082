"""The output folder's human side: ``optimize.md`` with its plots and CSV tables."""
from __future__ import annotations

import shlex
from pathlib import Path

import numpy as np
import polars as pl

from idiotsim.optimize.config import OptimizeConfig, Problem
from idiotsim.optimize.cmaes import MEAN
from idiotsim.analysis.figures import plt, save_png

CONVERGENCE, KNOBS, SENSITIVITY = "convergence.png", "knobs.png", "sensitivity.png"


def command_line(config: OptimizeConfig, out: str) -> str:
    """The command that regenerates the folder."""
    args = ["idiotsim", "optimize", "--strategy", config.strategy, "--players", config.players,
            "--field", ",".join(config.field), "--seed", config.seed, "--out", out,
            "--games-per-eval", config.games_per_eval, "--generations", config.generations,
            "--sigma", config.sigma, "--finalists", config.finalists, "--selection-games", config.selection_games,
            "--validation-games", config.validation_games,
            "--sensitivity-games", config.sensitivity_games, "--search-action-limit", config.search_action_limit]
    if config.knobs:
        args += ["--knobs", ",".join(config.knobs)]
    for flag, value in (("--budget", config.budget), ("--population", config.population)):
        if value is not None:
            args += [flag, value]
    for name, value in sorted(config.rules.items()):
        args += ["--rule", f"{name}={value}"]
    return " ".join(shlex.quote(str(a)) for a in args)


def generation_summary(evaluations: pl.DataFrame, games_per_generation: int) -> pl.DataFrame:
    """Per generation: games played so far, the best candidate with its CI, the candidates' mean,
    and the distribution mean's own evaluation with its CI."""
    candidates = evaluations.filter(pl.col("candidate") != MEAN)
    best = candidates.sort("diff").group_by("generation", maintain_order=True).first()
    mean_arm = evaluations.filter(pl.col("candidate") == MEAN)
    return (best.select("generation", pl.col("diff").alias("best"), pl.col("diff_lo").alias("best_lo"),
                        pl.col("diff_hi").alias("best_hi"))
            .join(candidates.group_by("generation").agg(pl.col("diff").mean().alias("candidates_mean")),
                  on="generation")
            .join(mean_arm.select("generation", pl.col("diff").alias("mean"), pl.col("diff_lo").alias("mean_lo"),
                                  pl.col("diff_hi").alias("mean_hi")), on="generation")
            .sort("generation")
            .with_columns(((pl.col("generation") + 1) * games_per_generation).alias("games")))


def convergence_plot(summary: pl.DataFrame, control: str, path: Path) -> Path:
    games = summary["games"].to_numpy()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for column, label, color in (("best", "best candidate of the generation", "tab:green"),
                                 ("mean", "distribution mean", "tab:blue")):
        ax.plot(games, summary[column].to_numpy(), color=color, label=label)
        ax.fill_between(games, summary[f"{column}_lo"].to_numpy(), summary[f"{column}_hi"].to_numpy(),
                        color=color, alpha=0.2)
    ax.plot(games, summary["candidates_mean"].to_numpy(), color="tab:gray", ls="--", label="mean of the candidates")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("search games played")
    ax.set_ylabel(f"mean place minus {control} (same deals), 95% CI")
    ax.set_title("Convergence (lower is better)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return save_png(fig, path)


def knob_plot(evaluations: pl.DataFrame, problem: Problem, path: Path) -> Path:
    """The distribution mean of every searched knob by generation, in its range."""
    mean_arm = evaluations.filter(pl.col("candidate") == MEAN).sort("generation")
    knobs = problem.knobs
    cols = min(4, len(knobs))
    rows = -(-len(knobs) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3 * cols, 1.9 * rows + 0.6), squeeze=False, sharex=True)
    for ax, knob in zip(axes.ravel(), knobs):
        ax.plot(mean_arm["generation"].to_numpy(), mean_arm[f"knob_{knob.name}"].to_numpy(), color="tab:blue")
        ax.set_ylim(knob.low, knob.high)
        ax.set_title(knob.name, fontsize=9)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    for ax in axes.ravel()[len(knobs):]:
        ax.axis("off")
    fig.suptitle("Knob trajectories: the distribution mean by generation (y axis = the knob's range)", fontsize=10)
    return save_png(fig, path)


def sensitivity_plot(rows: list, path: Path) -> Path:
    ordered = sorted(rows, key=lambda r: r["cost"])
    names = [f"{r['name']} ({r['kind']})" for r in ordered]
    cost = np.array([r["cost"] for r in ordered])
    err = np.vstack([cost - [r["cost_lo"] for r in ordered], [r["cost_hi"] for r in ordered] - cost])
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(names) + 1.5))
    y = np.arange(len(names))
    ax.barh(y, cost, xerr=err, color=np.where(cost > 0, "tab:red", "tab:gray"), capsize=3)
    ax.set_yticks(y, names, fontsize=8)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("mean place cost of resetting to the start (positive = the tuned value helps), 95% CI")
    ax.set_title("Sensitivity")
    return save_png(fig, path)


def _f(x: float, digits: int = 4) -> str:
    return f"{x:+.{digits}f}"


def markdown(problem: Problem, out: str, evaluations: pl.DataFrame, best_values: dict, selection_rows: list,
             validation_rows: list, sensitivity_rows: list) -> str:
    config = problem.config
    start = problem.knob_values(problem.start)
    last = evaluations["generation"].max() if len(evaluations) else -1
    lines = [f"# Optimising `{config.strategy}` ({config.players} players, field {', '.join(config.field)})", "",
             "Regenerate:", "", "```", command_line(config, out), "```", "",
             f"CMA-ES over {len(problem.knobs)} knobs, population {problem.population}, {last + 1} generations of "
             f"{problem.deals_per_eval * config.players:,} games per candidate ({problem.deals_per_eval:,} deals, "
             f"each with the candidate in every seat), {problem.games_per_generation * (last + 1):,} search games. "
             f"Every candidate of a generation, the distribution mean and the control ({config.field[0]}) play the "
             "same deals in the same seats with the same random draws; a candidate's score is its paired "
             "difference in mean place to the control (negative = better). Fresh deals each generation; the "
             "selection, validation and sensitivity deals were never used in the search nor by one another. "
             + (f"Search games stop at {problem.search_rules.action_limit:,} actions (R20; candidates that cycle "
                "would otherwise play the full limit); validation and sensitivity use the rules' limit."
                if problem.search_rules.action_limit != problem.rules.action_limit else ""), "",
             "## Best (`best.toml`)", "",
             "| knob | start | best | range |", "|---|---|---|---|"]
    for knob in problem.knobs:
        lines.append(f"| `{knob.name}` | {start[knob.name]:g} | {best_values[knob.name]:.4g} | "
                     f"{knob.low:g}..{knob.high:g} |")
    lines += ["", f"![convergence]({CONVERGENCE})", "", f"![knobs]({KNOBS})", "",
              "## Selection", "",
              f"The final distribution mean, those of the last generations and the start against {config.field[0]} "
              "on fresh "
              f"deals ({selection_rows[0]['games']:,} games each); the lowest difference is the best.", "",
              "| finalist | difference | 95% CI |", "|---|---|---|"]
    best_diff = min(r["diff"] for r in selection_rows)
    for r in selection_rows:
        mark = " (best)" if r["diff"] == best_diff else ""
        lines.append(f"| {r['finalist']}{mark} | {_f(r['diff'])} | [{_f(r['diff_lo'])}, {_f(r['diff_hi'])}] |")
    lines.append("")
    if validation_rows:
        games = validation_rows[0]["games"]
        lines += ["## Validation on held-out deals", "",
                  f"The best against each comparator at the focal seat, {games:,} games each: mean place of "
                  "best minus comparator (negative = best places better), 95% CIs and p-values Holm-adjusted "
                  "over the comparators.", "",
                  "| comparator | best place | comparator place | difference | 95% CI (Holm) | p (Holm) |",
                  "|---|---|---|---|---|---|"]
        for r in validation_rows:
            mark = " *" if r["significant"] else ""
            lines.append(f"| {r['comparator']} | {r['best_place']:.4f} | {r['comparator_place']:.4f} | "
                         f"{_f(r['diff'])}{mark} | [{_f(r['diff_lo'])}, {_f(r['diff_hi'])}] | {r['p_holm']:.3g} |")
        lines += ["", "\\* the CI excludes 0.", ""]
    if sensitivity_rows:
        games = sensitivity_rows[0]["games"]
        lines += ["## Sensitivity: which knobs matter", "",
                  f"The best with one knob (or group) reset to its start value, {games:,} games each: mean place "
                  "of the reset minus the best (positive = the tuned value helps), 95% CIs (not adjusted).", "",
                  "| reset | kind | cost | 95% CI |", "|---|---|---|---|"]
        for r in sorted(sensitivity_rows, key=lambda r: -r["cost"]):
            lines.append(f"| `{r['name']}` | {r['kind']} | {_f(r['cost'])} | [{_f(r['cost_lo'])}, "
                         f"{_f(r['cost_hi'])}] |")
        lines += ["", f"![sensitivity]({SENSITIVITY})", ""]
    return "\n".join(lines)
