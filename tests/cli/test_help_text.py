"""What --help tells a person, one source for each fact (issue 43 item 6): usage lines written as command
lines write them, one default for every run seed (or none, said so), `deal --games` saying what deal does,
one list separator (`learn --collectors` reads the earlier ';' too)."""
from __future__ import annotations

import re

import pytest
import typer

from helpers import cli_user_error, command_paths, run_cli
from idiotsim.cli import app
from idiotsim.cli.learn_commands import collector_specs
from idiotsim.cli.options import DEFAULT_SEED


def command(path: tuple):
    found = typer.main.get_command(app)
    for name in path:
        found = found.get_command(typer.Context(found), name)
    return found


def help_text(capsys, monkeypatch, *args) -> str:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = run_cli(capsys, *args, "--help")
    assert code == 0, err
    return out


@pytest.mark.parametrize("path", command_paths(), ids=" ".join)
def test_usage_lines_write_arguments_as_command_lines_do(capsys, monkeypatch, path):
    """`DIR` for a required argument, `[GAME_FILE]` for an optional one: never typer's `{DIR}` or the doubled
    `[[GAME_FILE]]`, in the usage line or in the arguments' panel (where no `<str>` type is shown either)."""
    out = help_text(capsys, monkeypatch, *path)
    usage = next(line for line in out.splitlines() if "Usage:" in line).strip()
    assert re.fullmatch(rf"Usage: idiotsim {' '.join(path)} \[OPTIONS\]( [A-Z][A-Za-z_.]*| \[[A-Z][A-Za-z_.]*\](\.\.\.)?)*",
                        usage), usage
    assert not re.search(r"[{}]|\[\[|<str>|<list", out), out
    cmd = command(path)
    for param in cmd.get_params(typer.Context(cmd)):
        if param.param_type_name == "argument":
            shown = param.metavar or param.name.upper()
            assert (f" {shown}" if param.required else f" [{shown}]") in usage, usage


def test_every_default_run_seed_is_one_value_and_the_others_say_they_have_none(capsys, monkeypatch):
    defaults, without = {}, []
    for path in command_paths():
        name = " ".join(path)
        for param in command(path).params:
            if param.name in ("seed", "search_seed"):
                if param.default is None:
                    without.append(name)
                    assert "Not given" in param.help, name
                else:
                    defaults.setdefault(name, set()).add(param.default)
    assert set(defaults) == {"run", "deal", "tournament", "optimize", "learn generate", "learn train", "learn loop",
                             "review", "analyze"}  # the last two: --search-seed
    assert set().union(*defaults.values()) == {DEFAULT_SEED}
    assert set(without) == {"play", "review", "trace", "analyze"}
    for name in defaults:
        assert f"[default: {DEFAULT_SEED}]" in help_text(capsys, monkeypatch, *name.split())


def test_deal_help_says_it_deals(capsys, monkeypatch):
    out = help_text(capsys, monkeypatch, "deal")
    assert "Number of games to deal" in out and "to play" not in out


def test_collectors_are_comma_separated_and_the_earlier_semicolons_still_read():
    assert collector_specs("basic,search:rollouts=16,halving=1") == ("basic", "search:rollouts=16,halving=1")
    assert collector_specs("basic;search:rollouts=16,halving=1") == ("basic", "search:rollouts=16,halving=1")
    assert collector_specs("runs/it2/model.npz;search:rollouts=16;basic") == (
        "runs/it2/model.npz", "search:rollouts=16", "basic")  # a shipped model's recorded command


def test_collectors_help_and_a_bad_list(capsys, monkeypatch, tmp_path):
    out = help_text(capsys, monkeypatch, "learn", "generate")
    assert "A,B,..." in out and "A;B" not in out
    assert "empty strategy name" in cli_user_error(capsys, "learn", "generate", "--collectors", "basic,,random",
                                                   "--out", tmp_path / "d")
    assert "at least one strategy" in cli_user_error(capsys, "learn", "generate", "--collectors", " ",
                                                     "--out", tmp_path / "d")


def test_a_folder_made_with_another_seed_says_so(tmp_path):
    """optimize and learn defaulted to seed 1 before DEFAULT_SEED: resuming such a folder without --seed
    names the seed that differs (the folder's and the command's), not only "another configuration"."""
    from dataclasses import replace

    from idiotsim.errors import UserError
    from idiotsim.learn.generate import GenerateConfig, check_config
    from idiotsim.optimize import prepare_out_dir
    from idiotsim.optimize.config import OptimizeConfig

    data = tmp_path / "data"
    data.mkdir()
    check_config(data, GenerateConfig(seed=1))
    with pytest.raises(UserError, match=r"differs in: seed \(the folder's 1, now 0\)"):
        check_config(data, GenerateConfig(seed=DEFAULT_SEED))
    config = OptimizeConfig(strategy="weighted", players=3, seed=1)
    prepare_out_dir(tmp_path / "opt", config, force=False)
    with pytest.raises(UserError, match=r"differs in: players, seed \(the folder's 1, now 0\)"):
        prepare_out_dir(tmp_path / "opt", replace(config, seed=DEFAULT_SEED, players=4), force=False)


def test_learn_is_one_sub_command_per_job_each_with_its_own_options(capsys, monkeypatch, tmp_path):
    assert [path[1] for path in command_paths() if path[:1] == ("learn",) and len(path) == 2] == [
        "generate", "train", "evaluate", "loop", "page"]
    options = {job: {opt for param in command(("learn", job)).params for opt in param.opts}
               for job in ("generate", "train", "evaluate", "loop", "page")}
    assert "--kind" in options["train"] and "--kind" in options["loop"] and "--kind" not in options["generate"]
    assert "--collectors" not in options["train"] and "--data" not in options["loop"]
    assert options["page"] == {"--out", "-o"}
    line = cli_user_error(capsys, "learn", "generate", "--kind", "mlp", "--out", tmp_path / "d")
    assert "No such option: --kind" in line and "idiotsim learn generate --help" in line
    assert "--players must be 2..10, got 11" in cli_user_error(capsys, "learn", "evaluate", "--strategies", "basic",
                                                               "--players", "11", "--out", tmp_path / "e")
    assert "[default: (the search's K)]" in help_text(capsys, monkeypatch, "learn", "loop")
    from idiotsim.strategies.loading import load_strategy
    from idiotsim.strategies.search.search_knobs import K
    rollouts = next(p for p in command(("learn", "generate")).params if p.name == "rollouts")
    assert rollouts.get_default(typer.Context(command(("learn", "generate")))) == load_strategy("search").params[K.rollouts]


def test_every_learn_command_the_documents_give_names_a_job_and_its_options():
    """The README's examples and the learned page's regeneration commands stay runnable as written."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    given = []
    for name in ("README.md", "docs/strategies.md", "reports/learned.md"):
        text = (root / name).read_text(encoding="utf-8").replace("\\\n", " ")
        given += re.findall(r"idiotsim learn ([a-z]+)((?: +--?[a-z-]+(?: +(?!--)[^\s`#]+)?)*)", text)
    assert len(given) >= 15
    for job, options in given:
        known = {opt for param in command(("learn", job)).params for opt in param.opts}
        assert set(re.findall(r"--?[a-z-]+(?=\s|$)", options)) <= known, (job, options)
