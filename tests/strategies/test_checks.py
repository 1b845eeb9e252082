"""``idiotsim.strategies.strategy_checks``: the generic checks a strategy must pass (``idiotsim check-strategy``).

A good strategy passes with a table and a verdict; a strategy with an illegal
move fails the legality check with one line naming the game and a replay
command that reproduces it; a strategy whose Python function decides otherwise
than its compiled one fails the engine check; a bad spec is a UserError.
(Every shipped strategy runs the same checks in tests/strategies/test_strategies.py.)
"""
from __future__ import annotations

import re

import pytest

from helpers import run_cli
from idiotsim.strategies.strategy_checks import VARIANTS, check_strategy
from idiotsim.errors import UserError

ILLEGAL = '''
from idiotsim.game.cards import TEN
from idiotsim.game.observation import TURN, decision, pile_size
from idiotsim.strategies.toolkit import Strategy, strategy_function
from idiotsim.game.moves import play
from idiotsim.game.basic_player import play_like_basic


@strategy_function
def decide(obs, hand, params, rng):
    if decision(obs) == TURN and pile_size(obs) > 6:
        return play(TEN, 1, 0)  # a 10 it may not hold
    return play_like_basic(obs, hand)


BAD = Strategy(name="bad", decide=decide, description="plays a 10 it may not hold")
'''

# Python ints do not wrap, numba's int64 does: the Python function picks the highest legal
# ordinary rank, the compiled one the lowest. Both are legal, so only the engine check sees it.
TWO_FACED = '''
from idiotsim.game.cards import ORDINARY_MASK
from idiotsim.game.observation import TURN, decision, pile_size
from idiotsim.strategies.toolkit import Strategy, strategy_function
from idiotsim.game.moves import highest_rank, play_all, playable_mask
from idiotsim.game.basic_player import play_like_basic


@strategy_function
def decide(obs, hand, params, rng):
    ordinary = playable_mask(obs, hand) & ORDINARY_MASK
    x = int(pile_size(obs))
    if decision(obs) == TURN and ordinary != 0 and (x + (1 << 62)) * 4 != 4 * x:
        return play_all(obs, hand, highest_rank(ordinary))
    return play_like_basic(obs, hand)


TWO_FACED = Strategy(name="two-faced", decide=decide, description="decides otherwise in Python")
'''


def write(tmp_path, source: str) -> str:
    path = tmp_path / "user_strategy.py"
    path.write_text(source)
    return str(path)


def test_a_shipped_strategy_passes_with_a_table_and_a_verdict():
    report = check_strategy("heuristic:burn_min=6", games=300, sample=1)
    assert report.ok and not report.failures()
    text = report.render()
    lines = text.splitlines()
    assert lines[0] == "check-strategy heuristic:burn_min=6"
    assert [r.name for r in report.results] == ["legal moves", "deterministic replay",
                                                 "same decisions in both engines", "speed vs basic"]
    assert [r.status for r in report.results] == ["ok", "ok", "ok", "info"]
    assert len(lines) == 2 + len(report.results) + 1 and lines[-1] == "verdict: PASS"
    for result in report.results:
        assert "\n" not in result.detail
    legal = dict(report.results[0].measures)
    assert legal["games"] == len(VARIANTS) * 9 * 34  # 300 games a variant, 34 for each of 2..10 players
    speed = dict(report.results[3].measures)
    assert 0.2 < speed["ratio_to_basic"] < 5 and speed["games_per_second"] > 1000
    assert re.search(r"\d[\d,]* games/s, \d+\.\d\dx basic", report.results[3].detail)


def test_an_illegal_move_fails_with_one_line_naming_the_game(tmp_path, capsys):
    spec = write(tmp_path, ILLEGAL) + ":BAD"
    report = check_strategy(spec, games=200)
    assert not report.ok
    legal = report.results[0]
    assert legal.status == "FAIL" and "\n" not in legal.detail
    assert f"strategy '{spec}' at seat 0 made an illegal move in game" in legal.detail
    assert "the strategy plays a rank it does not hold" in legal.detail
    assert [r.status for r in report.results[1:]] == ["skipped"] * 3
    assert report.render().splitlines()[-1] == "verdict: FAIL (legal moves)"
    # The replay command reproduces exactly that illegal move.
    game = re.search(r"illegal move in game (\d+) \(seed (\d+)\)", legal.detail)
    command = legal.detail.split("replay: idiotsim ")[1].split()
    code, out, err = run_cli(capsys, *command)
    assert code == 2
    assert f"made an illegal move in game {game[1]} (seed {game[2]})" in err


def test_a_python_function_that_decides_otherwise_fails_the_engine_check(tmp_path):
    report = check_strategy(write(tmp_path, TWO_FACED) + ":TWO_FACED", games=100, sample=2, speed=False)
    statuses = {r.name: r.status for r in report.results}
    assert statuses == {"legal moves": "ok", "deterministic replay": "ok",
                        "same decisions in both engines": "FAIL", "speed vs basic": "skipped"}
    detail = report.failures()[0].detail
    assert "the traces differ" in detail and "game" in detail and "\n" not in detail
    assert not report.ok


@pytest.mark.parametrize("spec, message", [
    ("no-such-strategy", "unknown strategy 'no-such-strategy'"),
    ("/nonexistent/file.py:X", "strategy file /nonexistent/file.py does not exist"),
    ("heuristic:burn_min=500", "out of range"),
    ("heuristic:nope=1", "has no knob 'nope'"),
])
def test_a_bad_spec_is_a_one_line_user_error(spec, message):
    with pytest.raises(UserError, match=re.escape(message)) as error:
        check_strategy(spec, games=10)
    assert "\n" not in str(error.value)


def test_a_bad_game_count_is_a_user_error():
    with pytest.raises(UserError, match="--games >= 1"):
        check_strategy("basic", games=0)


# ---- the command -------------------------------------------------------------------

def test_check_strategy_command_prints_the_table_and_passes(capsys):
    code, out, err = run_cli(capsys, "check-strategy", "heuristic:burn_min=6", "--games", "60")
    assert code == 0 and err == ""
    assert out.splitlines()[0] == "check-strategy heuristic:burn_min=6"
    assert out.rstrip().endswith("verdict: PASS")


def test_check_strategy_command_fails_an_illegal_move_in_one_line_with_exit_2(tmp_path, capsys):
    spec = write(tmp_path, ILLEGAL) + ":BAD"
    code, out, err = run_cli(capsys, "check-strategy", spec, "--games", "200")
    assert code == 2
    assert "verdict: FAIL (legal moves)" in out
    assert err.count("\n") == 1 and err.startswith(f"error: {spec} fails check-strategy: legal moves: ")
    assert re.search(r"illegal move in game \d+ \(seed \d+\)", err)


@pytest.mark.parametrize("args", [["nosuch"], ["basic", "--games", "0"]])
def test_check_strategy_command_bad_input_is_one_line(capsys, args):
    code, out, err = run_cli(capsys, "check-strategy", *args)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1
