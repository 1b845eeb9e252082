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
    """A rich progress bar with games/s, time spent and time left, on a terminal only."""

    def __init__(self, enabled: bool, label: str = "playing"):
        self.enabled = enabled
        self.label = label
        self.bar = None

    def start(self, total: int, done: int) -> None:
        if not self.enabled:
            return
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        class Rate(TextColumn):
            def render(self, task):
                speed = task.finished_speed or task.speed or (
                    task.completed / task.elapsed if task.elapsed and task.completed else None)
                return super().render(task) if speed is None else f"{speed:,.0f} games/s"

        self.bar = Progress(TextColumn(f"[bold]{self.label}"), BarColumn(), MofNCompleteColumn(), Rate(""),
                            TimeElapsedColumn(), TimeRemainingColumn(), transient=False, console=None)
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


DEMO_OUT = "results/demo"
DEMO_GAMES = 1_000_000  # the round robin of `demo --strategies`
CHEAP_FIELD = "all"  # `demo --strategies all`: every shipped player at engine speed (the leaderboard's field)


def demo(out: Annotated[str, typer.Option("--out", metavar="DIR", help="Results folder.")] = DEMO_OUT,
         strategies: Annotated[Optional[str], typer.Option(
             "--strategies", "-s", metavar="A,B,...",
             help="A round robin of these strategies instead of the ladder; `all` for every shipped player at "
                  "engine speed (the cheap strategies).")] = None,
         games: Annotated[Optional[int], typer.Option(
             "--games", metavar="G",
             help="Games: the search's in the ladder (default 3000; the cheaper players play more, in fixed "
                  f"proportion), or the round robin's with --strategies (default {DEMO_GAMES}).")] = None) -> None:
    """The main job: the strength ladder from `random` through `basic`, the tuned and learned players to the
    gated search and the search, each at a table with three `basic` players on the same deals, with its
    table and plots (its time: README). --strategies all: the cheap strategies' round
    robin."""
    if strategies is not None:
        if strategies.strip() == CHEAP_FIELD:
            from idiotsim.strategies.loading import engine_speed_names
            strategies = ",".join(engine_speed_names())
        from idiotsim.analysis.ladder import SEED
        from idiotsim.runs.tournament import CHUNK_GAMES
        # Replace an earlier demo (its strategies may have changed), never an unrelated folder.
        tournament(out=out, strategies=strategies, players=4, games=games or DEMO_GAMES, seed=SEED, field=None,
                   rules_file=None, rule=None, threads=None, force=is_demo_folder(Path(out)),
                   independent=False, chunk_games=CHUNK_GAMES, cluster=None, workers=None)
        return
    from idiotsim.analysis.ladder import DEMO_SEARCH_GAMES
    check_games(games or DEMO_SEARCH_GAMES)
    if sys.stderr.isatty():
        ladder_intro()  # before the engine's import, which compiles it on a first run
    from idiotsim.runs.tournament import MANIFEST
    if Path(out).exists() and not is_demo_folder(Path(out)) and Path(out).is_dir() and any(Path(out).iterdir()):
        raise UserError(f"--out {out} is not empty and holds no demo; use another folder")
    check_out_folder(out)
    if (Path(out) / MANIFEST).exists():  # an earlier round-robin demo in the folder: the ladder replaces it
        import shutil
        shutil.rmtree(out)
    play_ladder(Path(out), games or DEMO_SEARCH_GAMES)


def is_demo_folder(out: Path) -> bool:
    """A folder a demo wrote (a round robin's tournament, or the ladder's): the demo may replace it."""
    from idiotsim.runs.tournament import MANIFEST
    return (out / MANIFEST).exists() or (out / "ladder.csv").exists() or (out / "players").is_dir()


def play_ladder(out: Path, search_games: int) -> None:
    """Each rung of the ladder as a field tournament into out/players/NAME (an interrupted demo resumes;
    one with other game counts is replaced), then the ladder's table, files and plots."""
    from idiotsim.analysis.ladder import (FIELD, LADDER, PLAYERS, SEED, ladder_from, rung_folder, rung_games,
                                          write_ladder)
    from idiotsim.cli.render import print_ladder
    from idiotsim.runs.tournament import MANIFEST, TournamentConfig, read_manifest, run_tournament
    terminal = sys.stderr.isatty()
    for rung in [rung for rung in LADDER if rung.spec]:
        config = TournamentConfig(strategies=(rung.spec,), players=PLAYERS, games=rung_games(rung, search_games),
                                  seed=SEED, field=(FIELD,))
        folder = rung_folder(out, rung)
        force = (folder / MANIFEST).exists() and read_manifest(folder).get("config") != config.as_json()
        with executor_from_flags(None, None) as executor:
            run_tournament(config, folder, force=force, progress=ProgressBar(terminal, rung.label),
                           executor=executor)
    ladder = ladder_from(out)
    write_ladder(ladder, out)
    print_ladder(ladder, out)


def ladder_intro() -> None:
    """What the ladder plays, on stderr, and on a first run that its players compile first."""
    from idiotsim.analysis.ladder import FIELD, LADDER
    from idiotsim.cli.render import console, paragraph
    played = [rung for rung in LADDER if rung.spec]
    paragraph(console(file=sys.stderr), f"The strength ladder: {len(played)} players from `{played[0].spec}` to "
                                        f"`{played[-1].spec}`, each at a table with three `{FIELD}` players on the "
                                        f"same deals, the expensive ones on fewer deals." + compile_note())


def compile_note() -> str:
    """A line for a first run, whose players compile before they play (the search for minutes)."""
    import os
    cache = Path(os.environ.get("NUMBA_CACHE_DIR", ""))
    if cache.name and any(cache.glob("search_*/pimc.*.nbi")):
        return " About 2 minutes on 2 cores."
    return (f" This first run compiles them before they play (the bars stand still meanwhile): 3 to 5 more "
            f"minutes on 2 cores, once (numba's cache: {cache}).")
