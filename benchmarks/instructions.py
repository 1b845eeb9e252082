"""Instruction counts of the search's phases and of the engine (issue 19, item 4), by callgrind.

    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/cg.%p \\
        .venv/bin/python benchmarks/instructions.py [--games 2] [--repeats 3]
    .venv/bin/python benchmarks/instructions.py --report /tmp/cg.PID   # the table, from the dumps

Instruction counts do not depend on the load of a shared machine, so a change can be judged on
a few hundred rollouts. Run it once natively first (it compiles; under valgrind a compile takes
minutes). Each phase is run once to warm up, then once with callgrind's instrumentation on
(client requests from a small helper built with gcc against valgrind/callgrind.h), and dumped:
- sample: a sampled state (play-fact belief, the search's default; the hidden pool and its plan built
  once per position, as a search builds them once per decision);
- + copy: the same and `copy_live_table` of the sample (what a search does per move and sample);
- + rollout: the same and a `basic` rollout to the end of the deciding seat's round;
- truth: a copy of the true state and a rollout from it;
- engine: full games of 4 `basic` players (`play_games`, one thread; its Python-side set-up is in the
  count, a few million instructions per call: size --engine-games to dwarf it, or take the difference of two sizes);
- decisions: `search` decisions at K = 128 (the default knobs) at positions with more than one move.
Per-unit figures subtract nothing: the differences between the first three rows are the cost of
the copy and of the rollout. The rollouts' actions are counted, so a row also gives instructions
per action.
"""
from __future__ import annotations

import argparse
import ctypes
import glob
import os
import subprocess
import tempfile

import numba
import numpy as np
from numba import njit

from idiotsim.engine import state_layout as layout
from idiotsim.engine.hidden_cards import copy_live_table
from idiotsim.game import observation as ob
from idiotsim.strategies.search import pimc as search
from idiotsim.strategies.search import search_knobs
from idiotsim.game.rules import Rules
from idiotsim.strategies.search.sampler import BASIC_PLAYS
from idiotsim.strategies.search.pimc import POLICY_PARAMS
from rollout_work import decision_pool, new_work, seat_views
from idiotsim.engine.batches import play_games
from idiotsim.strategies.search import STRATEGY
from idiotsim.strategies.loading import load_strategies

HELPER = r"""
#include <valgrind/callgrind.h>
void cg_start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_ZERO_STATS; }
void cg_stop(void) { CALLGRIND_DUMP_STATS; CALLGRIND_STOP_INSTRUMENTATION; }
"""
SAMPLE, COPY, ROLLOUT, TRUTH = range(4)
PHASES = ("sample", "+ copy", "+ rollout", "truth")


def callgrind_helper():
    """The client-request helper (None without gcc or valgrind's headers: the run is then uncounted)."""
    folder = tempfile.mkdtemp(prefix="idiotsim-cg-")
    source, library = os.path.join(folder, "cg.c"), os.path.join(folder, "libcg.so")
    with open(source, "w") as f:
        f.write(HELPER)
    try:
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", library, source], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return ctypes.CDLL(library)


@njit(cache=True)
def _phase(states, repeats, phase, actions):
    """`repeats` units of `phase` from each state; the rollouts' actions (cycles skipped not counted)
    into actions[0]; returns the sum of places (so nothing is optimised away)."""
    _, (sample, roll, pool, snap, hidden, plan) = new_work()
    rng = np.zeros(1, np.uint64)
    scratch = np.zeros(1, np.uint64)
    params = POLICY_PARAMS.copy()
    places = 0
    actions[0] = 0
    for i in range(states.shape[0]):
        seat, obs, hand = seat_views(states[i])
        m = decision_pool(obs, hand, hidden, plan, BASIC_PLAYS)
        for _ in range(repeats):
            if phase == TRUTH:
                copy_live_table(states[i], roll)
            else:
                places += search.sample_state_from(obs, hand, rng, sample, pool, hidden, m, BASIC_PLAYS, plan)
                if phase >= COPY:
                    copy_live_table(sample, roll)
            if phase >= ROLLOUT:
                before = roll[ob.ACTIONS]
                places += search.rollout(roll, seat, seat, search_knobs.POLICY_BASIC, params, scratch, snap,
                                         search.skips_cycles(search_knobs.POLICY_BASIC))
                actions[0] += roll[ob.ACTIONS] - before - roll[layout.SKIPPED]
    return places


def _counted(helper, run):
    run()  # warm up (and compile, natively)
    if helper is not None:
        helper.cg_start()
    result = run()
    if helper is not None:
        helper.cg_stop()
    return result


def measure(games: int, repeats: int, engine_games: int, decisions: int) -> list:
    """(label, units, actions) per dump, in dump order."""
    from search import positions  # benchmarks/search.py, beside this file
    helper = callgrind_helper()
    numba.set_num_threads(1)
    found = positions(4, games)
    states = np.stack([p["state"] for p in found])
    actions = np.zeros(1, np.int64)
    rows = []
    for phase, label in enumerate(PHASES):
        _counted(helper, lambda: _phase(states, repeats, phase, actions))
        rows.append((label, repeats * len(states), int(actions[0])))
    seats = load_strategies("basic", 4)
    played = _counted(helper, lambda: play_games(Rules(players=4), seats, 1, 0, engine_games))
    rows.append(("engine game", engine_games, int(np.asarray(played["actions"]).sum())))
    params = STRATEGY.params({"rollouts": 128})
    moves = np.zeros(search.MAX_MOVES, np.int64)
    searched = [p for p in found if search.list_search_moves(p["obs"], p["hand"], params, moves) > 1]

    def decide():
        for j in range(decisions):
            p = searched[j % len(searched)]
            STRATEGY.decide(p["obs"], p["hand"], params, np.array([j], np.uint64))
    _counted(helper, decide)
    rows.append(("decision K=128", decisions, 0))
    return rows


def dumped_instructions(prefix: str) -> list:
    """The instruction totals of the dumps prefix.1, prefix.2, ... in order."""
    dumps = sorted(glob.glob(prefix + ".*"), key=lambda path: int(path.rsplit(".", 1)[1]))
    totals = []
    for path in dumps:
        with open(path) as f:
            totals += [int(line.split()[1]) for line in f if line.startswith("summary:")]
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="games of basic whose TURN decisions are the positions")
    parser.add_argument("--repeats", type=int, default=3, help="units per position")
    parser.add_argument("--engine-games", type=int, default=2000)
    parser.add_argument("--decisions", type=int, default=4)
    parser.add_argument("--report", metavar="PREFIX", help="print the table of a finished run's dumps")
    args = parser.parse_args()
    rows = measure(args.games, args.repeats, args.engine_games, args.decisions)
    totals = dumped_instructions(args.report) if args.report else []
    for i, (label, units, actions) in enumerate(rows):
        line = f"{label:<16} {units:>6} units {actions:>8} actions"
        if i < len(totals) and units:
            line += f" {totals[i]:>12,} instructions  {totals[i] / units:>10,.0f} per unit"
            if actions:
                line += f"  {totals[i] / actions:>6,.0f} per action"
        print(line, flush=True)


if __name__ == "__main__":
    main()
