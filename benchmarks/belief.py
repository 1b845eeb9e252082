"""Belief benchmark (issue 19, item 2): the cost of sampling states under the basic-model beliefs.

    .venv/bin/python benchmarks/belief.py            # 4 players, 60 games of basic
    .venv/bin/python benchmarks/belief.py --games 20

Positions are the TURN decisions of games of `basic` (reference engine). For the uniform belief and
the basic-model beliefs (`idiotsim.strategies.search.sampler`: the pickup facts, BASIC_MODEL, and the play facts,
BASIC_PLAYS), in the same process, one thread:
- how often some opponent's fact binds, and how often the rejection step falls back to the uniform
  belief (facts that cannot all hold, or MAX_TRIES rejected tries), over 20 samples a position;
- samples/s over every position, and over the positions where some opponent's fact binds;
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

from idiotsim.engine import state_layout as layout
from idiotsim.engine.hidden_cards import copy_live_table
from idiotsim.game import observation as ob
from idiotsim.strategies.search import sampler, search_knobs, pimc as search
from idiotsim.analysis.replayed_states import decision_positions
from idiotsim.game.rules import Rules
from idiotsim.strategies.search.pimc import POLICY_PARAMS
from rollout_work import decision_pool, new_work, seat_views


@njit(cache=True)
def _samples(states, repeats, belief, roll_out):
    """Samples of each state's position, `repeats` times (its hidden pool and plan built once, as a search
    builds it once per decision), each rolled out by `basic` when `roll_out`."""
    _, (sample, roll, pool, snap, hidden, plan) = new_work()
    rng = np.zeros(1, np.uint64)
    scratch = np.zeros(1, np.uint64)
    params = POLICY_PARAMS.copy()
    total = 0
    for i in range(states.shape[0]):
        seat, obs, hand = seat_views(states[i])
        m = decision_pool(obs, hand, hidden, plan, belief)  # once per position, as a search does per decision
        for _ in range(repeats):
            total += sampler.sample_state_from(obs, hand, rng, sample, pool, hidden, m, belief, plan)
            if roll_out:
                copy_live_table(sample, roll)
                total += search.rollout(roll, seat, seat, search_knobs.POLICY_BASIC, params, scratch, snap,
                                        search.skips_cycles(search_knobs.POLICY_BASIC))
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
    print(f"{args.players} players, one thread, {len(found)} TURN positions of {args.games} basic games")
    for belief, name in ((sampler.BASIC_MODEL, "pickup facts"), (sampler.BASIC_PLAYS, "play facts")):
        bound, fallbacks = binding_and_fallbacks(found, belief)
        print(f"{name}: {bound.mean():.0%} of the positions with a binding fact; "
              f"{fallbacks:.2%} of their samples fell back to the uniform belief")
        for label, subset, roll_out, repeats in (
                ("samples/s, every position", states, False, args.repeats),
                ("samples/s, positions with a fact", states[bound], False, args.repeats),
                ("sampled rollouts/s, every position", states, True, args.repeats // 5)):
            uniform = rate(subset, sampler.UNIFORM, roll_out, repeats)
            believed = rate(subset, belief, roll_out, repeats)
            print(f"  {label:<36} uniform {uniform:>11,.0f}  {name} {believed:>11,.0f}  "
                  f"(time x{uniform / believed:.2f})")


def binding_and_fallbacks(found: list, belief: int, samples: int = 20) -> tuple:
    """Which positions have a binding fact, and the share of their samples that fell back."""
    offsets = sampler.fact_offsets(belief)
    bound = np.array([any(sampler._binding(p["obs"], s, *offsets) for s in range(p["obs"][ob.PLAYERS]))
                      for p in found])
    pool = np.zeros(layout.MAX_CARDS, np.int64)
    fell = tried = 0
    for p in (p for p, b in zip(found, bound) if b):
        m = sampler.hidden_pool(p["obs"], p["hand"], pool)
        plan = np.zeros(sampler.PLAN_SIZE, np.int64)
        believed = sampler.plan_samples(p["obs"], pool, m, belief, plan)
        for k in range(samples):
            st = np.zeros(layout.STATE_SIZE, np.int64)
            dealt = sampler._deal_believed_hands(p["obs"], np.array([k], np.uint64), st, pool.copy(), m,
                                                 plan, *offsets)
            fell += believed != 0 and dealt == 0
            tried += 1
    return bound, fell / max(tried, 1)


if __name__ == "__main__":
    main()
