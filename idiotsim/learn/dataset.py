"""Labelled positions as training arrays: the features of every move (from the one feature function),
the search's mean places, and the split into training and held-out GAMES (never positions: the
positions of one game are not independent)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
from numba import njit

from idiotsim.game import observation as ob
from idiotsim.strategies.learned.features import SWAP_FEATURES, feature_rows, split_swap, swap_features
from idiotsim.game.observation import NR
from idiotsim.game.rng import mix64

HELD_OUT_SHARE = 0.1
MAX_ACTIONS = 150  # positions later in a round are left out (rounds that go round and round: policy.LONG_ROUND)


@dataclass
class Positions:
    """Positions of one decision type: position i's moves are rows move_pos[i]:move_pos[i + 1]
    (`basic`'s first) of moves / move_x / place / se; state_x[i] is its state part (TURN only)."""
    game: np.ndarray
    folder: np.ndarray
    players: np.ndarray
    obs: np.ndarray
    hand: np.ndarray
    move_pos: np.ndarray
    moves: np.ndarray
    place: np.ndarray
    se: np.ndarray
    state_x: np.ndarray
    move_x: np.ndarray

    def __len__(self):
        return len(self.game)

    def owner(self) -> np.ndarray:
        """The position of each move row."""
        return np.repeat(np.arange(len(self)), np.diff(self.move_pos))

    def subset(self, keep: np.ndarray) -> "Positions":
        idx = np.flatnonzero(keep)
        rows = move_rows(self.move_pos, idx)
        pos = np.concatenate([[0], np.cumsum(np.diff(self.move_pos)[idx])]).astype(np.int64)
        return Positions(self.game[idx], self.folder[idx], self.players[idx], self.obs[idx], self.hand[idx], pos,
                         self.moves[rows], self.place[rows], self.se[rows],
                         self.state_x[idx] if len(self.state_x) else self.state_x, self.move_x[rows])


def move_rows(move_pos: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """The move rows of positions idx, in order (rows move_pos[i]:move_pos[i + 1] of each i)."""
    sizes = move_pos[idx + 1] - move_pos[idx]
    return np.repeat(move_pos[idx] - (np.cumsum(sizes) - sizes), sizes) + np.arange(sizes.sum(), dtype=np.int64)


def positions_of(frame: pl.DataFrame, decision: int, counting: int = 1) -> Positions:
    """The positions of one decision type (ob.TURN or ob.SWAP) of a data frame, with their features."""
    frame = frame.filter((pl.col("decision") == decision) & (pl.col("obs").arr.get(ob.ACTIONS) < MAX_ACTIONS))
    obs = frame["obs"].to_numpy().astype(np.int64).reshape(len(frame), ob.OBS_SIZE)
    hand = frame["hand"].to_numpy().astype(np.int64).reshape(len(frame), NR)
    sizes = frame["moves"].list.len().to_numpy()
    move_pos = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    moves = frame["moves"].explode().to_numpy().astype(np.int64) if len(frame) else np.zeros(0, np.int64)
    place = frame["place"].explode().to_numpy().astype(np.float64) if len(frame) else np.zeros(0)
    se = frame["se"].explode().to_numpy().astype(np.float64) if len(frame) else np.zeros(0)
    if decision == ob.SWAP:
        state_x = np.zeros((0, 0))
        move_x = swap_rows(obs, hand, moves, move_pos)
    else:
        state_x, move_x = feature_rows(obs, hand, moves, move_pos, counting)
    folder = frame["folder"].to_numpy() if "folder" in frame.columns else np.zeros(len(frame), np.int64)
    return Positions(frame["game"].to_numpy(), folder, obs[:, ob.PLAYERS].copy(), obs, hand, move_pos, moves,
                     place, se, state_x, move_x)


def swap_rows(obs: np.ndarray, hand: np.ndarray, moves: np.ndarray, move_pos: np.ndarray) -> np.ndarray:
    """The swap features of every choice (moves) of every swap position."""
    out = np.zeros((len(moves), SWAP_FEATURES))
    _swap_rows(obs, hand, moves, move_pos, out)
    return out


@njit(cache=True)
def _swap_rows(obs, hand, moves, move_pos, out):
    faceup = np.empty(NR, np.int64)
    kept = np.empty(NR, np.int64)
    for i in range(obs.shape[0]):
        for j in range(move_pos[i], move_pos[i + 1]):
            split_swap(obs[i], hand[i], moves[j], faceup, kept)
            swap_features(faceup, kept, out[j])


def held_out_games(game: np.ndarray, folder: np.ndarray, seed: int) -> np.ndarray:
    """True for the positions of held-out games: a fixed share of the games, by a hash of (seed, folder, game)
    (at least one game when there are two or more)."""
    keys = np.array([mix64((seed * 1_000_003 + int(f)) * 1_000_000_007 + int(g)) for g, f in zip(game, folder)],
                    dtype=np.uint64)
    held = (keys % np.uint64(1000)) < np.uint64(HELD_OUT_SHARE * 1000)
    if not held.any() and len(set(zip(game.tolist(), folder.tolist()))) > 1:  # few games: hold out the last one
        held = (folder == folder.max()) & (game == game[folder == folder.max()].max())
    return held
