"""`idiotsim review`: a planted blunder (a voluntary pickup of a big pile once the talon is gone, R14,
where basic plays) is found first, with a cost whose 95% CI excludes 0 and a verdict above `close`;
the verdicts follow their stated thresholds; no cost is shown below 0 and no number as -0.000; a
2-player game's summary stays within the 1..2 place scale; the default output fits 80 x 24 and
--all lists every decision; the line numbers are those of the `trace --pretty` command the review
names; the JSON, and a bot game's review."""
from __future__ import annotations

import json
import re
from types import SimpleNamespace

import numpy as np

from helpers import run_cli
from idiotsim.game import observation as ob
from idiotsim.cli.game_commands import seed_decks
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import SeatStrategy, load_strategies
from idiotsim.strategies.toolkit import Strategy
from idiotsim.table import gamefile
from idiotsim.table import review as rv
from idiotsim.game.moves import PICKUP

BLUNDER_PILE = 8  # the pile the blunderer takes although it could play, once the talon is empty


def blunder_game(tmp_path, seed: int = 1):
    """A 3-player game of basic where seat 0 once picks up a pile of BLUNDER_PILE or more cards
    instead of playing, after the talon is gone; returns the game file and the blunder's trace line."""
    rules = Rules(players=3)
    seats = load_strategies("basic", 3)
    basic = seats[0]
    planted = {}

    def decide(obs, hand, params, rng):
        move = int(basic.decide.py_func(obs, hand, params, rng))
        planted.setdefault("decisions", 0)
        planted["decisions"] += 1
        if ("at" not in planted and obs[ob.DECISION] == ob.TURN and obs[ob.TALON_SIZE] == 0
                and obs[ob.PILE_SIZE] >= BLUNDER_PILE and move != PICKUP):
            planted["at"] = planted["decisions"]  # seat 0's how-manieth decision
            return PICKUP
        return move

    blunderer = SeatStrategy("blunderer", Strategy("blunderer", SimpleNamespace(py_func=decide), ""), basic.params)
    record = gamefile.record_game(rules, [blunderer, *seats[1:]], seed_decks(seed, 0, rules), seed, 0, human_seat=0)
    assert "at" in planted, "no pile big enough in this game: choose another seed"
    path = gamefile.save(record, tmp_path / "blunder.json")
    events, _ = gamefile.replay(record)
    lines = [i + 1 for i, e in enumerate(events) if e["action"] in ("swap", "play", "pickup")]
    seat0 = [line for line, (seat, _) in zip(lines, record.decisions) if seat == 0]
    return path, seat0[planted["at"] - 1]


def test_review_finds_the_planted_blunder_first_with_a_cost_whose_ci_excludes_zero(tmp_path):
    path, line = blunder_game(tmp_path)
    judged = rv.review(gamefile.load(path), 0, rollouts=1_000)
    worst = rv.costliest(judged)[0]
    assert (worst.line, worst.made) == (line, "pick up")
    assert worst.cost_lo > 0 and worst.basic != "pick up" and worst.best != "pick up"
    assert worst.verdict in ("inaccuracy", "mistake", "blunder")
    assert all(j.cost == 0 and j.cost_lo == j.cost_hi == 0 and j.verdict == "best" for j in judged if j.made == j.best)
    assert [j.line for j in judged] == sorted(j.line for j in judged)  # in the order played


def check_verdicts(judged, players):
    """Every verdict as the module's docstring states it, and no cost below 0."""
    least = rv.thresholds(players)
    assert least == {"inaccuracy": 0.01 * (players - 1), "mistake": 0.03 * (players - 1),
                     "blunder": 0.07 * (players - 1)}
    for j in judged:
        assert 0 <= j.cost_lo <= j.cost <= j.cost_hi and j.cost == max(j.diff, 0)
        if j.made == j.best:
            expected = "best"
        elif j.diff_lo <= 0 or j.diff < least["inaccuracy"]:
            expected = "close"
        else:
            expected = "blunder" if j.diff >= least["blunder"] else "mistake" if j.diff >= least["mistake"] \
                else "inaccuracy"
        assert j.verdict == expected, j


def test_verdicts_follow_the_thresholds_and_no_cost_is_below_zero(tmp_path):
    record = gamefile.record_game(Rules(players=2), load_strategies("basic,random", 2), seed_decks(3, 0, Rules(players=2)),
                                  3, 0)
    noisy = rv.review(record, 1, rollouts=50)  # few samples: some moves measure better than the search's pick
    assert any(j.diff < 0 for j in noisy) and {j.verdict for j in noisy} >= {"best", "close"}
    check_verdicts(noisy, 2)
    judged = rv.review(record, 1, rollouts=2_000)
    check_verdicts(judged, 2)
    assert {"best", "close", "inaccuracy", "mistake", "blunder"} <= {j.verdict for j in judged + noisy}
    for j in noisy + judged:
        text = rv.cost_text(j.diff, j.diff_lo, j.diff_hi)
        assert "-" not in text and (text == "0" or float(text.split()[0]) == round(j.cost, len(text.split()[0]) - 2))


def numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"(?<![\w.])-?\d+\.\d+", text)]


def test_a_two_player_review_stays_within_the_place_scale_and_fits_one_screen(capsys):
    args = ("review", "--seed", 3, "--players", 2, "--strategies", "basic,random", "--seat", 1, "--rollouts", 2_000)
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) <= 23 and max(map(len, lines)) <= 80, out  # 80 x 24 with the shell's prompt
    assert "-0.0" not in out and "total" not in out
    summary = out.split("\n\n")[0]
    assert "place scale 1..2" in summary and all(0 <= x <= 1 for x in numbers(summary)), summary
    counts = dict(re.findall(r"(best|close|inaccuracy|mistake|blunder) (\d+)", summary))
    decisions = int(re.search(r"(\d+) decisions with a choice", summary).group(1))
    assert set(counts) == set(rv.VERDICTS) and sum(map(int, counts.values())) == decisions
    assert re.search(rf"matched the search's best move at {counts['best']} of {decisions} ", summary)
    rows = [line for line in lines if re.match(r"^\s+\d+  (best|close|inaccuracy|mistake|blunder) ", line)]
    assert 3 <= len(rows) < decisions and f"{decisions - len(rows)} more: --all" in out
    costs = [numbers(row)[0] if numbers(row) else 0 for row in rows]
    assert costs == sorted(costs, reverse=True) or rows[0].split()[1] == "blunder"
    code, every, err = run_cli(capsys, *args, "--all")
    assert code == 0, err
    listed = [int(line.split()[0]) for line in every.splitlines()
              if re.match(r"^\s+\d+  (best|close|inaccuracy|mistake|blunder) ", line)]
    assert len(listed) == decisions and listed == sorted(listed) and max(map(len, every.splitlines())) <= 80
    code, data, err = run_cli(capsys, *args, "--json")
    data = json.loads(data)
    assert "total_cost" not in data and 0 <= data["mean_cost_ci"][0] <= data["mean_cost"] <= data["mean_cost_ci"][1] <= 1
    assert data["verdicts"] == {k: int(v) for k, v in counts.items()} and data["matched_best"] == int(counts["best"])
    assert all(j["cost"] >= 0 and j["cost_ci"][0] >= 0 for j in data["judged"])


def test_the_line_numbers_are_those_of_the_trace_command_the_review_names(tmp_path, capsys):
    path, blunder_line = blunder_game(tmp_path)
    code, out, err = run_cli(capsys, "review", path, "--rollouts", 200, "--all")
    assert code == 0, err
    command = re.search(r"\(line: as numbered by (idiotsim trace .*?)\):", " ".join(out.split())).group(1)
    assert command == f"idiotsim trace --pretty --game-file {path}"
    code, pretty, err = run_cli(capsys, *command.split()[1:])
    assert code == 0, err
    numbered = {int(m.group(1)): m.group(2) for m in map(re.compile(r"^\s*(\d+) +(\S.*)$").match,
                                                        pretty.splitlines()) if m}
    code, trace_json, err = run_cli(capsys, "trace", "--game-file", path)
    events = [json.loads(line) for line in trace_json.splitlines()]
    assert sorted(numbered) == list(range(1, len(events) + 1))
    assert numbered[blunder_line].startswith("seat 0  picks up") and events[blunder_line - 1]["action"] == "pickup"
    for row in (line for line in out.splitlines() if re.match(r"^\s+\d+  (best|close|inaccuracy|mistake|blunder) ", line)):
        line, made = int(row.split()[0]), row.split()[2]
        event = events[line - 1]
        assert event["seat"] == 0 and numbered[line].startswith("seat 0  ")
        assert event["action"] == {"up": "swap", "pick": "pickup"}.get(made, "play")
        if event["action"] == "play":
            assert event["rank"] == made and f"plays {made}" in numbered[line]


def test_review_json(tmp_path, capsys):
    path, line = blunder_game(tmp_path)
    code, out, err = run_cli(capsys, "review", path, "--rollouts", 500, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["seat"] == 0 and data["rollouts"] == 500 and data["finished"] and data["players"] == 3
    worst = max(data["judged"], key=lambda j: j["cost"])
    assert worst["line"] == line and worst["made"] == "pick up" and worst["cost_ci"][0] > 0
    assert [j["line"] for j in data["judged"]] == sorted(j["line"] for j in data["judged"])
    code, out, err = run_cli(capsys, "review", path, "--rollouts", 500, "--top", 3)
    assert code == 0, err
    rows = [row for row in out.splitlines() if re.match(r"^\s+\d+  [a-z]", row)]
    assert len(rows) == 3 and rows[0].split()[0] == str(line) and "pick up" in rows[0]
    assert "mean cost per decision" in out and max(map(len, out.splitlines())) <= 80


def test_review_of_a_bot_game_by_seed(capsys):
    code, out, err = run_cli(capsys, "review", "--seed", 3, "--players", 2, "--strategies", "basic,random",
                             "--seat", 1, "--rollouts", 50, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["label"] == "random" and data["decisions"] > 0
    code, out, err = run_cli(capsys, "review", "--seed", 3, "--players", 2, "--strategies", "basic,random",
                             "--seat", 1, "--rollouts", 50)
    assert "review of seat 1 (random), a 2-player game" in out
    command = re.search(r"\(line: as numbered by (idiotsim trace .*?)\):", " ".join(out.split())).group(1)
    assert command == "idiotsim trace --seed 3 --players 2 --strategies basic,random --pretty"


def test_review_flag_errors(tmp_path, capsys):
    path, _ = blunder_game(tmp_path)
    for args, message in ((["--rollouts", 1], "--rollouts must be 2.."), (["--seat", 3], "--seat must be 0..2"),
                          (["--seed", 1], "a game file holds the whole game"),
                          (["--top", 3, "--all"], "at most one of --top and --all")):
        code, out, err = run_cli(capsys, "review", path, *args)
        assert code == 2 and err.count("\n") == 1 and message in err, err
    code, out, err = run_cli(capsys, "review")
    assert code == 2 and "give a game file" in err


def test_short_move_names():
    assert rv.short_name(1 | 2 << 4, ob.TURN) == "3 x2"
    assert rv.short_name(PICKUP, ob.TURN) == "pick up"
    assert rv.short_name(0 + 13 * 11 + 169 * 9, ob.SWAP) == "up 2 K J"
    assert np.isclose(rv.Z95, 1.96, atol=1e-3)
