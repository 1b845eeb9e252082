"""The strong design and what it brought to the specs (idiotsim.experiments.strong, spec.py, writing.py).

- the strong and the beginner arms are seated and dealt as two paired reports would be: their numbers are
  exactly those of the paired reports of the same contrasts, and strong minus beginner is their difference;
- when the two contrasts coincide the difference is exactly 0 on every deal;
- [[fields]] give every setting their opponents and size, `{players}` the setting's player count;
- a spec with `check_games` is checked at that reduced size against check/NAME.*, its full-size files
  only for being there (and for the index, which takes their answer), and the index gains the tips table;
- malformed fields are one error line naming the field (the coverage of the new interval:
  tests/analysis/test_coverage.py);
- the reference arm (`reference = "basic"`) measures each strong arm against basic exactly as a paired
  report of that arm against basic would, on the same deals;
- variants are levels of play (their own treatment, control, size, fields and level), fields take a share;
- every report opens with a plain sentence: the advice its settled answer supports, the effect among
  beginners and at strong play, and first a warning where a control plays worse than the reference;
- `idiotsim report --reduced` writes the reduced-size results and the index from the committed reports;
  the index's tips tables tell a level no spec asks ("not asked") from one a stale report lacks ("not run yet").
"""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from helpers import run_cli
from idiotsim import experiments as ex
from idiotsim.analysis.stats import Interval
from idiotsim.experiments.strong import StrongDesign, StrongRow, gap_verdict, plain_sentence
from idiotsim.experiments.text import format_interval

STRONG = """\
title = "small strong test"
question = "Does holding back copies help a stronger player?"
design = "strong"
treatment = "heuristic-tuned-{players}p:max_copies=1"
control = "heuristic-tuned-{players}p"
treatment_label = "Holding back copies"
control_label = "playing every copy"
opponents = ["basic"]
players = 3
games = 480
seed = 12

[beginner]
treatment = "heuristic:max_copies=1"
control = "basic"
report = "beginner"
"""

PAIRED = """\
question = "the same contrast as a paired report"
treatment = "{treatment}"
control = "{control}"
opponents = ["basic"]
players = 3
games = 240
seed = 12
"""

FIELDS = """
[[fields]]
label = "basic opponents"
opponents = ["basic"]
games = 960

[[fields]]
label = "tuned opponents"
opponents = ["heuristic-tuned-{players}p"]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def analyse(spec) -> list:
    design = ex.DESIGNS[spec.design]
    return design.analyse(design.play(spec, Path("unused")))


def test_each_contrast_is_what_its_own_paired_report_finds(tmp_path):
    """Same seed and deals: the strong arms are the paired report of the strong contrast, the beginner arms
    that of the beginner contrast (before the Holm adjustment, which differs with the family)."""
    row = analyse(ex.load_spec(write(tmp_path, "s.toml", STRONG)))[0]
    strong = analyse(ex.load_spec(write(tmp_path, "a.toml", PAIRED.format(
        treatment="heuristic-tuned-3p:max_copies=1", control="heuristic-tuned-3p"))))[0]
    beginner = analyse(ex.load_spec(write(tmp_path, "b.toml", PAIRED.format(
        treatment="heuristic:max_copies=1", control="basic"))))[0]
    for mine, theirs in ((row.strong, strong), (row.beginner, beginner)):
        assert mine.deals == theirs.deals == 40
        for name in ("place_diff", "win_diff", "idiot_diff"):
            a, b = getattr(mine, name), getattr(theirs, name)
            assert (a.mean, a.lo, a.hi, a.p) == (b.mean, b.lo, b.hi, b.p), name
        assert mine.treatment_place == theirs.treatment_place and mine.control_place == theirs.control_place
    assert row.gap.mean == pytest.approx(strong.place_diff.mean - beginner.place_diff.mean, abs=1e-12)
    assert row.beginner.place_diff.mean != 0 and row.strong.place_diff.mean != row.beginner.place_diff.mean
    assert row.strength.mean == pytest.approx(strong.control_place - beginner.control_place, abs=1e-12)
    assert row.games == 2 * 40 * 3 * 2


def test_coinciding_contrasts_differ_by_exactly_zero(tmp_path):
    text = STRONG.replace("heuristic-tuned-{players}p", "heuristic")
    text = text.replace('control = "heuristic"', 'control = "basic"')
    row = analyse(ex.load_spec(write(tmp_path, "s.toml", text)))[0]
    assert row.strong.place_diff.mean == row.beginner.place_diff.mean != 0
    assert (row.gap.mean, row.gap.lo, row.gap.hi) == (0, 0, 0) and row.gap.p == 1.0
    assert (row.strength.mean, row.strength.lo, row.strength.hi) == (0, 0, 0)
    assert gap_verdict(row) == "no significant difference from the beginner's answer"


def test_fields_give_each_setting_its_opponents_and_size(tmp_path):
    spec = ex.load_spec(write(tmp_path, "s.toml", STRONG + '[sweep]\nrule = "players"\nvalues = [2, 3]\n' + FIELDS))
    assert spec.fields == ("basic opponents", "tuned opponents")
    assert [p.label for p in spec.points] == ["players=2, basic opponents", "players=3, basic opponents",
                                              "players=2, tuned opponents", "players=3, tuned opponents"]
    assert [p.opponents for p in spec.points] == [("basic",), ("basic",), ("heuristic-tuned-2p",),
                                                  ("heuristic-tuned-3p",)]
    assert [p.treatment for p in spec.points[:2]] == ["heuristic-tuned-2p:max_copies=1",
                                                      "heuristic-tuned-3p:max_copies=1"]
    assert all(p.beginner_opponents == ("basic",) for p in spec.points)
    rows = analyse(spec)
    assert [r.deals for r in rows] == [120, 80, 60, 40]  # 960 and 480 games of 4 arms x players a deal
    assert [r.strength is None for r in rows] == [False, False, True, True]


def test_a_knob_sweep_sets_the_knob_in_both_treatments(tmp_path):
    spec = ex.load_spec(write(tmp_path, "s.toml", STRONG + '[sweep]\nknob = "max_copies"\nvalues = [1, 2]\n'))
    assert [(p.treatment, p.beginner_treatment) for p in spec.points] == [
        ("heuristic-tuned-3p:max_copies=1", "heuristic:max_copies=1"),
        ("heuristic-tuned-3p:max_copies=2", "heuristic:max_copies=2")]


MALFORMED = [
    ("beginner missing", STRONG.split("[beginner]")[0], "beginner", "missing"),
    ("beginner control", STRONG.replace('control = "basic"\n', ""), "beginner.control", "missing"),
    ("beginner field", STRONG + "colour = 1\n", "beginner.colour", "unknown field"),
    ("beginner knob", STRONG.replace('"heuristic:max_copies=1"', '"basic"')
     + '[sweep]\nknob = "max_copies"\nvalues = [1, 2]\n', "sweep.values[0]", "no knob"),
    ("report name", STRONG.replace('report = "beginner"', 'report = "../x"'), "beginner.report", "report name"),
    ("field label", STRONG + FIELDS.replace("tuned opponents", "basic opponents"), "fields[1].label", "repeats"),
    ("field games", STRONG + FIELDS.replace("games = 960", "games = 0"), "fields[0].games", "1.."),
    ("field opponents", STRONG + FIELDS.replace('["basic"]', '["nobody"]', 1), "fields[0].opponents[0]",
     "unknown strategy"),
    ("fields and series", STRONG + '[sweep]\nrule = "players"\nvalues = [2, 3]\n[sweep.series]\nknob = '
     '"max_copies"\nvalues = [1, 2]\n' + FIELDS, "fields", "series"),
    ("players mark", STRONG + '[sweep]\nrule = "players"\nvalues = [3, 6]\n', "sweep", "heuristic-tuned-6p"),
    ("check games", STRONG.replace("seed = 12", "seed = 12\ncheck_games = 0"), "check_games", "1.."),
    ("reference", STRONG.replace("seed = 12", 'seed = 12\nreference = "nobody"'), "reference", "unknown strategy"),
    ("field share", STRONG + FIELDS.replace("games = 960", "share = 1.5"), "fields[0].share", "(0, 1]"),
    ("variant level", STRONG + '[[sweep.variants]]\nlabel = "x"\nlevel = "expert"\n', "sweep.variants[0].level",
     "fast, strong"),
    ("variant fields", STRONG + FIELDS + '[[sweep.variants]]\nlabel = "x"\nfields = ["nobody"]\n',
     "sweep.variants[0].fields", "no [[fields]] is labelled 'nobody'"),
    ("variant fields alone", STRONG + '[[sweep.variants]]\nlabel = "x"\nfields = ["a"]\n', "sweep.variants",
     "the spec has none"),
    ("variant treatment", STRONG + '[[sweep.variants]]\nlabel = "x"\ntreatment = "basic+up=11"\n',
     "sweep.variants[0].treatment", "not a rank"),
]


@pytest.mark.parametrize("case,text,fieldname,words", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_strong_spec_is_one_error_line_naming_the_field(tmp_path, capsys, case, text, fieldname, words):
    path = write(tmp_path, "bad.toml", text)
    code, out, err = run_cli(capsys, "report", path, "--out", tmp_path / "out")
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert str(path) in err and f"field '{fieldname}'" in err and words in err, err
    assert not (tmp_path / "out").exists()


def test_a_large_report_is_checked_at_its_reduced_size(tmp_path, capsys, monkeypatch):
    specs = tmp_path / "specs"
    specs.mkdir()
    write(specs, "beginner.toml", PAIRED.format(treatment="heuristic:max_copies=1", control="basic"))
    write(specs, "strong.toml", STRONG.replace("seed = 12", "seed = 12\ncheck_games = 120"))
    code, _, err = run_cli(capsys, "report", "--all", "--specs-dir", specs)
    assert code == 0, err
    assert {p.name for p in (specs / "check").iterdir()} == {"strong.md", "strong.csv", "strong.png"}
    full, reduced = (specs / "strong.md").read_text(), (specs / "check" / "strong.md").read_text()
    assert "40 deals" in full and "check/strong.md" in full
    assert "10 deals" in reduced and "not the shipped numbers" in reduced
    index = (specs / "README.md").read_text()
    assert "## The tips at every level of play" in index and "[small strong test](strong.md) *" in index
    plain = full.splitlines()[2]  # the report's first sentence, which the index's answer column shows
    assert plain and f"| {plain} |" in index
    # the tips tables: the 3-player cell of the gated level's row, from the full-size CSV (3 players: not 4)
    row = next(r for r in csv.DictReader((specs / "strong.csv").open()))
    x = Interval(float(row["diff"]), float(row["diff_lo"]), float(row["diff_hi"]), float(row["diff_half"]),
                 p_holm=float(row["diff_p_holm"]))
    verdict = ("**helps**" if x.mean < 0 else "**hurts**") if x.significant() else "unclear"
    assert f"| [small strong test](strong.md) | not asked | {format_interval(x, 3)} {verdict} | not asked | not asked |" \
        in index

    sizes = []
    play = StrongDesign.play
    monkeypatch.setattr(StrongDesign, "play", lambda self, spec, out, games=None, **kw:
                        sizes.append(games) or play(self, spec, out, games=games, **kw))
    code, out, _ = run_cli(capsys, "report", "--all", "--check", "--specs-dir", specs)
    assert code == 0 and "matches its regeneration" in out, out
    assert sizes == [120]  # the reduced size only

    png = specs / "strong.png"
    png.write_bytes(png.read_bytes() + b"\0")  # the full-size files are not compared byte for byte
    code, out, _ = run_cli(capsys, "report", "--all", "--check", "--specs-dir", specs)
    assert code == 0, out
    check_csv = specs / "check" / "strong.csv"
    check_csv.write_text(check_csv.read_text().replace("0", "1", 1))
    (specs / "strong.md").unlink()
    code, out, _ = run_cli(capsys, "report", "--all", "--check", "--specs-dir", specs)
    listed = [line.strip() for line in out.splitlines()[1:]]
    assert code == 1 and listed == [str(specs / name) for name in ("README.md", "check/strong.csv", "strong.md")], out


def _row(strong: tuple, beginner: tuple, gap: tuple) -> StrongRow:
    from idiotsim.experiments.paired_design import PairedRow
    from idiotsim.analysis.stats import Interval

    def interval(mean_lo_hi):
        mean, lo, hi = mean_lo_hi
        p = 0.001 if lo > 0 or hi < 0 else 0.5
        return Interval(mean, lo, hi, (hi - lo) / 2, p, p_holm=p)

    def paired(x):
        fields = {f.name: None for f in PairedRow.__dataclass_fields__.values()}
        return PairedRow(**{**fields, "place_diff": interval(x)})
    return StrongRow(paired(strong), paired(beginner), interval(gap), None)


@pytest.mark.parametrize("strong,beginner,words", [
    ((-0.01, -0.015, -0.005), (-0.05, -0.06, -0.04), "smaller at strong play"),
    ((-0.08, -0.09, -0.07), (-0.05, -0.06, -0.04), "larger at strong play"),
    ((0.03, 0.02, 0.04), (-0.05, -0.06, -0.04), "reversed at strong play"),
    ((0.001, -0.01, 0.01), (-0.05, -0.06, -0.04), "gone at strong play"),
    ((-0.05, -0.06, -0.04), (0.001, -0.01, 0.01), "only at strong play"),
])
def test_the_verdict_says_how_the_strong_answer_differs(strong, beginner, words):
    differs = _row(strong, beginner, (0.04, 0.03, 0.05))
    assert gap_verdict(differs) == f"the strong-play answer differs from the beginner's: {words}"
    same = _row(strong, beginner, (0.04, -0.01, 0.09))
    assert gap_verdict(same) == "no significant difference from the beginner's answer"


# ---- the reference arm, levels, the plain sentence, --reduced ---------------------------------------------------

REFERENCE = STRONG.replace("seed = 12", 'seed = 12\nreference = "basic"\nadvice = "Hold back copies"\n'
                                      'advice_against = "Play every copy"').replace("games = 480", "games = 600")


def test_the_reference_arm_measures_each_strong_arm_against_basic(tmp_path):
    """Same seed and deals: the strength of each strong arm is the paired report of that arm against basic."""
    row = analyse(ex.load_spec(write(tmp_path, "s.toml", REFERENCE)))[0]
    for arm, strength in (("heuristic-tuned-3p", row.strength), ("heuristic-tuned-3p:max_copies=1",
                                                                 row.treatment_strength)):
        paired = analyse(ex.load_spec(write(tmp_path, "p.toml", PAIRED.format(treatment=arm, control="basic"))))[0]
        x = paired.place_diff
        assert (strength.mean, strength.lo, strength.hi, strength.p) == (x.mean, x.lo, x.hi, x.p)
    assert row.strength.mean != 0 and row.games == 5 * 40 * 3
    without = analyse(ex.load_spec(write(tmp_path, "s.toml", STRONG)))[0]  # the other arms: the same games
    assert (row.place_diff.mean, row.beginner_diff.mean, row.gap.mean) == (
        without.place_diff.mean, without.beginner_diff.mean, without.gap.mean)


LEVELS = REFERENCE + FIELDS.replace("games = 960", "share = 0.5") + """
[[sweep.variants]]
label = "tuned"

[[sweep.variants]]
label = "weighted"
level = "fast"
treatment = "tuned-{players}p+copies=1"
control = "tuned-{players}p"
games = 240
fields = ["basic opponents"]
"""


def test_variants_are_levels_with_their_own_players_sizes_and_fields(tmp_path):
    spec = ex.load_spec(write(tmp_path, "s.toml", LEVELS))
    assert [(p.label, p.level, p.treatment, p.games) for p in spec.points] == [  # the basic field takes half
        ("tuned, basic opponents", "strong", "heuristic-tuned-3p:max_copies=1", 300),
        ("weighted, basic opponents", "fast", "tuned-3p+copies=1", 120),
        ("tuned, tuned opponents", "strong", "heuristic-tuned-3p:max_copies=1", 600)]
    rows = analyse(spec)
    assert [r.deals for r in rows] == [20, 8, 40]  # 5 arms x 3 players a deal
    assert all(r.strength is not None and r.treatment_strength is not None for r in rows)
    text = StrongDesign().render(ex.DESIGNS["strong"].play(spec, tmp_path), rows, tmp_path).markdown
    assert "  - weighted: `tuned-3p+copies=1` against `tuned-3p`" in text
    assert "| tuned, basic opponents | 20 |" in text and "strength: strong C minus `basic`" in text


def _spec(tmp_path, text=REFERENCE):
    return ex.load_spec(write(tmp_path, "plain.toml", text))


def _with_strength(row: StrongRow, strength: tuple) -> StrongRow:
    from dataclasses import replace
    mean, lo, hi = strength
    p = 0.001 if lo > 0 or hi < 0 else 0.5
    return replace(row, strength=Interval(mean, lo, hi, (hi - lo) / 2, p, p_holm=p))


@pytest.mark.parametrize("strong,beginner,sentence", [
    ((-0.01, -0.015, -0.005), (-0.05, -0.06, -0.04),
     "Hold back copies: it gains about 0.05 places a game among beginners and 0.01 at strong play."),
    ((0.08, 0.07, 0.09), (0.05, 0.04, 0.06),
     "Play every copy: holding back copies costs about 0.05 places a game among beginners and 0.08 at strong play."),
    ((-0.03, -0.04, -0.02), (0.05, 0.04, 0.06),
     "Hold back copies: it costs about 0.05 places a game among beginners but gains about 0.03 at strong play."),
    ((0.001, -0.01, 0.01), (-0.05, -0.06, -0.04),
     "Hold back copies: it gains about 0.05 places a game among beginners and makes no clear difference at strong "
     "play."),
    ((0.001, -0.01, 0.01), (0.001, -0.01, 0.01),
     "Holding back copies instead of playing every copy makes no clear difference among beginners or at strong "
     "play."),
    ((-0.0004, -0.0006, -0.0002), (-0.05, -0.06, -0.04),
     "Hold back copies: it gains about 0.05 places a game among beginners and 0.0004 at strong play."),
])
def test_the_plain_sentence_leads_with_the_advice_the_answer_supports(tmp_path, strong, beginner, sentence):
    spec = _spec(tmp_path)
    row = _with_strength(_row(strong, beginner, (0.0, -0.1, 0.1)), (-0.2, -0.25, -0.15))
    assert plain_sentence(spec, [row]) == sentence


@pytest.mark.parametrize("other,clause", [
    ((-0.09, -0.11, -0.07), ""),  # about the first level's: the first sentence speaks of the first level only
    ((-0.01, -0.015, -0.005), " (the tuned level; 0.01 at the weighted level)"),
    ((0.001, -0.01, 0.01), " (the tuned level; no clear difference at the weighted level)"),
    ((0.03, 0.02, 0.04), " (the tuned level; costs about 0.03 places a game at the weighted level)"),
])
def test_a_level_that_disagrees_with_the_first_is_named_in_the_first_sentence(tmp_path, other, clause):
    spec = ex.load_spec(write(tmp_path, "s.toml", LEVELS))
    first = _row((-0.10, -0.12, -0.08), (-0.05, -0.06, -0.04), (-0.05, -0.07, -0.03))
    rows = [first, _row(other, (-0.05, -0.06, -0.04), (0.0, -0.1, 0.1)), first]
    assert plain_sentence(spec, rows) == (
        f"Hold back copies: it gains about 0.05 places a game among beginners and 0.10 at strong play{clause}.")


def test_a_control_weaker_than_the_reference_is_named_in_the_first_sentence(tmp_path):
    spec = _spec(tmp_path)
    row = _with_strength(_row((-0.4, -0.45, -0.35), (-0.01, -0.02, 0.0), (0.0, -0.1, 0.1)), (0.33, 0.3, 0.36))
    assert plain_sentence(spec, [row]) == (
        "Careful: the control here plays worse than `basic`, by about 0.33 places a game. Hold back copies: it makes "
        "no clear difference among beginners and gains about 0.40 places a game at strong play.")


def test_the_paired_plain_sentence_groups_the_settings_by_their_answer(tmp_path):
    from idiotsim.experiments.paired_design import PairedDesign
    spec = ex.load_spec(write(tmp_path, "p.toml", PAIRED.format(treatment="heuristic:max_copies=1", control="basic")
                              + 'advice = "Hold back"\nadvice_against = "Play every copy"\ntreatment_label = '
                              '"Holding back"\ncontrol_label = "playing every copy"\n[sweep]\nrule = "players"\n'
                              'values = [2, 3, 4, 5]\n'))
    rows = [_row(x, x, x).strong for x in ((0.03, 0.02, 0.04), (0.05, 0.04, 0.06), (0.0, -0.01, 0.01),
                                           (0.011, 0.001, 0.021))]
    assert PairedDesign().plain_sentence(spec, rows) == (
        "Play every copy: holding back costs about 0.03, 0.05 and 0.01 places a game at 2, 3 and 5 players and "
        "makes no clear difference at 4 players.")


def test_reduced_writes_the_check_files_and_the_index_from_the_committed_reports(tmp_path, capsys):
    specs = tmp_path / "specs"
    specs.mkdir()
    write(specs, "beginner.toml", PAIRED.format(treatment="heuristic:max_copies=1", control="basic"))
    write(specs, "strong.toml", REFERENCE.replace("seed = 12", "seed = 12\ncheck_games = 120"))
    line = run_cli(capsys, "report", specs / "beginner.toml", "--reduced")[2]
    assert "has no check_games" in line and line.count("\n") == 1
    (specs / "beginner.toml").write_text(PAIRED.format(treatment="heuristic:max_copies=1", control="basic")
                                         + "check_games = 48\n")
    code, _, err = run_cli(capsys, "report", "--all", "--specs-dir", specs)
    assert code == 0, err
    committed = {p: p.read_bytes() for p in specs.rglob("*") if p.is_file()}
    for p in specs.glob("check/*"):
        p.unlink()
    (specs / "README.md").unlink()
    code, _, err = run_cli(capsys, "report", "--all", "--reduced", "--specs-dir", specs)
    assert code == 0, err
    assert {p: p.read_bytes() for p in specs.rglob("*") if p.is_file()} == committed
    code, out, _ = run_cli(capsys, "report", "--all", "--check", "--specs-dir", specs)
    assert code == 0, out
    md = specs / "strong.md"
    md.write_text(md.read_text().replace(md.read_text().splitlines()[2], "A stale first sentence."))
    code, _, err = run_cli(capsys, "report", specs / "strong.toml", "--reduced")
    assert code == 0, err
    assert "| A stale first sentence. |" in (specs / "README.md").read_text()
    line = run_cli(capsys, "report", specs / "strong.toml", "--reduced", "--quick")[2]
    assert line.startswith("error: --reduced") and line.count("\n") == 1


def test_the_plain_sentence_of_a_report_by_table_size_lists_the_sizes(tmp_path):
    spec = _spec(tmp_path, REFERENCE + '[sweep]\nrule = "players"\nvalues = [2, 3, 5]\n')
    rows = [_row(s, b, (0.0, -0.1, 0.1)) for s, b in (((-0.04, -0.05, -0.03), (-0.05, -0.06, -0.04)),
                                                       ((-0.08, -0.09, -0.07), (0.001, -0.01, 0.01)),
                                                       ((-0.15, -0.16, -0.14), (-0.14, -0.15, -0.13)))]
    # one sentence would run to 231 characters: the advice is a sentence of its own (a first sentence < 200)
    assert plain_sentence(spec, rows) == (
        "Hold back copies. At strong play, it gains about 0.04, 0.08 and 0.15 places a game at 2, 3 and 5 players; "
        "among beginners it gains about 0.05 and 0.14 places a game at 2 and 5 players and makes no clear difference "
        "at 3 players.")
    two = _spec(tmp_path, REFERENCE + '[sweep]\nrule = "players"\nvalues = [2, 5]\n')
    assert plain_sentence(two, [rows[0], rows[2]]) == (  # 174 characters: one sentence, as before
        "Hold back copies: at strong play, it gains about 0.04 and 0.15 places a game at 2 and 5 players; among "
        "beginners it gains about 0.05 and 0.14 places a game at 2 and 5 players.")


def test_the_tips_tables_tell_a_level_not_asked_from_one_not_run_yet(tmp_path):
    """A cell the spec asks but its committed full-size CSV lacks (a report predating the spec) says "not run
    yet", a level no spec asks "not asked"; the table-size table links the tip to its report by table size."""
    from idiotsim.experiments.index import tips_table
    from idiotsim.experiments.spec import load_spec
    from idiotsim.experiments.writing import Written
    beginner = load_spec(write(tmp_path, "beginner.toml", PAIRED.format(treatment="heuristic:max_copies=1",
                                                                         control="basic")))
    strong = load_spec(write(tmp_path, "strong.toml", STRONG.replace("players = 3", "players = 4")))
    sizes = load_spec(write(tmp_path, "strong_sizes.toml", STRONG + '\n[[sweep.variants]]\nlabel = "2 players"\n'
                            'rules = { players = 2 }\n\n[[sweep.variants]]\nlabel = "5 players"\n'
                            'rules = { players = 5 }\n'))
    old = write(tmp_path, "strong.csv", "setting,deals,diff\nall,40,-0.1\n")  # no level, players: stale
    new = write(tmp_path, "strong_sizes.csv", "setting,level,players,field,deals,diff,diff_lo,diff_hi,diff_half,"
                "diff_p_holm,strength_diff,strength_lo,strength_hi,strength_p_holm\n"
                "2 players,strong,2,,40,-0.1,-0.2,-0.05,0.075,0.001,,,,\n")  # 5 players: not run
    lines = tips_table([Written(beginner, "", [], 0), Written(strong, "", [old], 0), Written(sizes, "", [new], 0)])
    cells = [line.strip("| ").split(" | ")[1:] for line in lines if line.startswith("| [")]
    # 4 players, the level columns: the spec asks the gated level (and so the beginner's), not fast or search
    assert cells[0] == ["not run yet", "not asked", "not run yet", "not asked", "not asked"]  # no experts report
    assert lines[next(i for i, line in enumerate(lines) if "### Strong play by table size" in line) + 6] == (
        "| [small strong test](strong_sizes.md) | -0.100 (-0.200 to -0.050) **helps** | not asked | not run yet | "
        "not run yet |")
