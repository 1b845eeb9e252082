"""The experts design (idiotsim.experiments.strong.ExpertsDesign) and the index's "among strong players" column.

- the strong-table arms are the paired report of the contrast among the strong opponents, the beginners'-table
  arms that of the same contrast among `basic`, on the same deals;
- its words name tables, not levels of play, and its first sentence leads with whether the table changes the
  answer (and where);
- the index's tips tables gain the tip's answer among strong players, beside the answer among `basic` opponents,
  saying where the table changes it.
"""
from __future__ import annotations

from pathlib import Path

from idiotsim import experiments as ex
from idiotsim.experiments.strong import ExpertsDesign, StrongRow

EXPERTS = """\
title = "small experts test"
question = "Does holding back copies help at a table of good players?"
design = "experts"
treatment = "heuristic-tuned-{players}p:max_copies=1"
control = "heuristic-tuned-{players}p"
treatment_label = "Holding back copies"
control_label = "playing every copy"
advice = "Hold back copies"
advice_against = "Play every copy"
opponents = ["heuristic-tuned-{players}p"]
reference = "basic"
players = 3
games = 600
seed = 12

[beginner]
treatment = "heuristic-tuned-{players}p:max_copies=1"
control = "heuristic-tuned-{players}p"
opponents = ["basic"]
label = "the same player among basic opponents"
report = "beginner"
"""

PAIRED = """\
question = "the same contrast as a paired report"
treatment = "heuristic-tuned-3p:max_copies=1"
control = "heuristic-tuned-3p"
opponents = ["{opponent}"]
players = 3
games = 240
seed = 12
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def analyse(spec) -> list:
    design = ex.DESIGNS[spec.design]
    return design.analyse(design.play(spec, Path("unused")))


def test_each_table_is_what_a_paired_report_at_that_table_finds(tmp_path):
    row = analyse(ex.load_spec(write(tmp_path, "e.toml", EXPERTS)))[0]
    for mine, opponent in ((row.strong, "heuristic-tuned-3p"), (row.beginner, "basic")):
        theirs = analyse(ex.load_spec(write(tmp_path, "p.toml", PAIRED.format(opponent=opponent))))[0]
        assert mine.deals == theirs.deals == 40
        a, b = mine.place_diff, theirs.place_diff
        assert (a.mean, a.lo, a.hi, a.p) == (b.mean, b.lo, b.hi, b.p)
    assert row.strong.place_diff.mean != row.beginner.place_diff.mean
    assert row.gap.mean == row.strong.place_diff.mean - row.beginner.place_diff.mean


def _interval(mean, lo, hi):
    from idiotsim.analysis.stats import Interval
    p = 0.001 if lo > 0 or hi < 0 else 0.5
    return Interval(mean, lo, hi, (hi - lo) / 2, p, p_holm=p)


def _row(strong: tuple, beginner: tuple, gap: tuple) -> StrongRow:
    from idiotsim.experiments.paired_design import PairedRow

    def paired(x):
        fields = {f.name: None for f in PairedRow.__dataclass_fields__.values()}
        return PairedRow(**{**fields, "place_diff": _interval(*x)})
    return StrongRow(paired(strong), paired(beginner), _interval(*gap), _interval(-0.2, -0.25, -0.15))


SIZES = EXPERTS + "".join(f'\n[[sweep.variants]]\nlabel = "{n} players"\nrules = {{ players = {n} }}\n'
                          for n in (2, 3))


def test_the_first_sentence_says_where_the_table_changes_the_answer(tmp_path):
    spec = ex.load_spec(write(tmp_path, "e.toml", SIZES))
    changed = [_row((-0.06, -0.08, -0.04), (0.0, -0.01, 0.01), (-0.06, -0.09, -0.03)),
               _row((-0.05, -0.06, -0.04), (-0.04, -0.05, -0.03), (-0.01, -0.03, 0.01))]
    assert ExpertsDesign().plain_sentence(spec, changed) == (
        "The table changes this answer: it matters only among strong players at 2 players. Hold back copies. Among strong "
        "players, it gains about 0.06 and 0.05 places a game at 2 and 3 players; among beginners it gains about "
        "0.04 places a game at 3 players and makes no clear difference at 2 players.")
    larger = _row((-0.09, -0.10, -0.08), (-0.04, -0.05, -0.03), (-0.05, -0.06, -0.04))
    assert ExpertsDesign().plain_sentence(spec, [larger, larger]).startswith(
        "The table changes this answer: it matters more among strong players at 2 and 3 players. ")
    same = [changed[1], changed[1]]
    assert ExpertsDesign().plain_sentence(spec, same).startswith(
        "The table does not change this answer (no significant difference between the tables). Hold back copies")


def test_the_page_speaks_of_tables_not_of_levels_of_play(tmp_path):
    spec = ex.load_spec(write(tmp_path, "e.toml", EXPERTS))
    design = ex.DESIGNS["experts"]
    played = design.play(spec, tmp_path)
    text = design.render(played, design.analyse(played), tmp_path).markdown
    assert "among strong players" in text and "strong table minus beginners' table" in text
    assert "at strong play" not in text and "strong-minus-beginner" not in text


def test_the_tips_tables_give_the_answer_among_strong_players(tmp_path):
    from idiotsim.experiments.index import AMONG_STRONG, tips_table
    from idiotsim.experiments.spec import load_spec
    from idiotsim.experiments.writing import Written
    beginner = load_spec(write(tmp_path, "beginner.toml", PAIRED.format(opponent="basic")))
    strong = load_spec(write(tmp_path, "strong.toml", EXPERTS.replace('design = "experts"', 'design = "strong"')
                             .replace("players = 3", "players = 4")))
    experts = load_spec(write(tmp_path, "experts.toml", SIZES))
    header = ("setting,level,players,field,deals,diff,diff_lo,diff_hi,diff_half,diff_p_holm,b_diff,b_lo,b_hi,b_half,"
              "b_p_holm,gap_diff,gap_lo,gap_hi,gap_p_holm\n")
    csv = write(tmp_path, "experts.csv", header
                + "2 players,strong,2,,40,-0.1,-0.2,-0.05,0.075,0.001,0.0,-0.05,0.05,0.05,1.0,-0.1,-0.2,-0.05,0.01\n"
                + "3 players,strong,3,,40,-0.1,-0.2,-0.05,0.075,0.001,-0.1,-0.2,-0.05,0.075,0.001,0,-0.1,0.1,1.0\n")
    lines = tips_table([Written(beginner, "", [], 0), Written(strong, "", [], 0), Written(experts, "", [csv], 0)])
    assert AMONG_STRONG in lines[next(i for i, line in enumerate(lines) if line.startswith("| tip |"))]
    row = lines[lines.index("### Among strong players") + 6]
    assert row == ("| [Hold back copies](experts.md) | -0.100 (-0.200 to -0.050) **helps**; among `basic` +0.000 "
                   "(-0.050 to +0.050) unclear; **the table changes the answer** | -0.100 (-0.200 to -0.050) "
                   "**helps**; among `basic` -0.100 (-0.200 to -0.050) helps | not asked | not asked |")
