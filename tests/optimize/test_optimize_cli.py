"""`idiotsim optimize` on the command line, and preset files (best.toml) as strategy specs everywhere.

- Every bad input the issue lists is one `error:` line, exit 2, and no folder.
- kill -9 during `idiotsim optimize`, then the same command: the same best.toml and evaluations
  as a run that never stopped.
- `--workers 2` writes the same evaluations and best.toml as a local run.
- A best.toml plays in `tournament` like any strategy; one naming an unknown family is an error line.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from helpers import cli_ok, cli_user_error

ROOT = Path(__file__).resolve().parents[2]
TINY = ["--players", "3", "--games-per-eval", "600", "--generations", "2", "--selection-games", "600",
        "--validation-games", "0", "--sensitivity-games", "0", "--knobs", "up_strength,up_two"]


def preset_file(tmp_path, family: str, name: str = "best.toml") -> Path:
    path = tmp_path / name
    path.write_text(f'family = "{family}"\n[knobs]\n')
    return path


def unwritable_folder(tmp_path) -> Path:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    return blocker / "opt"


BAD_INPUTS = {
    "unknown strategy": (["--strategy", "no-such-strategy"], "unknown strategy 'no-such-strategy'"),
    "knob not of that strategy": (["--strategy", "weighted", "--knobs", "up_two,swap"], "has no knob 'swap'"),
    "family without knobs": (["--strategy", "basic"], "strategy basic has no knobs"),
    "zero budget": (["--strategy", "weighted", "--budget", "0"], "--budget must be an integer >= 1"),
    "best.toml naming an unknown family": (["--strategy", "weighted", "--field", "{bad}"], "unknown family 'nobody'"),
    "best.toml as the strategy": (["--strategy", "{bad}"], "unknown family 'nobody'"),
}


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys, case):
    flags, message = BAD_INPUTS[case]
    bad = preset_file(tmp_path, "nobody")
    out = tmp_path / "opt"
    line = cli_user_error(capsys, "optimize", *[f.format(bad=bad) for f in flags], "--out", out)
    assert message in line
    assert not out.exists()


def test_unwritable_folder_is_one_line_and_writes_nothing(tmp_path, capsys):
    out = unwritable_folder(tmp_path)
    line = cli_user_error(capsys, "optimize", "--strategy", "weighted", *TINY, "--out", out)
    assert "cannot write to --out" in line
    assert [p.name for p in tmp_path.iterdir()] == ["a-file"]


RESUME = ["optimize", "--players", "3", "--seed", "11", "--generations", "12", "--validation-games", "0",
          "--sensitivity-games", "0"]
RESUMED = {  # float knobs; integer knobs (their step floors and widened bounds live in the pickled optimiser)
    "weighted": ["--strategy", "weighted", "--games-per-eval", "1500", "--selection-games", "1500",
                 "--knobs", "up_strength,up_two,up_ten,up_pair"],
    "heuristic": ["--strategy", "heuristic", "--games-per-eval", "4500", "--selection-games", "1500",
                  "--knobs", "swap,burn_min,save_twos,pickup_max"],
}


@pytest.mark.parametrize("family", RESUMED)
def test_killed_command_resumes_to_identical_results(tmp_path, capsys, family):
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    args = [*RESUME, *RESUMED[family]]
    command = [sys.executable, "-m", "idiotsim.cli", *args, "--out", str(killed)]
    victim = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              env={**os.environ, "NUMBA_NUM_THREADS": "1"})
    deadline = time.time() + 90
    while not (killed / ".search" / "gen-00002.pkl").exists():
        assert victim.poll() is None and time.time() < deadline, victim.stderr.read().decode()
        time.sleep(0.01)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    finished = len(list((killed / ".search").glob("gen-*.pkl")))
    assert 3 <= finished < 12, "the run ended before the kill: make it longer"
    assert not (killed / "best.toml").exists()
    cli_ok(capsys, *args, "--out", killed)  # the same command again
    cli_ok(capsys, *args, "--out", whole)  # never interrupted
    assert same_best(killed, whole)
    a, b = pl.read_parquet(killed / "evaluations.parquet"), pl.read_parquet(whole / "evaluations.parquet")
    assert a.height == 12 * 9 and a.equals(b)


def same_best(a: Path, b: Path) -> bool:
    """best.toml alike but for the --out folder its regeneration comment names."""
    return (a / "best.toml").read_text().replace(str(a), str(b)) == (b / "best.toml").read_text()


def test_workers_give_byte_identical_results(tmp_path, capsys):
    local, dask = tmp_path / "local", tmp_path / "dask"
    # seed 1: a run whose best leaves its start, so that the sensitivity runs too
    small = [*TINY, "--seed", "1", "--validation-games", "1200", "--sensitivity-games", "600"]
    cli_ok(capsys, "optimize", "--strategy", "weighted", *small, "--out", local)
    cli_ok(capsys, "optimize", "--strategy", "weighted", *small, "--out", dask, "--workers", "2")
    assert same_best(local, dask)
    for name in ("evaluations.parquet", "validation.csv", "sensitivity.csv", "selection.csv"):
        assert (local / name).read_bytes() == (dask / name).read_bytes(), name


def test_best_toml_plays_in_a_tournament(tmp_path, capsys):
    preset = tmp_path / "best.toml"
    preset.write_text('family = "weighted"\n[knobs]\npickup = -3.0\n')
    out = cli_ok(capsys, "tournament", "--strategies", f"{preset},basic", "--players", "2", "--games", "1000",
                 "--out", tmp_path / "t")
    assert "best.toml" in out and "basic" in out  # the terminal table may wrap a long path
    assert f"| {preset} |" in (tmp_path / "t" / "summary.md").read_text()
    line = cli_user_error(capsys, "tournament", "--strategies", f"{preset_file(tmp_path, 'nobody', 'x.toml')},basic",
                          "--players", "2", "--games", "1000", "--out", tmp_path / "u")
    assert "names unknown family 'nobody'" in line
    assert not (tmp_path / "u").exists()
