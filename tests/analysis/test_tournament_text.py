"""What a tournament's summary says beside its numbers (idiotsim.analysis.tournament_summary, the terminal's
tables in idiotsim.cli.render, the leaderboard page):

- a strategy that stalls 5% or more of its games gets a warning line in the summary's opening and under the
  strategy (placement) table, on the page and in the terminal; `run`'s placements warn the same way;
- a difference whose 95% CI excludes 0 but whose Holm-adjusted p-value does not call it says why, wherever it
  is printed as "not significantly different" or "n.s.".
"""
from __future__ import annotations

import dataclasses
import io

import polars as pl
import pytest

from idiotsim.analysis.stats import UNADJUSTED_ONLY
from idiotsim.analysis.tournament_summary import STALL_WARNING, summarize, to_markdown
from idiotsim.cli.render import console, print_placements, print_summary, ranking_table
from idiotsim.runs.tournament import TournamentConfig, run_tournament


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A real summary of basic against random (200 games), its folder."""
    out = tmp_path_factory.mktemp("t") / "t"
    run_tournament(TournamentConfig(strategies=("basic", "random"), players=4, games=200, seed=3), out)
    return summarize(out), out


def with_stalls(summary, rates: dict):
    """The summary with these strategies' stall rates."""
    table = summary.strategies.with_columns(
        pl.col("strategy").replace_strict(rates, default=None, return_dtype=pl.Float64).fill_null(pl.col("stall_rate"))
        .alias("stall_rate"))
    return dataclasses.replace(summary, strategies=table)


def printed(function, *args) -> str:
    buffer = io.StringIO()
    function(*args, out=console(file=buffer, width=100))
    return buffer.getvalue()


def test_a_strategy_that_stalls_5_percent_of_its_games_is_named_in_a_warning(played):
    summary, out = played
    quiet = to_markdown(summary)
    assert "Warning" not in quiet and "Warning" not in printed(print_summary, summary, out)
    summary = with_stalls(summary, {"random": 0.53})
    page = to_markdown(summary).splitlines()
    warnings = [i for i, line in enumerate(page) if line.startswith("Warning: random stalls 53.0% of its games")]
    table_end = max(i for i, line in enumerate(page) if line.startswith("| 2 | random"))
    assert len(warnings) == 2 and warnings[0] < page.index("## Strategies") and warnings[1] == table_end + 2
    terminal = printed(print_summary, summary, out)
    assert terminal.count("Warning: random stalls 53.0% of its games") == 2
    just_under = with_stalls(summary, {"random": STALL_WARNING - 1e-6})
    assert "Warning" not in to_markdown(just_under)


def test_run_placements_warn_when_games_stall(played):
    frame = pl.DataFrame(dict(seat=[0, 1], strategy=["mine", "basic"], games=[100, 100], mean_place=[1.4, 1.6],
                              win_rate=[0.6, 0.4], idiot_rate=[0.4, 0.6], stall_rate=[0.07, 0.07]))
    assert "Warning: 7.0% of the games stalled" in printed(print_placements, frame, "runs/a")
    assert "Warning" not in printed(print_placements, frame.with_columns(stall_rate=pl.lit(0.01)), "runs/a")


def test_a_difference_excluding_0_that_holm_does_not_call_says_why(played):
    summary, out = played
    row = summary.differences.row(0, named=True)
    summary = dataclasses.replace(summary, differences=pl.DataFrame(
        [{**row, "difference": 0.0036, "lo": 0.0003, "hi": 0.0070, "p": 0.028, "p_holm": 0.447, "significant": False}],
        schema=summary.differences.schema))
    page = to_markdown(summary)
    line = next(line for line in page.splitlines() if "not significantly different from" in line)
    assert line.endswith(f"Holm p = 0.4470 ({UNADJUSTED_ONLY})"), line
    assert "n.s. after Holm" in printed(lambda s, out: out.print(ranking_table(out, s)), summary)
    summary = dataclasses.replace(summary, differences=summary.differences.with_columns(lo=pl.lit(-0.0003)))
    assert UNADJUSTED_ONLY not in to_markdown(summary)  # a CI reaching 0: nothing to explain
