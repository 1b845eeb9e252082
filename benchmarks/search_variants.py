"""Search variants against the plain search (issue 13, "Beyond the reference"): cost and strength.

    # decisions/s of each variant, one thread, variants alternated in one process
    .venv/bin/python benchmarks/search_variants.py speed rollouts=128 rollouts=128,halving=1 rollouts=128,policy=2
    # strength: each variant against three `basic` seats on the same deals as the first (the plain
    # search), rotated over every seat; paired with the first in the same seat on the same deal
    .venv/bin/python benchmarks/search_variants.py strength --deals 2000 --out /tmp/variants \\
        rollouts=128 rollouts=128,halving=1 rollouts=80,policy=2

`speed`: the TURN decisions of games of `basic` (benchmarks/search.py) with more than one legal move;
each round gives every variant `--seconds` of decisions on the same positions in turn, `--rounds`
rounds; prints the mean decisions/s with the spread over rounds and the time per decision relative to
the first variant (the K that spends the same time is K x that ratio, since time is linear in K).

`strength`: one tournament folder per variant (resumable) with the same seed, so every variant plays
the same deals in the same seats with the same random streams (common random numbers). Prints each
variant's paired mean-place difference to `basic` in the same seat (as benchmarks/search_strength.py)
and to the first variant, with 95% CIs over deals (negative: the variant is better).
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import time
from pathlib import Path

import numba
import numpy as np

from idiotsim.game import observation as ob
from idiotsim.strategies.search import pimc as search
from idiotsim.game.rules import Rules
from idiotsim.strategies.search import STRATEGY
from idiotsim.runs.tournament import TournamentConfig, run_tournament

HERE = Path(__file__).resolve().parent


def _sibling(name: str):
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def knob_values(text: str) -> dict:
    return {k: float(v) for k, v in (kv.split("=") for kv in text.split(",") if kv)}


def speed(args) -> None:
    bench = _sibling("search")
    numba.set_num_threads(1)
    found = bench.positions(args.players, args.games)
    moves = np.zeros(search.MAX_MOVES, np.int64)
    base = STRATEGY.params()
    searched = [p for p in found
                if search.list_search_moves(p["obs"], p["hand"], base, moves) > 1]
    variants = [(v, STRATEGY.params(knob_values(v))) for v in args.variants]
    for _, params in variants:  # compile
        STRATEGY.decide(searched[0]["obs"], searched[0]["hand"], params, np.zeros(1, np.uint64))
    rates = {v: [] for v, _ in variants}
    for _ in range(args.rounds):
        for v, params in variants:
            done = 0
            start = time.perf_counter()
            while time.perf_counter() - start < args.seconds:
                p = searched[done % len(searched)]
                STRATEGY.decide(p["obs"], p["hand"], params, np.array([done], np.uint64))
                done += 1
            rates[v].append(done / (time.perf_counter() - start))
    print(f"{args.players} players, one thread, {len(searched)} positions with more than one move, "
          f"{args.rounds} rounds of {args.seconds:g} s per variant")
    first = np.mean(rates[args.variants[0]])
    for v, _ in variants:
        r = np.array(rates[v])
        print(f"{v:<40} {r.mean():>9,.1f} decisions/s (rounds {r.min():,.1f}..{r.max():,.1f}); "
              f"time per decision x{first / r.mean():.3f} of the first")


def per_deal_mean(rows: np.ndarray, diff: np.ndarray) -> tuple:
    per_deal = np.bincount(rows, weights=diff) / np.bincount(rows)
    return per_deal.mean(), 1.96 * per_deal.std(ddof=1) / math.sqrt(len(per_deal)), len(per_deal)


def strength(args) -> None:
    bench = _sibling("search_strength")
    rules = Rules(players=args.players)
    family = bench.FAMILY
    places = {}
    for i, v in enumerate(args.variants):
        spec = f"{family}:SEARCH:{v}"
        out = args.out / f"v{i}"
        config = TournamentConfig(strategies=(spec,), players=args.players, games=args.deals * args.players,
                                  seed=args.seed, field=("basic",), chunk_games=args.chunk_games)
        start = time.perf_counter()
        run_tournament(config, out)
        seconds = time.perf_counter() - start
        games = bench.focal_places(out, args.players, spec).sort("deal", "seat")
        places[v] = games
        print(f"played {v}: {len(games):,} games in {seconds:.0f} s", flush=True)
    first = places[args.variants[0]]
    deals = first["deal"].to_numpy()
    unique = np.unique(deals)
    row = np.searchsorted(unique, deals)
    seat = first["seat"].to_numpy()
    baseline = bench.basic_places(rules, args.seed, unique)[row, seat]
    print(f"{args.players} players, {len(unique):,} deals x {args.players} seats; 95% CIs over deals")
    print("| variant | mean place | wins | Idiot | minus basic | minus the first |")
    print("|---|---|---|---|---|---|")
    for v in args.variants:
        games = places[v]
        assert (games["deal"].to_numpy() == deals).all() and (games["seat"].to_numpy() == seat).all()
        place = games["place"].to_numpy()
        b, bh, _ = per_deal_mean(row, place - baseline)
        f, fh, _ = per_deal_mean(row, place - first["place"].to_numpy())
        print(f"| `{v}` | {place.mean():.3f} | {np.mean(place == 1):.1%} | {np.mean(place == args.players):.1%} "
              f"| {b:+.3f} +/- {bh:.3f} | {f:+.3f} +/- {fh:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("variants", nargs="+", help="search knobs, e.g. rollouts=128,halving=1")
    sp.add_argument("--players", type=int, default=4)
    sp.add_argument("--games", type=int, default=40, help="games of basic the positions come from")
    sp.add_argument("--seconds", type=float, default=5.0)
    sp.add_argument("--rounds", type=int, default=4)
    st = sub.add_parser("strength")
    st.add_argument("variants", nargs="+", help="search knobs; the first is the reference (plain search)")
    st.add_argument("--players", type=int, default=4)
    st.add_argument("--deals", type=int, default=2000)
    st.add_argument("--seed", type=int, default=1)
    st.add_argument("--chunk-games", type=int, default=400)
    st.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    speed(args) if args.command == "speed" else strength(args)


if __name__ == "__main__":
    main()
