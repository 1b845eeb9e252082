"""Strategy benchmark: games/s of each shipped family in one thread, and the ratio to `basic`.

    .venv/bin/python benchmarks/strategies.py            # 4 players, 200,000 games a run
    .venv/bin/python benchmarks/strategies.py --games 50000 --players 2

Every seat plays the family (self-play, default rules). The families take
turns, best of --repeats runs each, all in one process, so a noisy spell of the
machine hits them alike; games/s are by the process's CPU time, which other
programs on a busy machine do not inflate. Figures are printed, never asserted: the target
(counter >= 0.6x basic, issue 11) lives in the issues and the README.
"""
from __future__ import annotations

import argparse
import time

import numba

from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_games
from idiotsim.strategies.registry import FAMILIES
from idiotsim.strategies.loading import load_strategies

BLOCK = 512


def rates(rules: Rules, names, games: int, repeats: int) -> dict:
    """Best games/s of each strategy (every seat plays it), one thread."""
    numba.set_num_threads(1)
    seats = {name: load_strategies(name, rules.players) for name in names}
    for name in names:  # compile / load from the cache outside the timing
        play_games(rules, seats[name], 1, 0, 64, block=BLOCK)
    best = dict.fromkeys(names, 0.0)
    for _ in range(repeats):
        for name in names:
            n = games // 20 if name == "random" else games  # random makes long games
            start = time.process_time()
            play_games(rules, seats[name], 1, 0, n, block=BLOCK)
            best[name] = max(best[name], n / (time.process_time() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    names = [family.name for family in FAMILIES]
    best = rates(Rules(players=args.players), names, args.games, args.repeats)
    print(f"{args.players} players, self-play, default rules, 1 thread, best of {args.repeats}")
    print(f"{'strategy':>10} {'games/s':>12} {'vs basic':>9}")
    for name in names:
        print(f"{name:>10} {best[name]:>12,.0f} {best[name] / best['basic']:>8.2f}x")


if __name__ == "__main__":
    main()
