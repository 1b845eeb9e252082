"""`basic_rollout`: the search's rollouts with `basic` at every seat, in C (rollout.c), for numba code.

Compiled code calls the C function by its symbol name, which numba resolves whenever it loads the
code, freshly compiled or from its cache: the cache holds no address. So the symbol must exist
before any code calling it is loaded, and importing this module makes sure of it:

- the C library is built once per source and layout (`idiotsim.engine.native.build`) and loaded into the
  process's symbol table;
- without a C compiler, or with IDIOTSIM_NATIVE=0 in the environment, the same name is given to a
  numba twin (`engine.play_on` with `basic` inline at every seat, compiled as a C-callable function),
  which gives the same results more slowly. `MODE` says which one serves, and `REASON` why.

The two give the same places, action counts and skipped actions from any state (tests/engine/test_native.py).
"""
from __future__ import annotations

import os

import llvmlite.binding as llvm
import numpy as np
from numba import carray, cfunc, types

from idiotsim.engine import kernels as en
from idiotsim.jit import kernel
from idiotsim.engine.native.build import BuildError, build

_STATE = types.CPointer(types.int64)
ROLLOUT_SIG = types.int64(_STATE, types.int64, types.int64)
MOVES_SIG = types.int64(_STATE, types.int64, _STATE, types.int64, _STATE)
# basic_rollout(pointer to a state, seat to act, searcher) -> the searcher's place; the state's places,
# NEXT_PLACE, PLAYERS_IN, ACTIONS and SKIPPED as `engine.play_on` leaves them, nothing else written
basic_rollout = types.ExternalFunction("idiotsim_basic_rollout", ROLLOUT_SIG)
# basic_moves(state, seat to act, moves, n_moves, places) -> 0, or -1 on an illegal move: places[i] is the
# seat's place after moves[i] (`engine.act`) and a rollout, each on a copy of the state; the state unchanged
basic_moves = types.ExternalFunction("idiotsim_basic_moves", MOVES_SIG)


@kernel
def _no_policy(obs, hand, params, rng, which):  # never called: every seat plays `basic` inline
    return -1


@kernel
def _play_out(st, seat, searcher, snap, params, rng):
    en.mark_basic_seats(st, True, True, searcher)
    return en.play_on(st, seat, searcher, _no_policy, 0, params, rng, snap, True)


def numba_twins() -> dict:
    """The C functions' numba twins, compiled as C-callable functions, by symbol name."""
    @cfunc(ROLLOUT_SIG, cache=True)
    def rollout_twin(sp, seat, searcher):
        return _play_out(carray(sp, en.STATE_SIZE), seat, searcher, np.zeros(en.POSITION_SIZE, np.int64),
                         np.zeros(1), np.zeros(1, np.uint64))

    @cfunc(MOVES_SIG, cache=True)
    def moves_twin(sp, seat, moves, n_moves, places):
        sample = carray(sp, en.STATE_SIZE)
        roll = np.empty(en.STATE_SIZE, np.int64)
        snap = np.zeros(en.POSITION_SIZE, np.int64)
        params, rng = np.zeros(1), np.zeros(1, np.uint64)
        for i in range(n_moves):
            roll[:] = sample
            nxt = en.act(roll, seat, moves[i])
            if nxt < 0:
                return -1
            places[i] = _play_out(roll, nxt, seat, snap, params, rng)
        return 0
    return {basic_rollout.symbol: rollout_twin, basic_moves.symbol: moves_twin}


def _register() -> tuple[str, str]:
    if os.environ.get("IDIOTSIM_NATIVE", "1") == "0":
        reason = "IDIOTSIM_NATIVE=0"
    else:
        try:
            llvm.load_library_permanently(str(build()))
            return "c", "built"
        except (BuildError, RuntimeError) as error:
            reason = str(error)
    for symbol, twin in numba_twins().items():
        llvm.add_symbol(symbol, twin.address)
        _keep.append(twin)
    return "numba", reason


_keep: list = []  # the twins' compiled functions live as long as the process
MODE, REASON = _register()
