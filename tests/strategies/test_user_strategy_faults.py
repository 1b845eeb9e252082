"""A user's own strategy file that is wrong gets an error that names the cause and the place in the file
(docs/strategies.md, "The decision function"): numba's real error when it does not compile (a misspelt
name, `return None`, an array made inside a `@strategy_function`, a typing error in a helper), what was
returned when it is not a move code (`return 1.5`), the exception of an out-of-range read (`hand[20]`),
each in a few lines and without a traceback; and the replay that check-strategy suggests shows the game
up to the bad decision, then the error. A "highest card" player built on `playable_mask` is legal under
V12 (the opening rank)."""
from __future__ import annotations

import re

from helpers import run_cli
from idiotsim.strategies.strategy_checks import check_strategy

HEAD = "from idiotsim.strategy_api import TURN, Strategy, decision, play_like_basic, strategy_function\n\n\n"
TAIL = '\n\nS = Strategy(name="mine", decide=decide, description="a user\'s strategy")\n'
SOURCES = {
    "typo": '''@strategy_function
def decide(obs, hand, params, rng):
    return play_like_basicc(obs, hand)
''',
    "none": '''@strategy_function
def decide(obs, hand, params, rng):
    if decision(obs) == TURN:
        return None
    return play_like_basic(obs, hand)
''',
    "zeros": '''import numpy as np


@strategy_function
def decide(obs, hand, params, rng):
    seen = np.zeros(13)
    return play_like_basic(obs, hand)
''',
    "helper": '''from idiotsim.jit import kernel


@kernel
def pile_is_big(obs):
    return obs.pile_size > 8


@strategy_function
def decide(obs, hand, params, rng):
    if pile_is_big(obs):
        return 0
    return play_like_basic(obs, hand)
''',
    "float": '''@strategy_function
def decide(obs, hand, params, rng):
    if decision(obs) == TURN:
        return 1.5
    return play_like_basic(obs, hand)
''',
    "past_the_hand": '''@strategy_function
def decide(obs, hand, params, rng):
    if decision(obs) == TURN and hand[20] > 0:
        return 3
    return play_like_basic(obs, hand)
''',
    "highest": '''from idiotsim.strategy_api import ORDINARY_MASK, highest_rank, play_all, playable_mask


@strategy_function
def decide(obs, hand, params, rng):
    ordinary = playable_mask(obs, hand) & ORDINARY_MASK
    if decision(obs) == TURN and ordinary != 0:
        return play_all(obs, hand, highest_rank(ordinary))
    return play_like_basic(obs, hand)
''',
}


def strategy_file(tmp_path, kind: str):
    """The user's file of `kind` and the line number of each of its lines' text."""
    path = tmp_path / f"{kind}.py"
    source = HEAD + SOURCES[kind] + TAIL
    path.write_text(source)
    return path, {line.strip(): i for i, line in enumerate(source.splitlines(), 1)}


def check_error(capsys, spec: str) -> list[str]:
    """`idiotsim check-strategy SPEC` failing as a user error: its stderr lines (a few, no traceback)."""
    code, out, err = run_cli(capsys, "check-strategy", spec, "--games", "100")
    assert code == 2, (out, err)
    assert "Traceback" not in err and err.startswith("error: ")
    lines = err.splitlines()
    assert len(lines) <= 5, err
    return lines


def test_a_misspelt_name_is_numbas_name_error_at_its_line(tmp_path, capsys):
    path, line = strategy_file(tmp_path, "typo")
    lines = check_error(capsys, f"{path}:S")
    assert lines[0] == (f"error: strategy '{path}:S' does not compile: NameError: name 'play_like_basicc' "
                        "is not defined")
    typo = "return play_like_basicc(obs, hand)"
    assert lines[1] == f"  {path}, line {line[typo]}: {typo}"


def test_return_none_says_what_decide_must_return(tmp_path, capsys):
    path, line = strategy_file(tmp_path, "none")
    lines = check_error(capsys, f"{path}:S")
    assert lines[0] == f"error: strategy '{path}:S' does not compile: decide returns None, not a move code"
    assert lines[1] == f"  {path}, line {line['return None']}: return None"
    assert "decide must return an int move code: play(rank, count, extra), PICKUP" in " ".join(lines[2:])


def test_an_array_made_in_a_strategy_function_names_the_line_and_the_way_out(tmp_path, capsys):
    path, line = strategy_file(tmp_path, "zeros")
    lines = check_error(capsys, f"{path}:S")
    assert "does not compile: it creates an array or a list" in lines[0]
    assert lines[1] == f"  {path}, line {line['seen = np.zeros(13)']}: seen = np.zeros(13)"
    assert "@strategy_function(allocates=True)" in " ".join(lines[2:])
    assert max(map(len, lines[2:])) <= 80


def test_a_typing_error_in_a_helper_names_the_helpers_line_and_the_call(tmp_path, capsys):
    path, line = strategy_file(tmp_path, "helper")
    lines = check_error(capsys, f"{path}:S")
    assert lines[0].endswith("does not compile: Unknown attribute 'pile_size' of type array(int64, 1d, C)")
    assert lines[1] == f"  {path}, line {line['return obs.pile_size > 8']}: return obs.pile_size > 8"
    assert lines[2] == f"  called from {path}, line {line['if pile_is_big(obs):']}: if pile_is_big(obs):"


def test_a_float_returned_is_named_with_its_line_not_as_an_empty_play(tmp_path, capsys):
    path, line = strategy_file(tmp_path, "float")
    lines = check_error(capsys, f"{path}:S")
    assert len(lines) == 1
    assert f"returned 1.5 (a float, {path}, line {line['return 1.5']}: return 1.5)" in lines[0]
    assert "decide must return an int move code" in lines[0]
    assert "at least one card" not in lines[0]


def test_an_out_of_range_read_is_named_as_an_index_error_at_its_line(tmp_path, capsys):
    path, line = strategy_file(tmp_path, "past_the_hand")
    lines = check_error(capsys, f"{path}:S")
    assert len(lines) == 1
    assert "failed: IndexError: index 20 is out of bounds for axis 0 with size 13" in lines[0]
    assert f"({path}, line {line['if decision(obs) == TURN and hand[20] > 0:']}: " in lines[0]
    assert "at least one card" not in lines[0]


def test_the_numba_engine_names_the_fault_too(tmp_path, capsys):
    """`run` plays on the numba engine, where the float is truncated to an empty play: the game is played
    again on the reference engine, which names the float."""
    path, _ = strategy_file(tmp_path, "float")
    code, out, err = run_cli(capsys, "run", "--players", 2, "--strategies", f"{path}:S,basic", "--games", 50,
                             "--out", tmp_path / "run")
    assert code == 2 and err.count("\n") == 1, err
    assert "returned 1.5 (a float" in err and "at least one card" not in err


def test_the_suggested_replay_shows_the_game_up_to_the_bad_decision_then_the_error(tmp_path, capsys):
    path, _ = strategy_file(tmp_path, "float")
    report = check_strategy(f"{path}:S", games=100, speed=False)
    detail = report.failures()[0].detail
    command = detail.split("replay: idiotsim ")[1]
    assert command.endswith(" --pretty")
    code, out, err = run_cli(capsys, *command.split())
    assert code == 2
    lines = out.splitlines()
    assert lines[0].startswith("== game ") and lines[1].startswith("seats: 0 ")
    assert re.match(r"\s*1 +seat 0 +face-up ", lines[3])  # the swaps happened: the float comes at a turn
    assert lines[-1] == "(the game stops here: the next decision is the error below)"
    assert err.startswith("error: strategy ") and "returned 1.5 (a float" in err and err.count("\n") == 1


def test_a_highest_card_player_built_on_playable_mask_is_legal_under_v12(tmp_path):
    """`playable_mask` is what `can_play` allows: with V12's opening rank due, that rank only."""
    path, _ = strategy_file(tmp_path, "highest")
    report = check_strategy(f"{path}:S", games=300, sample=1, speed=False)
    assert report.ok, report.render()
