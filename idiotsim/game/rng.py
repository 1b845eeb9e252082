"""Counter-based randomness: splitmix64 streams keyed by (seed, game, stream).

Every random draw of a game comes from a stream that depends only on the run
seed, the game index and the stream id, so any game can be replayed alone and
results do not depend on thread count, chunk size or backend.

Streams: ``DECK_STREAM + round`` shuffles the deck of that round (0-based);
``SEAT_STREAM + seat`` feeds that seat's strategy.

Each function exists twice: a numba version (used by the array engine and by
strategies) and a pure-Python twin (used by the reference engine); tests check
they agree bit for bit.
"""
from __future__ import annotations

import numpy as np
from numba import types

from idiotsim.jit import kernel

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
DECK_STREAM = 0
SEAT_STREAM = 64


# ---- pure Python ---------------------------------------------------------

def mix64(z: int) -> int:
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def stream_key(seed: int, game: int, stream: int) -> int:
    return mix64(mix64(mix64(seed) + game) + stream)


def next_u64(state: np.ndarray) -> int:
    """Advance a one-element uint64 state array and return the next output."""
    s = (int(state[0]) + GAMMA) & MASK64
    state[0] = s
    return mix64(s)


def below(state: np.ndarray, n: int) -> int:
    """Uniform integer in [0, n), 0 < n < 2**32, without bias (Lemire's method)."""
    threshold = ((1 << 32) - n) % n
    while True:
        m = (next_u64(state) >> 32) * n
        if (m & 0xFFFFFFFF) >= threshold:
            return m >> 32


def new_state(seed: int, game: int, stream: int) -> np.ndarray:
    return np.array([stream_key(seed, game, stream)], dtype=np.uint64)


def shuffled_deck(seed: int, game: int, round_index: int, decks: int) -> np.ndarray:
    """Card codes of a Fisher-Yates shuffle of `decks` sorted decks."""
    deck = np.tile(np.arange(52, dtype=np.int64), decks)
    state = new_state(seed, game, DECK_STREAM + round_index)
    for i in range(len(deck) - 1, 0, -1):
        j = below(state, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# ---- numba ---------------------------------------------------------------

_U = np.uint64


@kernel(types.uint64(types.uint64))
def nb_mix64(z):
    z = (z ^ (z >> _U(30))) * _U(MIX1)
    z = (z ^ (z >> _U(27))) * _U(MIX2)
    return z ^ (z >> _U(31))


@kernel(types.uint64(types.int64, types.int64, types.int64))
def nb_stream_key(seed, game, stream):
    return nb_mix64(nb_mix64(nb_mix64(_U(seed)) + _U(game)) + _U(stream))


@kernel(types.uint64(types.uint64[::1]))
def nb_next_u64(state):
    state[0] = state[0] + _U(GAMMA)
    return nb_mix64(state[0])


@kernel(types.int64(types.uint64[::1], types.int64))
def nb_below(state, n):
    un = _U(n)
    m = (nb_next_u64(state) >> _U(32)) * un
    if (m & _U(0xFFFFFFFF)) < un:  # the threshold is below n: skip its division otherwise (same draws)
        threshold = (_U(4294967296) - un) % un
        while (m & _U(0xFFFFFFFF)) < threshold:
            m = (nb_next_u64(state) >> _U(32)) * un
    return np.int64(m >> _U(32))


@kernel  # typed on first use (a signature would load its cache at every import)
def nb_below_from(s, n):
    """`nb_below` on a stream state held in a local: returns (the state after, the draw). A loop of
    draws (a shuffle) keeps the state in a register instead of loading and storing the array each
    time; the draws are nb_below's, in the same order."""
    un = _U(n)
    s = _U(s) + _U(GAMMA)
    m = (nb_mix64(s) >> _U(32)) * un
    if (m & _U(0xFFFFFFFF)) < un:
        threshold = (_U(4294967296) - un) % un
        while (m & _U(0xFFFFFFFF)) < threshold:
            s = s + _U(GAMMA)
            m = (nb_mix64(s) >> _U(32)) * un
    return s, m >> _U(32)


@kernel(types.void(types.int64, types.int64, types.int64, types.int64[::1], types.uint64[::1]))
def nb_shuffled_deck(seed, game, round_index, out, state):
    """Fill `out` (52 * decks) with the same shuffle as `shuffled_deck`."""
    n = out.shape[0]
    for first in range(0, n, 52):
        for card in range(52):
            out[first + card] = card
    s = nb_stream_key(seed, game, DECK_STREAM + round_index)
    for i in range(n - 1, 0, -1):
        s, d = nb_below_from(s, i + 1)
        j = np.int64(d)
        t = out[i]
        out[i] = out[j]
        out[j] = t
    state[0] = s
