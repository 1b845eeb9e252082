"""The engine's fast path for `basic` (issue 19, item 4): the same games and rollouts as the checked path.

A seat marked SEAT_BASIC plays its turn through `transitions.play_basic_turn`, which applies `basic`'s move
straight to the state without handing out the observation or checking the move. Played through the
strategy table instead (a twin of `basic`'s function, which the engine does not recognise), every
move goes through `show_turn` and `apply_action`'s checks (R9-R15, V5, V11, V12). Both must give the same
games in every rule variant; rollouts (`rollouts.play_on`) from any decision of a game of `basic` must
end as the game did.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from idiotsim.game import observation as ob
from idiotsim.strategies.search import pimc as search
from idiotsim.strategies.search import search_knobs
from idiotsim.jit import kernel
from idiotsim.analysis.replayed_states import decision_positions
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_games
from idiotsim.strategies.loading import SeatStrategy, load_strategies

SEED = 19
# Every rule the fast path reads or that changes which moves are legal (docs/rules.md's V-rules).
VARIANTS = [
    Rules(players=4),
    Rules(players=2),
    Rules(players=5, low_rank=7),  # V1: stalls (R20) are common
    Rules(players=3, low_rank=9, ten_only_on_lower=True),  # V2, V6
    Rules(players=4, chance=True, opening_lowest=True, lowest_starts=True),  # V5, V12, V3
    Rules(players=3, rounds=2, idiot_deals=True, burn_plays_again=False, six_burn=3),  # V4, V8, V9, V10
    Rules(players=4, last_hand_with_faceup=True),  # V11
    Rules(players=6, last_hand_with_faceup=True, six_burn=3),  # V7 (two decks), V11, V10
]
IDS = [f"variant{i}" for i in range(len(VARIANTS))]


def _twin():
    """`basic`'s function compiled again: the engine calls it through the strategy table."""
    basic = load_strategies("basic", 1)[0]
    return basic, SeatStrategy("basic-twin", dataclasses.replace(basic.strategy, decide=kernel(basic.decide.py_func)),
                               basic.params)


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_basic_inline_plays_the_games_of_basic_through_the_table(rules):
    """R4-R20 and every V-rule: places, actions, burns, pickups and stalls of 400 games are equal."""
    basic, twin = _twin()
    n = rules.players
    inline = play_games(rules, [basic] * n, SEED, 0, 400)
    called = play_games(rules, [twin] * n, SEED, 0, 400)
    assert inline.keys() == called.keys()
    for key in inline:
        assert np.array_equal(inline[key], called[key]), key
    assert np.asarray(inline["pickups"]).sum() > 0


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_basic_inline_rollouts_from_the_true_state_end_as_the_game_did(rules):
    """R16.3/R18/R20: `play_on` with `basic` inline from every 2nd decision (TURN and BLIND) of an
    all-`basic` game on the reference engine, for every seat still in: the place it got."""
    failures = []
    for game in range(2):
        for pos in decision_positions(rules, "basic", SEED, game)[::2]:
            for searcher in range(rules.players):
                if pos["obs"][ob.PLACE + searcher]:
                    continue
                place = search.rollout_place(pos["state"].copy(), pos["seat"], searcher, search_knobs.POLICY_BASIC, True)
                if place != pos["places"][searcher]:
                    failures.append((game, pos["obs"][ob.ACTIONS], searcher, place, pos["places"][searcher]))
    assert not failures, failures[:5]
