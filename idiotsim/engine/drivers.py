"""The engine's round, match and batch drivers: strategies decide, ``transitions`` applies.

Strategies are first-class functions of one signature (``game.moves.SIG``) passed as a tuple indexed by
seat, so one cached compile serves every mix. A call through the tuple passes four arrays as 28 machine
words and cannot be inlined, so `basic` (the reference player, and every report's opponent) is played
inline instead: its swap and blind turns are ``game.basic_player.play_like_basic``, its other turns
(``transitions.play_basic_turn``, when not recording) go straight from the state to the move's effects.
A round with `basic` at every seat and nothing recorded plays on ``basic_rounds``' compact layout. Each
game draws its deck from ``(seed, game index)`` streams only, so any game can be replayed alone and
results do not depend on threads or chunks."""
from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from idiotsim.engine import basic_rounds
from idiotsim.engine.memory import array_at, data_pointer
from idiotsim.engine.recording import record_observation, record_round_end
from idiotsim.engine.state_layout import (BURNS, ERROR, ERROR_SEAT, GAME, HANDS, NO_OBSERVER, N_OBS, PICKUPS,
                                          PLAYERS_IN, RECORD, SEAT_BASIC, SEAT_STRATEGY, STALLED, STATE_SIZE,
                                          STRATEGY_TUPLE, TOTAL_ACTIONS, DECK)
from idiotsim.engine.transitions import (apply_action, apply_swap, deal, final_places, open_table, play_basic_turn,
                                         show_swap, show_turn, start_play)
from idiotsim.game import observation as ob
from idiotsim.game.basic_player import play_like_basic
from idiotsim.game.observation import MAX_PLAYERS, NR, OBS_SIZE
from idiotsim.game.rng import SEAT_STREAM, nb_shuffled_deck, nb_stream_key
from idiotsim.jit import kernel


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
        record_observation(sp, obs, hand)
    if sp[SEAT_BASIC + seat]:
        return play_like_basic(obs, hand)
    k = sp[SEAT_STRATEGY + seat]
    return table[k](obs, hand, params[k], rngs[seat])



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
            seat = play_basic_turn(sp, seat, n)
            continue
        show_turn(sp, seat)
        seat = apply_action(sp, seat, seat_decision(table, params, rngs, st, sp, seat), n)
        if seat < 0:
            return -1
    final_places(sp, n, starter)
    sp[TOTAL_ACTIONS] += sp[ob.ACTIONS]
    if stalled:
        sp[STALLED] = 1
    record_round_end(sp, rnd, stalled, n)
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
