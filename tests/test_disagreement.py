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


def test_the_table_counts_shares_and_intervals_clustered_by_game():
    found = [(0, "play a 2", -0.5), (1, "play a 2", -0.25), (2, "play a 2", 0.0), (2, "keep the 10", 0.25)]
    decisions = np.array([3, 3, 4])
    rows = {r["kind"]: r for r in table(decisions, found)}
    assert rows["any"]["disagreements"] == 4 and rows["any"]["share"] == pytest.approx(0.4)
    twos = np.array([-0.5, -0.25, 0.0])  # one a game: the clustered mean is the plain one, t with 2 df
    half = 4.303 * twos.std(ddof=1) / np.sqrt(3)
    assert rows["play a 2"]["value"] == pytest.approx(twos.mean())
    assert rows["play a 2"]["value_hi"] - rows["play a 2"]["value"] == pytest.approx(half, abs=1e-3)
    assert rows["play a 2"]["share_lo"] < 0.3 < rows["play a 2"]["share_hi"]
    assert "a lower ordinary rank" not in rows


def test_a_small_run():
    decisions, found = disagreements(Rules(players=3), games=1, seed=1, rollouts=2, judge=4)
    assert decisions.sum() > 5 and 0 < len(found) <= decisions.sum()
    assert all(game == 0 and kind in KINDS and -3 <= value <= 3 for game, kind, value in found)
