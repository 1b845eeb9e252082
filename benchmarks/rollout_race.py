"""The race: the search's inner loop by the C rollouts against their numba port, in one process.

    .venv/bin/python benchmarks/rollout_race.py                 # 4 players, 7 rounds
    .venv/bin/python benchmarks/rollout_race.py --players 2 --rounds 5 --quick

The inner loop is benchmarks/search.py's (`search.judge_sample` with `basic` rollouts): at each position
(TURN decisions of games of `basic`, every 2nd), fresh play-fact samples, and on each every move the
search lists played and rolled out, sampling included. Contenders, in turn within each round (the
order rotating from round to round, so a noisy spell of the shared machine hits them alike):

- C: `idiotsim_basic_moves` (benchmarks/c_yardstick/rollout.c, the C the package shipped until December
  2026), called through its address, as numba called it;
- port: `engine.basic_rounds.basic_moves`, its numba port, called from the numba loop directly, as the
  search calls it;
- port@: the same port compiled as a C-callable function and called through its address, as the C is
  (the call on equal terms: it cannot be inlined into the loop);
- twin: the engine's general loop (`engine.rollouts.act` and `engine.rollouts.play_on_basic` on the int64 state), the C's
  numba twin before the port, through its address.

Every contender must give the same places from the same samples (checked). Printed: rollouts/s of each
(CPU time of the process, one thread) as min / median / max over the rounds, and each one's ratio to the
C, as the median and range of the ratios within a round (adjacent runs), the load average alongside.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import time

import numba
import numpy as np
from numba import njit

from c_yardstick.build import build, command, compiler
from numba import carray, cfunc, types
from rollout_work import decision_pool, new_work, seat_views
from search import positions

from idiotsim.engine import basic_rounds as port
from idiotsim.engine import rollouts as engine_rollouts
from idiotsim.engine import state_layout as layout
from idiotsim.engine.memory import data_pointer
from idiotsim.strategies.search import STRATEGY
from idiotsim.strategies.search import pimc as search
from idiotsim.strategies.search.search_knobs import BASIC_PLAYS

_MOVES_FN = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64,
                             ctypes.c_void_p)
MOVES = "idiotsim_basic_moves"


@njit
def _judge_port(states, repeats, params):
    """benchmarks/search.py's `judge_loop` body with the numba port called directly."""
    _, (sample, roll, pool, snap, hidden, plan) = new_work()
    rng = np.zeros(1, np.uint64)
    moves = np.zeros(search.MAX_MOVES, np.int64)
    places = np.zeros(search.MAX_MOVES, np.int64)
    total, rollouts = 0, 0
    for i in range(states.shape[0]):
        seat, obs, hand = seat_views(states[i])
        n = search.list_search_moves(obs, hand, params, moves)
        m = decision_pool(obs, hand, hidden, plan, BASIC_PLAYS)
        for _ in range(repeats):
            search.sample_state_from(obs, hand, rng, sample, pool, hidden, m, BASIC_PLAYS, plan)
            port.basic_moves(data_pointer(sample), seat, data_pointer(moves), n, data_pointer(places))
            total += places[:n].sum()
            rollouts += n
    return total, rollouts


@njit
def _samples(states, repeats, params):
    """The inner loop's samples, drawn beforehand: (samples, seats, moves, move counts), one row each."""
    _, (sample, roll, pool, snap, hidden, plan) = new_work()
    rng = np.zeros(1, np.uint64)
    k = states.shape[0] * repeats
    samples = np.zeros((k, layout.STATE_SIZE), np.int64)
    seats = np.zeros(k, np.int64)
    moves = np.zeros((k, search.MAX_MOVES), np.int64)
    counts = np.zeros(k, np.int64)
    j = 0
    for i in range(states.shape[0]):
        seat, obs, hand = seat_views(states[i])
        n = search.list_search_moves(obs, hand, params, moves[j])
        m = decision_pool(obs, hand, hidden, plan, BASIC_PLAYS)
        for _ in range(repeats):
            search.sample_state_from(obs, hand, rng, samples[j], pool, hidden, m, BASIC_PLAYS, plan)
            moves[j] = moves[j - (j % repeats)]
            seats[j], counts[j] = seat, n
            j += 1
    return samples, seats, moves, counts


def pure_loop(basic_moves):
    """The rollouts alone, on samples drawn beforehand (`_samples`), by `basic_moves` (a ctypes function)."""
    @njit
    def judge(samples, seats, moves, counts):
        places = np.zeros(search.MAX_MOVES, np.int64)
        total, rollouts = 0, 0
        for j in range(samples.shape[0]):
            n = counts[j]
            basic_moves(samples[j].ctypes.data, seats[j], moves[j].ctypes.data, n, places.ctypes.data)
            total += places[:n].sum()
            rollouts += n
        return total, rollouts
    return judge


@njit
def _pure_port(samples, seats, moves, counts):
    places = np.zeros(search.MAX_MOVES, np.int64)
    total, rollouts = 0, 0
    for j in range(samples.shape[0]):
        n = counts[j]
        port.basic_moves(data_pointer(samples[j]), seats[j], data_pointer(moves[j]), n,
                         data_pointer(places))
        total += places[:n].sum()
        rollouts += n
    return total, rollouts


def c_library(march: str | None):
    """rollout.c's library: the project's build (-march=native), or one for another -march (callgrind
    decodes no AVX-512: run it with --march haswell and NUMBA_CPU_NAME=haswell)."""
    if march is None:
        return ctypes.CDLL(str(build()))
    import subprocess
    import tempfile
    from pathlib import Path

    out = Path(tempfile.mkdtemp(prefix="idiotsim-race-")) / "rollout.so"
    cmd = [f"-march={march}" if a == "-march=native" else a for a in command(compiler(), out)]
    subprocess.run(cmd, check=True)
    return ctypes.CDLL(str(out))


MARCH = None  # --march


@cfunc(types.int64(types.CPointer(types.int64), types.int64, types.CPointer(types.int64), types.int64,
                   types.CPointer(types.int64)))
def _twin(sp, seat, moves, n_moves, places):
    """`basic_moves` by the engine's general loop, C-callable."""
    sample = carray(sp, layout.STATE_SIZE)
    roll = np.empty(layout.STATE_SIZE, np.int64)
    for i in range(n_moves):
        roll[:] = sample
        nxt = engine_rollouts.act(roll, seat, moves[i])
        if nxt < 0:
            return -1
        places[i] = engine_rollouts.play_on_basic(roll, nxt, seat)
    return 0


def judge_loop(basic_moves):
    """The search's inner loop with `basic_moves` (a ctypes function, which numba calls by its address;
    compiled per function, uncached). Returns (places summed, rollouts)."""
    @njit
    def judge(states, repeats, params):
        _, (sample, roll, pool, snap, hidden, plan) = new_work()
        rng = np.zeros(1, np.uint64)
        moves = np.zeros(search.MAX_MOVES, np.int64)
        places = np.zeros(search.MAX_MOVES, np.int64)
        total, rollouts = 0, 0
        for i in range(states.shape[0]):
            seat, obs, hand = seat_views(states[i])
            n = search.list_search_moves(obs, hand, params, moves)
            m = decision_pool(obs, hand, hidden, plan, BASIC_PLAYS)
            for _ in range(repeats):
                search.sample_state_from(obs, hand, rng, sample, pool, hidden, m, BASIC_PLAYS, plan)
                basic_moves(sample.ctypes.data, seat, moves.ctypes.data, n, places.ctypes.data)
                total += places[:n].sum()
                rollouts += n
        return total, rollouts
    return judge


def contenders(pure: bool = False) -> dict:
    library = c_library(MARCH)
    c_address = ctypes.cast(getattr(library, MOVES), ctypes.c_void_p).value
    port_address = port.c_callable()[MOVES].address
    twin_address = _twin.address
    loop = pure_loop if pure else judge_loop
    return {"C": loop(_MOVES_FN(c_address)), "port": _pure_port if pure else _judge_port,
            "port@": loop(_MOVES_FN(port_address)), "twin": loop(_MOVES_FN(twin_address))}


def race(states: np.ndarray, repeats: int, rounds: int, names=None, pure: bool = False) -> dict:
    """{name: [rollouts/s per round]}, the contenders taking turns within each round."""
    loops = contenders(pure)
    if names:
        loops = {k: v for k, v in loops.items() if k in names or k == "C"}
    params = STRATEGY.params({})
    if pure:
        drawn = _samples(states, repeats, params)
        args = drawn
        results = {name: loop(*[a[:2] for a in drawn]) for name, loop in loops.items()}  # compile
    else:
        args = (states, repeats, params)
        results = {name: loop(states[:2], 1, params) for name, loop in loops.items()}  # compile
    rates = {name: [] for name in loops}
    order = list(loops)
    for r in range(rounds):
        for name in order[r % len(order):] + order[:r % len(order)]:
            start = time.process_time()
            results[name] = loops[name](*args)
            rates[name].append(results[name][1] / (time.process_time() - start))
    assert len({results[name] for name in loops}) == 1, results  # the same places from the same samples
    return rates


def report(rates: dict) -> None:
    c = rates["C"]
    for name, got in rates.items():
        ratios = [a / b for a, b in zip(got, c)]
        print(f"  {name:<6} rollouts/s min {min(got):>9,.0f}  median {statistics.median(got):>9,.0f}  "
              f"max {max(got):>9,.0f}   / C: median {statistics.median(ratios):.3f}x "
              f"(range {min(ratios):.3f}-{max(ratios):.3f}; best-of {max(got) / max(c):.3f}x)")


def counted(states: np.ndarray, repeats: int, names=None) -> list:
    """Under callgrind (see benchmarks/instructions.py): each contender's rollouts alone, once warm and
    once counted (one dump each, in this order). Returns [(name, rollouts)]."""
    from instructions import callgrind_helper
    helper = callgrind_helper()
    loops = contenders(pure=True)
    if names:
        loops = {k: v for k, v in loops.items() if k in names or k == "C"}
    drawn = _samples(states, repeats, STRATEGY.params({}))
    rows = []
    for name, loop in loops.items():
        loop(*drawn)
        if helper is not None:
            helper.cg_start()
        _, rollouts = loop(*drawn)
        if helper is not None:
            helper.cg_stop()
        rows.append((name, rollouts))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", nargs="*", help="contenders besides C (default: all)")
    parser.add_argument("--pure", action="store_true", help="the rollouts alone: the samples drawn beforehand")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions instead: run under valgrind --tool=callgrind --instr-atstart=no "
                             "--callgrind-out-file=/tmp/race.%%p, then again with --report /tmp/race.PID")
    parser.add_argument("--march", help="build the C for this -march instead of native (with --callgrind)")
    parser.add_argument("--report", metavar="PREFIX", help="with --callgrind: the table of a finished run's dumps")
    args = parser.parse_args()
    global MARCH
    MARCH = args.march
    numba.set_num_threads(1)
    found = positions(args.players, 20 if args.quick else 60)
    states = np.stack([p["state"] for p in found])
    if args.callgrind:
        from instructions import dumped_instructions
        rows = counted(states[:: 10 if args.quick else 4], 2, args.only)
        totals = dumped_instructions(args.report) if args.report else []
        for i, (name, rollouts) in enumerate(rows):
            line = f"  {name:<6} {rollouts:>7} rollouts"
            if i < len(totals):
                line += f" {totals[i]:>14,} instructions {totals[i] / rollouts:>8,.0f} per rollout"
                line += f"  ({totals[i] / totals[0]:.3f}x the C's)"
            print(line, flush=True)
        return
    repeats = 5 if args.quick else 25
    rates = race(states, repeats, args.rounds, args.only, args.pure)
    what = "the rollouts alone (samples drawn beforehand)" if args.pure else "the inner loop, sampling included"
    print(f"{what}: {args.players} players, {len(found)} positions x {repeats} samples per round, {args.rounds} rounds, "
          f"one thread; load average before/after: {LOAD}, {os.getloadavg()[0]:.2f}")
    report(rates)


LOAD = f"{os.getloadavg()[0]:.2f}"

if __name__ == "__main__":
    main()
