"""A committed strong report's settings read back from its CSV (the columns `strong.StrongDesign.csv_columns`
writes), so that another page quotes a number where it was measured rather than measure it again (one home
per number): the chart's Counting section quotes counting_strong this way."""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from idiotsim.analysis.stats import Interval


@dataclass(frozen=True)
class LevelAnswer:
    """One setting of a committed strong report, read back from its CSV (`read_levels`): another page quotes
    it there rather than measure the same contrast again (one home per number)."""
    setting: str
    level: str
    players: int
    effect: Interval  # strong treatment minus strong control, mean place (Holm-adjusted in its report)
    beginner: Interval  # the beginner contrast on the same deals
    strength: Interval | None  # the strong control minus the reference (None: not measured)
    treatment_strength: Interval | None  # the strong treatment minus the reference
    deals: int


def read_levels(csv_path) -> list[LevelAnswer]:
    """The settings of a strong report's CSV in its order; [] when the file is
    missing."""
    path = Path(csv_path)
    if not path.is_file():
        return []

    def interval(row: dict, prefix: str, mean: str) -> Interval | None:
        if not row.get(mean):
            return None
        lo, hi = float(row[f"{prefix}_lo"]), float(row[f"{prefix}_hi"])
        return Interval(float(row[mean]), lo, hi, (hi - lo) / 2, p=float(row[f"{prefix}_p"]),
                        p_holm=float(row[f"{prefix}_p_holm"]))
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    return [LevelAnswer(r["setting"], r["level"], int(r["players"]), interval(r, "diff", "diff"),
                        interval(r, "b", "b_diff"), interval(r, "strength", "strength_diff"),
                        interval(r, "t_strength", "t_strength_diff"), int(r["deals"])) for r in rows]
