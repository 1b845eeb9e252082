"""`idiotsim run`: play games on the numba engine and stream them to Parquet."""
from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

from idiotsim import __version__
from idiotsim.game.cards import format_deck
from idiotsim.runs.chunks import Executor, write_chunk_files
from idiotsim.errors import UserError
from idiotsim.runs.atomic_files import make_folder, write_atomic
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_games

CHUNK_GAMES = 500_000  # rows per Parquet file (>= 100k keeps files efficient)
MANIFEST = "run.json"
STAGING_PREFIX = ".staging-"  # the hidden folder a run's chunks are written to before they move into place


def check_out_dir(out: Path, force: bool) -> None:
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a folder")
    if out.is_dir() and any(out.glob("*.parquet")) and not force:
        raise UserError(f"--out {out} already holds results; choose another folder or pass --force to replace them")


def run(rules: Rules, seats, seed: int, games: int, out_dir, decks=None, chunk_games: int = CHUNK_GAMES,
        force: bool = False, executor: Executor | None = None, warm_up=None) -> Path:
    """Play `games` games (or the given decks, `rules.rounds` per game) into `out_dir`.

    All chunks are staged in a hidden folder and moved into place only when every
    game has played, so an illegal move or an interrupt leaves no partial result.
    `executor` plays the chunks (``idiotsim.runs.chunks``; default: here); `warm_up` is passed to
    ``write_chunk_files``.
    """
    out = Path(out_dir)
    check_out_dir(out, force)
    make_folder(out)
    for stale in out.glob(f"{STAGING_PREFIX}*"):  # left by a run killed before its `finally` (kill -9)
        shutil.rmtree(stale, ignore_errors=True)
    staging = out / f"{STAGING_PREFIX}{uuid.uuid4().hex}"
    staging.mkdir()
    specs = [s.label for s in seats]
    rules_fields = rules.as_dict()
    chunks = []
    for start in range(0, games, chunk_games):
        n = min(chunk_games, games - start)
        chunk_decks = None if decks is None else decks[start * rules.rounds:(start + n) * rules.rounds]
        chunks.append((staging / chunk_name(start), (rules_fields, specs, seed, start, n, chunk_decks)))
    try:
        write_chunk_files(run_chunk_games, chunks, executor, to_frame=chunk_frame, warm_up=warm_up)
        for old in out.glob("*.parquet"):
            old.unlink()
        for part in sorted(staging.glob("*.parquet")):
            part.rename(out / part.name)
        manifest = {"command": "run", "version": __version__, "seed": seed, "games": games,
                    "strategies": specs, "rules": rules_fields, "decks_given": decks is not None}
        write_atomic(out / MANIFEST, json.dumps(manifest, indent=2) + "\n")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out


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
