"""The learned player's speed and strength (issue 18), and the frontier against the search.

    .venv/bin/python benchmarks/learned.py speed --players 4 learned-4p learned-fast-4p tuned-4p basic
    .venv/bin/python benchmarks/learned.py frontier learned-4p learned-fast-4p --deals 20000 --search-deals 300 --out reports
    .venv/bin/python benchmarks/learned.py table --out reports

table: the shipped presets' held-out strength at 2..5 players (20,000 deals at 4, 10,000 at the others, from
deal 100,000 of the evaluation seed: no deal a margin was chosen on), each against basic (Holm over the
presets of one player count) and paired against tuned-Np on the same deals; OUT/learned.csv.

speed: games/s on one thread, the player in one seat (basic in the others) and in every seat, in one
process, with basic's own figure as the same-process baseline; the time per decision of the player's
seat is (time per game with it in one seat - time per game of basic) / its decisions per game.

frontier: strength (rotated, paired, Holm-adjusted; ``idiotsim.learn.evaluate``) against time per
decision, for the learned presets and the search at K = 8, 16, 32, 64, 128 (the default, sequential
halving; and the plain search, `halving=0`, at K = 128), written to OUT/learned_frontier.csv and .png. Speed figures under load are
noisy: the ratios to basic in the same process are what compare.
"""
from __future__ import annotations

import argparse
import csv
import os
import time
from pathlib import Path

import numpy as np

from idiotsim.learn.evaluate import strengths
from idiotsim.rules import Rules
from idiotsim.simulate import play_seated
from idiotsim.strategy_api import load_strategy

SEARCH_KS = (8, 16, 32, 64, 128)


def games_per_second(spec: str, players: int, every_seat: bool, seconds: float = 3.0) -> tuple[float, float]:
    """(games/s, actions per game) on this thread, `spec` at seat 0 (or every seat), basic elsewhere."""
    rules = Rules(players=players)
    strategies = [load_strategy("basic"), load_strategy(spec)]
    n_games = 64
    seating = np.zeros((n_games, players), np.int8)
    seating[:, :] = 1 if every_seat else 0
    seating[:, 0] = 1
    first = 0
    play_seated(rules, strategies, 7, np.arange(8), np.arange(8), seating[:8])  # compile
    played, actions, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        ids = np.arange(first, first + n_games)
        result = play_seated(rules, strategies, 7, ids, ids, seating)
        played += n_games
        actions += int(result["actions"].sum())
        first += n_games
        if n_games < 4096 and time.perf_counter() - start < seconds / 8:
            n_games *= 2
            seating = np.resize(seating, (n_games, players))
    return played / (time.perf_counter() - start), actions / played


def decision_microseconds(spec: str, players: int, basic_rate: float) -> tuple[float, float]:
    """(games/s with spec in one seat, microseconds per decision of that seat)."""
    rate, actions = games_per_second(spec, players, every_seat=False, seconds=2.0 if "search" not in spec else 4.0)
    per_game = 1 / rate - 1 / basic_rate
    return rate, 1e6 * max(per_game, 0.0) / (actions / players)


def speed(specs, players: int) -> None:
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    basic, _ = games_per_second("basic", players, every_seat=True)
    print(f"{players} players, one thread; load {os.getloadavg()[0]:.1f}; basic in every seat {basic:,.0f} games/s")
    print("| player | games/s, one seat | games/s, every seat | every seat / basic | us per decision |")
    print("|---|---|---|---|---|")
    for spec in specs:
        one, us = decision_microseconds(spec, players, basic)
        every, _ = games_per_second(spec, players, every_seat=True)
        print(f"| `{spec}` | {one:,.0f} | {every:,.0f} | {every / basic:.3f} | {us:.2f} |", flush=True)


def frontier(learned, players: int, deals: int, search_deals: int, out: Path) -> None:
    basic, _ = games_per_second("basic", players, every_seat=True)
    rows = []
    for spec in learned:
        (s,) = strengths([spec], players, deals, first_deal=100_000)
        _, us = decision_microseconds(spec, players, basic)
        rows.append((spec, "learned", deals, s.vs_basic.mean, s.vs_basic.lo, s.vs_basic.hi, us))
        print(rows[-1], flush=True)
    for k, halving in [(k, 1) for k in SEARCH_KS] + [(128, 0)]:
        if True:
            spec = f"search:rollouts={k},halving={halving}"
            (s,) = strengths([spec], players, search_deals, first_deal=100_000)
            _, us = decision_microseconds(spec, players, basic)
            rows.append((spec, "search" if halving else "plain search", search_deals, s.vs_basic.mean, s.vs_basic.lo,
                         s.vs_basic.hi, us))
            print(rows[-1], flush=True)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "learned_frontier.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["player", "kind", "deals", "vs_basic", "lo", "hi", "us_per_decision"])
        w.writerows([(a, b, c, f"{d:.4f}", f"{e:.4f}", f"{g:.4f}", f"{h:.2f}") for a, b, c, d, e, g, h in rows])
    plot_frontier(rows, players, out / "learned_frontier.png")


def plot_frontier(rows, players: int, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for kind, marker in (("learned", "o"), ("plain search", "s"), ("search", "^")):
        sel = [r for r in rows if r[1] == kind]
        if not sel:
            continue
        x = [max(r[6], 0.05) for r in sel]
        y = [-r[3] for r in sel]
        err = [[r[3] - r[4] for r in sel], [r[5] - r[3] for r in sel]]
        ax.errorbar(x, y, yerr=err, fmt=marker + ("-" if kind != "learned" else ""), label=kind, capsize=3)
        for xi, yi, r in zip(x, y, sel):
            ax.annotate(r[0].replace("search:rollouts=", "K=").split(",")[0], (xi, yi), fontsize=7,
                        textcoords="offset points", xytext=(4, 3))
    ax.set_xscale("log")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("time per decision of the player's seat (microseconds, one thread, log scale)")
    ax.set_ylabel("places better than basic (rotated, paired)")
    ax.set_title(f"Strength against time per decision, {players} players, three basic opponents")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def table(out: Path) -> None:
    from idiotsim.learn.evaluate import paired_difference
    lines = [["players", "player", "deals", "vs_basic", "lo", "hi", "p_holm", "vs_tuned", "vs_tuned_lo", "vs_tuned_hi",
              "games_per_second_one_seat"]]
    for n, deals in ((4, 20_000), (2, 10_000), (3, 10_000), (5, 10_000)):
        rows = strengths([f"learned-{n}p", f"learned-fast-{n}p", f"tuned-{n}p"], n, deals, first_deal=100_000)
        for r in rows:
            x = r.vs_basic
            t = paired_difference(r, rows[2])
            lines.append([n, r.spec, deals, f"{x.mean:.4f}", f"{x.lo:.4f}", f"{x.hi:.4f}", f"{x.p_holm:.4g}",
                          f"{t.mean:.4f}", f"{t.lo:.4f}", f"{t.hi:.4f}", f"{r.games_per_second:.0f}"])
            print(lines[-1], flush=True)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "learned.csv", "w", newline="") as f:
        csv.writer(f).writerows(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("speed", "frontier", "table"))
    parser.add_argument("specs", nargs="*", default=["learned-4p", "learned-fast-4p"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--search-deals", type=int, default=300)
    parser.add_argument("--out", type=Path, default=Path("reports"))
    args = parser.parse_intermixed_args()  # specs before or after the options
    if args.mode == "speed":
        speed(args.specs, args.players)
    elif args.mode == "table":
        table(args.out)
    else:
        frontier(args.specs, args.players, args.deals, args.search_deals, args.out)


if __name__ == "__main__":
    main()
