"""`idiotsim optimize`: tune a strategy's knobs with CMA-ES on paired, common-random-number games.

    run_optimize(OptimizeConfig(strategy="weighted", players=4, field=("basic",), seed=1), "results/opt")

The folder then holds:

- ``evaluations.parquet``: one row per evaluated knob vector per generation
  (``candidate`` -1 is the distribution mean): generation, candidate,
  ``knob_<name>`` values, games, mean_place, and the paired difference in
  mean place to the control (diff, diff_lo, diff_hi: 95% CI).
- ``best.toml``: the best finalist (``selection.csv``: the final
  distribution mean, those of the last generations and the start, replayed
  on fresh deals) as a preset file (family and knobs), loadable with
  ``idiotsim.strategies.loading.load_strategy`` wherever a strategy spec goes.
- ``optimize.md`` with ``convergence.png``, ``knobs.png`` and
  ``sensitivity.png``; ``validation.csv`` and ``sensitivity.csv``.
- ``optimize.json`` (the configuration) and ``timing.json`` (wall time and
  games/s of the search games this process played; not reproducible).
- ``.search/gen-<g>.pkl``: each finished generation's rows and optimiser
  state, for resuming.

Interrupted (even by kill -9), the same call continues from the last finished
generation and writes the same evaluations and ``best.toml`` as a run that
never stopped. See ``search`` (CMA-ES), ``paired`` (the seating and the
statistics) and ``validate`` (held-out validation and sensitivity).
"""
from __future__ import annotations

import json
import shutil
import time
import uuid
from pathlib import Path

import polars as pl

from idiotsim.errors import UserError
from idiotsim.optimize import optimize_markdown as report
from idiotsim.optimize.config import OptimizeConfig, Problem, validate_config
from idiotsim.optimize.cmaes import OptimizeProgress, mean_values, run_search
from idiotsim.optimize.validate import selection, sensitivity, validation
from idiotsim.runs.atomic_files import write_atomic
from idiotsim.runs.game_results import write_parquet
from idiotsim.strategies.loading import preset_text

__all__ = ["OptimizeConfig", "OptimizeProgress", "run_optimize", "validate_config"]

MANIFEST = "optimize.json"


def prepare_out_dir(out: Path, config: OptimizeConfig, force: bool) -> None:
    """A new folder, or one holding this same configuration (resume). Checked to be writable;
    a folder made here is removed again when it is not."""
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a folder")
    manifest = out / MANIFEST
    if manifest.exists():
        try:
            held = json.loads(manifest.read_text())
        except (OSError, json.JSONDecodeError):
            held = None
        wanted = config.as_json()
        same = held == wanted
        if not same and not force:
            changed = (sorted(k for k in set(held) | set(wanted) if held.get(k) != wanted.get(k))
                       if isinstance(held, dict) else ["unreadable"])
            shown = [f"{k} (the folder's {held[k]}, now {wanted[k]})" if k == "seed" and k in held else k
                     for k in changed]
            raise UserError(f"{out} holds an optimisation with another configuration (differs in: "
                            f"{', '.join(shown)}); use another --out or --force")
        if not same:
            shutil.rmtree(out)
    elif out.is_dir() and any(out.iterdir()):
        if not force:
            raise UserError(f"--out {out} is not empty and holds no optimisation; use another folder or --force")
        shutil.rmtree(out)
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / f".probe-{uuid.uuid4().hex}"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        if created and out.is_dir():
            shutil.rmtree(out, ignore_errors=True)
        raise UserError(f"cannot write to --out {out}: {e.strerror or e}") from None
    write_atomic(manifest, json.dumps(config.as_json(), indent=2) + "\n")


def run_optimize(config: OptimizeConfig, out_dir, progress=None, force: bool = False, executor=None) -> Path:
    """Search, validate and report into `out_dir` (resuming an interrupted run of the same config).

    `progress(OptimizeProgress)`, if given, is called after every generation and phase; `executor`
    (``idiotsim.runs.chunks.executor_from_flags``) plays the games, with the same results anywhere."""
    problem = validate_config(config)
    problem.executor = executor
    out = Path(out_dir)
    prepare_out_dir(out, config, force)
    started = time.perf_counter()
    rows, optimiser, played = run_search(problem, out, progress)
    search_seconds = time.perf_counter() - started
    notify(progress, problem, "selection", None)
    best, selection_rows = selection(problem, rows, mean_values(optimiser))
    best_values = problem.knob_values(best)
    notify(progress, problem, "validation", best_values)
    validation_rows = validation(problem, best)
    notify(progress, problem, "sensitivity", best_values)
    sensitivity_rows = sensitivity(problem, best)
    write_outputs(problem, out, rows, best, selection_rows, validation_rows, sensitivity_rows)
    games = played * problem.games_per_generation
    write_atomic(out / "timing.json", json.dumps({"search_seconds": search_seconds, "search_games_this_process": games,
                                                "games_per_second": games / search_seconds}, indent=2) + "\n")
    notify(progress, problem, "done", best_values)
    return out


def notify(progress, problem: Problem, phase: str, best_values: dict) -> None:
    if progress is not None:
        progress(OptimizeProgress(phase, problem.generations, problem.generations,
                                  problem.generations * problem.games_per_generation, best_knobs=best_values))


def write_outputs(problem: Problem, out: Path, rows: list, best, selection_rows: list, validation_rows: list,
                  sensitivity_rows: list) -> None:
    config = problem.config
    evaluations = pl.DataFrame(rows)
    write_parquet(evaluations, out / "evaluations.parquet")
    command = report.command_line(config, str(out))
    header = ["Written by idiotsim optimize. Regenerate:", command]
    write_atomic(out / "best.toml", preset_text(best, config.strategy, header))
    summary = report.generation_summary(evaluations, problem.games_per_generation)
    report.convergence_plot(summary, config.field[0], out / report.CONVERGENCE)
    report.knob_plot(evaluations, problem, out / report.KNOBS)
    pl.DataFrame(selection_rows).write_csv(out / "selection.csv")
    if validation_rows:
        pl.DataFrame(validation_rows).write_csv(out / "validation.csv")
    if sensitivity_rows:
        pl.DataFrame(sensitivity_rows).write_csv(out / "sensitivity.csv")
        report.sensitivity_plot(sensitivity_rows, out / report.SENSITIVITY)
    write_atomic(out / "optimize.md", report.markdown(problem, str(out), evaluations, problem.knob_values(best),
                                                    selection_rows, validation_rows, sensitivity_rows))
