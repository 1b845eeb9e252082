"""`idiotsim run` never surprises: killed (kill -9) or interrupted (Ctrl-C) half way, the same command
goes on from the files already played and ends with the same bytes as a run never stopped; Ctrl-C
says so in two lines (exit code 130, no traceback); a run that fails leaves no folder it made; run
again once finished, it prints the placements of its results and touches nothing; progress is a
bar in a terminal and a plain line per file of games in a pipe. The interruption tests run the
console script as a real subprocess and stop it half way, as tests/runs/test_tournament.py does."""
from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path

import pexpect
import pytest

from helpers import cli_ok, cli_user_error, run_cli, script, signal_when
from idiotsim.runs import runner
from idiotsim.strategies.loading import load_strategies

ARGS = ["--players", "4", "--strategies", "basic,random,basic,basic", "--games", "16000", "--seed", "5",
        "--chunk-games", "1000", "--threads", "1"]
CHUNKS = 16


def snapshot(folder: Path) -> dict:
    """Every file under `folder` (hidden ones included) with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def staged(out: Path) -> list[Path]:
    try:
        return sorted(out.glob(f"{runner.STAGING_PREFIX}*/games-*.parquet"))
    except FileNotFoundError:  # the command's check of --out makes and removes the folder as it starts
        return []


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole") / "run"
    done = subprocess.run(script() + ["run", "--out", str(out), *ARGS], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return out


def stop_half_way(out: Path, sig) -> subprocess.CompletedProcess:
    """Start the command, poll its staging folder until half the chunk files exist, send `sig`."""
    return signal_when(["run", "--out", out, *ARGS], lambda: len(staged(out)) >= CHUNKS // 2, sig,
                       f"{CHUNKS // 2} chunks")


@pytest.mark.long(20)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_a_stopped_run_resumes_to_the_bytes_of_a_run_never_stopped(tmp_path, uninterrupted, sig):
    out = tmp_path / "run"
    stopped = stop_half_way(out, sig)
    kept = len(staged(out))
    assert CHUNKS // 2 <= kept < CHUNKS
    assert not list(out.glob("*.parquet")) and not (out / runner.MANIFEST).exists()  # no partial result
    if sig == signal.SIGKILL:
        assert stopped.returncode == -signal.SIGKILL
    else:
        assert stopped.returncode == 130 and "Traceback" not in stopped.stderr and stopped.stdout == ""
        lines = stopped.stderr.splitlines()
        said = re.fullmatch(r"interrupted: ([\d,]+) of 16,000 games played, kept in (.+)", lines[-2])
        assert said and said.group(2) == str(out), stopped.stderr
        assert int(said.group(1).replace(",", "")) == 1000 * kept  # every chunk played was written
        assert lines[-1] == "run the same command again to go on from there (no game is played twice)"
    again = subprocess.run(script() + ["run", "--out", str(out), *ARGS], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert f"resuming: {1000 * kept:,} of 16,000 games were played before" in again.stderr
    assert snapshot(out) == snapshot(uninterrupted)  # the same bytes, and no staging or temporary file left


def test_a_finished_run_run_again_prints_its_placements_and_touches_nothing(capsys, tmp_path):
    out = tmp_path / "run"
    args = ["run", "--out", out, "--players", 3, "--games", 3000, "--seed", 2, "--chunk-games", 1000]
    first = cli_ok(capsys, *args)
    before = snapshot(out)
    code, again, err = run_cli(capsys, *args)
    assert code == 0 and again == first and err == f"{out} already holds this run (the same command, finished): " \
                                                   "its placements\n"
    assert snapshot(out) == before
    line = cli_user_error(capsys, "run", "--out", out, "--players", 3, "--games", 4000)  # another run: --force
    assert "already holds results" in line and snapshot(out) == before


def test_a_failed_run_leaves_no_folder_it_made(capsys, tmp_path):
    """An illegal move (a strategy file that picks up an empty pile) in a folder the run makes."""
    path = tmp_path / "rash.py"
    path.write_text(
        "from idiotsim.strategy_api import PICKUP, Strategy, strategy_function\n\n\n"
        "@strategy_function\n"
        "def decide(obs, hand, params, rng):\n"
        "    return PICKUP\n\n\n"
        "RASH = Strategy(name='rash', decide=decide, description='always picks up')\n")
    out = tmp_path / "new" / "deeper" / "run"
    line = cli_user_error(capsys, "run", "--out", out, "--strategies", f"{path}:RASH", "--games", 3000,
                          "--chunk-games", 1000)
    assert "illegal move" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rash.py"]  # new/, deeper/ and run/ are gone
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    cli_user_error(capsys, "run", "--out", kept, "--strategies", f"{path}:RASH", "--games", 10)
    assert sorted(p.name for p in kept.iterdir()) == ["notes.txt"]  # a folder it did not make stays


def test_progress_is_a_line_per_file_in_a_pipe_and_a_bar_in_a_terminal(capsys, tmp_path):
    code, out, err = run_cli(capsys, "run", "--out", tmp_path / "piped", "--games", 3000, "--chunk-games", 1000)
    assert code == 0, err
    assert err.splitlines() == [f"played {n:,} of 3,000 games ({round(100 * n / 3000)}%)" for n in (1000, 2000, 3000)]
    code, out, err = run_cli(capsys, "run", "--out", tmp_path / "one", "--games", 300)
    assert code == 0 and err == ""  # one file: nothing to follow
    env = dict(os.environ, COLUMNS="80", LINES="24", PYTHONIOENCODING="utf-8")
    child = pexpect.spawn(script()[0], ["run", "--out", str(tmp_path / "tty"), "--games", "400000", "--chunk-games",
                                        "20000", "--threads", "1"], env=env, encoding="utf-8", dimensions=(24, 80),
                          timeout=300)
    child.expect("Placements")
    shown = child.before
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "playing" in shown and re.search(r"\d+/400000", shown) and "games/s" in shown, shown
    assert "played 20,000 of" not in shown  # the bar, not the pipe's lines


def test_slow_players_get_smaller_chunks():
    assert runner.chunk_size(load_strategies("basic", 4)) == runner.CHUNK_GAMES
    assert runner.chunk_size(load_strategies("search,basic,basic,basic", 4)) < runner.CHUNK_GAMES // 100
