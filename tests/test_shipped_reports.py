"""CI's report check: every shipped report regenerated at its full size matches the committed files byte
for byte (``idiotsim report --all --check``). This is the test that fails when a change moves any number
a user reads in reports/ without the reports being regenerated. A report too large for the suite (a spec
with ``check_games``: the strong-play reports) is regenerated at that reduced size and compared with its
committed reduced-size result in reports/check/ (the mechanism itself: tests/test_strong.py)."""
from pathlib import Path

import pytest

from helpers import run_cli

REPORTS = Path(__file__).resolve().parent.parent / "reports"


@pytest.mark.long(300)
def test_every_shipped_report_matches_its_full_size_regeneration(capsys):
    code, out, err = run_cli(capsys, "report", "--all", "--check", "--specs-dir", REPORTS)
    assert code == 0, out + err
    assert "every report in" in out and "matches its regeneration" in out
