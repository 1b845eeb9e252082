"""`idiotsim review`: a planted blunder (a voluntary pickup of a big pile once the talon is gone, R14,
where basic plays) is
found first, with a cost whose 95% CI excludes 0; the JSON, the table and a bot game's review."""
from __future__ import annotations

import json
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
    worst = judged[0]
    assert (worst.line, worst.made) == (line, "pick up")
    assert worst.cost_lo > 0 and worst.basic != "pick up" and worst.best != "pick up"
    assert all(j.cost == 0 and j.cost_lo == j.cost_hi == 0 for j in judged if j.made == j.best)
    total, lo, hi = rv.total_cost(judged)
    assert lo <= total <= hi and total >= worst.cost


def test_review_json_and_table(tmp_path, capsys):
    path, line = blunder_game(tmp_path)
    code, out, err = run_cli(capsys, "review", path, "--rollouts", 500, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["seat"] == 0 and data["rollouts"] == 500 and data["finished"]
    assert data["judged"][0]["line"] == line and data["judged"][0]["made"] == "pick up"
    assert data["judged"][0]["cost_ci"][0] > 0
    code, out, err = run_cli(capsys, "review", path, "--rollouts", 500, "--top", 3)
    assert code == 0, err
    rows = [row for row in out.splitlines() if row.strip().startswith(str(line))]
    assert rows and "pick up" in rows[0]
    assert "total cost" in out and max(map(len, out.splitlines())) <= 80


def test_review_of_a_bot_game_by_seed(capsys):
    code, out, err = run_cli(capsys, "review", "--seed", 3, "--players", 2, "--strategies", "basic,random",
                             "--seat", 1, "--rollouts", 50, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["label"] == "random" and data["decisions"] > 0
    assert data["judged"] == sorted(data["judged"], key=lambda j: -j["cost"])


def test_review_flag_errors(tmp_path, capsys):
    path, _ = blunder_game(tmp_path)
    for args, message in ((["--rollouts", 1], "--rollouts must be 2.."), (["--seat", 3], "--seat must be 0..2"),
                          (["--seed", 1], "a game file holds the whole game")):
        code, out, err = run_cli(capsys, "review", path, *args)
        assert code == 2 and err.count("\n") == 1 and message in err, err
    code, out, err = run_cli(capsys, "review")
    assert code == 2 and "give a game file" in err


def test_short_move_names():
    assert rv.short_name(1 | 2 << 4, ob.TURN) == "3 x2"
    assert rv.short_name(PICKUP, ob.TURN) == "pick up"
    assert rv.short_name(0 + 13 * 11 + 169 * 9, ob.SWAP) == "up 2 K J"
    assert np.isclose(rv.Z95, 1.96, atol=1e-3)
