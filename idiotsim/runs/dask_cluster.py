"""Running chunks on a Dask distributed cluster (optional extra: ``pip install idiotsim[dask]``).

``DaskExecutor`` is the executor of ``idiotsim.runs.chunks`` on a cluster. A task is
a pure function of plain data; it plays its games on one worker thread, and a
task that writes a results file writes it into the shared results folder
itself (temporary name, then rename). A chunk replayed after a lost worker
rewrites the same bytes, so nothing is lost or counted twice. Nothing here is
imported on the single-machine path.
"""
from __future__ import annotations

import uuid
from pathlib import Path

from idiotsim.errors import UserError



def _require_dask():
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise UserError("--cluster/--workers need Dask: pip install 'idiotsim[dask]'") from None


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


class DaskExecutor:
    """Plays chunks on a Dask scheduler (`address`) or a local cluster of `workers` processes.

    The flags are checked here; the cluster is reached on first use, so a bad flag fails
    before anything starts and nothing starts for a command that fails earlier."""

    connect_timeout = "20s"  # to reach a scheduler

    def __init__(self, address: str | None = None, workers: int | None = None):
        check_cluster_options(address, workers)
        self.address, self.workers = address, workers
        self.local = None
        self._client = None

    @property
    def client(self):
        if self._client is None:
            self._client = self._connect()
        return self._client

    def _connect(self):
        from dask.distributed import Client, LocalCluster
        if self.workers is not None:
            self.local = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None, silence_logs=40)
            return Client(self.local)
        try:
            return Client(self.address, timeout=self.connect_timeout)
        except (OSError, TimeoutError) as e:
            raise UserError(f"cannot reach the Dask scheduler at {self.address}: {e}") from None

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

    def parallelism(self) -> tuple[int, str]:
        """Its workers, each one engine thread (``run_on_worker``); a scheduler's are counted when reached."""
        count = self.workers if self.workers is not None else len(self.client.scheduler_info()["workers"])
        return max(1, count), "Dask workers" if count != 1 else "Dask worker"

    def map_in_order(self, task, arguments, window: int | None = None):
        """Yield `task(*args)` for each argument tuple, in order, with a bounded number in flight.

        A task lost with its worker is run again elsewhere (retries)."""
        from collections import deque
        window = window or 2 * max(1, len(self.client.scheduler_info()["workers"]))
        pending: deque = deque()
        for args in arguments:
            pending.append(self.client.submit(run_on_worker, task, *args, key=f"idiotsim-{uuid.uuid4().hex}",
                                              retries=3))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        if self.local is not None:
            self.local.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def run_on_worker(task, *args):
    """One engine thread per worker process: the cluster's parallelism is its workers."""
    import numba
    numba.set_num_threads(1)
    return task(*args)
