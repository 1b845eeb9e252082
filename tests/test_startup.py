"""Start-up of the command line: a command imports only what it runs (`idiotsim run` of shipped engine-speed
strategies never imports the search, the learned player, pandas or matplotlib), the lazy registry names
every shipped strategy, the console script's paused garbage collector runs again once a command starts,
and the engine's seating is built without a large temporary. The figures of `idiotsim run` against the
engine are benchmarks/run.py's."""
from __future__ import annotations

import gc
import importlib
import json
import subprocess
import sys

import numpy as np
import pytest

from idiotsim.cli import COMMANDS
from idiotsim.simulate import engine_seats
from idiotsim.strategies import registry

cli_app = importlib.import_module("idiotsim.cli.app")  # the module (the package's `app` is the typer app)

HEAVY = ("idiotsim.search", "idiotsim.strategies.search", "idiotsim.strategies.learned", "idiotsim.learn",
         "matplotlib", "pandas", "idiotsim.plots", "idiotsim.cli.analyze", "idiotsim.cli.learn")


def modules_after(code: str) -> set:
    """The modules a fresh interpreter holds after running `code` (which may end in SystemExit)."""
    script = (f"import json, sys\ntry:\n    {code}\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
              "print(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def test_run_imports_no_search_learned_pandas_or_matplotlib(tmp_path):
    out = tmp_path / "run"
    argv = ["run", "--players", "3", "--strategies", "basic,weighted:pickup=-2,tuned-4p", "--games", "50",
            "--seed", "3", "--out", str(out)]
    loaded = modules_after(f"from idiotsim.cli import console; sys.argv = ['idiotsim'] + {argv!r}; console()")
    assert (out / "run.json").exists()  # the command really ran
    assert {"idiotsim.engine", "idiotsim.strategies.weighted", "polars"} <= loaded
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
    assert not [m for m in loaded if m.startswith(("matplotlib.", "pandas.", "idiotsim.learn."))]


def test_importing_the_command_line_imports_no_command_module():
    loaded = modules_after("import idiotsim.cli")
    commands = {f"idiotsim.cli.{source.partition(':')[0]}" for source in COMMANDS.values()}
    assert not loaded & commands, sorted(loaded & commands)
    assert "numba" not in loaded


def test_a_name_loads_only_its_family_module():
    loaded = modules_after("from idiotsim.strategy_api import describe; describe('count-specials')")
    families = {f"idiotsim.strategies.{module}" for module in registry.FAMILY_MODULES}
    assert loaded & families == {"idiotsim.strategies.counter"}


@pytest.mark.parametrize("module", list(registry.FAMILY_MODULES))
def test_the_name_table_is_what_each_family_module_registers(module):
    _, names = registry.FAMILY_MODULES[module]
    families = registry.module_families(module)
    assert all(family.decide.py_func.__module__ == f"idiotsim.strategies.{module}" for family in families)
    assert tuple(registry.names_of(families)) == names
    assert all(registry.family_of(name) is registry.names_of(families)[name] for name in names)


def test_the_registry_is_the_name_table_in_order():
    assert tuple(registry.STRATEGIES) == registry.NAMES
    assert dict(registry.STRATEGIES.items()) == registry.names_of(registry.FAMILIES)
    assert "no-such-strategy" not in registry.STRATEGIES and registry.STRATEGIES.get("no-such-strategy") is None


def test_an_unknown_name_still_lists_every_shipped_name(capsys):
    from helpers import cli_user_error
    line = cli_user_error(capsys, "run", "--out", "x", "--games", "1", "--strategies", "nosuch")
    assert line == f"error: unknown strategy 'nosuch'; available: {', '.join(sorted(registry.NAMES))}"


def console_exit_code(monkeypatch, *argv) -> int:
    monkeypatch.setattr(sys, "argv", ["idiotsim", *argv])
    with pytest.raises(SystemExit) as exit_:
        cli_app.console()
    return exit_.value.code


def test_the_console_script_collects_garbage_again_once_the_command_runs(monkeypatch, capsys):
    seen = {}
    real = cli_app._end_of_start_up

    def end_of_start_up():
        seen.setdefault("paused at the command's start", not gc.isenabled())
        real()
    monkeypatch.setattr(cli_app, "_end_of_start_up", end_of_start_up)
    try:
        assert console_exit_code(monkeypatch, "deal", "--games", "1") == 0
        assert seen == {"paused at the command's start": True}
        assert gc.isenabled() and gc.get_freeze_count() > 0
        gc.unfreeze()
        assert console_exit_code(monkeypatch, "deal", "--bogus") == 2  # a command that never starts
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()
    assert capsys.readouterr().err == "error: No such option: --bogus (see 'idiotsim deal --help')\n"


@pytest.mark.parametrize("index", [[0, 1, 2, 3], [0, 0, 0, 0], [0, 1, 0, 2], [2, 0, 1, 1]])
def test_engine_seats_is_the_gather_of_the_seating(index):
    index = np.array(index, dtype=np.int64)
    seating = np.random.default_rng(7).integers(0, 4, size=(300, 4)).astype(np.int8)
    seats = engine_seats(index, seating)
    assert seats.dtype == np.int8 and seats.flags.c_contiguous and np.array_equal(seats, index[seating])
