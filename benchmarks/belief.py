"""Belief benchmark (issue 19, item 2): the cost of sampling states under the basic-model belief.

    .venv/bin/python benchmarks/belief.py            # 4 players, 60 games of basic
    .venv/bin/python benchmarks/belief.py --games 20

Positions are the TURN decisions of games of `basic` (reference engine). For the uniform belief and
the basic-model belief (`idiotsim.sampler`), in the same process, one thread:
- samples/s over every position, and over the positions where some opponent's pickup fact binds;
- sampled rollouts/s (a sample, its copy and a `basic` rollout to the end of the seat's round: what
  the search does per move and sampled state), so the belief's cost shows against a rollout.
Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import time

import numba
import numpy as np
from numba import njit

from idiotsim import observation as ob
from idiotsim import sampler, search
from idiotsim.positions import decision_positions
from idiotsim.rules import Rules
from idiotsim.search import POLICY_PARAMS
from rollout_work import new_work, seat_views


@njit(cache=True)
def _samples(states, repeats, belief, roll_out):
    """Samples of each state's position, `repeats` times (its hidden pool built once, as a search
    builds it once per decision), each rolled out by `basic` when `roll_out`."""
    _, (sample, roll, pool, snap, hidden) = new_work()
    rng = np.zeros(1, np.uint64)
    scratch = np.zeros(1, np.uint64)
    params = POLICY_PARAMS.copy()
    total = 0
    for i in range(states.shape[0]):
        seat, obs, hand = seat_views(states[i])
        m = sampler.hidden_pool(obs, hand, hidden)  # once per position, as a search does per decision
        for _ in range(repeats):
            total += sampler.sample_state_from(obs, hand, rng, sample, pool, hidden, m, belief)
            if roll_out:
                search.copy_state(sample, roll)
                total += search.rollout(roll, seat, seat, search.POLICY_BASIC, params, scratch, snap,
                                        search.skips_cycles(search.POLICY_BASIC))
    return total


def rate(states: np.ndarray, belief: int, roll_out: bool, repeats: int) -> float:
    _samples(states[:2], 1, belief, roll_out)
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        _samples(states, repeats, belief, roll_out)
        best = max(best, repeats * len(states) / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    numba.set_num_threads(1)
    found = []
    for g in range(args.games):
        found += [p for p in decision_positions(Rules(players=args.players), "basic", 7, g)
                  if p["obs"][ob.DECISION] == ob.TURN]
    states = np.stack([p["state"] for p in found])
    bound = np.array([any(sampler._binding(p["obs"], s) for s in range(args.players)) for p in found])
    print(f"{args.players} players, one thread, {len(found)} TURN positions of {args.games} basic games; "
          f"{bound.mean():.0%} with a binding pickup fact")
    for label, subset, roll_out, repeats in (("samples/s, every position", states, False, args.repeats),
                                             ("samples/s, positions with a fact", states[bound], False, args.repeats),
                                             ("sampled rollouts/s, every position", states, True, args.repeats // 5)):
        uniform = rate(subset, sampler.UNIFORM, roll_out, repeats)
        believed = rate(subset, sampler.BASIC_MODEL, roll_out, repeats)
        print(f"{label:<36} uniform {uniform:>11,.0f}  basic model {believed:>11,.0f}  "
              f"(time x{uniform / believed:.2f})")


if __name__ == "__main__":
    main()
