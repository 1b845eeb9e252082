"""Engine benchmark: games/s, thread scaling, reference ratio, compile and start times, memory.

    .venv/bin/python benchmarks/engine.py            # everything (a few minutes)
    .venv/bin/python benchmarks/engine.py --quick    # smaller runs, no 10M-game memory run
    .venv/bin/python benchmarks/engine.py --run      # only the breakdown of `idiotsim run` (benchmarks/run.py)

Figures are printed, never asserted: targets live in the issues and the README.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba

from idiotsim.game.reference import play_match
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_games
from idiotsim.strategies.loading import load_strategies

ROOT = Path(__file__).resolve().parent.parent
IDIOTSIM = str(Path(sys.executable).with_name("idiotsim"))
BLOCK = 512  # games per parallel task: many tasks per thread even for the short `random` runs


def engine_rates(rules, seats, games: int, threads: tuple, repeats: int = 5) -> dict:
    """Best games/s for each thread count; the counts take turns, so a noisy spell of the
    (virtual) machine hits them alike instead of skewing the scaling ratio."""
    play_games(rules, seats, 1, 0, 64, block=BLOCK)
    best = dict.fromkeys(threads, 0.0)
    for _ in range(repeats):
        for t in threads:
            numba.set_num_threads(t)
            start = time.perf_counter()
            play_games(rules, seats, 1, 0, games, block=BLOCK)
            best[t] = max(best[t], games / (time.perf_counter() - start))
    return best


def reference_rate(rules, seats, games: int) -> float:
    start = time.perf_counter()
    for g in range(games):
        play_match([shuffled_deck(1, g, 0, rules.decks)], rules, seats, 1, g)
    return games / (time.perf_counter() - start)


def timed(cmd, env=None) -> tuple[float, int]:
    """Wall time and peak RSS (kB) of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    return wall, max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


FIRST_GAME = ("import time; t = time.perf_counter(); "
              "from idiotsim.engine.batches import play_games; from idiotsim.game.rules import Rules; "
              "from idiotsim.strategies.loading import load_strategies; "
              "play_games(Rules(players=4), load_strategies('basic', 4), 1, 0, 1); "
              "print(time.perf_counter() - t)")


def start_times() -> None:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        runs = []
        for _ in range(2):
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", FIRST_GAME], env=env, cwd=ROOT, check=True,
                                 capture_output=True, text=True).stdout
            runs.append((time.perf_counter() - start, float(out.strip().splitlines()[-1])))
    print(f"cold compile (empty cache), process start to first game: {runs[0][0]:.2f} s")
    print(f"warm start (cached), process start to first game:        {runs[1][0]:.2f} s "
          f"(imports + cache load inside Python: {runs[1][1]:.2f} s)")
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        wall, _ = timed([IDIOTSIM, "run", "--players", "4", "--games", "1000000", "--seed", "1", "--out",
                         out, "--force"], env)
        print(f"`idiotsim run` 1,000,000 games, first run with an empty cache (cold): {wall:.2f} s")


def run_command(games: int) -> None:
    with tempfile.TemporaryDirectory() as out:
        timed([IDIOTSIM, "run", "--players", "4", "--games", "1000", "--seed", "1", "--out", out, "--force"])
        wall, rss = timed([IDIOTSIM, "run", "--players", "4", "--games", str(games), "--seed", "1", "--out", out,
                           "--force"])
        print(f"`idiotsim run` {games:,} games (warm cache, Parquet included): {wall:.2f} s "
              f"= {games / wall:,.0f} games/s; peak RSS {rss / 1024:.0f} MB")


def run_breakdown() -> None:
    """Where the time of `idiotsim run` goes: benchmarks/run.py (one home for the stage timers), 1,000,000 games."""
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--repeats", "1"], check=True, cwd=ROOT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller runs; skip the 10M-game memory run")
    parser.add_argument("--run", action="store_true", help="only the breakdown of `idiotsim run`")
    args = parser.parse_args()
    if args.run:
        run_breakdown()
        return
    games = 100_000 if args.quick else 400_000
    all_threads = numba.config.NUMBA_NUM_THREADS
    print(f"numba {numba.__version__}, {all_threads} threads available, threading layer after first run below")
    print(f"{'players':>7} {'strategy':>8} {'1 thread':>12} {f'{all_threads} threads':>12} {'scaling':>8} "
          f"{'reference':>10} {'ratio':>8}")
    for strategy in ("basic", "random"):
        for players in (2, 3, 4, 5):
            rules = Rules(players=players)
            seats = load_strategies(strategy, players)
            n_games = games // (20 if strategy == "random" else 1)
            rates = engine_rates(rules, seats, n_games, (1, all_threads))
            one, many = rates[1], rates[all_threads]
            ref = reference_rate(rules, seats, 200 if strategy == "basic" else 20)
            print(f"{players:>7} {strategy:>8} {one:>12,.0f} {many:>12,.0f} {many / one:>7.2f}x "
                  f"{ref:>10,.0f} {one / ref:>7,.0f}x", flush=True)
    print(f"threading layer: {numba.threading_layer()}")
    start_times()
    run_breakdown()
    run_command(1_000_000)
    if not args.quick:
        run_command(10_000_000)


if __name__ == "__main__":
    main()
