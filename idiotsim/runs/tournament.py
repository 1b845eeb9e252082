"""Tournaments: fair tables, duplicate deals, resumable chunked Parquet results.

How tables are formed
---------------------
- **Lineups.** With k strategies and n seats: every set of n distinct
  strategies when k >= n (round robin); every multiset of size n when k < n
  (strategies repeat at a table). In field mode each candidate strategy gets
  one lineup: the candidate plus the field strategies filling the other
  seats (cycling through the field list).
- **Blocks.** Block b plays every lineup once on its own deal. Within a
  block, a lineup's deal is replayed n times with the seats rotated, so each
  strategy of the lineup sits in every seat once on the same cards (duplicate
  deals, common random numbers): deal luck and seat advantage cancel.
- **Cyclic orders.** Rotations keep the order around the table; block b uses
  the lineup's (b mod (n-1)!)-th cyclic order, so who sits left of whom is
  balanced too over (n-1)! blocks.
- **Games** requested are rounded up to whole blocks: L lineups x n rotations.
- **Game ids.** Game g = (b * L + l) * n + j for block b, lineup l, rotation j.
  Its deck comes from the (seed, b * L + l) stream (the same for the n
  rotations) or, with ``duplicate=False``, from (seed, g) (independent
  deals, for comparison). Strategies draw from (seed, g) streams.

Results: Parquet chunks ``chunk-NNNNNN.parquet`` (see ``SCHEMA``) plus
``manifest.json`` holding the whole configuration and the finished chunks.
A rerun of the same configuration skips finished chunks; any other
configuration against the folder is an error unless ``force``.
"""
from __future__ import annotations

import itertools
import json
import math
import shutil
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import polars as pl

from idiotsim import __version__
from idiotsim.errors import IllegalMoveError, UserError
from idiotsim.runs.chunks import Executor, parallelism, write_chunk_files
from idiotsim.runs.chunk_sizes import games_per_chunk, lineup_cost, note_long_run
from idiotsim.runs.atomic_files import make_folder, write_atomic
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_seated

MANIFEST = "manifest.json"
CHUNK_GAMES = 500_000

SCHEMA = """\
| column | type | meaning |
|---|---|---|
| game | Int64 | game id (see idiotsim.runs.tournament) |
| block | Int64 | block: every lineup once, each on its own deal |
| lineup | Int32 | index of the lineup (table of strategies) |
| rotation | Int8 | seat rotation of the lineup's deal (0..n-1) |
| deal | Int64 | id of the deal's shuffle stream |
| strategy_<s> | String | strategy label at seat s |
| place_<s> | Int8 | finishing place of seat s (match position, R19) |
| actions | Int32 | plays and pickups in the game (R20) |
| burns | Int16 | burned piles |
| pickups | Int16 | pickups, failed flips included |
| stalled | Boolean | a round hit the action limit (R20) |
"""


@dataclass(frozen=True)
class TournamentConfig:
    strategies: tuple  # strategy specs (candidates in field mode)
    players: int
    games: int  # as requested; `total_games` is the rounded-up count played
    seed: int
    rules: dict = field(default_factory=dict)
    field: tuple = ()  # field mode when non-empty
    duplicate: bool = True
    chunk_games: int = CHUNK_GAMES

    def as_json(self) -> dict:
        return {**asdict(self), "strategies": list(self.strategies), "field": list(self.field),
                "version": __version__}

    @classmethod
    def from_json(cls, fields: dict) -> TournamentConfig:
        fields = {k: v for k, v in fields.items() if k != "version"}
        return cls(**{**fields, "strategies": tuple(fields["strategies"]), "field": tuple(fields["field"])})


class Tournament:
    """A configured tournament: lineups, seating and chunked play."""

    def __init__(self, config: TournamentConfig):
        from idiotsim.strategies.loading import load_strategy
        self.config = config
        self.rules = Rules(**{**config.rules, "players": config.players})
        n = config.players
        specs = list(config.strategies) + [f for f in config.field if f not in config.strategies]
        if len(config.strategies) < 1:
            raise UserError("a tournament needs at least one strategy")
        self.labels = unique_labels(specs)
        self.strategies = [load_strategy(spec) for spec in specs]
        for s, label in zip(self.strategies, self.labels):
            object.__setattr__(s, "label", label)
        if config.field:
            index = {spec: i for i, spec in enumerate(specs)}
            others = [index[f] for f in config.field]
            self.lineups = [tuple([c] + [others[i % len(others)] for i in range(n - 1)])
                            for c in range(len(config.strategies))]
        else:
            k = len(specs)
            if k < 2:
                raise UserError("a round-robin tournament needs at least 2 strategies (or use --field)")
            combos = itertools.combinations(range(k), n) if k >= n else itertools.combinations_with_replacement(range(k), n)
            self.lineups = list(combos)
        self.block_games = len(self.lineups) * n
        self.blocks = max(1, math.ceil(config.games / self.block_games))
        self.total_games = self.blocks * self.block_games
        self.chunk_games = games_per_chunk(config.chunk_games, max(
            lineup_cost([self.strategies[i] for i in lineup]) for lineup in self.lineups))  # idiotsim.runs.chunk_sizes
        self.chunks = math.ceil(self.total_games / self.chunk_games)

    def mean_cost(self) -> float:
        """A game's cost in games of basic, over the lineups (``idiotsim.runs.chunk_sizes``)."""
        return sum(lineup_cost([self.strategies[i] for i in lineup]) for lineup in self.lineups) / len(self.lineups)

    def chunk_range(self, chunk: int) -> tuple[int, int]:
        start = chunk * self.chunk_games
        return start, min(self.total_games, start + self.chunk_games)

    def seating(self, game_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For game ids: (seating matrix, block, lineup, rotation)."""
        n = self.config.players
        rotation = game_ids % n
        pair = game_ids // n  # b * L + l
        lineup = pair % len(self.lineups)
        block = pair // len(self.lineups)
        seating = np.empty((len(game_ids), n), dtype=np.int8)
        orders = {}
        for i, (b, l, j) in enumerate(zip(block.tolist(), lineup.tolist(), rotation.tolist())):
            key = (b % math.factorial(n - 1), l)
            order = orders.get(key)
            if order is None:
                order = orders[key] = cyclic_order(self.lineups[l], key[0])
            for s in range(n):
                seating[i, s] = order[(s + j) % n]
        return seating, block, lineup, rotation

    def play_chunk(self, chunk: int) -> pl.DataFrame:
        """The results of one chunk: a pure function of the configuration and the chunk id."""
        start, stop = self.chunk_range(chunk)
        game_ids = np.arange(start, stop, dtype=np.int64)
        seating, block, lineup, rotation = self.seating(game_ids)
        deal = game_ids // self.config.players if self.config.duplicate else game_ids
        batch = play_seated(self.rules, self.strategies, self.config.seed, game_ids, deal, seating)
        n = self.config.players
        labels = np.array(self.labels, dtype=object)
        columns = {
            "game": pl.Series(game_ids),
            "block": pl.Series(block.astype(np.int64)),
            "lineup": pl.Series(lineup.astype(np.int32)),
            "rotation": pl.Series(rotation.astype(np.int8)),
            "deal": pl.Series(deal.astype(np.int64)),
        }
        for s in range(n):
            columns[f"strategy_{s}"] = pl.Series(labels[seating[:, s]].tolist(), dtype=pl.String)
        for s in range(n):
            columns[f"place_{s}"] = pl.Series(batch["places"][:, s])
        columns["actions"] = pl.Series(batch["actions"])
        columns["burns"] = pl.Series(batch["burns"])
        columns["pickups"] = pl.Series(batch["pickups"])
        columns["stalled"] = pl.Series(batch["stalled"])
        return pl.DataFrame(columns)


def unique_labels(specs) -> list[str]:
    """Spec strings as labels; a repeated spec gets #2, #3, ... (an A/A comparison)."""
    seen: dict = {}
    labels = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return labels


@lru_cache(maxsize=4096)
def cyclic_order(lineup: tuple, index: int) -> tuple:
    """The lineup with its first member fixed and the rest in their `index`-th permutation."""
    rest = list(lineup[1:])
    order = []
    for k in range(len(rest), 0, -1):
        f = math.factorial(k - 1)
        order.append(rest.pop(index // f))
        index %= f
    return (lineup[0], *order)


def chunk_path(out: Path, chunk: int) -> Path:
    return out / f"chunk-{chunk:06d}.parquet"


def finished_chunks(out: Path, tournament: Tournament) -> set[int]:
    return {c for c in range(tournament.chunks) if chunk_path(out, c).exists()}


def write_manifest(out: Path, config: TournamentConfig, tournament: Tournament, finished) -> None:
    manifest = {"config": config.as_json(), "total_games": tournament.total_games, "chunks": tournament.chunks,
                "lineups": [[tournament.labels[i] for i in lineup] for lineup in tournament.lineups],
                "finished_chunks": sorted(finished)}
    write_atomic(out / MANIFEST, json.dumps(manifest, indent=2) + "\n")


def read_manifest(out: Path) -> dict:
    path = Path(out) / MANIFEST
    if not Path(out).exists():
        raise UserError(f"{out} does not exist")
    if not Path(out).is_dir():
        raise UserError(f"{out} is not a folder (give the folder a tournament wrote)")
    if not path.exists():
        raise UserError(f"{out} holds no tournament (no {MANIFEST})")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise UserError(f"{path} is not valid JSON: {e}") from None


def prepare_out_dir(out: Path, config: TournamentConfig, force: bool) -> None:
    """A new folder, or one holding this same configuration (resume); else an error unless force."""
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a folder")
    if (out / MANIFEST).exists():
        old = read_manifest(out).get("config")
        if old == config.as_json():
            return
        if not force:
            changed = sorted(k for k in set(old or {}) | set(config.as_json())
                             if (old or {}).get(k) != config.as_json().get(k))
            raise UserError(f"{out} holds a tournament with another configuration (differs in: "
                            f"{', '.join(changed)}); use another --out or --force to replace it")
        shutil.rmtree(out)
    elif out.is_dir() and any(out.iterdir()) and not force:
        raise UserError(f"--out {out} is not empty and holds no tournament; use another folder or --force")
    elif out.is_dir() and force:
        shutil.rmtree(out)
    make_folder(out)


def run_tournament(config: TournamentConfig, out_dir, force: bool = False, progress=None,
                   executor: Executor | None = None) -> Path:
    """Play every unfinished chunk into `out_dir` (resuming an interrupted run).

    `executor` plays the chunks (``idiotsim.runs.chunks``; default: here, in order); the manifest
    lists each chunk as soon as its file is in place.
    """
    out = Path(out_dir)
    tournament = Tournament(config)
    made = [folder for folder in (out, *out.parents) if not folder.exists()]  # deepest first
    prepare_out_dir(out, config, force)
    finished = finished_chunks(out, tournament)
    write_manifest(out, config, tournament, finished)
    left = tournament.total_games - sum(_chunk_size(tournament, c) for c in finished)
    note_long_run(left, left * tournament.mean_cost(), parallelism=parallelism(executor))
    if progress:
        progress.start(tournament.total_games, tournament.total_games - left)
    chunk_of = {chunk_path(out, c): c for c in range(tournament.chunks)}

    def written(path: Path) -> None:
        finished.add(chunk_of[path])
        write_manifest(out, config, tournament, finished)
        if progress:
            progress.advance(_chunk_size(tournament, chunk_of[path]))

    config_json = config.as_json()
    try:
        write_chunk_files(tournament_chunk_frame, [(path, (config_json, c)) for path, c in chunk_of.items()],
                          executor, on_written=written)
    except IllegalMoveError as e:  # its kind and details kept: only the message grows
        discard(out, tournament, made)
        e.args = (f"{e.args[0]} (nothing of the tournament is kept in {out}: fix the strategy and run the command "
                  "again)", *e.args[1:])
        raise
    finally:
        if progress:
            progress.stop()
    return out


def discard(out: Path, tournament: Tournament, made: list) -> None:
    """A failed tournament's files (its chunks, played by a strategy that broke the rules, and its manifest), and
    the folders it made if they hold nothing else: the next run starts afresh, whatever its configuration."""
    for c in range(tournament.chunks):
        chunk_path(out, c).unlink(missing_ok=True)
    (out / MANIFEST).unlink(missing_ok=True)
    for folder in made:
        try:
            folder.rmdir()
        except OSError:
            break


def tournament_chunk_frame(config_json: dict, chunk: int) -> pl.DataFrame:
    """The rows of one chunk (a chunk task: plain data in; each process builds a configuration once)."""
    key = json.dumps(config_json, sort_keys=True)
    if key not in _BUILT:
        _BUILT.clear()
        _BUILT[key] = Tournament(TournamentConfig.from_json(config_json))
    return _BUILT[key].play_chunk(chunk)


_BUILT: dict = {}


def _chunk_size(tournament: Tournament, chunk: int) -> int:
    start, stop = tournament.chunk_range(chunk)
    return stop - start
