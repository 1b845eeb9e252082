"""The OpenSpiel game's observers honour IIGObservationType: public information only holds no card of any
seat's private part (its hand, its face-up row while the seats swap, its swap), one seat's private part is
that seat's only, every seat's holds them all; strings hold plain numbers; the information state is what
docs/interop.md says (the default observation's knowledge, not perfect recall)."""
from __future__ import annotations

import re

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import idiotsim.interop.openspiel  # noqa: F401 - registers the game
from idiotsim.game import observation as ob
from idiotsim.interop.bots import StrategyBot
from idiotsim.interop.stepped import SWAPPING
from idiotsim.game.rng import shuffled_deck

from helpers import exchange_with_talon

PRIVATE = pyspiel.PrivateInfoType
DEFAULT = pyspiel.IIGObservationType(perfect_recall=False)
PUBLIC = pyspiel.IIGObservationType(perfect_recall=False, private_info=PRIVATE.NONE)
OWN = pyspiel.IIGObservationType(perfect_recall=False, public_info=False)
EVERY = pyspiel.IIGObservationType(perfect_recall=False, private_info=PRIVATE.ALL_PLAYERS)
INFO_STATE = pyspiel.IIGObservationType(perfect_recall=True)


def state_after(game, decisions: int, seed: int = 8):
    bots = [StrategyBot("basic", p, seed=seed) for p in range(game.num_players())]
    state = game.new_initial_state()
    for card in shuffled_deck(seed, 0, 0, 1):
        state.apply_action(int(card))
    for _ in range(decisions):
        state.apply_action(bots[state.current_player()].step(state))
    return state


def views(game, state, player, kind) -> tuple:
    observation = make_observation(game, kind)
    observation.set_from(state, player)
    return observation.tensor.tolist(), observation.string_from(state, player)


def exchanged(state, seat: int, where: str):
    """A state that differs from `state` only in a card of `seat` that is private (its hand, or its face-up row
    while the seats swap), exchanged with a talon card of another rank: what no other seat can tell apart."""
    changed = state.clone()
    exchange_with_talon(changed.table, seat, where)
    return changed


# at the swap (seat 0 deciding, then seat 1 after seat 0 chose), and in play
@pytest.mark.parametrize("decisions, where", [(0, "hand"), (0, "faceup"), (1, "faceup"), (14, "hand")])
def test_public_information_holds_no_seats_private_cards(decisions, where):
    game = pyspiel.load_game("idiot", {"players": 3})
    state = state_after(game, decisions)
    assert (state.table.phase == SWAPPING) == (decisions < 3)
    for seat in range(3):
        changed = exchanged(state, seat, where)
        for player in range(3):
            # public only: nobody's private card shows, the observing seat's own included
            assert views(game, changed, player, PUBLIC) == views(game, state, player, PUBLIC), (seat, player)
            # one seat's private part: the change shows to that seat only
            same = views(game, changed, player, DEFAULT) == views(game, state, player, DEFAULT)
            assert same == (player != seat), (seat, player)
            assert (views(game, changed, player, OWN) == views(game, state, player, OWN)) == (player != seat)
            # every seat's: the change shows to everyone
            assert views(game, changed, player, EVERY)[0] != views(game, state, player, EVERY)[0]


def test_the_pieces_of_each_type():
    game = pyspiel.load_game("idiot", {"players": 4})
    state = state_after(game, 20)
    player = state.current_player()
    default = make_observation(game, DEFAULT)
    default.set_from(state, player)
    assert default.tensor.tolist() == state.table.vector(player).tolist() == state.observation_tensor(player)
    public = make_observation(game, PUBLIC)
    public.set_from(state, player)
    assert public.tensor.tolist() == default.dict["observation"].tolist()  # in play the observation is public
    every = make_observation(game, EVERY)
    every.set_from(state, player)
    assert every.dict["hand"].tolist() == [state.table.hand(s).tolist() for s in range(4)]
    own = make_observation(game, OWN)
    own.set_from(state, player)
    assert own.dict["hand"].tolist() == [state.table.hand(player).tolist()] and not own.dict["faceup"].any()


def test_while_dealing_every_number_is_zero_and_strings_say_so():
    game = pyspiel.load_game("idiot", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(3)
    for kind in (DEFAULT, PUBLIC, OWN, EVERY):
        tensor, text = views(game, state, 0, kind)
        assert not any(tensor) and text == "round 1 dealing; totals [0, 0]"


def test_strings_hold_plain_numbers_all_game_long():
    """No `np.int64(0)`: every string of every type is words, ranks and plain integers."""
    game = pyspiel.load_game("idiot", {"players": 3, "rounds": 2})
    state = state_after(game, 0, seed=4)
    bots = [StrategyBot("basic", p, seed=4) for p in range(3)]
    seen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        for kind in (DEFAULT, PUBLIC, OWN, EVERY):
            text = views(game, state, state.current_player(), kind)[1]
            assert "np." not in text and "(" not in text.replace("swap: ", ""), text
            seen += 1
        assert re.fullmatch(r"[\w |:,\[\]\-+]*", state.observation_string()), state.observation_string()
        state.apply_action(bots[state.current_player()].step(state))
    assert seen > 100
    assert re.fullmatch(r"over; places \[\d, \d, \d\]", state.observation_string(0))


def test_the_information_state_is_the_default_observations_knowledge_not_perfect_recall():
    """As docs/interop.md says: the information state string is a key of the default observation (its
    tensor is the same numbers), so two states in which a seat knows the same share it, whatever the
    history; and a state's information state changes whenever its observation does."""
    game = pyspiel.load_game("idiot", {"players": 3})
    keys: dict = {}
    for seed in range(6):
        state = state_after(game, 0, seed=seed)
        bots = [StrategyBot("random", p, seed=seed) for p in range(3)]
        for _ in range(40):
            player = state.current_player()
            key = state.information_state_string(player)
            assert state.information_state_tensor(player) == state.observation_tensor(player)
            observation = tuple(state.observation_tensor(player))
            assert keys.setdefault(key, observation) == observation
            state.apply_action(bots[player].step(state))
    assert len(keys) > 200
