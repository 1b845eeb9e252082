"""Training data: positions of real games (``collect``), every legal move labelled by the search.

The teacher is the plain search (`halving=0`): each legal move of a position is played on the same K
sampled states (common random numbers, ``search.place_matrix``) and rolled out by the teacher's
policy to the seat's place; a move's label is its mean place over the K states with its standard
error. The positions of chunk c are games [c * chunk_games, (c + 1) * chunk_games) of the seed, game
g played by ``collectors[g % len(collectors)]``; each labelled position draws from its
own stream (game, index in the game), so a chunk's rows are a pure function of the configuration
and the chunk: the same bytes for any thread or worker count, and an interrupted run resumes at the
first chunk file not written (``chunks.write_chunk_files``).

A row is one position: ids (game, position index in the game, seat), the decision, the collector,
the observation and own hand (so any row replays and its features can be recomputed by the one
feature function, ``features``), the legal moves (`basic`'s first), and each move's mean place and
standard error.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import polars as pl

from idiotsim.game import observation as ob
from idiotsim.strategies.search import pimc as search
from idiotsim.strategies.search.search_knobs import DEFAULT_ROLLOUTS
from idiotsim.runs.chunks import Executor, write_chunk_files
from idiotsim.errors import UserError
from idiotsim.runs.atomic_files import make_folder, write_atomic
from idiotsim.game.basic_player import legal_moves_basic_first
from idiotsim.learn.collect import LABEL_STREAM, MAX_KEPT, POSITION_KEY, collect_game
from idiotsim.game.rng import new_state
from idiotsim.game.rules import Rules

CONFIG_FILE = "generate.json"
CHUNK_PATTERN = "chunk-{:06d}.parquet"


@dataclass(frozen=True)
class GenerateConfig:
    """What a data folder holds; a rerun with the same configuration resumes it."""
    players: int = 4
    seed: int = 1
    games: int = 1000
    chunk_games: int = 10
    collectors: tuple = ("basic",)  # game g: collectors[g % len(collectors)] ...
    field: str = "basic"  # ... at seat (g // len(collectors)) % players, `field` at the others ("": every seat)
    teacher_rollouts: int = DEFAULT_ROLLOUTS  # K
    teacher_policy: int = 0  # the search's `policy` knob for the teacher's rollouts (0: basic)
    turn_share: float = 0.5  # share of the TURN decisions with more than one legal move labelled
    swap_share: float = 0.0  # share of the SWAP decisions labelled (each costs ~20 moves of whole rounds)

    def rules(self) -> Rules:
        return Rules(players=self.players)

    def chunks(self) -> int:
        return -(-self.games // self.chunk_games)


def label_position(obs: np.ndarray, hand: np.ndarray, rng: np.ndarray, rollouts: int, policy: int):
    """(moves, mean place of each, its standard error) on `rollouts` common sampled states."""
    moves = legal_moves_basic_first(obs, hand)
    places = np.zeros((rollouts, len(moves)), np.int64)
    if search.place_matrix(obs, hand, rng, moves, rollouts, policy, places) < 0:
        raise RuntimeError("a sampled state could not be built")
    mean = places.mean(axis=0)
    se = places.std(axis=0, ddof=1) / np.sqrt(rollouts) if rollouts > 1 else np.zeros(len(moves))
    return moves, mean, se


def chunk_frame(config_fields: dict, chunk: int) -> pl.DataFrame:
    """The labelled positions of one chunk of games (a pure function of its arguments)."""
    from idiotsim.engine.batches import rules_header, strategy_inputs
    from idiotsim.strategies.loading import load_strategy
    config = GenerateConfig(**{**config_fields, "collectors": tuple(config_fields["collectors"])})
    rules = config.rules()
    seats = [load_strategy(spec) for spec in (config.field or "basic", *config.collectors)]
    fns, _, params = strategy_inputs(seats)  # collect_game plays every seat through the table
    header = rules_header(rules)
    out_obs = np.zeros((MAX_KEPT, ob.OBS_SIZE), np.int64)
    out_hand = np.zeros((MAX_KEPT, ob.NR), np.int64)
    out_seat = np.zeros(MAX_KEPT, np.int64)
    rows = {k: [] for k in ("game", "position", "seat", "decision", "collector", "obs", "hand", "moves", "place",
                            "se")}
    first = chunk * config.chunk_games
    for game in range(first, min(config.games, first + config.chunk_games)):
        collector = game % len(config.collectors)
        seating = np.full(rules.players, 0 if config.field else collector + 1, np.int64)
        seating[(game // len(config.collectors)) % rules.players] = collector + 1
        kept = collect_game(fns, params, header, config.seed, game, seating, config.turn_share, config.swap_share,
                            out_obs, out_hand, out_seat)
        if kept < 0:
            raise RuntimeError(f"game {game}: an illegal move by {config.collectors[collector]}")
        for index in range(kept):
            obs, hand = out_obs[index].copy(), out_hand[index].copy()
            rng = new_state(config.seed, game * POSITION_KEY + index, LABEL_STREAM)
            moves, mean, se = label_position(obs, hand, rng, config.teacher_rollouts, config.teacher_policy)
            for key, value in (("game", game), ("position", index), ("seat", int(out_seat[index])),
                               ("decision", int(obs[ob.DECISION])), ("collector", config.collectors[collector]),
                               ("obs", obs.astype(np.int16)), ("hand", hand.astype(np.int8)),
                               ("moves", moves), ("place", mean), ("se", se)):
                rows[key].append(value)
    return positions_frame(rows)


def positions_frame(rows: dict) -> pl.DataFrame:
    n = len(rows["game"])
    return pl.DataFrame({
        "game": pl.Series(rows["game"], dtype=pl.Int64),
        "position": pl.Series(rows["position"], dtype=pl.Int32),
        "seat": pl.Series(rows["seat"], dtype=pl.Int8),
        "decision": pl.Series(rows["decision"], dtype=pl.Int8),
        "collector": pl.Series(rows["collector"], dtype=pl.Utf8),
        "obs": pl.Series(np.stack(rows["obs"]) if n else np.zeros((0, ob.OBS_SIZE), np.int16),
                         dtype=pl.Array(pl.Int16, ob.OBS_SIZE)),
        "hand": pl.Series(np.stack(rows["hand"]) if n else np.zeros((0, ob.NR), np.int8),
                          dtype=pl.Array(pl.Int8, ob.NR)),
        "moves": pl.Series([m.tolist() for m in rows["moves"]], dtype=pl.List(pl.Int64)),
        "place": pl.Series([m.tolist() for m in rows["place"]], dtype=pl.List(pl.Float64)),
        "se": pl.Series([m.tolist() for m in rows["se"]], dtype=pl.List(pl.Float64)),
    })


def check_config(out: Path, config: GenerateConfig, force: bool = False) -> None:
    """A data folder holds one configuration: a different one is a UserError unless `force`."""
    path = out / CONFIG_FILE
    wanted = json.dumps(asdict(config), indent=1, sort_keys=True) + "\n"
    if path.exists() and path.read_text() != wanted and not force:
        try:
            held = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            held = None
        new = json.loads(json.dumps(asdict(config)))  # tuples as the file holds them: lists
        changed = (sorted(k for k in set(held) | set(new) if held.get(k) != new.get(k)) if isinstance(held, dict)
                   else ["unreadable"])
        shown = [f"{k} (the folder's {held[k]}, now {new[k]})" if k == "seed" and k in held else k for k in changed]
        raise UserError(f"{out} holds data of another configuration ({path}; differs in: {', '.join(shown)}); "
                        "use another --out or --force")
    if path.exists() and path.read_text() != wanted:
        for old in out.glob("chunk-*.parquet"):
            old.unlink()
    write_atomic(path, wanted)


def generate(config: GenerateConfig, out, executor: Executor | None = None, progress=None, force=False) -> Path:
    """Label every chunk of `config` not yet in `out` (resumable); returns the folder."""
    from idiotsim.strategies.loading import load_strategy
    out = make_folder(Path(out))
    for spec in config.collectors:
        load_strategy(spec)  # a bad spec is one error line before any work
    check_config(out, config, force)
    chunks = [(out / CHUNK_PATTERN.format(c), (asdict(config), c)) for c in range(config.chunks())]
    done = sum(path.exists() for path, _ in chunks)
    if progress:
        progress.start(len(chunks), done)
    write_chunk_files(chunk_frame, chunks, executor, on_written=lambda path: progress and progress.advance(path))
    if progress:
        progress.stop()
    return out


def read_data(folders) -> pl.DataFrame:
    """Every labelled position of the data folders, in folder and chunk order (with the folder's index)."""
    frames = []
    for i, folder in enumerate(folders):
        files = sorted(Path(folder).glob("chunk-*.parquet"))
        if not files:
            raise UserError(f"{folder} holds no labelled positions (chunk-*.parquet); run idiotsim learn generate")
        frame = pl.concat([pl.read_parquet(f) for f in files])
        frames.append(frame.with_columns(pl.lit(i, pl.Int32).alias("folder")))
    return pl.concat(frames)


class PositionRate:
    """Positions per second for a progress bar: counts the rows of each chunk file written."""

    def __init__(self):
        self.positions = 0
        self.start = time.perf_counter()

    def add(self, path: Path) -> float:
        self.positions += pl.scan_parquet(path).select(pl.len()).collect().item()
        return self.positions / max(1e-9, time.perf_counter() - self.start)
