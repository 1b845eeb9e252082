"""The gated search (issue 18): the learned model plays the clear turns, the search the close ones.

With the `search` family's `gate` or `top` knob on, a TURN decision with more than one legal move is
first scored by the learned model (the `learned` family's params, which follow the search's knobs at
``LEARNED_AT``): every move of the search's list (`list_turn_moves`, basic's move first) gets the score
the learned player gives it (``idiotsim.strategies.learned.policy.choose_turn``: the state part once, then each
move's part, the model's margin on basic's move included). The model is fitted to -(a move's mean
place - its position's mean place) (``idiotsim.learn.train``), so a score difference is a predicted
difference in places, and the gate is a number of places:

- the best score leads the runner-up by more than `gate`: the decision is clear and the learned
  player's move is played (the first best in the list, so basic's move keeps ties, as it does for
  the learned player; from LONG_ROUND actions of a round on, basic's move, the learned player's rule
  against a stall, R20);
- else the search decides, among the `top` best-scored moves only (0: every move), kept in the list's
  order (so basic's move, when kept, still wins the search's ties), or with the `prior` knob in the
  model's order (its best move first: the search's ties, and sequential halving's, go to the model's
  preference).

Only what the seat knows goes in (observation, own hand), and no random number is drawn, so the
search after the gate draws the same stream it would without it. The scoring allocates nothing.
"""
from __future__ import annotations

from idiotsim.game import observation as ob
from idiotsim.game.basic_player import basic_turn
from idiotsim.game.observation import NR
from idiotsim.jit import kernel
from idiotsim.strategies.learned.features import (MOVE_FEATURES, STATE_FEATURES, move_inputs, next_threat,
                                                  state_inputs, unseen_total)
from idiotsim.strategies.learned.learned_knobs import MODEL_AT
from idiotsim.strategies.learned.learned_knobs import K as LEARNED
from idiotsim.strategies.learned.model import input_counting, move_score, state_part
from idiotsim.strategies.learned.policy import LONG_ROUND, MAX_WIDTH
from idiotsim.engine.memory import readable, stack_floats, stack_ints
from idiotsim.strategies.toolkit import next_seat_in

SCORE_WIDTH = MAX_WIDTH  # the scratch of the learned player's first layer
SEARCH = -1000  # `gate_turn`'s answer when the search must decide (no move code is this low)


@kernel
def learned_scores(obs, hand, params, at, moves, n_moves, scores):
    """scores[i] = the learned model's score of moves[i] for i < n_moves; params[at:] are the `learned`
    family's params (its knobs, then the model at MODEL_AT)."""
    idx = stack_ints(STATE_FEATURES)
    val = stack_floats(STATE_FEATURES)
    unseen = stack_floats(NR)
    pre = stack_floats(SCORE_WIDTH)
    h = stack_floats(SCORE_WIDTH)
    counting = input_counting(params, at + LEARNED.counting, at + MODEL_AT)  # the model's memory (or the knob)
    model_at = at + MODEL_AT
    model, o, hd = readable(params), readable(obs), readable(hand)  # pointers: no wraparound checks
    state_part(model, model_at, state_inputs(o, hd, counting, idx, val, unseen), idx, val, pre)
    total = unseen_total(unseen)
    nxt = next_seat_in(obs)
    threat_next = next_threat(obs, nxt)
    basic = basic_turn(obs, hand)
    for i in range(n_moves):
        n = move_inputs(o, hd, unseen, total, nxt, threat_next, moves[i], basic, counting, idx, val)
        scores[i] = move_score(model, model_at, pre, n, idx, val, h)


@kernel(inline="always")
def _ahead(scores, i, j):
    """Is move i ranked above move j by the model? The higher score, then the earlier move."""
    return scores[i] > scores[j] or (scores[i] == scores[j] and i < j)


@kernel
def keep_top(moves, scores, ranks, n_moves, top, by_score):
    """The `top` best-scored of the first n_moves moves (0: all) stay at the front of `moves`, in their
    order, or with `by_score` best first; returns how many are left (ranks: 2 n_moves ints of scratch)."""
    keep = n_moves if top <= 0 or top >= n_moves else top
    if keep == n_moves and not by_score:
        return n_moves
    for i in range(n_moves):
        ahead = 0
        for j in range(n_moves):
            if j != i and _ahead(scores, j, i):
                ahead += 1
        ranks[i] = ahead  # a strict order: the ranks are 0..n_moves-1, each once
        ranks[n_moves + i] = moves[i]
    kept = 0
    for i in range(n_moves):
        if ranks[i] < keep:
            moves[ranks[i] if by_score else kept] = ranks[n_moves + i]
            kept += 1
    return kept


@kernel
def gate_turn(obs, hand, params, at, gate, top, by_score, moves, n_moves, scores, ranks):
    """The gate at a TURN with n_moves >= 2 moves in `moves` (basic's first; scratch: `scores`, n_moves
    floats, and `ranks`, 2 n_moves ints): (the learned move, 1) when the model's best leads the runner-up
    by more than `gate`, else (SEARCH, how many moves are left) with the moves pruned to the model's `top`
    best (`keep_top`)."""
    learned_scores(obs, hand, params, at, moves, n_moves, scores)
    best, second = 0, -1
    for i in range(1, n_moves):
        if scores[i] > scores[best]:
            best, second = i, best
        elif second < 0 or scores[i] > scores[second]:
            second = i
    if scores[best] - scores[second] > gate:
        if obs[ob.ACTIONS] >= LONG_ROUND:
            return moves[0], 1  # basic's move (or, constrained, its allowed replacement): the list's first
        return moves[best], 1
    return SEARCH, keep_top(moves, scores, ranks, n_moves, top, by_score)

