"""The ladder design (idiotsim.experiments.paired_design.LadderDesign): the paired design read as a ranking
against a yardstick player, its first sentence naming who beats it, who finishes behind and who is level."""
from __future__ import annotations

from idiotsim import experiments as ex
from idiotsim.analysis.stats import Interval
from idiotsim.experiments.paired_design import LadderDesign, PairedRow

LADDER = """\
question = "Who plays best among tuned players?"
design = "ladder"
treatment = "basic"
control = "tuned-{players}p"
control_label = "the tuned player"
opponents = ["tuned-{players}p"]
players = 3
games = 240
seed = 5
""" + "".join(f'\n[[sweep.variants]]\nlabel = "{name}"\ntreatment = "{name}"\n' for name in ("basic", "chart", "counter"))


def _row(mean, lo, hi) -> PairedRow:
    p = 0.001 if lo > 0 or hi < 0 else 0.5
    fields = {f.name: None for f in PairedRow.__dataclass_fields__.values()}
    return PairedRow(**{**fields, "place_diff": Interval(mean, lo, hi, (hi - lo) / 2, p, p_holm=p)})


def test_the_first_sentence_ranks_the_players_against_the_yardstick(tmp_path):
    path = tmp_path / "ladder.toml"
    path.write_text(LADDER)
    spec = ex.load_spec(path)
    behind = [_row(0.23, 0.2, 0.26), _row(0.04, 0.01, 0.07), _row(0.01, -0.02, 0.04)]
    assert LadderDesign().plain_sentence(spec, behind) == (
        "Among tuned-3p opponents, nobody beats the tuned player: chart finishes about 0.04 places a game behind it "
        "and basic about 0.23; counter is level with it.")
    ahead = [_row(0.23, 0.2, 0.26), _row(-0.05, -0.08, -0.02), _row(-0.1, -0.12, -0.08)]
    assert LadderDesign().plain_sentence(spec, ahead) == (
        "Among tuned-3p opponents: counter beats the tuned player by about 0.10 places a game and chart by about "
        "0.05; basic finishes about 0.23 behind it.")


def test_a_ladder_plays_as_the_paired_design_does(tmp_path):
    path = tmp_path / "ladder.toml"
    path.write_text(LADDER)
    spec = ex.load_spec(path)
    paired = ex.load_spec(_write(tmp_path, LADDER.replace('design = "ladder"', 'design = "paired"')))
    rows = [ex.DESIGNS[s.design].analyse(ex.DESIGNS[s.design].play(s, tmp_path)) for s in (spec, paired)]
    assert [r.place_diff.mean for r in rows[0]] == [r.place_diff.mean for r in rows[1]]
    assert len({r.place_diff.mean for r in rows[0]}) == 3  # each variant seats its own player


def _write(folder, text):
    path = folder / "paired.toml"
    path.write_text(text)
    return path
