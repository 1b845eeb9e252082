"""`search`: determinized Monte Carlo search (PIMC, ``idiotsim.search``).

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

The gated search (`gate`, `top`, `prior`; ``idiotsim.search_gate``): the learned model scores a turn's moves
first and plays its move where its best leads the runner-up by more than `gate` places; only the close turns
are searched, over its `top` best moves. The presets `learned-search-2p` .. `learned-search-5p` are the
strong point chosen in reports/learned.md.

``PERFECT_INFO`` sees every hidden card (the true state instead of samples): an upper bound on what
the hidden cards are worth, for experiments only. It is not a fair player, and runs only on the
numba engine.
"""
from idiotsim.errors import UserError
from idiotsim.search import (GATE_OFF, POLICY_LEARNED_SELF, SWAP_LEARNED, in_compiled_code, run_time,
                             search_decision, true_state)
from idiotsim.strategies.learned import GAMES_OF_BASIC_PER_GAME as LEARNED_GAMES_OF_BASIC
from idiotsim.strategies.learned import LEARNED
from idiotsim.strategies.learned import MODELS as LEARNED_MODELS
from idiotsim.toolkit import Knob, Preset, Strategy, strategy_function

# A game with one search seat costs about this many games of basic per sampled state (K): about
# 11 searched decisions of ~5 moves, each rolled out over ~45 actions (benchmarks/search.py).
GAMES_OF_BASIC_PER_ROLLOUT = 40
# Time per rollout of each `policy` knob value relative to `basic` (benchmarks/search_variants.py speed:
# the tuned `weighted` player scores every option from features; at the searcher's seat only, about 1/3).
# policy 4: K = 8 with learned rollouts (the shipped 64-unit model) took x0.997 the time of K = 128 with basic's
# (benchmarks/search_variants.py speed, same process), so about 16x per rollout.
POLICY_COST = (1.0, 1.0, 7.0, 3.2, 16.0)


# The gated search: the share of the searched turns among the turns every search would search grows with the
# gate about as 0.1 + 7 x gate (places) up to 1 (benchmarks/learned.py gate: 0.12 at 0.01, 0.30 at 0.03, 0.45 at
# 0.05, 0.66 at 0.1, learned-4p's seat at 4 players); `top` cuts the ~5 moves of a searched turn to `top`.
SEARCHED_SHARE_AT_NO_GATE, SEARCHED_SHARE_PER_PLACE_OF_GATE, MOVES_PER_SEARCHED_TURN = 0.1, 7.0, 5


def work(params) -> float:
    """A game's cost with one search seat, in games of basic (idiotsim.work sizes chunks by it)."""
    search = GAMES_OF_BASIC_PER_ROLLOUT * params[ROLLOUTS] * POLICY_COST[int(params[POLICY])]
    gated = params[GATE] < GATE_OFF or params[TOP] > 0 or params[PRIOR] != 0  # the learned model scores each turn
    if params[GATE] < GATE_OFF:
        search *= min(1.0, SEARCHED_SHARE_AT_NO_GATE + SEARCHED_SHARE_PER_PLACE_OF_GATE * max(params[GATE], 0.0))
    if params[TOP] > 0:
        search *= min(1.0, params[TOP] / MOVES_PER_SEARCHED_TURN)
    return search + (LEARNED_GAMES_OF_BASIC if gated else 0.0)


def work_perfect_info(params) -> float:
    """One rollout per move, from the true state."""
    return GAMES_OF_BASIC_PER_ROLLOUT


KNOBS = (
    Knob("rollouts", 128, 1, 100_000, "K: sampled states per decision; every move is rolled out on each"),
    Knob("objective", 0, 0, 1, "0: the lowest mean place; 1: the most wins (then the lowest mean place)"),
    Knob("policy", 0, 0, 4, "the rollout policy: 0 basic, 1 counter (its defaults), 2 weighted tuned-Np "
                            "(N players, 2..5) at every seat, 3 tuned-Np at the searcher's seat and basic elsewhere, "
                            "4 the learned player (`rollout_model`) at the searcher's seat and basic elsewhere"),
    Knob("swap", 0, 0, 3, "1: search the swap too (every distinct choice of 3 face-up cards); 0: basic's swap; "
                          "2: basic's swap with every 10 kept in hand (heuristic swap mode 2), for experiments; "
                          "3: the learned player's swap (`rollout_model`'s swap head)"),
    Knob("tens", 0, 0, 2, "turns where a 10 is playable: 0 searched like every move; 1 burn by rule (a 10 on a "
                          "non-empty pile, every count searched); 2 save it like basic (no 10 while another rank "
                          "is playable); 1 and 2 for experiments"),
    Knob("halving", 1, 0, 1, "1: sequential halving on the budget of K x moves rollouts, the better half of the "
                             "moves kept round by round (0.022 places ahead of 0 at the same time); "
                             "0: every move on all K sampled states (the plain search)"),
    Knob("belief", 2, 0, 2, "the sampled states: 2 only the arrangements of the unseen cards that agree with what "
                            "the opponents' swaps, plays and pickups say of their hands had they played like basic "
                            "(the play facts), alike (0.038 places ahead of 1 at the same time per decision); 1 "
                            "with their pickups only (0.019 ahead of 0); 0 every arrangement alike"),
    Knob("rollout_model", 0, 0, len(LEARNED_MODELS) - 1, "the learned model of the learned policy (4), the gate "
                                                         "and the learned swap (3): " + ", ".join(
        f"{i} {name[:-4]}" for i, name in enumerate(LEARNED_MODELS))),
    Knob("gate", GATE_OFF, -1, GATE_OFF, "a turn is played by the learned player (`rollout_model`) when its best "
                                         "move's score leads the runner-up's by more than `gate` places, else "
                                         f"searched; {GATE_OFF:g} = off (every turn searched), -1 = never searched",
         integer=False),
    Knob("top", 0, 0, 512, "a searched turn is searched over the learned model's `top` best moves only (0: every "
                           "move)"),
    Knob("prior", 0, 0, 1, "1: a searched turn's moves in the learned model's order (its best first, so it keeps "
                           "the search's ties); 0: basic's move first, then the list's order"),
)
ROLLOUTS = [knob.name for knob in KNOBS].index("rollouts")
ROLLOUT_MODEL = [knob.name for knob in KNOBS].index("rollout_model")
POLICY = [knob.name for knob in KNOBS].index("policy")
GATE = [knob.name for knob in KNOBS].index("gate")
TOP = [knob.name for knob in KNOBS].index("top")
PRIOR = [knob.name for knob in KNOBS].index("prior")


def uses_learned_model(values: dict) -> bool:
    """The learned rollout policy, the gate (`gate` or `top` on) and the learned swap read the model."""
    return (int(values.get("policy", 0)) == POLICY_LEARNED_SELF or float(values.get("gate", GATE_OFF)) < GATE_OFF
            or int(values.get("top", 0)) > 0 or int(values.get("prior", 0)) != 0
            or int(values.get("swap", 0)) == SWAP_LEARNED)


def learned_rollout_weights(values: dict):
    """The learned model's users (`uses_learned_model`) read the `learned` family's params (its default
    knobs, then the model of `rollout_model`) after the search's knobs (idiotsim.search.LEARNED_AT);
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
    return search_decision(obs, hand, params, rng, true_state(obs), run_time(True))


# The gated search (reports/learned.md, "The learned player with a gated search"): the learned player's
# move and swap where its model's best leads by more than GATED_KNOBS' gate, a search at K = 16 over its 3 best
# moves elsewhere; chosen on the tuning deals at 4 players, one model and one setting for every table size,
# with the pickup-fact belief (belief=1, the default then): the play facts were not measured with the gate.
GATED_KNOBS = dict(rollouts=16, gate=0.055, top=3, swap=3, belief=1)
PRESETS = {f"learned-search-{n}p": Preset(f"the learned player ({n} players) searching only its close turns: "
                                          "gate 0.055 places, K = 16 over its 3 best moves (reports/learned.md)",
                                          **GATED_KNOBS) for n in (2, 3, 4, 5)}


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
)
