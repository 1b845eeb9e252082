"""The one chunk driver (idiotsim.runs.chunks) and the one atomic write (idiotsim.runs.atomic_files).

- chunks come back in submission order, played here or by another executor;
- chunk files that exist are not played again (resume), new ones are reported in order;
- a write that fails leaves neither the file nor a temporary file, and an old file intact;
- temporary files of killed writes are removed before and after a batch;
- here, a writer thread converts (``to_frame``) and writes each chunk while the next one plays.
The same results on a Dask cluster: tests/runs/test_distributed.py.
"""
from __future__ import annotations

import threading
from pathlib import Path

import polars as pl
import pytest

from idiotsim.runs.chunks import LocalExecutor, executor_from_flags, map_in_order, write_chunk_files
from idiotsim.errors import UserError
from idiotsim.runs.atomic_files import remove_temporaries, write_atomic


def squares(first: int, count: int) -> pl.DataFrame:
    return pl.DataFrame({"x": list(range(first, first + count))}).with_columns((pl.col("x") ** 2).alias("x2"))


class RecordingExecutor:
    """Plays here, one task after the other (a LocalExecutor would write behind, see
    `test_writing_behind_keeps_the_order_and_stops_at_an_error`), and remembers what it was asked to
    play and which folders it checked."""

    def __init__(self):
        self.played, self.checked = [], []

    def map_in_order(self, task, arguments):
        for args in arguments:
            self.played.append(args)
            yield task(*args)

    def check_writable(self, folder: Path) -> None:
        self.checked.append(folder)


def test_map_in_order_keeps_the_order_and_is_lazy():
    seen = []

    def arguments():
        for k in range(5):
            seen.append(k)
            yield (k,)

    results = map_in_order(lambda k: k * 10, arguments())
    assert seen == []  # nothing is played before it is asked for
    assert list(results) == [0, 10, 20, 30, 40]


def test_no_flags_play_here():
    with executor_from_flags(None, None) as executor:
        assert isinstance(executor, LocalExecutor)
        assert list(executor.map_in_order(pow, [(2, 3), (3, 2)])) == [8, 9]


def test_bad_flags_are_user_errors_before_anything_starts():
    pytest.importorskip("dask.distributed")
    with pytest.raises(UserError, match="--workers must be 1..64"):
        executor_from_flags(None, 0)
    with pytest.raises(UserError, match="exactly one of --cluster"):
        executor_from_flags("tcp://127.0.0.1:1", 2)


def test_chunk_files_are_written_and_a_rerun_resumes(tmp_path):
    chunks = [(tmp_path / f"c{k}.parquet", (10 * k, 10)) for k in range(4)]
    written = []
    write_chunk_files(squares, chunks[:2], on_written=written.append)
    assert written == [tmp_path / "c0.parquet", tmp_path / "c1.parquet"]
    first = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    executor, written = RecordingExecutor(), []
    write_chunk_files(squares, chunks, executor, on_written=written.append)
    assert written == [tmp_path / "c2.parquet", tmp_path / "c3.parquet"]  # the finished ones are not played again
    assert [args for _, _, args in executor.played] == [(20, 10), (30, 10)]
    assert executor.checked == [tmp_path]
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name in first} == first
    frame = pl.concat([pl.read_parquet(p) for p, _ in chunks])
    assert frame["x"].to_list() == list(range(40)) and frame["x2"].to_list() == [x * x for x in range(40)]


def failing(first: int, count: int) -> pl.DataFrame:
    if first >= 10:
        raise RuntimeError("an illegal move")
    return squares(first, count)


def test_a_failing_chunk_leaves_no_partial_file(tmp_path):
    chunks = [(tmp_path / f"c{k}.parquet", (10 * k, 10)) for k in range(3)]
    with pytest.raises(RuntimeError, match="illegal move"):
        write_chunk_files(failing, chunks)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c0.parquet"]


def test_writing_behind_keeps_the_order_and_stops_at_an_error(tmp_path):
    played = []

    def frame_or_junk(first: int, count: int):
        played.append(first)
        return "not a frame" if first == 10 else squares(first, count)

    chunks = [(tmp_path / f"c{k}.parquet", (10 * k, 10)) for k in range(4)]
    written = []
    write_chunk_files(squares, chunks[2:], on_written=written.append)
    assert written == [tmp_path / "c2.parquet", tmp_path / "c3.parquet"]
    with pytest.raises(AttributeError):  # the writer thread's error, raised here
        write_chunk_files(frame_or_junk, chunks, on_written=written.append)
    assert written[2:] == [tmp_path / "c0.parquet"]
    assert played == [0, 10]  # chunk 1 played while chunk 0 was written; nothing after the failed write
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c0.parquet", "c2.parquet", "c3.parquet"]


def test_a_chunk_converted_by_to_frame_on_the_writer_thread_writes_the_same_bytes(tmp_path):
    converted_on = []

    def as_frame(played: tuple):
        converted_on.append(threading.current_thread().name)
        if played[0] == 20:
            raise ValueError("bad chunk")
        return squares(*played)

    def chunks(folder: str, count: int = 2):
        (tmp_path / folder).mkdir()
        return [(tmp_path / folder / f"c{k}.parquet", (10 * k, 10)) for k in range(count)]
    write_chunk_files(squares, chunks("direct"))
    write_chunk_files(lambda first, count: (first, count), chunks("converted"), to_frame=as_frame)
    write_chunk_files(lambda first, count: (first, count), chunks("elsewhere"), RecordingExecutor(), to_frame=as_frame)
    for name in ("c0.parquet", "c1.parquet"):
        direct = (tmp_path / "direct" / name).read_bytes()
        assert direct == (tmp_path / "converted" / name).read_bytes() == (tmp_path / "elsewhere" / name).read_bytes()
    assert [n.startswith("idiotsim-writer") for n in converted_on] == [True, True, False, False]
    with pytest.raises(ValueError, match="bad chunk"):  # a conversion's error, raised here
        write_chunk_files(lambda first, count: (first, count), chunks("failed", 3), to_frame=as_frame)
    assert sorted(p.name for p in (tmp_path / "failed").iterdir()) == ["c0.parquet", "c1.parquet"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "report.md"
    write_atomic(path, "old text\n")

    def half_then_crash(tmp: Path) -> None:
        tmp.write_text("half of the new")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomic(path, half_then_crash)
    assert path.read_text() == "old text\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_write_atomic_writes_text_or_through_a_function(tmp_path):
    assert write_atomic(tmp_path / "a.txt", "é\n").read_bytes() == "é\n".encode()
    write_atomic(tmp_path / "b.bin", lambda tmp: tmp.write_bytes(b"\x00\x01"))
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.bin"]


def test_temporaries_of_killed_writes_are_removed(tmp_path):
    (tmp_path / ".c1.parquet.0123abcd.tmp").write_bytes(b"half")
    (tmp_path / ".manifest.json.tmp").write_text("{")
    (tmp_path / "keep.parquet").write_bytes(b"x")
    remove_temporaries(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["keep.parquet"]
    (tmp_path / ".c2.parquet.0123abcd.tmp").write_bytes(b"half")
    write_chunk_files(squares, [(tmp_path / "c2.parquet", (0, 3))])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c2.parquet", "keep.parquet"]
