"""The fixed action space: every decision of the game as one id in 0..NUM_ACTIONS - 1, for everything that
steps tables from outside (``engine.stepping``, the RL vector environment, OpenSpiel, PettingZoo).

Action ids, in blocks (every id means one thing in every state, so legal actions sort by id):

- ``0 .. 454``: a swap (R6), the multiset of 3 ranks laid face-up, as (a <= b <= c) in
  lexicographic order: 455 = C(15, 3) choices;
- ``455 .. 870``: a play (R9): rank r, count k (1..8: two decks hold 8 of a rank, V7) and e face-up
  cards added under V11 (0..3): ``455 + 32 r + 4 (k - 1) + e``;
- ``871``: pick up the pile (R14); ``872``: chance, turn the talon's top card (V5);
- ``873 .. 875``: turn over blind position 0, 1 or 2 (R15).

Chance outcomes (the deal) are card codes 0..51 (``idiotsim.game.cards``), one per card from the top of
the deck (R3).

The ids and the project's decision codes (``game.moves``) convert both ways: `to_action` and `to_move` in
Python, `action_id` and `move_code` compiled; `legal_action_mask` marks a decision's legal ids from the
one legal-move lister (``moves.list_moves``), so the mask and every other list of legal moves agree.
"""
from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from idiotsim.game import observation as ob
from idiotsim.game.cards import NUM_RANKS, RANK_NAMES, card_name
from idiotsim.game.moves import (CHANCE, PICKUP, list_swap_moves, list_turn_moves, play_parts,
                                 sorted_swap, swap_ranks)
from idiotsim.jit import kernel

SWAPS = tuple(combinations_with_replacement(range(NUM_RANKS), 3))
SWAP_ID = {triple: i for i, triple in enumerate(SWAPS)}
MAX_COUNT = 8  # copies of a rank in two decks (V7)
MAX_EXTRA = 3  # face-up cards a V11 play may add
PLAY_BASE = len(SWAPS)
PICKUP_ACTION = PLAY_BASE + NUM_RANKS * MAX_COUNT * (MAX_EXTRA + 1)
CHANCE_ACTION = PICKUP_ACTION + 1
BLIND_BASE = CHANCE_ACTION + 1
NUM_ACTIONS = BLIND_BASE + 3
PLAY_STRIDE = MAX_COUNT * (MAX_EXTRA + 1)  # ids of one rank's plays
NOT_A_MOVE = -3  # `move_code` of an id that is no move of the decision (no decision code is -3)

# compiled lookups: a swap id's choice code (ranks ascending), and a sorted choice code's id (-1: none)
SWAP_CHOICES = np.array([a + NUM_RANKS * b + NUM_RANKS ** 2 * c for a, b, c in SWAPS], dtype=np.int64)
SWAP_ACTION_IDS = np.full(NUM_RANKS ** 3, -1, dtype=np.int64)
SWAP_ACTION_IDS[SWAP_CHOICES] = np.arange(len(SWAPS))


def sorted_swap_ranks(code: int) -> tuple:
    """The sorted face-up ranks of a swap choice code (``swap_choice``)."""
    return tuple(sorted(swap_ranks(code)))


def to_action(decision: int, move: int) -> int:
    """The action id of the project decision code `move` at a `decision` (SWAP, TURN or BLIND)."""
    return int(action_id(decision, move))


def to_move(action: int) -> int:
    """The project decision code of an action id (the inverse of `to_action`)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is not in 0..{NUM_ACTIONS - 1}")
    if action < PLAY_BASE:
        a, b, c = SWAPS[action]
        return a + NUM_RANKS * b + NUM_RANKS ** 2 * c
    if action == PICKUP_ACTION:
        return PICKUP
    if action == CHANCE_ACTION:
        return CHANCE
    if action >= BLIND_BASE:
        return action - BLIND_BASE
    rank, rest = divmod(action - PLAY_BASE, PLAY_STRIDE)
    count, extra = divmod(rest, MAX_EXTRA + 1)
    return rank | ((count + 1) << 4) | (extra << 8)


def action_text(action: int) -> str:
    """A unique, readable name of an action id."""
    if action < PLAY_BASE:
        return "swap: face-up " + " ".join(RANK_NAMES[r] for r in SWAPS[action])
    if action == PICKUP_ACTION:
        return "pick up"
    if action == CHANCE_ACTION:
        return "chance"
    if action >= BLIND_BASE:
        return f"flip blind {action - BLIND_BASE}"
    move = to_move(action)
    rank, count, extra = play_parts(move)
    return f"play {count}x {RANK_NAMES[rank]}" + (f" +{extra} face-up" if extra else "")


def deal_text(card: int) -> str:
    return f"deal {card_name(card)}"


# ---- compiled: the same conversions and the legal-action mask -------------------------------

@kernel(inline="always")
def action_id(decision, move):
    """`to_action`, compiled: the id of the decision code `move` at `decision` (SWAP, TURN or BLIND)."""
    if decision == ob.SWAP:
        return SWAP_ACTION_IDS[sorted_swap(move)]
    if decision == ob.BLIND:
        return BLIND_BASE + move
    if move == PICKUP:
        return PICKUP_ACTION
    if move == CHANCE:
        return CHANCE_ACTION
    rank, count, extra = move & 15, (move >> 4) & 15, move >> 8
    return PLAY_BASE + rank * PLAY_STRIDE + (count - 1) * (MAX_EXTRA + 1) + extra


@kernel(inline="always")
def move_code(decision, action):
    """`to_move` for one decision, compiled: the decision code of id `action` at `decision`, or NOT_A_MOVE
    when the id lies outside the decision's block (a swap id at a turn, say). Whether the move is legal
    is the engine's to judge."""
    if decision == ob.SWAP:
        if 0 <= action < PLAY_BASE:
            return SWAP_CHOICES[action]
        return NOT_A_MOVE
    if decision == ob.BLIND:
        if BLIND_BASE <= action < NUM_ACTIONS:
            return action - BLIND_BASE
        return NOT_A_MOVE
    if action == PICKUP_ACTION:
        return PICKUP
    if action == CHANCE_ACTION:
        return CHANCE
    if PLAY_BASE <= action < PICKUP_ACTION:
        rank, rest = divmod(action - PLAY_BASE, PLAY_STRIDE)
        count, extra = divmod(rest, MAX_EXTRA + 1)
        return rank | ((count + 1) << 4) | (extra << 8)
    return NOT_A_MOVE


@kernel
def legal_action_mask(obs, hand, moves, mask):
    """Mark the legal ids of the decision in `obs` (its seat's `hand`) in `mask` (NUM_ACTIONS long,
    cleared first; `moves` is MAX_MOVES of work space); returns how many there are."""
    for i in range(NUM_ACTIONS):
        mask[i] = 0
    decision = obs[ob.DECISION]
    if decision == ob.BLIND:
        count = 0
        base = ob.BLIND_PRESENT + obs[ob.SEAT] * 3
        for pos in range(3):
            if obs[base + pos]:
                mask[BLIND_BASE + pos] = 1
                count += 1
        return count
    if decision == ob.SWAP:
        count = list_swap_moves(obs, hand, moves)
    else:
        count = list_turn_moves(obs, hand, moves)
    for i in range(count):
        mask[action_id(decision, moves[i])] = 1
    return count

