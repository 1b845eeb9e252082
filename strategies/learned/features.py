"""The learned player's inputs: ONE feature function of (observation, own hand, candidate move), used
when training data is read and when the player decides, so training and play cannot disagree.

Everything comes from what the deciding seat may know: the public observation and its own hand.
A decision's inputs are two parts:

- the **state part** (`state_features`, STATE_FEATURES values, computed once per decision): own hand
  and face-up rank counts, own blind cards, the pile (rank counts, top, run, size), burned cards,
  unseen cards by rank (talon, blind rows, opponents' unknown hand cards), the talon, the player count,
  the source, and each of the next MAX_OPPONENTS opponents in seat order from the left (in, hand /
  face-up / blind sizes, threat, face-up and publicly known hand rank counts);
- the **move part** (`move_features`, MOVE_FEATURES values, one per candidate move): its kind (play,
  pickup, V5 chance), rank, count, V11 extras, copies kept, share of the source emptied, whether it
  burns (R16.2, V10) and how big a pile, the new top's strength, the share of the unseen cards and
  the known cards of the next player that may follow it, the pile left for the next player, the pile
  a pickup takes, and whether it is `basic`'s move.

`counting` says what the player remembers of the cards that have left play (``model.H_MEMORY``: a model
is fitted and played on one kind of inputs):

- FULL (1): everything the table has seen (the inputs above);
- NONE (0), the no-memory inputs: the pile's rank counts, and the strength of the cards a pickup takes,
  are only its visible top run (its size stays: the pile lies in sight), nothing is burned, no hand card
  of an opponent is known, and a rank's unseen count is every copy not in sight now (own hand, every
  face-up row, the pile's top run);
- SPECIALS (2): NONE, except that the burned 2s and 10s are remembered (their burned counts, and the
  unseen counts of 2s and 10s without them): what a player who counts only the special cards knows.
"""
from __future__ import annotations

import numpy as np

from idiotsim.game.cards import BASIC_KEY, TEN, TWO
from idiotsim.jit import kernel
from idiotsim.engine.memory import stack_floats, stack_ints
from idiotsim.game.observation import (BLIND_SIZE, BURNED, BURN_PLAYS_AGAIN, DECKS, FACEUP,
                                  FACEUP_SIZE, HAND_SIZE, KNOWN, LOW_RANK, NR, PILE_COUNTS, PILE_RUN,
                                  PILE_SIZE, PILE_TOP, PLACE, PLAYERS, SEAT, SOURCE, SRC_FACEUP,
                                  TALON_SIZE, TEN_ONLY_ON_LOWER)
from idiotsim.strategies.weighted import burns
from idiotsim.strategies.toolkit import CHANCE, PICKUP, legal_mask, next_seat_in

NONE, FULL, SPECIALS = 0, 1, 2  # the `counting` argument: what the player remembers (above)
STRENGTH = BASIC_KEY / (NR - 1)  # a rank's place in basic's key 3 < .. < A < 2 < 10, scaled 0..1
CARDS = 4.0  # counts are scaled by the copies of a rank in one deck
PILE_SCALE = 20.0

# ---- the state part: offsets ----
S_HAND = 0                      # 13 own hand counts / 4
S_FACEUP = S_HAND + NR          # 13 own face-up counts / 4
S_BLIND = S_FACEUP + NR         # own blind cards / 3
S_PILE = S_BLIND + 1            # 13 pile counts / 4
S_TOP = S_PILE + NR             # 13 one-hot pile top, then 1 for an empty pile
S_RUN = S_TOP + NR + 1          # pile run / 4
S_PILE_SIZE = S_RUN + 1         # pile size / 20
S_BURNED = S_PILE_SIZE + 1      # 13 burned counts / 4
S_UNSEEN = S_BURNED + NR        # 13 unseen counts / 4
S_TALON = S_UNSEEN + NR         # talon size / 20, then talon > 0
S_PLAYERS = S_TALON + 2         # one-hot 2..5 players (more count as 5)
S_SOURCE = S_PLAYERS + 4        # playing from the face-up row
S_OPPONENTS = S_SOURCE + 1      # per opponent, in seat order from the left: OPPONENT_WIDTH values
O_IN, O_HAND, O_FACEUP_SIZE, O_BLIND, O_THREAT, O_KNOWN_TOTAL, O_FACEUP, O_KNOWN = 0, 1, 2, 3, 4, 5, 6, 6 + NR
OPPONENT_WIDTH = 6 + 2 * NR
MAX_OPPONENTS = 4  # the seats after the deciding one that have inputs (all of them up to 5 players)
STATE_FEATURES = S_OPPONENTS + MAX_OPPONENTS * OPPONENT_WIDTH

# ---- the move part: offsets ----
(M_PLAY, M_PICKUP, M_CHANCE, M_BASIC, M_COUNT, M_EXTRA, M_KEPT, M_SHARE, M_EMPTIES, M_BURN, M_BURN_PILE,
 M_NEW_TOP, M_UNSEEN_FOLLOW, M_NEXT_FOLLOW, M_PILE_AFTER, M_TAKEN, M_TAKEN_STRENGTH, M_NEXT_THREAT,
 M_RANK) = range(19)
MOVE_FEATURES = M_RANK + NR

# ---- the swap (R6): a candidate choice of 3 face-up cards of the 6 ----
SW_FACEUP, SW_HAND, SW_FACEUP_PAIR, SW_HAND_PAIR = 0, NR, 2 * NR, 2 * NR + 1  # rank counts / 3; pairs
SWAP_FEATURES = 2 * NR + 2


@kernel(inline="always")
def _put(idx, val, n, i, x):
    """Append input i of value x to the non-zero list (idx, val)[:n]; the new length. Branch-free: the
    entry is always written and kept only when x is not zero (the buffers have room for every input)."""
    idx[n] = i
    val[n] = x
    return n + (x != 0.0)


@kernel
def unseen_counts(obs, hand, counting, unseen):
    """unseen[r] = the copies of rank r the deciding seat has not seen, / CARDS (NONE: not in sight now: own
    hand, every face-up row, the pile's top run; SPECIALS: nor burned, for 2s and 10s)."""
    seat = obs[SEAT]
    left = stack_ints(NR)
    for r in range(NR):
        left[r] = 4 * obs[DECKS] - hand[r]
    for s in range(obs[PLAYERS]):
        for r in range(NR):
            left[r] -= obs[FACEUP + s * NR + r]
        if counting == FULL and s != seat:
            for r in range(NR):
                left[r] -= obs[KNOWN + s * NR + r]
    if counting == FULL:
        for r in range(NR):
            left[r] -= obs[BURNED + r] + obs[PILE_COUNTS + r]
    else:
        if obs[PILE_TOP] >= 0:
            left[obs[PILE_TOP]] -= obs[PILE_RUN]
        if counting == SPECIALS:
            left[TWO] -= obs[BURNED + TWO]
            left[TEN] -= obs[BURNED + TEN]
    for r in range(NR):
        unseen[r] = max(left[r], 0) / CARDS


@kernel
def state_inputs(obs, hand, counting, idx, val, unseen):
    """The state part of a decision as its non-zero inputs, in increasing index order: (idx, val)[:n]
    with n returned (a model's first layer adds their products in this order). unseen[:NR] receives
    every rank's unseen-count input (the S_UNSEEN block, zeros included) for `move_inputs`."""
    seat = obs[SEAT]
    n_players = obs[PLAYERS]
    top = obs[PILE_TOP]
    own = FACEUP + seat * NR
    n = 0
    for r in range(NR):
        n = _put(idx, val, n, S_HAND + r, hand[r] / CARDS)
    for r in range(NR):
        n = _put(idx, val, n, S_FACEUP + r, obs[own + r] / CARDS)
    n = _put(idx, val, n, S_BLIND, obs[BLIND_SIZE + seat] / 3.0)
    if counting == FULL:
        for r in range(NR):
            n = _put(idx, val, n, S_PILE + r, obs[PILE_COUNTS + r] / CARDS)
    elif top >= 0:
        n = _put(idx, val, n, S_PILE + top, obs[PILE_RUN] / CARDS)
    n = _put(idx, val, n, S_TOP + (top if top >= 0 else NR), 1.0)
    n = _put(idx, val, n, S_RUN, obs[PILE_RUN] / CARDS)
    n = _put(idx, val, n, S_PILE_SIZE, obs[PILE_SIZE] / PILE_SCALE)
    if counting == FULL:
        for r in range(NR):
            n = _put(idx, val, n, S_BURNED + r, obs[BURNED + r] / CARDS)
    elif counting == SPECIALS:  # (index order: 2 is rank 0, 10 rank 8)
        n = _put(idx, val, n, S_BURNED + TWO, obs[BURNED + TWO] / CARDS)
        n = _put(idx, val, n, S_BURNED + TEN, obs[BURNED + TEN] / CARDS)
    unseen_counts(obs, hand, counting, unseen)
    for r in range(NR):
        n = _put(idx, val, n, S_UNSEEN + r, unseen[r])
    n = _put(idx, val, n, S_TALON, obs[TALON_SIZE] / PILE_SCALE)
    n = _put(idx, val, n, S_TALON + 1, 1.0 if obs[TALON_SIZE] > 0 else 0.0)
    n = _put(idx, val, n, S_PLAYERS + min(max(n_players, 2), 5) - 2, 1.0)
    n = _put(idx, val, n, S_SOURCE, 1.0 if obs[SOURCE] == SRC_FACEUP else 0.0)
    for k in range(1, min(n_players, MAX_OPPONENTS + 1)):
        s = (seat + k) % n_players
        if obs[PLACE + s] != 0:
            continue
        base = S_OPPONENTS + (k - 1) * OPPONENT_WIDTH
        n = _put(idx, val, n, base + O_IN, 1.0)
        n = _put(idx, val, n, base + O_HAND, obs[HAND_SIZE + s] / 10.0)
        n = _put(idx, val, n, base + O_FACEUP_SIZE, obs[FACEUP_SIZE + s] / 3.0)
        n = _put(idx, val, n, base + O_BLIND, obs[BLIND_SIZE + s] / 3.0)
        n = _put(idx, val, n, base + O_THREAT, threat(obs, s))
        known = 0
        if counting == FULL:
            for r in range(NR):
                known += obs[KNOWN + s * NR + r]
        n = _put(idx, val, n, base + O_KNOWN_TOTAL, known / CARDS)
        for r in range(NR):
            n = _put(idx, val, n, base + O_FACEUP + r, obs[FACEUP + s * NR + r] / CARDS)
        if known:  # (no known card: the block is all zeros)
            for r in range(NR):
                n = _put(idx, val, n, base + O_KNOWN + r, obs[KNOWN + s * NR + r] / CARDS)
    return n


@kernel(inline="always")
def threat(obs, s):
    """An opponent's threat input: how close seat s is to going out (0 from 4 cards held on)."""
    held = obs[HAND_SIZE + s] + obs[FACEUP_SIZE + s] + obs[BLIND_SIZE + s]
    return max(0, 4 - held) / 3.0


@kernel
def state_features(obs, hand, counting, x):
    """The state part of a decision into x[:STATE_FEATURES] (`state_inputs`, written out in full)."""
    idx = stack_ints(STATE_FEATURES)
    val = stack_floats(STATE_FEATURES)
    unseen = stack_floats(NR)
    for i in range(STATE_FEATURES):
        x[i] = 0.0
    for i in range(state_inputs(obs, hand, counting, idx, val, unseen)):
        x[idx[i]] = val[i]


@kernel
def next_threat(obs, nxt):
    """The M_NEXT_THREAT input: the state part's threat of the next seat in (0 when it is the deciding
    seat's own or beyond MAX_OPPONENTS)."""
    gap = (nxt - obs[SEAT]) % obs[PLAYERS]
    return threat(obs, nxt) if 0 < gap <= MAX_OPPONENTS and obs[PLACE + nxt] == 0 else 0.0


@kernel
def unseen_total(unseen):
    total = 0.0
    for r in range(NR):
        total += unseen[r]
    return total


@kernel
def follow_shares(obs, unseen, total, nxt, top, counting):
    """(share of the unseen cards, known cards in the next player's source / 4) that may follow `top`
    (-1: an empty pile); unseen[:NR]: the state part's unseen inputs, total: their sum."""
    mask = legal_mask(top, obs[LOW_RANK], obs[TEN_ONLY_ON_LOWER] != 0)
    follow = 0.0
    for r in range(NR):
        if (mask >> r) & 1:
            follow += unseen[r]
    known = 0
    if counting == FULL or obs[HAND_SIZE + nxt] == 0:
        base = (KNOWN if obs[HAND_SIZE + nxt] > 0 else FACEUP) + nxt * NR
        for r in range(NR):
            if (mask >> r) & 1:
                known += obs[base + r]
    return (follow / total if total > 0 else 0.0), known / CARDS


@kernel
def move_inputs(obs, hand, unseen, total, nxt, threat_next, move, basic_move, counting, idx, val):
    """The move part of `move` as its non-zero inputs in increasing index order, (idx, val)[:n] with n
    returned. unseen, total: `state_inputs`' unseen inputs and their sum; nxt: the next seat in
    (next_seat_in); threat_next: `next_threat`."""
    pile = obs[PILE_SIZE]
    n = 0
    if move == PICKUP:
        n = _put(idx, val, n, M_PICKUP, 1.0)
        n = _put(idx, val, n, M_BASIC, 1.0 if move == basic_move else 0.0)
        n = _put(idx, val, n, M_TAKEN, pile / PILE_SCALE)
        strength = 0.0
        if counting == FULL:
            for r in range(NR):
                strength += obs[PILE_COUNTS + r] * STRENGTH[r]
        elif obs[PILE_TOP] >= 0:  # without memory the pile is its visible top run (the S_PILE block)
            strength = obs[PILE_RUN] * STRENGTH[obs[PILE_TOP]]
        n = _put(idx, val, n, M_TAKEN_STRENGTH, strength / max(1, pile))
        return _put(idx, val, n, M_NEXT_THREAT, threat_next)
    if move == CHANCE:
        n = _put(idx, val, n, M_CHANCE, 1.0)
        n = _put(idx, val, n, M_BASIC, 1.0 if move == basic_move else 0.0)
        share, known = follow_shares(obs, unseen, total, nxt, obs[PILE_TOP], counting)
        n = _put(idx, val, n, M_UNSEEN_FOLLOW, share)  # V5: the odds that the talon's top card may be played
        return _put(idx, val, n, M_NEXT_THREAT, threat_next)
    seat = obs[SEAT]
    rank = move & 15
    count = (move >> 4) & 15
    extra = (move >> 8) & 15
    from_faceup = obs[SOURCE] == SRC_FACEUP
    held = obs[FACEUP + seat * NR + rank] if from_faceup else hand[rank]
    source_size = obs[FACEUP_SIZE + seat] if from_faceup else obs[HAND_SIZE + seat]
    n = _put(idx, val, n, M_PLAY, 1.0)
    n = _put(idx, val, n, M_BASIC, 1.0 if move == basic_move else 0.0)
    n = _put(idx, val, n, M_COUNT, count / CARDS)
    n = _put(idx, val, n, M_EXTRA, extra / CARDS)
    n = _put(idx, val, n, M_KEPT, (held - count) / CARDS)
    n = _put(idx, val, n, M_SHARE, count / max(1, source_size))
    n = _put(idx, val, n, M_EMPTIES, 1.0 if count == source_size and obs[TALON_SIZE] == 0 else 0.0)
    burn = burns(obs, rank, count + extra)
    if burn:
        n = _put(idx, val, n, M_BURN, 1.0)
        n = _put(idx, val, n, M_BURN_PILE, (pile + count + extra) / PILE_SCALE)
    n = _put(idx, val, n, M_NEW_TOP, STRENGTH[rank])
    if not burn or obs[BURN_PLAYS_AGAIN] == 0:  # V9: after a burn the next player starts on an empty pile
        share, known = follow_shares(obs, unseen, total, nxt, -1 if burn else rank, counting)
        n = _put(idx, val, n, M_UNSEEN_FOLLOW, share)
        n = _put(idx, val, n, M_NEXT_FOLLOW, known)
    if not burn:
        n = _put(idx, val, n, M_PILE_AFTER, (pile + count + extra) / PILE_SCALE)
    n = _put(idx, val, n, M_NEXT_THREAT, threat_next)
    return _put(idx, val, n, M_RANK + rank, 1.0)


@kernel
def move_features(obs, hand, x, move, basic_move, counting, m):
    """The move part of `move` into m[:MOVE_FEATURES] (x: the decision's state part; `move_inputs`,
    written out in full)."""
    idx = stack_ints(MOVE_FEATURES)
    val = stack_floats(MOVE_FEATURES)
    unseen = stack_floats(NR)
    for r in range(NR):
        unseen[r] = x[S_UNSEEN + r]
    nxt = next_seat_in(obs)
    for i in range(MOVE_FEATURES):
        m[i] = 0.0
    for i in range(move_inputs(obs, hand, unseen, unseen_total(unseen), nxt, next_threat(obs, nxt), move,
                               basic_move, counting, idx, val)):
        m[idx[i]] = val[i]


def feature_rows(obs: np.ndarray, hand: np.ndarray, moves_flat: np.ndarray, move_pos: np.ndarray,
                 counting: int = 1):
    """Training inputs of many TURN positions: (state part per position, move part per move), from the
    same functions the player runs. `moves_flat` holds every position's moves (basic's first) in
    order; position i's are moves_flat[move_pos[i]:move_pos[i + 1]]."""
    states = np.zeros((len(obs), STATE_FEATURES), np.float64)
    moves = np.zeros((len(moves_flat), MOVE_FEATURES), np.float64)
    _feature_rows(np.ascontiguousarray(obs, np.int64), np.ascontiguousarray(hand, np.int64),
                  np.ascontiguousarray(moves_flat, np.int64), np.ascontiguousarray(move_pos, np.int64),
                  counting, states, moves)
    return states, moves


@kernel
def _feature_rows(obs, hand, moves_flat, move_pos, counting, states, moves):
    for i in range(obs.shape[0]):
        state_features(obs[i], hand[i], counting, states[i])
        basic = moves_flat[move_pos[i]]
        for j in range(move_pos[i], move_pos[i + 1]):
            move_features(obs[i], hand[i], states[i], moves_flat[j], basic, counting, moves[j])



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
def split_swap(obs, hand, choice, faceup_counts, hand_counts):
    """The face-up and hand rank counts after the swap `choice` (swap_choice code) of the seat's 6 cards."""
    row = FACEUP + obs[SEAT] * NR
    for r in range(NR):
        faceup_counts[r] = 0
        hand_counts[r] = hand[r] + obs[row + r]
    for _ in range(3):
        r = choice % NR
        choice //= NR
        faceup_counts[r] += 1
        hand_counts[r] -= 1

