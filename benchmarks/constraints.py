"""Constraint benchmark (issue 44 item 1): what a constraint costs a player, in one process.

    .venv/bin/python benchmarks/constraints.py               # 4 players, one seat of each player, 3 basic seats
    .venv/bin/python benchmarks/constraints.py --games 2000 --repeats 3

Each pair is a player and the same player under constraints (strategies/constraints.py), at one seat of four
against three `basic` seats, on the same games (seeds and deals) in one thread. The pairs take turns, best of
--repeats runs each, in one process, so a noisy spell of the machine hits them alike; games/s are by the
process's CPU time. The ratio (constrained / unconstrained games/s) is the figure: a constraint makes the
player list and filter its legal moves at every decision, and changes what it plays (so how long its games
last), so the ratio also holds the games' other length. Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import time

import numba

from idiotsim.engine.batches import play_games
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import load_strategy

PAIRS = (
    ("basic", "basic+copies=1+tens=never+pickup=never"),
    ("heuristic", "heuristic+hand=10+burn=8"),
    ("learned-fast-4p", "learned-fast-4p+up=10+copies=1+pickup=never"),
    ("learned-search-4p", "learned-search-4p+hand=10+tens=never+pickup=never"),
    ("search:rollouts=16", "search:rollouts=16+hand=10+tens=never+pickup=never"),
)
COST = {"learned-search-4p": 20, "search:rollouts=16": 200}  # fewer games for the costly players


def rate(rules: Rules, spec: str, games: int) -> float:
    seats = [load_strategy(spec)] + [load_strategy("basic")] * (rules.players - 1)
    start = time.process_time()
    play_games(rules, seats, 1, 0, games)
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    numba.set_num_threads(1)
    rules = Rules(players=args.players)
    for pair in PAIRS:  # compile / load from the cache outside the timing
        for spec in pair:
            rate(rules, spec, 8)
    best = {spec: 0.0 for pair in PAIRS for spec in pair}
    for _ in range(args.repeats):
        for pair in PAIRS:
            games = max(8, args.games // COST.get(pair[0], 1))
            for spec in pair:
                best[spec] = max(best[spec], rate(rules, spec, games))
    print(f"{args.players} players, one seat of the player against basic, default rules, 1 thread, best of "
          f"{args.repeats}")
    print(f"{'player':<52} {'games/s':>10} {'ratio':>7}")
    for free, bound in PAIRS:
        print(f"{free:<52} {best[free]:>10,.0f}")
        print(f"{bound:<52} {best[bound]:>10,.0f} {best[bound] / best[free]:>6.2f}x")


if __name__ == "__main__":
    main()
