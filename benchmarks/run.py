"""Where the time of `idiotsim run` goes, and its ratio to the engine's own time for the same games.

    .venv/bin/python benchmarks/run.py                      # 1,000,000 games, 4 players, one thread, 3 runs
    .venv/bin/python benchmarks/run.py --games 200000 --repeats 1
    .venv/bin/python benchmarks/run.py --python /path/to/other/venv/bin/python   # another install
    .venv/bin/python benchmarks/run.py --source /path/to/other/checkout         # another checkout's code

Each run is one child process playing the real command (warm numba cache) with its stages timed in place:
the engine (`play_batch`) is the baseline, measured inside the same process, so the ratio run / engine
is a same-process ratio. Wall time is what the user waits; CPU time (all threads) is steadier on a loaded
machine. The child runs in an empty folder, so `--python` measures that interpreter's installed idiotsim,
unless `--source` names a checkout to run in (its idiotsim/ then comes first on the path).
Figures are printed, never asserted: the target lives in the issue and the README.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The child: stage timers wrapped around the functions the command calls. A stage's time excludes the
# stages nested in it (a cache load inside the engine's first call counts as a cache load), per thread.
CHILD = r"""
import json, sys, threading, time
t0 = (time.perf_counter(), time.process_time(), time.thread_time())
spent, local = {}, threading.local()

def wrap(stage, fn):
    def timed(*args, **kwargs):
        stack = local.__dict__.setdefault("stack", [])
        stack.append([time.perf_counter(), time.thread_time(), 0.0, 0.0])
        try:
            return fn(*args, **kwargs)
        finally:
            w0, c0, nested_w, nested_c = stack.pop()
            w, c = time.perf_counter() - w0, time.thread_time() - c0
            total = spent.setdefault(stage, [0.0, 0.0])
            total[0] += w - nested_w
            total[1] += c - nested_c
            if stack:
                stack[-1][2] += w
                stack[-1][3] += c
    return timed

def stage(name, thunk):
    return wrap(name, thunk)()

import idiotsim  # sets numba's cache folder, imports nothing heavy
stage("import numba", lambda: __import__("numba"))
from numba.core import caching, cpu
caching.Cache.load_overload = wrap("numba cache loads", caching.Cache.load_overload)
cpu.CPUContext.load_additional_registries = wrap("numba target set-up", cpu.CPUContext.load_additional_registries)

def import_command():
    import idiotsim.cli, idiotsim.cli.game_commands, idiotsim.runs.runner, idiotsim.runs.chunks
    return getattr(idiotsim.cli, "console", idiotsim.cli.main)  # the console script (main before it had one)

main = stage("import the command's modules", import_command)
import idiotsim.runs.chunks as chunks, idiotsim.cli.game_commands as play, idiotsim.engine.drivers as en, idiotsim.runs.runner as runner
import typer.core
click_command = typer.core.TyperCommand.__mro__[1]  # click's Command: the group's and the command's parsing
click_command.parse_args = wrap("option parsing (typer: pydantic)", click_command.parse_args)
play.set_threads = wrap("numba threads (--threads)", play.set_threads)
en.play_batch = wrap("engine", en.play_batch)
if hasattr(runner, "chunk_frame"):  # converted on the writer thread
    runner.chunk_frame = wrap("result frames (writer thread)", runner.chunk_frame)
else:  # before: the play and its frame in one task, on the main thread
    runner.run_chunk_frame = wrap("result frames", runner.run_chunk_frame)
play.load_seats = wrap("strategy loading", play.load_seats)
chunks._import_writer = wrap("polars import (writer thread)", chunks._import_writer)
chunks._write_frame = wrap("Parquet writing (writer thread)", chunks._write_frame)
play.print_seat_table = wrap("placement table", play.print_seat_table)
import atexit, os

def cpu_of_thread(task):  # utime + stime of a live thread, from /proc (Linux)
    with open(f"/proc/self/task/{task}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def name_of_thread(task):
    with open(f"/proc/self/task/{task}/comm") as f:
        return f.read().strip()

@atexit.register  # the console script's quick exit runs the exit handlers, then skips the teardown
def report_stages():
    t1 = (time.perf_counter(), time.process_time(), time.thread_time())
    spent["inside"] = [t1[0] - t0[0], t1[1] - t0[1]]
    spent["main thread"] = [0.0, t1[2] - t0[2]]
    try:  # polars' own threads (compression, its pools) are named; Python's threads are all "python"
        tasks = os.listdir("/proc/self/task")
        spent["polars' own threads"] = [0.0, sum(cpu_of_thread(t) for t in tasks if name_of_thread(t) != "python")]
    except OSError:
        pass
    print(json.dumps(spent), file=sys.stderr, flush=True)

sys.argv = ["idiotsim", "run"] + sys.argv[1:]
try:
    main()
except SystemExit as e:
    if e.code:
        raise
"""

ORDER = ("import numba", "import the command's modules", "numba target set-up", "numba cache loads",
         "option parsing (typer: pydantic)", "numba threads (--threads)", "strategy loading", "engine",
         "result frames", "result frames (writer thread)", "polars import (writer thread)",
         "Parquet writing (writer thread)", "polars' own threads", "placement table")
# In wall time these overlap the play (the writer thread's wait on polars' threads shows as its wall time).
BEHIND = ("result frames (writer thread)", "polars import (writer thread)", "Parquet writing (writer thread)",
          "polars' own threads")


def one_run(python: str, games: int, players: int, out: str, cwd: str) -> dict:
    """The stages of one child run, plus its wall and CPU seen from outside (interpreter start included)."""
    args = ["--players", str(players), "--games", str(games), "--seed", "1", "--out", out, "--force",
            "--threads", "1"]
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an install has its bytecode: the warm-up run writes a checkout's
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    child = subprocess.run([python, "-c", CHILD] + args, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if child.returncode:
        sys.exit(f"the child failed:\n{child.stderr}")
    stages = json.loads(child.stderr.strip().splitlines()[-1])
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    stages["whole process"] = [wall, cpu]
    return stages


def best_of(runs: list[dict]) -> dict:
    """Per stage and clock, the least over the runs (the run least disturbed by other jobs)."""
    return {name: [min(r.get(name, [0.0, 0.0])[i] for r in runs) for i in (0, 1)] for name in runs[0]}


def report(runs: list[dict], games: int) -> None:
    t = best_of(runs)
    engine, whole = t["engine"], t["whole process"]
    print(f"`idiotsim run` {games:,} games, one thread, warm cache, best of {len(runs)} run(s) per figure:")
    print(f"  run / engine: wall {whole[0]:.2f} / {engine[0]:.2f} s = {whole[0] / engine[0]:.3f}x;  "
          f"CPU {whole[1]:.2f} / {engine[1]:.2f} s = {whole[1] / engine[1]:.3f}x")
    per_run = ", ".join(f"{r['whole process'][0] / r['engine'][0]:.3f}/{r['whole process'][1] / r['engine'][1]:.3f}"
                        for r in runs)
    print(f"  each run's ratio (wall/CPU): {per_run}")
    print(f"  {'stage':<46} {'wall s':>7} {'CPU s':>7}")
    timed = [0.0, 0.0]
    for name in ORDER:
        w, c = t.get(name, [0.0, 0.0])
        note = "  (behind the play)" if name in BEHIND else ""
        print(f"  {name:<46} {w:7.3f} {c:7.3f}{note}")
        timed = [timed[0] + (0.0 if name in BEHIND else w), timed[1] + c]
    start = [whole[i] - t["inside"][i] for i in (0, 1)]
    print(f"  {'interpreter start and exit':<46} {start[0]:7.3f} {start[1]:7.3f}")
    rest = [t["inside"][i] - timed[i] for i in (0, 1)]
    print(f"  {'the rest (options, folders, manifest, ...)':<46} {rest[0]:7.3f} {rest[1]:7.3f}")
    main_thread = t["main thread"][1] + start[1]
    print(f"  the main thread's CPU (start and exit included): {main_thread:.2f} s = {main_thread / engine[1]:.3f}x "
          "the engine's: the wall ratio when a second core takes the writer and polars, less the wait for the "
          "last file")
    print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          "(the writer thread's stages overlap the play in wall time only)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--python", default=sys.executable, help="the interpreter whose idiotsim is measured")
    parser.add_argument("--source", help="run in this checkout, whose idiotsim/ shadows the installed one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        out, cwd = str(Path(work) / "out"), args.source or work
        one_run(args.python, 1000, args.players, out, cwd)  # warms the numba cache
        runs = [one_run(args.python, args.games, args.players, out, cwd) for _ in range(args.repeats)]
    report(runs, args.games)


if __name__ == "__main__":
    main()
