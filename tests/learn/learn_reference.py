"""The learned player as it was before issue 18's speed work (commit 11e8f0f): the dense state and move
parts, the dense scorer and the allocating decision, kept verbatim as the slow reference that
tests/learn/test_learn_speed.py compares the fast player's scores and decisions against, bit for bit."""
import numpy as np
from numba import njit

from idiotsim.game.cards import TEN
from idiotsim.jit import kernel
from idiotsim.strategies.learned.features import (CARDS, M_BASIC, M_BURN, M_BURN_PILE, M_CHANCE, M_COUNT, M_EMPTIES, M_EXTRA,
                                     M_KEPT, M_NEW_TOP, M_NEXT_FOLLOW, M_NEXT_THREAT, M_PICKUP, M_PILE_AFTER, M_PLAY,
                                     M_RANK, M_SHARE, M_TAKEN, M_TAKEN_STRENGTH, M_UNSEEN_FOLLOW, MAX_OPPONENTS,
                                     MOVE_FEATURES, O_BLIND, O_FACEUP, O_FACEUP_SIZE, O_HAND, O_IN, O_KNOWN,
                                     O_KNOWN_TOTAL, O_THREAT, OPPONENT_WIDTH, PILE_SCALE, S_BLIND, S_BURNED, S_FACEUP,
                                     S_HAND, S_OPPONENTS, S_PILE, S_PILE_SIZE, S_PLAYERS, S_RUN, S_SOURCE, S_TALON,
                                     S_TOP, S_UNSEEN, STATE_FEATURES, STRENGTH, SWAP_FEATURES, split_swap,
                                     SW_FACEUP, SW_FACEUP_PAIR, SW_HAND, SW_HAND_PAIR)
from idiotsim.strategies.learned.model import H_HIDDEN, H_KIND, H_MEMORY, HEADER, LINEAR, SWAP_HEAD
from idiotsim.strategies.learned.learned_knobs import MODEL_AT, K
from idiotsim.strategies.learned.policy import LONG_ROUND, NO_MOVE, allowed
from idiotsim.game.observation import (ACTIONS, BLIND_SIZE, BURNED, BURN_PLAYS_AGAIN, CAN_CHANCE, CAN_PICKUP, DECISION,
                                  DECKS, FACEUP, FACEUP_SIZE, HAND_SIZE, KNOWN, LOW_RANK, MUST_PLAY, NR, PILE_COUNTS,
                                  PILE_RUN, PILE_SIZE, PILE_TOP, PLACE, PLAYERS, SEAT, SOURCE, SRC_FACEUP, SRC_HAND,
                                  SWAP, TALON_SIZE, TEN_ONLY_ON_LOWER, TURN)
from idiotsim.game.moves import can_lay as _can_lay
from idiotsim.strategies.cascade import pile_is_strong, swap_by_mode
from idiotsim.strategies.weighted import burns
from idiotsim.game.basic_player import BASIC_PREFERENCE, basic_turn, lowest_blind, swap_best
from idiotsim.game.moves import (CHANCE, PICKUP, can_play, faceup_addable, held_in_source, legal_mask, legal_now, play, swap_choice)
from idiotsim.strategies.toolkit import next_seat_in, play_at_most

@kernel
def unseen_count(obs, hand, rank, counting):
    """Copies of `rank` the deciding seat has not seen (counting=0: not in sight now)."""
    seat = obs[SEAT]
    c = CARDS * obs[DECKS] - hand[rank]
    for s in range(obs[PLAYERS]):
        c -= obs[FACEUP + s * NR + rank]
        if counting and s != seat:
            c -= obs[KNOWN + s * NR + rank]
    if counting:
        c -= obs[BURNED + rank] + obs[PILE_COUNTS + rank]
    elif rank == obs[PILE_TOP]:
        c -= obs[PILE_RUN]
    return max(c, 0.0)


@kernel
def state_features(obs, hand, counting, x):
    """The state part of a decision into x[:STATE_FEATURES]."""
    for i in range(STATE_FEATURES):
        x[i] = 0.0
    seat = obs[SEAT]
    n = obs[PLAYERS]
    top = obs[PILE_TOP]
    for r in range(NR):
        x[S_HAND + r] = hand[r] / CARDS
        x[S_FACEUP + r] = obs[FACEUP + seat * NR + r] / CARDS
        if counting:
            x[S_PILE + r] = obs[PILE_COUNTS + r] / CARDS
            x[S_BURNED + r] = obs[BURNED + r] / CARDS
        x[S_UNSEEN + r] = unseen_count(obs, hand, r, counting) / CARDS
    if not counting and top >= 0:
        x[S_PILE + top] = obs[PILE_RUN] / CARDS
    x[S_BLIND] = obs[BLIND_SIZE + seat] / 3.0
    x[S_TOP + (top if top >= 0 else NR)] = 1.0
    x[S_RUN] = obs[PILE_RUN] / CARDS
    x[S_PILE_SIZE] = obs[PILE_SIZE] / PILE_SCALE
    x[S_TALON] = obs[TALON_SIZE] / PILE_SCALE
    x[S_TALON + 1] = obs[TALON_SIZE] > 0
    x[S_PLAYERS + min(max(n, 2), 5) - 2] = 1.0
    x[S_SOURCE] = obs[SOURCE] == SRC_FACEUP
    for k in range(1, min(n, MAX_OPPONENTS + 1)):
        s = (seat + k) % n
        base = S_OPPONENTS + (k - 1) * OPPONENT_WIDTH
        if obs[PLACE + s] != 0:
            continue
        held = obs[HAND_SIZE + s] + obs[FACEUP_SIZE + s] + obs[BLIND_SIZE + s]
        x[base + O_IN] = 1.0
        x[base + O_HAND] = obs[HAND_SIZE + s] / 10.0
        x[base + O_FACEUP_SIZE] = obs[FACEUP_SIZE + s] / 3.0
        x[base + O_BLIND] = obs[BLIND_SIZE + s] / 3.0
        x[base + O_THREAT] = max(0, 4 - held) / 3.0
        known = 0
        for r in range(NR):
            x[base + O_FACEUP + r] = obs[FACEUP + s * NR + r] / CARDS
            if counting:
                x[base + O_KNOWN + r] = obs[KNOWN + s * NR + r] / CARDS
                known += obs[KNOWN + s * NR + r]
        x[base + O_KNOWN_TOTAL] = known / CARDS


@kernel
def follow_shares(obs, x, nxt, top, counting):
    """(share of the unseen cards, known cards in the next player's source / 4) that may follow `top`
    (-1: an empty pile)."""
    mask = legal_mask(top, obs[LOW_RANK], obs[TEN_ONLY_ON_LOWER] != 0)
    unseen = 0.0
    follow = 0.0
    base = (KNOWN if obs[HAND_SIZE + nxt] > 0 else FACEUP) + nxt * NR
    for r in range(NR):
        unseen += x[S_UNSEEN + r]
        if (mask >> r) & 1:
            follow += x[S_UNSEEN + r]
    known = 0
    if counting or obs[HAND_SIZE + nxt] == 0:
        for r in range(NR):
            if (mask >> r) & 1:
                known += obs[base + r]
    return (follow / unseen if unseen > 0 else 0.0), known / CARDS


@kernel
def move_features(obs, hand, x, move, basic_move, counting, m):
    """The move part of `move` into m[:MOVE_FEATURES] (x: the decision's state part)."""
    for i in range(MOVE_FEATURES):
        m[i] = 0.0
    seat = obs[SEAT]
    nxt = next_seat_in(obs)
    pile = obs[PILE_SIZE]
    m[M_BASIC] = move == basic_move
    gap = (nxt - seat) % obs[PLAYERS]
    m[M_NEXT_THREAT] = x[S_OPPONENTS + (gap - 1) * OPPONENT_WIDTH + O_THREAT] if 0 < gap <= MAX_OPPONENTS else 0.0
    if move == PICKUP:
        m[M_PICKUP] = 1.0
        m[M_TAKEN] = pile / PILE_SCALE
        strength = 0.0
        if counting:
            for r in range(NR):
                strength += obs[PILE_COUNTS + r] * STRENGTH[r]
        elif obs[PILE_TOP] >= 0:  # (since issue 44: without memory, the visible top run only)
            strength = obs[PILE_RUN] * STRENGTH[obs[PILE_TOP]]
        m[M_TAKEN_STRENGTH] = strength / max(1, pile)
        return
    if move == CHANCE:
        m[M_CHANCE] = 1.0
        share, known = follow_shares(obs, x, nxt, obs[PILE_TOP], counting)
        m[M_UNSEEN_FOLLOW] = share  # V5: the odds that the talon's top card may be played
        return
    rank = move & 15
    count = (move >> 4) & 15
    extra = (move >> 8) & 15
    from_faceup = obs[SOURCE] == SRC_FACEUP
    held = obs[FACEUP + seat * NR + rank] if from_faceup else hand[rank]
    source_size = obs[FACEUP_SIZE + seat] if from_faceup else obs[HAND_SIZE + seat]
    m[M_PLAY] = 1.0
    m[M_RANK + rank] = 1.0
    m[M_COUNT] = count / CARDS
    m[M_EXTRA] = extra / CARDS
    m[M_KEPT] = (held - count) / CARDS
    m[M_SHARE] = count / max(1, source_size)
    m[M_EMPTIES] = count == source_size and obs[TALON_SIZE] == 0
    m[M_NEW_TOP] = STRENGTH[rank]
    if burns(obs, rank, count + extra):
        m[M_BURN] = 1.0
        m[M_BURN_PILE] = (pile + count + extra) / PILE_SCALE
        if obs[BURN_PLAYS_AGAIN] == 0:  # V9: the next player starts on an empty pile
            share, known = follow_shares(obs, x, nxt, -1, counting)
            m[M_UNSEEN_FOLLOW] = share
            m[M_NEXT_FOLLOW] = known
        return
    share, known = follow_shares(obs, x, nxt, rank, counting)
    m[M_UNSEEN_FOLLOW] = share
    m[M_NEXT_FOLLOW] = known
    m[M_PILE_AFTER] = (pile + count + extra) / PILE_SCALE


@kernel
def swap_features(faceup_counts, hand_counts, f):
    """A swap choice's inputs into f[:SWAP_FEATURES]: the face-up and hand rank counts after it, and
    whether either holds two or more of a rank."""
    f[SW_FACEUP_PAIR] = 0.0
    f[SW_HAND_PAIR] = 0.0
    for r in range(NR):
        f[SW_FACEUP + r] = faceup_counts[r] / 3.0
        f[SW_HAND + r] = hand_counts[r] / 3.0
        if faceup_counts[r] >= 2:
            f[SW_FACEUP_PAIR] = 1.0
        if hand_counts[r] >= 2:
            f[SW_HAND_PAIR] = 1.0


@kernel
def state_part(model, at, s, pre):
    """Once per decision: for an MLP, pre[:hidden] = s Ws + b; for a linear model, pre[:MOVE_FEATURES] =
    w + s A. `at`: the model's offset in params. Zero state inputs are skipped (most are zero)."""
    kind = int(model[at + H_KIND])
    hidden = int(model[at + H_HIDDEN])
    body = at + HEADER + SWAP_FEATURES
    if kind == LINEAR:
        w = body + STATE_FEATURES * MOVE_FEATURES
        for k in range(MOVE_FEATURES):
            pre[k] = model[w + k]
        for j in range(STATE_FEATURES):
            x = s[j]
            if x != 0.0:
                row = body + j * MOVE_FEATURES
                for k in range(MOVE_FEATURES):
                    pre[k] += x * model[row + k]
        return
    b = body + (STATE_FEATURES + MOVE_FEATURES) * hidden
    for k in range(hidden):
        pre[k] = model[b + k]
    for j in range(STATE_FEATURES):
        x = s[j]
        if x != 0.0:
            row = body + j * hidden
            for k in range(hidden):
                pre[k] += x * model[row + k]


@kernel
def move_score(model, at, pre, m, h):
    """The score of one move (m: its move part; pre: `state_part`'s; h: hidden-size scratch)."""
    kind = int(model[at + H_KIND])
    hidden = int(model[at + H_HIDDEN])
    body = at + HEADER + SWAP_FEATURES
    score = 0.0
    if kind == LINEAR:
        for k in range(MOVE_FEATURES):
            score += m[k] * pre[k]
        return score
    wm = body + STATE_FEATURES * hidden
    b = wm + MOVE_FEATURES * hidden
    v = b + hidden
    w = v + hidden
    for k in range(hidden):
        h[k] = pre[k]
    for j in range(MOVE_FEATURES):
        x = m[j]
        if x != 0.0:
            score += x * model[w + j]
            row = wm + j * hidden
            for k in range(hidden):
                h[k] += x * model[row + k]
    for k in range(hidden):
        if h[k] > 0.0:
            score += h[k] * model[v + k]
    return score


@kernel
def swap_score(model, at, f):
    """The swap head's score of one choice (f: its `swap_features`)."""
    score = 0.0
    for k in range(SWAP_FEATURES):
        score += model[at + SWAP_HEAD + k] * f[k]
    return score
@kernel
def _scored(obs, hand, params, s, m, pre, h, move, basic, counting, best, best_score):
    """(best, best_score) after scoring `move` (strictly better scores win: earlier moves keep ties)."""
    move_features(obs, hand, s, move, basic, counting, m)
    score = move_score(params, MODEL_AT, pre, m, h)
    if best == NO_MOVE or score > best_score:
        return move, score
    return best, best_score


@njit(cache=True)
def choose_turn(obs, hand, params):
    must = obs[MUST_PLAY]
    max_copies = int(params[K.max_copies])
    save_tens = params[K.save_tens] != 0 and must < 0
    if must < 0:
        pile = obs[PILE_SIZE]
        if 0 < pile <= params[K.pickup_max] and obs[SOURCE] == SRC_HAND and \
                pile_is_strong(obs, params[K.pickup_min_rank]):
            return PICKUP
        if can_play(obs, hand, TEN) and pile >= params[K.burn_min]:
            return play_at_most(obs, hand, TEN, max_copies)
    basic = basic_turn(obs, hand)
    if obs[ACTIONS] >= LONG_ROUND and (basic < 0 or allowed(obs, hand, basic & 15, (basic >> 4) & 15, save_tens,
                                                             max_copies)):
        return basic
    # First pass: the candidates left by the knobs; one candidate needs no model.
    first = NO_MOVE
    count = 0
    for r in range(NR):
        if (must >= 0 and r != must) or not legal_now(obs, r):
            continue
        for c in range(1, held_in_source(obs, hand, r) + 1):
            if allowed(obs, hand, r, c, save_tens, max_copies):
                if count == 0:
                    first = play(r, c, 0)
                count += 1 + faceup_addable(obs, hand, r, c)
    if obs[CAN_PICKUP] != 0:
        if count == 0:
            first = PICKUP
        count += 1
    if obs[CAN_CHANCE] != 0:
        count += 1
    if count <= 1:
        return first if count == 1 else basic
    width = max(int(params[MODEL_AT + H_HIDDEN]), MOVE_FEATURES)
    s = np.empty(STATE_FEATURES)
    m = np.empty(MOVE_FEATURES)
    pre = np.empty(width)
    h = np.empty(width)
    counting = 0 if params[MODEL_AT + H_MEMORY] == 1 else int(params[K.counting])  # (issue 44: no-memory models)
    state_features(obs, hand, counting, s)
    state_part(params, MODEL_AT, s, pre)
    best, best_score = NO_MOVE, 0.0
    basic_ok = basic < 0 or allowed(obs, hand, basic & 15, (basic >> 4) & 15, save_tens, max_copies)
    if basic_ok:
        best, best_score = _scored(obs, hand, params, s, m, pre, h, basic, basic, counting, best, best_score)
    for r in range(NR):
        if (must >= 0 and r != must) or not legal_now(obs, r):
            continue
        for c in range(1, held_in_source(obs, hand, r) + 1):
            if not allowed(obs, hand, r, c, save_tens, max_copies):
                continue
            for extra in range(faceup_addable(obs, hand, r, c) + 1):
                move = play(r, c, extra)
                if move != basic or not basic_ok:
                    best, best_score = _scored(obs, hand, params, s, m, pre, h, move, basic, counting, best, best_score)
    if obs[CAN_PICKUP] != 0 and basic != PICKUP:
        best, best_score = _scored(obs, hand, params, s, m, pre, h, PICKUP, basic, counting, best, best_score)
    if obs[CAN_CHANCE] != 0:
        best, best_score = _scored(obs, hand, params, s, m, pre, h, CHANCE, basic, counting, best, best_score)
    return best


@njit(cache=True)
def choose_swap(obs, hand, params):
    """The distinct choice of 3 face-up cards with the best swap-head score; basic's keeps ties."""
    faceup = np.empty(NR, np.int64)
    kept = np.empty(NR, np.int64)
    f = np.empty(SWAP_FEATURES)
    best = swap_best(obs, hand, BASIC_PREFERENCE)
    split_swap(obs, hand, best, faceup, kept)
    swap_features(faceup, kept, f)
    best_score = swap_score(params, MODEL_AT, f)
    for r1 in range(NR):
        for r2 in range(r1, NR):
            for r3 in range(r2, NR):
                if _can_lay(obs, hand, r1, r2, r3):
                    choice = swap_choice(r1, r2, r3)
                    split_swap(obs, hand, choice, faceup, kept)
                    swap_features(faceup, kept, f)
                    score = swap_score(params, MODEL_AT, f)
                    if score > best_score:
                        best, best_score = choice, score
    return best


@njit(cache=True)
def learned_decision(obs, hand, params):
    """A decision of the learned player (the `decide` of strategies/learned/__init__.py)."""
    if obs[DECISION] == SWAP:
        mode = int(params[K.swap])
        if mode != 0:
            return swap_by_mode(obs, hand, mode)
        return choose_swap(obs, hand, params)
    if obs[DECISION] == TURN:
        return choose_turn(obs, hand, params)
    return lowest_blind(obs)


@njit(cache=True)
def reference_turn_move_score(obs, hand, params, move):
    """One turn move's score (basic's move marked), as the reference computes it."""
    width = max(int(params[MODEL_AT + H_HIDDEN]), MOVE_FEATURES)
    s = np.empty(STATE_FEATURES)
    m = np.empty(MOVE_FEATURES)
    pre = np.empty(width)
    h = np.empty(width)
    counting = 0 if params[MODEL_AT + H_MEMORY] == 1 else int(params[K.counting])  # (issue 44: no-memory models)
    state_features(obs, hand, counting, s)
    state_part(params, MODEL_AT, s, pre)
    move_features(obs, hand, s, move, basic_turn(obs, hand), counting, m)
    return move_score(params, MODEL_AT, pre, m, h)
