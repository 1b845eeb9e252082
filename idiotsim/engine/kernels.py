"""The numba array engine: the rules of ``idiotsim.game.reference``, at C-like speed, and its public round driver.

The whole state of a game is one int64 array ``st`` (``state_layout``), so helpers pass one array instead
of many (numba passes every array as seven machine words, which cost more than the game logic when they
were many). Its first section is the public observation (``idiotsim.game.observation``), kept up to date
incrementally and handed to strategies as it stands. The helpers index the state through its data pointer
``sp`` (``memory.data_pointer``): numba adds negative-index wraparound code to every array access with a
signed index, and the round loop makes thousands of them per game.

The round driver, public for the engine's other users (the search, the learning pipeline, OpenSpiel): a
round is `deal`, `show_swap`/`seat_decision`/`apply_swap` at every seat, `open_table` and `start_play`, then
`show_turn`/`seat_decision`/`apply_action` until R18 or R20, then `final_places`; `play_round` and
`play_match` are that loop, `play_batch` plays many matches in parallel, and `play_on`, `act` and
`open_round` play a round on from any state (the search's rollouts).

Strategies are first-class functions of one signature (``game.moves.SIG``) passed as a tuple indexed by
seat, so one cached compile serves every mix. A call through the tuple passes four arrays as 28 machine
words and cannot be inlined, so `basic` (the reference player, and every report's opponent) is played
inline instead. Its swap and blind turns are ``game.basic_player.play_like_basic``; its other turns
(`_basic_turn`, when not recording) go straight from the state to the move's effects: no observation
handed out, no move check (basic makes only legal moves). A round with `basic` at every seat and nothing
recorded plays on ``basic_rounds``' compact layout. Each game draws its deck from ``(seed, game index)``
streams only, so any game can be replayed alone and results do not depend on threads or chunks.

With ``record`` on, the engine writes trace events and a checksum of every observation it hands out, for
comparison with the reference engine.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from idiotsim.engine import basic_rounds
from idiotsim.engine.memory import add_row, array_at, data_pointer
from idiotsim.engine.state_layout import (BLIND, BURNS, CYCLE_WATCH_FROM, DECK, ERROR, ERROR_SEAT, EV_END, EV_OUT, EV_PICKUP, EV_PLAY, EV_SWAP, EV_WIDTH, GAME, HANDS, LOG_CAP, MAX_CARDS, MAX_STRATEGIES, NEXT_PLACE, NO_OBSERVER, N_EVENTS, N_OBS, PICKUPS, PLAYERS_IN, POSITION_SIZE, RECORD, SEAT_BASIC, SEAT_STRATEGY, SKIPPED, SRC_TALON, STALLED, STATE_SIZE, STRATEGY_TUPLE, SWAP_FACEUP, TALON, TALON_LEN, TALON_POS, TOTAL_ACTIONS, TRACE, TRACE_CAP)
from idiotsim.jit import kernel

from idiotsim.game import observation as ob
from idiotsim.game.cards import BASIC_KEY, BASIC_ORDER, HAND_TARGET, KEY_ABOVE, KEY_BELOW, SIX, TEN
from idiotsim.game.observation import MAX_PLAYERS, NR, OBS_SIZE
from idiotsim.game.rng import SEAT_STREAM, nb_shuffled_deck, nb_stream_key
from idiotsim.game.basic_player import basic_rank, play_like_basic
from idiotsim.game.moves import (CHANCE, COUNT_ROW, ILLEGAL_BLIND_PICKUP, ILLEGAL_BLIND_POSITION, ILLEGAL_CHANCE, ILLEGAL_CODE, ILLEGAL_EMPTY_PICKUP, ILLEGAL_EXTRA, ILLEGAL_NOT_HELD, ILLEGAL_NOT_LEGAL, ILLEGAL_OPENING, ILLEGAL_SWAP, ILLEGAL_ZERO_COUNT, PICKUP, SIG, legal_mask, legal_now, ranks_present)



@kernel
def _event(sp, kind, rnd, seat, a, b, c, d):
    if sp[RECORD] == 0:
        return
    i = sp[N_EVENTS]
    if i >= sp[TRACE_CAP]:
        return
    at = TRACE + i * EV_WIDTH
    sp[at] = kind
    sp[at + 1] = rnd
    sp[at + 2] = seat
    sp[at + 3] = a
    sp[at + 4] = b
    sp[at + 5] = c
    sp[at + 6] = d
    sp[N_EVENTS] = i + 1


@kernel
def _log_observation(sp, obs, hand):
    k = sp[N_OBS]
    if k < sp[LOG_CAP]:
        sp[TRACE + sp[TRACE_CAP] * EV_WIDTH + k] = np.int64(ob.obs_checksum(obs, hand))
        sp[N_OBS] = k + 1


@intrinsic
def strategy_table(typingctx, fns):
    """The strategy tuple stored once in the caller's stack frame, as a pointer to its first entry.
    Numba indexes a tuple by a run-time index through a switch over all its entries; through
    the pointer it is one load."""
    def codegen(context, builder, signature, args):
        stored = cgutils.alloca_once_value(builder, args[0])
        return builder.bitcast(stored, context.get_value_type(fns.dtype).as_pointer())
    return types.CPointer(fns.dtype)(fns), codegen


@kernel(inline="always")
def seat_decision(table, params, rngs, st, sp, seat):
    """Hand the decision to the seat's strategy (recording the observation in trace mode)."""
    obs = array_at(sp, 0, OBS_SIZE)
    hand = array_at(sp, HANDS + seat * NR, NR)
    if sp[RECORD]:
        _log_observation(sp, obs, hand)
    if sp[SEAT_BASIC + seat]:
        return play_like_basic(obs, hand)
    k = sp[SEAT_STRATEGY + seat]
    return table[k](obs, hand, params[k], rngs[seat])


@kernel
def _fail(sp, seat, reason):
    sp[ERROR] = reason
    sp[ERROR_SEAT] = seat
    return -1


@kernel
def _next_seat(sp, seat, n):
    """R4: to the left, skipping players who are out."""
    s = seat
    for _ in range(n):
        s = s + 1 if s + 1 < n else 0
        if sp[ob.PLACE + s] == 0:
            return s
    return seat


@kernel
def _cards_held(sp, seat):
    return sp[ob.HAND_SIZE + seat] + sp[ob.FACEUP_SIZE + seat] + sp[ob.BLIND_SIZE + seat]


@kernel
def _empty_pile(sp):
    sp[ob.PILE_TOP] = -1
    sp[ob.LEGAL] = ob.ALL_RANKS
    sp[ob.PILE_RUN] = 0
    sp[ob.PILE_SIZE] = 0
    for r in range(NR):
        sp[ob.PILE_COUNTS + r] = 0


@kernel(inline="always")
def _pick_up(sp, seat, extra_rank, source):
    """R14/R15/V5: the pile (and a failed flipped card) goes into the hand, publicly."""
    known = ob.KNOWN + seat * NR
    hand = HANDS + seat * NR
    add_row(sp, hand, ob.PILE_COUNTS)
    add_row(sp, known, ob.PILE_COUNTS)
    taken = sp[ob.PILE_SIZE]
    if extra_rank >= 0:
        sp[hand + extra_rank] += 1
        sp[known + extra_rank] += 1
        taken += 1
    elif not sp[NO_OBSERVER]:  # R14: the pickup facts, and the play facts (basic picks up holding nothing legal)
        sp[ob.PICKUP_LEGAL + seat] = sp[ob.LEGAL]
        sp[ob.PICKUP_FREE + seat] = 0
        _lacks_fact(sp, seat, sp[ob.LEGAL])
    sp[ob.HAND_SIZE + seat] += taken
    _empty_pile(sp)
    sp[ob.ACTIONS] += 1
    sp[ob.MUST_PLAY] = -1
    sp[PICKUPS] += 1
    _event(sp, EV_PICKUP, sp[ob.ROUND], seat, source, extra_rank, taken, 0)


@kernel(inline="always")
def _after_play(sp, seat, rank, count, source, n):
    """R16: the cards are on the pile; draw, burn, out, again. Returns the seat to act next."""
    sp[ob.ACTIONS] += 1
    sp[ob.MUST_PLAY] = -1
    run = count  # in a local: the draws' stores through the state pointer would make it reload
    if sp[ob.PILE_TOP] == rank:
        run += sp[ob.PILE_RUN]
    else:
        sp[ob.PILE_TOP] = rank
        sp[ob.LEGAL] = legal_mask(rank, sp[ob.LOW_RANK], sp[ob.TEN_ONLY_ON_LOWER] != 0)
    sp[ob.PILE_RUN] = run
    sp[ob.PILE_SIZE] += count
    sp[ob.PILE_COUNTS + rank] += count
    drawn = min(HAND_TARGET - sp[ob.HAND_SIZE + seat], sp[TALON_LEN] - sp[TALON_POS])  # R16.1
    if drawn > 0:
        hand = HANDS + seat * NR
        first = TALON + sp[TALON_POS]
        for i in range(drawn):
            sp[hand + sp[first + i]] += 1
        sp[TALON_POS] += drawn
        sp[ob.HAND_SIZE + seat] += drawn
        sp[ob.TALON_SIZE] -= drawn
        if not sp[NO_OBSERVER]:  # the facts: unknown cards came in
            sp[ob.PICKUP_FREE + seat] += drawn
            sp[ob.LACKS_FREE + seat] += drawn
    six_burn = sp[ob.SIX_BURN]
    burned = rank == TEN or run >= 4 or (six_burn > 0 and rank == SIX and run >= six_burn)  # R16.2, V7, V10
    if burned:
        add_row(sp, ob.BURNED, ob.PILE_COUNTS)
        _empty_pile(sp)
        sp[BURNS] += 1
    _event(sp, EV_PLAY, sp[ob.ROUND], seat, source, rank, count, 1 if burned else 0)
    if _cards_held(sp, seat) == 0:  # R16.3
        place = sp[NEXT_PLACE]
        sp[ob.PLACE + seat] = place
        sp[NEXT_PLACE] = place + 1
        sp[PLAYERS_IN] -= 1
        _event(sp, EV_OUT, sp[ob.ROUND], seat, place, 0, 0, 0)
        if sp[PLAYERS_IN] == 1:
            return seat
        return _next_seat(sp, seat, n)  # R17
    if burned and sp[ob.BURN_PLAYS_AGAIN]:  # R16.4, V9
        return seat
    return _next_seat(sp, seat, n)


@kernel(inline="always")
def _take_cards(sp, seat, action, source):
    """R9, R11, R13, V11, V12: validate a play from hand or face-up and take its cards.
    Returns the number of cards played, or -1 on an illegal move."""
    rank = action & 15
    count = (action >> 4) & 15
    extra = action >> 8
    if rank >= NR:
        return _fail(sp, seat, ILLEGAL_CODE)
    if count < 1:
        return _fail(sp, seat, ILLEGAL_ZERO_COUNT)
    faceup = ob.FACEUP + seat * NR
    held = sp[HANDS + seat * NR + rank] if source == ob.SRC_HAND else sp[faceup + rank]
    if held < count:
        return _fail(sp, seat, ILLEGAL_NOT_HELD)
    if not legal_now(sp, rank):
        return _fail(sp, seat, ILLEGAL_NOT_LEGAL)
    if sp[ob.MUST_PLAY] >= 0 and rank != sp[ob.MUST_PLAY]:
        return _fail(sp, seat, ILLEGAL_OPENING)
    if extra != 0:
        empties_hand = (source == ob.SRC_HAND and count == sp[ob.HAND_SIZE + seat]
                        and sp[TALON_POS] == sp[TALON_LEN])
        if sp[ob.LAST_HAND_WITH_FACEUP] == 0 or not empties_hand or sp[faceup + rank] < extra:
            return _fail(sp, seat, ILLEGAL_EXTRA)
    _remove_played(sp, seat, rank, count, extra, source)
    return count + extra


@kernel(inline="always")
def _remove_played(sp, seat, rank, count, extra, source):
    """The cards of a legal play leave the source (and V11's extra face-up cards join them)."""
    faceup = ob.FACEUP + seat * NR
    if source == ob.SRC_HAND:
        sp[HANDS + seat * NR + rank] -= count
        sp[ob.HAND_SIZE + seat] -= count
        known = ob.KNOWN + seat * NR + rank
        if not sp[NO_OBSERVER]:
            _played_facts(sp, seat, rank, max(0, count - sp[known]))
        sp[known] = max(0, sp[known] - count)
    else:
        sp[faceup + rank] -= count
        sp[ob.FACEUP_SIZE + seat] -= count
    if extra:
        sp[faceup + rank] -= extra
        sp[ob.FACEUP_SIZE + seat] -= extra


NO_PICKUP = -2


@kernel(inline="always")
def _played_facts(sp, seat, rank, unknown_played):
    """The facts after a play of `rank` from the hand, `unknown_played` of its cards not KNOWN: they
    count off the free cards of a mask holding the rank, then the play fact (basic plays every copy
    of the first legal rank in its order; V12's opening allows only its rank)."""
    if sp[ob.PICKUP_LEGAL + seat] >> rank & 1:
        sp[ob.PICKUP_FREE + seat] = max(0, sp[ob.PICKUP_FREE + seat] - unknown_played)
    if sp[ob.LACKS + seat] >> rank & 1:
        sp[ob.LACKS_FREE + seat] = max(0, sp[ob.LACKS_FREE + seat] - unknown_played)
    allowed = sp[ob.LEGAL] if sp[ob.MUST_PLAY] < 0 else 0
    _lacks_fact(sp, seat, (KEY_BELOW[rank] & allowed) | (1 << rank))


@kernel(inline="always")
def _lacks_fact(sp, seat, mask):
    """The play facts (observation LACKS, LACKS_FREE): had the seat played like `basic`, its unknown
    hand cards now hold no card of `mask`'s ranks; joined with its earlier fact while no unknown
    card has come in since (LACKS_FREE 0), else in its place."""
    if sp[ob.LACKS_FREE + seat] == 0:
        mask |= sp[ob.LACKS + seat]
    sp[ob.LACKS + seat] = mask
    sp[ob.LACKS_FREE + seat] = 0


@kernel(inline="always")
def _source_of(sp, seat):
    """R13: where the seat plays from: its hand, else its face-up cards, else its blind cards."""
    if sp[ob.HAND_SIZE + seat] > 0:
        return ob.SRC_HAND
    if sp[ob.FACEUP_SIZE + seat] > 0:
        return ob.SRC_FACEUP
    return ob.SRC_BLIND


@kernel
def show_turn(sp, seat):
    """R13: the seat's source and what it may do, in the observation."""
    source = _source_of(sp, seat)
    pile_size = sp[ob.PILE_SIZE]
    sp[ob.SEAT] = seat
    sp[ob.SOURCE] = source
    sp[ob.DECISION] = ob.BLIND if source == ob.SRC_BLIND else ob.TURN
    sp[ob.CAN_PICKUP] = 1 if (pile_size > 0 and source != ob.SRC_BLIND) else 0
    sp[ob.CAN_CHANCE] = 1 if (sp[ob.CHANCE_RULE] != 0 and source == ob.SRC_HAND and sp[ob.TALON_SIZE] > 0
                              and pile_size > 0) else 0


@kernel(inline="always")
def apply_action(sp, seat, action, n):
    """One action (R13-R16) as `show_turn` asked for it; returns the next seat to act, or -1 on an illegal move."""
    source = sp[ob.SOURCE]
    # Either a play (rank, count from play_source) or a pickup (with the failed card pickup_rank).
    rank = -1
    count = 0
    play_source = source
    pickup_rank = NO_PICKUP
    if source == ob.SRC_BLIND:
        pos = action
        if pos == PICKUP:
            return _fail(sp, seat, ILLEGAL_BLIND_PICKUP)
        if pos < 0 or pos > 2 or sp[BLIND + seat * 3 + pos] < 0:
            return _fail(sp, seat, ILLEGAL_BLIND_POSITION)
        return _flip_blind(sp, seat, pos, n)
    if action == PICKUP:  # R14
        if sp[ob.PILE_SIZE] == 0:
            return _fail(sp, seat, ILLEGAL_EMPTY_PICKUP)
        pickup_rank = -1
    elif action == CHANCE:  # V5
        if sp[ob.CAN_CHANCE] == 0:
            return _fail(sp, seat, ILLEGAL_CHANCE)
        flipped = sp[TALON + sp[TALON_POS]]
        sp[TALON_POS] += 1
        sp[ob.TALON_SIZE] -= 1
        play_source = SRC_TALON
        if legal_now(sp, flipped):
            rank, count = flipped, 1
        else:
            pickup_rank = flipped
    elif action < 0:
        return _fail(sp, seat, ILLEGAL_CODE)
    else:
        count = _take_cards(sp, seat, action, source)
        if count < 0:
            return -1
        rank = action & 15
    if pickup_rank != NO_PICKUP:
        _pick_up(sp, seat, pickup_rank, play_source if pickup_rank >= 0 else -1)
        return _next_seat(sp, seat, n)
    return _after_play(sp, seat, rank, count, play_source, n)


@kernel  # not inlined: `play_on` (a rollout's policy turns) and `act` share one compiled copy (compile time)
def _apply_once(sp, seat, action, n):
    return apply_action(sp, seat, action, n)


@kernel  # not inlined: its plays and pickups would double the code numba types in every rollout (compile time)
def _flip_blind(sp, seat, pos, n):
    """R15: the blind card at `pos` is turned over: played when legal, else picked up with the pile.
    Returns the seat to act next."""
    flipped = sp[BLIND + seat * 3 + pos]
    sp[BLIND + seat * 3 + pos] = -1
    sp[ob.BLIND_PRESENT + seat * 3 + pos] = 0
    sp[ob.BLIND_SIZE + seat] -= 1
    if legal_now(sp, flipped):
        return _after_play(sp, seat, flipped, 1, ob.SRC_BLIND, n)
    _pick_up(sp, seat, flipped, ob.SRC_BLIND)
    return _next_seat(sp, seat, n)


@kernel(inline="always")
def _basic_turn(sp, seat, n):
    """The turn of a seat playing `basic` inline, straight from the state: `game.basic_player.play_like_basic`'s
    move (all copies of the lowest legal ordinary rank; else all 2s; else all 10s; else pick up; at a
    blind turn the lowest blind position), applied as `apply_action` applies it but without handing out the
    observation (`show_turn`) or checking the move (`basic` makes only legal ones: R9-R15, V11; V12's
    opening rank is the lowest ordinary one, which it plays). Returns the next seat to act."""
    source = _source_of(sp, seat)
    if source == ob.SRC_BLIND:
        pos = 0
        while sp[ob.BLIND_PRESENT + seat * 3 + pos] == 0:  # `toolkit.lowest_blind`
            pos += 1
        return _flip_blind(sp, seat, pos, n)
    row = HANDS + seat * NR if source == ob.SRC_HAND else ob.FACEUP + seat * NR
    rank = basic_rank(ranks_present(sp, row) & sp[ob.LEGAL])
    if rank < 0:  # R14: nothing playable, so the pile is not empty (every rank is legal on an empty pile)
        _pick_up(sp, seat, -1, -1)
        return _next_seat(sp, seat, n)
    count = sp[row + rank]
    extra = 0
    if (source == ob.SRC_HAND and sp[ob.LAST_HAND_WITH_FACEUP] != 0 and sp[ob.TALON_SIZE] == 0
            and count == sp[ob.HAND_SIZE + seat]):  # V11, as `toolkit.faceup_addable`
        extra = sp[ob.FACEUP + seat * NR + rank]
    _remove_played(sp, seat, rank, count, extra, source)
    return _after_play(sp, seat, rank, count + extra, source, n)


@kernel
def show_swap(sp, seat):
    """R6: the seat sees its own 6 cards only (its face-up row is shown while it chooses)."""
    row = ob.FACEUP + seat * NR
    for r in range(NR):
        sp[row + r] = sp[SWAP_FACEUP + seat * NR + r]
    sp[ob.SEAT] = seat


@kernel
def apply_swap(sp, seat, choice):
    """R6: the chosen 3 ranks lie face-up; returns -1 on an illegal choice."""
    row = ob.FACEUP + seat * NR
    hand = HANDS + seat * NR
    faceup = SWAP_FACEUP + seat * NR
    for r in range(NR):
        sp[row + r] = 0
    if choice < 0 or choice >= NR * NR * NR:
        return _fail(sp, seat, ILLEGAL_SWAP)
    a, b, c = choice % NR, (choice // NR) % NR, choice // (NR * NR)
    for r in (a, b, c):
        chosen = (a == r) + (b == r) + (c == r)
        if chosen > sp[hand + r] + sp[faceup + r]:
            return _fail(sp, seat, ILLEGAL_SWAP)
    for r in range(NR):
        sp[hand + r] += sp[faceup + r]
        sp[faceup + r] = 0
    for r in (a, b, c):
        sp[hand + r] -= 1
        sp[faceup + r] += 1
    if sp[RECORD]:
        _event(sp, EV_SWAP, sp[ob.ROUND], seat, _sorted_by_key(sp, faceup), _sorted_by_key(sp, hand), 0, 0)
    return 0


@kernel
def _sorted_by_key(sp, row):
    """The 3 ranks counted at sp[row:row + 13] sorted by the `basic` key, encoded as r0 * 169 + r1 * 13 + r2."""
    code = 0
    for key in range(NR):
        for r in range(NR):
            if BASIC_KEY[r] == key:
                for _ in range(sp[row + r]):
                    code = code * NR + r
    return code


@kernel
def _choose_starter(sp, n, left_of_dealer):
    """R7, or R8/V3: the lowest ordinary rank in hand starts, ties in turn order from left of dealer."""
    if sp[ob.LOWEST_STARTS] == 0:
        return left_of_dealer
    for r in range(1, NR):
        if r == TEN:
            continue
        for i in range(n):
            seat = (left_of_dealer + i) % n
            if sp[HANDS + seat * NR + r] > 0:
                return seat
    return left_of_dealer


@kernel
def final_places(sp, n, starter):
    """R18; R20: on a stall the rest are placed by fewest cards held, then turn order from the starter."""
    while sp[PLAYERS_IN] > 0:
        best = -1
        best_cards = 1 << 30
        for i in range(n):
            seat = (starter + i) % n
            if sp[ob.PLACE + seat] == 0 and _cards_held(sp, seat) < best_cards:
                best = seat
                best_cards = _cards_held(sp, seat)
        sp[ob.PLACE + best] = sp[NEXT_PLACE]
        sp[NEXT_PLACE] += 1
        sp[PLAYERS_IN] -= 1


@kernel
def deal(sp, n, n_cards):
    """R5: a fresh table from the deck at sp[DECK:]; every count of an earlier round is cleared."""
    for i in range(n * NR):  # seats past n are never written, so stay 0
        sp[ob.FACEUP + i] = 0
        sp[ob.KNOWN + i] = 0
        sp[HANDS + i] = 0
        sp[SWAP_FACEUP + i] = 0
    for i in range(3 * n):
        sp[ob.BLIND_PRESENT + i] = 0
    for p in range(n):
        sp[ob.HAND_SIZE + p] = 0
        sp[ob.FACEUP_SIZE + p] = 0
        sp[ob.PICKUP_LEGAL + p] = 0
        sp[ob.PICKUP_FREE + p] = 0
        sp[ob.LACKS + p] = 0
        sp[ob.LACKS_FREE + p] = 0
        sp[ob.BLIND_SIZE + p] = 0
        sp[ob.PLACE + p] = 0
    for r in range(NR):
        sp[ob.BURNED + r] = 0
    _empty_pile(sp)
    for p in range(n):
        for k in range(3):
            sp[BLIND + 3 * p + k] = sp[DECK + 3 * p + k] >> 2
            sp[SWAP_FACEUP + p * NR + (sp[DECK + 3 * n + 3 * p + k] >> 2)] += 1
            sp[HANDS + p * NR + (sp[DECK + 6 * n + 3 * p + k] >> 2)] += 1
    for i in range(9 * n, n_cards):
        sp[TALON + i - 9 * n] = sp[DECK + i] >> 2
    sp[TALON_POS] = 0
    sp[TALON_LEN] = n_cards - 9 * n
    sp[NEXT_PLACE] = 1
    sp[PLAYERS_IN] = n
    sp[ob.DECISION] = ob.SWAP
    sp[ob.SOURCE] = ob.SRC_HAND
    sp[ob.TALON_SIZE] = n_cards - 9 * n
    sp[ob.MUST_PLAY] = -1
    sp[ob.CAN_PICKUP] = 0
    sp[ob.CAN_CHANCE] = 0
    sp[ob.STARTER] = -1
    sp[ob.ACTIONS] = 0


@kernel
def open_table(sp, n):
    """After the swap: the face-up and blind cards are on the table, every hand holds 3."""
    for p in range(n):
        for r in range(NR):
            sp[ob.FACEUP + p * NR + r] = sp[SWAP_FACEUP + p * NR + r]
        for k in range(3):
            sp[ob.BLIND_PRESENT + 3 * p + k] = 1
        sp[ob.HAND_SIZE + p] = 3
        sp[ob.FACEUP_SIZE + p] = 3
        sp[ob.BLIND_SIZE + p] = 3
        if sp[NO_OBSERVER]:
            continue
        for r in BASIC_ORDER:  # the play facts: basic lays face-up the 3 cards of the highest keys
            if sp[ob.FACEUP + p * NR + r] > 0:
                _lacks_fact(sp, p, KEY_ABOVE[r])
                break


@kernel
def start_play(sp, n, left_of_dealer):
    """After the swap: R7/R8 the starter (returned), V12 the rank of its opening play."""
    starter = _choose_starter(sp, n, left_of_dealer)
    sp[ob.STARTER] = starter
    if sp[ob.OPENING_LOWEST]:  # V12
        for r in range(1, NR):
            if r != TEN and sp[HANDS + starter * NR + r] > 0:
                sp[ob.MUST_PLAY] = r
                break
    return starter


@kernel
def play_round(fns, params, rngs, st, sp, n, n_cards, dealer, rnd):
    """One round (R4-R18, R20) from the deck at sp[DECK:]. Returns 0, or -1 on an illegal move."""
    deal(sp, n, n_cards)
    sp[ob.ROUND] = rnd
    table = strategy_table(fns)
    for seat in range(n):  # R6
        show_swap(sp, seat)
        if apply_swap(sp, seat, seat_decision(table, params, rngs, st, sp, seat)) < 0:
            return -1
    open_table(sp, n)
    starter = start_play(sp, n, (dealer + 1) % n)
    seat = starter
    stalled = False
    limit = sp[ob.ACTION_LIMIT]
    inline_turns = sp[RECORD] == 0  # a recording logs every observation handed out, basic's too
    if inline_turns and sp[NO_OBSERVER]:  # every seat `basic`: the round on the compact layout, to its end
        stalled = basic_rounds.play_round(sp, starter)  # (PLAYERS_IN 0: the loop below plays nothing)
    while sp[PLAYERS_IN] > 1:  # R18
        if sp[ob.ACTIONS] >= limit:  # R20
            stalled = True
            break
        if inline_turns and sp[SEAT_BASIC + seat]:
            seat = _basic_turn(sp, seat, n)
            continue
        show_turn(sp, seat)
        seat = apply_action(sp, seat, seat_decision(table, params, rngs, st, sp, seat), n)
        if seat < 0:
            return -1
    final_places(sp, n, starter)
    sp[TOTAL_ACTIONS] += sp[ob.ACTIONS]
    if stalled:
        sp[STALLED] = 1
    if sp[RECORD] and sp[N_EVENTS] < sp[TRACE_CAP]:
        at = TRACE + sp[N_EVENTS] * EV_WIDTH
        sp[at] = EV_END
        sp[at + 1] = rnd
        sp[at + 2] = 1 if stalled else 0
        for p in range(n):
            sp[at + 3 + p] = sp[ob.PLACE + p]
        sp[N_EVENTS] += 1
    return 0


@kernel
def play_match(fns, params, rngs, header, seed, game_index, deal_index, decks, first_deck, st, places):
    """A match of ``rounds`` rounds (R19, V4, V8); seat s plays strategy ``fns[sp[SEAT_STRATEGY + s]]``.

    Decks come from `decks` rows starting at `first_deck` when it is >= 0, else from the
    (seed, deal_index) shuffle streams; strategies draw from (seed, game_index) streams."""
    sp = data_pointer(st)
    n = header[ob.PLAYERS]
    rounds = header[ob.ROUNDS]
    n_cards = 52 * header[ob.DECKS]
    for i in range(ob.HEADER_SIZE):  # the rules; play_round sets every other field but the scores
        sp[i] = header[i]
    for p in range(n):
        sp[ob.SCORE + p] = 0
    for i in range(GAME, N_OBS + 1):
        sp[i] = 0
    for s in range(n):
        rngs[s, 0] = nb_stream_key(seed, game_index, SEAT_STREAM + s)
    dealer = n - 1  # R7
    for rnd in range(rounds):
        if first_deck >= 0:
            for i in range(n_cards):
                sp[DECK + i] = decks[first_deck + rnd, i]
        else:
            nb_shuffled_deck(seed, deal_index, rnd, st[DECK: DECK + n_cards], rngs[n])
        if play_round(fns, params, rngs, st, sp, n, n_cards, dealer, rnd + 1) < 0:
            return -1
        idiot = 0
        for p in range(n):
            sp[ob.SCORE + p] += sp[ob.PLACE + p]
            if sp[ob.PLACE + p] == n:
                idiot = p
        dealer = idiot if sp[ob.IDIOT_DEALS] else (dealer + 1) % n  # V8, R7
    for p in range(n):  # R19: lowest total wins, equal totals share the better position
        better = 0
        for q in range(n):
            if sp[ob.SCORE + q] < sp[ob.SCORE + p]:
                better += 1
        places[p] = better + 1
    return 0


BATCH_SIG = types.void(
    STRATEGY_TUPLE, types.int8[::1], types.float64[:, ::1], types.int64[::1], types.int64, types.int64[::1],
    types.int64[::1], types.int8[:, ::1], types.int64[:, ::1], types.int64,
    types.int8[:, ::1], types.int32[::1], types.int16[::1], types.int16[::1], types.int8[::1], types.int64[::1])


@njit(BATCH_SIG, cache=True, parallel=True, nogil=True)  # nogil: chunks.write_behind writes meanwhile
def play_batch(fns, is_basic, params, header, seed, game_ids, deal_ids, seating, decks, block,
               places, actions, burns, pickups, stalled, errors):
    """Play the games ``game_ids[i]`` in parallel blocks of `block` games.

    Game i deals from ``deal_ids[i]``'s shuffle (or from `decks` rows i * rounds ...
    when `decks` is not empty) and seats strategy ``fns[seating[i, s]]`` at seat s
    (``is_basic[k]``: strategy k is `basic`, played inline, see SEAT_BASIC).
    Results go into the output arrays at index i; ``errors[i]`` holds
    reason * 16 + seat of an illegal move (0 when none).
    """
    n_games = game_ids.shape[0]
    n_blocks = (n_games + block - 1) // block
    rounds = header[ob.ROUNDS]
    n = header[ob.PLAYERS]
    use_decks = decks.shape[0] > 0
    for b in prange(n_blocks):
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        rngs = np.zeros((MAX_PLAYERS + 1, 1), dtype=np.uint64)
        place = np.zeros(MAX_PLAYERS, dtype=np.int64)
        stop = min(n_games, (b + 1) * block)
        for i in range(b * block, stop):
            every_seat_basic = 1
            for s in range(n):
                st[SEAT_STRATEGY + s] = seating[i, s]
                st[SEAT_BASIC + s] = is_basic[seating[i, s]]
                every_seat_basic &= is_basic[seating[i, s]]
            st[NO_OBSERVER] = every_seat_basic
            first_deck = i * rounds if use_decks else -1
            result = play_match(fns, params, rngs, header, seed, game_ids[i], deal_ids[i], decks, first_deck,
                                st, place)
            if result < 0:
                errors[i] = st[ERROR] * 16 + st[ERROR_SEAT]
                continue
            for p in range(n):
                places[i, p] = place[p]
            actions[i] = st[TOTAL_ACTIONS]
            burns[i] = st[BURNS]
            pickups[i] = st[PICKUPS]
            stalled[i] = st[STALLED]


TRACE_SIG = types.int64(
    STRATEGY_TUPLE, types.float64[:, ::1], types.int64[::1], types.int64, types.int64, types.int64,
    types.int64[:, ::1], types.int64, types.int64[::1], types.int64[::1])


@njit(cache=True)
def trace_match(fns, params, header, seed, game_index, deal_index, decks, first_deck, st, places):
    """One match with recording on (`st` is STATE_SIZE plus room for its trace and checksums, with
    RECORD, TRACE_CAP, LOG_CAP, SEAT_STRATEGY and SEAT_BASIC set), for `trace --engine numba` and the equality tests."""
    rngs = np.zeros((MAX_PLAYERS + 1, 1), dtype=np.uint64)
    return play_match(fns, params, rngs, header, seed, game_index, deal_index, decks, first_deck, st, places)


# ---- search support: a round played on from any state ------------------------------------------
# A search (``idiotsim.strategies.search.pimc``) builds a state the way a seat may believe it to be and plays the
# round on from there with one strategy at every seat (a rollout). The helpers above are the rules;
# `play_on` is the round loop of `play_round` without the deal, the swap and the recording. The
# policy is a strategy's compiled `decide` passed as an argument and both are inlined into their
# caller, so the policy is a direct call: a function value passed on to a compiled function would
# carry its address, and numba cannot cache code holding an address.



@kernel(inline="always")
def _position_range(sp, start, length, snap, at, save):
    """Store sp[start:start+length] at snap[at:] (save), else whether it equals them."""
    if save:
        for i in range(length):
            snap[at + i] = sp[start + i]
        return True
    for i in range(length):
        if snap[at + i] != sp[start + i]:
            return False
    return True


@kernel
def _same_position(sp, seat, n, snap, save):
    """The position with `seat` to act: with `save` stored in `snap`, else compared with it."""
    if save:
        snap[0] = seat
    elif snap[0] != seat:
        return False
    at = 1
    pile = ob.TALON_SIZE + 1 - ob.PILE_TOP  # PILE_TOP, PILE_RUN, PILE_SIZE, TALON_SIZE
    if not _position_range(sp, ob.PILE_TOP, pile, snap, at, save):
        return False
    at += pile
    if not _position_range(sp, ob.PILE_COUNTS, 2 * NR, snap, at, save):  # PILE_COUNTS, BURNED
        return False
    at += 2 * NR
    for start, length in ((HANDS, n * NR), (ob.FACEUP, n * NR), (ob.KNOWN, n * NR), (BLIND, 3 * n),
                          (ob.PLACE, n)):
        if not _position_range(sp, start, length, snap, at, save):
            return False
        at += length
    return True


@kernel(inline="always")
def _brent_step(sp, seat, n, snap, power, lam):
    """Brent's cycle search, one step, on the position before an action. When it equals the one
    saved `lam` actions ago, whole cycles of `lam` actions are skipped up to the action limit (R20)
    and the search stops (lam -1); else the position is saved at every power of two. Returns
    (power, lam) for the next action."""
    if lam > 0 and _same_position(sp, seat, n, snap, False):
        limit = sp[ob.ACTION_LIMIT]
        skipped = (limit - sp[ob.ACTIONS]) // lam * lam
        sp[ob.ACTIONS] += skipped
        sp[SKIPPED] += skipped
        return power, -1
    if lam == power or lam == 0:
        _same_position(sp, seat, n, snap, True)
        return (2 * power if lam > 0 else 1), 1
    return power, lam + 1


@kernel(inline="always")
def _policy_move(st, sp, seat, policy, which, params, rng):
    """The move of `seat` by `policy(obs, hand, params, rng, which)`, or by `basic` inline where
    SEAT_BASIC is set."""
    obs = array_at(sp, 0, OBS_SIZE)
    hand = array_at(sp, HANDS + seat * NR, NR)
    if sp[SEAT_BASIC + seat]:
        return play_like_basic(obs, hand)
    return policy(obs, hand, params, rng, which)


@kernel(inline="always")
def play_on(st, seat, searcher, policy, which, params, rng, snap, skip_cycles):
    """Play the round in `st` on from `seat` to act, every seat playing `policy` (`basic` inline at
    the seats SEAT_BASIC marks, see `mark_basic_seats`), until the place of `searcher` is decided (R16.3
    out, R18 the Idiot, R20 the action limit); returns that place, or -1 on an illegal move. `st` must
    not record (RECORD 0). The observation's turn fields (`show_turn`) are left as the last policy
    turn set them: `basic`'s inline turns do not write them.

    `policy(obs, hand, params, rng, which)` is a strategy's decision with one more argument, `which`,
    passed through: a family of policies behind one function (the search's rollout policies) shares
    one compiled copy of this loop, where a function per policy would compile a copy each.

    A deterministic policy that never reads ACTIONS repeats itself once a position comes back (all
    players picking up in turn, say): with `skip_cycles`, Brent's algorithm finds the cycle and
    whole cycles are skipped up to the action limit, which gives exactly the result of playing them.
    `snap` holds POSITION_SIZE values for the check."""
    sp = data_pointer(st)
    n = sp[ob.PLAYERS]
    watch_from = sp[ob.ACTIONS] + CYCLE_WATCH_FROM
    power, lam = 1, (0 if skip_cycles else -1)
    while sp[PLAYERS_IN] > 1 and sp[ob.PLACE + searcher] == 0:
        if lam >= 0 and sp[ob.ACTIONS] >= watch_from:
            power, lam = _brent_step(sp, seat, n, snap, power, lam)
        if sp[ob.ACTIONS] >= sp[ob.ACTION_LIMIT]:  # R20
            break
        if sp[SEAT_BASIC + seat]:
            seat = _basic_turn(sp, seat, n)
            continue
        show_turn(sp, seat)
        seat = _apply_once(sp, seat, _policy_move(st, sp, seat, policy, which, params, rng), n)
        if seat < 0:
            return -1
    if sp[ob.PLACE + searcher] == 0:
        final_places(sp, n, sp[ob.STARTER])
    return sp[ob.PLACE + searcher]


@kernel
def act(st, seat, action):
    """One action (R13-R16) of `seat`, to act in `st`; returns the next seat to act, or -1 on an illegal move."""
    sp = data_pointer(st)
    show_turn(sp, seat)
    return _apply_once(sp, seat, action, sp[ob.PLAYERS])


@kernel
def mark_basic_seats(st, basic_at_searcher, basic_elsewhere, searcher):
    """SEAT_BASIC for `play_on` and `open_round`: which seats play `basic` inline instead of the policy."""
    for seat in range(st[ob.PLAYERS]):
        st[SEAT_BASIC + seat] = basic_at_searcher if seat == searcher else basic_elsewhere
    st[NO_OBSERVER] = basic_at_searcher and basic_elsewhere


@kernel(inline="always")
def open_round(st, searcher, choice, policy, which, params, rng, left_of_dealer):
    """R6-R8, V12 on a state dealt as `deal` leaves it: `searcher` lays `choice` face-up, every other
    seat swaps by `policy` and `which` (or `basic` inline, as in `play_on`); returns the starter, or -1
    on an illegal swap."""
    sp = data_pointer(st)
    n = sp[ob.PLAYERS]
    for seat in range(n):
        show_swap(sp, seat)
        swap = choice if seat == searcher else _policy_move(st, sp, seat, policy, which, params, rng)
        if apply_swap(sp, seat, swap) < 0:
            return -1
    open_table(sp, n)
    return start_play(sp, n, left_of_dealer)


@kernel
def _no_policy(obs, hand, params, rng, which):  # never called: `basic` plays inline at every seat
    return -1


@njit(cache=True)
def play_on_basic(st, seat, searcher):
    """`play_on` with `basic` inline at every seat, whole cycles skipped: what ``basic_rounds.basic_rollout``
    plays on its compact layout, by the general loop (the compact rounds' equality test and benchmarks
    compare the two). Returns the searcher's place."""
    mark_basic_seats(st, True, True, searcher)
    return play_on(st, seat, searcher, _no_policy, 0, np.zeros(1), np.zeros(1, np.uint64),
                   np.zeros(POSITION_SIZE, np.int64), True)
