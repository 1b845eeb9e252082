"""Where basic loses (idiotsim.experiments.disagreement, the `disagreement` design of `idiotsim report`):
kinds of disagreement, the positions and their judging, the clustered analysis, the spec, and that
`report --all --check` regenerates the report byte for byte."""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest
from helpers import run_cli

from idiotsim import experiments as ex
from idiotsim.game.cards import RANK_OF_NAME
from idiotsim.experiments import disagreement as dis
from idiotsim.experiments.disagreement import (ANY_SWAP, KINDS, SWAP_KINDS, PlayedDisagreement, disagreements,
                                               kind_of, swap_kind_of)
from idiotsim.game.rules import Rules
from idiotsim.game.moves import PICKUP, play, swap_choice

R = RANK_OF_NAME

SPEC = """
title = "where basic loses, tiny"
design = "disagreement"
question = "Where does basic lose?"
strategy = "search:rollouts=2,swap=1"
judge = 3
players = 3
games = 3
seed = 11
"""


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


def test_a_swap_is_the_same_whatever_the_order_of_its_ranks():
    """R6: the three face-up ranks are a set; basic's code and the search's sorted code compare equal."""
    assert dis.face_up_ranks(swap_choice(R["10"], R["2"], R["A"])) == dis.face_up_ranks(
        swap_choice(R["2"], R["A"], R["10"]))
    assert dis.face_up_ranks(swap_choice(R["10"], R["2"], R["A"])) != dis.face_up_ranks(
        swap_choice(R["10"], R["2"], R["K"]))


@pytest.mark.parametrize("basic_ranks, search_ranks, kind", [
    (("10", "2", "A"), ("10", "A", "K"), SWAP_KINDS[0]),  # the search keeps a 2 in hand
    (("10", "A", "K"), ("2", "10", "K"), SWAP_KINDS[1]),
    (("10", "A", "K"), ("10", "A", "Q"), SWAP_KINDS[2]),
    (("2", "A", "K"), ("10", "A", "K"), SWAP_KINDS[2]),  # a 2 for a 10: as many specials face-up
])
def test_swap_kinds(basic_ranks, search_ranks, kind):
    assert swap_kind_of(swap_choice(*(R[r] for r in basic_ranks)), swap_choice(*(R[r] for r in search_ranks))) == kind


def test_a_small_run_looks_at_every_swap_and_turn():
    """3 players, swap=1: every seat's swap (R6) is a decision; values are sums over `judge` states of
    place differences, so each lies within +-judge x (n - 1)."""
    out = disagreements(Rules(players=3), 1, "search:rollouts=2,swap=1", 4, 0, 2)
    assert out["swaps"].tolist() == [3, 3]
    assert (out["turns"] > 5).all()
    assert len(out["kind"]) <= out["swaps"].sum() + out["turns"].sum()
    assert set(out["game"].tolist()) <= {0, 1} and set(out["kind"].tolist()) <= set(range(len(KINDS)))
    assert (np.abs(out["value"]) <= 4 * 2).all()
    assert (out["kind"] < len(SWAP_KINDS)).any()  # at K = 2 the searched swap differs somewhere
    # the search swapping like basic (swap=0) never disagrees at the swap
    same = disagreements(Rules(players=3), 1, "search:rollouts=2", 4, 0, 2)
    assert same["swaps"].tolist() == [3, 3] and not (same["kind"] < len(SWAP_KINDS)).any()


def test_the_analysis_clusters_by_game_and_holm_adjusts_the_values():
    spec = ex.load_spec(_write(SPEC))
    two, ten = KINDS.index("play a 2"), KINDS.index("keep the 10")
    # values are sums over judge = 3 states: game 0: one "play a 2" worth -6/3 places; game 1: one worth -3/3;
    # game 2: one worth 0 and one "keep the 10" worth +3/3
    played = PlayedDisagreement(spec, 3, swaps=np.array([3, 3, 3]), turns=np.array([3, 3, 4]),
                                game=np.array([0, 1, 2, 2]), kind=np.array([two, two, two, ten]),
                                value=np.array([-6, -3, 0, 3]))
    rows = {r.kind: r for r in dis.DisagreementDesign().analyse(played)}
    assert rows["any turn decision"].disagreements == 4 and rows["any turn decision"].share.mean == pytest.approx(0.4)
    assert rows[ANY_SWAP].disagreements == 0 and rows[ANY_SWAP].share.mean == 0
    assert not set(SWAP_KINDS) & set(rows)
    twos = np.array([-2.0, -1.0, 0.0])  # one a game: the clustered mean is the plain one, t with 2 df
    assert rows["play a 2"].value.mean == pytest.approx(twos.mean())
    assert rows["play a 2"].value.half == pytest.approx(4.303 * twos.std(ddof=1) / np.sqrt(3), abs=1e-3)
    assert rows["play a 2"].share.lo < 0.3 < rows["play a 2"].share.hi
    assert "a lower ordinary rank" not in rows
    tested = sorted((r.value for r in rows.values() if not np.isnan(r.value.p)), key=lambda v: v.p)
    assert len(tested) == 2  # "any turn decision" and "play a 2"; a kind with one game is not tested
    assert tested[0].p_holm == pytest.approx(min(1, 2 * tested[0].p))  # Holm over the family of 2
    assert tested[1].p_holm == pytest.approx(max(tested[0].p_holm, tested[1].p))


def test_the_report_does_not_depend_on_the_chunking(tmp_path, monkeypatch):
    spec = ex.load_spec(_write(SPEC, tmp_path))
    whole = ex.write_report(spec, tmp_path / "whole")
    monkeypatch.setattr(dis, "CHUNK_GAMES", 1)
    split = ex.write_report(spec, tmp_path / "split")
    for a, b in zip(whole.files, split.files):
        assert a.read_bytes() == b.read_bytes()
    text = (tmp_path / "whole" / f"{spec.name}.md").read_text()
    assert ANY_SWAP in text and "clustered by game" in text and "Holm" in text


def test_report_all_check_regenerates_it_and_notices_a_change(tmp_path, capsys):
    (tmp_path / "tiny.toml").write_text(SPEC)
    code, _, err = run_cli(capsys, "report", "--all", "--specs-dir", tmp_path)
    assert code == 0, err
    assert "(tiny.md)" in (tmp_path / "README.md").read_text()
    code, out, _ = run_cli(capsys, "report", "--all", "--check", "--specs-dir", tmp_path)
    assert code == 0 and "matches" in out
    csv = tmp_path / "tiny.csv"
    csv.write_text(csv.read_text().replace("any turn decision", "any turn"))
    code, out, _ = run_cli(capsys, "report", "--all", "--check", "--specs-dir", tmp_path)
    assert code == 1 and "tiny.csv" in out


def test_where_basic_loses_is_a_report_of_the_check():
    assert "where_basic_loses" not in ex.writing.MADE_ELSEWHERE
    spec = ex.load_spec(Path(__file__).resolve().parents[2] / "reports" / "where_basic_loses.toml")
    assert spec.design == "disagreement" and "swap=1" in spec.strategy


@pytest.mark.parametrize("change, field", [
    (('strategy = "search:rollouts=2,swap=1"', 'strategy = "basic"'), "strategy"),
    (('strategy = "search:rollouts=2,swap=1"', 'strategy = "search:rollouts=2,swap=7"'), "strategy"),
    (("judge = 3", "judge = 1"), "judge"),
    (("judge = 3", 'judge = "many"'), "judge"),
    (("judge = 3\n", ""), "judge"),
    (("seed = 11", "seed = 11\nopponents = [\"basic\"]"), "opponents"),
])
def test_a_bad_spec_is_one_line_naming_the_field(tmp_path, capsys, change, field):
    path = tmp_path / "bad.toml"
    path.write_text(SPEC.replace(*change))
    code, _, err = run_cli(capsys, "report", path, "--out", tmp_path / "out")
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and f"field '{field}'" in lines[0], err


def _write(text: str, folder=None) -> Path:
    folder = Path(folder or tempfile.mkdtemp(prefix="idiotsim-dis-"))
    path = folder / "tiny.toml"
    path.write_text(text)
    return path
