"""`random`: uniform over the legal moves, from the seat's own seeded stream."""
from idiotsim.engine.memory import stack_ints
from idiotsim.game.moves import MAX_MOVES, PICKUP, SIG, list_turn_moves, swap_choice
from idiotsim.game.observation import BLIND_PRESENT, DECISION, FACEUP, NR, SEAT, SWAP, TURN
from idiotsim.game.rng import nb_below
from idiotsim.jit import kernel
from idiotsim.strategies.constraints import constrained_move
from idiotsim.strategies.toolkit import Strategy, strategy_function


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
    """One of the legal moves (``game.moves.list_turn_moves``), drawn uniformly."""
    moves = stack_ints(MAX_MOVES)
    n = list_turn_moves(obs, hand, moves)
    pick = nb_below(rng, n)
    return moves[pick] if n > 0 else PICKUP


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


CONSTRAINTS_AT = 0  # the constraint block of a constrained seat follows the knobs (idiotsim.strategies.constraints)


@strategy_function
def decide_constrained(obs, hand, params, rng):
    """The decision under the constraint block at params[CONSTRAINTS_AT:]: its move, or the nearest allowed one."""
    return constrained_move(obs, hand, params, CONSTRAINTS_AT, decide(obs, hand, params, rng))


STRATEGY = Strategy(
    name="random",
    decide=decide,
    description="Uniform over legal moves (voluntary pickups and chance included); seeded per seat",
    stochastic=True,
    looks_at=("own cards", "pile top", "its random stream"),
    constrained_decide=decide_constrained,
)
