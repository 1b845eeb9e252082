"""The PettingZoo AEC environment (idiotsim.interop.pettingzoo): PettingZoo's own tests, seeded resets as
`idiotsim trace` deals, agents removed as they go out, the render of `trace --pretty`."""
from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from idiotsim.game.trace import pretty_lines, public_event
from idiotsim.game import action_space as act
from idiotsim.interop.pettingzoo import ILLEGAL_REWARD, env, raw_env
from idiotsim.game.reference import play_match
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import trace_game
from idiotsim.strategies.loading import load_strategy

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's advice for dict observations


@pytest.mark.parametrize("rules", [{"players": 3}, {"players": 2, "rounds": 2, "chance": True}])
def test_pettingzoo_api_test(rules):
    api_test(env(action_limit=60, **rules), num_cycles=400)


def test_pettingzoo_seed_test():
    seed_test(lambda: env(players=3, action_limit=60), num_cycles=200)


def play_basic(e) -> None:
    """basic at every seat, from each agent's observation (its project observation and hand)."""
    basic = load_strategy("basic")
    while e.agents:
        agent = e.agent_selection
        observation, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        vector = observation["observation"]
        obs, hand = vector[:-14].copy(), vector[-14:-1].copy()
        move = int(basic.decide.py_func(obs, hand, basic.params, np.zeros(1, np.uint64)))
        action = act.to_action(int(obs[0]), move)
        assert observation["action_mask"][action] == 1, agent
        e.step(action)


def test_a_seeded_reset_deals_the_game_of_idiotsim_trace_and_the_next_reset_the_next_game():
    rules = Rules(players=4)
    e = raw_env(players=4)
    for seed, game in ((7, 0), (None, 1), (None, 2)):
        e.reset(seed=seed)
        play_basic(e)
        events, _, _ = trace_game(rules, [load_strategy("basic")], 7, game)
        assert e.table.trace() == events, game
    e.reset(options={"game": 1})
    assert e.game == 1 and e.table.deck == list(shuffled_deck(7, 1, 0, 1))


def test_agents_are_removed_as_they_go_out_with_their_place_as_reward():
    e = raw_env(players=4)
    e.reset(seed=3)
    basic = load_strategy("basic")
    rewards, left = {}, []
    while e.agents:
        observation, reward, terminated, _, _ = e.last()
        if terminated:
            rewards[e.agent_selection] = reward
            e.step(None)
            left.append(len(e.agents))
            continue
        vector = observation["observation"]
        move = int(basic.decide.py_func(vector[:-14].copy(), vector[-14:-1].copy(), basic.params,
                                        np.zeros(1, np.uint64)))
        e.step(act.to_action(int(vector[0]), move))
    places = play_match([shuffled_deck(3, 0, 0, 1)], Rules(players=4), [basic] * 4, 3, 0).places
    assert rewards == {f"player_{s}": (5 - 2 * p) / 3 for s, p in enumerate(places)}
    assert left[0] == 3  # the first agent out left while three still played


def without_suits(lines: list) -> list:
    return [" ".join(re.sub("[\u2660\u2663\u2665\u2666]", "", line).split()) for line in lines]


@pytest.mark.parametrize("rules", [{"players": 3}, {"players": 4, "chance": True, "decks": 2}])
def test_render_prints_the_table_as_trace_pretty_does_by_rank(rules):
    """The engine keeps no suits (R1): the render is `trace --pretty`'s lines with ranks for cards, the
    pile and every pickup followed from the public events alone."""
    rules = Rules(**rules)
    e = raw_env(render_mode="ansi", **rules.as_dict())
    e.reset(seed=5)
    play_basic(e)
    basic = load_strategy("basic")
    seats = [basic.__class__(f"player_{s}", basic.strategy, basic.params) for s in range(rules.players)]
    result = play_match([shuffled_deck(5, 0, 0, rules.decks)], rules, seats, 5, 0)
    public = SimpleNamespace(events=[public_event(event) for event in result.events], places=result.places)
    rendered = e.render().split("\n")
    assert rendered == pretty_lines(public, rules, seats, 5, 0)
    assert without_suits(rendered) == without_suits(pretty_lines(result, rules, seats, 5, 0))
    assert any("picks up" in line for line in rendered)


def test_a_random_masked_policy_plays_to_the_end():
    e = env(players=5, low_rank=9, last_hand_with_faceup=True, action_limit=300)
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    steps = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        e.step(action)
        steps += 1
    assert steps > 20 and not e.agents


def test_human_render_prints_each_line_of_the_game_once(capsys):
    """render_mode="human": every reset and step prints what happened since the last print, so the game is
    printed once (it reprinted the whole trace at every step: one game printed 147,334 lines)."""
    e = env(players=3, render_mode="human")
    e.reset(seed=5)
    header = capsys.readouterr().out
    assert header.startswith("Idiot") or header.strip(), header
    play_basic(e)
    printed = header + capsys.readouterr().out
    shown = raw_env(players=3, render_mode="ansi")
    shown.reset(seed=5)
    play_basic(shown)
    assert printed == shown.render() + "\n"


def test_human_render_of_a_match_writes_the_match_line_once_at_the_end(capsys):
    e = env(players=2, rounds=2, render_mode="human")
    e.reset(seed=3)
    play_basic(e)
    lines = capsys.readouterr().out.splitlines()
    shown = raw_env(players=2, rounds=2, render_mode="ansi")
    shown.reset(seed=3)
    play_basic(shown)
    assert lines == shown.render().splitlines()
    assert sum(line.startswith("match:") for line in lines) == 1 and lines[-1].startswith("match:")


CLASSIC_CARD_GAMES = ("rlcard_envs/leduc_holdem.py", "rlcard_envs/texas_holdem.py", "hanabi/hanabi.py")


def classic_env_source(path: str) -> str:
    """A classic environment's `env()`, read from PettingZoo's source (importing it needs rlcard and pygame)."""
    import importlib.util
    from pathlib import Path
    source = (Path(importlib.util.find_spec("pettingzoo.classic").origin).parent / path).read_text()
    return source[source.index("\ndef env("):].split("\n\n\n")[0]


def test_env_wraps_as_pettingzoos_classic_card_games():
    """TerminateIllegalWrapper (illegal_reward -1), AssertOutOfBoundsWrapper, OrderEnforcingWrapper: the
    chain of pettingzoo.classic's leduc_holdem, texas_holdem and hanabi."""
    from pettingzoo.utils import wrappers
    chain, e = [], env(players=3)
    while isinstance(e, wrappers.BaseWrapper):
        chain.insert(0, type(e).__name__)
        e = e.env
    assert isinstance(e, raw_env)
    for path in CLASSIC_CARD_GAMES:
        body = classic_env_source(path)
        assert re.findall(r"wrappers\.(\w+)\(", body) == chain, path  # innermost first
        assert "illegal_reward=-1)" in body and ILLEGAL_REWARD == -1
    assert chain == ["TerminateIllegalWrapper", "AssertOutOfBoundsWrapper", "OrderEnforcingWrapper"]


def test_an_illegal_action_ends_the_game_with_minus_one_for_its_agent():
    e = env(players=3)
    e.reset(seed=2)
    offender = e.agent_selection
    mask = e.observe(offender)["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values()) and set(e.agents) == {f"player_{s}" for s in range(3)}
    assert e.rewards == {a: (-1.0 if a == offender else 0.0) for a in e.agents}
    while e.agents:
        e.step(None)
    raw = raw_env(players=3)
    raw.reset(seed=2)
    with pytest.raises(ValueError, match="not legal now"):
        raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0]))


def test_the_raw_environment_pickles_with_its_rules():
    import pickle
    e = pickle.loads(pickle.dumps(raw_env(players=3, low_rank=7, render_mode="ansi")))
    assert e.rules == Rules(players=3, low_rank=7) and e.render_mode == "ansi"
    e.reset(seed=1)
    assert e.table.deck == list(shuffled_deck(1, 0, 0, 1))
