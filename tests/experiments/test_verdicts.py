"""Every verdict agrees with the interval beside it (issue 51, item 4).

A report's verdicts are Holm-adjusted over its tests; its 95% CIs are not. Where a CI excludes 0 but Holm does
not call the effect, the words beside it say so (``UNADJUSTED_ONLY``), on a page built to hit that case (a small
question of a user's own: the 2s face-up at 2 to 5 players, seed 9, where the 4-player mean place's CI excludes 0
at Holm p 0.0951). The CSV gives every Holm-adjusted p-value; a two-setting headline reads as English; the page's
"Regenerate:" line runs the spec where the user keeps it.
"""
from __future__ import annotations

import contextlib
import csv
import io
import re
from pathlib import Path

import numpy as np
import pytest

from idiotsim import cli
from idiotsim import experiments as ex
from idiotsim.analysis.stats import UNADJUSTED_ONLY, Interval, holm
from idiotsim.experiments.chart_page import chart_main_figures, rules_lines
from idiotsim.experiments.deal_play import Played
from idiotsim.experiments.paired_design import PairedStatistics
from idiotsim.experiments.report_markdown import headline
from idiotsim.experiments.text import ci_text, first_sentence, plain_of_bodies, unadjusted_note

TWOS = """\
title = "2s face-up, a question of my own"
question = "Should I lay my 2s face-up?"
treatment = "heuristic:swap=1"
control = "heuristic:swap=3"
treatment_label = "Laying 2s face-up"
control_label = "keeping them in hand"
advice = "Put your 2s face-up"
opponents = ["basic"]
players = 4
games = 2000
seed = 9

[sweep]
rule = "players"
values = [2, 3, 4, 5]
"""


@pytest.fixture(scope="module")
def twos(tmp_path_factory):
    """The report of TWOS, written by `idiotsim report` from a folder outside reports/: (spec, page, CSV rows,
    what the terminal printed)."""
    folder = tmp_path_factory.mktemp("mine")
    spec = folder / "twos.toml"
    spec.write_text(TWOS)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), pytest.raises(SystemExit) as done:
        cli.main(["report", str(spec)])
    assert done.value.code == 0, err.getvalue()
    with (folder / "twos.csv").open() as f:
        rows = list(csv.DictReader(f))
    return spec, (folder / "twos.md").read_text(), rows, out.getvalue()


def test_the_page_hits_the_case(twos):
    _, _, rows, _ = twos
    four = next(r for r in rows if r["setting"] == "players=4")
    assert float(four["diff_hi"]) < 0 and float(four["diff_p_holm"]) >= 0.05  # excludes 0, not called


def test_the_verdict_beside_a_ci_that_excludes_0_says_why_it_is_not_called(twos):
    _, page, _, out = twos
    sentence = next(line for line in page.splitlines() if line.startswith("- ") and "4-player games" in line)
    assert "makes no significant difference to your mean place" in sentence
    assert f"Holm p = 0.0951; {UNADJUSTED_ONLY})" in sentence, sentence
    note = next(line for line in page.splitlines() if line.startswith("Not called although its 95% CI excludes 0"))
    assert "the mean place at players=4 (Holm p = 0.0951)" in note and "the report's 8 tests" in note
    assert "the mean place at players=4 (Holm p = 0.0951)" in " ".join(out.split())  # under the terminal's table too
    for line in page.splitlines():  # no verdict of "no difference" beside an excluding CI without the words
        if re.search(r"no (significant|clear) difference|not settled", line):
            for lo, hi in re.findall(r"\((?:95% CI )?([+-]?\d+\.\d+) to ([+-]?\d+\.\d+)", line):
                if float(lo) > 0 or float(hi) < 0:
                    assert UNADJUSTED_ONLY in line, line


def test_every_holm_column_of_a_paired_csv_is_filled(twos):
    _, _, rows, _ = twos
    expected = holm([float(r["diff_p"]) for r in rows] + [float(r["win_p"]) for r in rows])
    got = [float(r["diff_p_holm"]) for r in rows] + [float(r["win_p_holm"]) for r in rows]
    assert got == pytest.approx(expected, abs=1e-5)  # from p-values the CSV rounds to 6 decimals


def test_the_regenerate_line_runs_the_spec_where_it_is_kept(twos):
    spec, page, _, _ = twos
    command = re.search(r"Regenerate: `idiotsim report ([^`]+)`", page).group(1)
    assert Path(command) == spec.resolve()
    shipped = (Path(__file__).resolve().parents[2] / "reports" / "tens_faceup.md").read_text()
    assert "Regenerate: `idiotsim report reports/tens_faceup.toml`" in shipped  # run in the repository's root


def test_a_two_setting_headline_reads_as_english(tmp_path):
    spec_path = tmp_path / "p.toml"
    spec_path.write_text(TWOS.replace("values = [2, 3, 4, 5]", "values = [2, 3]"))
    spec = ex.load_spec(spec_path)
    design = ex.DESIGNS["paired"]
    stats = []
    for _ in spec.points:  # the treatment wins both of a deal's games, the control loses both on 60 deals
        st = PairedStatistics(2)
        zeros = np.zeros((100, 2), dtype=np.int64)
        st.add(np.array([[1, 1]] * 100), np.array([[2, 2]] * 60 + [[1, 1]] * 40), zeros, zeros, zeros, zeros)
        stats.append(st)
    text = headline(design, spec, design.analyse(Played(spec, 0, stats)))
    assert "(significant at both, Holm-adjusted over the report's 4 tests)" in text and "all 2" not in text


def called(mean, lo, hi, p_holm) -> Interval:
    return Interval(mean, lo, hi, (hi - lo) / 2, p=p_holm / 4, p_holm=p_holm)


@pytest.mark.parametrize("x, words", [
    (called(-0.027, -0.048, -0.006, 0.08), True),  # the Aces: excludes 0, not called
    (called(-0.027, -0.048, -0.006, 0.01), False),  # called: its verdict agrees
    (called(-0.020, -0.048, 0.008, 0.60), False),  # reaches 0: nothing to explain
])
def test_a_ci_beside_a_verdict_names_the_adjustment_only_where_needed(x, words):
    assert (UNADJUSTED_ONLY in ci_text(x, 3)) == words
    assert bool(unadjusted_note([("the mean place at players=4", x)], 8)) == words


def test_the_chart_says_why_too():
    from idiotsim.experiments.chart_analysis import ChartRules
    from idiotsim.experiments.chart_cells import Cell
    aces = called(-0.027, -0.048, -0.006, 0.08)
    rows = [(Cell("counting-diff", f"remembering {key}", "a", "b", key), aces, 100, 50)
            for key in ("specials-none",)]
    assert "remembering specials-none (Holm p = 0.0800)" in chart_main_figures(rows).note
    counting = next(line for line in rules_lines(rows, ChartRules()) if "Counting" in line)
    assert counting.count(f"(no significant difference ({UNADJUSTED_ONLY}))") == 1, counting


def test_the_chart_share_follows_the_digit_rule():
    from idiotsim.experiments.chart_page import percent_text
    assert percent_text(Interval(0.17, 0.12, 0.22)) == "17% (12% to 22%)"
    assert percent_text(Interval(0.05, -0.003, 0.10)) == "5.0% (-0.3% to 10.0%)"  # not "5% (0% to 10%)"


def test_a_first_sentence_too_long_gives_the_advice_a_sentence_of_its_own():
    long_body = "it gains about 0.01, 0.02 and 0.03 places a game at 2, 3 and 5 players; " * 3
    text = plain_of_bodies("Put your 2s face-up", [long_body.strip().rstrip(";")])
    assert first_sentence(text) == "Put your 2s face-up."
    short = plain_of_bodies("Put your 2s face-up", ["it gains about 0.04 places a game"])
    assert short == "Put your 2s face-up: it gains about 0.04 places a game."
