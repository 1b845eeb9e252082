"""The installed package holds every subpackage (pyproject lists them, strategies/ maps to idiotsim.strategies)."""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_installed():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {"idiotsim"} | {f"idiotsim.{p.parent.name}" for p in (ROOT / "idiotsim").glob("*/__init__.py")}
    assert set(setuptools["packages"]) == found | {"idiotsim.strategies"}
    assert setuptools["package-dir"] == {"idiotsim.strategies": "strategies"}
    assert not (ROOT / "idiotsim" / "strategies").exists()  # one home: the top-level strategies/ folder
