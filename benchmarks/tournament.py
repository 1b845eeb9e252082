"""Tournament benchmark: end-to-end time, memory at 10M games, what duplicate deals save, Dask vs prange.

    .venv/bin/python benchmarks/tournament.py            # everything (about 10 minutes)
    .venv/bin/python benchmarks/tournament.py --quick    # smaller sizes

Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IDIOTSIM = str(Path(sys.executable).with_name("idiotsim"))
STRATEGIES = "basic,heuristic:burn_min=8,counter,spend-twos"


def timed(args: list[str]) -> tuple[float, float]:
    """Wall seconds and the child's peak RSS in MB."""
    start = time.perf_counter()
    proc = subprocess.Popen([IDIOTSIM, *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _, _, usage = _wait(proc)
    if proc.returncode:
        sys.exit(f"idiotsim {' '.join(args)} failed: {proc.stderr.read()}")
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def _wait(proc):
    import os
    pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return pid, status, usage


def tournament_args(out: str, games: int, *extra: str) -> list[str]:
    return ["tournament", "--strategies", STRATEGIES, "--players", "4", "--games", str(games), "--seed", "7",
            "--out", out, "--force", *extra]


def end_to_end(games: int) -> None:
    with tempfile.TemporaryDirectory() as out:
        timed(tournament_args(out, 10_000))  # warm the numba cache
        wall, rss = timed(tournament_args(out, games))
        print(f"tournament, {games:,} 4-player games, 4 strategies, end to end (games, Parquet, summary, plots): "
              f"{wall:.2f} s = {games / wall:,.0f} games/s; peak RSS {rss:.0f} MB", flush=True)


def summary_memory(out: str) -> None:
    code = ("import resource, time; from idiotsim.analysis.tournament_summary import summarize; t = time.perf_counter(); "
            f"summarize({out!r}); print(time.perf_counter() - t, "
            "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    seconds, rss = map(float, result.stdout.split())
    print(f"  lazy summary alone: {seconds:.1f} s, peak RSS {rss:.0f} MB", flush=True)


def big_run(games: int) -> None:
    with tempfile.TemporaryDirectory() as out:
        wall, rss = timed(tournament_args(out, games))
        print(f"tournament, {games:,} games end to end: {wall:.1f} s, peak RSS {rss:.0f} MB", flush=True)
        summary_memory(out)


def duplicate_gain(games: int) -> None:
    """CI width of the basic vs heuristic:burn_min=8 mean-place difference, duplicate vs independent deals."""
    import polars as pl

    from idiotsim.analysis.tournament_summary import summarize
    widths = {}
    for mode, extra in (("duplicate", []), ("independent", ["--independent-deals"])):
        with tempfile.TemporaryDirectory() as out:
            timed(tournament_args(out, games, *extra))
            diffs = summarize(out).differences
            row = diffs.filter(pl.col("better").is_in(["basic", "heuristic:burn_min=8"])
                               & pl.col("worse").is_in(["basic", "heuristic:burn_min=8"]))
            if row.height == 0:  # not adjacent in the ranking: use the first pair
                row = diffs.head(1)
            r = row.row(0, named=True)
            widths[mode] = r["hi"] - r["lo"]
            print(f"  {mode:>11} deals: {r['better']} vs {r['worse']}: difference {r['difference']:.4f}, "
                  f"95% CI width {widths[mode]:.4f}", flush=True)
    ratio = widths["independent"] / widths["duplicate"]
    print(f"duplicate deals: CI {ratio:.2f}x narrower at {games:,} games "
          f"(= {ratio ** 2:.1f}x fewer games for the same precision)", flush=True)


def dask_ratio(games: int) -> None:
    with tempfile.TemporaryDirectory() as out:
        timed(tournament_args(out, 10_000, "--workers", "2"))  # warm the workers' cache
        local, _ = timed(tournament_args(out, games))
        dask, _ = timed(tournament_args(out, games, "--workers", "2", "--chunk-games", "250000"))
        print(f"{games:,} games: single process (prange, all threads) {local:.1f} s; "
              f"--workers 2 (Dask LocalCluster) {dask:.1f} s; Dask reaches {local / dask:.0%} of prange throughput",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    end_to_end(1_000_000 // scale)
    duplicate_gain(400_000 // scale)
    dask_ratio(4_000_000 // scale)
    big_run(10_000_000 // scale)


if __name__ == "__main__":
    main()
