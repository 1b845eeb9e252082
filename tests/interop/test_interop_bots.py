"""Bots across the bridge (idiotsim.interop.bots): idiotsim strategies as OpenSpiel bots, OpenSpiel bots
as `openspiel:...` seats, which play on the reference engine (idiotsim.engine.batches)."""
from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pyspiel
import pytest

from helpers import cli_ok, cli_user_error
from idiotsim.interop.bots import StrategyBot, bot_decision, _ismcts_bot, idiot_game
from idiotsim.interop.stepped import Table
from idiotsim.game.action_space import to_action
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_seated, trace_game
from idiotsim.strategies.loading import SeatStrategy, load_strategy
from idiotsim.strategies.toolkit import Strategy


def test_a_stochastic_strategy_as_a_bot_plays_the_game_of_idiotsim_trace():
    """`heuristic` and `random` draw from the seat's stream of (seed, game), as in `trace --seed S --game I`."""
    rules = Rules(players=3, chance=True)
    game = idiot_game(rules)
    specs = ["random", "heuristic", "random"]
    for g in range(6):
        bots = [StrategyBot(spec, p, seed=4, game=g) for p, spec in enumerate(specs)]
        state = game.new_initial_state()
        for card in shuffled_deck(4, g, 0, 1):
            state.apply_action(int(card))
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        events, _, _ = trace_game(rules, [load_strategy(s) for s in specs], 4, g)
        assert state.table.trace() == events


def python_twin(spec: str) -> SeatStrategy:
    """A compiled strategy as a Python strategy (no numba signature): it plays on the reference engine."""
    seat = load_strategy(spec)
    wrapped = Strategy(name=seat.strategy.name, decide=SimpleNamespace(py_func=seat.strategy.decide.py_func),
                       description="python twin")
    return SeatStrategy(spec, wrapped, seat.params)


def test_games_with_a_python_seat_play_on_the_reference_engine_with_the_same_results():
    rules = Rules(players=4, rounds=2)
    games = np.arange(40)
    seating = np.tile(np.array([0, 1, 0, 1], np.int8), (40, 1))
    seating[::2] = seating[::2, ::-1]
    numba = play_seated(rules, [load_strategy("basic"), load_strategy("random")], 9, games, games // 2, seating)
    reference = play_seated(rules, [python_twin("basic"), python_twin("random")], 9, games, games // 2, seating)
    for key in numba:
        assert np.array_equal(numba[key], reference[key]), key


def test_the_ismcts_seat_is_reproducible_and_chooses_a_legal_move():
    rules = Rules(players=3)
    table = Table(rules)
    table.deal_deck(shuffled_deck(1, 2, 0, 1))
    basic = load_strategy("basic")
    for _ in range(20):  # the swaps and some plays of basic
        seat = table.current_seat()
        table.apply_move(int(basic.decide.py_func(table.observation(seat), table.hand(seat), basic.params,
                                                  np.zeros(1, np.uint64))))
    seat = table.current_seat()
    obs, hand = table.observation(seat), table.hand(seat)
    params = load_strategy("openspiel:ismcts:simulations=30").params
    moves = [bot_decision(_ismcts_bot, obs.copy(), hand.copy(), params, np.array([s], np.uint64)) for s in (5, 5, 6)]
    assert moves[0] == moves[1]
    assert all(to_action(table.decision(), m) in table.legal_actions() for m in moves)


@pytest.mark.long(20)
def test_ismcts_seated_in_a_tournament_from_the_command_line(capsys, tmp_path):
    args = ["tournament", "--strategies", "openspiel:ismcts:simulations=3,uct_c=1.5", "--field", "basic",
            "--players", "2", "--games", "2", "--seed", "3"]
    out = cli_ok(capsys, *args, "--out", tmp_path / "a")
    assert "openspiel:ismcts:simulations=3,uct_c=1.5" in out
    cli_ok(capsys, *args, "--out", tmp_path / "b")
    chunks = sorted((tmp_path / "a").glob("chunk-*.parquet"))
    assert chunks and all(c.read_bytes() == (tmp_path / "b" / c.name).read_bytes() for c in chunks)


def test_an_openspiel_random_bot_seat_plays_and_an_openspiel_bot_as_a_bot_of_the_game():
    rules = Rules(players=2, action_limit=150)  # random play picks up a lot (R20 ends it)
    out = play_seated(rules, [load_strategy("basic"), load_strategy("openspiel:random")], 1, np.arange(4),
                      np.arange(4), np.array([[0, 1], [1, 0]] * 2, np.int8))
    assert sorted(out["places"].ravel().tolist()) == [1, 1, 1, 1, 2, 2, 2, 2]
    state = idiot_game(rules).new_initial_state()  # and OpenSpiel's own bots play the game directly
    bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(2)]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) == [-1.0, 1.0]


@pytest.mark.parametrize("spec,message", [
    ("openspiel:alphazero", "unknown OpenSpiel bot 'alphazero'; available: ismcts, random"),
    ("openspiel:ismcts:simulations=1", "simulations=1 is out of range 2..1e+06"),
    ("openspiel:ismcts:depth=3", "has no knob 'depth'"),
])
def test_a_bad_openspiel_spec_is_one_error_line(capsys, tmp_path, spec, message):
    line = cli_user_error(capsys, "tournament", "--strategies", spec, "--field", "basic", "--games", "4",
                          "--out", tmp_path / "t")
    assert message in line
    assert not (tmp_path / "t").exists()


def test_an_openspiel_seat_traces_on_the_reference_engine_only(capsys):
    args = ["trace", "--players", "2", "--strategies", "openspiel:random,basic", "--seed", "2"]
    assert '"action": "end"' in cli_ok(capsys, *args)
    assert "on the reference engine only" in cli_user_error(capsys, *args, "--engine", "numba")


def test_an_openspiel_seat_without_openspiel_installed_names_the_extra():
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "from idiotsim.errors import UserError\nfrom idiotsim.strategies.loading import load_strategy\n"
            "try:\n    load_strategy('openspiel:ismcts')\nexcept UserError as e:\n    print(e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pip install 'idiotsim[openspiel]'" in out


def test_strategies_shows_an_openspiel_bots_knobs_and_the_listing_points_to_them(capsys):
    detail = cli_ok(capsys, "strategies", "openspiel:ismcts")
    assert detail.startswith("openspiel:ismcts: ") and "simulations" in detail and "uct_c" in detail
    assert "openspiel:NAME" in cli_ok(capsys, "strategies")
    assert "available: ismcts, random" in cli_user_error(capsys, "strategies", "openspiel:nope")
