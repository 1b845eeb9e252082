"""Messages that say what the user got wrong, not what it led to: a knob without a value, a strategy file
without the name of the Strategy in it, `check-strategy --games 0` (no "sample" the user never set), and a
number of players given twice with two values (an error naming both, never a silent choice)."""
from __future__ import annotations

import pytest

from helpers import cli_user_error, run_cli

USER_STRATEGY = '''from idiotsim.strategy_api import Strategy, play_like_basic, strategy_function


@strategy_function
def decide(obs, hand, params, rng):
    return play_like_basic(obs, hand)


MINE = Strategy(name="mine", decide=decide, description="plays like basic")
'''


@pytest.mark.parametrize("spec, message", [
    ("heuristic:burn_min=3,pickup_max",
     "knob pickup_max of heuristic needs a value: heuristic:burn_min=3,pickup_max=V"),
    ("heuristic:pickup_max", "knob heuristic:pickup_max needs a value: pickup_max=V"),
])
def test_a_knob_without_a_value_is_named(capsys, spec, message):
    line = cli_user_error(capsys, "run", "--players", 4, "--games", 10, "--out", "unused", "--strategies", spec)
    assert line == f"error: {message}"


def test_a_strategy_file_without_a_name_gets_the_form_and_the_names_it_defines(capsys, tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(USER_STRATEGY)
    line = cli_user_error(capsys, "trace", "--seed", 1, "--strategies", str(path))
    assert line == (f"error: strategy file {path}: give the Strategy in it as FILE.py:NAME, e.g. {path}:MINE "
                    f"({path} defines MINE)")
    assert "unknown strategy" not in line
    missing = cli_user_error(capsys, "trace", "--seed", 1, "--strategies", str(tmp_path / "none.py"))
    assert missing == f"error: strategy file {tmp_path / 'none.py'} does not exist"


def test_check_strategy_games_zero_speaks_of_games_only(capsys):
    assert cli_user_error(capsys, "check-strategy", "basic", "--games", 0) == \
        "error: check-strategy needs --games >= 1, got 0"


def test_players_given_twice_with_two_values_is_an_error_naming_both(capsys, tmp_path):
    rules = tmp_path / "three.toml"
    rules.write_text("players = 3\n")
    assert cli_user_error(capsys, "trace", "--seed", 1, "--rules", rules, "--players", 4) == \
        f"error: --players 4 contradicts players = 3 in {rules}: give the number of players once"
    assert cli_user_error(capsys, "run", "--rule", "players=3", "--players", 4, "--games", 1, "--out", "unused") == \
        "error: --players 4 contradicts --rule players=3: give the number of players once"
    assert cli_user_error(capsys, "play", "--rounds", 2, "--rule", "rounds=3") == \
        "error: --rounds 2 contradicts --rule rounds=3: give the number of rounds once"
    assert cli_user_error(capsys, "play", "--seven-low", "--rule", "low_rank=9") == \
        "error: --seven-low contradicts --rule low_rank=9: give the low rank once"
    rules.write_text("lowest_starts = false\n")
    assert cli_user_error(capsys, "play", "--lowest-starts", "--rules", rules) == \
        f"error: --lowest-starts contradicts lowest_starts = false in {rules}: give who starts once"
    rules.write_text("players = 3\n")
    code, out, err = run_cli(capsys, "trace", "--seed", 1, "--rules", rules, "--players", 3)
    assert code == 0 and out.count('"swap"') == 3
