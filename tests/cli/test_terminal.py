"""What the commands print for a person (idiotsim.cli.render) and their --help.

The tables are built from summaries made by the library's own functions on made-up per-cluster sums
(no games, so the 26-strategy case costs nothing); one piped run of the console script checks the plain
text a pipe gets.
"""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from rich.text import Text

from helpers import command_paths, run_cli
from idiotsim.analysis import tournament_summary as summary_mod
from idiotsim.cli import render
from idiotsim.analysis.stats import Interval
from idiotsim.strategies.loading import engine_speed_names
from idiotsim.analysis.tournament_summary import fmt_ci

BOX_DRAWING = re.compile("[\u2500-\u257f]")
ESCAPE = "\x1b"
COLOUR_SWITCHES = ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")  # rich reads these


@pytest.fixture(autouse=True)
def no_colour_switches(monkeypatch):
    """A pipe is plain unless the environment forces colour: these tests start from none of rich's switches."""
    for name in COLOUR_SWITCHES:
        monkeypatch.delenv(name, raising=False)


def made_up_summary(names: list[str], players: int = 4, seed: int = 0, clusters: int = 12) -> summary_mod.Summary:
    """A Summary from the library's table functions on random per-cluster sums: strategy i is better than
    i + 1, except that strategies 1 and 2 are equal, so the ranking has both verdicts. One cluster: no
    intervals (as in a tournament of one block)."""
    rng = np.random.default_rng(seed)
    seat_games = 400
    rows = []
    for i, name in enumerate(names):
        skill = 1 + (players - 1) * (i - (i >= 2)) / max(1, len(names) - 1)
        for c in range(clusters):
            place = rng.normal(skill, 0.4, seat_games).clip(1, players)
            rows.append(dict(strategy=name, cluster=c, n=seat_games, place_sum=float(place.sum()),
                             wins=float((place < 1.5).sum()), idiots=float((place > players - 0.5).sum()),
                             stalls=0))
    per_cluster = pl.DataFrame(rows)
    strategies = summary_mod.strategy_table(per_cluster)
    pairs = pl.DataFrame([dict(a=a, b=b, cluster=c, y=float(rng.binomial(100, 0.7 if i < j else 0.3)), n=100)
                          for i, a in enumerate(names) for j, b in enumerate(names) if a != b
                          for c in range(clusters)])
    seats = pl.DataFrame({"cluster": range(clusters), "games": [seat_games] * clusters,
                          **{f"win_{s}": rng.binomial(seat_games, 1 / players, clusters).astype(float)
                             for s in range(players)}})
    empty = pl.DataFrame()
    return summary_mod.Summary(players, seat_games * clusters, strategies,
                               summary_mod.differences(strategies, per_cluster),
                               summary_mod.head_to_head_table(pairs), summary_mod.seat_table(seats), empty, empty,
                               (104.2, 103.9, 104.5), 100.0, empty, Interval(0.0, 0.0, 0.0), [])


def rendered(summary, width: int, terminal: bool = False) -> str:
    buffer = io.StringIO()
    out = render.console(file=buffer, width=width)
    if terminal:
        out = render.Console(file=buffer, width=width, force_terminal=True, highlight=False, markup=False)
    render.print_summary(summary, "results/t", out)
    return buffer.getvalue()


def visible_lines(text: str) -> list[str]:
    return [Text.from_ansi(line).plain for line in text.splitlines()]


def assert_fits(text: str, width: int) -> None:
    too_wide = [line for line in visible_lines(text) if len(line) > width]
    assert not too_wide, too_wide


def strategy_figures(summary) -> list[str]:
    """Every strategy's mean place, win and Idiot rates and their intervals, as the Markdown prints them."""
    figures = []
    for r in summary.strategies.iter_rows(named=True):
        for text in (fmt_ci(r["mean_place"], r["mean_place_lo"], r["mean_place_hi"]),
                     fmt_ci(r["win_rate"], r["win_lo"], r["win_hi"], pct=True),
                     fmt_ci(r["idiot_rate"], r["idiot_lo"], r["idiot_hi"], pct=True)):
            value, interval = text.split(" (")
            figures += [value, "(" + interval]
    return figures


def test_summary_tables_fit_80_columns_and_carry_the_figures():
    summary = made_up_summary(["basic", "heuristic-tuned-4p", "counter", "random"])
    text = rendered(summary, 80)
    assert_fits(text, 80)
    assert ESCAPE not in text and not BOX_DRAWING.search(text)  # a StringIO is not a terminal: plain
    for figure in strategy_figures(summary):
        assert figure in text, figure
    for r in summary.differences.iter_rows(named=True):  # every ranking line, with its verdict
        line = next(l for l in text.splitlines() if l.split()[:2] == [r["better"], r["worse"]])
        assert fmt_ci(r["difference"], r["lo"], r["hi"]).split(" (")[0] in line
        assert ("ahead" if r["significant"] else "n.s.") in line
    assert {"ahead", "n.s."} <= set(text.split())
    head = text[text.index("Strategies"):text.index("-----")]
    assert head.count("(95% CI)") == 3  # mean place, win and Idiot rates
    for r in summary.seats.iter_rows(named=True):
        assert fmt_ci(r["win_rate"], r["lo"], r["hi"], pct=True) in text
    assert "Markdown" not in text and "|---" not in text
    assert "mean length 104.20 (103.90 to 104.50) actions" in " ".join(text.split())


def test_prose_wraps_between_words_never_inside_an_interval():
    sentence = ("The `spend-twos` strategy ranks first with mean place 2.334 (2.301 to 2.367) and win rate "
                "29.14% (28.50% to 29.80%) against `tuned-3p`, difference 0.013 (-0.004 to 0.030).")
    for width in range(30, 81):
        buffer = io.StringIO()
        render.paragraph(render.console(file=buffer, width=width), sentence)
        text = buffer.getvalue()
        assert_fits(text, width)
        assert " ".join(text.split()) == sentence.replace("`", "")
        for interval in ("(2.301 to 2.367)", "(28.50% to 29.80%)", "(-0.004 to 0.030)"):
            assert interval in text, (width, text)


def test_a_wide_terminal_gets_one_line_cells_and_the_head_to_head_matrix():
    summary = made_up_summary(["basic", "counter", "random"])
    text = rendered(summary, 200, terminal=True)
    assert ESCAPE in text and BOX_DRAWING.search(text)  # a terminal: ruled and bold
    assert_fits(text, 200)
    top = summary.strategies.row(0, named=True)
    assert fmt_ci(top["mean_place"], top["mean_place_lo"], top["mean_place_hi"]) in text  # on one line
    h2h = summary.head_to_head.row(0, named=True)
    assert fmt_ci(h2h["a_ahead"], h2h["lo"], h2h["hi"]) in text
    assert "too wide" not in text


def test_four_long_names_get_the_matrix_by_rank_with_a_key_at_80_columns():
    names = ["learned-search-4p", "heuristic-tuned-4p", "learned-fast-4p", "random"]
    summary = made_up_summary(names)
    for terminal in (False, True):
        text = rendered(summary, 80, terminal=terminal)
        assert_fits(text, 80)
        assert "too wide" not in text
        plain = "\n".join(visible_lines(text))
        ranked = summary.strategies["strategy"].to_list()
        key = " ".join(plain[plain.index("Rows and columns by rank:"):].split())
        assert key.startswith("Rows and columns by rank: " + ", ".join(f"{i + 1} {n}" for i, n in enumerate(ranked)))
        matrix = plain[plain.index("Rows and columns by rank:"):plain.index("Seat advantage")]
        for r in summary.head_to_head.iter_rows(named=True):
            value, interval = fmt_ci(r["a_ahead"], r["lo"], r["hi"]).split(" (")
            row = ranked.index(r["a"]) + 1
            lines = [l for l in matrix.splitlines() if l.startswith(f"{row} ")]
            assert len(lines) == 1 and value in lines[0], (r, lines)
            assert "(" + interval in matrix
    wide = rendered(summary, 200)
    assert "Rows and columns by rank" not in wide and f"1 {ranked[0]}" in wide  # room for the names: no key


def test_the_26_strategy_demo_falls_back_to_the_pointer_at_80_and_200_columns():
    names = engine_speed_names()
    assert len(names) >= 20
    summary = made_up_summary(names)
    for width in (80, 200):
        text = rendered(summary, width)
        assert_fits(text, width)
        assert f"Head to head ({len(names)} x {len(names)}): too wide for {width} columns" in text
        assert "results/t/summary.md" in text and "results/t/head_to_head.png" in text
        for figure in strategy_figures(summary):
            assert figure in text, figure
        assert len(text.splitlines()) < 200


def test_no_color_makes_a_terminal_plain(monkeypatch):
    monkeypatch.setattr(render.Console, "is_terminal", property(lambda self: True))
    summary = made_up_summary(["basic", "random"])
    for no_color, plain in (("1", True), ("", False)):  # no-color.org: an empty value does not count
        monkeypatch.setenv("NO_COLOR", no_color)
        buffer = io.StringIO()
        render.print_summary(summary, "results/t", render.console(file=buffer, width=80))
        assert (ESCAPE not in buffer.getvalue() and not BOX_DRAWING.search(buffer.getvalue())) == plain


@pytest.mark.long(10)
def test_a_piped_summarize_prints_plain_text(tmp_path):
    from test_tournament import write_hand_tournament
    folder = tmp_path / "hand"
    write_hand_tournament(folder)
    script = Path(sys.executable).parent / "idiotsim"
    env = {k: v for k, v in os.environ.items() if k not in COLOUR_SWITCHES} | {"COLUMNS": "80"}
    done = subprocess.run([str(script), "summarize", str(folder)], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert ESCAPE not in done.stdout and not BOX_DRAWING.search(done.stdout)
    assert_fits(done.stdout, 80)
    assert "Strategies" in done.stdout and "Seat advantage" in done.stdout and "|---" not in done.stdout
    assert "1.500" in done.stdout  # A's mean place, 9/6 (test_tournament's HAND_GAMES)
    assert "| 1 | A | 6 |" in (folder / "summary.md").read_text()  # the file stays Markdown


# ---- --help -------------------------------------------------------------------------------------------

def help_text(capsys, monkeypatch, width: int, *command) -> str:
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = run_cli(capsys, *command, "--help")
    assert code == 0, err
    return out


def early_breaks(text: str, width: int) -> list[str]:
    """Lines that end although the next line's first word would have fitted on them: a hard line break
    inside a paragraph (rich wraps greedily, so a soft wrap never leaves room for the next word).

    In a panel (`│ ... │`) a line continues the one above when it starts in the help column, past where
    a row's name (option, command, argument) starts; outside, a line continues the one above when both
    hold text."""
    broken = []
    lines = [line.rstrip() for line in text.splitlines()]
    for above, below in zip(lines, lines[1:]):
        panel = above.startswith("│") and below.startswith("│")
        if panel:
            inner_above, inner_below = above[1:].rstrip("│").rstrip(), below[1:].rstrip("│").rstrip()
            start = len(inner_below) - len(inner_below.lstrip())
            if not inner_above.strip() or not inner_below.strip() or start < ROW_START_MAX:
                continue
            end, right, word = 1 + len(inner_above), width - 2, inner_below.split()[0]  # border, padding
        elif above.strip() and below.strip() and not above.startswith(("╭", "│", "╰")) and \
                not below.startswith(("╭", "│", "╰")) and not above.lstrip().startswith("Usage:"):
            end, right, word = len(above), width - 1, below.split()[0]
        else:
            continue
        if word.startswith(TYPER_NOTES):  # typer sets these beside the help, in a column of their own
            continue
        if end + 1 + len(word) <= right:
            broken.append(f"{above!r} / {below!r}")
    return broken


ROW_START_MAX = 8  # a panel row's name starts in column 1..4 (after typer's `*` of a required option)
TYPER_NOTES = ("[default:", "[required]", "[env var:")


@pytest.mark.parametrize("width", [80, 200])
def test_help_is_never_broken_mid_sentence(capsys, monkeypatch, width):
    for command in [()] + command_paths():
        text = help_text(capsys, monkeypatch, width, *command)
        assert_fits(text, width)
        assert not early_breaks(text, width), (command, early_breaks(text, width))


def test_the_break_check_finds_the_hard_line_break_that_unwrapped_help_removes():
    import typer
    from typer.testing import CliRunner

    from idiotsim.cli.app import Command, unwrapped_help
    doc = """Say hello to the table: a sentence long enough to matter,
    broken here by a hard line break although it would fit.

    A second paragraph, also broken
    in the middle."""
    demo = typer.Typer(add_completion=False)
    demo.command("raw", cls=Command, help=doc)(lambda: None)
    demo.command("mended", cls=Command, help=unwrapped_help(doc))(lambda: None)
    for width in (80, 200):
        raw, mended = (CliRunner().invoke(demo, [name, "--help"], env={"COLUMNS": str(width)}).output
                       for name in ("raw", "mended"))
        assert early_breaks(raw, width) and not early_breaks(mended, width), (raw, mended)
        assert "sentence long enough to matter, broken here" in " ".join(mended.split())


def test_a_report_prints_its_answer_and_main_figures_in_80_columns():
    from types import SimpleNamespace

    from idiotsim.experiments.paired_design import PairedDesign
    from idiotsim.experiments.report_markdown import main_figures
    from idiotsim.experiments.writing import Written
    labels = [f"players={n}, lowest_starts={flag}" for flag in ("false", "true") for n in (2, 3, 4, 5)]
    spec = SimpleNamespace(title="first-player advantage", points=[SimpleNamespace(label=x) for x in labels])
    rows = [SimpleNamespace(deals=1000 + i, place_diff=Interval(-d, -d - 0.02, -d + 0.02, p_holm=0.01),
                            win_diff=Interval(d / 10, d / 10 - 0.01, d / 10 + 0.01, p_holm=0.5))
            for i, d in enumerate(0.01 * i for i in range(len(labels)))]
    table = main_figures(PairedDesign(), spec, rows)
    written = Written(spec, "Laying `10s` face-up lowers your mean place at every player count tried.",
                      [Path("reports/x.md"), Path("reports/x.csv")], 16_000, table=table,
                      plain="Put your 10s face-up: it gains about 0.05 to 0.13 places a game.")
    buffer = io.StringIO()
    render.print_report(written, render.console(file=buffer, width=80))
    text = buffer.getvalue()
    assert_fits(text, 80)
    assert "Laying 10s face-up" in text and "`" not in text  # code spans lose their backticks in plain text
    assert text.index("Put your 10s face-up: it gains") < text.index("Laying 10s face-up")  # the plain one first
    for row in table.rows:
        for cell in row[2:]:  # the figures, each interval unbroken (the deals column may give way)
            for part in cell.split(" ("):
                assert part.strip(")") in text, part
    assert "lowest_starts=false" in text and "reports/x.md" in text


def test_without_intervals_the_headers_do_not_promise_them():
    summary = made_up_summary(["basic", "counter", "random"], clusters=1)
    assert summary.strategies["mean_place_lo"].is_nan().all()
    text = rendered(summary, 80)
    assert_fits(text, 80)
    assert "(95% CI)" not in text[text.index("Strategies"):text.index("Ranking")]
    assert f"{summary.strategies['mean_place'][0]:.3f}" in text
