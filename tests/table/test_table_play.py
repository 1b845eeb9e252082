"""`idiotsim play` through a pseudo-terminal of 80 x 24 (pexpect): a whole game where the person
plays basic's move at every decision replays to basic's trace, the screen never shows a hidden
card (R6, R15: checked against the true state at every prompt) and never takes more than 80 x 24,
bad answers re-prompt, quit and Ctrl-C leave a game file that replays and print the same next
steps, `--resume` finishes an unfinished game as if it had never stopped, `--save` never
overwrites a file, cards typed with suit letters are read, two decks are named, rounds (V4) and
the two table options (V1, V3)."""
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
from idiotsim.table.session import prepare
from idiotsim.game.moves import PICKUP

IDIOTSIM = str(Path(sys.executable).with_name("idiotsim"))
PROMPT = "your move"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
CLEAR = "\x1b[2J"  # rich's clear screen, before each screen in a terminal
CARD = re.compile("(10|[2-9JQKA])([" + "".join(SUIT_SYMBOLS) + "])")


@pytest.fixture(scope="module", autouse=True)
def compiled_for_the_child():
    """Compile here what `idiotsim play` compiles before its first prompt (basic, the move lists, the
    search of hint and review: `session.prepare`): the child process inherits the source-keyed numba
    cache folder and loads them from it instead of compiling under a prompt's timeout."""
    rules = load_rules(None, ["players=2"])
    _, decisions = replay_decisions(rules, load_strategies("basic", 2), seed_decks(0, 0, rules), 0, 0)
    for decision in decisions[:3]:  # two swaps and a turn
        legal_moves(Position(rules, decision.obs, decision.hand))
    prepare(rules, load_strategies("basic", 2))


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


def play_basic_moves(child, seen, stop_after=None, screens=None, one_deck=True) -> int:
    """Answer every prompt with basic's move, checking each screen (collected into `screens` when
    given); returns the prompts answered. (With two decks a card code names two cards: the check
    of hidden cards, by code, is for one deck.)"""
    for i, (move, decision, hidden, hand) in enumerate(seen):
        if stop_after is not None and i == stop_after:
            return i
        while child.expect([PROMPT, "press Enter"]) == 1:
            child.sendline("")
        assert CLEAR in child.before  # a terminal gets a fresh screen at each decision
        screen = ANSI.sub("", child.before.split(CLEAR)[-1])  # the screen drawn for this prompt
        assert len(screen.splitlines()) <= 24, screen
        shown = cards_on(screen)
        assert not shown & hidden or not one_deck, f"hidden cards on screen: {sorted(map(card_pretty, shown & hidden))}\n{screen}"
        assert set(hand) <= shown, screen  # the own hand is shown with its suits
        assert max(map(len, screen.splitlines())) <= 80
        if screens is not None:
            screens.append(screen)
        child.sendline(typed(move, decision))
    return len(seen)


def next_steps(output: str) -> list[str]:
    """The lines after a game that say how to go on with its file (continue, replay, review), a step
    continued on the next line (after the shell's backslash) joined."""
    joined = re.sub(r" \\\r?\n\s*", " ", ANSI.sub("", output))
    return [line.strip() for line in joined.splitlines() if re.match(r"\s+(continue|replay|review):\s", line)]


def next_steps_of(path, finished: bool) -> list[str]:
    steps = [] if finished else [f"continue: idiotsim play --resume {path}"]
    return steps + [f"replay:   idiotsim trace --pretty --game-file {path}", f"review:   idiotsim review {path}"]


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
    assert next_steps(child.before) == next_steps_of(save, finished=False)
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
    assert next_steps(child.before) == next_steps_of(save, finished=False)
    assert len(gamefile.load(save).moves_of(0)) == answered
    replayed = trace(capsys, "--game-file", save, "--reveal")  # the bots' hands too (test_table_spoilers)
    assert replayed == trace(capsys, "--players", 3, "--strategies", "basic", "--seed", 5)[:len(replayed)]
    assert len(replayed) > answered  # the bots' moves and the person's six
    pretty = trace(capsys, "--game-file", save, "--pretty", "--reveal")
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
    assert "hint: mean place over 2,000 sampled states" in out  # the swap's choices, judged
    hint = out.split("hint: mean place over")[1].split("your move")[0].splitlines()
    assert len(hint) <= 1 + 4 + 1 and "(hint all: every move)" in hint[-1], hint  # the best 4 and the rest
    assert "hint: a blind card is flipped unseen (R15)" in out and "-0.0" not in out
    assert "game over" in out and "review of seat 0 (you)" in out and "mean cost per decision" in out
    prompts = (PROMPT, "(y/N)")  # a pipe echoes no answer: the next output goes on after the prompt
    wide = [line for line in out.splitlines()
            if len(line) > 80 and str(tmp_path) not in line and not any(p in line for p in prompts)]
    assert not wide, wide
    assert trace(capsys, "--game-file", save) == trace(capsys, "--players", 2, "--strategies", "basic", "--seed", 8)


def test_resume_finishes_an_unfinished_game_as_if_it_had_never_stopped(tmp_path, capsys):
    save = tmp_path / "g.json"
    rules, seen = basic_game(["players=3"], seed=5)
    child = spawn("--players", 3, "--bots", "basic", "--seed", 5, "--save", save)
    play_basic_moves(child, seen, stop_after=5)
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    before = gamefile.load(save)
    assert not before.finished and len(before.moves_of(0)) == 5
    child = spawn("--resume", save)
    child.expect("resuming:")  # and the path, on the next line when the two do not fit 80 columns
    play_basic_moves(child, seen[5:])
    child.expect(r"review your decisions now\? \(y/N\)")
    assert next_steps(child.before) == next_steps_of(save, finished=True)
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    after = gamefile.load(save)
    assert after.finished and after.decisions[:len(before.decisions)] == before.decisions
    assert trace(capsys, "--game-file", save) == trace(capsys, "--players", 3, "--strategies", "basic", "--seed", 5)


def test_resume_of_a_stochastic_bot_game_goes_on_as_the_game_would_have(tmp_path, capsys):
    """The bots decide again while the file replays, so their random streams move on as in the game
    played: `random` bots after a resume play as they would have without the stop."""
    full, part = tmp_path / "full.json", tmp_path / "part.json"
    answers = "\n".join(["1"] * 400) + "\n"
    code, out, err = run_cli_with_input(capsys, answers, "play", "--players", 3, "--bots", "random", "--seed", 4,
                                        "--save", full)
    assert code == 0, err
    record = gamefile.load(full)
    cut = [i for i, (seat, _) in enumerate(record.decisions) if seat == 0][6]  # before the person's 7th decision
    data = json.loads(full.read_text())
    data.update(decisions=data["decisions"][:cut], finished=False, places=None)
    part.write_text(json.dumps(data))
    code, out, err = run_cli_with_input(capsys, answers, "play", "--resume", part)
    assert code == 0, err
    assert gamefile.load(part).decisions == record.decisions


def run_cli_with_input(capsys, text, *args):
    import io
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdin", io.StringIO(text))
        return run_cli(capsys, *args)


def test_resume_errors_are_one_line_and_change_nothing(tmp_path, capsys):
    finished = tmp_path / "done.json"
    rules = load_rules(None, ["players=3"])
    record = gamefile.record_game(rules, load_strategies("basic", 3), seed_decks(5, 0, rules), 5, 0, human_seat=0)
    gamefile.save(record, finished)
    bots = tmp_path / "bots.json"
    gamefile.save(gamefile.record_game(rules, load_strategies("basic", 3), seed_decks(5, 0, rules), 5, 0), bots)
    unfinished = tmp_path / "part.json"
    data = json.loads(finished.read_text())
    data.update(decisions=data["decisions"][:8], finished=False, places=None)
    unfinished.write_text(json.dumps(data))
    illegal = tmp_path / "illegal.json"
    data["decisions"][3][1] = 12 | 4 << 4  # four aces, which seat 0 does not hold
    illegal.write_text(json.dumps(data))
    for args, message in (([finished], "holds a finished game: review it with idiotsim review"),
                          ([bots], "is a game of bots: no seat is yours"),
                          ([unfinished, "--seed", 3], "a resumed game goes on as its file says: drop --seed"),
                          ([unfinished, "--save", tmp_path / "x.json"], "drop --save"),
                          ([illegal], "decision 4 (yours, seat 0, round 1) is not a legal move there"),
                          ([tmp_path / "none.json"], "does not exist")):
        before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
        code, out, err = run_cli(capsys, "play", "--resume", *args)
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err
        assert "strategy" not in err
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_save_never_overwrites_a_file(tmp_path, capsys, monkeypatch):
    taken = tmp_path / "game.json"
    taken.write_text("a finished game")
    code, out, err = run_cli(capsys, "play", "--players", 2, "--bots", "basic", "--seed", 1, "--save", taken)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"--save {taken}: the file exists, and a game file is never overwritten" in err
    assert taken.read_text() == "a finished game"
    code, out, err = run_cli(capsys, "play", "--save", tmp_path / "no" / "such" / "g.json")
    assert code == 2 and "does not exist" in err
    # The default name: one that is not taken, said at the start.
    from idiotsim.cli import table_commands
    monkeypatch.chdir(tmp_path)
    first = table_commands._new_save_path(None)
    first.write_text("taken")
    second = table_commands._new_save_path(None)
    assert first.name.startswith("idiotsim-") and second != first and not second.exists()
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("quit\n"))
    code, out, err = run_cli(capsys, "play", "--players", 2, "--bots", "basic", "--seed", 1)
    assert code == 0, err
    named = re.search(r"the game file: (\S+)", out).group(1)
    assert (tmp_path / named).exists() and first.read_text() == "taken"


def test_a_table_of_seven_names_its_two_decks_and_fits_80_x_24(tmp_path, capsys):
    save = tmp_path / "g.json"
    rules, seen = basic_game(["players=7"], seed=3)
    assert rules.decks == 2
    child = spawn("--players", 7, "--bots", "basic", "--seed", 3, "--save", save)
    child.expect(r"seed 3, 7 players, two decks \(V7\)")
    screens = []
    play_basic_moves(child, seen, screens=screens, one_deck=False)  # every screen: at most 80 x 24
    child.expect(r"review your decisions now\? \(y/N\)")
    assert max(len(line) for line in ANSI.sub("", child.before).splitlines() if str(tmp_path) not in line) <= 80
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    titles = [screen.strip().splitlines()[0] for screen in screens]
    assert all("|  7 players, two decks (V7)  |" in title for title in titles), titles[:3]
    assert any(len(screen.splitlines()) >= 20 for screen in screens)  # the moves since fill the screen
    assert trace(capsys, "--game-file", save) == trace(capsys, "--players", 7, "--strategies", "basic", "--seed", 3)


def test_cards_typed_with_suit_letters_are_read_and_errors_quote_the_answer(tmp_path):
    """With letter suits on screen (`6C`), a card typed as shown plays it; a card not held is one
    line quoting the answer as typed (`3H`, not `3h`)."""
    save = tmp_path / "g.json"
    rules, seen = basic_game(["players=2"], seed=8)
    env = dict(os.environ, NO_COLOR="1", LANG="C", LC_ALL="C", PYTHONIOENCODING="ascii", COLUMNS="80", LINES="24")
    child = pexpect.spawn(IDIOTSIM, ["play", "--players", "2", "--bots", "basic", "--seed", "8", "--save", str(save)],
                          env=env, encoding="ascii", codec_errors="replace", dimensions=(24, 80), timeout=120)
    by_cards = 0
    for move, decision, hidden, hand in seen:
        child.expect(PROMPT)
        screen = ANSI.sub("", child.before.split(CLEAR)[-1])
        assert not re.search("[\u2663\u2666\u2665\u2660]", screen) and re.search(r"\b(10|[2-9JQKA])[CDHS]\b", screen)
        if (decision.obs[ob.DECISION] == ob.TURN and decision.obs[ob.SOURCE] == ob.SRC_HAND and move != PICKUP
                and by_cards < 3):
            rank, count = move & 15, (move >> 4) & 15
            cards = [c for c in hand if c // 4 == rank][-count:]  # any of the rank: suits never matter
            typed_cards = " ".join(RANK_NAMES[c // 4] + "CDHS"[c % 4] for c in cards)
            missing = next(RANK_NAMES[r] + "H" for r in range(13) if r * 4 + 2 not in hand)
            child.sendline(missing)
            child.expect(re.escape(f"'{missing}': you do not hold {missing} where you play from"))
            child.expect(PROMPT)
            child.sendline(typed_cards.lower() if by_cards % 2 else typed_cards)
            by_cards += 1
            continue
        child.sendline(typed(move, decision))
    child.expect(r"review your decisions now\? \(y/N\)")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert by_cards == 3
    assert gamefile.load(save).decisions == gamefile.record_game(
        rules, load_strategies("basic", 2), seed_decks(8, 0, rules), 8, 0).decisions
