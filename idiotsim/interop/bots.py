"""Bots across the bridge, both ways.

- `StrategyBot`: any idiotsim strategy spec as a ``pyspiel.Bot`` of the ``idiot`` game. Seeded like
  a seat of ``idiotsim trace`` (the seat's stream of (seed, game)), it plays the same moves.
- ``openspiel:FAMILY:knob=v,...`` strategy specs (``idiotsim.strategies.loading``): an OpenSpiel bot as a
  seat in tournaments, reports and ``trace``. At each decision the seat's observation and hand
  become an OpenSpiel state: its hidden cards dealt by the project's determinizer from the seat's
  random stream (a bot that searches resamples them anyway), and the bot's move is the decision.
  Such a seat plays at Python speed, so its games run on the reference engine
  (``idiotsim.engine.batches``); its ``work`` sizes tournament chunks (``idiotsim.runs.chunk_sizes``).

Families: ``ismcts`` (OpenSpiel's Python information-set MCTS, Cowling, Powley and Whitehouse 2012,
leaves judged by one rollout of basic at every seat on the numba engine, the search player's own
rollout) and ``random`` (OpenSpiel's uniform random bot).
"""
from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms.mcts import Evaluator

from idiotsim.game import observation as ob
from idiotsim.errors import UserError
from idiotsim.game import action_space as act
from idiotsim.interop.openspiel import GAME_NAME, IdiotState
from idiotsim.interop.stepped import place_utility
from idiotsim.interop.worlds import rollout_places, table_at_decision
from idiotsim.game.rng import SEAT_STREAM, new_state, next_u64
from idiotsim.game.rules import FIELD_NAMES, Rules
from idiotsim.strategies.toolkit import Knob, Strategy, knob_ids
from idiotsim.game.moves import compiled

FINAL_POLICIES = (ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, ismcts.ISMCTSFinalPolicyType.MAX_VALUE,
                  ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT)
# A game's cost in games of basic on the numba engine (idiotsim.runs.chunk_sizes), measured at 4 players: a game on
# the reference engine, and one ISMCTS simulation at each of the seat's decisions (benchmarks/search_vs_ismcts.py
# calibrate measures both).
REFERENCE_GAME_COST = 800
SIMULATION_COST = 1_200


# ---- an idiotsim strategy as an OpenSpiel bot ------------------------------------------------------

class StrategyBot(pyspiel.Bot):
    """`spec` (any strategy spec) playing seat `player` of an ``idiot`` game."""

    def __init__(self, spec: str, player: int, seed: int = 0, game: int = 0):
        from idiotsim.strategies.loading import load_strategy
        pyspiel.Bot.__init__(self)
        self.seat_strategy = load_strategy(spec)
        self.player, self.seed, self.game = player, seed, game
        self.restart()

    def restart_at(self, state):
        self.restart()

    def restart(self):
        self.rng = new_state(self.seed, self.game, SEAT_STREAM + self.player)

    def step(self, state):
        table = state.table
        seat = table.current_seat()
        decide = self.seat_strategy.decide
        function = decide.py_func if not hasattr(decide, "signatures") else compiled(decide)
        move = int(function(table.observation(seat).copy(), table.hand(seat).copy(), self.seat_strategy.params,
                            self.rng))
        return act.to_action(table.decision(), move)


# ---- OpenSpiel bots as idiotsim strategies -------------------------------------------------------

class RolloutEvaluator(Evaluator):
    """Judges a leaf by one rollout of basic at every seat (numba engine) to the end of the round:
    each seat's place there as its utility (a round's place, as the search player's rollouts score
    it). Priors are uniform."""

    def __init__(self, rng: np.ndarray):
        self.rng = rng

    def evaluate(self, state):
        if state.is_terminal():
            return np.array(state.returns())
        n = state.table.n
        return np.array([place_utility(p, n) for p in rollout_places(state.table, self.rng)])

    def prior(self, state):
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def _ismcts_bot(game, seat, params, rng):
    simulations, uct_c, final = int(params[K.simulations]), float(params[K.uct_c]), int(params[K.final])
    seed = next_u64(rng) % 2 ** 32
    return ismcts.ISMCTSBot(game, RolloutEvaluator(rng), uct_c, simulations,
                            random_state=np.random.RandomState(seed), final_policy_type=FINAL_POLICIES[final])


def _random_bot(game, seat, params, rng):
    return pyspiel.make_uniform_random_bot(seat, next_u64(rng) % 2 ** 31)


ISMCTS_KNOBS = (
    Knob("simulations", 100, 2, 1_000_000, "simulations a decision (the first only evaluates the root)", integer=True),
    Knob("uct_c", 2.0, 0.0, 100.0, "UCT exploration constant (returns lie in -1..1)", integer=False),
    Knob("final", 0, 0, 2, "the move played: 0 most visited, 1 best mean, 2 drawn by visits", integer=True),
)
K = knob_ids(ISMCTS_KNOBS)
OPENSPIEL_PREFIX = "openspiel:"  # the source of these families (pyproject's idiotsim.strategy_sources)
FAMILIES = {
    "ismcts": (_ismcts_bot, ISMCTS_KNOBS, "OpenSpiel's information-set MCTS (Python), basic rollouts",
               lambda p: REFERENCE_GAME_COST + SIMULATION_COST * p[K.simulations]),
    "random": (_random_bot, (), "OpenSpiel's uniform random bot", lambda p: REFERENCE_GAME_COST),
}


@lru_cache(maxsize=None)
def openspiel_family(name: str) -> Strategy:
    """The strategy of an OpenSpiel bot family (``openspiel:NAME``); an unknown name is a UserError."""
    if name not in FAMILIES:
        raise UserError(f"unknown OpenSpiel bot {name!r}; available: {', '.join(sorted(FAMILIES))}")
    make_bot, knobs, description, work = FAMILIES[name]

    def decide(obs, hand, params, rng):
        return bot_decision(make_bot, obs, hand, params, rng)

    return Strategy(name=OPENSPIEL_PREFIX + name, decide=SimpleNamespace(py_func=decide), description=description,
                    stochastic=True, counts_cards=True, knobs=knobs, work=work,
                    looks_at=("the whole observation", "sampled hidden cards"))


def bot_decision(make_bot, obs, hand, params, rng) -> int:
    """The decision code of the bot `make_bot(game, seat, params, rng)` at the seat's observation and hand."""
    rules = rules_of_observation(obs)
    game = idiot_game(rules)
    seat = int(obs[ob.SEAT])
    state = IdiotState(game)
    state.table = table_at_decision(rules, obs, hand, rng)
    state.resample_rng = np.array([next_u64(rng)], dtype=np.uint64)
    action = make_bot(game, seat, params, rng).step(state)
    return act.to_move(int(action))


@lru_cache(maxsize=64)
def idiot_game(rules: Rules):
    return pyspiel.load_game(GAME_NAME, {name: (0 if value is None else value) for name, value in rules.as_dict().items()})


def rules_of_observation(obs) -> Rules:
    """The rules an observation's header carries (``observation.rules_to_header``)."""
    values = {"players": int(obs[ob.PLAYERS])}
    for name in FIELD_NAMES:
        offset = ob.RULE_OFFSETS.get(name)
        if offset is None:
            continue
        value = int(obs[offset])
        if name == "low_rank":
            values[name] = None if value < 0 else value + 2
        elif isinstance(getattr(Rules(), name), bool):
            values[name] = bool(value)
        else:
            values[name] = value
    return Rules(**values)
