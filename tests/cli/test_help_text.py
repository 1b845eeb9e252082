"""What --help tells a person, one source for each fact (issue 43 item 6): usage lines written as command
lines write them, one default for every run seed (or none, said so), `deal --games` saying what deal does,
one list separator (`learn --collectors` reads the earlier ';' too)."""
from __future__ import annotations

import re

import pytest
import typer

from helpers import cli_user_error, run_cli
from idiotsim.cli import COMMANDS, app
from idiotsim.cli.learn_commands import collector_specs
from idiotsim.cli.options import DEFAULT_SEED


def command(name: str):
    group = typer.main.get_command(app)
    return group.get_command(typer.Context(group), name)


def help_text(capsys, monkeypatch, *args) -> str:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = run_cli(capsys, *args, "--help")
    assert code == 0, err
    return out


@pytest.mark.parametrize("name", list(COMMANDS))
def test_usage_lines_write_arguments_as_command_lines_do(capsys, monkeypatch, name):
    """`DIR` for a required argument, `[GAME_FILE]` for an optional one: never typer's `{DIR}` or the doubled
    `[[GAME_FILE]]`, in the usage line or in the arguments' panel (where no `<str>` type is shown either)."""
    out = help_text(capsys, monkeypatch, name)
    usage = next(line for line in out.splitlines() if "Usage:" in line).strip()
    assert re.fullmatch(rf"Usage: idiotsim {name} \[OPTIONS\]( [A-Z][A-Za-z_.]*| \[[A-Z][A-Za-z_.]*\](\.\.\.)?)*",
                        usage), usage
    assert not re.search(r"[{}]|\[\[|<str>|<list", out), out
    cmd = command(name)
    for param in cmd.get_params(typer.Context(cmd)):
        if param.param_type_name == "argument":
            shown = param.metavar or param.name.upper()
            assert (f" {shown}" if param.required else f" [{shown}]") in usage, usage


def test_every_default_run_seed_is_one_value_and_the_others_say_they_have_none(capsys, monkeypatch):
    defaults, without = {}, []
    for name in COMMANDS:
        for param in command(name).params:
            if param.name == "seed":
                if param.default is None:
                    without.append(name)
                    assert "Not given" in param.help, name
                else:
                    defaults[name] = param.default
    assert set(defaults) == {"run", "deal", "tournament", "optimize", "learn"}
    assert set(defaults.values()) == {DEFAULT_SEED}
    assert set(without) == {"play", "review", "trace", "analyze"}
    for name in defaults:
        assert f"[default: {DEFAULT_SEED}]" in help_text(capsys, monkeypatch, name)


def test_deal_help_says_it_deals(capsys, monkeypatch):
    out = help_text(capsys, monkeypatch, "deal")
    assert "Number of games to deal" in out and "to play" not in out


def test_collectors_are_comma_separated_and_the_earlier_semicolons_still_read():
    assert collector_specs("basic,search:rollouts=16,halving=1") == ("basic", "search:rollouts=16,halving=1")
    assert collector_specs("basic;search:rollouts=16,halving=1") == ("basic", "search:rollouts=16,halving=1")
    assert collector_specs("runs/it2/model.npz;search:rollouts=16;basic") == (
        "runs/it2/model.npz", "search:rollouts=16", "basic")  # a shipped model's recorded command


def test_collectors_help_and_a_bad_list(capsys, monkeypatch, tmp_path):
    out = help_text(capsys, monkeypatch, "learn")
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
