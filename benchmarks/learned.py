"""The learned player's speed and strength (issue 18), and the frontier against the search.

    .venv/bin/python benchmarks/learned.py speed --players 4 learned-4p learned-fast-4p tuned-4p basic
    .venv/bin/python benchmarks/learned.py frontier learned-4p learned-fast-4p --deals 20000 \
        --search-deals 8:20000,16:20000,32:20000,64:4000,128:4000 --plain-deals 0 --out reports
    .venv/bin/python benchmarks/learned.py table --out reports

table: the shipped presets' held-out strength at 2..5 players (20,000 deals at 4, 10,000 at the others, from
deal 100,000 of the evaluation seed: no deal a margin was chosen on), each against basic (Holm over the
presets of one player count) and paired against tuned-Np on the same deals; OUT/learned.csv.

speed: games/s on one thread, the player in one seat (basic in the others) and in every seat, in one
process, with basic's own figure as the same-process baseline; the time per decision of the player's
seat is (time per game with it in one seat - time per game of basic) / its decisions per game.

frontier: strength (rotated, paired, Holm-adjusted; ``idiotsim.learn.evaluate``) against time per
decision, for the learned presets and the search at K = 8, 16, 32, 64, 128 (the default, sequential
halving; and the plain search, `halving=0`, at K = 128 with --plain-deals), each on its own number of deals
(the first deals of the same held-out set), written to OUT/learned_frontier.csv as each point finishes (a point
replaces the CSV's row of the same player, so a frontier can be measured over several runs: `--deals 0` skips
the learned points, `K:0` a search point) and drawn to OUT/learned_frontier.png. Speed figures under load are
noisy: the ratios to basic in the same process are what compare. `idiotsim learn page --out reports` then
writes reports/learned.md from the CSVs.
"""
from __future__ import annotations

import argparse
import csv
import os
import time
from pathlib import Path

import numpy as np
from numba import njit

from idiotsim.game import observation as ob
from idiotsim.experiments.report_plots import frontier_plot
from idiotsim.learn.evaluate import strengths
from idiotsim.game.rng import new_state
from idiotsim.game.moves import MAX_MOVES
from idiotsim.strategies.search.pimc import list_search_moves
from idiotsim.strategies.search.search_knobs import LEARNED_AT
from idiotsim.strategies.search.gate import learned_scores
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_seated
from idiotsim.strategies.loading import load_strategy

SEARCH_KS = (8, 16, 32, 64, 128)


def games_per_second(spec: str, players: int, every_seat: bool, seconds: float = 3.0,
                     clock=time.perf_counter) -> tuple[float, float]:
    """(games/s, actions per game) on this thread, `spec` at seat 0 (or every seat), basic elsewhere; by
    the wall clock, or by `clock` (time.process_time: CPU time, less hurt by other jobs' load)."""
    rules = Rules(players=players)
    strategies = [load_strategy("basic"), load_strategy(spec)]
    n_games = 64
    seating = np.zeros((n_games, players), np.int8)
    seating[:, :] = 1 if every_seat else 0
    seating[:, 0] = 1
    first = 0
    play_seated(rules, strategies, 7, np.arange(8), np.arange(8), seating[:8])  # compile
    played, actions, start = 0, 0, clock()
    while clock() - start < seconds:
        ids = np.arange(first, first + n_games)
        result = play_seated(rules, strategies, 7, ids, ids, seating)
        played += n_games
        actions += int(result["actions"].sum())
        first += n_games
        if n_games < 4096 and clock() - start < seconds / 8:
            n_games *= 2
            seating = np.resize(seating, (n_games, players))
    return played / (clock() - start), actions / played


def decision_microseconds(spec: str, players: int, basic_rate: float, clock=time.perf_counter) -> tuple[float, float]:
    """(games/s with spec in one seat, microseconds per decision of that seat)."""
    rate, actions = games_per_second(spec, players, every_seat=False, seconds=2.0 if "search" not in spec else 4.0,
                                     clock=clock)
    per_game = 1 / rate - 1 / basic_rate
    return rate, 1e6 * max(per_game, 0.0) / (actions / players)


def speed(specs, players: int, cpu: bool = False) -> None:
    """With `cpu`, CPU time (time.process_time) instead of the wall clock, and the one-seat figure's ratio to
    basic in every seat with its quiet-core reading (QUIET_BASIC_GAMES_PER_SECOND x the ratio)."""
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    clock = time.process_time if cpu else time.perf_counter
    basic, _ = games_per_second("basic", players, every_seat=True, clock=clock)
    print(f"{players} players, one thread, {'CPU time' if cpu else 'wall clock'}; load {os.getloadavg()[0]:.1f}; "
          f"basic in every seat {basic:,.0f} games/s")
    print("| player | games/s, one seat | one seat / basic (quiet reading) | games/s, every seat | every seat / basic "
          "| us per decision |")
    print("|---|---|---|---|---|---|")
    for spec in specs:
        one, us = decision_microseconds(spec, players, basic, clock)
        every, _ = games_per_second(spec, players, every_seat=True, clock=clock)
        quiet = one / basic * QUIET_BASIC_GAMES_PER_SECOND
        print(f"| `{spec}` | {one:,.0f} | {one / basic:.5f} ({quiet:,.0f}) | {every:,.0f} | {every / basic:.3f} | "
              f"{us:.2f} |", flush=True)


FRONTIER_FIELDS = ["player", "kind", "deals", "vs_basic", "lo", "hi", "us_per_decision", "source"]


def frontier_point(spec: str, kind: str, players: int, deals: int, basic_rate: float) -> dict:
    """One point of the frontier: strength on `deals` held-out deals (rotated, paired) and time per decision."""
    start = time.perf_counter()
    (s,) = strengths([spec], players, deals, first_deal=100_000)
    seconds = time.perf_counter() - start
    _, us = decision_microseconds(spec, players, basic_rate)
    return {"player": spec, "kind": kind, "deals": deals, "vs_basic": f"{s.vs_basic.mean:.4f}",
            "lo": f"{s.vs_basic.lo:.4f}", "hi": f"{s.vs_basic.hi:.4f}", "us_per_decision": f"{us:.2f}",
            "source": f"this run: {seconds:.0f} s of play, load {os.getloadavg()[0]:.1f}"}


def read_frontier(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with open(path, newline="") as f:
        return [{k: row.get(k, "") for k in FRONTIER_FIELDS} for row in csv.DictReader(f)]


def write_frontier(rows: list[dict], path: Path) -> None:
    write_rows(rows, path, FRONTIER_FIELDS)


def search_deals_by_k(text: str, default: int) -> dict[int, int]:
    """'8:20000,16:20000,64:4000' -> {8: 20000, 16: 20000, 64: 4000}; a bare number is every K's."""
    if ":" not in text:
        return {k: int(text or default) for k in SEARCH_KS}
    return {int(k): int(n) for k, n in (item.split(":") for item in text.split(","))}


def frontier(learned, players: int, deals: int, search_deals: dict[int, int], plain: int, out: Path) -> None:
    """Each point is measured and written to OUT/learned_frontier.csv as it finishes (a point replaces the
    row of the same player), so a run can be split over several invocations; the plot is drawn from the CSV."""
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    out.mkdir(parents=True, exist_ok=True)
    path = out / "learned_frontier.csv"
    basic, _ = games_per_second("basic", players, every_seat=True)
    points = [(spec, "gated search" if "search" in spec else "learned", deals) for spec in learned if deals > 0]
    points += [(f"search:rollouts={k},halving=1", "search", n) for k, n in search_deals.items() if n > 0]
    if plain > 0:
        points.append(("search:rollouts=128,halving=0", "plain search", plain))
    for spec, kind, n in points:
        row = frontier_point(spec, kind, players, n, basic)
        print(row, flush=True)
        rows = [r for r in read_frontier(path) if r["player"] != spec] + [row]
        write_frontier(rows, path)
        frontier_plot(out, out / "learned_frontier.png")  # the page's plot (`idiotsim learn page` draws it too)


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


# The strong point's speed (issue 18): games/s in one seat, basic elsewhere, 4 players, one thread; and basic's
# games/s in every seat on a quiet core (README), by which a same-process ratio to basic is read as a quiet figure.
STRONG_GAMES_PER_SECOND = 2_000
QUIET_BASIC_GAMES_PER_SECOND = 363_000


@njit
def _turn_leads(obs_rows, hand_rows, params, rng, leads, counts):
    """For each TURN position: its number of legal moves (the search's list) and, with two or more, the
    learned model's lead of the best move over the runner-up (the gate's test)."""
    moves = np.zeros(MAX_MOVES, np.int64)
    scores = np.zeros(MAX_MOVES, np.float64)
    for i in range(obs_rows.shape[0]):
        n = list_search_moves(obs_rows[i], hand_rows[i], params, moves)
        counts[i] = n
        if n >= 2:
            learned_scores(obs_rows[i], hand_rows[i], params, LEARNED_AT, moves, n, scores)
            s = np.sort(scores[:n])
            leads[i] = s[-1] - s[-2]


def searched_shares(gates, players: int, games: int) -> dict[float, float]:
    """The share of the learned seat's decisions (seat 0 of `learned-4p` games with basic elsewhere, every
    TURN and BLIND decision, forced ones included; the swap is the learned player's, never searched) that
    each gate sends to the search, and the mean number of moves of a searched turn."""
    from idiotsim.analysis.replayed_states import decision_positions
    from idiotsim.strategies.loading import load_strategy
    rules = Rules(players=players)
    lineup = ",".join([f"learned-{players}p"] + ["basic"] * (players - 1))
    found = [p for g in range(games) for p in decision_positions(rules, lineup, 18_000_003, g) if p["seat"] == 0]
    turns = [p for p in found if p["obs"][ob.DECISION] == ob.TURN]
    obs_rows = np.stack([p["obs"] for p in turns])
    hand_rows = np.stack([p["hand"] for p in turns])
    leads = np.full(len(turns), np.inf)
    counts = np.zeros(len(turns), np.int64)
    params = load_strategy("search:gate=0,swap=3").params
    _turn_leads(obs_rows, hand_rows, params, new_state(0, 0, 0), leads, counts)
    shares = {g: float(np.sum((counts >= 2) & (leads <= g)) / len(found)) for g in gates}
    shares["moves"] = float(counts[counts >= 2].mean())
    shares["decisions_per_game"] = len(found) / games
    return shares


GATE_FIELDS = ["player", "deals", "vs_basic", "lo", "hi", "searched", "cpu_games_per_second_one_seat",
               "basic_cpu_games_per_second", "ratio", "quiet_estimate", "load"]


def gate_grid(specs, players: int, deals: int, share_games: int, out: Path) -> None:
    """Each gated search's strength on the TUNING deals (rotated, paired, Holm over the specs of the run) and its
    CPU-time games/s in one seat, with basic's in every seat in the same process; a row of OUT (CSV) per spec as
    it finishes (a row replaces the row of the same player)."""
    from idiotsim.learn.evaluate import TUNING_SEED
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    gates = sorted({float(dict(kv.split("=") for kv in spec.split(":", 1)[1].split(",")).get("gate", 1000))
                    for spec in specs})
    shares = searched_shares(gates, players, share_games)
    print(f"searched shares over {share_games} games: {shares}", flush=True)
    basic, _ = games_per_second("basic", players, every_seat=True, clock=time.process_time)
    for spec in specs:
        (s,) = strengths([spec], players, deals, seed=TUNING_SEED)
        rate, _ = games_per_second(spec, players, every_seat=False, seconds=6.0, clock=time.process_time)
        gate = float(dict(kv.split("=") for kv in spec.split(":", 1)[1].split(",")).get("gate", 1000))
        row = {"player": spec, "deals": deals, "vs_basic": f"{s.vs_basic.mean:.4f}", "lo": f"{s.vs_basic.lo:.4f}",
               "hi": f"{s.vs_basic.hi:.4f}", "searched": f"{shares.get(gate, 1.0):.3f}",
               "cpu_games_per_second_one_seat": f"{rate:.0f}", "basic_cpu_games_per_second": f"{basic:.0f}",
               "ratio": f"{rate / basic:.5f}", "quiet_estimate": f"{rate / basic * QUIET_BASIC_GAMES_PER_SECOND:.0f}",
               "load": f"{os.getloadavg()[0]:.1f}"}
        print(row, flush=True)
        rows = [r for r in read_rows(out, GATE_FIELDS) if r["player"] != spec] + [row]
        write_rows(rows, out, GATE_FIELDS)


GATE_TABLE_FIELDS = ["players", "player", "deals", "vs_basic", "lo", "hi", "p_holm", "vs_learned", "vs_learned_lo",
                     "vs_learned_hi", "vs_search16", "vs_search16_lo", "vs_search16_hi", "games_per_second_one_seat"]


def gate_table(player: str, out: Path, deals_4p: int = 20_000, deals_other: int = 10_000) -> None:
    """The gated player's held-out strength (from deal 100,000 of the evaluation seed) at 2..5 players against
    basic (Holm over the players of one count), paired against learned-Np, and at 4 players against the search
    at K = 16 too; OUT/learned_gate.csv, a row as each player count finishes. `player` names the preset
    with N for the player count (learned-search-Np)."""
    from idiotsim.learn.evaluate import paired_difference
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    path = out / "learned_gate.csv"
    rows = []
    for n, deals in ((4, deals_4p), (2, deals_other), (3, deals_other), (5, deals_other)):
        specs = [player.replace("Np", f"{n}p"), f"learned-{n}p"] + (["search:rollouts=16"] if n == 4 else [])
        found = strengths(specs, n, deals, first_deal=100_000)
        for r in found:
            x = r.vs_basic
            row = {"players": n, "player": r.spec, "deals": deals, "vs_basic": f"{x.mean:.4f}", "lo": f"{x.lo:.4f}",
                   "hi": f"{x.hi:.4f}", "p_holm": f"{x.p_holm:.4g}", "games_per_second_one_seat": f"{r.games_per_second:.0f}"}
            for key, other in (("vs_learned", found[1]), ("vs_search16", found[2] if n == 4 else None)):
                if other is not None and other is not r:
                    d = paired_difference(r, other)
                    row.update({key: f"{d.mean:.4f}", f"{key}_lo": f"{d.lo:.4f}", f"{key}_hi": f"{d.hi:.4f}"})
            rows.append(row)
            print(row, flush=True)
        write_rows(rows, path, GATE_TABLE_FIELDS)


def read_rows(path: Path, fields) -> list[dict]:
    if not path.exists():
        return []
    with open(path, newline="") as f:
        return [{k: row.get(k, "") for k in fields} for row in csv.DictReader(f)]


def write_rows(rows: list[dict], path: Path, fields) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        w.writerows(rows)
    tmp.replace(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("speed", "frontier", "table", "gate", "gate-table"))
    parser.add_argument("specs", nargs="*", default=["learned-4p", "learned-fast-4p"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--search-deals", default="300",
                        help="deals of each search point: N for every K, or K:N,... (K = 8, 16, 32, 64, 128)")
    parser.add_argument("--plain-deals", type=int, default=0, help="deals of the plain search at K = 128 (0: skip)")
    parser.add_argument("--out", type=Path, default=Path("reports"))
    parser.add_argument("--cpu", action="store_true", help="speed: CPU time instead of the wall clock")
    parser.add_argument("--share-games", type=int, default=100,
                        help="gate: learned-Np games whose seat-0 decisions give each gate's searched share")
    args = parser.parse_intermixed_args()  # specs before or after the options
    if args.mode == "speed":
        speed(args.specs, args.players, args.cpu)
    elif args.mode == "table":
        table(args.out)
    elif args.mode == "gate-table":
        gate_table(args.specs[0] if args.specs else "learned-search-Np", args.out)
    elif args.mode == "gate":
        gate_grid(args.specs, args.players, args.deals, args.share_games, args.out)
    else:
        frontier(args.specs, args.players, args.deals, search_deals_by_k(args.search_deals, 300), args.plain_deals,
                 args.out)


if __name__ == "__main__":
    main()
