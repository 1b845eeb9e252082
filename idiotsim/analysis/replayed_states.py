"""Positions of real games as engine states: every decision of a game replayed on the reference
engine, with the full state behind it (for the search tests and ``idiotsim analyze``)."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from idiotsim.engine.hidden_cards import compose_table
from idiotsim.game import observation as ob
from idiotsim.game.reference import counts, play_match
from idiotsim.game.rng import shuffled_deck
from idiotsim.strategies.loading import SeatStrategy, load_strategies
from idiotsim.strategies.toolkit import Strategy


def state_of_round(rnd, obs) -> np.ndarray:
    """The engine state of a reference-engine round (``reference.Round``) at the decision whose
    observation is `obs` (R5 ranks; suits do not matter, R1)."""
    blinds = [[-1 if card is None else card >> 2 for card in p.blind] for p in rnd.players]
    return compose_table(obs, [counts(p.hand) for p in rnd.players], blinds, [c >> 2 for c in rnd.talon])


def decision_positions(rules, spec: str, seed: int, game: int, decisions=(ob.TURN, ob.BLIND)) -> list:
    """Every decision of the kinds `decisions` in game `game` of `seed` played on the reference engine
    by `spec`, as dicts: ``state`` (engine state), ``obs``, ``hand``, ``seat``, ``round`` and the
    result ``places`` (round places) of the game as played."""
    seats = load_strategies(spec, rules.players)
    live = {}
    found = []

    def recorder(seat_strategy):
        def decide(obs, hand, params, rng):
            if obs[ob.DECISION] in decisions:
                found.append(dict(state=state_of_round(live["round"], obs), obs=obs.copy(), hand=hand.copy(),
                                  seat=int(obs[ob.SEAT]), round=int(obs[ob.ROUND])))
            return seat_strategy.decide.py_func(obs, hand, params, rng)
        wrapped = Strategy(name=seat_strategy.label, decide=SimpleNamespace(py_func=decide), description="")
        return SeatStrategy(seat_strategy.label, wrapped, seat_strategy.params)

    def observer(event, rnd):
        live["round"] = rnd

    decks = [shuffled_deck(seed, game, r, rules.decks) for r in range(rules.rounds)]
    result = play_match(decks, rules, [recorder(s) for s in seats], seed, game, observer=observer)
    for position in found:
        position["places"] = result.rounds[position["round"] - 1].places
    return found
