"""`basic`: the deterministic reference strategy of RULES.md, exactly."""
import numpy as np

from idiotsim.observation import ALL_RANKS, BLIND_PRESENT, DECISION, FACEUP, NR, SEAT, SWAP, TURN
from idiotsim.strategy_api import (PICKUP, TEN, TWO, Strategy, faceup_addable, held_in_source, lowest_rank,
                                   play, playable_mask, strategy_function)

# Ranks in the order of the `basic` key: 3 < ... < 9 < J < Q < K < A < 2 < 10.
KEY_ORDER = np.array([1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, TWO, TEN], dtype=np.int64)
ORDINARY = ALL_RANKS & ~(1 << TWO) & ~(1 << TEN)  # in rank-id order, the key's order of 3..A


@strategy_function
def decide(obs, hand, params, rng):
    seat = obs[SEAT]
    if obs[DECISION] == SWAP:
        # The 3 highest cards by the key lie face-up.
        choice = 0
        need = 3
        for i in range(NR - 1, -1, -1):
            r = KEY_ORDER[i]
            take = min(need, hand[r] + obs[FACEUP + seat * NR + r])
            for _ in range(take):
                choice = choice * NR + r
            need -= take
            if need == 0:
                break
        return choice
    if obs[DECISION] == TURN:
        # All copies of the lowest legal ordinary rank; else all 2s; else all legal 10s; else pick up.
        playable = playable_mask(obs, hand)
        if playable & ORDINARY:
            r = lowest_rank(playable & ORDINARY)
        elif playable & (1 << TWO):
            r = TWO
        elif playable & (1 << TEN):
            r = TEN
        else:
            return PICKUP
        held = held_in_source(obs, hand, r)
        return play(r, held, faceup_addable(obs, hand, r, held))
    # Blind phase: the lowest-numbered remaining position.
    for pos in range(3):
        if obs[BLIND_PRESENT + seat * 3 + pos]:
            return pos
    return 0


STRATEGY = Strategy(
    name="basic",
    decide=decide,
    description="RULES.md reference: best 3 face-up; lowest legal rank, all copies; 2s, then 10s; never picks up by choice",
)
