"""The strategy chart (issue 44 item 4): the `chart` design of `idiotsim report` (idiotsim/experiments/chart_design.py
and the chart_* modules it strings together) and the `chart` player (strategies/chart.py), which follows the committed page.

- The seats a row is measured on hold exactly its ranks, and the constrained strong player lays exactly that row
  there (so a row's cell is what it says); a rank-kept seat's basic row lays that rank face-up.
- The chart's rules come from the cells as the design says (beats the beginner's rule, Holm, and costs the strong
  player nothing measurable), and the committed page's rules are the `chart` player's tables.
- The `chart` player does what its tables say at the swap and at a turn.
- A chart spec with a bad row is one error line.
(The report itself regenerates byte for byte at its check size in test_shipped_reports.)
"""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from idiotsim.analysis.stats import Interval
from idiotsim.engine.batches import trace_game
from idiotsim.errors import UserError
from idiotsim.experiments.chart_analysis import chart_rules, grown_rules, rules_from_csv
from idiotsim.experiments.chart_cells import BASIC_KNOBS, Cell, order_spec
from idiotsim.experiments.chart_seats import basic_rows, find_seats
from idiotsim.experiments.spec import load_spec
from idiotsim.experiments.strategy_text import row_ranks, row_text
from idiotsim.game import observation as ob
from idiotsim.game.basic_player import BASIC_PREFERENCE, basic_turn, swap_best
from idiotsim.game.cards import RANK_NAMES, RANK_OF_NAME, TEN, TWO
from idiotsim.game.moves import PICKUP, legal_mask, list_swap_moves, play, play_burns
from idiotsim.game.rules import Rules
from idiotsim.strategies import chart
from idiotsim.strategies.loading import load_strategy
from idiotsim.strategies.toolkit import next_seat_in

REPORTS = Path(__file__).resolve().parents[2] / "reports"
RULES = Rules(players=4)


def test_rows_are_written_in_card_order_and_bad_rows_are_refused():
    assert row_text(row_ranks("Q-10-10")) == "10-10-Q" and row_text(row_ranks("A-10-2")) == "2-10-A"
    for bad in ("10-10", "10-10-X", "1-2-3"):
        with pytest.raises(ValueError):
            row_ranks(bad)


def test_a_chart_spec_with_a_bad_row_is_one_error_line(tmp_path):
    text = (REPORTS / "chart.toml").read_text().replace('"K-A-10",', '"K-A-11",', 1)
    (tmp_path / "bad.toml").write_text(text)
    with pytest.raises(UserError, match=r"rows\[0\].*10-10-Q") as e:
        load_spec(tmp_path / "bad.toml")
    assert "\n" not in str(e.value)


@pytest.mark.long(60)
def test_each_rows_seats_hold_it_and_the_constrained_strong_player_lays_it():
    rows = [row_ranks(r) for r in ("5-5-10", "K-K-A", "2-10-A")]
    seats, keep, same = find_seats(RULES, 4401, rows, [RANK_OF_NAME["2"]], 6)
    strong = "learned-search-4p:swap=0"
    basic = load_strategy("basic")
    for ranks in rows:
        found = seats[ranks]
        assert len(found) == 6
        up = "/".join(RANK_NAMES[r] for r in sorted(set(ranks)))
        for i, (deal, seat) in enumerate(zip(found.deal.tolist(), found.seat.tolist())):
            lineup = [basic] * 4
            lineup[seat] = load_strategy(f"{strong}+up={up}")
            swaps = [e for e in trace_game(RULES, lineup, 4401, deal * 4 + seat, deal=deal)[0] if e["action"] == "swap"]
            mine = swaps[seat]
            assert sorted(RANK_OF_NAME[r] for r in mine["faceup"]) == sorted(ranks)
            six = sorted(RANK_OF_NAME[r] for r in mine["faceup"] + mine["hand"])
            counts = np.bincount(six, minlength=13)
            assert all(counts[r] == list(ranks).count(r) for r in set(ranks))  # exactly the row's ranks
            basic_counts = basic_rows(counts[None])[0]
            assert bool(same[ranks][i]) == np.array_equal(basic_counts, np.bincount(ranks, minlength=13))
    two = keep[RANK_OF_NAME["2"]]
    for deal, seat in zip(two.deal.tolist(), two.seat.tolist()):
        swaps = [e for e in trace_game(RULES, [basic] * 4, 4401, deal * 4 + seat, deal=deal)[0] if e["action"] == "swap"]
        assert "2" in swaps[seat]["faceup"]


def _row(section, key, mean, lo, hi, p_holm):
    return (Cell(section, key, "a", "b", key), Interval(mean, lo, hi, (hi - lo) / 2, p_holm, 0.01, p_holm), 100, 0.5)


def test_the_rules_come_from_the_cells():
    spec = load_spec(REPORTS / "chart.toml")
    significant, none = 0.001, 0.5
    rows = [_row("swap", "5-5-10", -0.10, -0.15, -0.05, significant), _row("swap", "10-K-A", -0.20, -0.30, -0.10, significant),
            _row("swap", "2-2-10", -0.30, -0.70, 0.10, none), _row("swap", "J-Q-K", 0.20, 0.10, 0.30, significant),
            _row("keep", "2", -0.05, -0.08, -0.02, significant), _row("keep", "10", 0.05, 0.02, 0.08, significant),
            _row("pickup", "never", 0.02, 0.01, 0.03, significant),
            _row("pickup", "1:K", -0.03, -0.05, -0.01, significant), _row("pickup-own", "1:K", 0.0, -0.01, 0.01, none),
            _row("pickup", "3:9", -0.05, -0.07, -0.03, significant), _row("pickup-own", "3:9", 0.03, 0.01, 0.05, significant),
            _row("burn", "never", 0.0, -0.01, 0.01, none), _row("burn", "8", -0.01, -0.03, 0.01, none),
            _row("burn-own", "8", 0.0, -0.01, 0.01, none), _row("copies", "1", 0.04, 0.02, 0.06, significant),
            _row("order", "K", -0.01, -0.02, -0.005, significant), _row("order", "A", -0.02, -0.03, -0.01, significant),
            _row("order", "Q", -0.03, -0.07, 0.01, none)]
    rules = chart_rules(rows, spec)
    assert rules.rows == ("10-K-A", "5-5-10")  # significant and better, best first
    assert rules.keep == ("2",)
    assert rules.pickup == (1, "K")  # 3:9 beats never but costs the strong player
    assert rules.burn is None and rules.copies is None
    assert rules.two_from == "A"  # the best of the significant ones


def test_the_chart_player_follows_the_committed_page():
    rules = rules_from_csv(REPORTS / "chart.csv")
    assert tuple(row_text(row_ranks(r)) for r in chart.SWAP_ROWS) == rules.rows
    assert chart.KEEP_IN_HAND == rules.keep
    assert (chart.PICKUP_MAX, RANK_NAMES[chart.PICKUP_MIN_RANK]) == (rules.pickup or (0, "K"))
    assert chart.BURN_FROM == (rules.burn or 0) and chart.COPIES_MAX == (rules.copies or 0)
    assert chart.TWO_FROM == (RANK_OF_NAME[rules.two_from] if rules.two_from else 0)
    assert chart.STOP == int(rules.stop) and chart.SAVE_SPECIALS == (rules.save_specials or 0)
    assert rules.grown == grown_rules()["grown"]  # the grown rules the page lists are the player's
    words = {r["key"]: r["cell"] for r in csv.DictReader((REPORTS / "chart.csv").open()) if r["section"] == "chart-rule"}
    assert f"up to {RANK_NAMES[chart.SWAP_PAIRS_TO]} " in words["pairs"]
    assert words["high-singly"].startswith("without: " + " and ".join(f"{r}s" for r in chart.SINGLY if r in "KA"))


def _positions(decision, games=40):
    from idiotsim.experiments.disagreement import basic_positions
    return [(o, h) for g in range(games) for o, h in basic_positions(RULES, 12, g) if o[ob.DECISION] == decision]


def test_the_chart_player_lays_the_best_listed_row_else_a_triple_or_pair_else_basics_row_keeping_its_ranks():
    seat = load_strategy("chart")
    places = chart.row_places(chart.SWAP_ROWS)
    keep = {RANK_OF_NAME[r] for r in chart.KEEP_IN_HAND}
    listed = grouped = 0
    for obs, hand in _positions(ob.SWAP):
        choice = int(seat.decide(obs, hand, seat.params, np.zeros(1, np.uint64)))
        choices = np.zeros(64, np.int64)
        n = list_swap_moves(obs, hand, choices)
        best = min(places[c] for c in choices[:n])
        ranks = sorted([choice % 13, choice // 13 % 13, choice // 169])
        if best < chart.NOT_LISTED:
            listed += 1
            assert chart.row_code("-".join(RANK_NAMES[r] for r in ranks)) == [c for c in choices[:n] if places[c] == best][0]
        else:
            basic = swap_best(obs, hand, BASIC_PREFERENCE)
            six = hand + obs[ob.FACEUP + obs[ob.SEAT] * 13: ob.FACEUP + obs[ob.SEAT] * 13 + 13]
            triples = [r for r in range(1, 13) if r != TEN and six[r] >= 3] if chart.SWAP_TRIPLES else []
            pairs = [r for r in range(1, chart.SWAP_PAIRS_TO + 1) if r != TEN and six[r] >= 2]
            if triples:  # the lowest three of a kind
                grouped += 1
                assert ranks == [triples[0]] * 3
            elif pairs:  # the highest pair, with the best other card by basic's key
                grouped += 1
                rest = six.copy()
                rest[pairs[-1]] -= 2
                assert ranks == sorted([pairs[-1]] * 2 + [next(r for r in BASIC_PREFERENCE if rest[r] > 0)])
            else:
                kept_up = sum(r in keep for r in ranks)
                assert kept_up == max(0, sum(six[r] for r in keep) - 3)  # as few kept ranks face-up as allowed
                if not keep:
                    assert choice == basic
    if chart.SWAP_ROWS:
        assert listed > 0
    if chart.SWAP_TRIPLES or chart.SWAP_PAIRS_TO:
        assert grouped > 0
    plain = load_strategy("chart:swap=0,triples=0,pairs=0")
    for obs, hand in _positions(ob.SWAP, games=10):
        assert int(plain.decide(obs, hand, plain.params, np.zeros(1, np.uint64))) == swap_best(obs, hand,
                                                                                             BASIC_PREFERENCE)


def test_the_chart_players_turns_follow_its_tables():
    seat = load_strategy("chart")
    rng = np.zeros(1, np.uint64)
    seen = {"pickup": 0, "burn": 0, "save": 0, "stop": 0, "order": 0, "copies": 0, "basic": 0, "singly": 0}
    sections = load_strategy("chart:high_singly=0,tens_singly=0,twos_singly=0")  # the page but ONE AT A TIME
    for obs, hand in _positions(ob.TURN, games=60):
        move = int(sections.decide(obs, hand, sections.params, rng))
        single = _one_at_a_time(obs, move)
        assert int(seat.decide(obs, hand, seat.params, rng)) == single  # ONE AT A TIME cuts the sections' move
        seen["singly"] += single != move
        basic = basic_turn(obs, hand)
        pile = obs[ob.PILE_SIZE]
        strong = all(obs[ob.PILE_COUNTS + r] == 0 for r in range(1, chart.PICKUP_MIN_RANK))
        if obs[ob.SOURCE] == ob.SRC_HAND and 0 < pile <= chart.PICKUP_MAX and strong:
            assert move == PICKUP
            seen["pickup"] += 1
        elif 0 < chart.BURN_FROM <= pile and hand[TEN] + (obs[ob.FACEUP + obs[ob.SEAT] * 13 + TEN]
                                                          if obs[ob.SOURCE] == ob.SRC_FACEUP else 0) > 0 \
                and (obs[ob.LEGAL] >> TEN) & 1 and obs[ob.SOURCE] != ob.SRC_BLIND:
            assert move == play(TEN, 1, 0)
            seen["burn"] += 1
        elif chart.SAVE_SPECIALS and basic >= 0 and basic & 15 in (TWO, TEN) and obs[ob.SOURCE] == ob.SRC_HAND \
                and 0 < pile <= chart.SAVE_SPECIALS:
            assert move == PICKUP
            seen["save"] += 1
        elif chart.STOP and basic >= 0 and basic & 15 not in (TWO, TEN) and move != basic and move & 15 != TWO:
            nxt = next_seat_in(obs)
            assert obs[ob.HAND_SIZE + nxt] == 0 and move & 15 > basic & 15
            theirs = [r for r in range(13) if obs[ob.FACEUP + 13 * nxt + r] > 0]
            beaters = legal_mask(move & 15, obs[ob.LOW_RANK], obs[ob.TEN_ONLY_ON_LOWER] != 0)
            assert theirs and not any((beaters >> r) & 1 for r in theirs)
            seen["stop"] += 1
        elif chart.TWO_FROM and basic >= 0 and basic & 15 not in (TWO, TEN) and basic & 15 >= chart.TWO_FROM \
                and hand[TWO] + (obs[ob.FACEUP + obs[ob.SEAT] * 13 + TWO] if obs[ob.SOURCE] == ob.SRC_FACEUP else 0) > 0 \
                and obs[ob.SOURCE] != ob.SRC_BLIND:
            assert move & 15 == TWO
            seen["order"] += 1
        elif chart.COPIES_MAX and obs[ob.SOURCE] == ob.SRC_HAND and obs[ob.TALON_SIZE] > 0 and basic >= 0 \
                and (basic >> 4) & 15 > chart.COPIES_MAX and basic >> 8 == 0:
            assert move == play(basic & 15, chart.COPIES_MAX, 0)
            seen["copies"] += 1
        else:
            assert move == basic
            seen["basic"] += 1
    assert seen["basic"] > 100
    for name, active in (("pickup", chart.PICKUP_MAX), ("burn", chart.BURN_FROM), ("save", chart.SAVE_SPECIALS),
                         ("stop", chart.STOP), ("order", chart.TWO_FROM), ("copies", chart.COPIES_MAX)):
        assert (seen[name] > 0) == bool(active)
    assert seen["singly"] > 0


def _one_at_a_time(obs, move: int) -> int:
    """ONE AT A TIME (strategies/chart.py): a play from the hand of 10s, of Ks or As that make no four of a kind, or
    of 2s while the talon lasts, is one card."""
    if move < 0 or obs[ob.SOURCE] != ob.SRC_HAND or (move >> 4) & 15 <= 1 or move >> 8:
        return move
    rank = move & 15
    names = {RANK_OF_NAME[r] for r in chart.SINGLY}
    if (rank == TEN and TEN in names) or (rank in names - {TEN} and not play_burns(obs, move)) \
            or (rank == TWO and chart.TWOS_SINGLY and obs[ob.TALON_SIZE] > 0):
        return play(rank, 1, 0)
    return move


def test_the_chart_player_with_every_section_off_is_basic():
    """The play order's cells are basic with one rule (order_spec): with every section and rule off the chart player
    is basic."""
    off = load_strategy(f"chart:{BASIC_KNOBS}")
    rng = np.zeros(1, np.uint64)
    turns = 0
    for decision in (ob.SWAP, ob.TURN):
        for obs, hand in _positions(decision, games=20):
            expected = swap_best(obs, hand, BASIC_PREFERENCE) if decision == ob.SWAP else basic_turn(obs, hand)
            assert int(off.decide(obs, hand, off.params, rng)) == expected
            turns += decision == ob.TURN
    assert turns > 100
    two = load_strategy(order_spec("two_from=12"))
    changed = 0
    for obs, hand in _positions(ob.TURN, games=60):
        basic = basic_turn(obs, hand)
        move = int(two.decide(obs, hand, two.params, rng))
        if move != basic:
            changed += 1
            assert basic & 15 == RANK_OF_NAME["A"] and move & 15 == TWO
    assert changed > 0
