"""`idiotsim analyze` (idiotsim.analysis.position_analysis): positions from replayed games and from position files,
the legal moves, and the judgement (mean places, win rates, paired differences) from the matrix of
places on common sampled states."""
from __future__ import annotations

import json

import numpy as np
import pytest
from helpers import cli_ok, cli_user_error, write_position

from idiotsim.analysis import position_analysis as an
from idiotsim.engine import rollouts
from idiotsim.game import observation as ob
from idiotsim.game.cards import RANK_OF_NAME
from idiotsim.errors import UserError
from idiotsim.analysis.replayed_states import decision_positions
from idiotsim.game.rules import Rules, read_toml
from idiotsim.engine.hidden_cards import copy_live_table
from idiotsim.game.moves import CHANCE, PICKUP, play
from idiotsim.strategies.loading import load_strategies
from idiotsim.cli.game_commands import seed_decks

RULES = Rules(players=4)
SEED, GAME = 7, 3
T95_DF19 = 2.093  # two-sided 95% t quantile, 19 degrees of freedom (K = 20)


def trace_events(seed=SEED, game=GAME):
    from idiotsim.game.reference import play_match
    return play_match(seed_decks(seed, game, RULES), RULES, load_strategies("basic", 4), seed, game).events


def replayed(line: int) -> an.Position:
    return an.position_from_game(RULES, load_strategies("basic", 4), seed_decks(SEED, GAME, RULES), SEED, GAME, line)


def turn_lines(events) -> list[int]:
    return [i + 1 for i, e in enumerate(events) if e["action"] in ("play", "pickup") and e.get("from") != "blind"]


def test_a_replayed_position_is_the_decision_on_that_trace_line():
    events = trace_events()
    turns = {(p["round"], int(p["obs"][ob.ACTIONS])): p for p in decision_positions(RULES, "basic", SEED, GAME)}
    for line in turn_lines(events)[:40:7]:
        position = replayed(line)
        event = events[line - 1]
        assert position.seat == event["seat"]
        truth = turns[(event["round"], int(position.obs[ob.ACTIONS]))]
        np.testing.assert_array_equal(position.obs, truth["obs"])
        np.testing.assert_array_equal(position.hand, truth["hand"])
        basic_move = int(an.legal_moves(position)[0])  # basic's move is listed first
        if event["action"] == "pickup":
            assert basic_move == PICKUP
        else:
            assert basic_move & 15 == RANK_OF_NAME[event["rank"]] and (basic_move >> 4) & 15 == event["count"]
    swap = replayed(1)
    assert swap.decision == ob.SWAP and swap.seat == 0 and swap.hand.sum() == 3


def test_lines_that_are_not_decisions_are_refused(capsys):
    events = trace_events()
    out_line = next(i + 1 for i, e in enumerate(events) if e["action"] == "out")
    base = ("analyze", "--players", 4, "--seed", SEED, "--game", GAME, "--rollouts", 4)
    assert "'out' event" in cli_user_error(capsys, *base, "--action", out_line)
    assert "lines 1.." in cli_user_error(capsys, *base, "--action", len(events) + 1)
    assert "--action" in cli_user_error(capsys, "analyze", "--players", 4, "--seed", SEED)


def every_code(decks: int = 1):
    codes = [PICKUP, CHANCE]
    for rank in range(13):
        for count in range(1, 4 * decks + 1):
            codes += [play(rank, count, extra) for extra in range(4)]
    return codes


@pytest.mark.parametrize("rules", [RULES, Rules(players=3, chance=True, last_hand_with_faceup=True)])
def test_the_moves_listed_are_every_legal_move(rules):
    checked = 0
    for game in range(3):
        for position in decision_positions(rules, "basic", 11, game, decisions=(ob.TURN,))[::5]:
            state = position["state"]
            legal = set()
            for code in every_code():
                trial = np.zeros_like(state)
                copy_live_table(state, trial)
                if rollouts.act(trial, position["seat"], code) >= 0:
                    legal.add(code)
            moves = an.legal_moves(an.Position(rules, position["obs"], position["hand"]))
            assert len(set(moves.tolist())) == len(moves)
            assert set(moves.tolist()) == legal
            checked += 1
    assert checked > 20


def test_intervals_and_paired_differences_from_the_matrix():
    position = replayed(25)
    moves = an.legal_moves(position)
    places = an.judge(position, moves, rollouts=20, seed=3)
    assert places.shape == (20, len(moves)) and places.min() >= 1 and places.max() <= 4
    rows = an.summarize(places)
    means = places.mean(axis=0)
    best = int(np.argmin(means))
    assert [r.best for r in rows] == [i == best for i in range(len(moves))]
    for i, row in enumerate(rows):
        half = T95_DF19 * places[:, i].std(ddof=1) / np.sqrt(20)
        assert row.mean_place == pytest.approx(means[i])
        assert (row.place_lo, row.place_hi) == pytest.approx((means[i] - half, means[i] + half), abs=1e-3)
        assert row.win_rate == pytest.approx((places[:, i] == 1).mean())
        assert row.win_lo <= row.win_rate <= row.win_hi
        d = places[:, i] - places[:, best]
        d_half = T95_DF19 * d.std(ddof=1) / np.sqrt(20)
        assert row.diff == pytest.approx(d.mean())
        if d.std() > 0:
            assert (row.diff_lo, row.diff_hi) == pytest.approx((d.mean() - d_half, d.mean() + d_half), abs=1e-3)
    # common random numbers: a move's column does not depend on the other moves judged with it
    np.testing.assert_array_equal(an.judge(position, moves[::-1], rollouts=20, seed=3), places[:, ::-1])
    assert not np.array_equal(an.judge(position, moves, rollouts=20, seed=4), places)


def test_precision_plays_until_the_best_move_is_separated():
    position = replayed(25)
    moves = an.legal_moves(position)
    places = an.judge_to_precision(position, moves, half_width=0.2, cap=2_000)
    rows = an.summarize(places)
    others = [r for r in rows if not r.best]
    assert places.shape[0] % an.PRECISION_BATCH == 0 and places.shape[0] <= 2_000
    assert all(r.diff_lo > 0 for r in others) or max(r.diff_half for r in others) <= 0.2
    np.testing.assert_array_equal(places[:an.PRECISION_BATCH], an.judge(position, moves, an.PRECISION_BATCH))


def test_a_position_file_round_trip(tmp_path, capsys):
    for line in (1, 25, 60, 80, 95):
        position = replayed(line)
        path = tmp_path / f"p{line}.toml"
        path.write_text(an.position_toml(position))
        again = an.position_from_file(str(path))
        np.testing.assert_array_equal(again.obs, position.obs)
        np.testing.assert_array_equal(again.hand, position.hand)
    saved = tmp_path / "saved.toml"
    cli_ok(capsys, "analyze", "--players", 4, "--seed", SEED, "--game", GAME, "--action", 25, "--rollouts", 8,
           "--save-position", saved)
    table = cli_ok(capsys, "analyze", saved, "--rollouts", 8)
    assert "seat 3 to play" in table and "(best)" in table and "basic" in table
    assert "exists already" in cli_user_error(capsys, "analyze", "--players", 4, "--seed", SEED, "--action", 25,
                                              "--save-position", saved)


@pytest.mark.parametrize("mask_name, mask_at, free_name, free_at",
                         [("pickup_legal", ob.PICKUP_LEGAL, "pickup_free", ob.PICKUP_FREE),
                          ("lacks", ob.LACKS, "lacks_free", ob.LACKS_FREE)])
def test_a_position_file_keeps_the_pickup_and_play_facts(tmp_path, mask_name, mask_at, free_name, free_at):
    data = good_position()
    data["seats"][0].update({mask_name: ["Q", "K", "A", "2", "10"], free_name: 1})
    position = an.position_from_dict(data)
    assert position.obs[mask_at] == sum(1 << r for r in (10, 11, 12, 0, 8))
    assert position.obs[free_at] == 1 and position.obs[mask_at + 1] == 0
    other_at = ob.LACKS if mask_at == ob.PICKUP_LEGAL else ob.PICKUP_LEGAL
    assert position.obs[other_at] == 0
    path = tmp_path / "p.toml"
    path.write_text(an.position_toml(position))
    np.testing.assert_array_equal(an.position_from_file(str(path)).obs, position.obs)
    data["seats"][0][free_name] = -1
    with pytest.raises(UserError, match=free_name):
        an.position_from_dict(data)
    data["seats"][0][mask_name] = ["Q", "X"]
    with pytest.raises(UserError, match=mask_name):
        an.position_from_dict(data)


def good_position() -> dict:
    return {
        "position": {"seat": 1, "hand": ["3", "7", "7", "K"]},
        "pile": {"cards": ["4", "5", "5"], "burned": ["10", "9", "9", "9", "9"], "talon": 0},
        "seats": [
            {"faceup": ["8", "A"], "hand": 2, "blind": 3, "known": ["Q"]},
            {"faceup": ["2", "J", "Q"], "hand": 4, "blind": 3},
            {"faceup": [], "hand": 0, "blind": 0, "place": 1},
            {"faceup": [], "hand": 25, "blind": 2},  # 52 cards in all
        ],
    }


def test_a_hand_entered_position(tmp_path, capsys):
    data = good_position()
    path = tmp_path / "good.toml"
    write_position(path, data)
    position = an.position_from_file(str(path))
    assert position.obs[ob.PILE_TOP] == RANK_OF_NAME["5"] and position.obs[ob.PILE_RUN] == 2
    assert position.obs[ob.CAN_PICKUP] == 1 and position.obs[ob.SOURCE] == ob.SRC_HAND
    out = json.loads(cli_ok(capsys, "analyze", path, "--rollouts", 16, "--json"))
    names = [m["move"] for m in out["moves"]]
    assert names[0].startswith("play 7 x") and "pick up" in names and "play 3 x1 from hand" not in names
    assert out["rollouts"] == 16 and sum(m["best"] for m in out["moves"]) == 1
    assert all(m["mean_place_ci"][0] <= m["mean_place"] <= m["mean_place_ci"][1] for m in out["moves"])
    assert "basic" in out["moves"][0]["chosen_by"]


def broken(change) -> dict:
    data = good_position()
    change(data)
    return data


BAD_POSITIONS = {
    "seats[0].known": lambda d: d["seats"][0].update(known=["Q", "K", "A"]),
    "position.seat": lambda d: d["position"].update(seat=4),
    "pile.talon": lambda d: d["seats"][3].update(hand=26),
    "seats[3].hand": lambda d: d["seats"][3].update(hand=-1),
    "seats/pile": lambda d: d["pile"].update(cards=["4", "5", "5", "7", "7", "7"]),
    "pile.top": lambda d: d["pile"].update(top="K", run=1),
    "pile.run": lambda d: d["pile"].update(cards=["5", "5", "5", "5"], top="5", run=4),
    "seats[2].place": lambda d: d["seats"][2].update(hand=1) or d["seats"][3].update(hand=4),
    "seats[1].hand": lambda d: d["seats"][1].update(hand=3),
    "seats[0].faceup": lambda d: d["seats"][0].update(faceup=["8", "A", "Z"]),
    "seats[3].blind": lambda d: d["seats"][3].update(faceup=["4"], hand=4),
    "rules.players": lambda d: d.update(rules={"players": 3}),
    "seats[0].colour": lambda d: d["seats"][0].update(colour="red"),
}


@pytest.mark.parametrize("field", list(BAD_POSITIONS))
def test_an_inconsistent_position_file_is_one_error_naming_the_field(tmp_path, capsys, field):
    path = tmp_path / "bad.toml"
    write_position(path, broken(BAD_POSITIONS[field]))
    line = cli_user_error(capsys, "analyze", path, "--rollouts", 4)
    assert field in line, line


def test_option_mistakes(tmp_path, capsys):
    path = tmp_path / "good.toml"
    write_position(path, good_position())
    assert "--rollouts" in cli_user_error(capsys, "analyze", path, "--rollouts", 0)
    assert "at most one" in cli_user_error(capsys, "analyze", path, "--rollouts", 5, "--precision", 0.1)
    assert "drop --seed" in cli_user_error(capsys, "analyze", path, "--seed", 1)
    assert "cannot read" in cli_user_error(capsys, "analyze", tmp_path / "missing.toml")
    assert read_toml(path, "position file")["position"]["seat"] == 1
