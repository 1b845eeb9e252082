"""The search variants beyond the plain search (issue 13, "Beyond the reference").

- The knob indexes of ``idiotsim.strategies.search.pimc`` name the knobs of strategies/search/__init__.py (appending a knob
  renumbers through one constant); a knob value out of range is a one-line user error.
- Tuned rollout policies (`policy` 2 and 3): from the true state of a game, a rollout with the
  policy gives every seat the place it got when the game was played by that policy's seats
  (`weighted` tuned-4p everywhere; tuned-4p at the searcher's seat and `basic` elsewhere), and a
  rollout by `basic` does not always (so the policy is really the one played).
- Sequential halving (`halving` 1): the strictly better half is kept in order with `basic`'s move
  ahead on ties; it spends the plain search's budget, K x moves rollouts (one less when the rest left
  for the last two moves is odd); with two moves it
  is the plain search itself (the same states, the same choice).
Both engines playing every knob value alike is tests/strategies/test_search.py's engine equality test.
"""
from __future__ import annotations

import numpy as np
import pytest

from idiotsim.game import observation as ob
from idiotsim.strategies.search import pimc as search
from idiotsim.strategies.search import search_knobs
from idiotsim.errors import UserError
from idiotsim.analysis.replayed_states import decision_positions
from idiotsim.game.rules import Rules
from idiotsim.strategies.search import KNOBS, STRATEGY, search_knobs
from idiotsim.strategies.search.search_knobs import K
from idiotsim.strategies.loading import load_strategies

SEED = 4242


def test_the_kernels_read_the_family_knobs_by_name():
    names = [k.name for k in KNOBS]
    assert list(K._fields) == names and all(getattr(K, name) == i for i, name in enumerate(names))
    assert STRATEGY.knobs is KNOBS  # the family, its parser and its kernels share one declaration
    policy = KNOBS[K.policy]
    assert (policy.low, policy.high) == (search_knobs.POLICY_BASIC, search_knobs.POLICY_LEARNED_SELF)
    assert (KNOBS[K.halving].low, KNOBS[K.halving].high) == (search_knobs.ALL_MOVES, search_knobs.HALVING)


@pytest.mark.parametrize("knobs", ["policy=5", "halving=2", "halving=-1"])
def test_a_knob_out_of_range_is_a_user_error(knobs):
    with pytest.raises(UserError) as error:
        load_strategies(f"search:{knobs}", 4)
    assert "\n" not in str(error.value) and knobs.split("=")[0] in str(error.value)


# ---- the tuned rollout policies ----------------------------------------------------------------

@pytest.mark.parametrize("policy, spec, searchers", [
    (search_knobs.POLICY_TUNED, "tuned-4p", range(4)),
    (search_knobs.POLICY_TUNED_SELF, "tuned-4p,basic,basic,basic", [0]),
])
def test_a_tuned_rollout_plays_the_game_its_seats_played(policy, spec, searchers):
    """R16.3/R18 as tests/strategies/test_search.py's rollout test, with the game played by the policy's seats."""
    rules = Rules(players=4)
    failures, basic_differs, checked = [], 0, 0
    for g in range(6):
        for pos in decision_positions(rules, spec, SEED, g)[::3]:
            for searcher in searchers:
                if pos["obs"][ob.PLACE + searcher]:
                    continue
                checked += 1
                place = search.rollout_place(pos["state"].copy(), pos["seat"], searcher, policy, True)
                if place != pos["places"][searcher]:
                    failures.append((g, int(pos["obs"][ob.ACTIONS]), searcher, place, pos["places"][searcher]))
                basic_differs += search.rollout_place(pos["state"].copy(), pos["seat"], searcher,
                                                      search_knobs.POLICY_BASIC, True) != pos["places"][searcher]
    assert not failures, failures[:5]
    assert checked > 30 and basic_differs > 0


def test_tuned_params_follow_the_player_count():
    for players, row in [(2, 0), (3, 1), (4, 2), (5, 3), (7, 3)]:
        params = search.rollout_params(search_knobs.POLICY_TUNED_SELF, players, 2)
        assert (params[:search.N_WEIGHTS] == search.TUNED_PARAMS[row]).all()
        assert params[search.SEARCHER_SLOT] == 2
    assert (search.rollout_params(search_knobs.POLICY_BASIC, 4, 0) == search.POLICY_PARAMS).all()


# ---- sequential halving ------------------------------------------------------------------------

def work_with(sums, wins=None) -> np.ndarray:
    work = np.zeros(search.WORK_SIZE, np.int64)
    n = len(sums)
    work[search.MOVES: search.MOVES + n] = np.arange(100, 100 + n)
    work[search.PLACE_SUMS: search.PLACE_SUMS + n] = sums
    work[search.WIN_COUNTS: search.WIN_COUNTS + n] = wins if wins is not None else [0] * n
    return work


@pytest.mark.parametrize("objective, sums, wins, kept", [
    (search_knobs.MEAN_PLACE, [30, 20, 25, 10, 40], None, [101, 102, 103]),        # the 3 lowest sums, in order
    (search_knobs.MEAN_PLACE, [30, 30, 30, 30, 30], None, [100, 101, 102]),        # all tied: the earliest
    (search_knobs.MEAN_PLACE, [20, 20, 20, 10], None, [100, 103]),                 # basic's move keeps a tie
    (search_knobs.MEAN_PLACE, [21, 20, 20, 10], None, [101, 103]),                 # ... not a loss
    (search_knobs.WINS, [20, 30, 25, 10], [5, 5, 6, 1], [100, 102]),                # most wins, then the sums
    (search_knobs.WINS, [30, 20, 25, 10], [5, 5, 6, 1], [101, 102]),
])
def test_the_better_half_is_kept_in_order(objective, sums, wins, kept):
    work = work_with(sums, wins)
    assert search.keep_better_half(work, len(sums), objective) == len(kept)
    assert work[search.MOVES: search.MOVES + len(kept)].tolist() == kept
    order = [m - 100 for m in kept]
    assert work[search.PLACE_SUMS: search.PLACE_SUMS + len(kept)].tolist() == [sums[i] for i in order]


def searched_positions(games: int) -> list:
    moves = np.zeros(search.MAX_MOVES, np.int64)
    found = []
    for g in range(games):
        for pos in decision_positions(Rules(players=4), "basic", SEED, g)[::2]:
            if pos["obs"][ob.DECISION] == ob.TURN:
                n = search.list_search_moves(pos["obs"], pos["hand"], STRATEGY.params(), moves)
                if n > 1:
                    found.append((pos, n))
    return found


def halve(pos, rollouts, seed, objective=search_knobs.MEAN_PLACE):
    work = np.zeros(search.WORK_SIZE, np.int64)
    params = STRATEGY.params()
    work[search.BELIEF] = params[search_knobs.K.belief]  # the player's default belief
    n = search.list_search_moves(pos["obs"], pos["hand"], params, work[search.MOVES:])
    policy_params = search.rollout_params(search_knobs.POLICY_BASIC, 4, pos["seat"])
    assert search.halve_moves(pos["obs"], pos["hand"], np.array([seed], np.uint64), n, rollouts, objective,
                              search_knobs.POLICY_BASIC, policy_params, np.zeros(1, np.uint64), work, pos["obs"], False) == 0
    return work, n


def test_halving_spends_the_plain_budget_and_with_two_moves_is_the_plain_search():
    found = searched_positions(8)
    assert {n for _, n in found} >= {2, 3, 4, 5, 6, 9}
    two_moves = 0
    for i, (pos, n) in enumerate(found):
        k = 16 if n <= 8 else 8
        work, _ = halve(pos, k, i)
        assert k * n - 1 <= work[search.SPENT] <= k * n, (n, k, work[search.SPENT])  # 1 short: an odd rest
        if n == 2:
            two_moves += 1
            plain = np.zeros(search.WORK_SIZE, np.int64)
            plain[search.BELIEF] = work[search.BELIEF]
            params = STRATEGY.params()
            search.list_search_moves(pos["obs"], pos["hand"], params, plain[search.MOVES:])
            search.judge_moves(pos["obs"], pos["hand"], np.array([i], np.uint64), 2, k, search_knobs.POLICY_BASIC,
                               search.rollout_params(0, 4, pos["seat"]), np.zeros(1, np.uint64), plain, pos["obs"],
                               False)
            assert work[search.MOVES] == plain[search.MOVES + search.best_move(plain, 2, search_knobs.MEAN_PLACE)]
            sums = sorted(plain[search.PLACE_SUMS: search.PLACE_SUMS + 2])
            assert work[search.PLACE_SUMS] == sums[0]
    assert two_moves > 3
    assert sum(halve(pos, 16, i)[0][search.SPENT] == 16 * n for i, (pos, n) in enumerate(found)) > len(found) // 2


def test_halving_is_the_search_player_with_the_knob():
    """The player (halving=1 by default) plays the move `halve_moves` chooses on the same stream."""
    assert STRATEGY.params()[search_knobs.K.halving] == search_knobs.HALVING  # the default (docs/strategies.md)
    params = STRATEGY.params({"rollouts": 8})
    plain = STRATEGY.params({"rollouts": 8, "halving": 0})
    differs = 0
    for i, (pos, n) in enumerate(searched_positions(3)):
        work, _ = halve(pos, 8, i)
        move = STRATEGY.decide(pos["obs"], pos["hand"], params, np.array([i], np.uint64))
        assert move == work[search.MOVES]
        differs += move != STRATEGY.decide(pos["obs"], pos["hand"], plain, np.array([i], np.uint64))
    assert differs > 0
