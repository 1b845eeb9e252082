"""The batched stepping API (``engine.stepping``): the same games as ``run``, the same rules as the reference.

- `basic` at every seat, chosen from each table's observation and stepped through the API, ends every
  game in ``run``'s places, actions and stalls, in every variant;
- random legal play through the API equals the reference engine (tests/reference_table.py on the same
  decks, the same moves): every observation, hand, legal mask and the places, in every variant;
- an illegal action changes nothing and names its rule; auto-reset deals game index + stride; results do
  not depend on the batch size.
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from idiotsim.engine.batches import play_games
from idiotsim.engine.stepping import (MATCH_OVER, NO_ACTION, TableBatch, begin_next_game, match_places, observe_final,
                                      observe_table, step_table, table_game)
from idiotsim.game import observation as ob
from idiotsim.game.action_space import NUM_ACTIONS, action_id, to_action, to_move
from idiotsim.game.basic_player import play_like_basic
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import load_strategies

from reference_table import ReferenceTable
from test_engine_equality import VARIANTS

SEED = 4242
CASES = [(case, fields, list(players)[:4]) for case, fields, players, _ in VARIANTS]
IDS = [case for case, _, _ in CASES]


@njit(cache=True)
def basic_actions(states, out):
    """`basic`'s action id at every table, from the seat's observation and hand alone."""
    obs = np.zeros(ob.OBS_SIZE, np.int64)
    hand = np.zeros(13, np.int64)
    for i in range(states.shape[0]):
        observe_table(states[i], obs, hand)
        out[i] = action_id(obs[ob.DECISION], play_like_basic(obs, hand))


def play_out(tables: TableBatch, choose) -> dict:
    """Step every table (no auto-reset) until each match is over; its results by table."""
    n_tables = len(tables)
    results = {"places": np.zeros((n_tables, tables.players), np.int64), "actions": np.zeros(n_tables, np.int64),
               "stalled": np.zeros(n_tables, bool)}
    actions = np.zeros(n_tables, np.int64)
    while not tables.over.all():
        live = ~tables.over
        choose(tables, actions)
        actions[~live] = NO_ACTION
        result = tables.step(actions)
        for name in results:
            results[name][result.done] = getattr(result, name)[result.done]
    return results


@pytest.mark.parametrize("case, fields, players", CASES, ids=IDS)
def test_basic_through_the_api_plays_runs_games(case, fields, players):
    for n in players:
        rules = Rules(players=n, **fields)
        games = np.arange(100, 160)
        tables = TableBatch(rules, SEED, games=games, auto_reset=False)
        got = play_out(tables, lambda t, out: basic_actions(t.states, out))
        want = play_games(rules, load_strategies("basic", n), SEED, 100, len(games))
        np.testing.assert_array_equal(got["places"], want["places"])
        np.testing.assert_array_equal(got["actions"], want["actions"])
        np.testing.assert_array_equal(got["stalled"], want["stalled"])


def reference_table(rules: Rules, game: int) -> ReferenceTable:
    table = ReferenceTable(rules)
    table.deal_deck(shuffled_deck(SEED, game, 0, rules.decks))
    return table


@pytest.mark.parametrize("case, fields, players", CASES, ids=IDS)
def test_random_play_through_the_api_equals_the_reference_engine(case, fields, players):
    rng = np.random.default_rng(7)
    for n in players:
        rules = Rules(players=n, **fields)
        for game in range(3):
            tables = TableBatch(rules, SEED, games=[game], auto_reset=False)
            ref = reference_table(rules, game)
            while True:
                seat = ref.current_seat()
                assert int(tables.seat[0]) == seat
                assert int(tables.decision[0]) == ref.decision()
                np.testing.assert_array_equal(tables.observation()[0], ref.observation(seat))
                np.testing.assert_array_equal(tables.hand()[0], ref.hand(seat))
                legal = sorted(to_action(ref.decision(), m) for m in ref.legal_moves())
                ids, counts = tables.legal_ids()
                assert ids[0, :counts[0]].tolist() == legal
                assert np.flatnonzero(tables.legal_mask()[0]).tolist() == legal
                action = legal[rng.integers(len(legal))]
                result = tables.step([action])
                ref.apply(to_move(action))
                if ref.phase == 0 and not ref.over:  # DEALING: the next round's deck, as `run` shuffles it
                    ref.deal_deck(shuffled_deck(SEED, game, ref.round_no - 1, rules.decks))
                if ref.over:
                    assert result.done[0] and result.places[0].tolist() == ref.places()
                    break
                assert not result.done[0]


def test_an_illegal_action_changes_nothing_and_names_its_rule():
    tables = TableBatch(Rules(players=3), SEED, games=[0, 1])
    before = tables.states.copy()
    mask = tables.legal_mask()
    illegal = int(np.flatnonzero(~mask[1])[0])
    legal = int(np.flatnonzero(mask[0])[0])
    with pytest.raises(ValueError, match="table 1 .*illegal: the face-up ranks chosen"):
        tables.step([legal, illegal])
    np.testing.assert_array_equal(tables.states[1], before[1])
    assert tables.seat[0] == 1  # the legal table stepped
    with pytest.raises(ValueError, match="unknown action code"):
        tables.step([NUM_ACTIONS, 0])
    with pytest.raises(Exception, match="one per table"):
        tables.step([0])


def test_auto_reset_deals_the_next_game_and_results_do_not_depend_on_the_batch():
    rules = Rules(players=4)
    want = play_games(rules, load_strategies("basic", 4), SEED, 0, 12)["places"]
    for size in (1, 3, 4):
        tables = TableBatch(rules, SEED, tables=size)
        actions = np.zeros(size, np.int64)
        seen = {}
        while len(seen) < 12:
            basic_actions(tables.states, actions)
            result = tables.step(actions)
            for i in np.flatnonzero(result.done):
                seen.setdefault(int(result.game[i]), result.places[i].tolist())
                assert tables.game[i] == result.game[i] + size
        for game in range(12):
            assert seen[game] == want[game].tolist()
            assert np.isclose(sum((5 - 2 * p) / 3 for p in seen[game]), 0)


def test_observation_of_a_fresh_table_is_the_first_swap():
    rules = Rules(players=5, lowest_starts=True)
    tables = TableBatch(rules, SEED, games=[3])
    obs, hand = tables.observation()[0], tables.hand()[0]
    assert obs[ob.DECISION] == ob.SWAP and obs[ob.SEAT] == 0 and hand.sum() == 3
    assert obs[ob.FACEUP: ob.FACEUP + 13].sum() == 3 and obs[ob.FACEUP + 13: ob.KNOWN].sum() == 0
    assert tables.legal_mask()[0].sum() == len(reference_table(rules, 3).legal_moves())


@njit(cache=True)
def basic_matches_with_own_reset(st, stride, matches, places, games, final_hands, final_views):
    """One table played by `basic` through `step_table`, reset by `begin_next_game`: each match's places,
    game index and, by `observe_final`, the finished table as the Idiot (the highest place) sees it: its
    hand, and the observation's SEAT and that seat's PLACE."""
    obs = np.zeros(ob.OBS_SIZE, np.int64)
    hand = np.zeros(13, np.int64)
    work = np.zeros(1, np.uint64)
    done = 0
    while done < matches:
        observe_table(st, obs, hand)
        if step_table(st, action_id(obs[ob.DECISION], play_like_basic(obs, hand)), work) == MATCH_OVER:
            match_places(st, places[done])
            games[done] = table_game(st)
            idiot = np.argmax(places[done, :st[ob.PLAYERS]])
            observe_final(st, idiot, obs, final_hands[done])
            final_views[done, 0] = obs[ob.SEAT] - idiot
            final_views[done, 1] = obs[ob.PLACE + idiot]
            begin_next_game(st, stride, work)
            done += 1


def test_a_compiled_caller_resets_its_own_tables_as_auto_reset_does():
    rules = Rules(players=3)
    want = play_games(rules, load_strategies("basic", 3), SEED, 0, 15)["places"]
    tables = TableBatch(rules, SEED, games=[2])
    places = np.zeros((5, 3), np.int64)
    games = np.zeros(5, np.int64)
    final_hands = np.zeros((5, 13), np.int64)
    final_views = np.zeros((5, 2), np.int64)
    basic_matches_with_own_reset(tables.states[0], 3, 5, places, games, final_hands, final_views)
    assert games.tolist() == [2, 5, 8, 11, 14]
    np.testing.assert_array_equal(places, want[games])
    assert (final_hands.sum(axis=1) > 0).all()  # the Idiot still holds cards (no stalled game here)
    assert final_views.tolist() == [[0, 3]] * 5  # its own seat, in the last place
    assert tables.game[0] == 17
