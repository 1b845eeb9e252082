"""The learned player's decisions (numba): the model scores every candidate move and the best is played.

``params`` = the family's knobs (``learned_knobs.KNOBS``, read here by name) followed by the model vector
(``model``) at MODEL_AT. The knobs override the
model's choice, as the tips of reports/ need:

Constraints (idiotsim.strategies.constraints; the block at CONSTRAINTS_AT) narrow every decision's candidates
first: the model scores only the allowed moves, and a knob's forced move is played only when it is allowed.
The anchor that keeps ties is `basic`'s move, or its replacement (`constraints.replacement`) when it is not
allowed; the model's "basic's move" input stays `basic`'s own move.

- TURN: V12's opening (only MUST_PLAY); `pickup_max` / `pickup_min_rank` (heuristic's voluntary
  pickup, forced); `burn_min` (a legal 10 first when the pile holds >= burn_min cards); then the
  model over the candidates: every legal rank held in the source with every count 1..held (V11:
  with each number of addable face-up cards), PICKUP (R14) and V5 chance when allowed, where
  `save_tens` = 1 drops the 10 while another rank may be played and `max_copies` drops plays of
  more cards from the hand while the talon lasts. `basic`'s move is scored first and keeps ties.
- SWAP (R6): `swap` 1..4 are heuristic's swap modes; 0 scores every distinct choice of 3 face-up
  cards of the 6 with the model's swap head (basic's choice first, keeping ties).
- BLIND (R15): the lowest remaining position (the blind cards are unknown: nothing tells them apart).

Against a stall (R20): from LONG_ROUND actions of a round on, a turn is `basic`'s move (after the
knobs' rules). Basic never picks up by choice, so the model's pickups cannot keep a round going round
and round; such rounds are also outside the training data (`dataset.MAX_ACTIONS`).
"""
from __future__ import annotations

import numpy as np

from idiotsim.game.basic_player import BASIC_PREFERENCE, basic_turn, lowest_blind, swap_best
from idiotsim.game.cards import TEN
from idiotsim.game.moves import (CHANCE, MAX_MOVES, PICKUP, list_swap_moves, list_turn_moves,
                                 playable_mask, sorted_swap)
from idiotsim.game.observation import ACTIONS, DECISION, MUST_PLAY, NR, PILE_SIZE, SOURCE, SRC_HAND, SWAP, TALON_SIZE, TURN
from idiotsim.jit import kernel
from idiotsim.strategies.cascade import swap_by_mode
from idiotsim.strategies.constraints import (ACTIVE, allowed_swap_moves, allowed_turn_moves, constrained_move,
                                             pile_is_strong, replacement)
from idiotsim.strategies.learned.features import (MOVE_FEATURES, STATE_FEATURES, SWAP_FEATURES, move_inputs,
                                                  next_threat, split_swap, state_inputs, swap_features, unseen_total)
from idiotsim.strategies.learned.learned_knobs import CONSTRAINTS_AT, MODEL_AT, K
from idiotsim.strategies.learned.model import MAX_HIDDEN, input_counting, move_score, state_part, swap_score
from idiotsim.engine.memory import readable, stack_floats, stack_ints
from idiotsim.strategies.toolkit import can_play, next_seat_in, play_at_most

NO_MOVE = PICKUP - 100  # no candidate scored yet
LONG_ROUND = 150  # actions; a round of basic self-play at 4 players has about 90
MAX_WIDTH = max(MAX_HIDDEN, MOVE_FEATURES)  # the first layer's width: hidden units, or a linear model's move inputs


@kernel(inline="always")
def allowed(obs, hand, rank, count, save_tens, max_copies):
    """May the override knobs leave the play of `count` cards of `rank` to the model?"""
    if save_tens and rank == TEN and playable_mask(obs, hand) & ~(1 << TEN) != 0:
        return False
    return count <= max_copies or obs[SOURCE] != SRC_HAND or obs[TALON_SIZE] == 0


@kernel
def _scored(obs, hand, model, unseen, total, nxt, threat_next, pre, idx, val, h, move, basic, counting, best,
            best_score):
    """(best, best_score) after scoring `move` (strictly better scores win: earlier moves keep ties)."""
    n = move_inputs(obs, hand, unseen, total, nxt, threat_next, move, basic, counting, idx, val)
    score = move_score(model, MODEL_AT, pre, n, idx, val, h)
    if best == NO_MOVE or score > best_score:
        return move, score
    return best, best_score


@kernel(inline="always")
def _holds(moves, n, move):
    for i in range(n):
        if moves[i] == move:
            return True
    return False


@kernel
def choose_turn(obs, hand, params, c, at):
    """The turn: the knobs' rules, then the model over the candidates the knobs and the constraint block
    c[at:] leave (see the module docstring)."""
    must = obs[MUST_PLAY]
    max_copies = int(params[K.max_copies])
    save_tens = params[K.save_tens] != 0 and must < 0
    # The legal moves (in their list's order), narrowed by the constraints.
    moves = stack_ints(MAX_MOVES)
    n_moves = list_turn_moves(obs, hand, moves)
    basic = basic_turn(obs, hand)
    anchor = basic
    constrained = c[at + ACTIVE] != 0
    if constrained:
        n_moves = allowed_turn_moves(obs, hand, c, at, moves, n_moves)
        if not _holds(moves, n_moves, basic):
            anchor = replacement(obs, moves, n_moves, basic)
    if must < 0:
        pile = obs[PILE_SIZE]
        if 0 < pile <= params[K.pickup_max] and obs[SOURCE] == SRC_HAND and \
                pile_is_strong(obs, params[K.pickup_min_rank]) and (not constrained or _holds(moves, n_moves, PICKUP)):
            return PICKUP
        if can_play(obs, hand, TEN) and pile >= params[K.burn_min]:
            burn = play_at_most(obs, hand, TEN, max_copies)
            if not constrained or _holds(moves, n_moves, burn):
                return burn
    if obs[ACTIONS] >= LONG_ROUND and (anchor < 0 or allowed(obs, hand, anchor & 15, (anchor >> 4) & 15, save_tens,
                                                              max_copies)):
        return anchor
    # First pass: the candidates left by the knobs (of the allowed moves, in their order); one needs no model.
    first = NO_MOVE
    count = 0
    for i in range(n_moves):
        move = moves[i]
        if move >= 0 and not allowed(obs, hand, move & 15, (move >> 4) & 15, save_tens, max_copies):
            continue
        if count == 0 and move != CHANCE:
            first = move
        count += 1
    if count <= 1:
        return first if count == 1 else anchor
    # The state part once (its non-zero inputs only), then each candidate's move part.
    idx = stack_ints(STATE_FEATURES)
    val = stack_floats(STATE_FEATURES)
    unseen = stack_floats(NR)
    pre = stack_floats(MAX_WIDTH)
    h = stack_floats(MAX_WIDTH)
    counting = input_counting(params, K.counting, MODEL_AT)
    model, o, hd = readable(params), readable(obs), readable(hand)  # pointers: no wraparound checks
    state_part(model, MODEL_AT, state_inputs(o, hd, counting, idx, val, unseen), idx, val, pre)
    total = unseen_total(unseen)
    nxt = next_seat_in(obs)
    threat_next = next_threat(obs, nxt)
    # np.int64(...): a literal argument is a type of its own to numba, so `_scored` with a literal NO_MOVE,
    # PICKUP or CHANCE compiled three times more
    best, best_score = np.int64(NO_MOVE), 0.0
    anchor_ok = anchor < 0 or allowed(obs, hand, anchor & 15, (anchor >> 4) & 15, save_tens, max_copies)
    if anchor_ok:
        best, best_score = _scored(o, hd, model, unseen, total, nxt, threat_next, pre, idx, val, h, anchor, basic,
                                   counting, best, best_score)
    for i in range(n_moves):
        move = moves[i]
        if move >= 0 and not allowed(obs, hand, move & 15, (move >> 4) & 15, save_tens, max_copies):
            continue
        if move != anchor or not anchor_ok:
            best, best_score = _scored(o, hd, model, unseen, total, nxt, threat_next, pre, idx, val, h, move, basic,
                                       counting, best, best_score)
    return best


@kernel
def turn_move_score(obs, hand, params, move):
    """The model's score of one turn move (basic's move marked), as `choose_turn` computes it: for tests
    and analysis."""
    idx = stack_ints(STATE_FEATURES)
    val = stack_floats(STATE_FEATURES)
    unseen = stack_floats(NR)
    pre = stack_floats(MAX_WIDTH)
    h = stack_floats(MAX_WIDTH)
    counting = input_counting(params, K.counting, MODEL_AT)
    model, o, hd = readable(params), readable(obs), readable(hand)
    state_part(model, MODEL_AT, state_inputs(o, hd, counting, idx, val, unseen), idx, val, pre)
    nxt = next_seat_in(obs)
    n = move_inputs(o, hd, unseen, unseen_total(unseen), nxt, next_threat(obs, nxt), move, basic_turn(obs, hand),
                    counting, idx, val)
    return move_score(model, MODEL_AT, pre, n, idx, val, h)


@kernel
def choose_swap(obs, hand, params, c, at):
    """The distinct choice of 3 face-up cards with the best swap-head score among those the constraint block
    c[at:] allows; basic's choice (or its replacement) keeps ties."""
    faceup = stack_ints(NR)
    kept = stack_ints(NR)
    f = stack_floats(SWAP_FEATURES)
    best = swap_best(obs, hand, BASIC_PREFERENCE)
    choices = stack_ints(MAX_MOVES)
    n = list_swap_moves(obs, hand, choices)
    if c[at + ACTIVE] != 0:
        n = allowed_swap_moves(obs, hand, c, at, choices, n)
        if not _holds(choices, n, sorted_swap(best)):
            best = replacement(obs, choices, n, sorted_swap(best))
    split_swap(obs, hand, best, faceup, kept)
    swap_features(faceup, kept, f)
    best_score = swap_score(params, MODEL_AT, f)
    for i in range(n):
        split_swap(obs, hand, choices[i], faceup, kept)
        swap_features(faceup, kept, f)
        score = swap_score(params, MODEL_AT, f)
        if score > best_score:
            best, best_score = choices[i], score
    return best


@kernel
def decide_within(obs, hand, params, c, at):
    """A decision of the learned player (params: its knobs, its block, its model) among the moves the
    constraint block c[at:] allows."""
    if obs[DECISION] == SWAP:
        mode = int(params[K.swap])
        if mode != 0:
            return constrained_move(obs, hand, c, at, swap_by_mode(obs, hand, mode))
        return choose_swap(obs, hand, params, c, at)
    if obs[DECISION] == TURN:
        return choose_turn(obs, hand, params, c, at)
    return lowest_blind(obs)


@kernel
def learned_decision(obs, hand, params):
    """A decision of the learned player (the `decide` of strategies/learned/__init__.py), under the constraint
    block in its own params."""
    return decide_within(obs, hand, params, params, CONSTRAINTS_AT)
