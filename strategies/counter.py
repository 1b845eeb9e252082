"""`counter`: a card counter. It reads the public history in the observation
(BURNED, PILE_COUNTS, every FACEUP row, the KNOWN cards each opponent picked up,
hand / face-up / blind sizes) to estimate where the cards are, and plays like
`basic` otherwise (lowest legal ordinary rank, all copies; 2s, then 10s).

Counting, for the deciding player (never a hidden card: see docs/strategies.md),
with the toolkit's ``with_others`` (cards of a rank the others may still play)
and ``unseen`` (of those, the ones nobody has seen).

Its turns follow the cascade shared with `heuristic` (``cascade.py``), with the
counting refinements on: voluntary pickups of piles few of the others' cards
can follow (``pickup_max``, ``pickup_beaters``; tip 4 of the Norwegian page,
cards "nobody can save themselves" against); a burn by choice only when the
opponents are KNOWN to hold answers to the pile (``burn_min``,
``burn_answers``); a 2 instead of an expensive rank while 2s and 10s are not
scarce (``two_above``, ``two_specials``); aiming at the next player with the
cheapest rank they cannot beat with probability >= ``force_p`` once the pile
holds ``force_pile`` cards; V5 chance when enough unseen cards would be legal
(``chance``, ``chance_p``).

Ordinary ranks are played with every copy; 2s and 10s go singly while the talon
lasts (a second one would only be replaced by a drawn card).

``count`` = 0 turns all of it off: the turns are then exactly `basic`'s.
"""
from idiotsim.strategies.constraints import constrained_move
from idiotsim.strategies.toolkit import (ALL_COPIES, SWAP, TURN, Knob, Preset, Strategy, basic_turn, decision, knob_ids,
                              lowest_blind, strategy_function)
from idiotsim.strategies.cascade import OFF, TurnPlan, swap_by_mode, turn_cascade

KNOBS = (
    Knob("count", 1, 0, 1, "1 use the card counts; 0 play every turn exactly like basic (a control)"),
    Knob("swap", 1, 0, 4, "the swap mode, as heuristic's swap knob (1 = best face-up, like basic)"),
    Knob("force_p", 0.9, 0, 1,
         "play the cheapest legal ordinary rank that the next player cannot beat with at least this "
         "probability (0 = the cheapest always qualifies, i.e. off)", integer=False),
    Knob("force_pile", 4, 0, 104, "aim at the next player only when the pile holds >= this many cards"),
    Knob("burn_min", 104, 0, 104, "burn by choice only when the pile holds >= burn_min cards (104 = never)"),
    Knob("burn_answers", 2, 0, 52,
         "... and opponents still in are known (KNOWN) to hold >= this many cards playable on the pile"),
    Knob("pickup_max", 0, 0, 52, "hand phase: pick up piles of 1..pickup_max cards by choice (0 = never)"),
    Knob("pickup_beaters", 2, 0, 104,
         "... when every card in the pile is a 2 or can be beaten by at most this many cards the others "
         "may still hold"),
    Knob("two_above", 12, 1, 13,
         "spend a 2 instead of the cheapest legal ordinary rank when that rank id is >= two_above "
         "(13 = never) ..."),
    Knob("two_specials", 4, 0, 16, "... and at least this many 2s and 10s are still with the others"),
    Knob("chance", 1, 0, 1, "V5: turn the talon's top card instead of a forced pickup when allowed"),
    Knob("chance_p", 0, 0, 1, "... when at least this share of the unseen cards would be legal on the pile",
         integer=False),
)



K = knob_ids(KNOBS)


@strategy_function
def decide(obs, hand, params, rng):
    if decision(obs) == SWAP:
        return swap_by_mode(obs, hand, int(params[K.swap]))
    if decision(obs) != TURN:
        return lowest_blind(obs)
    if params[K.count] == 0:
        return basic_turn(obs, hand)
    return turn_cascade(obs, hand, TurnPlan(
        pickup_max=params[K.pickup_max], pickup_min_rank=OFF, pickup_beaters=params[K.pickup_beaters],
        burn_min=params[K.burn_min], burn_answers=params[K.burn_answers],
        two_above=params[K.two_above], two_specials=params[K.two_specials],
        aim_p=params[K.force_p], aim_pile=params[K.force_pile], high_while_drawing=0.0, block_cards=OFF,
        chance=params[K.chance], chance_p=params[K.chance_p], ordinary_copies=ALL_COPIES, special_copies=1))


PRESETS = {
    "count-specials": Preset("tip 'Tell spesialkortene': count the 2s and 10s, and the rest (as counter)", count=1),
}

CONSTRAINTS_AT = len(KNOBS)  # the constraint block of a constrained seat follows the knobs (idiotsim.strategies.constraints)


@strategy_function
def decide_constrained(obs, hand, params, rng):
    """The decision under the constraint block at params[CONSTRAINTS_AT:]: its move, or the nearest allowed one."""
    return constrained_move(obs, hand, params, CONSTRAINTS_AT, decide(obs, hand, params, rng))


STRATEGY = Strategy(
    name="counter",
    decide=decide,
    description="Card counter: aims unbeatable cards at the next player, burns and picks up by the counts; "
                "count=0 = basic",
    counts_cards=True,
    knobs=KNOBS,
    presets=PRESETS,
    looks_at=("own cards", "pile", "every face-up row", "cards picked up in sight", "burned cards",
              "card counts of every seat"),
    constrained_decide=decide_constrained,
)
