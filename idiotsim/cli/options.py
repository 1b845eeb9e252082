"""Options shared by the commands, and the checks that turn them into library objects.

Declare a command's options with the ``*Opt`` aliases so flags read and fail
the same way everywhere, then convert them with ``load_rules_option``,
``load_seats``, ``check_seed`` / ``check_game`` / ``check_games``,
``set_threads`` and ``check_out_folder``; --cluster/--workers become an executor
through ``idiotsim.runs.chunks.executor_from_flags``.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Iterable, Optional

import typer

from idiotsim.errors import UserError
from idiotsim.game.rules import FIELD_NAMES, Rules, load_rules, stated_value

SEED_MAX = 2 ** 63 - 1  # seeds and game indices feed int64 counters (idiotsim.game.rng)
MAX_GAMES = 10 ** 12
# The run seed of every command that has a default one (run, deal, tournament, optimize, learn) and the seed of
# the sampled states (analyze, review): one value, so that leaving a seed out means the same anywhere. The
# commands whose seed picks a game to replay (trace, analyze, review) have none, and play draws one and prints it.
DEFAULT_SEED = 0

PlayersOpt = Annotated[Optional[int], typer.Option(
    "--players", "-n", metavar="N",
    help="Number of players (2..10); a rules file or --rule that states another number is an error.")]
RulesFileOpt = Annotated[Optional[str], typer.Option(
    "--rules", metavar="FILE.toml", help="Rules config file (TOML): the rules fields, at top level or in a rules table.")]
RuleOpt = Annotated[Optional[list[str]], typer.Option(
    "--rule", metavar="NAME=VALUE",
    help=f"Set one rules field (repeatable), after --rules. Fields: {', '.join(FIELD_NAMES)} "
         "(docs/rules.md).")]
StrategiesOpt = Annotated[str, typer.Option(
    "--strategies", "-s", metavar="A,B,...",
    help="One strategy per seat, comma-separated; one name means every seat. "
         "name[:knob=v,...] or path/file.py:name, each optionally +constraints (learned-search-4p+up=10). "
         "See `idiotsim strategies`.")]
SeedOpt = Annotated[Optional[int], typer.Option(
    "--seed", metavar="S",
    help="Seed of the game's decks and draws, 0..2**63-1, as `run --seed S` deals them. Not given: play draws "
         "one and prints it; trace, analyze and review take the game from their other flags.")]
RunSeedOpt = Annotated[int, typer.Option(
    "--seed", metavar="S", help="Run seed, 0..2**63-1: the decks and every random draw (the same default in "
                                "every command).")]
SearchSeedOpt = Annotated[int, typer.Option("--search-seed", metavar="S", help="Seed of the sampled states.")]
GameOpt = Annotated[Optional[int], typer.Option(
    "--game", metavar="I", help="Game index under --seed (default 0).")]
GamesOpt = Annotated[int, typer.Option("--games", "-g", metavar="G", help="Number of games to deal.")]  # deal
OutOpt = Annotated[str, typer.Option("--out", "-o", metavar="DIR", help="Results folder (Parquet, one file per chunk).")]
GameFileOpt = Annotated[Optional[str], typer.Option(
    "--game-file", metavar="FILE", help="A game file of `idiotsim play`: its rules, seats, decks and every "
                                        "decision (replaces the other game and rules flags).")]
RevealOpt = Annotated[bool, typer.Option(
    "--reveal", help="With the game file of an unfinished game of `idiotsim play`: show what your seat could not know "
                     "yet (the bots' hands). Without it such a game shows only what your seat saw; a finished game "
                     "shows everything.")]
ThreadsOpt = Annotated[Optional[int], typer.Option(
    "--threads", metavar="T", help="Engine threads (default: all cores, or NUMBA_NUM_THREADS).")]
ClusterOpt = Annotated[Optional[str], typer.Option(
    "--cluster", metavar="tcp://HOST:8786",
    help="Run the chunks on this Dask scheduler (needs idiotsim\\[dask]).")]
WorkersOpt = Annotated[Optional[int], typer.Option(
    "--workers", metavar="N", help="Run the chunks on a local Dask cluster of N worker processes.")]


def command_name() -> str:
    """How the user runs idiotsim, for the commands a command prints to run next: `idiotsim`, or what
    ``dev.py`` puts in IDIOTSIM_COMMAND (``python3 /path/to/dev.py``) when it runs the command."""
    return os.environ.get("IDIOTSIM_COMMAND") or "idiotsim"


def load_rules_option(rules_file: str | None, rule: Iterable[str] | None, players: int | None) -> Rules:
    """Rules from ``--rules FILE``, then ``--rule NAME=VALUE`` (in order), then ``--players``, which may not
    contradict a number of players the file or a --rule states (a user who says both means one of them)."""
    assignments = list(rule or ())
    rules = load_rules(rules_file, assignments, players=players)
    if players is not None:
        check_flag_agrees(rules_file, assignments, "players", players, f"--players {players}", "the number of players")
    return rules


def check_flag_agrees(rules_file: str | None, assignments: list, name: str, value, flag: str, what: str) -> None:
    """A command-line flag that sets rules field `name` to `value` may not contradict a value the rules file or a
    --rule states for it (a user who says both means one of them): one error line naming both."""
    stated = stated_value(rules_file, assignments, name)
    if stated is not None and stated != value:
        shown = str(stated).lower() if isinstance(stated, bool) else stated  # as the user wrote it
        where = (f"--rule {name}={shown}" if stated_value(None, assignments, name) is not None
                 else f"{name} = {shown} in {rules_file}")
        raise UserError(f"{flag} contradicts {where}: give {what} once")


def load_seats(text: str, rules: Rules) -> list:
    """``--strategies`` for ``rules.players`` seats (one name means every seat)."""
    from idiotsim.strategies.loading import load_strategies
    return load_strategies(text, rules.players)


def check_seed(value: int, option: str = "--seed") -> int:
    if not 0 <= value <= SEED_MAX:
        raise UserError(f"{option} must be an integer 0..{SEED_MAX} (2**63-1), got {value}")
    return value


def check_game(value: int, option: str = "--game") -> int:
    if not 0 <= value <= SEED_MAX:
        raise UserError(f"{option} must be a game index 0..{SEED_MAX}, got {value}")
    return value


def check_games(games: int) -> int:
    if not 1 <= games <= MAX_GAMES:
        raise UserError(f"--games must be 1..10**12, got {games}")
    return games


def set_threads(threads: int | None) -> None:
    if threads is None:
        return
    import numba
    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise UserError(f"--threads must be 1..{numba.config.NUMBA_NUM_THREADS}, got {threads}")
    numba.set_num_threads(threads)
