"""`search`: determinized Monte Carlo search (PIMC, ``idiotsim.strategies.search.pimc``).

At each turn with more than one legal move (each rank with each count, pickup, V5 chance) it plays
the moves on states sampled from what it has seen (the same states for every move still in the
running; by default only states that agree with what the opponents' swaps, plays and pickups say
had they played like `basic`, the `belief` knob), rolls each out with a rollout policy to the end of its own round, and plays the move with
the best mean place (or win rate). By default the budget of K x moves rollouts is allocated by
sequential halving (`halving`); `halving=0` is the plain search, every move on the same K states.
`basic`'s move wins ties; the blind flip (R15) is `basic`'s; the swap (R6) is `basic`'s unless the
`swap` knob searches every distinct choice of 3 face-up cards of the 6. The `tens` knob fixes the
10 by rule instead of searching it (burn as soon as possible, or save it like basic), for the burn
question (reports/burn_search.toml). Beyond the plain search
(docs/strategies.md has their measured strength at the same time per decision): `policy` 2 and 3
roll out with the tuned `weighted` player, `policy` 4 with the learned player at the searcher's seat
(all three weaker at the same time); `halving` (the default,
stronger at the same time) allocates the same budget by sequential halving.

The gated search (`gate`, `top`, `prior`; ``idiotsim.strategies.search.gate``): the learned model scores a turn's moves
first and plays its move where its best leads the runner-up by more than `gate` places; only the close turns
are searched, over its `top` best moves. The presets `learned-search-2p` .. `learned-search-5p` are the
strong point chosen in reports/learned.md.

Constraints (``idiotsim.strategies.constraints``, the block after the knobs): the search judges only the allowed
moves of its own seat (its rollouts stay unconstrained), the gate gates among them, and the swaps it does not
search (basic's, the learned player's, swap mode 2) keep to them.

``PERFECT_INFO`` sees every hidden card (the true state instead of samples): an upper bound on what
the hidden cards are worth, for experiments only. It is not a fair player, and runs only on the
numba engine.
"""
from idiotsim.engine.hidden_cards import table_of_observation
from idiotsim.errors import UserError
from idiotsim.strategies.search.pimc import in_compiled_code, run_time, search_decision
from idiotsim.strategies.search.search_knobs import GATE_OFF, KNOBS, POLICY_LEARNED_SELF, SWAP_LEARNED, K
from idiotsim.strategies.learned import GAMES_OF_BASIC_PER_GAME as LEARNED_GAMES_OF_BASIC
from idiotsim.strategies.learned import LEARNED
from idiotsim.strategies.learned.learned_knobs import TABLE_MODELS
from idiotsim.strategies.toolkit import Preset, Strategy, strategy_function

# A game with one search seat costs about this many games of basic per sampled state (K): its searched
# decisions, each with several moves rolled out to the end of the round (benchmarks/search.py measures it).
GAMES_OF_BASIC_PER_ROLLOUT = 40
# Time per rollout of each `policy` knob value relative to `basic`, as benchmarks/search_variants.py speed
# measures it: the tuned `weighted` player scores every option from features (at every seat for 2, at the
# searcher's seat only for 3), and policy 4 runs the shipped 64-unit learned model at the searcher's seat.
POLICY_COST = (1.0, 1.0, 7.0, 3.2, 16.0)


# The gated search: the share of the searched turns among the turns every search would search grows with the
# gate about linearly up to 1, a line fitted to what benchmarks/learned.py gate measures (learned-4p's seat at 4
# players); `top` cuts the moves of a searched turn to `top`.
SEARCHED_SHARE_AT_NO_GATE, SEARCHED_SHARE_PER_PLACE_OF_GATE, MOVES_PER_SEARCHED_TURN = 0.1, 7.0, 5


def work(params) -> float:
    """A game's cost with one search seat, in games of basic (idiotsim.runs.chunk_sizes sizes chunks by it)."""
    search = GAMES_OF_BASIC_PER_ROLLOUT * params[K.rollouts] * POLICY_COST[int(params[K.policy])]
    gated = params[K.gate] < GATE_OFF or params[K.top] > 0 or params[K.prior] != 0  # the learned model scores each turn
    if params[K.gate] < GATE_OFF:
        search *= min(1.0, SEARCHED_SHARE_AT_NO_GATE + SEARCHED_SHARE_PER_PLACE_OF_GATE * max(params[K.gate], 0.0))
    if params[K.top] > 0:
        search *= min(1.0, params[K.top] / MOVES_PER_SEARCHED_TURN)
    return search + (LEARNED_GAMES_OF_BASIC if gated else 0.0)


def work_perfect_info(params) -> float:
    """One rollout per move, from the true state."""
    return GAMES_OF_BASIC_PER_ROLLOUT




def uses_learned_model(values: dict) -> bool:
    """The learned rollout policy, the gate (`gate` or `top` on) and the learned swap read the model."""
    return (int(values.get("policy", 0)) == POLICY_LEARNED_SELF or float(values.get("gate", GATE_OFF)) < GATE_OFF
            or int(values.get("top", 0)) > 0 or int(values.get("prior", 0)) != 0
            or int(values.get("swap", 0)) == SWAP_LEARNED)


def learned_rollout_weights(values: dict):
    """The learned model's users (`uses_learned_model`) read the `learned` family's params (its default
    knobs, then the model of `rollout_model`) after the search's knobs (idiotsim.strategies.search.pimc.LEARNED_AT);
    every other search reads nothing there."""
    if not uses_learned_model(values):
        return ()
    return LEARNED.params({"model": values.get("rollout_model", 0)})


@strategy_function(allocates=True)
def decide(obs, hand, params, rng):
    return search_decision(obs, hand, params, rng, obs, run_time(False))


@strategy_function(allocates=True)
def decide_perfect_info(obs, hand, params, rng):
    if not in_compiled_code():
        raise UserError("search-perfect-info reads the numba engine's hidden state: "
                        "it cannot play on the reference engine (use trace --engine numba)")
    return search_decision(obs, hand, params, rng, table_of_observation(obs), run_time(True))


# The gated search (reports/learned.md, "The learned player with a gated search"): the learned player's
# move and swap where its model's best leads by more than GATED_KNOBS' gate, a search at K = 16 over its 3 best
# moves elsewhere; chosen on the tuning deals at 4 players, one model and one setting for every table size,
# with the pickup-fact belief (belief=1, the default then): the play facts were not measured with the gate.
GATED_KNOBS = dict(rollouts=16, gate=0.055, top=3, swap=3, belief=1)
# At 2 and 5 players the gate scores with the table's own 64-unit model (learned_knobs.TABLE_MODELS), which made
# the gated player stronger there; at 3 players its own model gated no better, so the presets keep learned-4p's
# model at 3 and 4 (reports/learned.md, held out and paired).
GATE_MODELS = {2: TABLE_MODELS[2][0], 5: TABLE_MODELS[5][0]}
PRESETS = {f"learned-search-{n}p": Preset(f"the learned player ({n} players) searching only its close turns: "
                                          "gate 0.055 places, K = 16 over its 3 best moves (reports/learned.md)",
                                          **GATED_KNOBS, **({"rollout_model": GATE_MODELS[n]}
                                                            if n in GATE_MODELS else {})) for n in (2, 3, 4, 5)}


STRATEGY = Strategy(
    name="search",
    decide=decide,
    description="Determinized Monte Carlo search: every legal move rolled out on sampled states (K x moves "
                "rollouts, sequential halving); best mean place, basic's move on ties",
    stochastic=True,
    counts_cards=True,
    knobs=KNOBS,
    work=work,
    weights=learned_rollout_weights,
    presets=PRESETS,
    reads_constraints=True,
)
SEARCH = STRATEGY

PERFECT_INFO = Strategy(
    name="search-perfect-info",
    decide=decide_perfect_info,
    description="NOT A FAIR PLAYER: search on the true state (sees every hidden card); an upper bound, "
                "for experiments only; numba engine only",
    stochastic=False,
    counts_cards=True,
    knobs=KNOBS,
    fair=False,
    work=work_perfect_info,
    weights=learned_rollout_weights,
    reads_constraints=True,
)
