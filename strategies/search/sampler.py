"""Determinization for the search (``idiotsim.strategies.search.pimc``): engine states built from what a seat has seen.

`sample_state` (TURN and BLIND decisions) and `sample_deal` (the swap, R6) build a full engine table
(its hidden cards by ``idiotsim.engine.hidden_cards``) from the seat's observation and its own hand: every card it has not seen
(`hidden_pool`: the opponents' hand cards that are not publicly KNOWN, every blind card including its
own, the talon) is dealt into the hidden places, every size as the observation shows it. The draws
come from the seat's random stream only, so the same observation, hand and stream always give the
same state, whatever the hidden cards really are.

Two beliefs (the `belief` knob of the search):

- UNIFORM: every arrangement of the hidden cards is equally likely (a shuffle of the pool).
- BASIC_MODEL: the opponents play like `basic`, which never picks up by choice (R14): an opponent
  that picked up facing the legal mask PICKUP_LEGAL held no card of those ranks then, so of its hand
  cards that are not KNOWN at most PICKUP_FREE are of such ranks now (the cards drawn since, less
  such cards played since: observation.py, docs/rules.md "Pickup facts"). Samples are uniform over
  the arrangements that agree with every such fact (`_deal_believed_hands`). A fact no arrangement
  can meet (an opponent that broke the model) is dropped; facts that cannot all hold together
  fall back to the uniform belief after MAX_TRIES rejected tries.
- BASIC_PLAYS: the same with the play facts instead (LACKS, LACKS_FREE; docs/rules.md "Play facts"):
  what `basic`'s swap, plays and pickups imply its hand lacks, of which the pickup facts are a part.
- NO_MEMORY: a player who does not count, who remembers nothing of the cards that have left play. Only
  what is in sight now is known: its own hand, every face-up card and the pile's top run (PILE_TOP,
  PILE_RUN); every size (hands, blind rows, talon, pile) too, but not which cards were burned, which lie
  in the pile below its top run, nor which an opponent picked up in sight (KNOWN), nor any fact. The
  hidden places, the pile below its top run (never a 10: a 10 burns) and the burned cards are dealt from
  everything not in sight (`visible_pool`), uniformly among such arrangements (`_sample_forgetting`):
  cards that were in fact burned or buried may come back into a hand or the talon of a sample. The
  sampled state forgets what the player does: no KNOWN card, no fact.

The kernels allocate nothing: the pool is the caller's work array. A search draws K samples of one
decision from the same pool, so it builds the pool (`hidden_pool`) and what the belief makes of it
(`plan_samples`) once, and samples from a copy of the pool each time (`sample_state_from`,
`sample_deal_from`): the same samples as `sample_state` and `sample_deal`, which do all of it per call.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from idiotsim.engine.hidden_cards import (MAX_TABLE_CARDS, NO_CARD, add_dealt_faceup_card, add_hand_card,
                                          copy_range, set_blind_card, set_dealt_faceup_count, set_hand_count, set_talon,
                                          set_talon_card, settle_scalars)
from idiotsim.engine.memory import data_pointer
from idiotsim.game import observation as ob
from idiotsim.jit import kernel
from idiotsim.game.cards import TEN
from idiotsim.game.observation import NR
from idiotsim.game.rng import nb_below_from, nb_next_u64

CARDS_PER_RANK = 4  # per deck (R1, V7)
UNIFORM, BASIC_MODEL, BASIC_PLAYS, NO_MEMORY = 0, 1, 2, 3  # values of the search's belief knob
# Tries of the belief's rejection step before it falls back to the uniform belief. A try is kept with
# probability the product, over every binding fact but the first, of the share of its hands that the
# earlier seats' hands leave; with one binding fact (most positions) every try is kept, and no fallback
# was seen in 8,000 samples of basic games (docs/strategies.md, "The belief").
MAX_TRIES = 64


@kernel
def hidden_pool(obs, hand, pool):
    """The cards `obs[SEAT]` has not seen, as ranks in rank order in pool[:m]; returns m (-1 when
    the observation counts more cards of a rank than the deck holds)."""
    seat = obs[ob.SEAT]
    n = obs[ob.PLAYERS]
    m = 0
    for r in range(NR):
        unseen = CARDS_PER_RANK * obs[ob.DECKS] - obs[ob.BURNED + r] - obs[ob.PILE_COUNTS + r] - hand[r]
        for s in range(n):
            unseen -= obs[ob.FACEUP + s * NR + r]
            if s != seat:
                unseen -= obs[ob.KNOWN + s * NR + r]
        if unseen < 0:
            return -1
        for _ in range(unseen):
            pool[m] = r
            m += 1
    return m


@kernel
def visible_pool(obs, hand, pool):
    """NO_MEMORY's pool: every card not in sight of `obs[SEAT]` now (not in its hand, not face-up, not in
    the pile's top run), as ranks in rank order in pool[:m]; returns m (-1 when the observation shows more
    cards of a rank than the deck holds)."""
    n = obs[ob.PLAYERS]
    m = 0
    for r in range(NR):
        unseen = CARDS_PER_RANK * obs[ob.DECKS] - hand[r]
        if r == obs[ob.PILE_TOP]:
            unseen -= obs[ob.PILE_RUN]
        for s in range(n):
            unseen -= obs[ob.FACEUP + s * NR + r]
        if unseen < 0:
            return -1
        for _ in range(unseen):
            pool[m] = r
            m += 1
    return m


@kernel
def decision_pool(obs, hand, pool, belief):
    """The pool a decision's samples are dealt from under `belief`: `visible_pool` for NO_MEMORY, else
    `hidden_pool`."""
    if belief == NO_MEMORY:
        return visible_pool(obs, hand, pool)
    return hidden_pool(obs, hand, pool)


@kernel
def shuffle(pool, m, rng):
    """Fisher-Yates over pool[:m], from the seat's stream."""
    shuffle_range(pool, 0, m, rng)


@kernel
def shuffle_range(pool, lo, hi, rng):
    """Fisher-Yates over pool[lo:hi], from the seat's stream (its state in a local meanwhile)."""
    p = data_pointer(pool)
    s = rng[0]
    for i in range(hi - 1, lo, -1):
        s, d = nb_below_from(s, i - lo + 1)
        j = lo + int(d)
        t = p[i]
        p[i] = p[j]
        p[j] = t
    rng[0] = s


@kernel(inline="always")
def _deal_blinds(p, obs, c, k, m, n):
    """c[k:m] onto every present blind position of the n seats (NO_CARD at the others), seat by seat;
    returns the next k, or -1 when the cards run out."""
    for s in range(n):
        for position in range(3):
            if obs[ob.BLIND_PRESENT + 3 * s + position] != 0:
                if k >= m:
                    return -1
                set_blind_card(p, s, position, c[k])
                k += 1
            else:
                set_blind_card(p, s, position, NO_CARD)
    return k


@kernel
def _set_counters(st, obs):
    """The public part of a state: the observation's header and the rows of the seats in play (rows
    past them are never written, so they keep the zeros of a fresh state), the game scalars it
    implies, and a talon of the observation's size."""
    n = obs[ob.PLAYERS]
    o = data_pointer(obs)
    p = data_pointer(st)
    copy_range(o, p, 0, ob.HEADER_SIZE)
    for start in (ob.FACEUP, ob.KNOWN):
        copy_range(o, p, start, n * NR)
    copy_range(o, p, ob.BLIND_PRESENT, 3 * n)
    for start in (ob.HAND_SIZE, ob.FACEUP_SIZE, ob.BLIND_SIZE, ob.PLACE, ob.SCORE, ob.PICKUP_LEGAL, ob.PICKUP_FREE,
                  ob.LACKS, ob.LACKS_FREE):
        copy_range(o, p, start, n)
    copy_range(o, p, ob.PILE_COUNTS, 2 * NR)  # and BURNED
    settle_scalars(st)
    set_talon(st, obs[ob.TALON_SIZE])


@kernel
def _deal_talon(st, pool, k, size):
    for i in range(size):
        set_talon_card(st, i, pool[k + i])
    return k + size


@njit(cache=True)
def sample_state(obs, hand, rng, st, pool, belief=UNIFORM):
    """A state of the game as `obs[SEAT]` may believe it to be, at a TURN or BLIND decision: its own
    hand, every public fact, and the unseen cards dealt into the hidden places (the other hands
    beyond their KNOWN cards, seat by seat; every present blind position; the talon in order),
    uniformly (UNIFORM: a shuffle of the pool) or uniformly among the arrangements that agree with
    the opponents' pickup facts (BASIC_MODEL) or play facts (BASIC_PLAYS); or, NO_MEMORY, with what left
    play forgotten (`_sample_forgetting`). Returns 0, or -1 when the observation is inconsistent."""
    hidden = np.empty(MAX_TABLE_CARDS, np.int64)
    plan = np.zeros(PLAN_SIZE, np.int64)
    m = decision_pool(obs, hand, hidden, belief)
    plan_samples(obs, hidden, m, belief, plan)
    return sample_state_from(obs, hand, rng, st, pool, hidden, m, belief, plan)


@kernel(inline="always")
def _copy_pool(hidden, pool, m):
    h = data_pointer(hidden)
    p = data_pointer(pool)
    for i in range(m):
        p[i] = h[i]


@kernel
def sample_state_from(obs, hand, rng, st, pool, hidden, m, belief, plan):
    """`sample_state` with what every sample of the decision shares built beforehand: hidden[:m] as
    `decision_pool` leaves it (m its result, copied into `pool` and sampled from) and `plan` as
    `plan_samples` leaves it; the same state for the same stream."""
    if m < 0:
        return -1
    if belief == NO_MEMORY:
        return _sample_forgetting(obs, hand, rng, st, pool, hidden, m)
    _copy_pool(hidden, pool, m)
    _set_counters(st, obs)
    p, o, h = data_pointer(st), data_pointer(obs), data_pointer(hand)
    seat = obs[ob.SEAT]
    for s in range(obs[ob.PLAYERS]):
        if s == seat:
            for r in range(NR):
                set_hand_count(p, s, r, h[r])
        else:
            for r in range(NR):
                set_hand_count(p, s, r, o[ob.KNOWN + s * NR + r])
    k = 0
    if plan[0] != 0:
        mask_at, free_at = fact_offsets(belief)
        k = _deal_believed_hands(obs, rng, st, pool, m, plan, mask_at, free_at)
    if k == 0:  # no fact binds (or they cannot all hold): every hidden card shuffled
        shuffle(pool, m, rng)
    else:
        shuffle_range(pool, k, m, rng)
    return _deal_rest(obs, st, pool, k, m, plan[0] if k > 0 else 0)


@kernel
def _sample_forgetting(obs, hand, rng, st, pool, hidden, m):
    """NO_MEMORY: a state from `visible_pool`'s cards hidden[:m]: the pile below its top run first (a uniform
    choice of that many cards that are not 10s), then every other hidden place (the other hands whole, the
    present blind positions, the talon) from a shuffle of the rest, and what is left burned. Every
    arrangement of the pool with no 10 in the pile is equally likely (the pile's cards are chosen among
    the cards that are not 10s, and every choice leaves the same number of ways to fill the rest). No
    KNOWN card and no fact in the state: the player remembers none. Returns 0, or -1 when the sizes do
    not add up."""
    _copy_pool(hidden, pool, m)
    _set_counters(st, obs)
    n = obs[ob.PLAYERS]
    seat = obs[ob.SEAT]
    p, c = data_pointer(st), data_pointer(pool)
    for s in range(n):
        for r in range(NR):
            p[ob.KNOWN + s * NR + r] = 0
            set_hand_count(p, s, r, hand[r] if s == seat else 0)
        for start in (ob.PICKUP_LEGAL, ob.PICKUP_FREE, ob.LACKS, ob.LACKS_FREE):
            p[start + s] = 0
    for r in range(NR):
        p[ob.PILE_COUNTS + r] = 0
        p[ob.BURNED + r] = 0
    below = obs[ob.PILE_SIZE]
    if obs[ob.PILE_TOP] >= 0:
        p[ob.PILE_COUNTS + obs[ob.PILE_TOP]] = obs[ob.PILE_RUN]
        below -= obs[ob.PILE_RUN]
    not_tens = _partition(pool, 0, m, ob.ALL_RANKS & ~(1 << TEN))
    if below < 0 or below > not_tens:
        return -1
    _pick(pool, 0, not_tens, below, rng)
    for i in range(below):
        p[ob.PILE_COUNTS + c[i]] += 1
    shuffle_range(pool, below, m, rng)
    k = below
    for s in range(n):
        if s != seat:
            size = obs[ob.HAND_SIZE + s]
            if k + size > m:
                return -1
            for _ in range(size):
                add_hand_card(p, s, c[k])
                k += 1
    k = _deal_blinds(p, obs, c, k, m, n)
    if k < 0:
        return -1
    if k + obs[ob.TALON_SIZE] > m:
        return -1
    k = _deal_talon(p, c, k, obs[ob.TALON_SIZE])
    for i in range(k, m):
        p[ob.BURNED + c[i]] += 1
    return 0


@kernel
def _deal_rest(obs, st, pool, k, m, believed):
    """pool[k:m] (shuffled) into the unknown hand cards of every other seat (but the seats whose bit
    is set in `believed`: the belief dealt them), the present blind positions and the talon. Returns
    0, or -1 when the sizes do not add up."""
    seat = obs[ob.SEAT]
    n = obs[ob.PLAYERS]
    p, o, c = data_pointer(st), data_pointer(obs), data_pointer(pool)
    for s in range(n):
        if s == seat or believed >> s & 1:
            continue
        unknown = ob.unknown_in_hand(o, s)
        if unknown < 0 or k + unknown > m:
            return -1
        for _ in range(unknown):
            add_hand_card(p, s, c[k])
            k += 1
    k = _deal_blinds(p, o, c, k, m, n)
    if k < 0:
        return -1
    if k + obs[ob.TALON_SIZE] != m:
        return -1
    _deal_talon(p, c, k, obs[ob.TALON_SIZE])
    return 0


@kernel
def sample_deal(obs, hand, rng, st, pool):
    """At the SWAP decision (R6): the deal as `obs[SEAT]` may believe it to be: its own 6 cards, the
    others' 3 hand and 3 face-up cards, every blind card and the talon dealt from the cards it has
    not seen, as `engine.deal` leaves a state. Returns 0, or -1 when inconsistent."""
    return _deal_pool(obs, hand, rng, st, pool, hidden_pool(obs, hand, pool))


@kernel
def sample_deal_from(obs, hand, rng, st, pool, hidden, m):
    """`sample_deal` with the pool built beforehand (as `sample_state_from`)."""
    if m < 0:
        return -1
    _copy_pool(hidden, pool, m)
    return _deal_pool(obs, hand, rng, st, pool, m)


@kernel
def _deal_pool(obs, hand, rng, st, pool, m):
    """`sample_deal` from the hidden pool in pool[:m]: every card but the seat's 6 (nothing else is in
    sight yet)."""
    seat = obs[ob.SEAT]
    n = obs[ob.PLAYERS]
    if m < 0 or m != CARDS_PER_RANK * NR * obs[ob.DECKS] - 6:
        return -1
    shuffle(pool, m, rng)
    _set_counters(st, obs)
    k = 0
    for s in range(n):
        for r in range(NR):
            set_hand_count(st, s, r, hand[r] if s == seat else 0)
            set_dealt_faceup_count(st, s, r, obs[ob.FACEUP + s * NR + r] if s == seat else 0)
            st[ob.FACEUP + s * NR + r] = 0
        if s != seat:
            for _ in range(3):
                add_hand_card(st, s, pool[k])
                add_dealt_faceup_card(st, s, pool[k + 1])
                k += 2
    for s in range(n):
        for position in range(3):
            set_blind_card(st, s, position, pool[k])
            k += 1
    _deal_talon(st, pool, k, m - k)
    return 0




# ---- the basic-model belief ------------------------------------------------------------------

@kernel(inline="always")
def fact_offsets(belief):
    """Where the facts a belief reads are in the observation (their masks, their free counts): the
    pickup facts for BASIC_MODEL, the play facts for BASIC_PLAYS."""
    if belief == BASIC_MODEL:
        return ob.PICKUP_LEGAL, ob.PICKUP_FREE
    return ob.LACKS, ob.LACKS_FREE


@kernel(inline="always")
def _binding(obs, s, mask_at, free_at):
    """Does the fact of seat `s` constrain its unknown hand cards (a mask, and fewer free cards
    than unknown ones)? The deciding seat's own fact never does: it sees its hand."""
    return (s != obs[ob.SEAT] and obs[mask_at + s] != 0
            and obs[free_at + s] < ob.unknown_in_hand(obs, s))


def _choose(n: int, k: int) -> float:
    """The binomial coefficient C(n, k) as a float, by exact multiplications (the table's entries)."""
    if k < 0 or k > n:
        return 0.0
    k = min(k, n - k)
    c = 1.0
    for i in range(k):
        c = c * (n - i) / (i + 1)
    return c


# C(n, k) at CHOOSE[n * CHOOSE_ROW + k] for n, k <= MAX_TABLE_CARDS: a float division costs more than the
# rest of a sample's arithmetic (the table holds the same bits as the loop: IEEE arithmetic)
CHOOSE_ROW = MAX_TABLE_CARDS + 1
CHOOSE = np.array([_choose(n, k) for n in range(CHOOSE_ROW) for k in range(CHOOSE_ROW)])


@kernel(inline="always")
def _sets_of(in_mask, others, j, unknown):
    """How many sets of `unknown` cards hold j of in_mask cards and unknown - j of `others` cards
    (0 <= j <= in_mask, 0 <= unknown - j <= others)."""
    return CHOOSE[in_mask * CHOOSE_ROW + j] * CHOOSE[others * CHOOSE_ROW + unknown - j]


@kernel
def _hands_meeting(in_mask, others, unknown, free):
    """How many sets of `unknown` cards, of in_mask cards of the mask's ranks and `others` of other
    ranks, hold at most `free` of the mask's ranks."""
    total = 0.0
    for j in range(max(0, unknown - others), min(free, unknown, in_mask) + 1):
        total += _sets_of(in_mask, others, j, unknown)
    return total


@kernel
def _in_mask(pool, lo, hi, mask):
    count = 0
    for i in range(lo, hi):
        count += mask >> pool[i] & 1
    return count


@kernel
def _partition(pool, lo, hi, mask):
    """pool[lo:hi] reordered with the cards of the mask's ranks first; returns how many they are."""
    front = lo
    for i in range(lo, hi):
        if mask >> pool[i] & 1:
            t = pool[i]
            pool[i] = pool[front]
            pool[front] = t
            front += 1
    return front - lo


@kernel
def _pick(pool, lo, hi, count, rng):
    """A uniform choice of `count` cards of pool[lo:hi], moved to pool[lo:lo + count] (partial Fisher-Yates)."""
    s = rng[0]
    for i in range(count):
        s, d = nb_below_from(s, hi - lo - i)
        j = lo + i + int(d)
        t = pool[lo + i]
        pool[lo + i] = pool[j]
        pool[j] = t
    rng[0] = s


@kernel(inline="always")
def _uniform01(rng):
    return (nb_next_u64(rng) >> 11) * (1.0 / 9007199254740992.0)


@kernel
def _deal_one_believed_hand(pool, k, m, mask, unknown, free, rng):
    """The unknown hand cards of one seat with a binding fact, drawn uniformly from pool[k:m] among
    the sets with at most `free` cards of the mask's ranks, moved to pool[k:k + unknown]. Returns
    how many such sets pool[k:m] holds (0: none, nothing drawn)."""
    in_mask = _partition(pool, k, m, mask)
    others = m - k - in_mask
    sets = _hands_meeting(in_mask, others, unknown, free)
    if sets == 0.0:
        return 0.0
    u = _uniform01(rng) * sets  # how many of the hand's cards are of the mask's ranks: by its share of the sets
    j = max(0, unknown - others)
    last = min(free, unknown, in_mask)
    while j < last:
        u -= _sets_of(in_mask, others, j, unknown)
        if u < 0.0:
            break
        j += 1
    _pick(pool, k, k + in_mask, j, rng)
    _pick(pool, k + in_mask, m, unknown - j, rng)
    for i in range(unknown - j):  # the chosen other cards next to the chosen ones of the mask
        t = pool[k + j + i]
        pool[k + j + i] = pool[k + in_mask + i]
        pool[k + in_mask + i] = t
    return sets


@kernel
def _fact_allows(obs, s, pool, m, mask_at, free_at):
    """How many sets of seat s's unknown hand cards the whole pool[:m] holds that meet its fact."""
    mask = obs[mask_at + s]
    in_pool = _in_mask(pool, 0, m, mask)
    return _hands_meeting(in_pool, m - in_pool, ob.unknown_in_hand(obs, s), obs[free_at + s])


PLAN_SIZE = 1 + ob.MAX_PLAYERS  # `plan_samples`: the believed seats, then a float per seat


@kernel
def plan_samples(obs, hidden, m, belief, plan):
    """What every sample of one decision shares under `belief`, from its hidden pool hidden[:m]:
    the seats whose hands the belief deals, as bits in plan[0] (returned): each whose fact binds and
    that the pool can meet (else the fact is dropped); and for each, how many sets of its unknown hand
    cards the pool holds that meet its fact (`_fact_allows`), a float's bits in plan[1 + seat]. Any
    order of the pool gives the same plan."""
    believed = 0
    if (belief == BASIC_MODEL or belief == BASIC_PLAYS) and m >= 0:
        mask_at, free_at = fact_offsets(belief)
        for s in range(obs[ob.PLAYERS]):
            if _binding(obs, s, mask_at, free_at):
                allows = _fact_allows(obs, s, hidden, m, mask_at, free_at)
                if allows > 0.0:
                    believed |= 1 << s
                    plan[1 + s] = _float_bits(allows)
    plan[0] = believed
    return believed


@intrinsic
def _float_bits(typingctx, value):
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return types.int64(types.float64), codegen


@intrinsic
def _bits_float(typingctx, bits):
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return types.float64(types.int64), codegen


@kernel
def _deal_believed_hands(obs, rng, st, pool, m, plan, mask_at, free_at):
    """BASIC_MODEL and BASIC_PLAYS (the facts at mask_at, free_at): the unknown hand cards of every
    seat whose fact binds (`_binding`), from pool[:m], added to their hand rows in `st`; they are
    pool[:k], and k is returned (0 when no fact binds, or when the facts cannot all hold: nothing is
    dealt then).

    Exact rejection sampling: seat by seat, a hand uniform among the sets the cards left allow
    (`_deal_one_believed_hand`); the whole draw is kept with probability the product, over every seat
    but the first, of the sets its cards left allowed over the sets the whole pool allows (at most 1:
    fewer cards hold fewer sets). The kept draws are uniform over every arrangement that meets every
    fact. A fact the whole pool cannot meet is dropped (not in the plan's seats, `plan_samples`: that
    hand is dealt with the rest)."""
    believed = plan[0]
    if believed == 0:
        return 0
    n = obs[ob.PLAYERS]
    for _ in range(MAX_TRIES):
        k = 0
        keep = 1.0
        for s in range(n):
            if not believed >> s & 1:
                continue
            left = _deal_one_believed_hand(pool, k, m, obs[mask_at + s], ob.unknown_in_hand(obs, s),
                                           obs[free_at + s], rng)
            if left == 0.0:  # the earlier hands left no set that meets this fact
                keep = 0.0
                break
            if k > 0:  # the first hand is drawn from the whole pool: its share is 1
                keep *= left / _bits_float(plan[1 + s])
            k += ob.unknown_in_hand(obs, s)
        if keep > 0.0 and (keep >= 1.0 or _uniform01(rng) < keep):
            _add_believed_hands(obs, st, pool, believed)
            return k
    return 0


@kernel
def _add_believed_hands(obs, st, pool, believed):
    """The hands `_deal_believed_hands` drew (pool[:k], seat by seat) into their rows of `st`."""
    k = 0
    for s in range(obs[ob.PLAYERS]):
        if believed >> s & 1:
            for _ in range(ob.unknown_in_hand(obs, s)):
                add_hand_card(st, s, pool[k])
                k += 1
