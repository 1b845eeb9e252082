"""`heuristic`: one parametric policy whose knobs cover the common arguments
about how to play Idiot (which cards lie face-up, when to burn, when to spend
a 2, whether to hold copies back, voluntary pickups, blocking, V5 chance).

With every knob at its default it plays exactly like `basic` (docs/rules.md); the
tests check that both engines give identical traces. Each knob is described in
``KNOBS`` below and in docs/strategies.md.

Its turns follow the cascade shared with `counter` (``cascade.py``): V12
opening; voluntary pickup (``pickup_max``, ``pickup_min_rank``); a burn by
choice (``burn_min``); a 2 instead of an expensive ordinary rank
(``save_twos``, ``two_above``); the lowest legal ordinary rank, or the highest
(``order``, ``block``); else 2s, 10s, V5 chance (``chance``), pickup.

Every play is of all copies in the source, except that while the talon lasts a
play from the hand has at most ``max_copies`` cards (R16.1 refills the hand to 3
anyway); once the talon is empty every copy is played, so no card is left
stranded in a hand that can only shrink.
"""
from idiotsim.strategies.constraints import constrained_move
from idiotsim.strategies.toolkit import (ACE, KING, SWAP, TURN, Knob, Preset, Strategy, decision, knob_ids, lowest_blind,
                              strategy_function)
from idiotsim.strategies.cascade import NEVER, OFF, TurnPlan, swap_by_mode, turn_cascade

KNOBS = (
    Knob("swap", 1, 0, 4,
         "which 3 cards lie face-up: 0 as dealt; 1 best by the basic key 3<..<A<2<10 (basic); "
         "2 best but 10s kept in hand; 3 10s face-up, then best ordinary, 2s kept in hand; "
         "4 2s and 10s kept in hand, best ordinary face-up"),
    Knob("order", 0, 0, 1,
         "0 play the lowest legal ordinary rank (basic); 1 the highest while drawing (talon not empty, "
         "hand <= 3 cards), else the lowest (the contrast to 'use low cards early')"),
    Knob("burn_min", 104, 0, 104,
         "play a legal 10 before anything else when the pile holds >= burn_min cards; otherwise a 10 "
         "only when no ordinary rank and no 2 can be played (104 = never by choice, basic)"),
    Knob("save_twos", 1, 0, 1,
         "1 spend a 2 only when no ordinary rank is legal (basic); 0 also instead of an ordinary "
         "rank when the cheapest legal one is >= two_above"),
    Knob("two_above", KING, 1, ACE,
         "with save_twos=0: the rank id (1='3' .. 12='A') from which a 2 is played instead"),
    Knob("max_copies", 8, 1, 8,
         "while the talon lasts, a play from the hand has at most this many cards (8 = all, basic); "
         "once the talon is empty every copy is played"),
    Knob("pickup_max", 0, 0, 52,
         "hand phase only: pick up a pile of 1..pickup_max cards by choice when every card in it is "
         "a 2 or an ordinary rank >= pickup_min_rank (0 = never, basic)"),
    Knob("pickup_min_rank", KING, 1, ACE,
         "rank id (1='3' .. 12='A') of the weakest ordinary card a voluntary pickup takes"),
    Knob("block", 0, 0, 1,
         "1: when the next player still in holds <= block_cards cards (hand + face-up + blind), "
         "play the highest legal ordinary rank"),
    Knob("block_cards", 3, 0, 104, "with block=1: how few cards make the next player a threat"),
    Knob("chance", 0, 0, 1, "V5: 1 turns the talon's top card instead of a forced pickup, when allowed"),
)


K = knob_ids(KNOBS)


@strategy_function
def decide(obs, hand, params, rng):
    if decision(obs) == SWAP:
        return swap_by_mode(obs, hand, int(params[K.swap]))
    if decision(obs) != TURN:
        return lowest_blind(obs)
    copies = int(params[K.max_copies])
    return turn_cascade(obs, hand, TurnPlan(
        pickup_max=params[K.pickup_max], pickup_min_rank=params[K.pickup_min_rank], pickup_beaters=OFF,
        burn_min=params[K.burn_min], burn_answers=OFF,
        two_above=params[K.two_above] if params[K.save_twos] == 0 else NEVER, two_specials=OFF,
        aim_p=0.0, aim_pile=OFF, high_while_drawing=params[K.order],
        block_cards=params[K.block_cards] if params[K.block] != 0 else OFF,
        chance=params[K.chance], chance_p=OFF, ordinary_copies=copies, special_copies=copies))


PRESETS = {
    # The Norwegian page's tips (docs/rules.md, "Sources"): basic already follows the first three, so these
    # presets play like basic; each has a contrast preset that breaks the tip.
    "best-faceup": Preset("tip 'Legg de beste kortene åpent': the best 3 cards face-up (as basic)", swap=1),
    "keep-deal": Preset("contrast to best-faceup: no swap at all", swap=0),
    "specials-in-hand": Preset("contrast to best-faceup: 2s and 10s kept in hand", swap=4),
    "low-early": Preset("tip 'Bruk lave kort tidlig': the lowest legal rank first (as basic)", order=0),
    "high-early": Preset("contrast to low-early: the highest legal rank first while drawing", order=1),
    "no-early-burn": Preset("tip 'Ikke brenn for tidlig': a 10 only when otherwise stuck (as basic)",
                            burn_min=104),
    "burn-early": Preset("contrast to no-early-burn: burn any pile as soon as a 10 is held", burn_min=1),
    "chancer": Preset("the page's 'sjanse' (V5): turn the talon's top card rather than pick up", chance=1),
    # Other arguments players have.
    "spend-twos": Preset("a 2 rather than a K or an A", save_twos=0, two_above=KING),
    "hold-back": Preset("one card a turn while the talon lasts, keeping pairs", max_copies=1),
    "pickup-small": Preset("take piles of up to 3 cards of K, A and 2s", pickup_max=3, pickup_min_rank=KING),
    "blocker": Preset("the highest card at a player about to go out", block=1, block_cards=3),
    # Tuned by `idiotsim optimize --strategy heuristic --field basic`: reports/tuned/heuristic-<n>p/best.toml as
    # written by the command above each (knobs that differ from the defaults; reports/tuned.md has the measured
    # advantage). With one deck, burn_min above 52 (no pile is that big) and max_copies >= 4 (no rank has more
    # copies) play like the defaults, as do pickup_min_rank with pickup_max 0 and block_cards with block 0.
    # idiotsim optimize --strategy heuristic --players 2 --field basic --seed 1 --out reports/tuned/heuristic-2p \
    #   --games-per-eval 20000 --generations 40 --sigma 0.2 --finalists 8 --selection-games 40000 --validation-games \
    #   200000 --sensitivity-games 100000 --search-action-limit 1000 --knobs \
    #   swap,order,burn_min,save_twos,two_above,max_copies,pickup_max,pickup_min_rank,block,block_cards
    "heuristic-tuned-2p": Preset(
        "tuned by idiotsim optimize for 2 players against basic (reports/tuned.md)",
        swap=3, save_twos=0, pickup_min_rank=8, block=1, block_cards=0,
    ),
    # idiotsim optimize --strategy heuristic --players 3 --field basic --seed 1 --out reports/tuned/heuristic-3p \
    #   --games-per-eval 20000 --generations 40 --sigma 0.2 --finalists 8 --selection-games 40000 --validation-games \
    #   200000 --sensitivity-games 100000 --search-action-limit 1000 --knobs \
    #   swap,order,burn_min,save_twos,two_above,max_copies,pickup_max,pickup_min_rank,block,block_cards
    "heuristic-tuned-3p": Preset(
        "tuned by idiotsim optimize for 3 players against basic (reports/tuned.md)",
        burn_min=54, save_twos=0, max_copies=7, pickup_min_rank=12, block_cards=1,
    ),
    # idiotsim optimize --strategy heuristic --players 4 --field basic --seed 1 --out reports/tuned/heuristic-4p \
    #   --games-per-eval 20000 --generations 40 --sigma 0.2 --finalists 8 --selection-games 40000 --validation-games \
    #   200000 --sensitivity-games 100000 --search-action-limit 1000 --knobs \
    #   swap,order,burn_min,save_twos,two_above,max_copies,pickup_max,pickup_min_rank,block,block_cards
    "heuristic-tuned-4p": Preset(
        "tuned by idiotsim optimize for 4 players against basic (reports/tuned.md)",
        burn_min=101, save_twos=0, two_above=12, pickup_min_rank=1, block_cards=0,
    ),
    # idiotsim optimize --strategy heuristic --players 5 --field basic --seed 1 --out reports/tuned/heuristic-5p \
    #   --games-per-eval 20000 --generations 40 --sigma 0.2 --finalists 8 --selection-games 40000 --validation-games \
    #   200000 --sensitivity-games 100000 --search-action-limit 1000 --knobs \
    #   swap,order,burn_min,save_twos,two_above,max_copies,pickup_max,pickup_min_rank,block,block_cards
    "heuristic-tuned-5p": Preset(
        "tuned by idiotsim optimize for 5 players against basic (reports/tuned.md)",
        burn_min=76, save_twos=0, two_above=12, max_copies=7, pickup_min_rank=8, block=1, block_cards=0,
    ),
}

CONSTRAINTS_AT = len(KNOBS)  # the constraint block of a constrained seat follows the knobs (idiotsim.strategies.constraints)


@strategy_function
def decide_constrained(obs, hand, params, rng):
    """The decision under the constraint block at params[CONSTRAINTS_AT:]: its move, or the nearest allowed one."""
    return constrained_move(obs, hand, params, CONSTRAINTS_AT, decide(obs, hand, params, rng))


STRATEGY = Strategy(
    name="heuristic",
    decide=decide,
    description="Parametric rule player: swap mode, burn threshold, 2s, copies held back, voluntary "
                "pickups, blocking, chance; defaults = basic",
    knobs=KNOBS,
    presets=PRESETS,
    looks_at=("own cards", "pile", "the next player's card count"),
    constrained_decide=decide_constrained,
)
