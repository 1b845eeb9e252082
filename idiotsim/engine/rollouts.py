"""A round played on from any state: the engine's public drivers for rollouts (the search's).

A search (``idiotsim.strategies.search.pimc``) builds a state the way a seat may believe it to be and plays
the round on from there with one strategy at every seat (a rollout). The transitions are ``transitions``';
`play_on` is the round loop of ``drivers.play_round`` without the deal, the swap and the recording. The
policy is a strategy's compiled `decide` passed as an argument and both are inlined into their caller, so
the policy is a direct call: a function value passed on to a compiled function would carry its address,
and numba cannot cache code holding an address."""
from __future__ import annotations

import numpy as np
from numba import njit

from idiotsim.engine import basic_rounds
from idiotsim.engine.memory import array_at, data_pointer
from idiotsim.engine.state_layout import (BLIND, CYCLE_WATCH_FROM, HANDS, NO_OBSERVER, PLAYERS_IN, POSITION_SIZE,
                                          SEAT_BASIC, SKIPPED)
from idiotsim.engine.transitions import (apply_once, apply_swap, final_places, open_table, play_basic_turn,
                                         show_swap, show_turn, start_play)
from idiotsim.game import observation as ob
from idiotsim.game.basic_player import play_like_basic
from idiotsim.game.observation import NR, OBS_SIZE
from idiotsim.jit import kernel

SNAP_SIZE = POSITION_SIZE  # the int64 values of `play_on`'s `snap`: the position its cycle check saves


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
    `snap` holds SNAP_SIZE values for the check."""
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
            seat = play_basic_turn(sp, seat, n)
            continue
        show_turn(sp, seat)
        seat = apply_once(sp, seat, _policy_move(st, sp, seat, policy, which, params, rng), n)
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
    return apply_once(sp, seat, action, sp[ob.PLAYERS])


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
                   np.zeros(SNAP_SIZE, np.int64), True)


@njit(cache=True)
def play_round_out_basic(st, seat):
    """The round in `st` played on from `seat` to act by `basic` at every seat to its end (R18, R20;
    whole cycles skipped): every place is then in the observation's PLACE fields."""
    basic_rounds.basic_rollout(data_pointer(st), seat, -1)
