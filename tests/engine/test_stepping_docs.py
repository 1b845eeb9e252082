"""docs/stepping.md against the code: its example run, its printed lines equal to the page's, and the sizes
the page names equal to the code's."""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from idiotsim.game import action_space as act
from idiotsim.game.moves import MAX_MOVES

DOC = Path(__file__).resolve().parents[2] / "docs" / "stepping.md"
TEXT = DOC.read_text()


def test_the_example_prints_what_the_page_says():
    (code, printed), = re.findall(r"^```python\n(.*?)^```\n\nprints\n\n```text\n(.*?)^```", TEXT, flags=re.S | re.M)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, DOC.name, "exec"), {})
    assert out.getvalue() == printed


def test_the_sizes_on_the_page_are_the_codes():
    assert re.findall(r"the (\d+) swaps", TEXT) == [str(len(act.SWAPS))]
    assert re.findall(r"\(B, (\d+)\), \(B,\)", TEXT) == [str(MAX_MOVES)]
    assert re.findall(r"\((\d+), 876\) bool", TEXT) == ["3"] and act.NUM_ACTIONS == 876
