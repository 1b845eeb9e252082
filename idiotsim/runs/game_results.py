"""Game results as Parquet: one row per game, one file per chunk, written atomically.

Schema of a results file (one row per game):

==============  =======  ====================================================
column          type     meaning
==============  =======  ====================================================
game            Int64    game index under the run seed (replay it with
                         ``idiotsim trace --seed SEED --game GAME``)
seed            Int64    the run seed
strategy_<s>    String   strategy spec at seat s (0-based), knobs included
place_<s>       Int8     seat s's finishing place (match position, R19)
actions         Int32    plays and pickups in the game (R20)
burns           Int16    burned piles
pickups         Int16    pickups (failed flips included)
stalled         Boolean  a round hit the action limit (R20)
==============  =======  ====================================================
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from idiotsim.runs.atomic_files import write_atomic


def games_frame(first_game: int, seed: int, labels: list[str], batch: dict) -> pl.DataFrame:
    n_games = len(batch["actions"])
    columns = {
        "game": pl.Series(np.arange(first_game, first_game + n_games, dtype=np.int64)),
        "seed": pl.repeat(seed, n_games, dtype=pl.Int64, eager=True),
    }
    for s, label in enumerate(labels):
        columns[f"strategy_{s}"] = pl.repeat(label, n_games, dtype=pl.String, eager=True)
    for s in range(len(labels)):
        columns[f"place_{s}"] = pl.Series(batch["places"][:, s].astype(np.int8))
    columns["actions"] = pl.Series(batch["actions"].astype(np.int32))
    columns["burns"] = pl.Series(batch["burns"].astype(np.int16))
    columns["pickups"] = pl.Series(batch["pickups"].astype(np.int16))
    columns["stalled"] = pl.Series(batch["stalled"].astype(bool))
    return pl.DataFrame(columns)


def write_parquet(frame: pl.DataFrame, path: Path) -> Path:
    """One results file, written atomically (``idiotsim.runs.atomic_files.write_atomic``)."""
    return write_atomic(path, lambda tmp: frame.write_parquet(tmp, compression="zstd", statistics=True))


def scan(out_dir) -> pl.LazyFrame:
    return pl.scan_parquet(str(Path(out_dir) / "*.parquet"))


def seat_table(lazy: pl.LazyFrame, players: int) -> pl.DataFrame:
    """Per seat: strategy, games, mean place, win rate, Idiot rate; plus the stall rate."""
    rows = []
    for s in range(players):
        place = pl.col(f"place_{s}")
        rows.append(lazy.select(
            pl.lit(s).alias("seat"),
            pl.col(f"strategy_{s}").first().alias("strategy"),
            pl.len().alias("games"),
            place.cast(pl.Float64).mean().alias("mean_place"),
            (place == 1).mean().alias("win_rate"),
            (place == players).mean().alias("idiot_rate"),
            pl.col("stalled").mean().alias("stall_rate"),
        ))
    return pl.concat(pl.collect_all(rows))
