"""The C yardstick of the engine's benchmarks: compile rollout.c, once per source, layout, compiler and CPU.

rollout.c is the search's `basic` rollouts in C that the project shipped until December 2026. Its numba
port (``idiotsim.engine.basic_rounds``) replaced it, as fast or faster (README, "Design"); the C stays here,
outside the package, as the same-process yardstick of benchmarks/engine.py (--yardstick) and
benchmarks/rollout_race.py. Nothing in the package or the tests builds or loads it.

The C source takes every constant it shares with the Python code (the state's offsets, the rank ids,
the capacities) as -D flags read here from the modules that define them, so the layout keeps one home
and a change to it builds a new library. The library is written under a temporary name and renamed,
so processes building at once (pytest's workers, Dask's) never load half a file.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from idiotsim.engine import state_layout as layout
from idiotsim.game import observation as ob
from idiotsim.game.cards import HAND_TARGET, JACK, NUM_RANKS, SIX, TEN, TWO
from idiotsim.game.moves import CHANCE, PICKUP
from idiotsim.game.rules import MAX_PLAYERS

SOURCE = Path(__file__).resolve().parent / "rollout.c"
# -march=native: 1.09x the rollouts/s of the x86-64 baseline (benchmarks/search.py's inner loop, 2026-12-05);
# the library's key holds the host CPU, as numba's cache does
CFLAGS = ("-O3", "-march=native", "-std=c11", "-shared", "-fPIC", "-fno-strict-aliasing")
OFF_ENGINE = ("HANDS", "BLIND", "TALON", "TALON_POS", "TALON_LEN", "NEXT_PLACE", "PLAYERS_IN", "SKIPPED")
OFF_OBSERVATION = ("PLAYERS", "FACEUP", "PLACE", "HAND_SIZE", "FACEUP_SIZE", "BLIND_SIZE", "PILE_COUNTS",
                   "PILE_SIZE", "PILE_TOP", "PILE_RUN", "LEGAL", "SIX_BURN", "BURN_PLAYS_AGAIN",
                   "LAST_HAND_WITH_FACEUP", "CHANCE_RULE", "MUST_PLAY", "STARTER", "ACTIONS", "ACTION_LIMIT", "LOW_RANK", "TEN_ONLY_ON_LOWER")


class BuildError(Exception):
    """The C library could not be built (no compiler, or it failed)."""


def defines() -> dict[str, int]:
    values = {f"OFF_{name}": getattr(layout, name) for name in OFF_ENGINE}
    values.update({f"OFF_{name}": getattr(ob, name) for name in OFF_OBSERVATION})
    values.update(NR=NUM_RANKS, RANK_TWO=TWO, RANK_SIX=SIX, RANK_TEN=TEN, RANK_JACK=JACK, HAND_TARGET=HAND_TARGET,
                  CYCLE_WATCH_FROM=layout.CYCLE_WATCH_FROM, ACTION_PICKUP=PICKUP, ACTION_CHANCE=CHANCE, MAX_PLAYERS=MAX_PLAYERS, MAX_CARDS=layout.MAX_CARDS)
    return values


def compiler() -> str | None:
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


def command(cc: str, out: Path) -> list[str]:
    return [cc, *CFLAGS, *(f"-D{k}={v}" for k, v in sorted(defines().items())), str(SOURCE), "-o", str(out)]


def cache_root() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "idiotsim"


def host_cpu() -> str:
    import llvmlite.binding as llvm
    return f"{llvm.get_host_cpu_name()} {llvm.get_host_cpu_features().flatten()}"


def library_path(cc: str) -> Path:
    digest = hashlib.sha256(SOURCE.read_bytes())
    digest.update("\0".join(command(cc, Path("out")) + [host_cpu()]).encode())
    return cache_root() / f"c-yardstick-{digest.hexdigest()[:16]}" / "rollout.so"


def build() -> Path:
    """The library's path, compiled first if this source, layout and compiler have none yet."""
    cc = compiler()
    if cc is None:
        raise BuildError("no C compiler (cc, gcc or $CC) found")
    path = library_path(cc)
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(suffix=".so", dir=path.parent)
    os.close(fd)
    try:
        done = subprocess.run(command(cc, Path(temp)), capture_output=True, text=True)
        if done.returncode != 0:
            raise BuildError(f"{cc} failed: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}")
        os.replace(temp, path)
    except OSError as error:
        raise BuildError(f"{cc} could not run: {error}") from error
    finally:
        if os.path.exists(temp):
            os.unlink(temp)
    return path
