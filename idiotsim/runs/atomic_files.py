"""The one way files are written (to a temporary name in the same folder, then renamed into place)
and results folders are created."""
from __future__ import annotations

import os
import tempfile
import uuid
from pathlib import Path
from typing import Callable

from idiotsim.errors import UserError

TEMPORARY_SUFFIX = ".tmp"


def write_atomic(path: Path, content: str | Callable[[Path], object]) -> Path:
    """Write `content` (text, or a function that writes the file at the path it is given) to `path`.

    A reader never sees half a file and a failed write leaves none behind. The temporary name is
    unique, so two attempts at the same file (a retried Dask task) never write into one another."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}{TEMPORARY_SUFFIX}")
    try:
        if isinstance(content, str):
            tmp.write_text(content, encoding="utf-8")
        else:
            content(tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


def remove_temporaries(folder: Path) -> None:
    """Temporary files of writes killed midway (a crashed run or a lost worker)."""
    for tmp in Path(folder).glob(f".*{TEMPORARY_SUFFIX}"):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def make_folder(path: Path, option: str = "--out") -> Path:
    """Create a results folder (and its parents); a folder that cannot be created is a UserError."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot create the {option} folder {path}: {e.strerror or e}") from None
    return path


def check_out_folder(out: str | Path) -> None:
    """A one-line error now, instead of a traceback later, when the --out folder cannot be
    made or written to. Leaves nothing behind: the command itself creates what it writes."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise UserError(f"--out {path} exists and is not a folder")
    missing = [folder for folder in (path, *path.parents) if not folder.exists()]  # deepest first
    try:
        _create_and_write(path)
    finally:
        for folder in missing:
            try:
                folder.rmdir()
            except OSError:
                pass


def _create_and_write(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        where = "" if e.filename in (None, str(path)) else f" ({e.filename})"
        raise UserError(f"cannot create the --out folder {path}: {e.strerror}{where}") from None
    try:
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as e:
        raise UserError(f"cannot write into the --out folder {path}: {e.strerror}") from None
