"""The numba cache folder is keyed by the source, so an edit of a callee never runs stale code."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from idiotsim.jit import PACKAGES, cache_dir, source_digest

ROOT = Path(__file__).resolve().parent.parent


def copy_sources(tmp_path: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_an_edit_in_any_source_file_changes_the_cache_folder(tmp_path):
    root = copy_sources(tmp_path / "src")
    before = cache_dir(root, {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert before.startswith(str(tmp_path / "cache" / "idiotsim" / "numba-"))
    assert cache_dir(root, {"XDG_CACHE_HOME": str(tmp_path / "cache")}) == before  # stable
    for edited in (root / "idiotsim" / "game" / "rng.py", root / "strategies" / "basic.py"):
        digest = source_digest(root)
        edited.write_text(edited.read_text() + "\n# an edit\n")
        assert source_digest(root) != digest, edited


def run_python(code: str, **env_changes) -> str:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(env_changes)
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()


def test_numba_uses_the_source_keyed_folder_unless_told_otherwise(tmp_path):
    show = "import numba, idiotsim; print(numba.config.CACHE_DIR)"
    expected = cache_dir(ROOT, {"XDG_CACHE_HOME": str(tmp_path)})
    assert run_python(show, XDG_CACHE_HOME=str(tmp_path)) == expected
    assert run_python("import idiotsim, numba; print(numba.config.CACHE_DIR)", XDG_CACHE_HOME=str(tmp_path)) == expected
    assert run_python(show, NUMBA_CACHE_DIR=str(tmp_path / "mine")) == str(tmp_path / "mine")
