"""The answers' messages at the table say what is true and fit 80 columns: "one 5", not "1..1 of your
5s"; "you hold no 8" when the seat holds none (not "no 8 can be played"); the messages for an answer that
is not a move fit a line with their prompt; and in a terminal wider than 80 columns every line the
session prints still fits 80 (the screen is laid out for 80 x 24)."""
from __future__ import annotations

import io
import os
import re

import numpy as np
import pexpect

from idiotsim.game import observation as ob
from idiotsim.game.moves import PICKUP, play
from idiotsim.table.answers import Move, parse
from test_table_play import ANSI, IDIOTSIM, PROMPT, compiled_for_the_child  # noqa: F401 (the module's fixture)

FIVE, SEVEN, EIGHT, JACK = 3, 5, 6, 9


def card(rank: int, suit: int = 0) -> int:
    return rank * 4 + suit


def turn(text: str, moves, cards) -> str:
    answer = parse(text, ob.TURN, moves, np.zeros(13, np.int64), cards)
    return answer.error


def test_a_single_card_is_one_not_one_to_one():
    moves = [Move(play(FIVE, 1, 0), ""), Move(play(SEVEN, 1, 0), ""), Move(play(SEVEN, 2, 0), ""), Move(PICKUP, "")]
    cards = [card(FIVE), card(SEVEN), card(SEVEN, 1), card(JACK)]
    assert turn("2 5s", moves, cards) == "'2 5s': you can play one 5 now, not 2"
    assert turn("3 7s", moves, cards) == "'3 7s': you can play 1..2 of your 7s now, not 3"


def test_a_rank_not_held_is_named_as_not_held():
    moves = [Move(play(FIVE, 1, 0), ""), Move(PICKUP, "")]
    cards = [card(FIVE), card(JACK)]  # a jack is held but may not be played now
    assert turn("8", moves, cards) == "'8': you hold no 8 where you play from"
    assert turn("8s", moves, cards) == "'8s': you hold no 8 where you play from"
    assert turn("J", moves, cards) == "'J': no J can be played now"


def test_the_not_a_move_messages_fit_a_line_with_their_prompt():
    moves = [Move(play(r, 1, 0), "") for r in range(12)] + [Move(PICKUP, "")]
    cards = [card(r) for r in range(12)]
    swaps = [Move(1 + 13 * 9 + 169 * 12, "")]
    messages = [turn("x", moves, cards), parse("xyz", ob.SWAP, swaps, None, cards).error,
                parse("", ob.TURN, moves, None, cards).error]
    assert messages[0] == "'x' is not a move: type 1..13, a play (3 7s, 7H), pickup, hint or quit"
    assert messages[1] == "'xyz': at the swap, type 1..1 from the list, or three ranks (K A 2)"
    many = [Move(1 + 13 * 9 + 169 * r, "") for r in range(10, 12)] * 10  # 20 rows of the list
    messages.append(parse("99", ob.SWAP, many, None, cards).error)
    assert messages[3] == "'99': at the swap, type 1..20 from the list, or three ranks (K A 2)"
    assert max(len(m) for m in messages) <= 72  # room for an answer of several letters


def test_a_wide_terminal_still_gets_lines_of_80_columns(tmp_path):
    """At 140 columns the screen is drawn at 80 (as before), and so is every message: the answers' errors, the
    help, the next steps after quit (a long command broken with the shell's backslash)."""
    env = dict(os.environ, NO_COLOR="1", LANG="C.UTF-8", LC_ALL="C.UTF-8", PYTHONIOENCODING="utf-8")
    save = "a-game-file-named-at-length-to-push-its-next-steps-past-80-columns.json"  # 71 columns
    child = pexpect.spawn(IDIOTSIM, ["play", "--players", "2", "--bots", "basic", "--seed", "3", "--save", save],
                          env=env, encoding="utf-8", dimensions=(40, 140), timeout=120, cwd=str(tmp_path))
    child.logfile_read = io.StringIO()
    for answer in ("x", "xyz plugh", "help", "1", "y", "8", "2 5s", "hint"):
        child.expect(PROMPT)
        child.sendline(answer)
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    lines = [line.split("\r")[-1] for line in ANSI.sub("", child.logfile_read.getvalue()).split("\r\n")]
    answered = re.compile(r"^your move \(.*\): ")  # a prompt line ends in the answer typed
    wide = [line for line in lines if len(line) > 80 and not answered.match(line)]
    assert wide == [], "\n".join(wide)
    steps = [line for line in lines if line.startswith("  continue:")]
    assert steps and steps[0].endswith(" \\")  # continued on the next line, as a shell reads it
    assert lines.count(f"  {save}") == 4  # under "the game file:" and each next step, as the lines before say
