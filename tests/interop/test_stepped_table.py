"""The adapters' table (``interop.stepped.Table``, one engine table dealt card by card) equals the reference
engine stepped the same way (tests/reference_table.py) under random legal play, in every variant: the seat
to act, every seat's observation, hand, vector and decision, the legal actions, the trace and the places;
and a copy is independent of its original."""
from __future__ import annotations

import numpy as np
import pytest

from idiotsim.game.action_space import to_action, to_move
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.interop.stepped import DEALING, SWAPPING, Table

from reference_table import ReferenceTable
from test_engine_equality import VARIANTS

SEED = 77
CASES = [(case, fields, list(players)[:4]) for case, fields, players, _ in VARIANTS]
IDS = [case for case, _, _ in CASES]


def reference_actions(ref: ReferenceTable) -> list:
    decision = ref.decision()
    return sorted(to_action(decision, move) for move in ref.legal_moves())


def same_view(table: Table, ref: ReferenceTable) -> None:
    seat = ref.current_seat()
    assert table.current_seat() == seat and table.phase == ref.phase
    for s in range(ref.n):
        np.testing.assert_array_equal(table.observation(s), ref.observation(s), err_msg=f"seat {s}")
        np.testing.assert_array_equal(table.hand(s), ref.hand(s))
        np.testing.assert_array_equal(table.vector(s), ref.vector(s))
        assert table.decision(s) == ref.decision(s)
    assert table.legal_actions() == reference_actions(ref)


def deal_both(table: Table, ref: ReferenceTable, game: int, rules: Rules) -> None:
    deck = shuffled_deck(SEED, game, ref.round_no - 1, rules.decks)
    assert table.round_no == ref.round_no and table.cards_left().tolist() == ref.cards_left().tolist()
    for card in deck:
        table.deal(int(card))
        ref.deal(int(card))


@pytest.mark.parametrize("case, fields, players", CASES, ids=IDS)
def test_random_play_equals_the_reference_engine(case, fields, players):
    rng = np.random.default_rng(11)
    for n in players:
        rules = Rules(players=n, **fields)
        for game in range(2):
            table, ref = Table(rules), ReferenceTable(rules)
            while not ref.over:
                if ref.phase == DEALING:
                    deal_both(table, ref, game, rules)
                same_view(table, ref)
                legal = reference_actions(ref)
                action = legal[rng.integers(len(legal))]
                table.apply(action)
                ref.apply(to_move(action))
                assert table.totals == ref.totals
            assert table.over and table.places() == ref.places()
            assert table.trace() == ref.trace()


def test_a_copy_steps_on_its_own():
    rules = Rules(players=3)
    table = Table(rules)
    table.deal_deck(shuffled_deck(1, 0, 0, 1))
    for _ in range(5):  # three swaps, then two plays
        table.apply(table.legal_actions()[0])
    copy = table.copy()
    before = (table.state.copy(), table.trace(), table.current_seat())
    while not copy.over:
        copy.apply(copy.legal_actions()[-1])
    assert np.array_equal(table.state, before[0]) and table.trace() == before[1]
    assert table.current_seat() == before[2] and not table.over


def test_an_illegal_action_raises_and_changes_nothing():
    table = Table(Rules(players=2))
    table.deal_deck(shuffled_deck(2, 0, 0, 1))
    assert table.phase == SWAPPING
    illegal = next(a for a in range(455) if a not in table.legal_actions())
    with pytest.raises(ValueError, match="not a legal swap"):
        table.apply(illegal)
    table.apply(table.legal_actions()[0])
    table.apply(table.legal_actions()[0])
    state = table.state.copy()
    with pytest.raises(ValueError, match="illegal"):
        table.apply(0)  # a swap id at a turn
    assert np.array_equal(table.state, state)
    with pytest.raises(ValueError, match="cannot be dealt"):
        table.deal(0)
