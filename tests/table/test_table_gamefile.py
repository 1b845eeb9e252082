"""The game file (save, load, replay; trace and analyze --game-file), the level table and the answers
a person types at the table (idiotsim.table.answers)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from helpers import run_cli
from idiotsim.game import observation as ob
from idiotsim.cli.game_commands import seed_decks
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import load_strategies, registry
from idiotsim.table import gamefile
from idiotsim.table.levels import LEVELS, bot_specs
from idiotsim.table.answers import Move, parse
from idiotsim.game.moves import CHANCE, PICKUP, play


def saved_game(tmp_path, strategies="basic,random,basic", seed=9, rules=Rules(players=3)):
    seats = load_strategies(strategies, rules.players)
    record = gamefile.record_game(rules, seats, seed_decks(seed, 0, rules), seed, 0, human_seat=1)
    return record, gamefile.save(record, tmp_path / "g.json")


def cli(capsys, *args):
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    return out


def test_a_saved_game_replays_to_the_trace_of_its_seed(tmp_path, capsys):
    record, path = saved_game(tmp_path)
    loaded = gamefile.load(path)
    assert loaded.decisions == record.decisions and loaded.places == record.places and loaded.rules == record.rules
    assert all(np.array_equal(a, b) for a, b in zip(loaded.decks, record.decks))
    expected = cli(capsys, "trace", "--players", 3, "--strategies", "basic,random,basic", "--seed", 9)
    assert cli(capsys, "trace", "--game-file", path) == expected
    pretty = cli(capsys, "trace", "--game-file", path, "--pretty")
    assert pretty == cli(capsys, "trace", "--players", 3, "--strategies", "basic,random,basic", "--seed", 9, "--pretty")


def test_analyze_of_a_game_file_is_analyze_of_its_game(tmp_path, capsys):
    _, path = saved_game(tmp_path)
    args = ("--action", 8, "--rollouts", 50, "--json")
    replayed = json.loads(cli(capsys, "analyze", "--game-file", path, *args))
    direct = json.loads(cli(capsys, "analyze", "--players", 3, "--strategies", "basic,random,basic", "--seed", 9, *args))
    assert replayed["moves"] == direct["moves"] and replayed["cards"] == direct["cards"]


def test_an_unfinished_game_file_replays_up_to_its_last_decision(tmp_path, capsys):
    record, _ = saved_game(tmp_path)
    record.decisions = record.decisions[:10]
    record.places = None
    path = gamefile.save(record, tmp_path / "part.json")
    lines = cli(capsys, "trace", "--game-file", path).splitlines()
    full = cli(capsys, "trace", "--players", 3, "--strategies", "basic,random,basic", "--seed", 9).splitlines()
    assert lines == full[:len(lines)] and len(lines) >= 10
    assert json.loads(cli(capsys, "analyze", "--game-file", path, "--action", 9, "--rollouts", 20, "--json"))["moves"]


@pytest.mark.parametrize("edit, message", [
    (lambda d: "not json", "is not valid JSON"),
    (lambda d: {**d, "format": "other"}, "not an idiotsim game file"),
    (lambda d: {**d, "version": 99}, "version 99"),
    (lambda d: {**d, "seats": ["you"]}, "seats must list 3 labels"),
    (lambda d: {**d, "decisions": [[7, 1]]}, "decisions must be a list of [seat, move] pairs"),
    (lambda d: {**d, "decks": ["2C,3C"]}, "a deck has 52 or 104 cards"),
    (lambda d: {**d, "rules": {**d["rules"], "rounds": 0}}, "rounds must be 1..10"),
    (lambda d: {**d, "decisions": [[0, 999_999]] + d["decisions"][1:]},
     "decision 1 (seat 0, basic, round 1) is not a legal move there: 999999 is not a swap choice"),
    (lambda d: {**d, "decisions": d["decisions"] + [[0, PICKUP]]}, "decisions beyond the end"),
])
def test_a_broken_game_file_is_one_error_line(tmp_path, capsys, edit, message):
    _, path = saved_game(tmp_path)
    data = edit(json.loads(path.read_text()))
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    code, out, err = run_cli(capsys, "trace", "--game-file", path)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_a_game_file_replaces_the_game_flags(tmp_path, capsys):
    _, path = saved_game(tmp_path)
    for command in (["trace", "--seed", 1], ["trace", "--engine", "numba"], ["analyze", "--action", 2, "--seed", 1]):
        code, out, err = run_cli(capsys, *command, "--game-file", path)
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err


def test_every_level_is_a_shipped_fair_strategy_at_every_table_size():
    for players in range(2, 7):
        for name, level in LEVELS.items():
            specs = bot_specs(name, None, players)
            assert len(specs) == players - 1
            assert registry()[specs[0]].fair and level.strength and len(set(specs)) == 1
    assert bot_specs("hard", None, 3) == ["learned-fast-3p"] * 2 and bot_specs(None, "basic,random", 3) == ["basic", "random"]


def turn_obs(hand_counts, pile_top=-1, pile_size=0):
    obs = np.zeros(ob.OBS_SIZE, np.int64)
    obs[ob.DECISION] = ob.TURN
    obs[ob.PILE_TOP] = pile_top
    obs[ob.PILE_SIZE] = pile_size
    return obs, np.array(hand_counts, np.int64)


def test_typed_answers():
    moves = [Move(play(5, 1, 0), "7"), Move(play(5, 2, 0), "7 7"), Move(play(8, 1, 0), "10"), Move(PICKUP, "pick up")]
    hand = np.zeros(13, np.int64)

    def meaning(text):
        answer = parse(text, ob.TURN, moves, hand)
        return answer.move if answer.move is not None else answer.command or "error: " + answer.error

    assert meaning("2") == play(5, 2, 0)  # a number of the list
    assert meaning("2 7s") == meaning("7s") == meaning("play 7") == play(5, 2, 0)  # every 7 held by default
    assert meaning("1 7") == meaning("1x7s") == play(5, 1, 0)
    assert meaning("10") == play(8, 1, 0)  # past the list's numbers: the rank
    assert meaning("pickup") == meaning("Pick Up") == PICKUP
    assert meaning("hint") == "hint" and meaning("quit") == "quit"
    for bad, message in (("3 7s", "1..2 of your 7s"), ("Q", "no Q can be played"), ("chance", "not allowed"),
                         ("blah", "not a move"), ("", "type a move"), ("15", "not a move")):
        assert meaning(bad).startswith("error: ") and message in meaning(bad), (bad, meaning(bad))
    assert CHANCE not in {m.code for m in moves}


def test_typed_swap_and_blind_answers():
    swaps = [Move(1 + 13 * 9 + 169 * 12, "face-up 3 J A")]
    assert parse("a j 3", ob.SWAP, swaps, None).move == swaps[0].code
    assert "do not hold" in parse("K K K", ob.SWAP, swaps, None).error
    blinds = [Move(1, "blind card 2"), Move(2, "blind card 3")]
    assert parse("2", ob.BLIND, blinds, None).move == 2
    assert "1..2" in parse("3", ob.BLIND, blinds, None).error
