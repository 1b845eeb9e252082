"""Search strength (issue 13): `search` against three `basic` seats, rotated over every seat of the
same deals (the tournament's field mode), paired with `basic` in the same seat on the same deal.

    .venv/bin/python benchmarks/search_strength.py --rollouts 128 --deals 4000 --out /tmp/k128
    .venv/bin/python benchmarks/search_strength.py --spec strategies/search/__init__.py:PERFECT_INFO --deals 1000 --out /tmp/pi

The search allocates its rollouts by sequential halving by default; `--knobs halving=0` is the plain
search the figures below were measured with (benchmarks/search_variants.py compares the two).
The tournament folder is resumable (an interrupted run continues). Prints the paired mean-place
difference (search minus basic in the same seat on the same deal; negative is better) with its
95% CI over deals, win and Idiot rates, and games/s. Issue 13's target at 4 players, K = 128:
better than -0.38 on >= 4,000 deals (reference implementation: -0.415 +/- 0.012).
"""
from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import polars as pl

from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_seated
from idiotsim.strategies.loading import load_strategies
from idiotsim.runs.tournament import TournamentConfig, run_tournament



def focal_places(out: Path, players: int, label: str) -> pl.DataFrame:
    """Per game: its deal, the focal strategy's seat and place."""
    games = pl.concat([pl.read_parquet(p) for p in sorted(out.glob("chunk-*.parquet"))])
    seat = pl.coalesce([pl.when(pl.col(f"strategy_{s}") == label).then(s) for s in range(players)])
    place = pl.coalesce([pl.when(pl.col(f"strategy_{s}") == label).then(pl.col(f"place_{s}"))
                         for s in range(players)])
    return games.select("deal", seat.alias("seat"), place.cast(pl.Int64).alias("place"))


def basic_places(rules: Rules, seed: int, deals: np.ndarray) -> np.ndarray:
    """Every seat's place when `basic` plays every seat of each deal (deals as the tournament shuffles them)."""
    seating = np.zeros((len(deals), rules.players), np.int8)
    return play_seated(rules, load_strategies("basic", 1), seed, deals, deals, seating)["places"].astype(np.int64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spec", default="search", help="the focal strategy (knobs appended)")
    parser.add_argument("--rollouts", type=int, default=128)
    parser.add_argument("--knobs", default="", help="more knobs, e.g. policy=1,swap=1")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk-games", type=int, default=2000)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    knobs = ",".join(k for k in (f"rollouts={args.rollouts}" if args.spec.split(":")[0] == "search" else "", args.knobs) if k)
    spec = f"{args.spec}:{knobs}" if knobs else args.spec
    rules = Rules(players=args.players)
    config = TournamentConfig(strategies=(spec,), players=args.players, games=args.deals * args.players,
                              seed=args.seed, field=("basic",), chunk_games=args.chunk_games)
    start = time.perf_counter()
    run_tournament(config, args.out)
    seconds = time.perf_counter() - start
    games = focal_places(args.out, args.players, spec)
    deals = games["deal"].to_numpy()
    baseline = basic_places(rules, args.seed, np.unique(deals))
    row = np.searchsorted(np.unique(deals), deals)
    diff = games["place"].to_numpy() - baseline[row, games["seat"].to_numpy()]
    per_deal = np.bincount(row, weights=diff) / np.bincount(row)
    mean, half = per_deal.mean(), 1.96 * per_deal.std(ddof=1) / math.sqrt(len(per_deal))
    place = games["place"].to_numpy()
    print(f"{spec} vs basic, {args.players} players, {len(per_deal):,} deals x {args.players} seats "
          f"= {len(games):,} games")
    print(f"mean place {place.mean():.3f}; paired difference to basic in the same seat: {mean:+.3f} +/- {half:.3f}")
    print(f"wins {np.mean(place == 1):.1%} (basic {1 / args.players:.0%}), "
          f"Idiot {np.mean(place == args.players):.1%}")
    print(f"{len(games) / seconds:,.1f} games/s this run ({seconds:.0f} s; 0 s when every chunk was already played)")


if __name__ == "__main__":
    main()
