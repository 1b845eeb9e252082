"""How idiotsim's numba code is compiled: the ``kernel`` decorator and where the compiled code is cached.

``kernel`` compiles a function that allocates nothing with numba's reference
counting turned off (``_nrt=False``). Numba otherwise wraps every array passed
to a helper in atomic reference-count updates, which cost more than the game
logic itself (README, "Design"). A kernel cannot create arrays or lists; functions that do use plain ``njit``.
The numpy error model drops Python's zero-division checks from `%` and `//`.

The cache. Numba checks only the timestamp of a function's own file before it
loads the function from its cache, not the files of what it calls or inlines.
After an edit of a helper (the toolkit), the random streams (``game.rng``) or
the observation layout, a cached engine or strategy would run stale machine
code. So, unless ``NUMBA_CACHE_DIR`` is set, the cache lives in
``~/.cache/idiotsim/numba-<hash of every idiotsim and strategies source file>``
(``$XDG_CACHE_HOME`` instead of ``~/.cache`` when set): any edit there starts a
fresh cache. User strategy files only import that code, so they are covered.

This module imports numba only when the first kernel is compiled: ``import idiotsim``
sets the cache folder (`use_source_keyed_cache`) before anything imports numba.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

PACKAGES = ("idiotsim", "strategies")  # source folders; strategies/ is installed as idiotsim.strategies


def kernel(*args, **options):
    from numba import njit
    _quiet_first_class_warning()
    return njit(*args, cache=True, _nrt=False, error_model="numpy", **options)


def _quiet_first_class_warning() -> None:
    """Strategies are first-class functions by design; numba labels that feature experimental on every compile."""
    import warnings

    from numba.core.errors import NumbaExperimentalFeatureWarning
    warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


def source_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for package in PACKAGES:
        folder = root / package
        for path in sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts):
            digest.update(f"{package}/{path.relative_to(folder).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir(root: Path, environ=os.environ) -> str:
    base = Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return str(base / "idiotsim" / f"numba-{source_digest(root)}")


def use_source_keyed_cache() -> None:
    """Point numba's cache at `cache_dir` unless the user chose one (set before numba is imported;
    child processes such as Dask workers inherit it)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    os.environ["NUMBA_CACHE_DIR"] = cache_dir(Path(__file__).resolve().parent.parent)
    if "numba" in sys.modules:  # imported before idiotsim: its config is already read
        sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
