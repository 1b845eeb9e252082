"""No spoilers: before a game of `idiotsim play` is finished, `trace`, `analyze` and `review` of its game file
show only what the person's seat could know (the hands the bots kept at the swap, R6, stay hidden; a bot's
decision, which shows its hand, is not analyzed or reviewed) unless --reveal asks for it; a finished game,
or a game of bots, shows everything as before."""
from __future__ import annotations

import json

from helpers import run_cli
from idiotsim.cli.game_commands import seed_decks
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import load_strategies
from idiotsim.table import gamefile

HUMAN = 1


def game_files(tmp_path):
    """A person's game at seat 1 against basic, finished and cut after ten decisions; the finished record."""
    rules = Rules(players=3)
    record = gamefile.record_game(rules, load_strategies("basic", 3), seed_decks(9, 0, rules), 9, 0, human_seat=HUMAN)
    finished = gamefile.save(record, tmp_path / "done.json")
    record.decisions, record.places = record.decisions[:10], None
    return finished, gamefile.save(record, tmp_path / "part.json")


def ok(capsys, *args) -> str:
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    return out


def swaps(out: str) -> dict:
    return {e["seat"]: e for e in map(json.loads, out.splitlines()) if e["action"] == "swap"}


def test_the_trace_of_an_unfinished_game_hides_the_bots_hands(tmp_path, capsys):
    finished, unfinished = game_files(tmp_path)
    full = swaps(ok(capsys, "trace", "--game-file", finished))
    seen = swaps(ok(capsys, "trace", "--game-file", unfinished))
    assert seen[HUMAN] == full[HUMAN]  # the person's own hand
    for seat in (0, 2):
        assert seen[seat]["hand"] is None and seen[seat]["faceup"] == full[seat]["faceup"]
        assert full[seat]["hand"] is not None
    assert swaps(ok(capsys, "trace", "--game-file", unfinished, "--reveal")) == full


def test_the_pretty_replay_after_quit_hides_them_and_says_how_to_see_them(tmp_path, capsys):
    finished, unfinished = game_files(tmp_path)
    lines = ok(capsys, "trace", "--pretty", "--game-file", unfinished).splitlines()
    swap_lines = [line for line in lines if "face-up" in line]
    assert [("hand ? ? ?" in line) for line in swap_lines] == [True, False, True]  # seats 0, 1, 2
    assert lines[-1] == ("(the game file ends here: the game was left unfinished; the hands the bots kept are hidden "
                         "until it is finished, --reveal shows them)")
    revealed = ok(capsys, "trace", "--pretty", "--game-file", unfinished, "--reveal")
    assert "? ? ?" not in revealed and revealed.rstrip().endswith("the game was left unfinished)")
    assert "? ? ?" not in ok(capsys, "trace", "--pretty", "--game-file", finished)


def decision_lines(out: str) -> dict:
    """Trace line -> the seat whose decision it is (swap, play, pickup lines)."""
    return {i: e["seat"] for i, e in enumerate(map(json.loads, out.splitlines()), 1)
            if e["action"] in ("swap", "play", "pickup")}


def test_analyze_of_an_unfinished_game_takes_only_the_persons_decisions(tmp_path, capsys):
    finished, unfinished = game_files(tmp_path)
    lines = decision_lines(ok(capsys, "trace", "--game-file", unfinished, "--reveal"))
    bot_line = next(line for line, seat in lines.items() if seat != HUMAN and line > 3)
    mine = next(line for line, seat in lines.items() if seat == HUMAN and line > 3)
    code, out, err = run_cli(capsys, "analyze", "--game-file", unfinished, "--action", bot_line, "--rollouts", 20)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"trace line {bot_line} is a decision of seat {lines[bot_line]} (basic)" in err and "--reveal" in err
    for args in ((unfinished, mine), (unfinished, bot_line, "--reveal"), (finished, bot_line)):
        result = json.loads(ok(capsys, "analyze", "--game-file", args[0], "--action", *args[1:], "--rollouts", 20,
                               "--json"))
        assert result["moves"]


def test_review_of_an_unfinished_game_takes_only_the_persons_seat(tmp_path, capsys):
    finished, unfinished = game_files(tmp_path)
    code, out, err = run_cli(capsys, "review", unfinished, "--seat", 0, "--rollouts", 20)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "--seat 0: the decisions of seat 0 (basic) show its hand" in err and "--reveal" in err
    for args in ((unfinished,), (unfinished, "--seat", 0, "--reveal"), (finished, "--seat", 0)):
        assert json.loads(ok(capsys, "review", *args, "--rollouts", 20, "--json"))["decisions"] >= 1


def test_reveal_belongs_to_a_game_file(capsys):
    for args in (("trace", "--seed", 1), ("analyze", "--seed", 1, "--action", 3), ("review", "--seed", 1)):
        code, out, err = run_cli(capsys, *args, "--reveal")
        assert code == 2 and "--reveal applies only with" in err and err.count("\n") == 1, err
