"""The RL vector environment's speed (issue 48): agent steps/s of ``interop.vector_env.IdiotVectorEnv`` on one
thread, every seat's decision drawn uniformly from its action mask (self-play, no opponents).

    .venv/bin/python benchmarks/vector_env.py            # 2, 4 and 5 players, a few seconds each
    .venv/bin/python benchmarks/vector_env.py --quick    # shorter runs

An agent step is one decision of one seat at one table: ``num_envs`` of them per ``env.step``. The time
counted is the whole loop a learner would run: the random legal ids drawn from the returned masks (a
compiled pass over the mask rows), ``env.step`` (the compiled step, reset, observation and mask pass,
then the Python wrapping), and with the default ``copy=True`` a fresh copy of every returned array.
For the same-process ratios the raw ``engine.stepping.TableBatch`` is timed on the same work in turn:
ids drawn from its legal-id lists and stepped (no observation), then also observing every table into
int64 arrays and taking the bool mask (the copies an env on top of it without a fused pass would make).
Rates are by the process's CPU time (``time.process_time``: less hurt by other jobs on the shared machine
than the wall clock), best of a few rounds each, the variants taking turns, so a noisy spell hits them
alike. Figures are printed, never asserted; the last line is the headline: 4 players, ``copy=True``.
"""
from __future__ import annotations

import os

os.environ["NUMBA_NUM_THREADS"] = "1"  # before numba is imported: one thread, as measured

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from idiotsim.engine.stepping import TableBatch  # noqa: E402
from idiotsim.game.observation import NR, OBS_SIZE  # noqa: E402
from idiotsim.game.rng import nb_below  # noqa: E402
from idiotsim.game.rules import Rules  # noqa: E402
from idiotsim.interop.vector_env import IdiotVectorEnv  # noqa: E402

TABLES = 256


@njit(cache=True)
def random_from_masks(masks, rng, out):
    """A uniformly drawn legal id of every mask row."""
    for i in range(masks.shape[0]):
        row = masks[i]
        count = 0
        for a in range(row.shape[0]):
            count += row[a] != 0
        k = nb_below(rng, count)
        for a in range(row.shape[0]):
            if row[a] != 0:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


@njit(cache=True)
def random_from_ids(ids, counts, rng, out):
    for i in range(ids.shape[0]):
        out[i] = ids[i, nb_below(rng, counts[i])]


def env_rate(players: int, steps: int, copy: bool) -> float:
    env = IdiotVectorEnv(num_envs=TABLES, players=players, copy=copy)
    obs, _ = env.reset(seed=1)
    rng = np.ones(1, np.uint64)
    actions = np.zeros(TABLES, np.int64)
    start = time.process_time()
    for _ in range(steps):
        obs, _, _, _, _ = env.step(env.sample_actions())
    return steps * TABLES / (time.process_time() - start)


def raw_rate(players: int, steps: int, observe: bool) -> float:
    tables = TableBatch(Rules(players=players), 1, tables=TABLES)
    rng = np.ones(1, np.uint64)
    actions = np.zeros(TABLES, np.int64)
    obs = np.zeros((TABLES, OBS_SIZE), np.int64)
    hands = np.zeros((TABLES, NR), np.int64)
    masks = np.zeros((TABLES, 876), np.bool_)
    start = time.process_time()
    for _ in range(steps):
        ids, counts = tables.legal_ids()
        random_from_ids(ids, counts, rng, actions)
        tables.step(actions)
        if observe:
            tables.observe(obs, hands)
            tables.legal_mask(masks)
    return steps * TABLES / (time.process_time() - start)


VARIANTS = {
    "env, copy=True (the default)": lambda n, s: env_rate(n, s, True),
    "env, copy=False (its own buffers)": lambda n, s: env_rate(n, s, False),
    "TableBatch: legal ids + step": lambda n, s: raw_rate(n, s, False),
    "TableBatch: + observe int64 + bool mask": lambda n, s: raw_rate(n, s, True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    args = parser.parse_args()
    steps, rounds = (300, 2) if args.quick else (1500, 3)
    env = IdiotVectorEnv(num_envs=TABLES, players=4)
    obs, _ = env.reset(seed=1)
    per_step = obs["observation"][0].nbytes + obs["action_mask"][0].nbytes
    print(f"one thread, {TABLES} tables, uniform random legal actions (env.sample_actions), {steps} env steps per "
          f"timing, CPU time, best of {rounds}")
    print(f"observation {obs['observation'].dtype}[{obs['observation'].shape[1]}] = {obs['observation'][0].nbytes} bytes"
          f" + action mask {obs['action_mask'].dtype}[{obs['action_mask'].shape[1]}] = {obs['action_mask'][0].nbytes}"
          f" bytes = {per_step} bytes per agent step"
          f" (int64 observation + hand and bool mask: {(OBS_SIZE + NR) * 8 + 876} bytes)")
    headline = 0.0
    for players in (2, 4, 5):
        for fn in VARIANTS.values():
            fn(players, 20)  # compile and warm
        best = dict.fromkeys(VARIANTS, 0.0)
        for _ in range(rounds):
            for name, fn in VARIANTS.items():
                best[name] = max(best[name], fn(players, steps))
        base = best["env, copy=True (the default)"]
        print(f"{players} players:")
        for name, rate in best.items():
            print(f"  {name:42s} {rate:12,.0f} agent steps/s   env copy=True / this {base / rate:5.2f}")
        if players == 4:
            headline = base
    print(f"vector env, 4 players: {headline:.0f} agent steps/s")


if __name__ == "__main__":
    main()
