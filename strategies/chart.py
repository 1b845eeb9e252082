"""`chart`: the strategy chart of reports/chart.md as a player: it follows the page and nothing else.

The page (every cell measured at strong play, ``idiotsim.experiments.chart_design``) tells a player, and this player does:

- THE SWAP (R6): lay face-up the row of SWAP_ROWS (best first) placed highest that the six cards can make; when
  they make none, three of a kind (SWAP_TRIPLES; the lowest), else the highest pair of 3s to SWAP_PAIRS_TO
  with the best other card by basic's key (3 < .. < A < 2 < 10), else basic's row (the three best cards by that
  key) with the ranks of KEEP_IN_HAND kept in hand (face-up only as many of them as the hand's three places
  cannot hold).
- PICKUPS (R14): in the hand phase, a pile of 1..PICKUP_MAX cards whose every card is a 2 or an ordinary rank
  >= PICKUP_MIN_RANK is picked up (PICKUP_MAX 0: never by choice).
- BURNING: a 10 as soon as the pile holds BURN_FROM cards (0: only when nothing else may be played).
- THE PLAY ORDER: a 2 (every copy) rather than the lowest legal ordinary rank when that rank is TWO_FROM or
  higher; with STOP, when the next player still in is down to face-up cards, the lowest legal ordinary rank none
  of them may follow; with SAVE_SPECIALS, a pickup of a pile of 1..SAVE_SPECIALS cards rather than a 2 or a 10
  when no ordinary rank may be played (hand phase). 0: basic's order.
- COPIES: while the talon lasts, a play from the hand holds at most COPIES_MAX cards (0: every copy).
- ONE AT A TIME: a play from the hand of a rank in SINGLY (10s, Ks and As) is one card (Ks and As all together
  where they make four of a kind on the pile), and of 2s while the talon lasts (TWOS_SINGLY); every other rank
  goes with every copy.
- Everything else is `basic`'s move: the lowest legal ordinary rank with every copy, then 2s, then 10s.

The constants are the page's verdicts as reports/chart.csv states them (tests/experiments/test_chart.py holds
them equal): the measured cells' verdicts, and the rules grown from the decomposition of the strong player's gain
(SWAP_TRIPLES, SWAP_PAIRS_TO, SINGLY, TWOS_SINGLY; chosen on deals of their own, their worth measured on held-out
deals, reports/chart.md). The knobs switch a section off (basic's play in its place), for the page's "what each section is
worth", and set the play order's rules, for its cells; the player the page describes is every knob at its default.
"""
from __future__ import annotations

import numpy as np

from idiotsim.game.basic_player import BASIC_PREFERENCE, basic_turn, lowest_blind, play_all, swap_best
from idiotsim.game.cards import ACE, ORDINARY_MASK, RANK_OF_NAME, TEN, TWO
from idiotsim.game.moves import (MAX_MOVES, PICKUP, can_play, list_swap_moves, play, play_burns, playable_mask,
                                 swap_choice)
from idiotsim.game.observation import (DECISION, FACEUP, FACEUP_SIZE, HAND_SIZE, MUST_PLAY, NR, PILE_SIZE, SEAT,
                                       SOURCE,
                                       SRC_HAND, SWAP, TALON_SIZE, TURN)
from idiotsim.engine.memory import stack_ints
from idiotsim.jit import kernel
from idiotsim.strategies.constraints import pile_is_strong
from idiotsim.strategies.toolkit import (Knob, Strategy, faceup_ranks, followers, knob_ids, next_seat_in,
                                        strategy_function)

# ---- the page (reports/chart.md) -----------------------------------------------------------------------------

SWAP_ROWS = ("3-3-10", "4-4-10", "5-5-10", "6-6-10", "7-7-10", "8-8-10", "9-9-10", "7-7-A")  # face-up rows better
# than basic's, best first
KEEP_IN_HAND = ()  # ranks kept in hand when no row of the list can be made
PICKUP_MAX = 0  # pick up piles of 1..PICKUP_MAX cards (0: never by choice) ...
PICKUP_MIN_RANK = RANK_OF_NAME["K"]  # ... whose every card is a 2 or this ordinary rank or higher
BURN_FROM = 0  # a 10 as soon as the pile holds this many cards (0: saved while another play is legal)
COPIES_MAX = 0  # at most this many cards a play from the hand while the talon lasts (0: every copy)
TWO_FROM = RANK_OF_NAME["A"]  # the play order: a 2 rather than the lowest legal ordinary rank from this rank id up (0: never)
STOP = 0  # the play order: 1 the lowest card none of the next player's face-up cards beats, when that is all they have
SAVE_SPECIALS = 0  # pick up a pile of 1..SAVE_SPECIALS cards rather than spend a 2 or a 10 on it (0: never)
SWAP_TRIPLES = 1  # no listed row: three of a kind face-up (1) or not (0)
SWAP_PAIRS_TO = RANK_OF_NAME["K"]  # no listed row nor three of a kind: the highest pair of 3s up to this rank id,
# with the best other card, face-up (0: never)
SINGLY = ("10", "K", "A")  # ranks played one card at a time from the hand
TWOS_SINGLY = 1  # 2s one at a time from the hand while the talon lasts (1) or every copy (0)

NOT_LISTED = 10_000  # a row the page does not list


def row_code(row: str) -> int:
    """The swap choice code (ranks ascending, ``moves.sorted_swap``) of a row written "10-10-Q"."""
    a, b, c = sorted(RANK_OF_NAME[name] for name in row.split("-"))
    return a + NR * b + NR * NR * c


def row_places(rows) -> np.ndarray:
    """table[code] = the row's place in the page's list (0 = best), NOT_LISTED for the others."""
    table = np.full(NR ** 3, NOT_LISTED, np.int64)
    for place, row in enumerate(rows):
        table[row_code(row)] = place
    table.setflags(write=False)
    return table


def keep_preference(keep) -> np.ndarray:
    """basic's order of the ranks it wants face-up (best first) with the ranks to keep in hand moved last."""
    order = [r for r in BASIC_PREFERENCE if r not in {RANK_OF_NAME[k] for k in keep}]
    order += [r for r in BASIC_PREFERENCE if r in {RANK_OF_NAME[k] for k in keep}]
    return np.array(order, np.int64)


def rank_bits(ranks) -> int:
    """One bit per rank named ("10", "K")."""
    bits = 0
    for name in ranks:
        bits |= 1 << RANK_OF_NAME[name]
    return bits


ROW_PLACE = row_places(SWAP_ROWS)
FALLBACK_PREFERENCE = keep_preference(KEEP_IN_HAND)
SINGLY_BITS = rank_bits(SINGLY)

# Each section of the page can be switched off (basic's play in its place); the page's player is every knob at 1.
KNOBS = (
    Knob("swap", 1, 0, 1, "1 the page's listed rows and ranks kept in hand; 0 not (basic's row, or the triples and "
                          "pairs knobs)"),
    Knob("pickups", 1, 0, 1, "1 the page's voluntary pickups; 0 never by choice (basic)"),
    Knob("burning", 1, 0, 1, "1 the page's burning; 0 a 10 only when nothing else may be played (basic)"),
    Knob("copies", 1, 0, 1, "1 the page's copies while the talon lasts; 0 every copy (basic)"),
    Knob("two_from", TWO_FROM, 0, ACE,
         "the play order: a 2 instead of the lowest legal ordinary rank when that rank id (1='3' .. 12='A') is "
         "this one or higher; 0 never (basic)"),
    Knob("stop", STOP, 0, 1,
         "the play order: 1 when the next player still in plays from face-up cards, the lowest legal ordinary rank "
         "that none of them may follow, when there is one; 0 never (basic)"),
    Knob("save_specials", SAVE_SPECIALS, 0, 52,
         "pick up a pile of 1..N cards (hand phase) rather than play a 2 or a 10 on it when no ordinary card may "
         "be played; 0 never (basic)"),
    Knob("triples", SWAP_TRIPLES, 0, 1, "with no listed row: 1 three of a kind face-up; 0 not (basic's row)"),
    Knob("pairs", SWAP_PAIRS_TO, 0, ACE,
         "with no listed row nor three of a kind: the highest pair of rank id 1 ('3') up to this one face-up with "
         "the best other card; 0 never (basic's row)"),
    Knob("high_singly", 1, 0, 1, "1 Ks and As (of SINGLY) one at a time from the hand; 0 every copy (basic)"),
    Knob("tens_singly", 1, 0, 1, "1 10s (of SINGLY) one at a time from the hand; 0 every copy (basic)"),
    Knob("twos_singly", TWOS_SINGLY, 0, 1, "1 2s one at a time from the hand while the talon lasts; 0 every copy"),
)
K = knob_ids(KNOBS)


# ---- the player ----------------------------------------------------------------------------------------------

@kernel
def group_swap(obs, hand, triples, pairs_to):
    """Three of a kind (the lowest, with `triples`), else the highest pair of rank id 1 up to `pairs_to` with the
    best other card by basic's key; -1 when the six cards hold neither."""
    row = FACEUP + obs[SEAT] * NR
    if triples != 0:
        for r in range(1, NR):
            if r != TEN and hand[r] + obs[row + r] >= 3:
                return swap_choice(r, r, r)
    for r in range(min(pairs_to, NR - 1), 0, -1):
        if r != TEN and hand[r] + obs[row + r] >= 2:
            for i in range(NR):
                other = BASIC_PREFERENCE[i]
                if hand[other] + obs[row + other] - (2 if other == r else 0) > 0:
                    return swap_choice(r, r, other)
    return -1


@kernel
def chart_swap(obs, hand, params):
    """The listed row placed highest that the six cards can make, else three of a kind or the highest pair with
    the best other card (the `triples` and `pairs` knobs), else basic's row with KEEP_IN_HAND in hand."""
    if params[K.swap] != 0:
        best_place = NOT_LISTED
        best = -1
        choices = stack_ints(MAX_MOVES)
        for i in range(list_swap_moves(obs, hand, choices)):
            place = ROW_PLACE[choices[i]]
            if place < best_place:
                best, best_place = choices[i], place
        if best_place < NOT_LISTED:
            return best
    group = group_swap(obs, hand, params[K.triples], int(params[K.pairs]))
    if group >= 0:
        return group
    return swap_best(obs, hand, FALLBACK_PREFERENCE if params[K.swap] != 0 else BASIC_PREFERENCE)


@kernel
def one_at_a_time(obs, hand, params, move):
    """`move` (a play from the hand) cut to one card where the chart says so: 10s, and Ks and As (SINGLY) unless
    they make four of a kind; 2s while the talon lasts."""
    if move < 0 or obs[SOURCE] != SRC_HAND or (move >> 4) & 15 <= 1 or (move >> 8) != 0:
        return move
    rank = move & 15
    if rank == TEN and params[K.tens_singly] != 0 and (SINGLY_BITS >> TEN) & 1:
        return play(rank, 1, 0)
    if rank != TEN and (SINGLY_BITS >> rank) & 1 and params[K.high_singly] != 0 and not play_burns(obs, move):
        return play(rank, 1, 0)  # but all of them where they make four of a kind (a burn, R16.2)
    elif rank == TWO and params[K.twos_singly] != 0 and obs[TALON_SIZE] > 0:
        return play(rank, 1, 0)
    return move


@kernel
def stopping_rank(obs, hand, lowest):
    """When the next player still in plays from face-up cards (no hand): the lowest legal ordinary rank from
    `lowest` up that none of those cards may follow (they must pick up); -1 when there is none."""
    nxt = next_seat_in(obs)
    if nxt == obs[SEAT] or obs[HAND_SIZE + nxt] > 0 or obs[FACEUP_SIZE + nxt] == 0:
        return -1
    theirs = faceup_ranks(obs, nxt)
    ordinary = playable_mask(obs, hand) & ORDINARY_MASK
    for r in range(lowest, NR):
        if (ordinary >> r) & 1 and followers(obs, r) & theirs == 0:
            return r
    return -1


@kernel
def chart_turn(obs, hand, params):
    return one_at_a_time(obs, hand, params, page_turn(obs, hand, params))


@kernel
def page_turn(obs, hand, params):
    """The turn by the measured sections (pickups, burning, the play order, copies), before ONE AT A TIME."""
    basic = basic_turn(obs, hand)
    if obs[MUST_PLAY] >= 0:  # V12: the opening play is basic's
        return basic
    pile = obs[PILE_SIZE]
    from_hand = obs[SOURCE] == SRC_HAND
    if params[K.pickups] != 0 and from_hand and 0 < pile <= PICKUP_MAX and pile_is_strong(obs, PICKUP_MIN_RANK):
        return PICKUP
    if params[K.burning] != 0 and BURN_FROM > 0 and pile >= BURN_FROM and can_play(obs, hand, TEN):
        return play(TEN, 1, 0)  # one 10 burns the pile; the others wait
    rank = basic & 15
    if params[K.save_specials] > 0 and basic >= 0 and (rank == TWO or rank == TEN) and from_hand \
            and 0 < pile <= params[K.save_specials]:
        return PICKUP
    if params[K.stop] != 0 and basic >= 0 and rank != TWO and rank != TEN:
        stop = stopping_rank(obs, hand, rank)
        if stop >= 0:
            return play_all(obs, hand, stop)
    if params[K.two_from] > 0 and basic >= 0 and rank != TWO and rank != TEN and rank >= params[K.two_from] \
            and can_play(obs, hand, TWO):  # the play order: a 2 rather than a high ordinary rank
        return play_all(obs, hand, TWO)
    if params[K.copies] != 0 and COPIES_MAX > 0 and from_hand and obs[TALON_SIZE] > 0 and basic >= 0:
        count = (basic >> 4) & 15
        if count > COPIES_MAX and (basic >> 8) == 0:
            return play(basic & 15, COPIES_MAX, 0)
    return basic


@strategy_function
def decide(obs, hand, params, rng):
    if obs[DECISION] == SWAP:
        return chart_swap(obs, hand, params)
    if obs[DECISION] == TURN:
        return chart_turn(obs, hand, params)
    return lowest_blind(obs)


STRATEGY = Strategy(
    name="chart",
    decide=decide,
    description="the strategy chart (reports/chart.md) as a player: its face-up rows, pairs and triples, play "
                "order, one card at a time, pickups, burning and copies; basic's move elsewhere",
    knobs=KNOBS,
    looks_at=("own cards", "pile", "the talon", "the next player's face-up row (the stop knob)"),
)
