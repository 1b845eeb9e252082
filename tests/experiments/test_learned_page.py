"""reports/learned.md is written by code from its CSVs (`idiotsim learn page --out reports`): the committed page
and plot are their regeneration byte for byte, the numbers follow the digit rule, a model's row added to a
CSV shows without a change to the code, and a broken input is one error line."""
from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import pytest

from helpers import cli_ok, cli_user_error
from idiotsim.experiments import learned_page as page
from idiotsim.experiments.learned_rows import interval
from idiotsim.experiments.learned_tables import zero_bound_notes
from idiotsim.experiments.report_plots import frontier_figure, frontier_plot
from idiotsim.experiments.text import WRAP_WIDTH, wrap

REPORTS = Path(__file__).resolve().parents[2] / "reports"
CSVS = ("learned.csv", "learned_gate.csv", "learned_frontier.csv")


def test_the_committed_page_and_plot_are_their_regeneration(tmp_path):
    assert page.learned_page_markdown(REPORTS) == (REPORTS / page.PAGE).read_text()
    frontier_plot(REPORTS, tmp_path / page.FRONTIER_PLOT)
    assert (tmp_path / page.FRONTIER_PLOT).read_bytes() == (REPORTS / page.FRONTIER_PLOT).read_bytes()


def test_the_page_says_how_it_is_made_and_opens_with_its_plain_sentence():
    text = (REPORTS / page.PAGE).read_text()
    assert "`idiotsim learn page --out reports`" in text
    first = next(p for p in text.split("\n\n")[1:] if not p.startswith("*This page"))
    assert first.startswith("**In one line.**") and len(first.split()) < 70


def test_no_number_on_the_page_is_a_signed_zero_or_a_bound_that_excludes_0_printed_as_0():
    text = (REPORTS / page.PAGE).read_text()
    assert not re.search(r"[-+]0\.0+(?![0-9])", text)
    for mean, lo, hi in re.findall(r"([-+]\d\.\d+) \(([-+]\d\.\d+|about 0) to ([-+]\d\.\d+|about 0)\)", text):
        for bound in (lo, hi):
            assert bound == "about 0" or float(bound) != 0, (mean, lo, hi)


def folder_copy(tmp_path) -> Path:
    out = tmp_path / "reports"
    out.mkdir()
    for name in CSVS:
        shutil.copy(REPORTS / name, out / name)
    shutil.copytree(REPORTS / "learned", out / "learned")
    return out


def append(path: Path, **values) -> None:
    with path.open(newline="") as f:
        fields = next(csv.reader(f))
    with path.open("a", newline="") as f:
        csv.DictWriter(f, fields).writerow(values)


def table_line(text: str, *cells: str) -> str:
    lines = [line for line in text.splitlines() if line.startswith("| " + " | ".join(cells) + " |")]
    assert len(lines) == 1, (cells, lines)
    return lines[0]


def test_a_new_models_rows_show_in_every_table_without_a_change_to_the_code(tmp_path, capsys):
    out = folder_copy(tmp_path)
    append(out / "learned.csv", players=4, player="learned-nomem-4p", deals=20000, vs_basic=-0.0071, lo=-0.0138,
           hi=-0.0003, p_holm=0.03, vs_tuned=0.0229, vs_tuned_lo=0.0158, vs_tuned_hi=0.0300,
           games_per_second_one_seat=9000)
    append(out / "learned.csv", players=3, player="learned-3p (iteration 4)", deals=10000, vs_basic=-0.2001,
           lo=-0.2102, hi=-0.1900, p_holm=0, vs_tuned=-0.16, vs_tuned_lo=-0.17, vs_tuned_hi=-0.15)
    append(out / "learned_frontier.csv", player="learned-nomem-4p", kind="learned", deals=20000, vs_basic=-0.0071,
           lo=-0.0138, hi=-0.0003, us_per_decision=0.9, source="a test")
    append(out / "learned_gate.csv", players=5, player="learned-search-5p (wider gate)", deals=10000,
           vs_basic=-0.30, lo=-0.31, hi=-0.29, p_holm=0, vs_learned=-0.22, vs_learned_lo=-0.23,
           vs_learned_hi=-0.21)
    cli_ok(capsys, "learn", "page", "--out", out)
    text = (out / page.PAGE).read_text()
    # the digit rule: an interval that excludes 0 gets the decimals its bound near 0 needs
    assert table_line(text, "4", "`learned-nomem-4p`", "20,000", "-0.0071 (-0.0138 to -0.0003)",
                      "+0.023 (+0.016 to +0.030)", "")
    # the strongest of its player count is bold, the earlier strongest no longer
    assert table_line(text, "3", "iteration 4's `learned-3p`", "10,000", "**-0.200 (-0.210 to -0.190)**")
    assert table_line(text, "3", "`learned-3p`", "10,000", "-0.174 (-0.183 to -0.164)")
    assert table_line(text, "`learned-nomem-4p`", "-0.0071 (-0.0138 to -0.0003)", "20,000", "0.90 us")
    assert table_line(text, "5", "`learned-search-5p` (wider gate)", "10,000", "**-0.300 (-0.310 to -0.290)**",
                      "-0.220 (-0.230 to -0.210)")
    assert (out / page.FRONTIER_PLOT).stat().st_size > 10_000
    assert "learned-nomem-4p" in [t.get_text() for t in frontier_figure(out).axes[0].texts]


@pytest.mark.parametrize("mean, lo, hi, text", [
    (-0.0071, -0.0138, -0.0003, "-0.0071 (-0.0138 to -0.0003)"),  # the bound near 0 needs 4 decimals
    (0.0004, -0.0100, 0.0108, "+0.0004 (-0.0100 to +0.0108)"),  # an estimate that is not 0 never prints as 0
    (-0.1259, -0.1326, -0.1192, "-0.126 (-0.133 to -0.119)"),
    (0.0, 0.0, 0.0, "0"),  # a player against itself
])
def test_intervals_by_the_digit_rule(mean, lo, hi, text):
    row = {"_file": "x.csv", "vs_basic": str(mean), "lo": str(lo), "hi": str(hi)}
    assert interval(row, "vs_basic") == text


def test_a_bound_recorded_as_zero_reads_about_0_and_its_side_is_noted():
    rows = [{"_file": "x.csv", "name": "a", "vs_x": "+0.017", "vs_x_lo": "-0.000", "vs_x_hi": "+0.035"},
            {"_file": "x.csv", "name": "b", "vs_x": "+0.018", "vs_x_lo": "+0.000", "vs_x_hi": "+0.035"}]
    assert [interval(r, "vs_x") for r in rows] == ["+0.017 (about 0 to +0.035)", "+0.018 (about 0 to +0.035)"]
    note = " ".join(" ".join(zero_bound_notes(rows, [["a"], ["b"]])).split())
    assert "the a row's lower bound lay just below 0 (the interval includes 0)" in note
    assert "the b row's lower bound lay just above 0 (the interval excludes 0)" in note


def test_wrapped_lines_never_start_what_markdown_reads_as_a_list_or_heading():
    text = wrap(" ".join(["word"] * 20 + ["K", "=", "8", "by", "-", "two", "+0.002", "+/-", "0.018"] * 30), "- ")
    lines = text.splitlines()
    assert lines[0].startswith("- word") and all(len(line) <= WRAP_WIDTH for line in lines)
    assert not any(re.match(r" *([-+=>#]|\d+\.) ", line) for line in lines[1:]), text


def test_the_frontier_labels_overlap_nothing():
    fig = frontier_figure(REPORTS)
    ax = fig.axes[0]
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.texts]
    assert len(boxes) == len(list(csv.DictReader((REPORTS / "learned_frontier.csv").open())))
    legend, frame = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
    for i, box in enumerate(boxes):
        assert frame.contains(box.x0, box.y0) and frame.contains(box.x1, box.y1), ax.texts[i].get_text()
        assert not box.padded(-1).overlaps(legend), ax.texts[i].get_text()
        for other in boxes[i + 1:]:
            assert not box.padded(-1).overlaps(other), ax.texts[i].get_text()


def rewrite(path: Path, keep_row=lambda row: True, drop_column: str = "") -> None:
    with path.open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if keep_row(r)]
    fields = [c for c in rows[0] if c != drop_column]
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fields, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


@pytest.mark.parametrize("break_it, message", [
    (lambda out: (out / "learned_gate.csv").unlink(), "learned_gate.csv is missing"),
    (lambda out: rewrite(out / "learned.csv", keep_row=lambda r: r["player"] != "learned-fast-4p"),
     "learned.csv has 0 rows with ('players', 'player') = ['4', 'learned-fast-4p']"),
    (lambda out: rewrite(out / "learned.csv", drop_column="vs_shipped"), "learned.csv has no column 'vs_shipped'"),
])
def test_a_broken_input_is_one_error_line(tmp_path, capsys, break_it, message):
    out = folder_copy(tmp_path)
    break_it(out)
    assert message in cli_user_error(capsys, "learn", "page", "--out", out)
    assert not (out / page.PAGE).exists()
