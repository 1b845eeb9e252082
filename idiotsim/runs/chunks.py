"""The one chunk driver: `idiotsim run`, tournaments and experiments submit their chunks here.

A chunk task is a pure function of plain data (it may run on another machine).
An executor plays tasks and hands their results back in submission order:
``LocalExecutor`` in this process, one chunk after the other (the engine uses
every core within a chunk; a results file is written behind, while the next chunk
plays: ``write_behind``), or ``idiotsim.runs.dask_cluster.DaskExecutor`` on a Dask
cluster. Either way the results, and the files written, are bit-identical.

Chunks that produce results files go through ``write_chunk_files``: a chunk
whose file exists is skipped (so a rerun resumes), each file is written
atomically by whoever plays it, and the temporary files of killed writes are
removed. A chunk may return plain results and name the function that makes
its frame (``to_frame``): here the writer thread then converts them too.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Protocol, Sequence

from idiotsim.runs.atomic_files import remove_temporaries


class Executor(Protocol):
    def map_in_order(self, task: Callable, arguments: Iterable[tuple]) -> Iterator: ...

    def parallelism(self) -> tuple[int, str] | None:
        """How many engine threads play at once and what they are ("threads", "Dask workers"); None: this
        process's numba threads."""

    def check_writable(self, folder: Path) -> None: ...

    def close(self) -> None: ...


class LocalExecutor:
    """Plays each chunk here, in order."""

    def map_in_order(self, task: Callable, arguments: Iterable[tuple]) -> Iterator:
        for args in arguments:
            yield task(*args)

    def check_writable(self, folder: Path) -> None:
        """This process writes the files itself: an unwritable folder fails on the first write."""

    def parallelism(self) -> None:
        return None

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def executor_from_flags(cluster: str | None, workers: int | None) -> Executor:
    """The executor for the --cluster/--workers flags; a bad combination is a UserError.

    Touches no results folder and starts nothing: a Dask cluster is reached on first use.
    Use it as a context manager so the cluster is closed."""
    if cluster is None and workers is None:
        return LocalExecutor()
    from idiotsim.runs.dask_cluster import DaskExecutor
    return DaskExecutor(cluster, workers)


def parallelism(executor: Executor | None) -> tuple[int, str] | None:
    """The executor's parallelism, for a long run's estimate (None: here, on numba's threads)."""
    return None if executor is None else executor.parallelism()


def map_in_order(task: Callable, arguments: Iterable[tuple], executor: Executor | None = None) -> Iterator:
    """`task(*args)` for each argument tuple, in order, played by `executor` (default: here)."""
    return (executor or LocalExecutor()).map_in_order(task, arguments)


def write_chunk_files(make_frame: Callable, chunks: Sequence[tuple[Path, tuple]], executor: Executor | None = None,
                      on_written: Callable[[Path], None] | None = None, to_frame: Callable | None = None,
                      warm_up: Callable[[], object] | None = None) -> None:
    """Write the Parquet file `path` holding `make_frame(*args)` for each (path, args) not written yet
    (with `to_frame`, the frame `to_frame(make_frame(*args))`).

    `on_written(path)` is called for each new file in the order of `chunks`. Here (``LocalExecutor``),
    `warm_up()` runs on the writer thread while the first chunk plays: imports needed only afterwards."""
    executor = executor or LocalExecutor()
    folders = sorted({Path(path).parent for path, _ in chunks})
    for folder in folders:
        remove_temporaries(folder)
        executor.check_writable(folder)
    todo = [(str(path), make_frame, args) for path, args in chunks if not Path(path).exists()]
    if isinstance(executor, LocalExecutor):
        written = write_behind(todo, to_frame, warm_up)
    else:
        if to_frame is not None:
            todo = [(path, Converted(make_frame, to_frame), args) for path, make_frame, args in todo]
        written = executor.map_in_order(write_frame_task, todo)
    for path in written:
        if on_written:
            on_written(Path(path))
    for folder in folders:  # a lost worker's half-written attempt
        remove_temporaries(folder)


@dataclass(frozen=True)
class Converted:
    """`make_frame` then `to_frame`, as one chunk task (for an executor that plays a chunk elsewhere)."""
    make_frame: Callable
    to_frame: Callable

    def __call__(self, *args):
        return self.to_frame(self.make_frame(*args))


def write_behind(todo: list, to_frame: Callable | None = None, warm_up: Callable[[], object] | None = None
                 ) -> Iterator[str]:
    """Here, the chunks in order, each converted (``to_frame``) and written by a writer thread while the
    next one plays (the engine releases the GIL): the import of polars and the converting and writing of
    every file but the last overlap the play. Yields each path once its file is written; an error in
    playing, converting or writing stops the rest."""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(1, thread_name_prefix="idiotsim-writer") as writer:
        writer.submit(_import_writer)
        if warm_up is not None:
            writer.submit(warm_up)
        pending = None
        for path, make_frame, args in todo:
            played = make_frame(*args)
            if pending is not None:
                yield pending.result()
            pending = writer.submit(_write_frame, played, path, to_frame)
        if pending is not None:
            yield pending.result()


def _import_writer() -> None:
    import idiotsim.runs.game_results  # noqa: F401 (polars: imported while the first chunk plays)


def _write_frame(played, path: str, to_frame: Callable | None = None) -> str:
    from idiotsim.runs.game_results import write_parquet
    write_parquet(played if to_frame is None else to_frame(played), Path(path))
    return path


def write_frame_task(path: str, make_frame: Callable, args: tuple) -> str:
    """Play one chunk and write its rows to `path` (on whichever machine plays it)."""
    return _write_frame(make_frame(*args), path)
