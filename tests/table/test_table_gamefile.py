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
    lines = cli(capsys, "trace", "--game-file", path, "--reveal").splitlines()  # every hand: test_table_spoilers
    full = cli(capsys, "trace", "--players", 3, "--strategies", "basic,random,basic", "--seed", 9).splitlines()
    assert lines == full[:len(lines)] and len(lines) >= 10
    assert json.loads(cli(capsys, "analyze", "--game-file", path, "--action", 9, "--rollouts", 20, "--json",
                          "--reveal"))["moves"]


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
            assert registry()[specs[0]].fair and level.headline and len(set(specs)) == 1
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


def test_cards_typed_as_shown_with_suit_letters_or_symbols():
    """A card list plays that many cards of its rank (suits never matter, R1, but a card typed must be
    held where the seat plays from); a lone `7s` is every 7 (the plural), `7S` the 7 of spades;
    errors quote the answer as typed."""
    seven, nine = 5, 7
    cards = [seven * 4 + 0, seven * 4 + 2, seven * 4 + 3, nine * 4 + 1]  # 7C 7H 7S 9D
    moves = [Move(play(seven, c, 0), "") for c in (1, 2, 3)] + [Move(play(nine, 1, 0), ""), Move(PICKUP, "")]

    def meaning(text):
        answer = parse(text, ob.TURN, moves, np.zeros(13, np.int64), cards)
        return answer.move if answer.move is not None else "error: " + answer.error

    assert meaning("7s") == meaning("7") == meaning("7h 7s 7c") == play(seven, 3, 0)
    assert meaning("7S") == meaning("7c") == meaning("7\u2665") == meaning("Play 7H") == play(seven, 1, 0)
    assert meaning("7H 7S") == meaning("7\u2663 7\u2660") == meaning("7c 7s") == play(seven, 2, 0)
    assert meaning("9d") == meaning("9D") == meaning("9\u2666") == play(nine, 1, 0)
    assert meaning("3H") == "error: '3H': you do not hold 3H where you play from (you hold no 3 there)"
    assert meaning("7D") == "error: '7D': you do not hold 7D where you play from (your 7s there: 7C 7H 7S)"
    assert meaning("7H 9D").startswith("error: '7H 9D': one rank at a time")
    assert meaning("Xyz").startswith("error: 'Xyz' is not a move")  # as typed, not lowered
    assert meaning("4 7S").startswith("error: '4 7S': you can play 1..3 of your 7s now, not 4")
    shown = parse("7D", ob.TURN, moves, None, cards, show=lambda c: "<card>").error
    assert shown.endswith("(your 7s there: <card> <card> <card>)")  # the screen's way of writing cards
    swaps = [Move(1 + 13 * 9 + 169 * 12, "")]  # face-up 3 J A
    six = [1 * 4 + 2, 9 * 4 + 3, 12 * 4 + 0, 0, 4, 8]  # 3H JS AC 2C 3C 4C
    assert parse("3h JS ac", ob.SWAP, swaps, None, six).move == parse("3 J A", ob.SWAP, swaps, None, six).move
    assert "JD is not among your 6 cards" in parse("3H JD AC", ob.SWAP, swaps, None, six).error


def test_an_illegal_decision_of_the_person_is_named_as_the_file_s_not_a_bot_s(tmp_path, capsys):
    record, path = saved_game(tmp_path)  # the person at seat 1
    data = json.loads(path.read_text())
    index = [i for i, (seat, _) in enumerate(data["decisions"]) if seat == 1][4]
    data["decisions"][index][1] = play(12, 4, 0)  # four aces
    data.update(finished=False, places=None)  # as quit leaves it, so that play --resume takes it too
    path.write_text(json.dumps(data))
    for command in (["trace", "--game-file", path], ["review", path, "-k", 10],
                    ["analyze", "--game-file", path, "--action", 3, "-k", 10], ["play", "--resume", path]):
        code, out, err = run_cli(capsys, *command)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert f"game file {path}: decision {index + 1} (yours, seat 1, round 1) is not a legal move there: " \
               "plays A x4" in err and "strategy" not in err, err
