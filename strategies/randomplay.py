"""`random`: uniform over the legal moves, from the seat's own seeded stream."""
from idiotsim.jit import kernel
from idiotsim.observation import BLIND_PRESENT, CAN_CHANCE, CAN_PICKUP, DECISION, FACEUP, MUST_PLAY, NR, SEAT
from idiotsim.rng import nb_below
from idiotsim.toolkit import (CHANCE, PICKUP, SIG, SWAP, TURN, Strategy, faceup_addable, held_in_source, legal_now,
                              play, strategy_function, swap_choice)


@kernel
def _nth_card(obs, hand, k):
    """The rank of the k-th (0-based) of the player's 6 cards in rank order, during the swap."""
    seat = obs[SEAT]
    for r in range(NR):
        k -= hand[r] + obs[FACEUP + seat * NR + r]
        if k < 0:
            return r
    return 0


@kernel(SIG)
def _choose_turn(obs, hand, params, rng):
    """Every legal move counted in a fixed order, then one drawn uniformly."""
    total = 0
    for step in range(2):
        if step == 1:
            pick = nb_below(rng, total)
        n = 0
        for r in range(NR):
            if obs[MUST_PLAY] >= 0 and r != obs[MUST_PLAY]:
                continue
            held = held_in_source(obs, hand, r)
            if held == 0 or not legal_now(obs, r):
                continue
            for count in range(1, held + 1):
                extras = faceup_addable(obs, hand, r, count)
                for extra in range(extras + 1):
                    if step == 1 and n == pick:
                        return play(r, count, extra)
                    n += 1
        if obs[CAN_PICKUP]:
            if step == 1 and n == pick:
                return PICKUP
            n += 1
        if obs[CAN_CHANCE]:
            if step == 1 and n == pick:
                return CHANCE
            n += 1
        total = n
    return PICKUP


@strategy_function
def decide(obs, hand, params, rng):
    seat = obs[SEAT]
    if obs[DECISION] == SWAP:
        # The 6 cards in rank order; one of the C(6,3) = 20 sets of positions, uniformly.
        pick = nb_below(rng, 20)
        n = 0
        for a in range(6):
            for b in range(a + 1, 6):
                for c in range(b + 1, 6):
                    if n == pick:
                        return swap_choice(_nth_card(obs, hand, a), _nth_card(obs, hand, b),
                                           _nth_card(obs, hand, c))
                    n += 1
    if obs[DECISION] == TURN:
        return _choose_turn(obs, hand, params, rng)
    left = 0
    for pos in range(3):
        left += obs[BLIND_PRESENT + seat * 3 + pos]
    pick = nb_below(rng, left)
    for pos in range(3):
        if obs[BLIND_PRESENT + seat * 3 + pos]:
            if pick == 0:
                return pos
            pick -= 1
    return 0


STRATEGY = Strategy(
    name="random",
    decide=decide,
    description="Uniform over legal moves (voluntary pickups and chance included); seeded per seat",
    stochastic=True,
    looks_at=("own cards", "pile top", "its random stream"),
)
