"""The installed package holds every subpackage (pyproject lists them, strategies/ maps to idiotsim.strategies)."""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_installed():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {"idiotsim"} | {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "idiotsim").rglob("*/__init__.py")}
    found |= {"idiotsim." + ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "strategies").rglob("__init__.py")}
    assert set(setuptools["packages"]) == found
    assert setuptools["package-dir"] == {"idiotsim.strategies": "strategies"}
    assert not (ROOT / "idiotsim" / "strategies").exists()  # one home: the top-level strategies/ folder


def test_the_main_path_imports_no_optional_interop_dependency():
    """OpenSpiel, PettingZoo and Gymnasium are extras: only idiotsim.interop and an `openspiel:` spec import them."""
    import subprocess
    import sys
    code = ("import sys; from idiotsim.runs.tournament import run_tournament, TournamentConfig; "
            "import idiotsim.cli, idiotsim.runs.runner, idiotsim.analysis.tournament_summary, idiotsim.engine.batches, idiotsim.experiments.report_markdown; "
            "from idiotsim.strategy_api import load_strategy; load_strategy('basic'); "
            "print(sorted(m for m in ('pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium', 'idiotsim.interop') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
