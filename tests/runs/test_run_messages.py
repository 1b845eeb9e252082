"""What `run`, `tournament`, `summarize` and `report` say before and after the work (issue 51, item 6):

- a tournament whose strategy makes an illegal move keeps nothing: another configuration needs no
  --force afterwards, and the same command, once the strategy is fixed, plays every game with it;
- `summarize` of a folder that does not exist says so;
- a run estimated to take longer than an hour says its size and its estimated time before it starts, and
  goes on (runs resume after Ctrl-C: a long run is not a trap); a shorter one says nothing.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import cli_ok, cli_user_error, run_cli
from idiotsim.analysis import tournament_plots as plots
from idiotsim.runs import chunk_sizes
from idiotsim.runs import tournament as tm

BROKEN = '''\
from idiotsim.strategy_api import TURN, Strategy, decision, play_like_basic, strategy_function


@strategy_function
def decide(obs, hand, params, rng):
    if decision(obs) == TURN:
        return {turn}
    return play_like_basic(obs, hand)


MINE = Strategy(name="mine", decide=decide, description="a strategy being written")
'''


@pytest.fixture
def no_plots(monkeypatch):
    monkeypatch.setattr(plots, "write_plots", lambda summary, out_dir: [])


@pytest.mark.long(60)
def test_a_tournament_that_breaks_the_rules_keeps_nothing_that_blocks_the_next_run(capsys, tmp_path, no_plots):
    strategy = tmp_path / "mine.py"
    strategy.write_text(BROKEN.format(turn="9999"))  # no move has this code
    out = tmp_path / "t"
    command = ("tournament", "--out", out, "-s", f"{strategy}:MINE,basic", "--games", 400, "--chunk-games", 1000)
    line = cli_user_error(capsys, *command)
    assert "made an illegal move" in line and f"nothing of the tournament is kept in {out}" in line
    assert not out.exists()  # the command made the folder: it goes
    out.mkdir()
    line = cli_user_error(capsys, *command)
    assert out.is_dir() and list(out.iterdir()) == []  # a folder of the user's stays, empty as it was
    cli_ok(capsys, "tournament", "--out", out, "-s", "basic,random", "--games", 400)  # no --force needed
    strategy.write_text(BROKEN.format(turn="play_like_basic(obs, hand)"))  # fixed
    cli_ok(capsys, *command, "--force")  # replaces basic,random (another configuration)
    manifest = json.loads((out / tm.MANIFEST).read_text())
    assert manifest["config"]["strategies"] == [f"{strategy}:MINE", "basic"]
    assert len(manifest["finished_chunks"]) == manifest["chunks"]


def test_summarize_names_a_folder_that_does_not_exist(capsys, tmp_path):
    assert cli_user_error(capsys, "summarize", tmp_path / "nothere") == f"error: {tmp_path / 'nothere'} does not exist"
    (tmp_path / "file").write_text("x")
    assert "is not a folder" in cli_user_error(capsys, "summarize", tmp_path / "file")
    assert "holds no tournament" in cli_user_error(capsys, "summarize", tmp_path)


@pytest.mark.parametrize("games, basic_games, threads, words", [
    (10 ** 12, 10 ** 12, 2, "about 19 days on 2 threads"),
    (10 ** 9, 10 ** 9, 1, "about 56 minutes"),  # under an hour: nothing
    (10 ** 9, 3 * 10 ** 9, 1, "about 3 hours on 1 thread"),
    (10 ** 7, 10 ** 13, 2, "about 193 days"),  # slow players: the cost, not the count
])
def test_a_long_run_says_its_size_and_its_estimated_time(capsys, games, basic_games, threads, words):
    said = chunk_sizes.note_long_run(games, basic_games, parallelism=chunk_sizes.thread_parallelism(threads))
    err = capsys.readouterr().err
    if "minutes" in words:
        assert not said and err == ""
        assert chunk_sizes.duration_words(basic_games / (chunk_sizes.BASIC_GAMES_A_SECOND * threads)) == words
        return
    assert said and err.startswith(f"note: {games:,} games to play, {words}") and "Ctrl-C stops it" in err


def test_a_dask_cluster_estimates_on_its_workers(capsys, tmp_path, monkeypatch):
    """On a cluster the estimate counts its workers (one engine thread each), not this machine's threads."""
    from idiotsim.game.rules import Rules
    from idiotsim.runs import runner
    from idiotsim.runs.chunks import LocalExecutor
    from idiotsim.runs.dask_cluster import DaskExecutor
    from idiotsim.strategies.loading import load_strategy

    assert DaskExecutor(workers=3).parallelism() == (3, "Dask workers")  # known without starting the cluster
    assert chunk_sizes.note_long_run(10 ** 9, 3 * 10 ** 9, parallelism=chunk_sizes.thread_parallelism(1))  # 3 hours
    assert not chunk_sizes.note_long_run(10 ** 9, 3 * 10 ** 9, parallelism=(3, "Dask workers"))  # 56 minutes
    capsys.readouterr()

    class Cluster(LocalExecutor):  # plays here, counts as a cluster of 50 workers
        def parallelism(self):
            return 50, "Dask workers"

    monkeypatch.setattr(chunk_sizes, "BASIC_GAMES_A_SECOND", 0.0001)
    runner.run(Rules(players=2), [load_strategy("basic")] * 2, 1, 100, tmp_path / "out", executor=Cluster())
    err = capsys.readouterr().err
    assert err.startswith("note: 100 games to play, about 6 hours on 50 Dask workers ")  # 10,000 s a game / 50


@pytest.mark.parametrize("command", [
    ("run", "--players", 4, "--strategies", "basic", "--games", 2000),
    ("tournament", "-s", "basic,random", "--games", 2000),
])
def test_run_and_tournament_say_so_before_they_start_and_go_on(capsys, tmp_path, monkeypatch, no_plots, command):
    """A machine so slow that 2,000 games take hours: the note comes first, then the games are played."""
    monkeypatch.setattr(chunk_sizes, "BASIC_GAMES_A_SECOND", 0.1)
    code, out, err = run_cli(capsys, *command, "--out", tmp_path / "out", "--threads", 1)
    assert code == 0, err
    assert err.startswith("note: 2,000 games to play, about ") and " on 1 thread " in err
    assert "the same command goes on from there" in err
    assert "basic" in out  # played, and its table printed


SMALL = 'question = "q"\ntreatment = "basic"\ncontrol = "{control}"\nopponents = ["basic"]\nplayers = 2\ngames = 400\nseed = 1\n'


def test_report_says_so_too(capsys, tmp_path, monkeypatch):
    spec = tmp_path / "small.toml"
    spec.write_text(SMALL.format(control="heuristic:swap=2"))
    monkeypatch.setattr(chunk_sizes, "BASIC_GAMES_A_SECOND", 0.01)
    code, out, err = run_cli(capsys, "report", spec, "--out", tmp_path / "out")
    assert code == 0, err
    assert err.startswith("note: 400 games to play, about ") and err.splitlines()[0].endswith("Ctrl-C stops it")
    assert Path(tmp_path / "out" / "small.md").is_file()


def test_a_report_whose_every_deal_gives_the_same_difference_is_written(capsys, tmp_path):
    """basic against random at 2 players: basic wins every game, so the paired difference is -0.5 at every
    deal and its interval has no width (a division by that width was a traceback)."""
    spec = tmp_path / "small.toml"
    spec.write_text(SMALL.format(control="random"))
    code, out, err = run_cli(capsys, "report", spec, "--out", tmp_path / "out")
    assert code == 0 and "Traceback" not in err, err
    page = (tmp_path / "out" / "small.md").read_text()
    assert "half-width of the mean place difference is 0.0000: every deal gave the same difference." in page
