"""Determinized Monte Carlo search (PIMC): judge every legal move of a seat on sampled states.

A decision of the seat ``obs[SEAT]`` is searched in three steps:

1. **Determinization** (`idiotsim.strategies.search.sampler.sample_state`): a full engine table (its hidden
   cards by ``idiotsim.engine.hidden_cards``) built from what the seat knows, its observation and its own hand; every card it has not
   seen (the opponents' hand cards that are not publicly KNOWN, every blind card including its own,
   the talon) is dealt at random, uniformly or (the `belief` knob) uniformly among the arrangements
   that agree with the opponents' pickups had they played like `basic`, with every size as the
   observation shows it. The draws come from the seat's random stream only, so the same observation,
   hand and stream always give the same state, whatever the hidden cards really are.
2. **Rollouts** (`engine.play_on`): each move is applied to a copy of the sampled state and the
   round is played on with one rollout policy at every seat until the seat's place is decided
   (cycles of a deterministic policy skipped, see `play_on`).
3. **Choice**: every move is judged on the same K sampled states (common random numbers); the best
   by mean place (or by wins) is played, `basic`'s move (always move 0) winning ties.

The swap (R6) is searched the same way from a sampled deal (`sample_deal`), every distinct choice of
3 face-up cards of the 6. The perfect-information variant (`decide_perfect_info`) reads the true
state behind the observation instead of sampling: an upper bound for experiments, not a fair player.

Work arrays are allocated once per decision (`search_decision`); the kernels below allocate nothing.
"""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload

from idiotsim.engine import rollouts
from idiotsim.engine.basic_rounds import basic_moves, basic_rollout
from idiotsim.engine.hidden_cards import MAX_TABLE_CARDS, TABLE_SIZE, copy_live_table
from idiotsim.engine.memory import data_pointer
from idiotsim.game import observation as ob
from idiotsim.game.basic_player import basic_turn, list_moves_basic_first, play_all
from idiotsim.game.basic_player import decide as basic_decide
from idiotsim.game.cards import TEN
from idiotsim.game.moves import MAX_MOVES, can_play, list_turn_moves, playable_mask, put_first
from idiotsim.game.observation import NR
from idiotsim.jit import kernel
from idiotsim.strategies.cascade import swap_by_mode
from idiotsim.strategies.constraints import constrain_list, constrained_move
from idiotsim.strategies.counter import STRATEGY as COUNTER
from idiotsim.strategies.counter import decide as counter_decide
from idiotsim.strategies.learned import policy as learned_policy
from idiotsim.strategies.search import gate as search_gate
from idiotsim.strategies.search.sampler import (PLAN_SIZE, decision_pool, hidden_pool, plan_samples,
                                                sample_deal_from, sample_state_from)
from idiotsim.strategies.search.search_knobs import (CONSTRAINTS_AT, GATE_OFF, HALVING, LEARNED_AT, POLICY_BASIC, POLICY_COUNTER,
                                                     POLICY_LEARNED_SELF, POLICY_TUNED, POLICY_TUNED_SELF,
                                                     SWAP_LEARNED, SWAP_SEARCHED, SWAP_TENS_IN_HAND, TENS_BURN,
                                                     TENS_SAVE, WINS, K)
from idiotsim.strategies.weighted import PRESETS as WEIGHTED_PRESETS
from idiotsim.strategies.weighted import WEIGHTED
from idiotsim.strategies.weighted import decide as weighted_decide

TENS_IN_HAND_MODE = 2  # heuristic's swap mode: basic's choice with every 10 kept in hand
POLICY_PARAMS = COUNTER.params()  # the counter's defaults; `basic` has no knobs
# `weighted` with the tuned preset of each player count (rows: 2..5 players; more players use 5's).
TUNED_PLAYERS = (2, 3, 4, 5)
TUNED_PARAMS = np.stack([WEIGHTED.params(WEIGHTED_PRESETS[f"tuned-{n}p"]) for n in TUNED_PLAYERS])
N_WEIGHTS = TUNED_PARAMS.shape[1]
SEARCHER_SLOT = N_WEIGHTS  # POLICY_TUNED_SELF: the searcher's seat, after the weights

# ---- work arrays: one int64 array per decision, in sections ----
SAMPLE = 0
ROLL = SAMPLE + TABLE_SIZE
POOL = ROLL + TABLE_SIZE
SNAP = POOL + MAX_TABLE_CARDS
MOVES = SNAP + rollouts.SNAP_SIZE
PLACE_SUMS = MOVES + MAX_MOVES
WIN_COUNTS = PLACE_SUMS + MAX_MOVES
PLACES = WIN_COUNTS + MAX_MOVES  # the places of one sampled state, move by move
SPENT = PLACES + MAX_MOVES  # sequential halving: rollouts played (one per move and sampled state)
BELIEF = SPENT + 1  # the belief knob's value, read by `determinize`
HIDDEN = BELIEF + 1  # the decision's hidden pool (`hidden_pool`), built at its first sample
HIDDEN_BUILT = HIDDEN + MAX_TABLE_CARDS  # 0 until then, then its size + 1
PLAN = HIDDEN_BUILT + 1  # the belief's plan of the decision's samples (`plan_samples`), built with the pool
WORK_SIZE = PLAN + PLAN_SIZE


# ---- the moves ---------------------------------------------------------------------------------

ANY_MOVE, ONLY_TENS, NO_TENS = 0, 1, 2  # what tens_rule leaves of a turn's moves


@kernel
def list_search_moves(obs, hand, params, moves):
    """The moves the search judges into `moves`, `basic`'s first (it keeps the search's ties); returns
    how many. Every legal move (``game.moves.list_moves``), narrowed at a TURN by the `tens` knob
    (`tens_rule`): move 0 is then basic's move if the rule allows it, else basic's play of the rank the
    rule leaves (every copy of the 10)."""
    if obs[ob.DECISION] == ob.SWAP:
        return list_moves_basic_first(obs, hand, moves)
    count = list_turn_moves(obs, hand, moves)
    first = basic_turn(obs, hand)
    rule = tens_rule(obs, hand, int(params[K.tens]))
    if rule != ANY_MOVE:
        kept = 0
        for i in range(count):
            ten = moves[i] >= 0 and moves[i] & 15 == TEN
            if ten == (rule == ONLY_TENS):
                moves[kept] = moves[i]
                kept += 1
        count = kept
    if rule == ONLY_TENS and (first < 0 or first & 15 != TEN):
        first = play_all(obs, hand, TEN)  # burn by rule: basic's count of a 10 (every copy)
    return put_first(moves, count, first)


@kernel
def tens_rule(obs, hand, tens):
    """The `tens` knob at a TURN decision: ONLY_TENS (tens=1, burn by rule: a 10 may be played, R11,
    on a non-empty pile, so one is played, every count searched, no pickup, no chance), NO_TENS
    (tens=2, save the 10 like basic: no 10 while a play of another rank is legal; chance and pickup
    stay), else ANY_MOVE (tens=0, or the rule does not apply here)."""
    if not can_play(obs, hand, TEN):
        return ANY_MOVE
    if tens == TENS_BURN and obs[ob.PILE_SIZE] > 0:
        return ONLY_TENS
    if tens == TENS_SAVE and playable_mask(obs, hand) & ~(1 << TEN) != 0 and obs[ob.MUST_PLAY] < 0:
        return NO_TENS
    return ANY_MOVE


# ---- rollouts and the choice -------------------------------------------------------------------

@kernel
def tuned_self_decide(obs, hand, params, rng):
    """POLICY_TUNED_SELF: `weighted` (the weights in params) at the searcher's seat
    (params[SEARCHER_SLOT]), `basic` at every other seat."""
    if obs[ob.SEAT] == int(params[SEARCHER_SLOT]):
        return weighted_decide(obs, hand, params, rng)
    return basic_decide(obs, hand, params, rng)


@njit(cache=True)
def rollout_params(policy, players, searcher):
    """The params every seat of a rollout reads: for the tuned policies the `weighted` weights of the
    tuned preset for `players` (2..5; more use 5's) and the searcher's seat; else counter's defaults."""
    if policy == POLICY_TUNED or policy == POLICY_TUNED_SELF:
        row = min(max(players, TUNED_PLAYERS[0]), TUNED_PLAYERS[-1]) - TUNED_PLAYERS[0]
        params = np.zeros(N_WEIGHTS + 1, np.float64)
        params[:N_WEIGHTS] = TUNED_PARAMS[row]
        params[SEARCHER_SLOT] = searcher
        return params
    return POLICY_PARAMS.copy()


@kernel
def rollout_decide(obs, hand, params, rng, policy):
    """The decision of a rollout seat that does not play `basic` inline, by the rollout `policy` (knob
    value). One function for every policy: the engine's loops (`play_on`, `open_round`) are compiled
    once for it, where one function per policy compiled them once each (the search's largest
    compilation). POLICY_LEARNED_SELF: the learned player (params: its knobs, then its model) at the
    searcher's seat, the only seat `_mark_basic_seats` leaves to the policy."""
    if policy == POLICY_COUNTER:
        return counter_decide(obs, hand, params, rng)
    if policy == POLICY_TUNED:
        return weighted_decide(obs, hand, params, rng)
    if policy == POLICY_TUNED_SELF:
        return tuned_self_decide(obs, hand, params, rng)
    if policy == POLICY_LEARNED_SELF:
        return learned_policy.learned_decision(obs, hand, params)
    return basic_decide(obs, hand, params, rng)


@kernel(inline="always")
def is_learned(policy):
    return policy == POLICY_LEARNED_SELF


@njit(cache=True)
def learned_rollout_params(params):
    """The learned player's params, appended to the search's after its knobs (strategies/search/__init__.py)."""
    return params[LEARNED_AT:].copy()


@kernel(inline="always")
def _mark_basic_seats(st, policy, searcher):
    """The seats whose rollout policy is `basic` play it inline (`rollouts.mark_basic_seats`): every seat under
    POLICY_BASIC, every seat but the searcher's under POLICY_TUNED_SELF and POLICY_LEARNED_SELF."""
    elsewhere = policy == POLICY_BASIC or policy == POLICY_TUNED_SELF or policy == POLICY_LEARNED_SELF
    rollouts.mark_basic_seats(st, policy == POLICY_BASIC, elsewhere, searcher)


@kernel(inline="always")
def skips_cycles(policy):
    """A rollout's `skip_cycles`: on for every policy but the learned player, which reads ACTIONS. A
    value, not a literal: numba compiles `rollout` once for each type of its arguments, and a literal
    True, a bool and a default left out are three types (three compilations of every rollout loop)."""
    return policy != POLICY_LEARNED_SELF


@kernel
def rollout(st, seat, searcher, policy, policy_params, scratch, snap, skip_cycles):
    """`engine.play_on` with the rollout policy chosen by its knob value; the searcher's place. Call it
    with a bool `skip_cycles` (`skips_cycles`, or rollout_place's argument), never a literal; the
    learned player's cycles are never skipped, whatever `skip_cycles` says."""
    _mark_basic_seats(st, policy, searcher)
    if policy == POLICY_BASIC and skip_cycles:  # the common case, on the compact layout (engine.basic_rounds)
        return basic_rollout(data_pointer(st), seat, searcher)
    return rollouts.play_on(st, seat, searcher, rollout_decide, policy, policy_params, scratch, snap,
                      skip_cycles and skips_cycles(policy))


@kernel
def _open(st, searcher, choice, policy, policy_params, scratch):
    """The swap (R6) with the searcher's `choice` and the rollout policy's at the other seats."""
    rnd = st[ob.ROUND]
    n = st[ob.PLAYERS]
    left_of_dealer = (rnd - 1) % n  # R7
    if st[ob.IDIOT_DEALS] != 0 and rnd == 2:  # V8: round 1's Idiot deals (later rounds assume R7)
        for s in range(n):
            if st[ob.SCORE + s] == n:
                left_of_dealer = (s + 1) % n
    _mark_basic_seats(st, policy, searcher)
    return rollouts.open_round(st, searcher, choice, rollout_decide, policy, policy_params, scratch, left_of_dealer)


@kernel
def determinize(obs, hand, rng, st, work, truth, perfect):
    """The state a rollout starts from: sampled (`sample_deal` at the swap, else `sample_state` with
    the belief in work[BELIEF]) from the decision's hidden pool and the belief's plan of it, which every
    sample of it shares (built into work[HIDDEN:] and work[PLAN:] once), or with `perfect` the true
    state `truth`."""
    if perfect:
        copy_live_table(truth, st)
        return 0
    hidden = work[HIDDEN:HIDDEN_BUILT]
    plan = work[PLAN:WORK_SIZE]
    swap = obs[ob.DECISION] == ob.SWAP
    if work[HIDDEN_BUILT] == 0:
        work[HIDDEN_BUILT] = (hidden_pool(obs, hand, hidden) if swap else
                              decision_pool(obs, hand, hidden, work[BELIEF])) + 1
        if not swap:
            plan_samples(obs, hidden, work[HIDDEN_BUILT] - 1, work[BELIEF], plan)
    m = work[HIDDEN_BUILT] - 1
    pool = work[POOL:SNAP]
    if swap:
        return sample_deal_from(obs, hand, rng, st, pool, hidden, m)
    return sample_state_from(obs, hand, rng, st, pool, hidden, m, work[BELIEF], plan)


@kernel
def _play_move(roll, obs, move, policy, policy_params, scratch, snap):
    """The searcher's place after `move` and a rollout; -1 on an illegal move."""
    seat = obs[ob.SEAT]
    if obs[ob.DECISION] == ob.SWAP:
        nxt = _open(roll, seat, move, policy, policy_params, scratch)
    else:
        nxt = rollouts.act(roll, seat, move)
    if nxt < 0:
        return -1
    return rollout(roll, nxt, seat, policy, policy_params, scratch, snap, skips_cycles(policy))


@kernel
def judge_sample(obs, hand, rng, n_moves, policy, policy_params, scratch, work, truth, perfect):
    """One determinization, and each of the first n_moves moves of work[MOVES:] played on a copy of
    it: the searcher's places in work[PLACES:]. Returns 0, or -1 when the state cannot be built or
    a move is illegal."""
    sample = work[SAMPLE:ROLL]
    roll = work[ROLL:POOL]
    snap = work[SNAP:MOVES]
    if determinize(obs, hand, rng, sample, work, truth, perfect) < 0:
        return -1
    if policy == POLICY_BASIC and obs[ob.DECISION] != ob.SWAP:  # the common case, on the compact layout (engine.basic_rounds)
        moves, places = work[MOVES:PLACE_SUMS], work[PLACES:SPENT]
        return basic_moves(data_pointer(sample), obs[ob.SEAT], data_pointer(moves), n_moves,
                           data_pointer(places))
    for i in range(n_moves):
        state = sample  # the last move plays on the sample itself, which is not needed again
        if i < n_moves - 1:
            copy_live_table(sample, roll)
            state = roll
        place = _play_move(state, obs, work[MOVES + i], policy, policy_params, scratch, snap)
        if place < 0:
            return -1
        work[PLACES + i] = place
    return 0


@kernel
def judge_moves(obs, hand, rng, n_moves, rollouts, policy, policy_params, scratch, work, truth, perfect):
    """Each of the first n_moves moves of work[MOVES:] played on the same `rollouts` determinizations:
    the sums of places in work[PLACE_SUMS:], the wins in work[WIN_COUNTS:]. Returns 0, or -1 when a
    state cannot be built or a move is illegal."""
    for _ in range(rollouts):
        if judge_sample(obs, hand, rng, n_moves, policy, policy_params, scratch, work, truth, perfect) < 0:
            return -1
        for i in range(n_moves):
            place = work[PLACES + i]
            work[PLACE_SUMS + i] += place
            work[WIN_COUNTS + i] += place == 1
    return 0


@njit(cache=True)
def place_matrix(obs, hand, rng, moves, rollouts, policy, places):
    """The searcher's place after each of `moves` (rows of `places`: one per determinization, the
    same K states for every move: common random numbers) for `analyze`; `rng` advances, so calls
    in turn continue one stream. Returns 0, or -1 when a state cannot be built or a move is illegal."""
    n_moves = moves.shape[0]
    work = np.zeros(WORK_SIZE, np.int64)
    work[MOVES:MOVES + n_moves] = moves
    scratch = np.zeros(1, np.uint64)
    policy_params = rollout_params(policy, obs[ob.PLAYERS], obs[ob.SEAT])
    for k in range(rollouts):
        if judge_sample(obs, hand, rng, n_moves, policy, policy_params, scratch, work, obs, run_time(False)) < 0:
            return -1
        places[k, :] = work[PLACES:PLACES + n_moves]
    return 0


@kernel
def best_move(work, n_moves, objective):
    """The index of the best move: the lowest sum of places, or the most wins (then the lowest sum);
    the earlier move on a tie, so `basic`'s move (0) keeps ties."""
    best = 0
    for i in range(1, n_moves):
        fewer_places = work[PLACE_SUMS + i] < work[PLACE_SUMS + best]
        if objective == WINS:
            more_wins = work[WIN_COUNTS + i] > work[WIN_COUNTS + best]
            same_wins = work[WIN_COUNTS + i] == work[WIN_COUNTS + best]
            if more_wins or (same_wins and fewer_places):
                best = i
        elif fewer_places:
            best = i
    return best


@kernel(inline="always")
def _better(work, i, j, objective):
    """Is move i ahead of move j (both judged on the same states)? By the objective, then the
    earlier move (so `basic`'s move, 0, is ahead of every move it ties with)."""
    if objective == WINS and work[WIN_COUNTS + i] != work[WIN_COUNTS + j]:
        return work[WIN_COUNTS + i] > work[WIN_COUNTS + j]
    if work[PLACE_SUMS + i] != work[PLACE_SUMS + j]:
        return work[PLACE_SUMS + i] < work[PLACE_SUMS + j]
    return i < j


@kernel
def keep_better_half(work, n_moves, objective):
    """The ceil(n/2) moves ahead of the others (`_better`) stay at the front of the MOVES,
    PLACE_SUMS and WIN_COUNTS sections, in their order; returns how many."""
    keep = (n_moves + 1) // 2
    for i in range(n_moves):  # first every move's rank (in PLACES, free between states), then compact
        ahead = 0  # moves ahead of move i
        for j in range(n_moves):
            if j != i and _better(work, j, i, objective):
                ahead += 1
        work[PLACES + i] = ahead
    kept = 0
    for i in range(n_moves):
        if work[PLACES + i] < keep:  # a strict order: exactly `keep` moves pass
            work[MOVES + kept] = work[MOVES + i]
            work[PLACE_SUMS + kept] = work[PLACE_SUMS + i]
            work[WIN_COUNTS + kept] = work[WIN_COUNTS + i]
            kept += 1
    return kept


@kernel(inline="always")
def _halving_rounds(n):
    """ceil(log2 n): rounds of halving from n moves to one."""
    rounds = 0
    while n > 1:
        n = (n + 1) // 2
        rounds += 1
    return rounds


@kernel
def halve_moves(obs, hand, rng, n_moves, rollouts, objective, policy, policy_params, scratch, work, truth,
                perfect):
    """Sequential halving (Karnin, Koren and Somekh 2013) of the first n_moves moves of work[MOVES:] on
    the budget of the plain search, `rollouts` x n_moves rollouts: each round shares what is left of
    the budget equally among the rounds left, plays every surviving move on the same fresh sampled
    states, and keeps the better half by the sums over every state so far (every survivor has been
    judged on the same states: common random numbers); the last round, of two moves, spends the
    rest (one rollout is left over when the rest is odd). Every round takes at least one state, so K
    below ceil(log2 n) may overspend. The chosen move
    ends in work[MOVES]; the rollouts played in work[SPENT]. Returns 0, or -1 as `judge_moves`."""
    budget = rollouts * n_moves
    spent = 0
    n = n_moves
    while n > 1:
        rounds = _halving_rounds(n)
        states = max(1, (budget - spent) // (n * rounds))
        if judge_moves(obs, hand, rng, n, states, policy, policy_params, scratch, work, truth, perfect) < 0:
            return -1
        spent += states * n
        n = keep_better_half(work, n, objective)
    work[SPENT] = spent
    return 0


@kernel(inline="always")
def is_gated(params):
    """Does the learned model score the turn moves first (the `gate`, `top` or `prior` knob on)?"""
    return params[K.gate] < GATE_OFF or params[K.top] > 0 or params[K.prior] != 0


NO_STATE = -99  # an action code no engine accepts: the run stops with an illegal-move error


@kernel(inline="always")
def run_time(flag):
    """`flag` as a run-time bool, for the `perfect` argument of the search's functions. Numba compiles a
    function once for each literal argument value, so a literal True, a literal False and Python's bool
    compiled the whole search three times (its largest compilation, about a minute each)."""
    return flag != 0


@njit(cache=True)
def search_decision(obs, hand, params, rng, truth, perfect):
    """A decision of the search player (the `decide` of strategies/search/__init__.py); `perfect` a run-time
    bool (`run_time`)."""
    decision = obs[ob.DECISION]
    if decision == ob.SWAP and params[K.swap] == SWAP_TENS_IN_HAND:
        return constrained_move(obs, hand, params, CONSTRAINTS_AT, swap_by_mode(obs, hand, TENS_IN_HAND_MODE))
    if decision == ob.SWAP and params[K.swap] == SWAP_LEARNED:  # the learned player's swap, within the constraints
        return learned_policy.decide_within(obs, hand, params[LEARNED_AT:], params, CONSTRAINTS_AT)
    if decision == ob.BLIND:
        return basic_decide(obs, hand, params, rng)
    if decision == ob.SWAP and params[K.swap] != SWAP_SEARCHED:
        return constrained_move(obs, hand, params, CONSTRAINTS_AT, basic_decide(obs, hand, params, rng))
    work = np.zeros(WORK_SIZE, np.int64)
    work[BELIEF] = params[K.belief]
    moves = work[MOVES:PLACE_SUMS]
    n_moves = constrain_list(obs, hand, params, CONSTRAINTS_AT, moves, list_search_moves(obs, hand, params, moves))
    if n_moves == 1:
        return moves[0]
    if decision == ob.TURN and is_gated(params):
        move, n_moves = search_gate.gate_turn(obs, hand, params, np.int64(LEARNED_AT), params[K.gate],
                                              int(params[K.top]), params[K.prior] != 0, moves, n_moves,
                                              np.empty(n_moves), np.empty(2 * n_moves, np.int64))
        if move != search_gate.SEARCH:
            return move
        if n_moves == 1:
            return moves[0]
    scratch = np.zeros(1, np.uint64)
    policy = int(params[K.policy])
    policy_params = rollout_params(policy, obs[ob.PLAYERS], obs[ob.SEAT])
    if is_learned(policy):
        policy_params = learned_rollout_params(params)
    objective = int(params[K.objective])
    rollouts = 1 if perfect else int(params[K.rollouts])  # the truth: one deterministic rollout per move
    if params[K.halving] == HALVING and not perfect:
        if halve_moves(obs, hand, rng, n_moves, rollouts, objective, policy, policy_params, scratch, work,
                       truth, perfect) < 0:
            return NO_STATE
        return moves[0]
    if judge_moves(obs, hand, rng, n_moves, rollouts, policy, policy_params, scratch, work, truth, perfect) < 0:
        return NO_STATE
    return moves[best_move(work, n_moves, objective)]


def in_compiled_code():
    """False in Python (the reference engine runs a strategy's Python twin), True in compiled code."""
    return False


@overload(in_compiled_code)
def _in_compiled_code():
    return lambda: True


@njit(cache=True)
def rollout_place(st, seat, searcher, policy, skip_cycles):
    """The searcher's place when the round in `st` is played on from `seat` by the policy (knob value)."""
    snap = np.zeros(rollouts.SNAP_SIZE, np.int64)
    return rollout(st, seat, searcher, policy, rollout_params(policy, st[ob.PLAYERS], searcher),
                   np.zeros(1, np.uint64), snap, skip_cycles)


