"""The fixed action space of the OpenSpiel game and the PettingZoo environment.

Action ids, in blocks (every id means one thing in every state, so legal actions sort by id):

- ``0 .. 454``: a swap (R6), the multiset of 3 ranks laid face-up, as (a <= b <= c) in
  lexicographic order: 455 = C(15, 3) choices;
- ``455 .. 870``: a play (R9): rank r, count k (1..8: two decks hold 8 of a rank, V7) and e face-up
  cards added under V11 (0..3): ``455 + 32 r + 4 (k - 1) + e``;
- ``871``: pick up the pile (R14); ``872``: chance, turn the talon's top card (V5);
- ``873 .. 875``: turn over blind position 0, 1 or 2 (R15).

Chance outcomes (the deal) are card codes 0..51 (``idiotsim.game.cards``), one per card from the top of
the deck (R3).
"""
from __future__ import annotations

from itertools import combinations_with_replacement

from idiotsim.game import observation as ob
from idiotsim.game.cards import NUM_RANKS, RANK_NAMES, card_name
from idiotsim.game.moves import CHANCE, PICKUP, play_parts, swap_ranks

SWAPS = tuple(combinations_with_replacement(range(NUM_RANKS), 3))
SWAP_ID = {triple: i for i, triple in enumerate(SWAPS)}
MAX_COUNT = 8  # copies of a rank in two decks (V7)
MAX_EXTRA = 3  # face-up cards a V11 play may add
PLAY_BASE = len(SWAPS)
PICKUP_ACTION = PLAY_BASE + NUM_RANKS * MAX_COUNT * (MAX_EXTRA + 1)
CHANCE_ACTION = PICKUP_ACTION + 1
BLIND_BASE = CHANCE_ACTION + 1
NUM_ACTIONS = BLIND_BASE + 3


def sorted_swap_ranks(code: int) -> tuple:
    """The sorted face-up ranks of a swap choice code (``swap_choice``)."""
    return tuple(sorted(swap_ranks(code)))


def to_action(decision: int, move: int) -> int:
    """The action id of the project decision code `move` at a `decision` (SWAP, TURN or BLIND)."""
    if decision == ob.SWAP:
        return SWAP_ID[sorted_swap_ranks(move)]
    if decision == ob.BLIND:
        return BLIND_BASE + move
    if move == PICKUP:
        return PICKUP_ACTION
    if move == CHANCE:
        return CHANCE_ACTION
    rank, count, extra = play_parts(move)
    return PLAY_BASE + rank * MAX_COUNT * (MAX_EXTRA + 1) + (count - 1) * (MAX_EXTRA + 1) + extra


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
    rank, rest = divmod(action - PLAY_BASE, MAX_COUNT * (MAX_EXTRA + 1))
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
