"""Issue 7: the same tournament, run and report on a Dask cluster give bit-identical results.

The cluster is an executor of the one chunk driver, ``idiotsim.runs.chunks``
(``idiotsim.runs.dask_cluster.DaskExecutor``); tests/runs/test_chunks.py tests the driver itself.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import polars as pl
import pytest

distributed = pytest.importorskip("dask.distributed")

from idiotsim.runs.chunks import executor_from_flags  # noqa: E402
from idiotsim.runs.dask_cluster import DaskExecutor  # noqa: E402
from idiotsim.errors import UserError  # noqa: E402
from idiotsim.runs.tournament import TournamentConfig, run_tournament  # noqa: E402

CONFIG = TournamentConfig(strategies=("basic", "random"), players=3, games=24_000, seed=11,
                          chunk_games=2_000)


def chunk_bytes(out: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(out.glob("chunk-*.parquet"))}


@pytest.fixture(scope="module")
def local_result(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("local")
    run_tournament(CONFIG, out)
    return chunk_bytes(out)


def test_local_cluster_equals_local_run(tmp_path, local_result):
    with executor_from_flags(None, 2) as executor:
        run_tournament(CONFIG, tmp_path, executor=executor)
    assert chunk_bytes(tmp_path) == local_result
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_worker_killed_mid_run_completes_with_identical_results(tmp_path, local_result):
    """A worker process is killed (SIGKILL) while chunks are playing; its tasks run elsewhere."""
    cluster = DaskExecutor(workers=2)
    try:
        pids = list(cluster.client.run(os.getpid).values())
        assert len(pids) == 2
        victim = pids[0]

        def kill_when_started():
            deadline = time.time() + 120
            while time.time() < deadline and not list(tmp_path.glob("chunk-*.parquet")):
                time.sleep(0.05)
            os.kill(victim, signal.SIGKILL)

        killer = threading.Thread(target=kill_when_started)
        killer.start()

        run_tournament(CONFIG, tmp_path, executor=cluster)
        killer.join()
        with pytest.raises(ProcessLookupError):
            os.kill(victim, 0)
    finally:
        cluster.close()
    assert chunk_bytes(tmp_path) == local_result
    rows = pl.read_parquet(sorted(tmp_path.glob("chunk-*.parquet")))
    assert rows["game"].n_unique() == rows.height == CONFIG.games
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_probe_reports_a_folder_workers_cannot_write(tmp_path):
    """A results path that is a file (so nothing can be created under it) fails fast with a clear error."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    cluster = DaskExecutor(workers=1)
    try:
        start = time.time()
        with pytest.raises(UserError, match="cannot write the results folder"):
            cluster.check_writable(blocker)
        assert time.time() - start < 60
    finally:
        cluster.close()


def test_cluster_and_workers_are_exclusive():
    with pytest.raises(UserError, match="exactly one of --cluster"):
        executor_from_flags("tcp://127.0.0.1:1", 2)


def test_an_unreachable_scheduler_is_a_one_line_error(tmp_path, capsys, monkeypatch):
    from helpers import cli_user_error
    monkeypatch.setattr(DaskExecutor, "connect_timeout", "2s")
    out = tmp_path / "out"
    line = cli_user_error(capsys, "run", "--games", "100", "--out", out, "--cluster", "tcp://127.0.0.1:1")
    assert "cannot reach the Dask scheduler" in line
    assert not [p for p in out.rglob("*") if p.is_file()]


def test_run_on_a_local_cluster_equals_the_local_run(tmp_path, capsys):
    from helpers import cli_ok
    args = ["run", "--players", "3", "--strategies", "basic,random,basic", "--games", "3000", "--seed", "4"]
    cli_ok(capsys, *args, "--out", tmp_path / "local")
    cli_ok(capsys, *args, "--out", tmp_path / "dask", "--workers", "2")
    local = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert local == sorted(p.name for p in (tmp_path / "dask").iterdir())
    for name in local:
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "dask" / name).read_bytes(), name


def test_default_path_does_not_import_dask():
    import subprocess
    import sys
    code = ("import sys; from idiotsim.runs.tournament import run_tournament, TournamentConfig; "
            "import idiotsim.cli, idiotsim.runs.runner, idiotsim.analysis.tournament_summary; "
            "print('dask' in sys.modules or 'distributed' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_bad_cluster_flags_fail_before_touching_the_results_folder(tmp_path, capsys):
    from helpers import cli_user_error
    for flags, message in ((["--workers", "0"], "--workers must be 1..64"),
                           (["--workers", "2", "--cluster", "tcp://127.0.0.1:1"], "exactly one of --cluster")):
        for command in (["tournament", "--strategies", "basic,random", "--games", "1000"], ["run", "--games", "100"]):
            out = tmp_path / "out"
            line = cli_user_error(capsys, *command, "--out", out, *flags)
            assert message in line
            assert not out.exists()


def test_report_on_a_local_cluster_equals_the_local_report(tmp_path, capsys):
    """`idiotsim report --workers 2` writes byte-identical reports (paired, seats and tournament designs)."""
    from helpers import cli_ok
    reports = Path(__file__).resolve().parents[2] / "reports"
    specs = [str(reports / f"{name}.toml") for name in ("tens_faceup", "first_player", "leaderboard")]
    cli_ok(capsys, "report", *specs, "--quick", "--out", tmp_path / "local")
    cli_ok(capsys, "report", *specs, "--quick", "--out", tmp_path / "dask", "--workers", "2")
    local = sorted(p.relative_to(tmp_path / "local") for p in (tmp_path / "local").rglob("*") if p.is_file())
    assert local and local == sorted(p.relative_to(tmp_path / "dask") for p in (tmp_path / "dask").rglob("*")
                                     if p.is_file())
    for rel in local:
        assert (tmp_path / "local" / rel).read_bytes() == (tmp_path / "dask" / rel).read_bytes(), rel
