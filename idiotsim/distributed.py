"""Running chunks on a Dask distributed cluster (optional extra: ``pip install idiotsim[dask]``).

A task is a pure function of (configuration, chunk id): it plays its games
serially on one worker thread and writes its own Parquet file into the shared
results folder (temporary name, then rename). A chunk replayed after a lost
worker rewrites the same bytes, so nothing is lost or counted twice. Nothing
here is imported on the single-machine path.
"""
from __future__ import annotations

import os
import uuid
from pathlib import Path

from idiotsim.errors import UserError

PROBE_TIMEOUT = 60  # seconds for the workers to prove they can write the results folder


def _require_dask():
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise UserError("--cluster/--workers need Dask: pip install 'idiotsim[dask]'") from None


def tournament_chunk_task(config_json: dict, out: str, chunk: int) -> int:
    """Play and write one tournament chunk on a worker."""
    import numba

    from idiotsim.tournament import Tournament, TournamentConfig, write_chunk
    numba.set_num_threads(1)
    fields = dict(config_json)
    fields.pop("version", None)
    config = TournamentConfig(**{**fields, "strategies": tuple(fields["strategies"]), "field": tuple(fields["field"])})
    write_chunk(Tournament(config), Path(out), chunk)
    return chunk


def probe_task(out: str) -> str:
    """Write and remove a file in the results folder; return the error text, or '' when writable."""
    path = Path(out) / f".probe-{uuid.uuid4().hex}"
    try:
        path.write_text("ok")
        path.unlink()
        return ""
    except OSError as e:
        return f"{type(e).__name__}: {e}"


def check_cluster_options(address: str | None, workers: int | None) -> None:
    """The --cluster / --workers flags, checked before any results folder is touched."""
    _require_dask()
    if (address is None) == (workers is None):
        raise UserError("give exactly one of --cluster ADDRESS and --workers N")
    if workers is not None and not 1 <= workers <= 64:
        raise UserError(f"--workers must be 1..64, got {workers}")


class Cluster:
    """A Dask client on an existing scheduler (`address`) or on a local cluster of `workers` processes."""

    def __init__(self, address: str | None = None, workers: int | None = None):
        check_cluster_options(address, workers)
        from dask.distributed import Client, LocalCluster
        self.local = None
        self.address = address
        if workers is not None:
            self.local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None, silence_logs=40)
            self.client = Client(self.local)
        else:
            try:
                self.client = Client(address, timeout="20s")
            except (OSError, TimeoutError) as e:
                raise UserError(f"cannot reach the Dask scheduler at {address}: {e}") from None

    def check_writable(self, out: Path) -> None:
        """Every worker must be able to write the results folder: a clear error, not a hang."""
        workers = list(self.client.scheduler_info()["workers"])
        if not workers:
            raise UserError("the Dask cluster has no workers")
        futures = [self.client.submit(probe_task, str(out), workers=[w], pure=False, allow_other_workers=False)
                   for w in workers]
        try:
            errors = self.client.gather(futures, errors="raise", direct=False)
        except Exception as e:  # a worker that cannot even run the probe
            raise UserError(f"the Dask workers cannot use the results folder {out}: {e}") from None
        bad = [(w, err) for w, err in zip(workers, errors) if err]
        if bad:
            raise UserError(f"worker {bad[0][0]} cannot write the results folder {out}: {bad[0][1]}")

    def run_tasks(self, out: Path, task, arguments: list[tuple], sizes: list[int], progress=None) -> None:
        """Run `task(*args)` for each argument tuple (each writes its own file into `out`)."""
        from dask.distributed import as_completed
        self.check_writable(out)
        futures = {self.client.submit(task, *args, key=f"idiotsim-{uuid.uuid4().hex}", retries=3): size
                   for args, size in zip(arguments, sizes)}
        for future in as_completed(futures):
            future.result()
            if progress:
                progress.advance(futures[future])
        _remove_stale_temporaries(out)

    def tournament_chunks(self, progress=None):
        """A `map_chunks` hook for ``run_tournament`` on this cluster."""
        def map_chunks(tournament, out, chunks):
            config = tournament.config.as_json()
            sizes = [tournament.chunk_range(c)[1] - tournament.chunk_range(c)[0] for c in chunks]
            self.run_tasks(out, tournament_chunk_task, [(config, str(out), c) for c in chunks], sizes, progress)
        return map_chunks

    def map_in_order(self, task, arguments, window: int | None = None):
        """Yield `task(*args)` for each argument tuple, in order, with a bounded number in flight."""
        from collections import deque
        window = window or 2 * max(1, len(self.client.scheduler_info()["workers"]))
        pending: deque = deque()
        for args in arguments:
            pending.append(self.client.submit(task, *args, key=f"idiotsim-{uuid.uuid4().hex}", retries=3))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    def close(self) -> None:
        self.client.close()
        if self.local is not None:
            self.local.close()


def _remove_stale_temporaries(out: Path) -> None:
    """Temporary files of attempts killed mid-write (their files were written again elsewhere)."""
    for tmp in list(out.glob(".*.tmp")) + list(out.glob(".staging-*/.*.tmp")):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def dask_map_chunks(address: str | None, workers: int | None, progress=None):
    """A `map_chunks` hook for ``run_tournament`` that plays the chunks on Dask."""
    def map_chunks(tournament, out, chunks):
        with_cluster(address, workers, lambda cluster: cluster.tournament_chunks(progress)(tournament, out, chunks))
    return map_chunks


def dask_map_run(address: str | None, workers: int | None):
    """A `map_chunks` hook for ``runner.run``: each task plays one chunk into the staging folder."""
    def map_chunks(out, tasks):
        sizes = [t[3] for t in tasks]
        with_cluster(address, workers, lambda cluster: cluster.run_tasks(out, run_chunk_task, tasks, sizes))
    return map_chunks


def with_cluster(address, workers, work):
    cluster = Cluster(address, workers)
    try:
        work(cluster)
    finally:
        cluster.close()


def run_chunk_task(rules_fields: dict, specs: list, seed: int, first_game: int, n_games: int, decks, path: str) -> str:
    """Play and write one chunk of `idiotsim run` on a worker."""
    import numba

    from idiotsim.runner import write_run_chunk
    numba.set_num_threads(1)
    write_run_chunk(rules_fields, specs, seed, first_game, n_games, decks, Path(path))
    return path
