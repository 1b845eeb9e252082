"""Tournament commands: ``tournament`` (play and summarize), ``summarize`` (an
existing folder) and ``demo`` (the shipped strategies against each other)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from idiotsim.runs.chunks import executor_from_flags
from idiotsim.cli.options import (DEFAULT_SEED, ClusterOpt, OutOpt, RuleOpt, RulesFileOpt, RunSeedOpt, ThreadsOpt,
                                  WorkersOpt, check_games, check_seed,
                                  load_rules_option, set_threads)
from idiotsim.errors import UserError
from idiotsim.runs.atomic_files import check_out_folder

class ProgressBar:
    """A rich progress bar with games/s and time left, on a terminal only."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.bar = None

    def start(self, total: int, done: int) -> None:
        if not self.enabled:
            return
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn)

        class Rate(TextColumn):
            def render(self, task):
                speed = task.finished_speed or task.speed
                return super().render(task) if speed is None else f"{speed:,.0f} games/s"

        self.bar = Progress(TextColumn("[bold]playing"), BarColumn(), MofNCompleteColumn(), Rate(""),
                            TimeRemainingColumn(), transient=False)
        self.bar.start()
        self.task = self.bar.add_task("games", total=total, completed=done)

    def advance(self, games: int) -> None:
        if self.bar:
            self.bar.advance(self.task, games)

    def stop(self) -> None:
        if self.bar:
            self.bar.stop()


def report_tournament(out_dir) -> None:
    """Summarize a tournament folder: Markdown, CSV and plots into it, its tables to the terminal."""
    from idiotsim.cli.render import print_summary
    from idiotsim.analysis.tournament_plots import write_plots
    from idiotsim.analysis.tournament_summary import summarize, write_summary
    summary = summarize(out_dir)
    write_summary(summary, out_dir)
    write_plots(summary, out_dir)
    print_summary(summary, out_dir)


def tournament(
    out: OutOpt,
    strategies: Annotated[str, typer.Option("--strategies", "-s", metavar="A,B,...",
                                            help="Strategies to compare (specs as in `run`).")],
    players: Annotated[int, typer.Option("--players", "-n", metavar="N", help="Players per table.")] = 4,
    games: Annotated[int, typer.Option("--games", "-g", metavar="G",
                                       help="Games to play (rounded up to whole blocks).")] = 100_000,
    seed: RunSeedOpt = DEFAULT_SEED,
    field: Annotated[Optional[str], typer.Option(
        "--field", metavar="F,...", help="Field mode: each strategy plays against these (e.g. basic).")] = None,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
    threads: ThreadsOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Replace a tournament with another configuration.")] = False,
    independent: Annotated[bool, typer.Option(
        "--independent-deals", help="Give every game its own deal (no duplicate deals; for comparison).")] = False,
    chunk_games: Annotated[int, typer.Option("--chunk-games", metavar="C",
                                             help="Games per Parquet chunk.")] = 500_000,
    cluster: ClusterOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """A fair tournament: rotated duplicate deals, Parquet results, summary, plots. Resumes if interrupted."""
    from idiotsim.strategies.loading import split_specs
    from idiotsim.runs.tournament import TournamentConfig, Tournament, run_tournament
    rules = load_rules_option(rules_file, rule, players)
    check_seed(seed)
    check_games(games)
    set_threads(threads)
    if not 1_000 <= chunk_games <= 10_000_000:
        raise UserError(f"--chunk-games must be 1000..10000000, got {chunk_games}")
    rules_fields = {k: v for k, v in rules.as_dict().items() if k != "players"}
    config = TournamentConfig(strategies=tuple(split_specs(strategies)), players=rules.players, games=games,
                              seed=seed, rules=rules_fields, field=tuple(split_specs(field)) if field else (),
                              duplicate=not independent, chunk_games=chunk_games)
    Tournament(config)  # validates strategies and lineups before touching --out
    progress = ProgressBar(sys.stderr.isatty())
    executor = executor_from_flags(cluster, workers)
    check_out_folder(out)
    with executor:
        run_tournament(config, Path(out), force=force, progress=progress, executor=executor)
    report_tournament(out)


def summarize(out: Annotated[str, typer.Argument(metavar="DIR", help="A tournament results folder.")]) -> None:
    """Summarize a tournament folder (tables and plots written into it)."""
    report_tournament(out)


def demo(out: Annotated[str, typer.Option("--out", metavar="DIR", help="Results folder.")] = "results/demo",
         games: Annotated[int, typer.Option("--games", metavar="G", help="Games to play.")] = 1_000_000) -> None:
    """The main job: a tournament of the shipped strategies, with its table and plots (the search
    players, thousands of rollouts a decision, have reports of their own: reports/README.md)."""
    from idiotsim.strategies.loading import engine_speed_names
    from idiotsim.runs.tournament import MANIFEST
    names = ",".join(engine_speed_names())
    # Replace an earlier demo (its strategies may have changed), never an unrelated folder.
    tournament(out=out, strategies=names, players=4, games=games, seed=2026, field=None, rules_file=None,
               rule=None, threads=None, force=(Path(out) / MANIFEST).exists(), independent=False,
               chunk_games=500_000, cluster=None, workers=None)
