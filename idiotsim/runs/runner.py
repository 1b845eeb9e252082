"""`idiotsim run`: play games on the numba engine and stream them to Parquet.

A run's chunks are written into a hidden staging folder of its `--out`, named for the run's
configuration (rules, strategies, seed, games, decks, chunk size, package version: ``run_key``), and
moved into place only when every game has played, so an illegal move or an interrupt leaves no
partial result among the results. The staging folder outlives an interrupt (Ctrl-C, or kill -9):
the same command again finds its chunks and plays only the rest, to the same bytes as a run that
was never stopped (each chunk is a pure function of the configuration and its first game). A
staging folder of another configuration is a dead run's and is removed. A run that fails (an
illegal move, a worker's error) removes its staging folder, and the `--out` folder too when the run
made it and it holds nothing else.
"""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from idiotsim import __version__
from idiotsim.game.cards import format_deck
from idiotsim.runs.chunks import Executor, LocalExecutor, parallelism, write_chunk_files
from idiotsim.runs.chunk_sizes import games_per_chunk, lineup_cost, note_long_run
from idiotsim.errors import UserError
from idiotsim.runs.atomic_files import make_folder, write_atomic
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_games

CHUNK_GAMES = 500_000  # rows per Parquet file (>= 100k keeps files efficient), for players as fast as basic
MANIFEST = "run.json"
STAGING_PREFIX = ".staging-"  # the hidden folder a run's chunks are written to before they move into place


class RunInterrupted(Exception):
    """Ctrl-C stopped a run: `done` of `games` games are kept in `staging`, which the same command
    resumes from."""

    def __init__(self, done: int, games: int, staging: Path | None):
        super().__init__(f"interrupted after {done:,} of {games:,} games")
        self.done, self.games, self.staging = done, games, staging


def run_key(rules: Rules, specs: list, seed: int, games: int, decks, chunk_games: int) -> str:
    """What makes a run's chunks the same bytes: its configuration (the decks by their digest)."""
    digest = hashlib.sha256()
    for deck in decks or ():
        digest.update(format_deck(deck).encode() + b"\n")
    config = {"rules": rules.as_dict(), "strategies": list(specs), "seed": seed, "games": games,
              "decks": digest.hexdigest() if decks is not None else None, "chunk_games": chunk_games,
              "version": __version__}
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:16]


def finished_run(out: Path, key: str) -> bool:
    """Does `out` hold this very run, finished (its manifest names the same key)?"""
    try:
        return json.loads((Path(out) / MANIFEST).read_text()).get("key") == key
    except (OSError, ValueError, AttributeError):
        return False


def check_out_dir(out: Path, force: bool, key: str | None = None) -> None:
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a folder")
    if out.is_dir() and any(out.glob("*.parquet")) and not force and not (key and finished_run(out, key)):
        raise UserError(f"--out {out} already holds results; choose another folder or pass --force to replace them")


def chunk_size(seats, chunk_games: int = CHUNK_GAMES) -> int:
    """Games per chunk: `chunk_games` games of basic players, fewer of slower ones (runs.chunk_sizes)."""
    return games_per_chunk(chunk_games, lineup_cost(seats))


def run(rules: Rules, seats, seed: int, games: int, out_dir, decks=None, chunk_games: int | None = None,
        force: bool = False, executor: Executor | None = None, warm_up=None, progress=None,
        interrupted=None) -> Path:
    """Play `games` games (or the given decks, `rules.rounds` per game) into `out_dir`.

    All chunks are staged in a hidden folder named for the run and moved into place only when every
    game has played (see the module docstring: an interrupt keeps them for the same command to
    resume; RunInterrupted says how many). `chunk_games`: games per chunk (default: ``chunk_size``).
    `executor` plays the chunks (``idiotsim.runs.chunks``; default: here); `warm_up` is passed to
    ``write_chunk_files``; `progress` gets ``start(total, done)``, ``advance(games)`` and ``stop()``;
    `interrupted()` says whether Ctrl-C came, for an error that numba made of the KeyboardInterrupt.
    """
    out = Path(out_dir)
    chunk_games = chunk_size(seats) if chunk_games is None else chunk_games
    specs = [s.label for s in seats]
    key = run_key(rules, specs, seed, games, decks, chunk_games)
    check_out_dir(out, force, key)
    if finished_run(out, key) and not force:
        return out
    made = [folder for folder in (out, *out.parents) if not folder.exists()]  # deepest first
    make_folder(out)
    staging = out / f"{STAGING_PREFIX}{key}"
    for stale in out.glob(f"{STAGING_PREFIX}*"):  # left by a killed run of another configuration
        if stale != staging:
            shutil.rmtree(stale, ignore_errors=True)
    staging.mkdir(exist_ok=True)
    rules_fields = rules.as_dict()
    chunks, sizes = [], {}
    for start in range(0, games, chunk_games):
        n = min(chunk_games, games - start)
        chunk_decks = None if decks is None else decks[start * rules.rounds:(start + n) * rules.rounds]
        path = staging / chunk_name(start)
        chunks.append((path, (rules_fields, specs, seed, start, n, chunk_decks)))
        sizes[path] = n
    done = sum(n for path, n in sizes.items() if path.exists())
    note_long_run(games - done, (games - done) * lineup_cost(seats), parallelism=parallelism(executor))
    if progress is not None:
        progress.start(games, done)

    def written(path: Path) -> None:  # a chunk played elsewhere (Dask) counts once its file is in place
        progress.advance(sizes[path])

    def played(*args) -> tuple:  # a chunk played here counts once its games are played (its file follows)
        result = run_chunk_games(*args)
        progress.advance(args[4])
        return result

    here = executor is None or isinstance(executor, LocalExecutor)
    try:
        write_chunk_files(played if progress is not None and here else run_chunk_games, chunks, executor,
                          to_frame=chunk_frame, warm_up=warm_up,
                          on_written=written if progress is not None and not here else None)
    except BaseException as e:
        if progress is not None:
            progress.stop()
        if isinstance(e, KeyboardInterrupt) or (interrupted is not None and interrupted()):
            kept = sum(n for path, n in sizes.items() if path.exists())  # the chunk being written finished
            if not kept:
                _remove(staging, made)
            raise RunInterrupted(kept, games, staging if kept else None) from None
        _remove(staging, made)
        raise
    if progress is not None:
        progress.stop()
    for old in out.glob("*.parquet"):
        old.unlink()
    for part in sorted(staging.glob("*.parquet")):
        part.rename(out / part.name)
    manifest = {"command": "run", "version": __version__, "seed": seed, "games": games,
                "strategies": specs, "rules": rules_fields, "decks_given": decks is not None, "key": key}
    write_atomic(out / MANIFEST, json.dumps(manifest, indent=2) + "\n")
    shutil.rmtree(staging, ignore_errors=True)
    return out


def _remove(staging: Path, made: list) -> None:
    """A failed run's staging folder, and the folders the run made if they hold nothing else."""
    shutil.rmtree(staging, ignore_errors=True)
    for folder in made:
        try:
            folder.rmdir()
        except OSError:
            break


def run_chunk_games(rules_fields: dict, specs: list, seed: int, first_game: int, n_games: int, decks) -> tuple:
    """Games first_game .. first_game + n_games - 1 (a chunk task: plain data in and out), for `chunk_frame`."""
    from idiotsim.strategies.loading import load_strategy
    batch = play_games(Rules(**rules_fields), [load_strategy(spec) for spec in specs], seed, first_game, n_games,
                       decks)
    return first_game, seed, specs, batch


def chunk_frame(played: tuple):
    """The rows of a chunk's games (`run_chunk_games`), one per game."""
    from idiotsim.runs.game_results import games_frame  # polars: not needed before the first chunk has played
    return games_frame(*played)


def chunk_name(first_game: int) -> str:
    return f"games-{first_game:012d}.parquet"


def deal_lines(rules: Rules, seed: int, games: int, first_game: int = 0):
    """The decks that `run --seed` plays, one per line (rounds lines per game)."""
    for g in range(first_game, first_game + games):
        for r in range(rules.rounds):
            yield format_deck(shuffled_deck(seed, g, r, rules.decks))
