"""Positions for the teacher to label: games stepped through the engine's public face (``engine.stepping``),
exactly as ``run`` plays round 1 of game `game` (deal `game`, the seats' streams of `seed`), with some
decisions kept.

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

from idiotsim.engine.drivers import STRATEGY_TUPLE, strategy_table
from idiotsim.engine.hidden_cards import TABLE_SIZE, hand_of
from idiotsim.engine.stepping import MATCH_OVER, begin_match, step_table
from idiotsim.game.action_space import action_id
from idiotsim.game import observation as ob
from idiotsim.game.basic_player import list_moves_basic_first
from idiotsim.game.moves import MAX_MOVES
from idiotsim.game.observation import NR
from idiotsim.game.rng import SEAT_STREAM, nb_next_u64, nb_stream_key

KEEP_STREAM = SEAT_STREAM - 4  # which decisions are kept (no seat of a game uses it)
LABEL_STREAM = SEAT_STREAM - 3  # the teacher's sampled states, one stream per position
POSITION_KEY = 100_000  # a position's stream: game * POSITION_KEY + its index in the game
MAX_KEPT = 512  # positions one game can keep (a round has far fewer decisions)


@njit(cache=True)
def _keep(rng, share):
    return (nb_next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) < share




@njit(cache=True)
def _record(st, seat, kept, out_obs, out_hand, out_seat):
    hand = hand_of(st, seat)
    for i in range(ob.OBS_SIZE):
        out_obs[kept, i] = st[i]
    for r in range(NR):
        out_hand[kept, r] = hand[r]
    out_seat[kept] = seat


COLLECT_SIG = types.int64(STRATEGY_TUPLE, types.float64[:, ::1], types.int64[::1], types.int64, types.int64,
                          types.int64[::1], types.float64, types.float64, types.int64[:, ::1], types.int64[:, ::1],
                          types.int64[::1])


@njit(COLLECT_SIG, cache=True)
def collect_game(fns, params, header, seed, game, seating, turn_share, swap_share, out_obs, out_hand, out_seat):
    """Round 1 of game `game` (as `run` plays it: deal `game`, seat s plays fns[seating[s]]), stepped
    through ``engine.stepping``, keeping SWAP decisions with probability swap_share and TURN decisions
    with more than one legal move with probability turn_share. Returns how many were kept, or -1 on an
    illegal move."""
    st = np.zeros(TABLE_SIZE, np.int64)
    work = np.zeros(1, np.uint64)
    rngs = np.zeros((ob.MAX_PLAYERS, 1), np.uint64)
    keep_rng = np.zeros(1, np.uint64)
    moves = np.zeros(MAX_MOVES, np.int64)
    for s in range(header[ob.PLAYERS]):
        rngs[s, 0] = nb_stream_key(seed, game, SEAT_STREAM + s)
    keep_rng[0] = nb_stream_key(seed, game, KEEP_STREAM)
    begin_match(st, header, seed, game, game, work)
    table = strategy_table(fns)
    obs = st[:ob.OBS_SIZE]  # the table's public head: the observation of the seat to act
    kept = 0
    while st[ob.ROUND] == 1:
        seat, decision = obs[ob.SEAT], obs[ob.DECISION]
        hand = hand_of(st, seat)
        if kept < MAX_KEPT and decision != ob.BLIND:
            if decision == ob.SWAP:
                keep = _keep(keep_rng, swap_share)
            else:
                keep = list_moves_basic_first(obs, hand, moves) > 1 and _keep(keep_rng, turn_share)
            if keep:
                _record(st, seat, kept, out_obs, out_hand, out_seat)
                kept += 1
        k = seating[seat]
        result = step_table(st, action_id(decision, table[k](obs, hand, params[k], rngs[seat])), work)
        if result < 0:
            return -1
        if result == MATCH_OVER:
            break
    return kept
