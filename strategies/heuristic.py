"""`heuristic`: one parametric policy whose knobs cover the common arguments
about how to play Idiot (which cards lie face-up, when to burn, when to spend
a 2, whether to hold copies back, voluntary pickups, blocking, V5 chance).

With every knob at its default it plays exactly like `basic` (RULES.md); the
tests check that both engines give identical traces. Each knob is described in
``KNOBS`` below and in docs/strategies.md.

A turn (hand or face-up phase) is decided in this order:

1. V12: the opening play must be of ``MUST_PLAY``: play it.
2. Voluntary pickup (``pickup_max``, ``pickup_min_rank``), hand phase only.
3. A burn by choice: a legal 10 when the pile holds >= ``burn_min`` cards.
4. If an ordinary rank is legal: a 2 instead when ``save_twos`` = 0 and the
   cheapest legal ordinary rank is >= ``two_above``; otherwise the lowest
   legal ordinary rank (the highest with ``order`` = 1 while drawing, or when ``block`` is
   on and the next player still in holds <= ``block_cards`` cards).
5. Else a 2; else a legal 10; else V5 chance (``chance`` = 1, when allowed);
   else pick up.

Every play is of all copies in the source, except that while the talon lasts a
play from the hand has at most ``max_copies`` cards (R16.1 refills the hand to 3
anyway); once the talon is empty every copy is played, so no card is left
stranded in a hand that can only shrink.
"""
import numpy as np

from idiotsim.jit import kernel
from idiotsim.observation import (BLIND_PRESENT, BLIND_SIZE, CAN_CHANCE, DECISION, FACEUP, FACEUP_SIZE,
                                  HAND_SIZE, MUST_PLAY, NR, PILE_COUNTS, PILE_SIZE, PLACE, PLAYERS, SEAT,
                                  SOURCE, SRC_HAND, SWAP, TALON_SIZE, TURN)
from idiotsim.strategy_api import (CHANCE, PICKUP, TEN, TWO, Knob, Strategy, faceup_addable, held_in_source,
                                   legal_now, play, strategy_function)

ACE = 12
KING = 11

# The ordinary ranks, low to high (R2): 3 4 5 6 7 8 9 J Q K A.
ORDINARY = np.array([1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12], dtype=np.int64)

# Swap modes 1..4: the ranks in the order they are wanted face-up (most wanted first).
SWAP_ORDER = np.array([
    [TEN, TWO, 12, 11, 10, 9, 7, 6, 5, 4, 3, 2, 1],  # 1: the basic key, highest first
    [TWO, 12, 11, 10, 9, 7, 6, 5, 4, 3, 2, 1, TEN],  # 2: best face-up, 10s kept in hand
    [TEN, 12, 11, 10, 9, 7, 6, 5, 4, 3, 2, 1, TWO],  # 3: 10s face-up, then best ordinary; 2s in hand
    [12, 11, 10, 9, 7, 6, 5, 4, 3, 2, 1, TWO, TEN],  # 4: 2s and 10s in hand, best ordinary face-up
], dtype=np.int64)

# knob indices (the order of KNOBS)
(K_SWAP, K_ORDER, K_BURN_MIN, K_SAVE_TWOS, K_TWO_ABOVE, K_MAX_COPIES, K_PICKUP_MAX, K_PICKUP_MIN_RANK,
 K_BLOCK, K_BLOCK_CARDS, K_CHANCE) = range(11)

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


@kernel
def swap_pick(obs, hand, mode):
    """The swap decision for a swap mode (see the `swap` knob)."""
    row = FACEUP + obs[SEAT] * NR
    choice = 0
    if mode == 0:  # keep the deal: the dealt face-up cards stay face-up
        for r in range(NR):
            for _ in range(obs[row + r]):
                choice = choice * NR + r
        return choice
    need = 3
    for i in range(NR):
        r = SWAP_ORDER[mode - 1, i]
        k = hand[r] + obs[row + r]
        while k > 0 and need > 0:
            choice = choice * NR + r
            need -= 1
            k -= 1
    return choice


@kernel
def lowest_blind(obs):
    """The lowest-numbered remaining blind position."""
    base = BLIND_PRESENT + obs[SEAT] * 3
    for pos in range(3):
        if obs[base + pos]:
            return pos
    return 0


@kernel
def next_in(obs):
    """The next seat still in (R4), or the deciding seat when no one else is."""
    n = obs[PLAYERS]
    seat = obs[SEAT]
    s = seat
    for _ in range(n - 1):
        s += 1
        if s >= n:
            s = 0
        if obs[PLACE + s] == 0:
            return s
    return seat


@kernel
def cards_held(obs, seat):
    return obs[HAND_SIZE + seat] + obs[FACEUP_SIZE + seat] + obs[BLIND_SIZE + seat]


@kernel
def play_copies(obs, hand, rank, max_copies):
    """A play of `rank` from the source: all copies, or at most `max_copies` from the hand
    while the talon lasts; V11 face-up cards join a play that empties the hand."""
    held = held_in_source(obs, hand, rank)
    count = held
    if count > max_copies and obs[SOURCE] == SRC_HAND and obs[TALON_SIZE] > 0:
        count = max_copies
    return play(rank, count, faceup_addable(obs, hand, rank, count))


@kernel
def pile_is_strong(obs, min_rank):
    """Every card in the pile is a 2 or an ordinary rank >= min_rank (a 10 never stays on it)."""
    for r in range(1, NR):
        if obs[PILE_COUNTS + r] > 0 and r < min_rank:
            return False
    return True


@strategy_function
def decide(obs, hand, params, rng):
    if obs[DECISION] == SWAP:
        return swap_pick(obs, hand, int(params[K_SWAP]))
    if obs[DECISION] != TURN:
        return lowest_blind(obs)
    max_copies = int(params[K_MAX_COPIES])
    must = obs[MUST_PLAY]
    if must >= 0:  # V12
        return play_copies(obs, hand, must, max_copies)
    pile = obs[PILE_SIZE]
    # Voluntary pickup of a small strong pile (R14), from the hand phase only.
    if pile > 0 and pile <= params[K_PICKUP_MAX] and obs[SOURCE] == SRC_HAND:
        if pile_is_strong(obs, int(params[K_PICKUP_MIN_RANK])):
            return PICKUP
    ten_ok = held_in_source(obs, hand, TEN) > 0 and legal_now(obs, TEN)
    if ten_ok and pile >= params[K_BURN_MIN]:
        return play_copies(obs, hand, TEN, max_copies)
    lo = -1
    hi = -1
    for i in range(11):
        r = ORDINARY[i]
        if held_in_source(obs, hand, r) > 0 and legal_now(obs, r):
            if lo < 0:
                lo = r
            hi = r
    has_two = held_in_source(obs, hand, TWO) > 0
    if lo >= 0:
        if has_two and params[K_SAVE_TWOS] == 0 and lo >= params[K_TWO_ABOVE]:
            return play_copies(obs, hand, TWO, max_copies)
        r = lo
        if params[K_ORDER] != 0 and obs[TALON_SIZE] > 0 and obs[HAND_SIZE + obs[SEAT]] <= 3:
            # "While drawing": not with a hand swollen by a pickup, where playing high cards
            # would make players pass the pile round and round without drawing (R20 stalls).
            r = hi
        elif params[K_BLOCK] != 0 and cards_held(obs, next_in(obs)) <= params[K_BLOCK_CARDS]:
            r = hi
        return play_copies(obs, hand, r, max_copies)
    if has_two:
        return play_copies(obs, hand, TWO, max_copies)
    if ten_ok:
        return play_copies(obs, hand, TEN, max_copies)
    if params[K_CHANCE] != 0 and obs[CAN_CHANCE] != 0:
        return CHANCE
    return PICKUP


PRESETS = {
    # The Norwegian page's tips (seeds/002): basic already follows the first three, so these
    # presets play like basic; each has a contrast preset that breaks the tip.
    "best-faceup": {"swap": 1},          # "Legg de beste kortene åpent på bordet" (A, 2, 10 face-up)
    "keep-deal": {"swap": 0},            # contrast: no swap at all
    "specials-in-hand": {"swap": 4},     # contrast: 2s and 10s kept in hand
    "low-early": {"order": 0},           # "Bruk lave kort tidlig" (lowest legal rank first)
    "high-early": {"order": 1},          # contrast: highest legal rank first while drawing
    "no-early-burn": {"burn_min": 104},  # "Ikke brenn for tidlig": a 10 only when otherwise stuck
    "burn-early": {"burn_min": 1},       # contrast: burn any pile as soon as a 10 is held
    "chancer": {"chance": 1},            # the page's "sjanse" (V5) instead of a forced pickup
    # Other arguments players have.
    "spend-twos": {"save_twos": 0, "two_above": KING},  # a 2 rather than a K or an A
    "hold-back": {"max_copies": 1},      # one card a turn while the talon lasts
    "pickup-small": {"pickup_max": 3, "pickup_min_rank": KING},  # take piles of <= 3 cards of K, A, 2
    "blocker": {"block": 1, "block_cards": 3},  # highest card at a player about to go out
}

STRATEGY = Strategy(
    name="heuristic",
    decide=decide,
    description="Parametric rule player: swap mode, burn threshold, 2s, copies held back, voluntary "
                "pickups, blocking, chance; defaults = basic",
    knobs=KNOBS,
    presets=PRESETS,
)
