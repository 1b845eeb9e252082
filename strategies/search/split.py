"""`strong-split`: the gated player (`learned-search-Np`) playing `basic`'s move in one kind of decision only.

Where the strong player's gain over `basic` comes from (reports/chart.md, issue 50): the same deals played by the
gated player and by this player, which decides every decision as the gated player does (the same call, so the
same random draws up to the first decision it changes) except that in the decisions of kind `kind` it plays
`basic`'s move instead. What the gated player loses is that kind's share of its gain.

The kinds (``idiotsim.strategies.split_kinds.KINDS``, by id; 0: none, the gated player itself):

- by decision and situation: the swap (R6); every play choice; play choices while the talon lasts, from the
  hand once the talon is gone, from the face-up row; by the pile's top (empty, a 2, a 3 to 6, a 7 to J, a Q to
  A); by the next player still in (on face-up or blind cards, 1 to 3 hand cards, 4 or more);
- by what the gated player does otherwise than `basic` (only where its move differs): it picks up; a burn (a
  play of 10s or one that completes four of a kind, R16.2) is its move or basic's; a 2 where basic plays an
  ordinary rank; fewer or more copies of basic's rank; another ordinary rank.

The blind flip (R15) is basic's for both, so it has no share. The opening play under V12 is the gated player's.
"""
from __future__ import annotations

from idiotsim.game import observation as ob
from idiotsim.game.basic_player import basic_turn, play_like_basic
from idiotsim.game.cards import TWO
from idiotsim.game.moves import PICKUP, play_burns
from idiotsim.strategies.search import GATED_KNOBS, GATE_MODELS, STRATEGY as SEARCH
from idiotsim.strategies.search import decide as search_decide
from idiotsim.strategies.search import work as search_work
from idiotsim.strategies.split_kinds import KINDS
from idiotsim.strategies.toolkit import Knob, Strategy, knob_ids, next_seat_in, strategy_function


KIND_ID = {key: i for i, (key, _) in enumerate(KINDS)}
SWAP, TURNS, TALON, HAND, FACEUP_ROW = (KIND_ID[k] for k in ("swap", "turns", "talon", "hand", "faceup"))
EMPTY, ON_2, ON_LOW, ON_MID, ON_HIGH = (KIND_ID[k] for k in ("empty", "on-2", "on-3-6", "on-7-J", "on-Q-A"))
NEXT_TABLE, NEXT_FEW, NEXT_MANY = (KIND_ID[k] for k in ("next-table", "next-1-3", "next-4"))
PICKUPS, BURNS, TWOS, COPIES = (KIND_ID[k] for k in ("pickups", "burns", "twos", "copies"))
N_KNOBS = 2

KNOBS = (
    Knob("kind", 0, 0, len(KINDS) - 1, "the kind of decision played as basic plays it (strategies/search/split.py "
                                       "KINDS: 1 the swap, 2 every play choice, ...); 0 none"),
    Knob("players", 4, 2, 5, "whose preset: learned-search-{players}p (the gate's model of that table size)"),
)
K = knob_ids(KNOBS)


@strategy_function(allocates=True)
def decide(obs, hand, params, rng):
    strong = search_decide(obs, hand, params[N_KNOBS:], rng)
    kind = int(params[K.kind])
    decision = obs[ob.DECISION]
    if kind == 0 or decision == ob.BLIND:
        return strong
    if decision == ob.SWAP:
        return play_like_basic(obs, hand) if kind == SWAP else strong
    if obs[ob.MUST_PLAY] >= 0 or kind == SWAP:
        return strong
    basic = basic_turn(obs, hand)
    source, top, talon = obs[ob.SOURCE], obs[ob.PILE_TOP], obs[ob.TALON_SIZE]
    next_hand = obs[ob.HAND_SIZE + next_seat_in(obs)]
    if kind <= NEXT_MANY:
        hit = (kind == TURNS or (kind == TALON and source == ob.SRC_HAND and talon > 0)
               or (kind == HAND and source == ob.SRC_HAND and talon == 0)
               or (kind == FACEUP_ROW and source == ob.SRC_FACEUP) or (kind == EMPTY and top < 0)
               or (kind == ON_2 and top == TWO) or (kind == ON_LOW and 1 <= top <= 4)
               or (kind == ON_MID and 5 <= top <= 9) or (kind == ON_HIGH and top >= 10)
               or (kind == NEXT_TABLE and next_hand == 0) or (kind == NEXT_FEW and 1 <= next_hand <= 3)
               or (kind == NEXT_MANY and next_hand >= 4))
        return basic if hit else strong
    if strong == basic:
        return strong
    strong_burns = strong >= 0 and play_burns(obs, strong)
    basic_burns = basic >= 0 and play_burns(obs, basic)
    plays = strong >= 0 and basic >= 0 and not strong_burns and not basic_burns
    if kind == PICKUPS:
        hit = strong == PICKUP
    elif kind == BURNS:
        hit = strong != PICKUP and (strong_burns or basic_burns)
    elif kind == TWOS:
        hit = plays and strong & 15 == TWO and basic & 15 != TWO
    elif kind == COPIES:
        hit = plays and strong & 15 == basic & 15
    else:
        hit = plays and strong & 15 != TWO and strong & 15 != basic & 15
    return basic if hit else strong


def gated_params(values: dict):
    """The gated preset's params of the table size (`players` knob): the search's knobs, constraints, model."""
    n = int(values.get("players", 4))
    return SEARCH.params({**GATED_KNOBS, **({"rollout_model": GATE_MODELS[n]} if n in GATE_MODELS else {})})


def work(params) -> float:
    return search_work(params[N_KNOBS:])


STRATEGY = Strategy(
    name="strong-split",
    decide=decide,
    description="the gated player (learned-search-Np) with basic's move in one kind of decision (knob kind): "
                "what that kind is worth to it (reports/chart.md)",
    stochastic=True,
    counts_cards=True,
    knobs=KNOBS,
    work=work,
    weights=gated_params,
)
