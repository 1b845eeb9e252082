"""`idiotsim analyze` shows the cards with their suits: the physical cards of a replayed game
(the reference engine keeps card codes), and the suits a position file gives.

A replayed game's cards are checked at every decision: each zone holds exactly the ranks the
observation counts, and over all zones every card of the round's deck is in exactly one place.
The printed position shows exactly the cards the seat sees, with their true suits, and no hidden
card."""
from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from helpers import cli_ok, cli_user_error, write_position

from idiotsim.analysis import position_analysis as an
from idiotsim.game import observation as ob
from idiotsim.game.cards import card_name
from idiotsim.cli.game_commands import seed_decks
from idiotsim.game.observation import NR
from idiotsim.analysis.positions import Card, seen_cards
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import load_strategies

SEED, GAME = 7, 3


def rank_counts(codes) -> np.ndarray:
    return np.bincount([c // 4 for c in codes], minlength=NR)


def row(obs, start: int, seat: int) -> np.ndarray:
    return obs[start + seat * NR: start + (seat + 1) * NR]


def zones(table: an.TableCards) -> list:
    return [*table.hands, *table.faceup, *table.blind, table.pile, table.talon, table.burned]


def replay(rules: Rules, seed: int = SEED, game: int = GAME, strategies: str = "basic"):
    decks = seed_decks(seed, game, rules)
    events, decisions = an.replay_decisions(rules, load_strategies(strategies, rules.players), decks, seed, game)
    return decks, events, decisions


def check_turn_zones(decision: an.Decision, n: int) -> None:
    obs, table = decision.obs, decision.table
    seat = int(obs[ob.SEAT])
    np.testing.assert_array_equal(rank_counts(table.hands[seat]), decision.hand)
    for s in range(n):
        np.testing.assert_array_equal(rank_counts(table.faceup[s]), row(obs, ob.FACEUP, s))
        assert len(table.hands[s]) == obs[ob.HAND_SIZE + s]
        assert len(table.blind[s]) == obs[ob.BLIND_SIZE + s]
    np.testing.assert_array_equal(rank_counts(table.pile), obs[ob.PILE_COUNTS: ob.PILE_COUNTS + NR])
    np.testing.assert_array_equal(rank_counts(table.burned), obs[ob.BURNED: ob.BURNED + NR])
    assert len(table.talon) == obs[ob.TALON_SIZE]
    if table.pile:
        assert table.pile[-1] // 4 == obs[ob.PILE_TOP]


@pytest.mark.parametrize("rules, strategies", [(Rules(players=4), "basic"),
                                               (Rules(players=3, rounds=2), "basic,random,heuristic"),
                                               (Rules(players=6), "basic")])  # 6 players: two decks (V7)
def test_every_card_of_a_replayed_game_is_in_exactly_one_zone_with_the_observed_ranks(rules, strategies):
    decks, events, decisions = replay(rules, strategies=strategies)
    assert len(decisions) == sum(e["action"] in an.DECISION_EVENTS for e in events)
    turns = 0
    for decision in decisions:
        obs = decision.obs
        deck = Counter(int(c) for c in decks[int(obs[ob.ROUND]) - 1])
        placed = Counter(c for zone in zones(decision.table) for c in zone)
        assert placed == deck  # every card once per deck: nothing lost, nothing twice
        if obs[ob.DECISION] == ob.SWAP:
            seat = int(obs[ob.SEAT])
            np.testing.assert_array_equal(rank_counts(decision.table.hands[seat]), decision.hand)
            np.testing.assert_array_equal(rank_counts(decision.table.faceup[seat]), row(obs, ob.FACEUP, seat))
        else:
            check_turn_zones(decision, rules.players)
            turns += 1
    assert turns > 30 and any(d.table.burned for d in decisions) and any(d.table.pile for d in decisions)


def suited_tokens(lines: list[str]) -> Counter:
    """The card codes (``10H``) printed in the position's lines (rank-only cards have no suit letter)."""
    names = {card_name(c) for c in range(52)}
    return Counter(t.strip(",;()") for line in lines for t in line.split() if t.strip(",;()") in names)


def test_the_printed_position_shows_the_true_suits_of_what_the_seat_sees_and_nothing_hidden():
    rules = Rules(players=4)
    decks, events, decisions = replay(rules)
    lines_checked = 0
    for line in [i + 1 for i, e in enumerate(events) if e["action"] in an.DECISION_EVENTS][::6]:
        position = an.position_from_game(rules, load_strategies("basic", 4), decks, SEED, GAME, line)
        table = decisions[sum(e["action"] in an.DECISION_EVENTS for e in events[:line - 1])].table
        seat = position.seat
        if position.decision == ob.SWAP:
            visible = [*table.hands[seat], *table.faceup[seat]]
        else:
            visible = [*table.hands[seat], *(c for r in table.faceup for c in r), *table.pile, *table.burned]
        shown = suited_tokens(an.position_lines(position, symbols=False))
        assert shown == Counter(card_name(c) for c in visible), line
        lines_checked += 1
    assert lines_checked > 10


def test_the_pile_is_shown_top_first_with_the_trace_cards():
    rules = Rules(players=4)
    position = an.position_from_game(rules, load_strategies("basic", 4), seed_decks(SEED, GAME, rules), SEED, GAME, 25)
    lines = an.position_lines(position, symbols=False)
    # idiotsim trace --pretty, line 24 of this game: "pile (4): 5♥ 5♦ J♦ J♠", bottom first
    assert "  pile (4, top first): JS JD 5D 5H" in lines
    assert "burned: 7C 7D 7H 7S" in lines[2]
    assert any(ln.startswith("> seat 3: face-up 5S QD 10H | hand 3C 3D 3S 4C 4S") for ln in lines)
    assert "\u2660" in "\n".join(an.position_lines(position))  # symbols by default


def test_json_carries_the_cards_and_keeps_its_keys(capsys):
    out = json.loads(cli_ok(capsys, "analyze", "--players", 4, "--seed", SEED, "--game", GAME, "--action", 25,
                            "--rollouts", 4, "--json"))
    assert set(out) == {"position", "cards", "rollouts", "moves"}
    assert out["position"]["pile"]["cards"] == ["5", "5", "J", "J"]  # ranks as before, bottom first
    cards = out["cards"]
    assert cards["pile_top_first"] == ["JS", "JD", "5D", "5H"] and cards["pile_in_order"]
    assert cards["burned"] == ["7C", "7D", "7H", "7S"]
    assert cards["faceup"][3] == ["5S", "QD", "10H"] and cards["hand"][:3] == ["3C", "3D", "3S"]
    assert out["position"]["position"]["hand"] == sorted((c[:-1] for c in cards["hand"]),
                                                         key=lambda r: ["2", "3", "4", "5", "6", "7", "8", "9",
                                                                        "10", "J", "Q", "K", "A"].index(r))


def test_a_saved_position_keeps_its_suits(tmp_path, capsys):
    saved = tmp_path / "saved.toml"
    first = cli_ok(capsys, "analyze", "--players", 4, "--seed", SEED, "--game", GAME, "--action", 25,
                   "--rollouts", 4, "--save-position", saved)
    assert 'hand = ["3C", "3D", "3S", "4C", "4S"' in saved.read_text()
    again = cli_ok(capsys, "analyze", saved, "--rollouts", 4)
    position_part = [ln for ln in first.splitlines() if ln.startswith(("  ", ">"))][:7]
    assert position_part == [ln for ln in again.splitlines() if ln.startswith(("  ", ">"))][:7]


# ---- position files ------------------------------------------------------------------------

def suited_position() -> dict:
    return {
        "position": {"seat": 1, "hand": ["3C", "7H", "7", "KS"]},
        "pile": {"cards": ["4D", "5", "5S"], "burned": ["10H", "9C", "9D", "9H", "9S"], "talon": 0},
        "seats": [
            {"faceup": ["8", "AS"], "hand": 2, "blind": 3, "known": ["QH"]},
            {"faceup": ["2C", "J\u2665", "Q"], "hand": 4, "blind": 3, "known": ["7H"]},
            {"faceup": [], "hand": 0, "blind": 0, "place": 1},
            {"faceup": [], "hand": 25, "blind": 2},
        ],
    }


def test_a_position_file_with_suits_shows_them_where_given(tmp_path):
    path = tmp_path / "suited.toml"
    write_position(path, suited_position())
    position = an.position_from_file(str(path))
    seen = seen_cards(position)
    assert seen.hand == (Card(1, 0), Card(5, 2), Card(5), Card(11, 3))
    assert seen.faceup[1] == (Card(0, 0), Card(9, 2), Card(10))
    lines = an.position_lines(position, symbols=False)
    assert "  pile (3, top first): 5S 5 4D" in lines
    assert "burned: 9C 9D 9H 9S 10H" in lines[2]
    assert "  seat 0: face-up 8 AS | hand 2 (known: QH) | blind 3" in lines
    assert "> seat 1: face-up JH Q 2C | hand 3C 7 7H KS | blind 3" in lines
    ranks_only = json.loads(json.dumps(suited_position()).replace("\\u2665", "H"))
    for table in (ranks_only["position"], ranks_only["pile"], *ranks_only["seats"]):
        for key in ("hand", "cards", "burned", "faceup", "known"):
            if isinstance(table.get(key), list):
                table[key] = [c.rstrip("CDHS") for c in table[key]]
    unsuited = an.position_from_dict(ranks_only)
    np.testing.assert_array_equal(unsuited.hand, position.hand)  # suits change nothing the search sees
    np.testing.assert_array_equal(unsuited.obs, position.obs)
    assert not suited_tokens(an.position_lines(unsuited, symbols=False))


def test_a_swap_position_file_with_suits(tmp_path):
    data = {"position": {"seat": 0, "decision": "swap", "hand": ["7H", "8C", "KH"]},
            "seats": [{"faceup": ["7C", "9C", "JC"]}, {}, {}, {}]}
    position = an.position_from_dict(data)
    assert an.position_lines(position, symbols=False)[1] == "  seat 0: face-up 7C 9C JC | hand 7H 8C KH"
    with pytest.raises(Exception, match=r"seats\[0\].faceup: card 7H is given twice \(also in position.hand\)"):
        an.position_from_dict({**data, "seats": [{"faceup": ["7H", "9C", "JC"]}, {}, {}, {}]})


SUIT_MISTAKES = {
    "pile.burned": (lambda d: d["pile"].update(burned=["10H", "9C", "9D", "9H", "9S", "4D"])
                    or d["seats"][3].update(hand=24), "4D is given twice (also in pile.cards)"),
    "position.hand": (lambda d: d["position"].update(hand=["3C", "3C", "7", "KS"]), "3C is given twice"),
    "seats[0].known": (lambda d: d["seats"][0].update(known=["AS"]), "AS is given twice (also in seats[0].faceup)"),
    "seats[1].known": (lambda d: d["seats"][1].update(known=["KH"]), "KH is known to be in the hand"),
    "seats[0].faceup": (lambda d: d["seats"][0].update(faceup=["8X", "AS"]), "unknown card '8X'"),
}


@pytest.mark.parametrize("field", list(SUIT_MISTAKES))
def test_suit_mistakes_are_one_line_naming_the_field(tmp_path, capsys, field):
    change, message = SUIT_MISTAKES[field]
    data = suited_position()
    change(data)
    path = tmp_path / "bad.toml"
    write_position(path, data)
    line = cli_user_error(capsys, "analyze", path, "--rollouts", 4)
    assert message in line and f"position field {field}" in line and "\n" not in line.strip(), line


def test_a_card_may_be_given_twice_with_two_decks():
    data = {"rules": {"decks": 2}, "position": {"seat": 0, "decision": "swap", "hand": ["7H", "7H", "KH"]},
            "seats": [{"faceup": ["7C", "9C", "JC"]}, {}, {}, {}]}
    assert seen_cards(an.position_from_dict(data)).hand.count(Card(5, 2)) == 2
    data["position"]["hand"] = ["7H", "7H", "7H"]
    with pytest.raises(Exception, match="7H is given 3 times .*the decks hold 2"):
        an.position_from_dict(data)
