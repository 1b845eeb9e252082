"""CI's report check: every shipped report regenerated matches the committed files byte for byte
(``idiotsim report --all --check``). This is the test that fails when a change moves any number a user
reads in reports/ without the reports being regenerated. A small report is regenerated at its full size;
one too large for the suite (a spec with ``check_games``: the leaderboard, the search, strong-play and
large basic-level reports) at that reduced size, the first games of the same seeded deals, and compared
with its committed reduced-size result in reports/check/ (the mechanism itself: tests/experiments/test_strong.py and
tests/experiments/test_reports.py). The check compiles the search first (tests/conftest.py)."""
from pathlib import Path

import pytest

from helpers import run_cli

REPORTS = Path(__file__).resolve().parents[2] / "reports"


@pytest.mark.long(150)
def test_every_shipped_report_matches_its_regeneration(capsys):
    code, out, err = run_cli(capsys, "report", "--all", "--check", "--specs-dir", REPORTS)
    assert code == 0, out + err
    assert "every report in" in out and "matches its regeneration" in out


STRONG_DESIGNS = ('design = "strong"', 'design = "experts"')


def test_no_shipped_strong_report_has_a_control_weaker_than_basic():
    """Every control at a strong level is a competent player: in each committed strong or expert-table report,
    the control against `basic` in its seat (strength_*) is better than `basic` with its whole 95% CI."""
    import polars as pl

    specs = [p for p in sorted(REPORTS.glob("*.toml")) if any(d in p.read_text() for d in STRONG_DESIGNS)]
    assert len(specs) >= 18
    weak = []
    for spec in specs:
        table = pl.read_csv(spec.with_suffix(".csv"), infer_schema_length=None)
        rows = table.filter(pl.col("strength_hi").is_not_null())
        assert rows.height > 0, spec.name
        weak += [f"{spec.stem}: {s} {h:+.3f}" for s, h in rows.select("setting", "strength_hi").iter_rows() if h >= 0]
    assert weak == []
