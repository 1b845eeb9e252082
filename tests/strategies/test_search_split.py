"""`strong-split` (strategies/search/split.py): the gated player with basic's move in one kind of decision.

- At kind 0 it is the gated player: the same move from the same random state, at every swap and turn.
- At each kind it plays basic's move exactly where the decision is of that kind (by situation, or by how the gated
  player's move differs from basic's) and the gated player's move everywhere else; each kind changes some move.
"""
from __future__ import annotations

import numpy as np
import pytest

from idiotsim.game import observation as ob
from idiotsim.game.basic_player import BASIC_PREFERENCE, basic_turn, swap_best
from idiotsim.game.cards import TWO
from idiotsim.game.moves import PICKUP, play_burns
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import load_strategy
from idiotsim.strategies.split_kinds import KINDS
from idiotsim.strategies.toolkit import next_seat_in

RULES = Rules(players=4)


def _positions(games=20):
    from idiotsim.experiments.disagreement import basic_positions
    return [(o, h) for g in range(games) for o, h in basic_positions(RULES, 31, g)
            if o[ob.DECISION] in (ob.SWAP, ob.TURN)]


def _hit(key: str, obs, hand, strong: int, basic: int) -> bool:
    """Is this decision of kind `key`, as strategies/search/split.py defines it (its docstring)?"""
    if obs[ob.DECISION] == ob.SWAP:
        return key == "swap"
    if key == "swap" or obs[ob.MUST_PLAY] >= 0:
        return False
    source, top, talon = obs[ob.SOURCE], obs[ob.PILE_TOP], obs[ob.TALON_SIZE]
    nxt = obs[ob.HAND_SIZE + next_seat_in(obs)]
    situation = {"turns": True, "talon": source == ob.SRC_HAND and talon > 0,
                 "hand": source == ob.SRC_HAND and talon == 0, "faceup": source == ob.SRC_FACEUP,
                 "empty": top < 0, "on-2": top == TWO, "on-3-6": 1 <= top <= 4, "on-7-J": 5 <= top <= 9,
                 "on-Q-A": top >= 10, "next-table": nxt == 0, "next-1-3": 1 <= nxt <= 3, "next-4": nxt >= 4}
    if key in situation:
        return bool(situation[key])
    if strong == basic:
        return False
    burns = (strong >= 0 and play_burns(obs, strong)) or (basic >= 0 and play_burns(obs, basic))
    plays = strong >= 0 and basic >= 0 and not burns
    return {"pickups": strong == PICKUP, "burns": strong != PICKUP and burns,
            "twos": plays and strong & 15 == TWO and basic & 15 != TWO,
            "copies": plays and strong & 15 == basic & 15,
            "higher": plays and strong & 15 != TWO and strong & 15 != basic & 15}[key]


@pytest.mark.long(60)
def test_each_kind_plays_basics_move_exactly_in_its_decisions():
    gated = load_strategy("learned-search-4p")
    splits = [load_strategy(f"strong-split:kind={i},players=4") for i in range(len(KINDS))]
    changed = np.zeros(len(KINDS), np.int64)
    for index, (obs, hand) in enumerate(_positions()):
        state = np.array([12345 + index], np.uint64)
        strong = int(gated.decide(obs, hand, gated.params, state.copy()))
        basic = (swap_best(obs, hand, BASIC_PREFERENCE) if obs[ob.DECISION] == ob.SWAP else basic_turn(obs, hand))
        for i, (key, _) in enumerate(KINDS):
            move = int(splits[i].decide(obs, hand, splits[i].params, state.copy()))
            expected = basic if i > 0 and _hit(key, obs, hand, strong, basic) else strong
            assert move == expected, (key, index)
            changed[i] += move != strong
    assert changed[0] == 0
    assert all(changed[1:] > 0), dict(zip((k for k, _ in KINDS), changed.tolist()))
