"""Engine benchmark: games/s, thread scaling, reference ratio, compile and start times, memory.

    .venv/bin/python benchmarks/engine.py            # everything (a few minutes)
    .venv/bin/python benchmarks/engine.py --quick    # smaller runs, no 10M-game memory run
    .venv/bin/python benchmarks/engine.py --run      # only the breakdown of `idiotsim run` (benchmarks/run.py)
    .venv/bin/python benchmarks/engine.py --yardstick [--rounds 7]  # only the C yardstick's ratios, 2 and 4 players

The C yardstick: the numba engine's games/s of all-`basic` tables (`play_games`, one thread) against the C
rollout (benchmarks/c_yardstick/rollout.c, `idiotsim_basic_rollout` with searcher -1) playing each whole
game from a fresh deal, dealt and swapped by the engine's own code, in one process, in turn (CPU time).
The two play the same games: their places are checked equal.

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

import ctypes
import statistics

import numba
import numpy as np
from c_yardstick.build import build
from numba import njit

from idiotsim.engine import transitions
from idiotsim.engine import state_layout as layout
from idiotsim.engine.memory import data_pointer
from idiotsim.game import observation as ob
from idiotsim.game.basic_player import play_like_basic
from idiotsim.game.rng import nb_shuffled_deck

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


_ROLLOUT_FN = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)


def whole_games(basic_rollout):
    """Games `first` .. of one round, dealt from (seed, game) and swapped as `drivers.play_match` does
    (every seat `basic`), then played to the end by `basic_rollout` (a ctypes function: numba calls it by
    its address; compiled per function, uncached) with searcher -1. Places into `places`."""
    @njit
    def games(header, seed, first, n_games, places):
        st = np.zeros(layout.STATE_SIZE, np.int64)
        sp = data_pointer(st)
        rng = np.zeros(1, np.uint64)
        n = header[ob.PLAYERS]
        n_cards = 52 * header[ob.DECKS]
        for i in range(ob.HEADER_SIZE):
            st[i] = header[i]
        for s in range(n):
            st[layout.SEAT_BASIC + s] = 1
        for g in range(n_games):
            for i in range(layout.GAME, layout.N_OBS + 1):
                st[i] = 0
            st[layout.NO_OBSERVER] = 1
            nb_shuffled_deck(seed, first + g, 0, st[layout.DECK: layout.DECK + n_cards], rng)
            transitions.deal(sp, n, n_cards)
            st[ob.ROUND] = 1
            for seat in range(n):  # R6, as drivers.play_round
                transitions.show_swap(sp, seat)
                transitions.apply_swap(sp, seat, play_like_basic(st[:ob.OBS_SIZE], st[layout.HANDS + seat * ob.NR:
                                                                              layout.HANDS + seat * ob.NR + ob.NR]))
            transitions.open_table(sp, n)
            starter = transitions.start_play(sp, n, 0)  # the dealer of round 1 is the last seat (R7)
            basic_rollout(st.ctypes.data, starter, -1)
            for p in range(n):
                places[g, p] = st[ob.PLACE + p]
        return 0
    return games


def yardstick_ratios(players: int, games: int, rounds: int) -> tuple:
    """(engine games/s per round, C yardstick games/s per round), in turn in this process."""
    from idiotsim.engine.batches import rules_header
    numba.set_num_threads(1)
    rules = Rules(players=players)
    seats = load_strategies("basic", players)
    library = ctypes.CDLL(str(build()))
    c_games = whole_games(_ROLLOUT_FN(ctypes.cast(library.idiotsim_basic_rollout, ctypes.c_void_p).value))
    header = rules_header(rules)
    places = np.zeros((games, players), np.int64)
    c_games(header, 1, 0, 10, places)  # compile
    played = play_games(rules, seats, 1, 0, games, block=BLOCK)
    c_games(header, 1, 0, games, places)
    assert np.array_equal(np.asarray(played["places"], np.int64), places)  # the same games
    engine, yardstick = [], []
    for r in range(rounds):
        for which in ((0, 1) if r % 2 == 0 else (1, 0)):
            start = time.process_time()
            if which == 0:
                play_games(rules, seats, 1, 0, games, block=BLOCK)
                engine.append(games / (time.process_time() - start))
            else:
                c_games(header, 1, 0, games, places)
                yardstick.append(games / (time.process_time() - start))
    return engine, yardstick


def print_yardstick(players: int, games: int, rounds: int) -> None:
    load = os.getloadavg()[0]
    engine, c = yardstick_ratios(players, games, rounds)
    ratios = [a / b for a, b in zip(engine, c)]
    print(f"{players} players, all basic, one thread, {games:,} games x {rounds} rounds (load {load:.2f}): "
          f"engine {statistics.median(engine):,.0f} games/s (min {min(engine):,.0f}, max {max(engine):,.0f}), "
          f"C yardstick {statistics.median(c):,.0f} (min {min(c):,.0f}, max {max(c):,.0f}); "
          f"engine / C {statistics.median(ratios):.3f}x (range {min(ratios):.3f}-{max(ratios):.3f}, "
          f"best-of {max(engine) / max(c):.3f}x)", flush=True)


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
    parser.add_argument("--yardstick", action="store_true", help="only the C yardstick's ratios")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the yardstick race")
    args = parser.parse_args()
    if args.run:
        run_breakdown()
        return
    if args.yardstick:
        for players in (2, 4):
            print_yardstick(players, 50_000 if args.quick else 200_000, args.rounds)
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
    for players in (2, 4):
        print_yardstick(players, games // 2, 5)
    start_times()
    run_breakdown()
    run_command(1_000_000)
    if not args.quick:
        run_command(10_000_000)


if __name__ == "__main__":
    main()
