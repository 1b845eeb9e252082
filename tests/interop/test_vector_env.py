"""The RL vector environment (``interop.vector_env``): Gymnasium's own checks where they apply to a vector env,
the engine's games move for move, the opponents as `run` plays them, seeding, and clear errors.

Gymnasium's ``check_env`` takes a single ``gymnasium.Env`` and steps it with ``action_space.sample()``, an id
drawn from all 876 whatever the mask: illegal at nearly every decision, which this env refuses by design. So
the vector env meets the checker's parts one by one: its spaces (``check_space``), the passive checks of
reset and step (every observation inside ``observation_space``, with warnings as errors), seeded
determinism, data not reused between calls (``data_shares_objects``), and Gymnasium's vector wrapper for
SAME_STEP autoreset (``RecordEpisodeStatistics``) reading its episodes right.
"""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from gymnasium.spaces import Box, Dict, Discrete, MultiDiscrete
from gymnasium.utils.passive_env_checker import (check_action_space, check_obs, check_observation_space,
                                                 data_shares_objects, env_reset_passive_checker)
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics
from numba import njit

from idiotsim.engine.batches import play_games
from idiotsim.engine.stepping import TableBatch
from idiotsim.errors import UserError
from idiotsim.game import observation as ob
from idiotsim.game.action_space import NUM_ACTIONS, action_id
from idiotsim.game.basic_player import play_like_basic
from idiotsim.game.rules import Rules
from idiotsim.interop.vector_env import VECTOR_SIZE, IdiotVectorEnv
from idiotsim.strategies.loading import load_strategies

SEED = 4242


@njit(cache=True)
def basic_from_rows(rows, out):
    """`basic`'s action at every table, from the returned observation rows alone (observation, then hand)."""
    obs = np.zeros(ob.OBS_SIZE, np.int64)
    hand = np.zeros(13, np.int64)
    for i in range(rows.shape[0]):
        obs[:] = rows[i, :ob.OBS_SIZE]
        hand[:] = rows[i, ob.OBS_SIZE:]
        out[i] = action_id(obs[ob.DECISION], play_like_basic(obs, hand))


def finished_places(env: IdiotVectorEnv, games: int, choose) -> dict:
    """Step until games 0 .. `games` - 1 have ended: {game index: places}."""
    seen = {}
    obs, infos = env.reset(seed=SEED)
    actions = np.zeros(env.num_envs, np.int64)
    while not all(g in seen for g in range(games)):
        choose(obs, actions)
        obs, rewards, terminations, truncations, infos = env.step(actions)
        assert not truncations.any()
        for i in np.flatnonzero(terminations):
            seen[int(infos["final_game"][i])] = infos["places"][i].tolist()
    return seen


def test_the_spaces_and_the_checkers_parts_for_a_vector_env():
    env = IdiotVectorEnv(num_envs=5, players=3)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert env.single_action_space == Discrete(NUM_ACTIONS)
    assert env.action_space == MultiDiscrete([NUM_ACTIONS] * 5)
    assert isinstance(env.single_observation_space, Dict)
    assert env.single_observation_space["observation"] == Box(-1, 10_000_000, (VECTOR_SIZE,), np.int32)
    assert env.observation_space["action_mask"].shape == (5, NUM_ACTIONS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # gymnasium's checkers warn: every warning fails the test
        check_action_space(env.single_action_space)
        check_observation_space(env.single_observation_space)
        obs, infos = env_reset_passive_checker(env, seed=3)
        for _ in range(300):
            obs, rewards, terminations, truncations, infos = env.step(env.sample_actions())
            check_obs(obs, env.observation_space, "step")
            assert rewards.dtype == np.float64 and terminations.dtype == truncations.dtype == np.bool_
            assert obs["action_mask"][np.arange(5), env.sample_actions()].all()  # its draws are legal


def test_observations_masks_and_results_are_the_engines():
    """The env against a TableBatch stepped with the same actions: every observation row, mask, seat, and
    the places and rewards of every match that ends, with the next game dealt in the same step."""
    env = IdiotVectorEnv(num_envs=6, players=4, low_rank=7)
    tables = TableBatch(Rules(players=4, low_rank=7), 11, tables=6)
    obs, infos = env.reset(seed=11)
    ended = 0
    for _ in range(1500):
        np.testing.assert_array_equal(obs["observation"][:, :ob.OBS_SIZE], tables.observation())
        np.testing.assert_array_equal(obs["observation"][:, ob.OBS_SIZE:], tables.hand())
        np.testing.assert_array_equal(obs["action_mask"].astype(bool), tables.legal_mask())
        np.testing.assert_array_equal(infos["seat"], tables.seat)
        np.testing.assert_array_equal(infos["game"], tables.game)
        actions = env.sample_actions()
        acting = infos["seat"].copy()
        obs, rewards, terminations, truncations, infos = env.step(actions)
        result = tables.step(actions)
        np.testing.assert_array_equal(terminations, result.done)
        np.testing.assert_array_equal(infos["places"], result.places)
        np.testing.assert_array_equal(infos["rewards"], result.rewards)
        np.testing.assert_array_equal(rewards, result.rewards[np.arange(6), acting])
        np.testing.assert_array_equal(infos["final_game"], np.where(result.done, result.game, -1))
        for i in np.flatnonzero(terminations):
            final = infos["final_obs"][i]
            assert final["observation"][ob.SEAT] == acting[i] and not final["action_mask"].any()
            assert final["observation"][ob.PLACE: ob.PLACE + 4].tolist() == result.places[i].tolist()
            assert infos["rewards"][i].sum() == pytest.approx(0)
            assert infos["game"][i] == result.game[i] + 6
            ended += 1
        assert infos.get("_final_obs", np.zeros(6, bool)).tolist() == terminations.tolist()
    assert ended >= 3


@pytest.mark.parametrize("opponent, specs, seat", [("basic", "basic", 0), ("random", "random,random,basic,random", 2)])
def test_the_opponents_play_as_run_plays_them(opponent, specs, seat):
    """`basic` at the learning seat (chosen from the returned rows) against the opponents ends every game in
    `run`'s places for the same seating: the opponents are the project's strategies, move for move."""
    env = IdiotVectorEnv(num_envs=7, players=4, opponent=opponent, seat=seat)
    want = play_games(Rules(players=4), load_strategies(specs, 4), SEED, 0, 30)["places"]

    def choose(obs, actions):
        basic_from_rows(obs["observation"], actions)

    seen = finished_places(env, 30, choose)
    for game in range(30):
        assert seen[game] == want[game].tolist(), game


def test_against_opponents_every_step_is_a_learner_decision_and_its_reward():
    env = RecordEpisodeStatistics(IdiotVectorEnv(num_envs=8, players=3, opponent="random", seat="rotate"))
    obs, infos = env.reset(seed=5)
    decisions = np.zeros(8, np.int64)
    episodes = 0
    for _ in range(600):
        assert (infos["seat"] == infos["game"] % 3).all()  # "rotate": the learner's seat is game mod n
        assert (obs["observation"][:, ob.SEAT] == infos["seat"]).all()
        obs, rewards, terminations, truncations, infos = env.step(env.unwrapped.sample_actions())
        decisions += 1
        for i in np.flatnonzero(terminations):
            learner = infos["final_obs"][i]["observation"][ob.SEAT]
            assert learner == infos["final_game"][i] % 3
            assert rewards[i] == infos["rewards"][i, learner] == (2 - infos["places"][i, learner])
            assert infos["episode"]["r"][i] == rewards[i] and infos["episode"]["l"][i] == decisions[i]
            decisions[i] = 0
            episodes += 1
        assert (rewards[~terminations] == 0).all()
    assert episodes >= 10


def test_the_same_seed_gives_the_same_episodes_and_reset_goes_on():
    def trajectory(env, seed):
        obs, _ = env.reset(seed=seed)
        out = [obs["observation"].copy()]
        for _ in range(200):
            obs, rewards, terminations, _, infos = env.step(env.sample_actions())
            out += [obs["observation"].copy(), rewards.copy(), infos["places"].copy()]
        return out

    a, b = IdiotVectorEnv(num_envs=4, opponent="random"), IdiotVectorEnv(num_envs=4, opponent="random")
    first = trajectory(a, 9)
    assert all(np.array_equal(x, y) for x, y in zip(first, trajectory(b, 9)))
    assert all(np.array_equal(x, y) for x, y in zip(first, trajectory(a, 9)))  # a seeded reset starts over
    assert not all(np.array_equal(x, y) for x, y in zip(first, trajectory(b, 10)))
    env = IdiotVectorEnv(num_envs=4)
    _, infos = env.reset(seed=9)
    assert infos["game"].tolist() == [0, 1, 2, 3]
    _, infos = env.reset()
    assert infos["game"].tolist() == [4, 5, 6, 7] and env.seed == 9  # no seed: each table's next game
    _, infos = env.reset(seed=9, options={"game": 100})
    assert infos["game"].tolist() == [100, 101, 102, 103]
    unseeded = IdiotVectorEnv(num_envs=2)
    unseeded.reset()
    assert unseeded.seed is not None


def test_copies_are_new_every_call_and_copy_false_reuses_the_buffers():
    env = IdiotVectorEnv(num_envs=3)
    calls = [env.reset(seed=1)]
    for _ in range(3):
        obs, rewards, terminations, truncations, infos = env.step(env.sample_actions())
        calls.append((obs, infos))
        assert not data_shares_objects(rewards, env.step(env.sample_actions())[1])
    for i in range(len(calls)):
        for j in range(i):
            assert not data_shares_objects(calls[i], calls[j])
    fast = IdiotVectorEnv(num_envs=3, copy=False)
    obs, _ = fast.reset(seed=1)
    again, *_ = fast.step(fast.sample_actions())
    assert again["observation"] is obs["observation"] and again["action_mask"] is obs["action_mask"]
    np.testing.assert_array_equal(again["action_mask"].astype(bool), fast.action_masks())


def test_wrong_input_gives_a_clear_error_and_steps_nothing():
    env = IdiotVectorEnv(num_envs=3)
    with pytest.raises(RuntimeError, match="reset"):
        env.step([0, 0, 0])
    obs, _ = env.reset(seed=2)
    before = env.tables.states.copy()
    actions = env.sample_actions()
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    actions[1] = illegal
    with pytest.raises(ValueError, match=rf"table 1 .*action {illegal} \(swap: face-up .*\) is not legal now; "
                                         r"legal ids: .*no table stepped"):
        env.step(actions)
    np.testing.assert_array_equal(env.tables.states, before)
    actions[1] = NUM_ACTIONS
    with pytest.raises(ValueError, match=f"action {NUM_ACTIONS} is not legal"):
        env.step(actions)
    with pytest.raises(ValueError, match="3 actions, one per table"):
        env.step([0, 0])
    with pytest.raises(ValueError, match="integer action ids"):
        env.step(np.zeros(3))
    for bad, match in [({"num_envs": 0}, "num_envs"), ({"opponent": "search"}, "opponent"),
                       ({"opponent": "basic", "seat": 4}, "seat must be 0..3"),
                       ({"seat": 1}, "learning seat against an opponent"), ({"render_mode": "human"}, "render_mode")]:
        with pytest.raises(ValueError, match=match):
            IdiotVectorEnv(**bad)
    with pytest.raises(UserError, match="players"):
        IdiotVectorEnv(players=1)
    with pytest.raises(ValueError, match="unknown rule 'jokers'; valid rules: players, decks"):
        IdiotVectorEnv(jokers=True)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match="only option is 'game'"):
        env.reset(seed=1, options={"seat": 2})


def test_render_shows_table_zero_to_a_person():
    env = IdiotVectorEnv(num_envs=2, players=3, render_mode="ansi")
    env.reset(seed=7)
    text = env.render()
    assert text.splitlines()[0] == "game 0, round 1 of 1: seat 0 to act (swap)"
    assert "seat 0's hand: " in text and "legal (" in text and len(text.splitlines()) == 7
    for _ in range(5):
        env.step(env.sample_actions())
    lines = env.render().splitlines()
    assert re.fullmatch(r"game 0, round 1 of 1: seat \d to act \(turn, from the hand\)", lines[0]), lines[0]
    assert re.fullmatch(r"pile .*; talon \d+; burned \d+", lines[1]) and len(lines) == 7
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert IdiotVectorEnv(num_envs=1).render() is None
