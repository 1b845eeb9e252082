"""The OpenSpiel game (idiotsim.interop.openspiel): OpenSpiel's own checks on every variant and player
count, trace equality with the project's engines on a project deck, the action space, resampling."""
from __future__ import annotations

import pyspiel
import pytest

import idiotsim.interop.openspiel  # noqa: F401 - registers the game
from idiotsim.game import observation as ob
from idiotsim.game import action_space as act
from idiotsim.interop.bots import StrategyBot
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import trace_game
from idiotsim.engine.hidden_cards import hidden_cards
from idiotsim.strategies.loading import load_strategy

from helpers import exchange_with_talon

# docs/rules.md V1..V12 (V4 and V8 as a match of two rounds; V12 needs V3)
VARIANTS = {
    "V1": {"low_rank": 7}, "V2": {"low_rank": 9}, "V3": {"lowest_starts": True}, "V4": {"rounds": 2},
    "V5": {"chance": True}, "V6": {"ten_only_on_lower": True}, "V7": {"decks": 2},
    "V8": {"idiot_deals": True, "rounds": 2}, "V9": {"burn_plays_again": False}, "V10": {"six_burn": 3},
    "V11": {"last_hand_with_faceup": True}, "V12": {"lowest_starts": True, "opening_lowest": True},
}
SETTINGS = [("canonical", {})] + list(VARIANTS.items())


def load(**params):
    return pyspiel.load_game("idiot", params)


def play_to_end(state, bots):
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_openspiel_random_simulation_at_every_player_count(players):
    # a short action limit (R20) keeps random play's games short; the stall ends them legally
    pyspiel.random_sim_test(load(players=players, action_limit=40), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name,rules", list(VARIANTS.items()))
def test_openspiel_random_simulation_on_every_variant(name, rules):
    pyspiel.random_sim_test(load(players=3, action_limit=40, **rules), num_sims=1, serialize=False, verbose=False)


DECKS_PER_SETTING = 160  # 2,080 decks in all, 2..5 players in turn


@pytest.mark.long(4)
@pytest.mark.parametrize("name,rules", SETTINGS)
def test_a_project_deck_played_through_openspiel_gives_the_trace_of_the_engines(name, rules):
    """basic in every seat, the deal as chance actions from the `--seed S --game I` decks: the same trace
    (and places) as `idiotsim trace` (the numba engine's, identical to the reference engine's)."""
    basic = [load_strategy("basic")]
    games = {n: load(players=n, **rules) for n in (2, 3, 4, 5)}
    for g in range(DECKS_PER_SETTING):
        players = 2 + g % 4
        rule_set = games[players].rules
        bots = [StrategyBot("basic", p, seed=11, game=g) for p in range(players)]
        state = games[players].new_initial_state()
        for r in range(rule_set.rounds):
            for card in shuffled_deck(11, g, r, rule_set.decks):
                state.apply_action(int(card))
            while not state.is_chance_node() and not state.is_terminal():
                state.apply_action(bots[state.current_player()].step(state))
        events, _, places = trace_game(rule_set, basic, 11, g)
        assert state.table.trace() == events, (name, g)
        assert state.returns() == [(players + 1 - 2 * p) / (players - 1) for p in places]


def test_game_type_parameters_and_bounds():
    game = load(players=3, rounds=2, low_rank=9)
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.num_players() == 3 and game.num_distinct_actions() == act.NUM_ACTIONS
    assert game.max_chance_outcomes() == 52
    assert game.max_game_length() == 2 * (3 + 10_000)  # R20: swaps and the action limit, per round
    assert game.rules == Rules(players=3, rounds=2, low_rank=9)
    with pytest.raises(Exception, match="opening_lowest"):
        load(opening_lowest=True)


def test_chance_outcomes_are_the_cards_left():
    state = load(players=6, decks=2).new_initial_state()  # V7: every code twice
    assert state.chance_outcomes()[:2] == [(0, 2 / 104), (1, 2 / 104)]
    state.apply_action(5)
    outcomes = dict(state.chance_outcomes())
    assert outcomes[5] == 1 / 103 and outcomes[6] == 2 / 103 and len(outcomes) == 52
    state.apply_action(5)
    assert 5 not in dict(state.chance_outcomes())
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 34) == "deal 10H"


def test_action_ids_and_decision_codes_round_trip_with_unique_strings():
    names = [act.action_text(a) for a in range(act.NUM_ACTIONS)]
    assert len(set(names)) == act.NUM_ACTIONS
    decision = {a: ob.SWAP if a < act.PLAY_BASE else ob.BLIND if a >= act.BLIND_BASE else ob.TURN
                for a in range(act.NUM_ACTIONS)}
    assert all(act.to_action(decision[a], act.to_move(a)) == a for a in range(act.NUM_ACTIONS))
    assert act.action_text(act.to_action(ob.TURN, 5 | (2 << 4) | (1 << 8))) == "play 2x 7 +1 face-up"


def _state_after(game, deck, decisions, seed=3):
    bots = [StrategyBot("random", p, seed=seed) for p in range(game.num_players())]
    state = game.new_initial_state()
    for card in deck:
        state.apply_action(int(card))
    for _ in range(decisions):
        state.apply_action(bots[state.current_player()].step(state))
    return state


def _world(state) -> tuple:
    """The state's cards by rank (R1: suits never matter): hands, blinds, talon, pile counts."""
    hands, _, blinds, talon = hidden_cards(state.table.state)
    pile = state.table.observation(0)[ob.PILE_COUNTS: ob.PILE_COUNTS + 13]
    return tuple(map(tuple, hands)), tuple(map(tuple, blinds)), tuple(talon), tuple(pile.tolist())


@pytest.mark.parametrize("decisions", [0, 2, 30])  # at the swap (seat 0, seat 2), and in play
def test_resampled_states_hold_the_players_information_state_and_play_on(decisions):
    game = load(players=3, chance=True)
    state = _state_after(game, shuffled_deck(5, 1, 0, 1), decisions)
    player = state.current_player()
    worlds = set()
    for _ in range(40):
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0., 1.))
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_string(player) == state.observation_string(player)
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        worlds.add(_world(sample))
    assert len(worlds) > 30  # the hidden cards really are dealt anew
    bots = [StrategyBot("random", p, seed=9) for p in range(3)]
    assert play_to_end(sample, bots).is_terminal()  # a sampled state is a legal position


def test_the_true_state_is_among_the_samples():
    """Late in a two-player game, when only a few cards are hidden from the seat to act, resampling
    deals every possible world: the true one (by rank, R1) comes up."""
    game = load(players=2)
    bots = [StrategyBot("basic", p) for p in range(2)]
    state = _state_after(game, shuffled_deck(2, 4, 0, 1), 0)
    while True:
        state.apply_action(bots[state.current_player()].step(state))
        assert not state.is_terminal()
        player = state.current_player()
        obs = state.table.observation(player)
        hidden = (obs[ob.TALON_SIZE] + obs[ob.BLIND_SIZE] + obs[ob.BLIND_SIZE + 1]
                  + obs[ob.HAND_SIZE + 1 - player] - obs[ob.KNOWN + (1 - player) * 13: ob.KNOWN + (2 - player) * 13].sum())
        if 3 <= hidden <= 4:
            break
    truth = _world(state)
    samples = [_world(state.resample_from_infostate(player, None)) for _ in range(300)]
    assert truth in samples
    assert len(set(samples)) > 1


def test_an_illegal_swap_is_refused():
    state = load(players=2).new_initial_state()
    for card in shuffled_deck(1, 0, 0, 1):
        state.apply_action(int(card))
    illegal = next(a for a in range(act.PLAY_BASE) if a not in state.legal_actions())
    with pytest.raises(Exception, match="illegal swap"):
        state.apply_action(illegal)


def test_strings_and_tensors_show_the_seat_its_own_hand_and_no_hidden_card():
    game = load(players=3)
    state = _state_after(game, shuffled_deck(8, 0, 0, 1), 12)
    seat = state.current_player()
    other = (seat + 1) % 3
    tensor = state.information_state_tensor(seat)
    assert tensor[ob.OBS_SIZE: ob.OBS_SIZE + 13] == list(state.table.hand(seat))
    changed = state.clone()  # another seat's hand card and a talon card of another rank change places
    exchange_with_talon(changed.table, other)
    for view in ("information_state_string", "observation_string", "information_state_tensor"):
        assert getattr(changed, view)(seat) == getattr(state, view)(seat), view
        assert getattr(changed, view)(other) != getattr(state, view)(other), view
