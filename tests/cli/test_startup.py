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

from idiotsim.cli import COMMANDS, coercion
from idiotsim.engine.batches import engine_seats
from idiotsim.strategies import registry

cli_app = importlib.import_module("idiotsim.cli.app")  # the module (the package's `app` is the typer app)

HEAVY = ("idiotsim.strategies.search.pimc", "idiotsim.strategies.search", "idiotsim.strategies.learned", "idiotsim.learn",
         "matplotlib", "pandas", "idiotsim.analysis.tournament_plots", "idiotsim.cli.analyze_command", "idiotsim.cli.learn_commands")


def modules_after(code: str) -> set:
    """The modules a fresh interpreter holds after running `code` (which may end in SystemExit, or in the
    console script's quick exit, which runs the exit handlers)."""
    script = ("import atexit, json, sys\natexit.register(lambda: print(json.dumps(sorted(sys.modules))))\n"
              f"try:\n    {code}\nexcept SystemExit as e:\n    assert not e.code, e.code\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def test_run_imports_no_search_learned_pandas_or_matplotlib(tmp_path):
    out = tmp_path / "run"
    argv = ["run", "--players", "3", "--strategies", "basic,weighted:pickup=-2,tuned-4p", "--games", "50",
            "--seed", "3", "--out", str(out)]
    loaded = modules_after(f"from idiotsim.cli import console; sys.argv = ['idiotsim'] + {argv!r}; console()")
    assert (out / "run.json").exists()  # the command really ran
    assert {"idiotsim.engine.drivers", "idiotsim.strategies.weighted", "polars"} <= loaded
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
    assert not [m for m in loaded if m.startswith(("matplotlib.", "pandas.", "idiotsim.learn."))]
    assert "pydantic" not in loaded  # every value of these options is plain (idiotsim.cli.coercion)


PLAIN_CASES = [(str, "results/x"), (str, ""), (str, " a b "), (str, "caf\u00e9"), (int, "0"), (int, "007"),
               (int, "123456789012345678"), (int, 5), (list[str], ("rounds=2", "players=3")), (list[str], [])]
OTHER_CASES = [(int, "-1"), (int, " 5"), (int, "5_0"), (int, "1.0"), (int, "1234567890123456789"), (int, "\u0663"),
               (int, True), (str, "bad\udcff"), (list[str], ("a", 1)), (float, "1.5")]


@pytest.mark.parametrize("annotation, value", PLAIN_CASES)
def test_a_plain_value_is_what_typers_validator_gives(annotation, value):
    pytest.importorskip("typer._adapters")  # typer's pydantic validators (typer 0.2x)
    from typer._adapters import try_build_adapter
    from typer.models import OptionInfo
    certain, result = coercion.plain_value(annotation, value)
    expected = try_build_adapter(annotation, OptionInfo()).validate_python(value)
    assert certain and result == expected and type(result) is type(expected)


@pytest.mark.parametrize("annotation, value", OTHER_CASES)
def test_any_other_value_is_left_to_typers_validator(annotation, value):
    assert coercion.plain_value(annotation, value) == (False, None)


def test_importing_the_command_line_imports_no_command_module():
    loaded = modules_after("import idiotsim.cli")
    commands = {f"idiotsim.cli.{source.partition(':')[0]}" for source in COMMANDS.values()}
    assert not loaded & commands, sorted(loaded & commands)
    assert "numba" not in loaded


def test_a_name_loads_only_its_family_module():
    loaded = modules_after("from idiotsim.strategies.loading import describe; describe('count-specials')")
    families = {f"idiotsim.strategies.{module}" for module in registry.FAMILY_MODULES}
    assert loaded & families == {"idiotsim.strategies.counter"}


@pytest.mark.parametrize("module", list(registry.FAMILY_MODULES))
def test_the_name_table_is_what_each_family_module_registers(module):
    _, names = registry.FAMILY_MODULES[module]
    families = registry.module_families(module)
    # a family's decision function is its module's own (`basic`'s lives with the rules, which both engines play)
    homes = {"basic": "idiotsim.game.basic_player"}
    assert all(family.decide.py_func.__module__ == homes.get(module, f"idiotsim.strategies.{module}")
               for family in families)
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


TEARDOWN_PROBE = """
import atexit, os, sys
class Probe:
    def __del__(self, write=os.write):
        write(2, b"torn down\\n")
probe = Probe()  # collected when the interpreter tears down __main__
atexit.register(lambda: print("exit handlers ran", file=sys.__stderr__, flush=True))
from idiotsim.cli import console
sys.argv = ["idiotsim"] + sys.argv[1:]
console()
"""


def console_script(*argv):
    return subprocess.run([sys.executable, "-c", TEARDOWN_PROBE, *argv], capture_output=True, text=True)


def test_a_finished_run_exits_without_the_interpreter_teardown_and_a_failed_one_as_usual(tmp_path):
    out = tmp_path / "run"
    done = console_script("run", "--games", "30", "--seed", "2", "--players", "3", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Placements (30 games") and done.stdout.endswith("\n")
    assert "stall rate:" in done.stdout
    assert done.stderr == "exit handlers ran\n"  # flushed, exit handlers run, no teardown
    assert (out / "run.json").exists() and len(list(out.glob("games-*.parquet"))) == 1
    assert not list(out.glob(".*")), list(out.glob(".*"))
    failed = console_script("run", "--games", "0", "--out", str(tmp_path / "other"))
    assert failed.returncode == 2
    assert failed.stderr == "error: --games must be 1..10**12, got 0\nexit handlers ran\ntorn down\n"


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


def test_a_run_removes_the_staging_folders_of_a_killed_run_of_the_same_output(tmp_path):
    from idiotsim.game.rules import Rules
    from idiotsim.runs.runner import STAGING_PREFIX, run
    from idiotsim.strategies.loading import load_strategies
    out = tmp_path / "run"
    stale = out / f"{STAGING_PREFIX}0123abcd"  # as kill -9 leaves it: a chunk written, never moved
    stale.mkdir(parents=True)
    (stale / "games-000000000000.parquet").write_bytes(b"half a run")
    (out / "notes.txt").write_text("kept")
    rules = Rules(players=2)
    run(rules, load_strategies("basic", 2), 1, 20, out, chunk_games=8)
    assert sorted(p.name for p in out.iterdir()) == ["games-000000000000.parquet", "games-000000000008.parquet",
                                                       "games-000000000016.parquet", "notes.txt", "run.json"]
