"""``idiotsim optimize``: tune a strategy's knobs (CMA-ES on paired games); see ``idiotsim.optimize``."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from idiotsim.runs.chunks import executor_from_flags
from idiotsim.cli.options import (DEFAULT_SEED, ClusterOpt, RuleOpt, RulesFileOpt, RunSeedOpt, ThreadsOpt, WorkersOpt,
                                  check_seed, load_rules_option, set_threads)

class OptimizeBar:
    """A rich progress bar over generations, showing the current best paired difference and its CI."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.bar = None
        self.task = None

    def __call__(self, progress) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            self.start(progress.generations)
        best = {"best": best_text(progress)} if progress.best_diff is not None else {}  # phases keep the last
        self.bar.update(self.task, completed=progress.generation, phase=progress.phase, **best)

    def start(self, generations: int) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        self.bar = Progress(TextColumn("[bold]{task.fields[phase]}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("generations  {task.fields[best]}"), TimeRemainingColumn())
        self.bar.start()
        self.task = self.bar.add_task("optimize", total=generations, phase="search", best="")

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def best_text(progress) -> str:
    """``best -0.0312 [-0.0401, -0.0223]``: the lowest paired difference to the control so far."""
    return f"best {progress.best_diff:+.4f} [{progress.best_lo:+.4f}, {progress.best_hi:+.4f}]"


def optimize(
    strategy: Annotated[str, typer.Option("--strategy", metavar="SPEC",
                                          help="The family to tune; its knob values are the starting point.")],
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR", help="Results folder (resumes a run of the "
                                                                        "same configuration).")],
    players: Annotated[Optional[int], typer.Option("--players", "-n", metavar="N", help="Players per table.")] = None,
    field: Annotated[str, typer.Option("--field", metavar="F,...",
                                       help="The other seats' strategies (cycled); the first is the control. "
                                            "Any spec, including a best.toml.")] = "basic",
    seed: RunSeedOpt = DEFAULT_SEED,
    knobs: Annotated[Optional[str], typer.Option("--knobs", metavar="A,B,...",
                                                 help="The knobs to tune (default: all).")] = None,
    games_per_eval: Annotated[int, typer.Option("--games-per-eval", metavar="G",
                                                help="Games per candidate per generation.")] = 20_000,
    generations: Annotated[int, typer.Option("--generations", metavar="N", help="Generations.")] = 40,
    budget: Annotated[Optional[int], typer.Option("--budget", metavar="GAMES",
                                                  help="At most this many search games.")] = None,
    population: Annotated[Optional[int], typer.Option("--population", metavar="L",
                                                      help="Candidates per generation (default 4 + 3 ln knobs).")
                          ] = None,
    sigma: Annotated[float, typer.Option("--sigma", metavar="S", help="Initial step, share of each knob's range.")
                     ] = 0.2,
    finalists: Annotated[int, typer.Option("--finalists", metavar="K", help="Distribution means replayed at the "
                                                                            "end.")] = 8,
    selection_games: Annotated[int, typer.Option("--selection-games", metavar="G",
                                                 help="Games per finalist.")] = 40_000,
    validation_games: Annotated[int, typer.Option("--validation-games", metavar="G",
                                                  help="Held-out games per comparator (0: none).")] = 200_000,
    sensitivity_games: Annotated[int, typer.Option("--sensitivity-games", metavar="G",
                                                   help="Games per reset knob or group (0: none).")] = 100_000,
    search_action_limit: Annotated[int, typer.Option("--search-action-limit", metavar="A",
                                                     help="Action limit of search games (0: the rules').")] = 1_000,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
    threads: ThreadsOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Replace a folder holding another run.")] = False,
    cluster: ClusterOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Find better knob values: CMA-ES on common-random-number games, held-out validation, sensitivity."""
    from idiotsim.optimize import OptimizeConfig, run_optimize, validate_config
    from idiotsim.strategies.loading import split_specs
    rules = load_rules_option(rules_file, rule, players)
    check_seed(seed)
    set_threads(threads)
    rules_fields = {k: v for k, v in rules.as_dict().items() if k != "players" and v != getattr(
        type(rules)(players=rules.players), k)}
    config = OptimizeConfig(
        strategy=strategy, players=rules.players, field=tuple(split_specs(field)), seed=seed,
        knobs=tuple(split_specs(knobs)) if knobs else (), games_per_eval=games_per_eval, generations=generations,
        budget=budget, population=population, sigma=sigma, finalists=finalists, selection_games=selection_games,
        validation_games=validation_games, sensitivity_games=sensitivity_games,
        search_action_limit=search_action_limit, rules=rules_fields)
    validate_config(config)  # every mistake before a folder is touched
    bar = OptimizeBar(sys.stderr.isatty())
    with executor_from_flags(cluster, workers) as executor:
        try:
            run_optimize(config, Path(out), progress=bar, force=force, executor=executor)
        finally:
            bar.stop()
    sys.stdout.write((Path(out) / "optimize.md").read_text())
    sys.stdout.write(f"\nbest.toml, optimize.md, evaluations.parquet and plots written to {out}\n")
