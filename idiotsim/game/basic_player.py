"""`basic`, the reference player of docs/rules.md, exactly: its decisions and the helpers they are made of.

The rules define `basic` (docs/rules.md, "The basic strategy"): lay face-up the 3 best cards by its key
(10, 2, A, K, ..., 3), play every copy of the lowest legal ordinary rank, else every 2, else every legal
10, else pick up; flip the lowest blind position. Both engines play it inline (it is every report's
opponent and the search's rollout policy), so it lives with the rules; ``idiotsim.strategies.basic`` is
its strategy family, and ``first_move`` puts its move first in a list of legal moves (the search's ties,
the learning pipeline's teacher list, the table's hint).
"""
from __future__ import annotations

import numpy as np

from idiotsim.game.cards import BASIC_ORDER, ORDINARY_MASK, TEN, TWO
from idiotsim.game.moves import (MAX_MOVES, PICKUP, SIG, faceup_addable, held_in_source, list_moves, lowest_rank,
                                 play, playable_mask, put_first, sorted_swap)
from idiotsim.game.observation import BLIND_PRESENT, DECISION, FACEUP, NR, SEAT, SWAP, TURN
from idiotsim.jit import kernel

@kernel(inline="always")
def play_all(obs, hand, rank):
    """A play of every copy of `rank` in the source (with V11's face-up cards when allowed)."""
    held = held_in_source(obs, hand, rank)
    return play(rank, held, faceup_addable(obs, hand, rank, held))


# ---- the swap and the blind phase -------------------------------------------------

@kernel(inline="always")
def swap_best(obs, hand, preference):
    """The swap that lays face-up the 3 most wanted of the 6 cards, `preference` listing
    all 13 ranks from the most wanted (an int64 array)."""
    row = FACEUP + obs[SEAT] * NR
    choice = 0
    need = 3
    for i in range(NR):
        r = preference[i]
        k = hand[r] + obs[row + r]
        while k > 0 and need > 0:
            choice = choice * NR + r
            need -= 1
            k -= 1
        if need == 0:
            break
    return choice


@kernel(inline="always")
def lowest_blind(obs):
    """The lowest-numbered blind position that still holds a card."""
    base = BLIND_PRESENT + obs[SEAT] * 3
    for pos in range(3):
        if obs[base + pos]:
            return pos
    return 0


# ---- playing like `basic` (docs/rules.md's reference strategy) -----------------------------

# Ranks from the most wanted face-up: the `basic` key, highest first (10, 2, A, K, ..., 3).
BASIC_PREFERENCE = np.array(BASIC_ORDER[::-1], dtype=np.int64)


@kernel(inline="always")
def basic_rank(playable):
    """`basic`'s rank among the playable ones (a rank bit mask): the lowest ordinary rank; else 2; else 10;
    -1 when none is playable (the engine's inline basic turns use this too)."""
    if playable & ORDINARY_MASK:
        return lowest_rank(playable & ORDINARY_MASK)
    if playable & (1 << TWO):
        return TWO
    if playable & (1 << TEN):
        return TEN
    return -1


@kernel(inline="always")
def basic_turn(obs, hand):
    """All copies of the lowest legal ordinary rank; else all 2s; else all legal 10s; else pick up."""
    r = basic_rank(playable_mask(obs, hand))
    if r < 0:
        return PICKUP
    return play_all(obs, hand, r)


@kernel(inline="always")
def play_like_basic(obs, hand):
    """The decision `basic` makes: the 3 best cards by its key face-up, `basic_turn`, the lowest blind."""
    if obs[DECISION] == SWAP:
        return swap_best(obs, hand, BASIC_PREFERENCE)
    if obs[DECISION] == TURN:
        return basic_turn(obs, hand)
    return lowest_blind(obs)


@kernel
def decide(obs, hand, params, rng):
    """`basic`'s decision as a strategy (``idiotsim.strategies.basic``): the engines recognise it by this function."""
    return play_like_basic(obs, hand)


@kernel(inline="always")
def first_move(obs, hand):
    """`basic`'s move as the legal-move list writes it (a swap with its ranks ascending)."""
    if obs[DECISION] == SWAP:
        return sorted_swap(play_like_basic(obs, hand))
    return basic_turn(obs, hand)


@kernel
def list_moves_basic_first(obs, hand, moves):
    """Every legal move (``moves.list_moves``), `basic`'s first; returns how many."""
    return put_first(moves, list_moves(obs, hand, moves), first_move(obs, hand))


def legal_moves_basic_first(obs: np.ndarray, hand: np.ndarray) -> np.ndarray:
    """Every legal move of a SWAP or TURN decision, `basic`'s first."""
    moves = np.zeros(MAX_MOVES, np.int64)
    return moves[:list_moves_basic_first(obs, hand, moves)].copy()
