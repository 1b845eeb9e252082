"""`idiotsim play` through a pseudo-terminal of 80 x 24 (pexpect): a whole game where the person
plays basic's move at every decision replays to basic's trace, the screen never shows a hidden
card (R6, R15: checked against the true state at every prompt), bad answers re-prompt, quit and
Ctrl-C leave a game file that replays, rounds (V4) and the two table options (V1, V3)."""
from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

import pexpect
import pytest

from helpers import run_cli
from idiotsim.game import observation as ob
from idiotsim.analysis.position_analysis import DECISION_EVENTS, legal_moves, replay_decisions
from idiotsim.game.cards import RANK_NAMES, SUIT_SYMBOLS, card_pretty
from idiotsim.cli.game_commands import seed_decks
from idiotsim.analysis.positions import Position
from idiotsim.game.rules import load_rules
from idiotsim.strategies.loading import load_strategies
from idiotsim.table import gamefile
from idiotsim.game.moves import PICKUP

IDIOTSIM = str(Path(sys.executable).with_name("idiotsim"))
PROMPT = "your move"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
CLEAR = "\x1b[2J"  # rich's clear screen, before each screen in a terminal
CARD = re.compile("(10|[2-9JQKA])([" + "".join(SUIT_SYMBOLS) + "])")


@pytest.fixture(scope="module", autouse=True)
def compiled_for_the_child():
    """Compile here what `idiotsim play` compiles (basic, the move lists): the child process inherits
    the source-keyed numba cache folder and loads them from it instead of compiling under a prompt's
    timeout."""
    rules = load_rules(None, ["players=2"])
    _, decisions = replay_decisions(rules, load_strategies("basic", 2), seed_decks(0, 0, rules), 0, 0)
    for decision in decisions[:3]:  # two swaps and a turn
        legal_moves(Position(rules, decision.obs, decision.hand))


def spawn(*args) -> pexpect.spawn:
    env = dict(os.environ, NO_COLOR="1", LANG="C.UTF-8", LC_ALL="C.UTF-8", PYTHONIOENCODING="utf-8", COLUMNS="80",
               LINES="24")
    return pexpect.spawn(IDIOTSIM, ["play", *map(str, args)], env=env, encoding="utf-8", dimensions=(24, 80),
                         timeout=120)


def basic_game(rules_args, seed: int):
    """The game basic plays at every seat: the rules, seat 0's moves in order, and at each of seat 0's
    decisions the cards it must not see and the cards of its own hand."""
    rules = load_rules(None, rules_args)
    seats = load_strategies("basic", rules.players)
    decks = seed_decks(seed, 0, rules)
    events, decisions = replay_decisions(rules, seats, decks, seed, 0)
    record = gamefile.record_game(rules, seats, decks, seed, 0)
    at_events = [i for i, e in enumerate(events) if e["action"] in DECISION_EVENTS]
    seen = []
    for decision, index, (seat, move) in zip(decisions, at_events, record.decisions):
        if seat == 0:
            seen.append((move, decision, hidden_cards(decision, events[:index]), sorted(decision.table.hands[0])))
    return rules, seen


def hidden_cards(decision, events_before) -> set:
    """The cards seat 0 may not see: at the swap (R6) every card but its own six; else the talon, the
    blind cards (R15) and the other hands' cards that were not taken in sight (a pickup shows them)."""
    table = decision.table
    if decision.obs[ob.DECISION] == ob.SWAP:
        everything = [c for zone in (*table.hands, *table.faceup, *table.blind, table.talon) for c in zone]
        return set(everything) - set(table.hands[0]) - set(table.faceup[0])
    taken = {s: set() for s in range(len(table.hands))}
    for event in events_before:
        if event["round"] != decision.obs[ob.ROUND]:
            continue
        if event["action"] == "pickup":
            taken[event["seat"]] |= set(event["_cards"])
        elif event["action"] == "play":
            taken[event["seat"]] -= set(event["_cards"])
    hidden = set(table.talon) | {c for row in table.blind for c in row}
    for seat, hand in enumerate(table.hands[1:], 1):
        hidden |= set(hand) - taken[seat]
    return hidden


def typed(move: int, decision) -> str:
    """Basic's move as a person types it."""
    kind = decision.obs[ob.DECISION]
    if kind == ob.SWAP:
        return " ".join(RANK_NAMES[r] for r in (move % 13, move // 13 % 13, move // 169))
    if kind == ob.BLIND:
        return "1"  # basic flips the lowest position still lying: the first one listed
    if move == PICKUP:
        return "pickup"
    return f"{(move >> 4) & 15} {RANK_NAMES[move & 15]}s"


def cards_on(screen: str) -> set:
    return {RANK_NAMES.index(rank) * 4 + SUIT_SYMBOLS.index(suit) for rank, suit in CARD.findall(screen)}


def play_basic_moves(child, seen, stop_after=None) -> int:
    """Answer every prompt with basic's move, checking each screen; returns the prompts answered."""
    for i, (move, decision, hidden, hand) in enumerate(seen):
        if stop_after is not None and i == stop_after:
            return i
        while child.expect([PROMPT, "press Enter"]) == 1:
            child.sendline("")
        assert CLEAR in child.before  # a terminal gets a fresh screen at each decision
        screen = ANSI.sub("", child.before.split(CLEAR)[-1])  # the screen drawn for this prompt
        assert len(screen.splitlines()) <= 24, screen
        shown = cards_on(screen)
        assert not shown & hidden, f"hidden cards on screen: {sorted(map(card_pretty, shown & hidden))}\n{screen}"
        assert set(hand) <= shown, screen  # the own hand is shown with its suits
        assert max(map(len, screen.splitlines())) <= 80
        child.sendline(typed(move, decision))
    return len(seen)


def trace(capsys, *args) -> list[str]:
    code, out, err = run_cli(capsys, "trace", *args)
    assert code == 0, err
    return out.splitlines()


def test_a_whole_game_of_basic_moves_replays_to_basic_trace_and_hides_every_hidden_card(tmp_path, capsys):
    save = tmp_path / "g.json"
    rules, seen = basic_game(["players=3"], seed=11)
    child = spawn("--players", 3, "--bots", "basic", "--seed", 11, "--save", save)
    play_basic_moves(child, seen)
    child.expect("game saved in")
    child.expect(r"review your decisions now\? \(y/N\)")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert trace(capsys, "--game-file", save) == trace(capsys, "--players", 3, "--strategies", "basic", "--seed", 11)
    record = gamefile.load(save)
    assert record.finished and record.seats == ["you", "basic", "basic"] and record.human_seat == 0


def test_bad_answers_get_one_line_and_the_same_prompt_and_quit_saves(tmp_path, capsys):
    save = tmp_path / "g.json"
    child = spawn("--players", 2, "--bots", "basic", "--seed", 3, "--save", save)
    child.expect(PROMPT)
    for bad, message in (("xyz", "at the swap"), ("99", "at the swap"), ("2 2 2 2", "at the swap"), ("", "type a move")):
        child.sendline(bad)
        child.expect(message)
        child.expect(PROMPT)
        assert "Traceback" not in child.before
    child.sendline("1")  # a numbered answer: the first swap listed
    child.expect(PROMPT)
    child.sendline("help")
    child.expect("pickup")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("saved in")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = gamefile.load(save)
    assert not record.finished and record.moves_of(0) and len(record.moves_of(0)) == 1  # the swap only
    assert json.loads(trace(capsys, "--game-file", save)[0])["action"] == "swap"


def test_ctrl_c_leaves_a_game_file_that_replays_the_game_so_far(tmp_path, capsys):
    save = tmp_path / "g.json"
    rules, seen = basic_game(["players=3"], seed=5)
    child = spawn("--players", 3, "--bots", "basic", "--seed", 5, "--save", save)
    answered = play_basic_moves(child, seen, stop_after=6)
    child.expect(PROMPT)
    child.sendintr()
    child.expect("interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert len(gamefile.load(save).moves_of(0)) == answered
    replayed = trace(capsys, "--game-file", save)
    assert replayed == trace(capsys, "--players", 3, "--strategies", "basic", "--seed", 5)[:len(replayed)]
    assert len(replayed) > answered  # the bots' moves and the person's six
    pretty = trace(capsys, "--game-file", save, "--pretty")
    assert pretty[-1] == "(the game file ends here: the game was left unfinished)"
    code, out, err = run_cli(capsys, "review", save, "--rollouts", 20, "--json")
    assert code == 0, err
    assert not json.loads(out)["finished"] and json.loads(out)["decisions"] >= 1


def test_rounds_seven_low_and_lowest_starts(tmp_path, capsys):
    save = tmp_path / "g.json"
    table_rules = ["players=2", "rounds=2", "low_rank=7", "lowest_starts=true"]
    rules, seen = basic_game(table_rules, seed=2)
    child = spawn("--players", 2, "--rounds", 2, "--seven-low", "--lowest-starts", "--bots", "basic", "--seed", 2,
                  "--save", save)
    play_basic_moves(child, seen)
    child.expect("game over after 2 rounds")
    child.expect(r"review your decisions now\? \(y/N\)")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    record = gamefile.load(save)
    assert (record.rules.rounds, record.rules.low_rank, record.rules.lowest_starts) == (2, 7, True)
    expected = trace(capsys, "--strategies", "basic", "--seed", 2, *[a for r in table_rules for a in ("--rule", r)])
    assert trace(capsys, "--game-file", save) == expected
    assert Counter(json.loads(line)["action"] for line in expected)["end"] == 2


@pytest.mark.parametrize("args, message", [
    (["--seat", 4], "--seat must be 0..3"),
    (["--level", "godlike"], "unknown --level 'godlike'"),
    (["--bots", "basic,basic"], "give 1 or 3 strategies"),
    (["--level", "easy", "--bots", "basic"], "at most one of --level and --bots"),
    (["--bots", "search-perfect-info"], "sees hidden cards"),
    (["--rounds", 11], "rounds must be 1..10"),
])
def test_bad_table_flags_are_one_error_line(capsys, args, message):
    code, out, err = run_cli(capsys, "play", *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_a_piped_game_is_plain_text_with_a_hint_and_offers_the_review(tmp_path, capsys, monkeypatch):
    import io
    save = tmp_path / "g.json"
    rules, seen = basic_game(["players=2"], seed=8)
    answers = ["hint"] + [typed(move, decision) for move, decision, _, _ in seen] + ["y"]
    first_blind = 1 + next(i for i, (_, d, _, _) in enumerate(seen) if d.obs[ob.DECISION] == ob.BLIND)
    answers.insert(first_blind, "hint")
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(answers) + "\n"))
    code, out, err = run_cli(capsys, "play", "--players", 2, "--bots", "basic", "--seed", 8, "--save", save)
    assert code == 0, err
    assert "\x1b" not in out  # no colour, no cursor movement in a pipe
    assert "hint: each move played on the same 2,000 sampled states" in out  # the swap's choices, judged
    assert "hint: a blind card is flipped unseen (R15)" in out
    assert "game over" in out and "review of seat 0 (you)" in out and "total cost" in out
    assert trace(capsys, "--game-file", save) == trace(capsys, "--players", 2, "--strategies", "basic", "--seed", 8)
