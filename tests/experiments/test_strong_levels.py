"""A strong report's CSV read back (`strong_levels.read_levels`): the chart's Counting section quotes
counting_strong's numbers from it rather than measure them again."""
import csv

from idiotsim.experiments.strong import StrongDesign
from idiotsim.experiments.strong_levels import read_levels


def test_a_strong_csv_reads_back_its_levels(tmp_path):
    path = tmp_path / "counting_strong.csv"
    row = {c: "0" for c in StrongDesign.csv_columns}
    row.update(setting="gated", level="strong", players="4", deals="1000", diff="-0.142", diff_lo="-0.145",
               diff_hi="-0.139", diff_p="0.0", diff_p_holm="0.0", b_diff="-0.003", b_lo="-0.004", b_hi="-0.001",
               b_p="0.001", b_p_holm="0.005", strength_diff="-0.122", strength_lo="-0.125", strength_hi="-0.120",
               strength_p="0.0", strength_p_holm="0.0", t_strength_diff="", t_strength_lo="")
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, StrongDesign.csv_columns)
        w.writeheader()
        w.writerow(row)
    [x] = read_levels(path)
    assert (x.setting, x.level, x.players, x.deals) == ("gated", "strong", 4, 1000)
    assert (x.effect.mean, x.effect.lo, x.effect.hi) == (-0.142, -0.145, -0.139) and x.effect.significant()
    assert x.strength.mean == -0.122 and x.beginner.p_holm == 0.005
    assert x.treatment_strength is None  # not measured: empty cells


def test_a_missing_csv_reads_as_no_levels(tmp_path):
    assert read_levels(tmp_path / "nothing.csv") == []
