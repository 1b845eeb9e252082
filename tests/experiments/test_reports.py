"""Paired experiments and reports (idiotsim.experiments, `idiotsim report`).

- the paired analysis recovers a known effect from synthetic data (the intervals
  themselves: tests/analysis/test_stats.py);
- A/A experiments: exactly 0 with shared random streams (coverage of every
  interval: tests/analysis/test_coverage.py);
- reports regenerate byte for byte (Markdown, CSV, PNG) and do not depend on
  the chunk size;
- seat rotation deals the right cards;
- malformed specs fail with one line naming the file and the field (exit 2).
"""
from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest

from idiotsim import cli
from idiotsim import experiments as ex
from idiotsim.experiments.paired_design import PairedDesign, PairedStatistics, analyse_paired
from idiotsim.experiments.deal_play import MIN_DIFFERING_DEALS, deals_for, rotated_decks
from idiotsim.experiments.report_markdown import csv_text, headline, size_lines
from idiotsim.experiments.seats import SeatsDesign
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_seated
from idiotsim.strategies.loading import load_strategy

REPORTS = Path(__file__).resolve().parents[2] / "reports"
PAIRED_DESIGN, SEATS_DESIGN = ex.DESIGNS["paired"], ex.DESIGNS["seats"]

PAIRED = """\
title = "small paired test"
question = "Does laying 10s face-up help?"
treatment = "heuristic:swap=1"
control = "heuristic:swap=2"
treatment_label = "Laying 10s face-up"
control_label = "keeping them in hand"
opponents = ["basic", "random"]
players = 3
games = 1200
seed = 5

[sweep]
knob = "burn_min"
values = [104, 4]
"""

SEATS = """\
title = "small seats test"
question = "Does seat 0 win more?"
design = "seats"
strategy = "basic"
players = 3
games = 900
seed = 9

[[sweep.variants]]
label = "canonical"

[[sweep.variants]]
label = "7 low"
rules = { low_rank = 7 }

[[sweep.variants]]
label = "two decks"
rules = { decks = 2 }
"""

AA = """\
question = "A/A"
treatment = "basic"
control = "basic"
opponents = ["random", "basic"]
players = 3
games = 600
seed = 0
streams = "{streams}"
"""


def run_cli(capsys, *args):
    with pytest.raises(SystemExit) as exit_info:
        cli.main([str(a) for a in args])
    out = capsys.readouterr()
    return exit_info.value.code, out.out, out.err


def write(tmp_path, name, text) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def play(spec, **size):
    """A deal design's played statistics (paired or seats)."""
    return ex.DESIGNS[spec.design].play(spec, Path("unused"), **size)


def analyse(spec, **size) -> list:
    design = ex.DESIGNS[spec.design]
    return design.analyse(design.play(spec, Path("unused"), **size))


# ---- statistics ------------------------------------------------------------------

def test_paired_analysis_recovers_a_known_effect():
    """Synthetic places: control uniform over 1..4; the treatment moves up one place
    with probability q when it can. True effect = -q * 3/4 places."""
    rng = np.random.default_rng(7)
    n, deals, q = 4, 20_000, 0.2
    st = PairedStatistics(n)
    pc = rng.integers(1, n + 1, size=(deals, n))
    up = (rng.random((deals, n)) < q) & (pc > 1)
    pt = pc - up
    zeros = np.zeros((deals, n), dtype=np.int64)
    st.add(pt, pc, zeros, zeros, zeros, zeros)
    r = analyse_paired(st)
    true = -q * (n - 1) / n
    assert r.place_diff.lo <= true <= r.place_diff.hi
    assert r.place_diff.p < 1e-6
    # win rate: from place 2 to 1 with probability q: +q/4 wins
    assert r.win_diff.lo <= q / n <= r.win_diff.hi
    # pairing helps a lot here: the two arms are almost equal game by game
    assert r.variance_reduction > 5
    assert r.deals == deals and r.seat_games == deals * n


# ---- A/A experiments ---------------------------------------------------------------

def test_aa_with_shared_streams_is_exactly_zero(tmp_path):
    spec = ex.load_spec(write(tmp_path, "aa.toml", AA.format(streams="shared")))
    r = analyse(spec)[0]
    assert r.place_diff.mean == 0 and r.place_diff.lo == 0 and r.place_diff.hi == 0 and r.win_diff.mean == 0
    assert r.place_diff.p == 1.0 and math.isinf(r.variance_reduction)
    assert "no significant difference" in headline(PAIRED_DESIGN, spec, [r])


# ---- seats: rotated deals --------------------------------------------------------------

def test_rotated_decks_move_each_hand_to_its_seat():
    rules = Rules(players=4)
    deals = np.array([3, 3, 11], dtype=np.int64)
    rotations = np.array([0, 1, 3], dtype=np.int64)
    decks = rotated_decks(rules, 42, deals, rotations)
    n = rules.players
    for row, (d, r) in enumerate(zip(deals, rotations)):
        deck = shuffled_deck(42, int(d), 0, 1)
        for h in range(n):
            t = (h + r) % n
            for part in range(3):
                assert list(decks[row, 3 * n * part + 3 * t: 3 * n * part + 3 * t + 3]) == \
                    list(deck[3 * n * part + 3 * h: 3 * n * part + 3 * h + 3])
        assert list(decks[row, 9 * n:]) == list(deck[9 * n:])  # the talon is unchanged
        assert sorted(decks[row]) == list(range(52))


def test_rotation_zero_plays_the_seed_deal():
    rules = Rules(players=3)
    strategies = [load_strategy("basic")]
    ids = np.arange(50, dtype=np.int64)
    seating = np.zeros((50, 3), dtype=np.int8)
    plain = play_seated(rules, strategies, 8, ids, ids, seating)
    rotated = play_seated(rules, strategies, 8, ids, ids, seating,
                          decks=rotated_decks(rules, 8, ids, np.zeros(50, dtype=np.int64)))
    assert np.array_equal(plain["places"], rotated["places"])
    assert np.array_equal(plain["actions"], rotated["actions"])


def test_seats_places_are_balanced_per_deal(tmp_path):
    spec = ex.load_spec(write(tmp_path, "seats.toml", SEATS))
    played = play(spec, games=300)
    for st, p in zip(played.stats, spec.points):
        n = p.players
        total = sum(m.s1 for m in st.seat_place)
        assert total == st.deals * n * n * (n + 1) // 2  # every game's places are 1..n
        assert sum(m.s1 for m in st.seat_win) == st.deals * n
    rows = SEATS_DESIGN.analyse(played)
    assert rows[0].length_vs_first is None  # the first variant itself
    assert rows[1].length_paired is True  # same deck size: paired with the first variant
    assert rows[2].length_paired is False  # two decks: other shuffles


# ---- determinism ---------------------------------------------------------------------------

def test_numbers_do_not_depend_on_the_chunk_size(tmp_path, monkeypatch):
    specs = [ex.load_spec(write(tmp_path, "p.toml", PAIRED)), ex.load_spec(write(tmp_path, "s.toml", SEATS))]
    whole = [csv_text(ex.DESIGNS[spec.design], spec, analyse(spec)) for spec in specs]
    monkeypatch.setattr(PairedDesign, "chunk_games", 36)
    monkeypatch.setattr(SeatsDesign, "chunk_games", 30)
    for spec, text in zip(specs, whole):
        assert csv_text(ex.DESIGNS[spec.design], spec, analyse(spec)) == text


def test_report_regenerates_byte_for_byte(tmp_path, capsys):
    specs = tmp_path / "specs"
    specs.mkdir()
    write(specs, "paired.toml", PAIRED)
    write(specs, "seats.toml", SEATS)
    outputs = []
    for k in range(2):
        out = tmp_path / f"out{k}"
        code, stdout, err = run_cli(capsys, "report", "--all", "--specs-dir", specs, "--out", out)
        assert code == 0, err
        outputs.append(out)
    names = sorted(p.name for p in outputs[0].iterdir())
    assert names == ["README.md", "paired.csv", "paired.md", "paired.png", "seats.csv", "seats.md", "seats.png"]
    for name in names:
        assert (outputs[0] / name).read_bytes() == (outputs[1] / name).read_bytes(), name
    index = (outputs[0] / "README.md").read_text()
    assert "[small paired test](paired.md)" in index and "[small seats test](seats.md)" in index
    report = (outputs[0] / "paired.md").read_text()
    for part in ("**Question.**", "**Answer.**", "## Numbers", "## Size", "half-width", "paired.png"):
        assert part in report
    assert (outputs[0] / "paired.csv").read_text().count("\n") == 3  # header + 2 settings


def test_shipped_spec_quick_report_is_reproducible(tmp_path, capsys):
    for k in range(2):
        code, _, err = run_cli(capsys, "report", REPORTS / "tens_faceup.toml", "--quick", "--out", tmp_path / f"q{k}")
        assert code == 0, err
    for suffix in (".md", ".csv", ".png"):
        a = (tmp_path / "q0" / f"tens_faceup{suffix}").read_bytes()
        assert a == (tmp_path / "q1" / f"tens_faceup{suffix}").read_bytes()
    assert "`--quick` check size" in (tmp_path / "q0" / "tens_faceup.md").read_text()


def test_the_quick_size_is_scaled_by_the_cost_of_the_seats():
    """--quick plays 4,000 games of basic's cost a setting: all of them with basic seats, a handful with a
    search seat (a game of it costs 40 x K games of basic), still at least 2 deals a setting."""
    from idiotsim.experiments.deals import QUICK_GAMES, quick_games
    assert quick_games(ex.load_spec(REPORTS / "tens_faceup.toml")) == QUICK_GAMES
    search = ex.load_spec(REPORTS / "burn_search.toml")
    assert 1 <= quick_games(search) <= QUICK_GAMES // 100
    first = search.points[0]
    played = PAIRED_DESIGN.play(dataclasses.replace(search, points=(first,)), Path("unused"), quick=True)
    assert played.quick and played.stats[0].deals == deals_for(PAIRED_DESIGN, quick_games(search), first) <= 3


def test_sequential_mode_stops_and_says_why(tmp_path):
    spec = ex.load_spec(write(tmp_path, "p.toml", PAIRED))
    played = play(spec, games=200_000, precision=0.2)
    assert played.reached and played.looks == 1
    rows = PAIRED_DESIGN.analyse(played)
    for st, r in zip(played.stats, rows):
        assert r.place_diff.half <= 0.2 and st.differing >= MIN_DIFFERING_DEALS
    text = "\n".join(size_lines(PAIRED_DESIGN, played, rows))
    assert "Sequential mode: stopped at look 1" in text
    played = play(spec, games=4_000, precision=1e-6)
    assert not played.reached and played.looks == 1
    assert all(st.deals == deals_for(PAIRED_DESIGN, 4_000, p) for st, p in zip(played.stats, spec.points))


# ---- specs -------------------------------------------------------------------------------------

def test_shipped_specs_are_valid():
    paths = ex.spec_paths(REPORTS)
    assert len(paths) >= 9
    for path in paths:
        spec = ex.load_spec(path)
        assert spec.question and spec.points


def test_with_knobs_replaces_and_appends():
    assert ex.with_knobs("heuristic", {"burn_min": 4}) == "heuristic:burn_min=4"
    assert ex.with_knobs("heuristic:burn_min=8,swap=2", {"burn_min": 4.0}) == "heuristic:swap=2,burn_min=4"
    assert ex.with_knobs("counter:force_p=0.5", {"force_p": 0.25}) == "counter:force_p=0.25"


BASE = """\
question = "q"
treatment = "heuristic:swap=1"
control = "basic"
opponents = ["basic"]
players = 4
games = 1000
seed = 1
"""

MALFORMED = [
    ("missing field", BASE.replace('control = "basic"\n', ""), "control", "missing"),
    ("unknown field", BASE + "colour = 3\n", "colour", "unknown field"),
    ("unknown strategy", BASE.replace('"heuristic:swap=1"', '"cleverbot"'), "treatment", "unknown strategy"),
    ("unknown knob", BASE.replace('"heuristic:swap=1"', '"heuristic:bravery=3"'), "treatment", "no knob"),
    ("bad opponent", BASE.replace('["basic"]', '["basic", "nobody"]'), "opponents[1]", "unknown strategy"),
    ("bad rule value", BASE + "[rules]\nlow_rank = 8\n", "rules.low_rank", "low_rank"),
    ("unknown rule", BASE + "[rules]\nlowrank = 7\n", "rules.lowrank", "unknown rule"),
    ("bad players", BASE.replace("players = 4", "players = 11"), "players", "2..10"),
    ("games type", BASE.replace("games = 1000", 'games = "many"'), "games", "integer"),
    ("sweep knob", BASE + '[sweep]\nknob = "bravery"\nvalues = [1]\n', "sweep.knob", "no knob"),
    ("sweep value", BASE + '[sweep]\nknob = "burn_min"\nvalues = [1, 500]\n', "sweep.values[1]", "out of range"),
    ("sweep rule value", BASE + '[sweep]\nrule = "players"\nvalues = [3, 12]\n', "sweep.values[1]", "players"),
    ("sweep unknown field", BASE + '[sweep]\nrule = "players"\nvalues = [3]\nstep = 1\n', "sweep.step", "unknown"),
    ("variant rule", BASE + '[[sweep.variants]]\nlabel = "x"\nrules = { six_burn = 2 }\n',
     "sweep.variants[0].rules", "six_burn"),
    ("design", BASE + 'design = "duel"\n', "design", "paired"),
]


@pytest.mark.parametrize("case,text,fieldname,words", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_spec_is_a_one_line_error_naming_file_and_field(tmp_path, capsys, case, text, fieldname, words):
    path = write(tmp_path, "bad.toml", text)
    code, out, err = run_cli(capsys, "report", path, "--out", tmp_path / "out")
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert str(path) in err and f"field '{fieldname}'" in err and words in err, err
    assert not (tmp_path / "out").exists()


def test_report_usage_errors(tmp_path, capsys):
    code, _, err = run_cli(capsys, "report")
    assert code == 2 and "--all" in err
    code, _, err = run_cli(capsys, "report", REPORTS / "tens_faceup.toml", "--quick", "--games", "10")
    assert code == 2 and "--games" in err
    code, _, err = run_cli(capsys, "report", tmp_path / "none.toml")
    assert code == 2 and "cannot read" in err
    bad = write(tmp_path, "x.toml", "question = [\n")
    code, _, err = run_cli(capsys, "report", bad)
    assert code == 2 and "not valid TOML" in err
    a_file = write(tmp_path, "file.txt", "keep me\n")
    code, _, err = run_cli(capsys, "report", REPORTS / "tens_faceup.toml", "--quick", "--out", a_file / "out")
    assert code == 2 and err.count("\n") == 1 and "cannot create the --out folder" in err, err
    code, _, err = run_cli(capsys, "report", "--check")
    assert code == 2 and err.count("\n") == 1 and "with --all" in err, err
    code, _, err = run_cli(capsys, "report", "--all", "--check", "--quick")
    assert code == 2 and err.count("\n") == 1 and "without --games, --quick" in err, err


def test_check_finds_every_stale_missing_or_extra_report_file(tmp_path, capsys):
    specs = tmp_path / "specs"
    specs.mkdir()
    write(specs, "small.toml", PAIRED.replace("games = 1200", "games = 240"))
    code, _, _ = run_cli(capsys, "report", "--all", "--specs-dir", specs)
    assert code == 0
    code, out, _ = run_cli(capsys, "report", "--all", "--check", "--specs-dir", specs)
    assert code == 0 and "matches its regeneration" in out
    csv = specs / "small.csv"
    csv.write_bytes(csv.read_bytes().replace(b"0", b"1", 1))  # one stale byte
    (specs / "small.png").unlink()
    write(specs, "old.md", "a report whose spec is gone\n")
    write(specs, "tuned.md", "a report made by idiotsim optimize, not by report --all\n")  # not checked
    code, out, _ = run_cli(capsys, "report", "--all", "--check", "--specs-dir", specs)
    listed = [line.strip() for line in out.splitlines()[1:]]
    assert code == 1 and listed == [str(specs / name) for name in ("old.md", "small.csv", "small.png")], out


LEADERBOARD = """\
title = "small leaderboard"
question = "q"
design = "tournament"
strategies = ["basic", "random"]
players = 2
games = 40
seed = 3
check_games = 10
"""


def test_a_large_tournament_is_checked_at_its_reduced_size(tmp_path, capsys, monkeypatch):
    specs = tmp_path / "specs"
    specs.mkdir()
    write(specs, "board.toml", LEADERBOARD)
    code, _, err = run_cli(capsys, "report", "--all", "--specs-dir", specs)
    assert code == 0, err
    check = specs / "check"
    assert {"board.md", "board.csv", "board"} <= {p.name for p in check.iterdir()}
    assert {p.name for p in (check / "board").iterdir()} == {p.name for p in (specs / "board").iterdir()}
    full, reduced = (specs / "board.md").read_text(), (check / "board.md").read_text()
    assert "40 games;" in full and "10 games in all" in full and "check/board.md" in full
    assert "10 games (the reduced size CI checks: not the shipped numbers)" in reduced
    assert "](../board.toml)" in reduced
    assert "[small leaderboard](board.md) * " in (specs / "README.md").read_text()

    sizes = []
    play = ex.DESIGNS["tournament"].play
    monkeypatch.setattr(type(ex.DESIGNS["tournament"]), "play", lambda self, spec, out, games=None, **kw:
                        sizes.append(games) or play(spec, out, games=games, **kw))
    code, out, _ = run_cli(capsys, "report", "--all", "--check", "--specs-dir", specs)
    assert code == 0 and "matches its regeneration" in out, out
    assert sizes == [10]  # the reduced size only; the index counts the committed 40 games
    assert "| 40 |" in (specs / "README.md").read_text()

    plot = specs / "board" / "mean_place.png"
    plot.write_bytes(plot.read_bytes() + b"\0")  # the full-size files are not compared byte for byte
    code, out, _ = run_cli(capsys, "report", "--all", "--check", "--specs-dir", specs)
    assert code == 0, out
    table = check / "board" / "summary_strategies.csv"
    table.write_text(table.read_text().replace("0", "1", 1))
    (specs / "board" / "summary.md").unlink()
    code, out, _ = run_cli(capsys, "report", "--all", "--check", "--specs-dir", specs)
    listed = [line.strip() for line in out.splitlines()[1:]]
    assert code == 1 and listed == [str(specs / name) for name in ("board/summary.md",
                                                                    "check/board/summary_strategies.csv")], out


def test_sequential_mode_needs_deals_that_differ(tmp_path):
    """A/A with shared streams: every difference is 0, so the half-width is 0 at once, but with no deal
    that differs the variance is not estimated and play must not stop."""
    spec = ex.load_spec(write(tmp_path, "aa.toml", AA.format(streams="shared")))
    played = play(spec, games=30_000, precision=0.05)
    assert all(st.differing == 0 and st.half_width() == 0 for st in played.stats)
    assert not played.reached


def test_holm_decides_significance_within_a_report(tmp_path):
    """A mean-place difference whose own 95% CI excludes 0 (p about 0.04) is not called significant in a
    report of 4 tests (2 settings x mean place and win rate) where nothing else is: Holm p about 0.17."""
    from idiotsim.experiments.deal_play import Played
    spec = ex.load_spec(write(tmp_path, "p.toml", PAIRED.replace("players = 3", "players = 2")))
    deals = 100
    # Places of the two focal seats: the treatment is one place worse on 60 deals, one better on 40.
    treatment = np.array([[2, 1]] * 60 + [[1, 1]] * 40)
    control = np.array([[1, 1]] * 60 + [[2, 1]] * 40)
    zeros = np.zeros((deals, 2), dtype=np.int64)
    effect, null = PairedStatistics(2), PairedStatistics(2)
    effect.add(treatment, control, zeros, zeros, zeros, zeros)
    null.add(control, control, zeros, zeros, zeros, zeros)
    rows = PAIRED_DESIGN.analyse(Played(spec, 0, [effect, null]))
    place = rows[0].place_diff
    assert place.excludes_zero() and place.p == pytest.approx(0.042, abs=0.005)
    assert place.p_holm == pytest.approx(4 * place.p) and not place.significant()
    assert "makes no significant difference to your mean place" in PAIRED_DESIGN.sentence(spec, spec.points[0], rows[0])
    assert "every setting" not in headline(PAIRED_DESIGN, spec, rows)
