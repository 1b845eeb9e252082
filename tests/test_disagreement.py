"""Where basic loses (idiotsim.experiments.disagreement): kinds of disagreement and their table."""
from __future__ import annotations

import numpy as np
import pytest

from idiotsim.cards import RANK_OF_NAME
from idiotsim.experiments.disagreement import KINDS, disagreements, kind_of, table
from idiotsim.rules import Rules
from idiotsim.toolkit import PICKUP, play

R = RANK_OF_NAME


@pytest.mark.parametrize("basic_move, search_move, kind", [
    (play(R["5"], 2, 0), PICKUP, "pick up instead of playing"),
    (play(R["5"], 2, 0), play(R["10"], 1, 0), "play a 10 (burn)"),
    (play(R["10"], 1, 0), play(R["K"], 1, 0), "keep the 10"),
    (play(R["5"], 1, 0), play(R["2"], 1, 0), "play a 2"),
    (play(R["2"], 1, 0), play(R["A"], 1, 0), "keep the 2"),
    (play(R["5"], 2, 0), play(R["5"], 1, 0), "fewer copies of the rank"),
    (play(R["5"], 1, 0), play(R["5"], 3, 0), "more copies of the rank"),
    (play(R["5"], 1, 0), play(R["9"], 1, 0), "a higher ordinary rank"),
    (play(R["9"], 1, 0), play(R["5"], 1, 0), "a lower ordinary rank"),
])
def test_kinds(basic_move, search_move, kind):
    assert kind_of(basic_move, search_move) == kind
    assert kind in KINDS


def test_the_table_counts_shares_and_intervals():
    found = [("play a 2", -0.5), ("play a 2", -0.25), ("play a 2", 0.0), ("keep the 10", 0.25)]
    rows = {r["kind"]: r for r in table(10, found)}
    assert rows["any"]["disagreements"] == 4 and rows["any"]["share"] == pytest.approx(0.4)
    twos = np.array([-0.5, -0.25, 0.0])
    half = 4.303 * twos.std(ddof=1) / np.sqrt(3)  # t 95%, 2 degrees of freedom
    assert rows["play a 2"]["value"] == pytest.approx(twos.mean())
    assert rows["play a 2"]["value_hi"] - rows["play a 2"]["value"] == pytest.approx(half, abs=1e-3)
    assert rows["play a 2"]["share_lo"] < 0.3 < rows["play a 2"]["share_hi"]
    assert "a lower ordinary rank" not in rows


def test_a_small_run():
    decisions, found = disagreements(Rules(players=3), games=1, seed=1, rollouts=2, judge=4)
    assert decisions > 5 and 0 < len(found) <= decisions
    assert all(kind in KINDS and -3 <= value <= 3 for kind, value in found)
