"""`counter`: a card counter. It reads the public history in the observation
(BURNED, PILE_COUNTS, every FACEUP row, the KNOWN cards each opponent picked up,
hand / face-up / blind sizes) to estimate where the cards are, and plays like
`basic` otherwise (lowest legal ordinary rank, all copies; 2s, then 10s).

Counting, for the deciding player (never a hidden card: see docs/strategies.md):

- ``others(q)``: cards of rank q that are neither burned, nor in the pile, nor
  in the own hand, nor face-up in front of the player: the cards the others
  may still play (in their hands, face-up rows, blind cards, or the talon).
- ``unseen(q)``: of those, the ones nobody has seen: not face-up anywhere and
  not KNOWN in an opponent's hand (so in the talon, a blind row, or the
  unknown part of an opponent's hand). ``U`` = all unseen cards.

The rules, in order, for a turn (hand or face-up phase):

1. V12 opening: play ``MUST_PLAY``.
2. Voluntary pickup (hand phase): a pile of 1..``pickup_max`` cards whose every
   card is a 2 or a rank that at most ``pickup_beaters`` of ``others`` can beat
   (cards that "nobody can save themselves" against, tip 4 of the Norwegian page).
3. Burn by choice: a legal 10 when the pile holds >= ``burn_min`` cards and the
   opponents still in are KNOWN to hold >= ``burn_answers`` cards that could go
   on it (they will climb over the pile, so it would come back bigger).
4. With an ordinary rank legal: a 2 instead of the cheapest legal ordinary rank
   when that rank is >= ``two_above`` and >= ``two_specials`` 2s and 10s are
   still with the others (2s are not scarce); else, when the pile holds
   >= ``force_pile`` cards, the cheapest legal ordinary rank that the next
   player still in cannot beat with probability >= ``force_p`` (exact when their
   playable cards are all known: a face-up phase, or a hand made only of KNOWN
   cards; else hypergeometric over the unseen cards); else the cheapest legal rank.
5. Else a 2; else a legal 10; else V5 chance when allowed, ``chance`` = 1 and the
   unseen cards that would be legal on the pile are >= ``chance_p`` of ``U``;
   else pick up.

Ordinary ranks are played with every copy; 2s and 10s go singly while the talon
lasts (a second one would only be replaced by a drawn card).

``count`` = 0 turns all of it off: the turns are then exactly `basic`'s.
"""
from idiotsim.jit import kernel
from idiotsim.observation import (BLIND_SIZE, BURNED, CAN_CHANCE, DECISION, DECKS, FACEUP, FACEUP_SIZE,
                                  HAND_SIZE, KNOWN, LOW_RANK, MUST_PLAY, NR, PILE_COUNTS, PILE_SIZE, PILE_TOP,
                                  PLACE, PLAYERS, SEAT, SOURCE, SRC_HAND, SWAP, TALON_SIZE, TEN_ONLY_ON_LOWER,
                                  TURN)
from idiotsim.strategy_api import (CHANCE, PICKUP, TEN, TWO, Knob, Strategy, held_in_source, legal_now,
                                   rank_is_legal, strategy_function)
from idiotsim.strategies.basic import decide as basic_decide
from idiotsim.strategies.heuristic import ORDINARY, lowest_blind, next_in, play_copies, swap_pick

(K_COUNT, K_SWAP, K_FORCE_P, K_FORCE_PILE, K_BURN_MIN, K_BURN_ANSWERS, K_PICKUP_MAX, K_PICKUP_BEATERS,
 K_TWO_ABOVE, K_TWO_SPECIALS, K_CHANCE, K_CHANCE_P) = range(12)

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



@kernel
def others(obs, hand, q):
    """Cards of rank q the others may still play: not burned, not in the pile, not in the
    own hand, not face-up in front of the deciding player."""
    gone = obs[BURNED + q] + obs[PILE_COUNTS + q] + obs[FACEUP + obs[SEAT] * NR + q] + hand[q]
    return 4 * obs[DECKS] - gone


@kernel
def unseen(obs, hand, q):
    """Cards of rank q nobody has seen: in the talon, a blind row or an opponent's unknown hand cards."""
    c = others(obs, hand, q)
    seat = obs[SEAT]
    for s in range(obs[PLAYERS]):
        if s != seat:
            c -= obs[FACEUP + s * NR + q] + obs[KNOWN + s * NR + q]
    return c


@kernel
def known_total(obs, s):
    t = 0
    for q in range(NR):
        t += obs[KNOWN + s * NR + q]
    return t


@kernel
def unseen_total(obs):
    """U: the talon, every blind card (the own ones too) and the opponents' unknown hand cards."""
    seat = obs[SEAT]
    u = obs[TALON_SIZE]
    for s in range(obs[PLAYERS]):
        u += obs[BLIND_SIZE + s]
        if s != seat:
            u += obs[HAND_SIZE + s] - known_total(obs, s)
    return u


@kernel
def p_cannot_beat(obs, hand, top, nxt, u):
    """The probability that seat `nxt` can play nothing on a pile topped by rank `top`."""
    low = obs[LOW_RANK]
    ten_rule = obs[TEN_ONLY_ON_LOWER] != 0
    if obs[HAND_SIZE + nxt] > 0:  # hand phase: KNOWN cards, then unknown ones drawn from the unseen
        row = KNOWN + nxt * NR
        k = obs[HAND_SIZE + nxt]
        for q in range(NR):
            if obs[row + q] > 0:
                if rank_is_legal(q, top, low, ten_rule):
                    return 0.0
                k -= obs[row + q]
        if k <= 0:
            return 1.0
    elif obs[FACEUP_SIZE + nxt] > 0:  # face-up phase: every playable card is in sight
        row = FACEUP + nxt * NR
        for q in range(NR):
            if obs[row + q] > 0 and rank_is_legal(q, top, low, ten_rule):
                return 0.0
        return 1.0
    else:  # blind phase: one unseen card
        k = 1
    b = 0
    for q in range(NR):
        if rank_is_legal(q, top, low, ten_rule):
            b += unseen(obs, hand, q)
    p = 1.0
    for i in range(k):  # hypergeometric: none of the k unknown cards is one of the b
        if u - b - i <= 0:
            return 0.0
        p *= (u - b - i) / (u - i)
    return p


@kernel
def pile_is_stopper(obs, hand, max_beaters):
    """Every card in the pile is a 2 or a rank at most `max_beaters` of the others' cards can follow."""
    low = obs[LOW_RANK]
    ten_rule = obs[TEN_ONLY_ON_LOWER] != 0
    for r in range(1, NR):
        if obs[PILE_COUNTS + r] > 0:
            b = 0
            for q in range(NR):
                if rank_is_legal(q, r, low, ten_rule):
                    b += others(obs, hand, q)
            if b > max_beaters:
                return False
    return True


@kernel
def known_answers(obs):
    """Cards the opponents still in are KNOWN to hold that could be played on the pile now."""
    seat = obs[SEAT]
    top = obs[PILE_TOP]
    low = obs[LOW_RANK]
    ten_rule = obs[TEN_ONLY_ON_LOWER] != 0
    total = 0
    for s in range(obs[PLAYERS]):
        if s != seat and obs[PLACE + s] == 0:
            for q in range(NR):
                c = obs[KNOWN + s * NR + q]
                if c > 0 and rank_is_legal(q, top, low, ten_rule):
                    total += c
    return total


ALL = 15  # more copies than any rank has


@strategy_function
def decide(obs, hand, params, rng):
    if obs[DECISION] == SWAP:
        return swap_pick(obs, hand, int(params[K_SWAP]))
    if obs[DECISION] != TURN:
        return lowest_blind(obs)
    if params[K_COUNT] == 0:
        return basic_decide(obs, hand, params, rng)
    must = obs[MUST_PLAY]
    if must >= 0:  # V12
        return play_copies(obs, hand, must, ALL)
    pile = obs[PILE_SIZE]
    if pile > 0 and pile <= params[K_PICKUP_MAX] and obs[SOURCE] == SRC_HAND:
        if pile_is_stopper(obs, hand, params[K_PICKUP_BEATERS]):
            return PICKUP
    # While the talon lasts a 2 or a 10 is played singly: a second one would only be replaced
    # by a drawn card, and is worth more kept (play_copies limits hand plays only then).
    ten_ok = held_in_source(obs, hand, TEN) > 0 and legal_now(obs, TEN)
    if ten_ok and pile >= params[K_BURN_MIN] and known_answers(obs) >= params[K_BURN_ANSWERS]:
        return play_copies(obs, hand, TEN, 1)
    lo = -1
    for i in range(11):
        r = ORDINARY[i]
        if held_in_source(obs, hand, r) > 0 and legal_now(obs, r):
            lo = r
            break
    has_two = held_in_source(obs, hand, TWO) > 0
    if lo >= 0:
        if (has_two and lo >= params[K_TWO_ABOVE]
                and others(obs, hand, TWO) + others(obs, hand, TEN) >= params[K_TWO_SPECIALS]):
            return play_copies(obs, hand, TWO, 1)
        force_p = params[K_FORCE_P]
        if force_p > 0 and pile >= params[K_FORCE_PILE]:
            nxt = next_in(obs)
            if nxt != obs[SEAT]:
                u = unseen_total(obs)
                for i in range(11):
                    r = ORDINARY[i]
                    if r >= lo and held_in_source(obs, hand, r) > 0 and legal_now(obs, r):
                        if p_cannot_beat(obs, hand, r, nxt, u) >= force_p:
                            return play_copies(obs, hand, r, ALL)
        return play_copies(obs, hand, lo, ALL)
    if has_two:
        return play_copies(obs, hand, TWO, 1)
    if ten_ok:
        return play_copies(obs, hand, TEN, 1)
    if params[K_CHANCE] != 0 and obs[CAN_CHANCE] != 0:
        u = unseen_total(obs)
        good = 0
        for q in range(NR):
            if legal_now(obs, q):
                good += unseen(obs, hand, q)
        if good >= params[K_CHANCE_P] * u:
            return CHANCE
    return PICKUP


PRESETS = {
    # "Tell spesialkortene" (seeds/002, tip 4): count the 2s and 10s (and everything else).
    "count-specials": {"count": 1},
}

STRATEGY = Strategy(
    name="counter",
    decide=decide,
    description="Card counter: aims unbeatable cards at the next player, burns and picks up by the counts; "
                "count=0 = basic",
    counts_cards=True,
    knobs=KNOBS,
    presets=PRESETS,
)
