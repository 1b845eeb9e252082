"""The numba array engine: the rules of ``idiotsim.reference``, at C-like speed.

State lives in a few small arrays:

- ``obs``: the public observation (``idiotsim.observation``), kept up to date
  incrementally; it *is* the pile (top rank, run length, counts), the face-up
  cards, the burned cards and every public count, and is handed to strategies
  as it stands.
- ``hands[seat, rank]``: hand counts; a strategy gets only its own row.
- ``blind[seat, position]``: blind ranks, -1 once flipped; never shown.
- ``talon`` (ranks) and ``game[TALON_POS]``: the draw pile and its next index.
- ``game``: a few scalars (next place, counters, error, event count).

Strategies are first-class functions of one signature (``strategy_api.SIG``)
passed as a tuple indexed by seat, so one cached compile serves every mix.
Each game draws its deck from ``(seed, game index)`` streams only, so any
game can be replayed alone and results do not depend on threads or chunks.

With ``record`` on, the engine writes trace events and a checksum of every
observation it hands out, for comparison with the reference engine.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange, types

from idiotsim.jit import kernel

from idiotsim import observation as ob
from idiotsim.observation import MAX_PLAYERS, NR, OBS_SIZE
from idiotsim.rng import SEAT_STREAM, nb_shuffled_deck, nb_stream_key
from idiotsim.strategy_api import (CHANCE, ILLEGAL_BLIND_PICKUP, ILLEGAL_BLIND_POSITION, ILLEGAL_CHANCE,
                                   ILLEGAL_CODE, ILLEGAL_EMPTY_PICKUP, ILLEGAL_EXTRA, ILLEGAL_NOT_HELD,
                                   ILLEGAL_NOT_LEGAL, ILLEGAL_OPENING, ILLEGAL_SWAP, ILLEGAL_ZERO_COUNT,
                                   PICKUP, SIG, rank_is_legal)

MAX_STRATEGIES = 32  # distinct strategies one batch can seat
STRATEGY_TUPLE = types.UniTuple(types.FunctionType(SIG), MAX_STRATEGIES)
TWO, SIX, TEN = 0, 4, 8
HAND_TARGET = 3
# The `basic` key order of ranks, for sorting the swap event's lists.
BASIC_KEY = np.array([11, 0, 1, 2, 3, 4, 5, 6, 12, 7, 8, 9, 10], dtype=np.int64)

# game scalars
(TALON_POS, TALON_LEN, NEXT_PLACE, PLAYERS_IN, BURNS, PICKUPS, TOTAL_ACTIONS, STALLED, ERROR, ERROR_SEAT,
 N_EVENTS, N_OBS, RECORD) = range(13)
SEAT_STRATEGY = 16  # game[SEAT_STRATEGY + seat]: index into the strategy tuple of the seat's strategy
GAME_SIZE = SEAT_STRATEGY + MAX_PLAYERS

# trace event records: [kind, round, seat, ...]
EV_SWAP, EV_PLAY, EV_PICKUP, EV_OUT, EV_END = range(5)
EV_WIDTH = 16
SRC_TALON = 3


@kernel
def _event(game, trace, kind, rnd, seat, a, b, c, d):
    if game[RECORD] == 0:
        return
    i = game[N_EVENTS]
    if i >= trace.shape[0]:
        return
    trace[i, 0] = kind
    trace[i, 1] = rnd
    trace[i, 2] = seat
    trace[i, 3] = a
    trace[i, 4] = b
    trace[i, 5] = c
    trace[i, 6] = d
    game[N_EVENTS] = i + 1


@kernel
def obs_checksum(obs, hand):
    h = np.uint64(1469598103934665603)
    for i in range(obs.shape[0]):
        h = (h ^ np.uint64(obs[i] + 7)) * np.uint64(1099511628211)
    for i in range(hand.shape[0]):
        h = (h ^ np.uint64(hand[i] + 7)) * np.uint64(1099511628211)
    return h


@kernel(inline="always")
def _ask(fns, params, rngs, obs, hands, seat, game, obs_log):
    """Hand the decision to the seat's strategy (recording the observation in trace mode)."""
    if game[RECORD]:
        k = game[N_OBS]
        if k < obs_log.shape[0]:
            obs_log[k] = obs_checksum(obs, hands[seat])
            game[N_OBS] = k + 1
    k = game[SEAT_STRATEGY + seat]
    return fns[k](obs, hands[seat], params[k], rngs[seat])


@kernel
def _fail(game, seat, reason):
    game[ERROR] = reason
    game[ERROR_SEAT] = seat
    return -1


@kernel
def _legal(obs, rank):
    return rank_is_legal(rank, obs[ob.PILE_TOP], obs[ob.LOW_RANK], obs[ob.TEN_ONLY_ON_LOWER] != 0)


@kernel
def _next_seat(obs, seat, n):
    """R4: to the left, skipping players who are out."""
    s = seat
    for _ in range(n):
        s = s + 1 if s + 1 < n else 0
        if obs[ob.PLACE + s] == 0:
            return s
    return seat


@kernel
def _cards_held(obs, seat):
    return obs[ob.HAND_SIZE + seat] + obs[ob.FACEUP_SIZE + seat] + obs[ob.BLIND_SIZE + seat]


@kernel
def _empty_pile(obs):
    obs[ob.PILE_TOP] = -1
    obs[ob.PILE_RUN] = 0
    obs[ob.PILE_SIZE] = 0
    for r in range(NR):
        obs[ob.PILE_COUNTS + r] = 0


@kernel(inline="always")
def _pick_up(obs, hands, game, trace, seat, extra_rank, source):
    """R14/R15/V5: the pile (and a failed flipped card) goes into the hand, publicly."""
    known = ob.KNOWN + seat * NR
    for r in range(NR):
        c = obs[ob.PILE_COUNTS + r]
        hands[seat, r] += c
        obs[known + r] += c
    taken = obs[ob.PILE_SIZE]
    if extra_rank >= 0:
        hands[seat, extra_rank] += 1
        obs[known + extra_rank] += 1
        taken += 1
    obs[ob.HAND_SIZE + seat] += taken
    _empty_pile(obs)
    obs[ob.ACTIONS] += 1
    obs[ob.MUST_PLAY] = -1
    game[PICKUPS] += 1
    _event(game, trace, EV_PICKUP, obs[ob.ROUND], seat, source, extra_rank, taken, 0)


@kernel(inline="always")
def _after_play(obs, hands, talon, game, trace, seat, rank, count, source, n):
    """R16: the cards are on the pile; draw, burn, out, again. Returns the seat to act next."""
    obs[ob.ACTIONS] += 1
    obs[ob.MUST_PLAY] = -1
    if obs[ob.PILE_TOP] == rank:
        obs[ob.PILE_RUN] += count
    else:
        obs[ob.PILE_TOP] = rank
        obs[ob.PILE_RUN] = count
    obs[ob.PILE_SIZE] += count
    obs[ob.PILE_COUNTS + rank] += count
    while obs[ob.HAND_SIZE + seat] < HAND_TARGET and game[TALON_POS] < game[TALON_LEN]:  # R16.1
        hands[seat, talon[game[TALON_POS]]] += 1
        game[TALON_POS] += 1
        obs[ob.HAND_SIZE + seat] += 1
        obs[ob.TALON_SIZE] -= 1
    run = obs[ob.PILE_RUN]
    six_burn = obs[ob.SIX_BURN]
    burned = rank == TEN or run >= 4 or (six_burn > 0 and rank == SIX and run >= six_burn)  # R16.2, V7, V10
    if burned:
        for r in range(NR):
            obs[ob.BURNED + r] += obs[ob.PILE_COUNTS + r]
        _empty_pile(obs)
        game[BURNS] += 1
    _event(game, trace, EV_PLAY, obs[ob.ROUND], seat, source, rank, count, 1 if burned else 0)
    if _cards_held(obs, seat) == 0:  # R16.3
        place = game[NEXT_PLACE]
        obs[ob.PLACE + seat] = place
        game[NEXT_PLACE] = place + 1
        game[PLAYERS_IN] -= 1
        _event(game, trace, EV_OUT, obs[ob.ROUND], seat, place, 0, 0, 0)
        if game[PLAYERS_IN] == 1:
            return seat
        return _next_seat(obs, seat, n)  # R17
    if burned and obs[ob.BURN_PLAYS_AGAIN]:  # R16.4, V9
        return seat
    return _next_seat(obs, seat, n)


@kernel(inline="always")
def _take_cards(obs, hands, game, seat, action, source):
    """R9, R11, R13, V11, V12: validate a play from hand or face-up and take its cards.
    Returns the number of cards played, or -1 on an illegal move."""
    rank = action & 15
    count = (action >> 4) & 15
    extra = action >> 8
    if rank >= NR:
        return _fail(game, seat, ILLEGAL_CODE)
    if count < 1:
        return _fail(game, seat, ILLEGAL_ZERO_COUNT)
    faceup = ob.FACEUP + seat * NR
    held = hands[seat, rank] if source == ob.SRC_HAND else obs[faceup + rank]
    if held < count:
        return _fail(game, seat, ILLEGAL_NOT_HELD)
    if not _legal(obs, rank):
        return _fail(game, seat, ILLEGAL_NOT_LEGAL)
    if obs[ob.MUST_PLAY] >= 0 and rank != obs[ob.MUST_PLAY]:
        return _fail(game, seat, ILLEGAL_OPENING)
    if extra != 0:
        empties_hand = (source == ob.SRC_HAND and count == obs[ob.HAND_SIZE + seat]
                        and game[TALON_POS] == game[TALON_LEN])
        if obs[ob.LAST_HAND_WITH_FACEUP] == 0 or not empties_hand or obs[faceup + rank] < extra:
            return _fail(game, seat, ILLEGAL_EXTRA)
    if source == ob.SRC_HAND:
        hands[seat, rank] -= count
        obs[ob.HAND_SIZE + seat] -= count
        known = ob.KNOWN + seat * NR + rank
        obs[known] = max(0, obs[known] - count)
    else:
        obs[faceup + rank] -= count
        obs[ob.FACEUP_SIZE + seat] -= count
    obs[faceup + rank] -= extra
    obs[ob.FACEUP_SIZE + seat] -= extra
    return count + extra


NO_PICKUP = -2


@kernel(inline="always")
def _act(fns, params, rngs, obs, hands, blind, talon, game, trace, obs_log, seat, n):
    """One action (R13-R16); returns the next seat to act, or -1 on an illegal move."""
    if obs[ob.HAND_SIZE + seat] > 0:
        source = ob.SRC_HAND
    elif obs[ob.FACEUP_SIZE + seat] > 0:
        source = ob.SRC_FACEUP
    else:
        source = ob.SRC_BLIND
    pile_size = obs[ob.PILE_SIZE]
    obs[ob.SEAT] = seat
    obs[ob.SOURCE] = source
    obs[ob.CAN_PICKUP] = 1 if (pile_size > 0 and source != ob.SRC_BLIND) else 0
    obs[ob.CAN_CHANCE] = 1 if (obs[ob.CHANCE_RULE] != 0 and source == ob.SRC_HAND and obs[ob.TALON_SIZE] > 0
                               and pile_size > 0) else 0
    # Either a play (rank, count from play_source) or a pickup (with the failed card pickup_rank).
    rank = -1
    count = 0
    play_source = source
    pickup_rank = NO_PICKUP
    if source == ob.SRC_BLIND:  # R15
        obs[ob.DECISION] = ob.BLIND
        pos = _ask(fns, params, rngs, obs, hands, seat, game, obs_log)
        if pos == PICKUP:
            return _fail(game, seat, ILLEGAL_BLIND_PICKUP)
        if pos < 0 or pos > 2 or blind[seat, pos] < 0:
            return _fail(game, seat, ILLEGAL_BLIND_POSITION)
        flipped = blind[seat, pos]
        blind[seat, pos] = -1
        obs[ob.BLIND_PRESENT + seat * 3 + pos] = 0
        obs[ob.BLIND_SIZE + seat] -= 1
        if _legal(obs, flipped):
            rank, count = flipped, 1
        else:
            pickup_rank = flipped
    else:
        obs[ob.DECISION] = ob.TURN
        action = _ask(fns, params, rngs, obs, hands, seat, game, obs_log)
        if action == PICKUP:  # R14
            if pile_size == 0:
                return _fail(game, seat, ILLEGAL_EMPTY_PICKUP)
            pickup_rank = -1
        elif action == CHANCE:  # V5
            if obs[ob.CAN_CHANCE] == 0:
                return _fail(game, seat, ILLEGAL_CHANCE)
            flipped = talon[game[TALON_POS]]
            game[TALON_POS] += 1
            obs[ob.TALON_SIZE] -= 1
            play_source = SRC_TALON
            if _legal(obs, flipped):
                rank, count = flipped, 1
            else:
                pickup_rank = flipped
        elif action < 0:
            return _fail(game, seat, ILLEGAL_CODE)
        else:
            count = _take_cards(obs, hands, game, seat, action, source)
            if count < 0:
                return -1
            rank = action & 15
    if pickup_rank != NO_PICKUP:
        _pick_up(obs, hands, game, trace, seat, pickup_rank, play_source if pickup_rank >= 0 else -1)
        return _next_seat(obs, seat, n)
    return _after_play(obs, hands, talon, game, trace, seat, rank, count, play_source, n)


@kernel
def _swap_phase(fns, params, rngs, obs, hands, faceup, game, trace, obs_log, n):
    """R6: each seat picks its 3 face-up cards seeing only its own 6 cards."""
    for seat in range(n):
        row = ob.FACEUP + seat * NR
        for r in range(NR):
            obs[row + r] = faceup[seat, r]
        obs[ob.SEAT] = seat
        choice = _ask(fns, params, rngs, obs, hands, seat, game, obs_log)
        for r in range(NR):
            obs[row + r] = 0
        if choice < 0 or choice >= NR * NR * NR:
            return _fail(game, seat, ILLEGAL_SWAP)
        a, b, c = choice % NR, (choice // NR) % NR, choice // (NR * NR)
        for r in (a, b, c):
            chosen = (a == r) + (b == r) + (c == r)
            if chosen > hands[seat, r] + faceup[seat, r]:
                return _fail(game, seat, ILLEGAL_SWAP)
        for r in range(NR):
            hands[seat, r] += faceup[seat, r]
            faceup[seat, r] = 0
        for r in (a, b, c):
            hands[seat, r] -= 1
            faceup[seat, r] += 1
        if game[RECORD]:
            _event(game, trace, EV_SWAP, obs[ob.ROUND], seat, _sorted_by_key(faceup, seat),
                   _sorted_by_key(hands, seat), 0, 0)
    return 0


@kernel
def _sorted_by_key(counts, seat):
    """The seat's 3 ranks sorted by the `basic` key, encoded as r0 * 169 + r1 * 13 + r2."""
    code = 0
    for key in range(NR):
        for r in range(NR):
            if BASIC_KEY[r] == key:
                for _ in range(counts[seat, r]):
                    code = code * NR + r
    return code


@kernel
def _choose_starter(obs, hands, n, left_of_dealer):
    """R7, or R8/V3: the lowest ordinary rank in hand starts, ties in turn order from left of dealer."""
    if obs[ob.LOWEST_STARTS] == 0:
        return left_of_dealer
    for r in range(1, NR):
        if r == TEN:
            continue
        for i in range(n):
            seat = (left_of_dealer + i) % n
            if hands[seat, r] > 0:
                return seat
    return left_of_dealer


@kernel
def _final_places(obs, game, n, stalled, starter):
    """R18; R20: on a stall the rest are placed by fewest cards held, then turn order from the starter."""
    while game[PLAYERS_IN] > 0:
        best = -1
        best_cards = 1 << 30
        for i in range(n):
            seat = (starter + i) % n
            if obs[ob.PLACE + seat] == 0 and _cards_held(obs, seat) < best_cards:
                best = seat
                best_cards = _cards_held(obs, seat)
        obs[ob.PLACE + best] = game[NEXT_PLACE]
        game[NEXT_PLACE] += 1
        game[PLAYERS_IN] -= 1


@kernel
def _play_round(fns, params, rngs, obs, hands, blind, faceup, talon, deck, game, trace, obs_log, n, dealer, rnd):
    """One round (R4-R18, R20). Returns 0, or -1 on an illegal move."""
    for i in range(n * NR):  # seats past n are never written, so stay 0
        obs[ob.FACEUP + i] = 0
        obs[ob.KNOWN + i] = 0
    for i in range(3 * n):
        obs[ob.BLIND_PRESENT + i] = 0
    for p in range(n):
        obs[ob.HAND_SIZE + p] = 0
        obs[ob.FACEUP_SIZE + p] = 0
        obs[ob.BLIND_SIZE + p] = 0
        obs[ob.PLACE + p] = 0
    for i in range(ob.PILE_COUNTS, OBS_SIZE):
        obs[i] = 0
    for p in range(MAX_PLAYERS):
        for r in range(NR):
            hands[p, r] = 0
            faceup[p, r] = 0
    for p in range(n):  # R5
        for k in range(3):
            blind[p, k] = deck[3 * p + k] >> 2
            faceup[p, deck[3 * n + 3 * p + k] >> 2] += 1
            hands[p, deck[6 * n + 3 * p + k] >> 2] += 1
    total = deck.shape[0]
    for i in range(9 * n, total):
        talon[i - 9 * n] = deck[i] >> 2
    game[TALON_POS] = 0
    game[TALON_LEN] = total - 9 * n
    game[NEXT_PLACE] = 1
    game[PLAYERS_IN] = n
    obs[ob.ROUND] = rnd
    obs[ob.DECISION] = ob.SWAP
    obs[ob.SOURCE] = ob.SRC_HAND
    obs[ob.PILE_TOP] = -1
    obs[ob.PILE_RUN] = 0
    obs[ob.PILE_SIZE] = 0
    obs[ob.TALON_SIZE] = total - 9 * n
    obs[ob.MUST_PLAY] = -1
    obs[ob.CAN_PICKUP] = 0
    obs[ob.CAN_CHANCE] = 0
    obs[ob.STARTER] = -1
    obs[ob.ACTIONS] = 0
    if _swap_phase(fns, params, rngs, obs, hands, faceup, game, trace, obs_log, n) < 0:
        return -1
    for p in range(n):
        for r in range(NR):
            obs[ob.FACEUP + p * NR + r] = faceup[p, r]
        for k in range(3):
            obs[ob.BLIND_PRESENT + 3 * p + k] = 1
        obs[ob.HAND_SIZE + p] = 3
        obs[ob.FACEUP_SIZE + p] = 3
        obs[ob.BLIND_SIZE + p] = 3
    starter = _choose_starter(obs, hands, n, (dealer + 1) % n)
    obs[ob.STARTER] = starter
    if obs[ob.OPENING_LOWEST]:  # V12
        for r in range(1, NR):
            if r != TEN and hands[starter, r] > 0:
                obs[ob.MUST_PLAY] = r
                break
    seat = starter
    stalled = False
    limit = obs[ob.ACTION_LIMIT]
    while game[PLAYERS_IN] > 1:  # R18
        if obs[ob.ACTIONS] >= limit:  # R20
            stalled = True
            break
        seat = _act(fns, params, rngs, obs, hands, blind, talon, game, trace, obs_log, seat, n)
        if seat < 0:
            return -1
    _final_places(obs, game, n, stalled, starter)
    game[TOTAL_ACTIONS] += obs[ob.ACTIONS]
    if stalled:
        game[STALLED] = 1
    if game[RECORD] and game[N_EVENTS] < trace.shape[0]:
        i = game[N_EVENTS]
        trace[i, 0] = EV_END
        trace[i, 1] = rnd
        trace[i, 2] = 1 if stalled else 0
        for p in range(n):
            trace[i, 3 + p] = obs[ob.PLACE + p]
        game[N_EVENTS] = i + 1
    return 0


@kernel
def play_match(fns, params, rngs, header, seed, game_index, deal_index, seating, decks, first_deck, obs, hands,
               blind, faceup, talon, deck, game, trace, obs_log, places):
    """A match of ``rounds`` rounds (R19, V4, V8); seat s plays strategy ``fns[seating[s]]``.

    Decks come from `decks` rows starting at `first_deck` when it is >= 0, else from the
    (seed, deal_index) shuffle streams; strategies draw from (seed, game_index) streams."""
    n = header[ob.PLAYERS]
    rounds = header[ob.ROUNDS]
    for i in range(ob.HEADER_SIZE):  # the rules; _play_round sets every other field but the scores
        obs[i] = header[i]
    for p in range(n):
        obs[ob.SCORE + p] = 0
    record = game[RECORD]
    for i in range(GAME_SIZE):
        game[i] = 0
    game[RECORD] = record
    for s in range(n):
        game[SEAT_STRATEGY + s] = seating[s]
        rngs[s, 0] = nb_stream_key(seed, game_index, SEAT_STREAM + s)
    dealer = n - 1  # R7
    for rnd in range(rounds):
        if first_deck >= 0:
            for i in range(deck.shape[0]):
                deck[i] = decks[first_deck + rnd, i]
        else:
            nb_shuffled_deck(seed, deal_index, rnd, deck, rngs[n])
        if _play_round(fns, params, rngs, obs, hands, blind, faceup, talon, deck, game, trace, obs_log,
                       n, dealer, rnd + 1) < 0:
            return -1
        idiot = 0
        for p in range(n):
            obs[ob.SCORE + p] += obs[ob.PLACE + p]
            if obs[ob.PLACE + p] == n:
                idiot = p
        dealer = idiot if obs[ob.IDIOT_DEALS] else (dealer + 1) % n  # V8, R7
    for p in range(n):  # R19: lowest total wins, equal totals share the better position
        better = 0
        for q in range(n):
            if obs[ob.SCORE + q] < obs[ob.SCORE + p]:
                better += 1
        places[p] = better + 1
    return 0


@njit(cache=True)
def _work_arrays(n_cards):
    """The state arrays one game at a time needs (see the module docstring)."""
    return (np.zeros(OBS_SIZE, dtype=np.int64), np.zeros((MAX_PLAYERS, NR), dtype=np.int64),
            np.zeros((MAX_PLAYERS, 3), dtype=np.int64), np.zeros((MAX_PLAYERS, NR), dtype=np.int64),
            np.zeros(n_cards, dtype=np.int64), np.zeros(n_cards, dtype=np.int64),
            np.zeros((MAX_PLAYERS + 1, 1), dtype=np.uint64))


BATCH_SIG = types.void(
    STRATEGY_TUPLE, types.float64[:, ::1], types.int64[::1], types.int64, types.int64[::1], types.int64[::1],
    types.int8[:, ::1], types.int64[:, ::1], types.int64,
    types.int8[:, ::1], types.int32[::1], types.int16[::1], types.int16[::1], types.int8[::1], types.int64[::1])


@njit(BATCH_SIG, cache=True, parallel=True)
def play_batch(fns, params, header, seed, game_ids, deal_ids, seating, decks, block,
               places, actions, burns, pickups, stalled, errors):
    """Play the games ``game_ids[i]`` in parallel blocks of `block` games.

    Game i deals from ``deal_ids[i]``'s shuffle (or from `decks` rows i * rounds ...
    when `decks` is not empty) and seats strategy ``fns[seating[i, s]]`` at seat s.
    Results go into the output arrays at index i; ``errors[i]`` holds
    reason * 16 + seat of an illegal move (0 when none).
    """
    n_games = game_ids.shape[0]
    n_blocks = (n_games + block - 1) // block
    n_cards = 52 * header[ob.DECKS]
    rounds = header[ob.ROUNDS]
    n = header[ob.PLAYERS]
    use_decks = decks.shape[0] > 0
    for b in prange(n_blocks):
        obs, hands, blind, faceup, talon, deck, rngs = _work_arrays(n_cards)
        game = np.zeros(GAME_SIZE, dtype=np.int64)
        trace = np.zeros((1, EV_WIDTH), dtype=np.int64)
        obs_log = np.zeros(1, dtype=np.uint64)
        place = np.zeros(MAX_PLAYERS, dtype=np.int64)
        seats = np.zeros(MAX_PLAYERS, dtype=np.int64)
        stop = min(n_games, (b + 1) * block)
        for i in range(b * block, stop):
            for s in range(n):
                seats[s] = seating[i, s]
            first_deck = i * rounds if use_decks else -1
            result = play_match(fns, params, rngs, header, seed, game_ids[i], deal_ids[i], seats, decks, first_deck,
                                obs, hands, blind, faceup, talon, deck, game, trace, obs_log, place)
            if result < 0:
                errors[i] = game[ERROR] * 16 + game[ERROR_SEAT]
                continue
            for p in range(n):
                places[i, p] = place[p]
            actions[i] = game[TOTAL_ACTIONS]
            burns[i] = game[BURNS]
            pickups[i] = game[PICKUPS]
            stalled[i] = game[STALLED]


TRACE_SIG = types.int64(
    STRATEGY_TUPLE, types.float64[:, ::1], types.int64[::1], types.int64, types.int64, types.int64,
    types.int64[::1], types.int64[:, ::1], types.int64, types.int64[:, ::1], types.uint64[::1],
    types.int64[::1], types.int64[::1])


@njit(cache=True)
def trace_match(fns, params, header, seed, game_index, deal_index, seating, decks, first_deck, trace, obs_log,
                places, game):
    """One match with recording on (for `trace --engine numba` and the equality tests)."""
    n_cards = 52 * header[ob.DECKS]
    obs, hands, blind, faceup, talon, deck, rngs = _work_arrays(n_cards)
    game[RECORD] = 1
    return play_match(fns, params, rngs, header, seed, game_index, deal_index, seating, decks, first_deck, obs,
                      hands, blind, faceup, talon, deck, game, trace, obs_log, places)
