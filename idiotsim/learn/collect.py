"""Positions for the teacher to label: games played on the numba engine's own primitives, exactly as
``engine.drivers.play_match`` plays round 1 of game `game` (deal `game`, the seats' streams of `seed`), with
some decisions kept.

Any strategy spec may play a seat (``engine.batches.strategy_inputs``: the same strategy tuple the engine
takes), so positions come from `basic`, the search or the learned player alike (DAgger). A decision
is kept when it is a SWAP (R6) or a TURN with more than one legal move, and a draw from the game's
own KEEP_STREAM falls below the keep share: the kept positions depend only on (seed, game, seating),
never on chunking. A kept position is the deciding seat's observation and own hand: all the teacher
and the features may read.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types

from idiotsim.engine import drivers, transitions
from idiotsim.engine import state_layout as layout
from idiotsim.engine.memory import data_pointer
from idiotsim.game import observation as ob
from idiotsim.game.basic_player import list_moves_basic_first
from idiotsim.game.moves import MAX_MOVES
from idiotsim.game.observation import NR
from idiotsim.game.rng import SEAT_STREAM, nb_next_u64, nb_shuffled_deck, nb_stream_key

KEEP_STREAM = SEAT_STREAM - 4  # which decisions are kept (no seat of a game uses it)
LABEL_STREAM = SEAT_STREAM - 3  # the teacher's sampled states, one stream per position
POSITION_KEY = 100_000  # a position's stream: game * POSITION_KEY + its index in the game
MAX_KEPT = 512  # positions one game can keep (a round of 4 players has about 80 decisions)


@njit(cache=True)
def _keep(rng, share):
    return (nb_next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) < share




@njit(cache=True)
def _record(st, seat, kept, out_obs, out_hand, out_seat):
    for i in range(ob.OBS_SIZE):
        out_obs[kept, i] = st[i]
    for r in range(NR):
        out_hand[kept, r] = st[layout.HANDS + seat * NR + r]
    out_seat[kept] = seat


COLLECT_SIG = types.int64(layout.STRATEGY_TUPLE, types.float64[:, ::1], types.int64[::1], types.int64, types.int64,
                          types.int64[::1], types.float64, types.float64, types.int64[:, ::1], types.int64[:, ::1],
                          types.int64[::1])


@njit(COLLECT_SIG, cache=True)
def collect_game(fns, params, header, seed, game, seating, turn_share, swap_share, out_obs, out_hand, out_seat):
    """Round 1 of game `game` (as `engine.play_match` plays it: deal `game`, seat s plays
    fns[seating[s]]), keeping SWAP decisions with probability swap_share and TURN decisions with more
    than one legal move with probability turn_share. Returns how many were kept, or -1 on an illegal move."""
    st = np.zeros(layout.STATE_SIZE, np.int64)
    sp = data_pointer(st)
    rngs = np.zeros((ob.MAX_PLAYERS + 1, 1), np.uint64)
    keep_rng = np.zeros(1, np.uint64)
    moves = np.zeros(MAX_MOVES, np.int64)
    n = header[ob.PLAYERS]
    n_cards = 52 * header[ob.DECKS]
    for i in range(ob.HEADER_SIZE):
        st[i] = header[i]
    for s in range(n):
        st[layout.SEAT_STRATEGY + s] = seating[s]
        rngs[s, 0] = nb_stream_key(seed, game, SEAT_STREAM + s)
    keep_rng[0] = nb_stream_key(seed, game, KEEP_STREAM)
    nb_shuffled_deck(seed, game, 0, st[layout.DECK:layout.DECK + n_cards], rngs[n])
    transitions.deal(sp, n, n_cards)
    sp[ob.ROUND] = 1
    table = drivers.strategy_table(fns)
    kept = 0
    for seat in range(n):  # R6
        transitions.show_swap(sp, seat)
        if kept < MAX_KEPT and _keep(keep_rng, swap_share):
            _record(st, seat, kept, out_obs, out_hand, out_seat)
            kept += 1
        if transitions.apply_swap(sp, seat, drivers.seat_decision(table, params, rngs, st, sp, seat)) < 0:
            return -1
    transitions.open_table(sp, n)
    seat = transitions.start_play(sp, n, 0)  # R7: the dealer of round 1 is seat n - 1
    while sp[layout.PLAYERS_IN] > 1 and sp[ob.ACTIONS] < sp[ob.ACTION_LIMIT]:  # R18, R20
        transitions.show_turn(sp, seat)
        if sp[ob.DECISION] == ob.TURN and kept < MAX_KEPT:
            hand = st[layout.HANDS + seat * NR: layout.HANDS + seat * NR + NR]
            if list_moves_basic_first(st[:ob.OBS_SIZE], hand, moves) > 1 and _keep(keep_rng, turn_share):
                _record(st, seat, kept, out_obs, out_hand, out_seat)
                kept += 1
        seat = transitions.apply_action(sp, seat, drivers.seat_decision(table, params, rngs, st, sp, seat), n)
        if seat < 0:
            return -1
    return kept
