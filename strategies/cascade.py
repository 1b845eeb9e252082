"""What `heuristic` and `counter` share: the swap modes and ONE turn cascade.

A turn (hand or face-up phase) is decided in this order; each family fills a
``TurnPlan`` from its knobs, and a step whose plan value is ``OFF`` is skipped:

1. V12: the opening play must be of ``MUST_PLAY``: play it.
2. Voluntary pickup (R14), hand phase only: a pile of 1..``pickup_max`` cards
   whose every card is a 2 or an ordinary rank >= ``pickup_min_rank``, and
   (counting) can be followed by at most ``pickup_beaters`` of the cards the
   others may still hold.
3. A burn by choice: a legal 10 when the pile holds >= ``burn_min`` cards and
   (counting) the opponents still in are KNOWN to hold >= ``burn_answers``
   cards playable on it.
4. If an ordinary rank is legal: a 2 instead of the cheapest one when that rank
   is >= ``two_above`` and (counting) >= ``two_specials`` 2s and 10s are still
   with the others. Else the cheapest legal ordinary rank, except:
   aiming (``aim_p`` > 0, pile >= ``aim_pile``): the cheapest one the next
   player still in cannot beat with probability >= ``aim_p``; ``high_while_drawing``:
   the highest while the talon lasts and the hand is not swollen by a pickup;
   blocking: the highest when the next player still in holds <= ``block_cards``.
5. Else a 2; else a legal 10; else V5 chance (``chance``, when allowed and
   (counting) >= ``chance_p`` of the unseen cards would be legal); else pick up.

Ordinary ranks go at most ``ordinary_copies`` at a time from the hand while the
talon lasts, 2s and 10s at most ``special_copies`` (``play_at_most``).
"""
from typing import NamedTuple

import numpy as np

from idiotsim.game.cards import HAND_TARGET
from idiotsim.jit import kernel
from idiotsim.strategies.constraints import pile_is_strong
from idiotsim.strategies.toolkit import (CHANCE, LOW_RANK, NR, ORDINARY_MASK, PICKUP, SRC_HAND, TEN, TWO, can_chance, can_play,
                              cards_held, faceup_count, faceup_ranks, faceup_size, followers, follows, hand_size,
                              held_in_source, highest_rank, is_in, known_count, known_ranks, known_total,
                              legal_now, legal_ranks, lowest_rank, must_play, my_seat, next_seat_in, pile_count,
                              pile_size, play_at_most, playable_mask, player_count, source, swap_best,
                              swap_keep_deal, talon_size, unseen, unseen_total, with_others)

OFF = -1.0
NEVER = 99.0  # a rank threshold no rank reaches

# Swap modes 1..4: the ranks in the order they are wanted face-up (most wanted first).
SWAP_PREFERENCES = np.array([
    [TEN, TWO, 12, 11, 10, 9, 7, 6, 5, 4, 3, 2, 1],  # 1: the basic key, highest first
    [TWO, 12, 11, 10, 9, 7, 6, 5, 4, 3, 2, 1, TEN],  # 2: best face-up, 10s kept in hand
    [TEN, 12, 11, 10, 9, 7, 6, 5, 4, 3, 2, 1, TWO],  # 3: 10s face-up, then best ordinary; 2s in hand
    [12, 11, 10, 9, 7, 6, 5, 4, 3, 2, 1, TWO, TEN],  # 4: 2s and 10s in hand, best ordinary face-up
], dtype=np.int64)


@kernel
def swap_by_mode(obs, hand, mode):
    """The swap for a swap mode: 0 keeps the deal, 1..4 follow SWAP_PREFERENCES."""
    if mode == 0:
        return swap_keep_deal(obs)
    return swap_best(obs, hand, SWAP_PREFERENCES[mode - 1])


class TurnPlan(NamedTuple):
    """The cascade's thresholds (see the module docstring); floats are compared as knobs are."""
    pickup_max: float
    pickup_min_rank: float
    pickup_beaters: float
    burn_min: float
    burn_answers: float
    two_above: float
    two_specials: float
    aim_p: float
    aim_pile: float
    high_while_drawing: float
    block_cards: float
    chance: float
    chance_p: float
    ordinary_copies: int
    special_copies: int


# ---- the counting steps ----------------------------------------------------------

@kernel
def pile_is_stopper(obs, hand, max_beaters):
    """Every card in the pile is a 2 or a rank at most `max_beaters` of the others' cards can follow."""
    for r in range(1, NR):
        if pile_count(obs, r) > 0:
            b = 0
            for q in range(NR):
                if follows(obs, q, r):
                    b += with_others(obs, hand, q)
            if b > max_beaters:
                return False
    return True


@kernel
def known_answers(obs):
    """Cards the opponents still in are KNOWN to hold that could be played on the pile now."""
    seat = my_seat(obs)
    total = 0
    for s in range(player_count(obs)):
        if s != seat and is_in(obs, s):
            for q in range(NR):
                c = known_count(obs, s, q)
                if c > 0 and legal_now(obs, q):
                    total += c
    return total


@kernel
def unseen_by_rank(obs, hand):
    """``unseen`` of every rank, packed 4 bits a rank (rank r at bits 4r..4r+3; a rank has at
    most 8 cards): one pass over the table, then sums over any set of ranks in registers.
    Every packed count ends >= 0, so the subtractions may borrow across ranks on the way."""
    packed = 0
    for q in range(NR):
        packed += with_others(obs, hand, q) << (4 * q)
    seat = my_seat(obs)
    for s in range(player_count(obs)):
        if s != seat:
            for q in range(NR):
                packed -= (faceup_count(obs, s, q) + known_count(obs, s, q)) << (4 * q)
    return packed


@kernel(inline="always")
def packed_sum(packed, ranks):
    """The sum of the packed counts of the ranks in the mask `ranks`."""
    total = 0
    while ranks:
        total += (packed >> (4 * lowest_rank(ranks))) & 15
        ranks &= ranks - 1
    return total


@kernel(inline="always")
def p_none_drawn(u, b, k):
    """Hypergeometric: the probability that none of k cards drawn from u unseen ones is one of b."""
    p = 1.0
    for i in range(k):
        if u - b - i <= 0:
            return 0.0
        p *= (u - b - i) / (u - i)
    return p


@kernel
def aimed_rank(obs, hand, playable_ordinary, aim_p):
    """The cheapest playable ordinary rank the next player still in cannot beat with probability
    >= aim_p; the cheapest playable one when none qualifies.

    The next player plays from cards in sight (`seen`: the KNOWN cards of their hand, or their
    face-up row) and `k` unknown ones: the rest of their hand, or one blind card. Any seen card
    that follows makes the probability 0; with no unknown card it is 1; else none of the k may be
    among the unseen cards that follow."""
    lo = lowest_rank(playable_ordinary)
    nxt = next_seat_in(obs)
    if nxt == my_seat(obs):
        return lo
    if hand_size(obs, nxt) > 0:
        seen = known_ranks(obs, nxt)
        k = hand_size(obs, nxt) - known_total(obs, nxt)
    elif faceup_size(obs, nxt) > 0:
        seen = faceup_ranks(obs, nxt)
        k = 0
    else:
        seen = 0
        k = 1
    packed = unseen_by_rank(obs, hand) if k > 0 else 0
    u = unseen_total(obs) if k > 0 else 0
    if obs[LOW_RANK] < 0:
        # Without V1/V2 a higher rank has fewer followers, so a lower one is never safer:
        # when the highest fails, they all do.
        if p_unbeaten(obs, highest_rank(playable_ordinary), seen, k, packed, u) < aim_p:
            return lo
    candidates = playable_ordinary
    while candidates:
        r = lowest_rank(candidates)
        if p_unbeaten(obs, r, seen, k, packed, u) >= aim_p:
            return r
        candidates &= candidates - 1
    return lo


@kernel(inline="always")
def p_unbeaten(obs, top, seen, k, packed, u):
    """The probability that a player with the `seen` ranks and k unknown cards (drawn from u unseen
    ones, packed by rank) can play nothing on `top`."""
    beaters = followers(obs, top)
    if seen & beaters:
        return 0.0
    if k <= 0:
        return 1.0
    return p_none_drawn(u, packed_sum(packed, beaters), k)


@kernel
def chance_pays(obs, hand, chance_p):
    """At least a share chance_p of the unseen cards would be legal on the pile."""
    return packed_sum(unseen_by_rank(obs, hand), legal_ranks(obs)) >= chance_p * unseen_total(obs)


# ---- the cascade -------------------------------------------------------------------

@kernel(inline="always")
def turn_cascade(obs, hand, plan):
    """A turn in the hand or face-up phase, decided by `plan` (see the module docstring)."""
    must = must_play(obs)
    if must >= 0:  # V12
        return play_at_most(obs, hand, must, plan.ordinary_copies)
    pile = pile_size(obs)
    if 0 < pile <= plan.pickup_max and source(obs) == SRC_HAND:
        if pile_is_strong(obs, plan.pickup_min_rank) and (
                plan.pickup_beaters < 0 or pile_is_stopper(obs, hand, plan.pickup_beaters)):
            return PICKUP
    ten_ok = can_play(obs, hand, TEN)
    if ten_ok and pile >= plan.burn_min and (plan.burn_answers <= 0 or known_answers(obs) >= plan.burn_answers):
        return play_at_most(obs, hand, TEN, plan.special_copies)
    ordinary = playable_mask(obs, hand) & ORDINARY_MASK
    has_two = held_in_source(obs, hand, TWO) > 0
    if ordinary:
        lo = lowest_rank(ordinary)
        if has_two and lo >= plan.two_above and (
                plan.two_specials <= 0
                or with_others(obs, hand, TWO) + with_others(obs, hand, TEN) >= plan.two_specials):
            return play_at_most(obs, hand, TWO, plan.special_copies)
        r = lo
        if plan.aim_p > 0 and pile >= plan.aim_pile:
            if ordinary & (ordinary - 1):  # with one playable rank there is nothing to choose
                r = aimed_rank(obs, hand, ordinary, plan.aim_p)
        elif plan.high_while_drawing != 0 and talon_size(obs) > 0 and hand_size(obs, my_seat(obs)) <= HAND_TARGET:
            # Not with a hand swollen by a pickup, where playing high cards would make players
            # pass the pile round and round without drawing (R20 stalls).
            r = highest_rank(ordinary)
        elif plan.block_cards >= 0 and cards_held(obs, next_seat_in(obs)) <= plan.block_cards:
            r = highest_rank(ordinary)
        return play_at_most(obs, hand, r, plan.ordinary_copies)
    if has_two:
        return play_at_most(obs, hand, TWO, plan.special_copies)
    if ten_ok:
        return play_at_most(obs, hand, TEN, plan.special_copies)
    if plan.chance != 0 and can_chance(obs) and (plan.chance_p <= 0 or chance_pays(obs, hand, plan.chance_p)):
        return CHANCE
    return PICKUP
