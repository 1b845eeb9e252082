"""The committed report pages keep the house rules a reader takes at face value (issue 51, item 4):

- a page's plain first sentence is shorter than 200 characters (``text.FIRST_SENTENCE``);
- no bound of an interval prints as 0 (+0.000, -0.000, 0.000) unless it is 0: the digit rule
  (``stats.decimals_for``) gives it the decimals it needs; a rate's bound cut at exactly 0% may print as 0%,
  and a difference that is 0 in every deal prints as +0.00 (+0.00 to +0.00);
- every Holm column of a report's CSV is filled wherever its p-value is.

Every report made by `idiotsim report` from a spec in reports/ is read: its full-size page and CSV, and its
reduced-size ones in reports/check/ (which CI regenerates)."""
from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from idiotsim import experiments as ex
from idiotsim.experiments.report_markdown import plain_of
from idiotsim.experiments.text import FIRST_SENTENCE, first_sentence

REPORTS = Path(__file__).resolve().parents[2] / "reports"
SPECS = [ex.load_spec(path) for path in ex.spec_paths(REPORTS)]
PAGES = [REPORTS / f"{s.name}.md" for s in SPECS] + [REPORTS / "check" / f"{s.name}.md" for s in SPECS if s.check_games]
SUMMARIES = [REPORTS / "leaderboard" / "summary.md", REPORTS / "check" / "leaderboard" / "summary.md"]
TABLES = [page.with_suffix(".csv") for page in PAGES]
BOUNDS = re.compile(r"\((?:95% CI )?([+-]?\d+\.\d+)(%?) to ([+-]?\d+\.\d+)(%?)[),;]")


def short(path: Path) -> str:
    return str(path.relative_to(REPORTS))


@pytest.mark.parametrize("page", PAGES, ids=short)
def test_the_first_sentence_is_shorter_than_200_characters(page):
    sentence = first_sentence(plain_of(page.read_text()))
    assert sentence and len(sentence) < FIRST_SENTENCE, (len(sentence), sentence)


def looks_zero(bound: str) -> bool:
    return float(bound) == 0


@pytest.mark.parametrize("page", PAGES + SUMMARIES, ids=short)
def test_no_bound_prints_as_zero(page):
    """A bound that prints as 0 beside one that does not (a rate's 0% aside) hides a bound that is not 0; both
    0 is an interval of no width around an exact 0 (a difference that never differs)."""
    found = [m.group(0) for line in page.read_text().splitlines() for m in BOUNDS.finditer(line)
             if looks_zero(m.group(1)) != looks_zero(m.group(3)) and not (m.group(2) or m.group(4))]
    assert found == []


@pytest.mark.parametrize("table", TABLES, ids=short)
def test_every_holm_column_is_filled_where_its_p_value_is(table):
    with table.open(newline="") as f:
        rows = list(csv.DictReader(f))
    columns = [c for c in rows[0] if c.endswith("p_holm")]
    blank = [(r.get("setting") or r.get("kind") or r.get("cell"), c) for r in rows for c in columns
             if r[c] == "" and r[c.removesuffix("_holm")] != ""]
    assert blank == []


def test_the_pages_and_tables_are_all_read():
    assert len(PAGES) == len(TABLES) > 40 and all(p.is_file() for p in PAGES + TABLES + SUMMARIES)
