"""The search with the learned rollout policy (issue 18 item 6: `policy` 4, `rollout_model`).

- The learned policy appends the `learned` family's params (its default knobs, then the model of
  `rollout_model`) after the search's knobs and constraint block; the other policies append nothing
  more, so their params (and every shipped report) are unchanged.
- From the true state of a game played by `learned-4p` at one seat and `basic` elsewhere, a rollout
  with `policy` 4 gives the searcher the place it got in that game (R16.3/R18: the round is played on
  to its end exactly as those seats played it); with the fast model's numbers instead (a different
  model) some rollouts end otherwise, so the rollouts really read the model in params.
- The generic checks (legal in every variant, identical decisions in both engines, deterministic)
  with the learned rollouts, at K = 2 on few games: a learned rollout costs tens of basic rollouts.
"""
from __future__ import annotations

import numpy as np
import pytest

from idiotsim.engine import state_layout as layout
from idiotsim.game import observation as ob
from idiotsim.strategies.search import pimc as search
from idiotsim.strategies.search import search_knobs
from idiotsim.strategies.strategy_checks import check_strategy
from idiotsim.analysis.replayed_states import decision_positions
from idiotsim.game.rules import Rules
from idiotsim.strategies.learned import LEARNED
from idiotsim.strategies.constraints import CONSTRAINT_SIZE
from idiotsim.strategies.search import KNOBS, STRATEGY

SEED = 1818


def test_the_learned_params_follow_the_knobs_only_for_the_learned_policies():
    names = [k.name for k in KNOBS]
    assert names[search_knobs.K.rollout_model] == "rollout_model"
    assert search_knobs.LEARNED_AT == search_knobs.CONSTRAINTS_AT + CONSTRAINT_SIZE == len(KNOBS) + CONSTRAINT_SIZE
    assert len(STRATEGY.params()) == search_knobs.LEARNED_AT
    assert len(STRATEGY.params({"policy": search_knobs.POLICY_TUNED_SELF})) == search_knobs.LEARNED_AT
    for model in (0, 1):
        params = STRATEGY.params({"policy": search_knobs.POLICY_LEARNED_SELF, "rollout_model": model})
        assert np.array_equal(params[search_knobs.LEARNED_AT:], LEARNED.params({"model": model}))
        assert np.array_equal(search.learned_rollout_params(params), LEARNED.params({"model": model}))
    fast, strong = (STRATEGY.params({"policy": search_knobs.POLICY_LEARNED_SELF, "rollout_model": m}) for m in (1, 0))
    assert len(fast) != len(strong) or not np.array_equal(fast, strong)


def learned_rollout(pos, searcher, model: int) -> int:
    params = STRATEGY.params({"policy": search_knobs.POLICY_LEARNED_SELF, "rollout_model": model})
    st = pos["state"].copy()
    return search.rollout(st, pos["seat"], searcher, search_knobs.POLICY_LEARNED_SELF, search.learned_rollout_params(params),
                          np.zeros(1, np.uint64), np.zeros(layout.POSITION_SIZE, np.int64), True)


def test_a_learned_rollout_plays_the_game_the_learned_seat_played():
    rules = Rules(players=4)
    failures, other_model_differs, checked = [], 0, 0
    for g in range(5):
        for pos in decision_positions(rules, "learned-4p,basic,basic,basic", SEED, g)[::3]:
            if pos["obs"][ob.PLACE]:  # the learned seat (0, the searcher) is out already
                continue
            checked += 1
            place = learned_rollout(pos, 0, model=0)
            if place != pos["places"][0]:
                failures.append((g, int(pos["obs"][ob.ACTIONS]), place, pos["places"][0]))
            other_model_differs += learned_rollout(pos, 0, model=1) != pos["places"][0]
    assert not failures, failures[:5]
    assert checked > 30 and other_model_differs > 0


@pytest.mark.long(10)
def test_the_search_with_learned_rollouts_passes_the_generic_checks():
    games = 12
    report = check_strategy(f"search:rollouts=2,policy={search_knobs.POLICY_LEARNED_SELF}", games=games, sample=1,
                            speed=False)
    assert report.ok, report.render()
    assert dict(report.results[0].measures)["games"] >= 14 * games
    assert report.results[2].status == "ok", report.results[2]
