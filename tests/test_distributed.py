"""Issue 7: the same tournament on a Dask cluster gives bit-identical results."""
from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import polars as pl
import pytest

distributed = pytest.importorskip("dask.distributed")

from idiotsim.distributed import Cluster, dask_map_chunks  # noqa: E402
from idiotsim.errors import UserError  # noqa: E402
from idiotsim.tournament import TournamentConfig, run_tournament  # noqa: E402

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
    run_tournament(CONFIG, tmp_path, map_chunks=dask_map_chunks(None, 2))
    assert chunk_bytes(tmp_path) == local_result
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_worker_killed_mid_run_completes_with_identical_results(tmp_path, local_result):
    """A worker process is killed (SIGKILL) while chunks are playing; its tasks run elsewhere."""
    cluster = Cluster(workers=2)
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

        def map_chunks(tournament, out, chunks):
            config = tournament.config.as_json()
            from idiotsim.distributed import tournament_chunk_task
            sizes = [1] * len(chunks)
            cluster.run_tasks(out, tournament_chunk_task, [(config, str(out), c) for c in chunks], sizes)

        run_tournament(CONFIG, tmp_path, map_chunks=map_chunks)
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
    cluster = Cluster(workers=1)
    try:
        start = time.time()
        with pytest.raises(UserError, match="cannot write the results folder"):
            cluster.check_writable(blocker)
        assert time.time() - start < 60
    finally:
        cluster.close()


def test_cluster_and_workers_are_exclusive():
    with pytest.raises(UserError, match="exactly one of --cluster"):
        Cluster(address="tcp://127.0.0.1:1", workers=2)


def test_default_path_does_not_import_dask():
    import subprocess
    import sys
    code = ("import sys; from idiotsim.tournament import run_tournament, TournamentConfig; "
            "import idiotsim.cli, idiotsim.runner, idiotsim.summary; "
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
    reports = Path(__file__).resolve().parent.parent / "reports"
    specs = [str(reports / f"{name}.toml") for name in ("tens_faceup", "first_player", "leaderboard")]
    cli_ok(capsys, "report", *specs, "--quick", "--out", tmp_path / "local")
    cli_ok(capsys, "report", *specs, "--quick", "--out", tmp_path / "dask", "--workers", "2")
    local = sorted(p.relative_to(tmp_path / "local") for p in (tmp_path / "local").rglob("*") if p.is_file())
    assert local and local == sorted(p.relative_to(tmp_path / "dask") for p in (tmp_path / "dask").rglob("*")
                                     if p.is_file())
    for rel in local:
        assert (tmp_path / "local" / rel).read_bytes() == (tmp_path / "dask" / rel).read_bytes(), rel
