"""The rows of the learned player's page's CSVs, and their numbers written by the project's digit rule.

Estimates follow the digit rule (``decimals_for``: as many decimals as the interval needs; no number that
is not 0 prints as 0, and no "-0.000"); a bound a study recorded as 0.000 (its run kept three decimals)
prints as "about 0", and a note under its table says on which side of 0 it lay (``learned_tables``).
"""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from idiotsim.analysis.stats import decimals_for
from idiotsim.errors import UserError
from idiotsim.experiments.text import format_number
from idiotsim.strategies.search.search_knobs import DEFAULT_ROLLOUTS as SEARCH_DEFAULT_ROLLOUTS  # the search's K

LEAST = 3  # decimals of a mean-place difference, more where the digit rule needs them


# The key columns of each CSV: the columns that pick the one row a figure of the page quotes.
KEYS = {
    "learned.csv": ("players", "player"),
    "learned_gate.csv": ("players", "player"),
    "learned_frontier.csv": ("player",),
    "learned/curve.csv": ("data", "hidden"),
    "learned/fits.csv": ("hidden", "epochs"),
    "learned/gate_grid.csv": ("player",),
    "learned/gate_speed.csv": ("players", "player"),
    "learned/rollouts.csv": ("study", "variant"),
    "learned/speed.csv": ("run", "players", "player"),
    "learned/speed_sparse.csv": ("players", "player"),
    "learned/speed_fast24.csv": ("players",),
    "learned/agreement.csv": ("teachers_best",),
}


class Rows:
    """The rows of the page's CSVs, read once each; a missing file or column is one UserError naming it."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.read: dict[str, list[dict]] = {}

    def __call__(self, name: str) -> list[dict]:
        if name not in self.read:
            path = self.folder / name
            if not path.is_file():
                raise UserError(f"{path} is missing: the learned player's page is written from it")
            with path.open(newline="") as f:
                self.read[name] = [dict(row, _file=name) for row in csv.DictReader(f)]
        return self.read[name]

    def row(self, name: str, *keys) -> QuotedRow:
        """The one row of `name` whose key columns (``KEYS``) hold `keys`, to quote on the page."""
        columns = KEYS[name]
        wanted = [str(k) for k in keys]
        found = [r for r in self(name) if [cell(r, c) for c in columns] == wanted]
        if len(found) != 1:
            raise UserError(f"{name} has {len(found)} rows with {columns} = {wanted}: the learned player's page "
                            "quotes one")
        return QuotedRow(found[0])


def cell(row: dict, column: str) -> str:
    if column not in row:
        raise UserError(f"{row['_file']} has no column {column!r} (the learned player's page reads it)")
    return (row[column] or "").strip()


def number(row: dict, column: str) -> float | None:
    text = cell(row, column)
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise UserError(f"{row['_file']}: {column} must be a number, got {text!r}") from None


def bounds_columns(row: dict, column: str) -> tuple:
    """The columns of an estimate's interval: COLUMN_lo and COLUMN_hi, or for PREFIXvs_basic PREFIXlo and
    PREFIXhi (`vs_basic`: `lo`, `hi`; `tuning_vs_basic`: `tuning_lo`, `tuning_hi`)."""
    if f"{column}_lo" in row:
        return f"{column}_lo", f"{column}_hi"
    if column.endswith("vs_basic"):
        prefix = column[: -len("vs_basic")]
        return f"{prefix}lo", f"{prefix}hi"
    raise UserError(f"{row['_file']} has no interval for {column!r} ({column}_lo, {column}_hi)")


def bounds(row: dict, column: str) -> tuple:
    """The bounds of an estimate column's interval (`bounds_columns`)."""
    low, high = bounds_columns(row, column)
    return number(row, low), number(row, high)


def decimals(values, least: int = LEAST) -> int:
    """`least`, or more until neither a bound that excludes 0 nor any other value but 0 prints as 0."""
    known = [v for v in values if v is not None]
    d = least
    if len(known) == 3:
        d = decimals_for(known[1], known[2], least)
    for v in known:
        if v != 0:
            d = max(d, decimals_for(v, v, least))
    return d


def signed(x: float, d: int) -> str:
    return format_number(x, d, True)


def bound_text(x: float, d: int) -> str:
    """A bound recorded as 0.000 (the sign is the only digit the record kept) reads "about 0"."""
    return "about 0" if x == 0 else signed(x, d)


def interval(row: dict, column: str, least: int = LEAST) -> str:
    """`-0.126 (-0.133 to -0.119)`; "" when the row has no estimate; "0" for a player compared with itself."""
    mean = number(row, column)
    if mean is None:
        return ""
    lo, hi = bounds(row, column)
    if mean == lo == hi == 0:
        return "0"
    if lo is None or hi is None:
        return signed(mean, decimals([mean], least))
    d = decimals([mean, lo, hi], least)
    return f"{signed(mean, d)} ({bound_text(lo, d)} to {bound_text(hi, d)})"


def plus_minus(row: dict, column: str, half_column: str, least: int = LEAST) -> str:
    """`-0.441 +/- 0.012`; "0" for the reference itself; "" without an estimate."""
    mean = number(row, column)
    if mean is None:
        return ""
    half = number(row, half_column)
    if half is None:
        return "0" if mean == 0 else signed(mean, decimals([mean], least))
    d = decimals([mean, half], least)
    return f"{signed(mean, d)} +/- {half:.{d}f}"


def magnitude(row: dict, column: str, with_interval: bool = False) -> str:
    """An estimate's size, `0.045`, or with its interval `0.045 (0.040 to 0.051)` (for "better by")."""
    mean = number(row, column)
    lo, hi = bounds(row, column)
    d = decimals([mean, lo, hi])
    text = f"{abs(mean):.{d}f}"
    if with_interval:
        low, high = sorted((abs(lo), abs(hi)))
        text += f" ({low:.{d}f} to {high:.{d}f})"
    return text


def count(x: float | None) -> str:
    return "" if x is None else f"{x:,.0f}"


def fixed(x: float | None, d: int) -> str:
    return "" if x is None else f"{x:,.{d}f}"


def microseconds(x: float | None) -> str:
    """A time per decision: two decimals below 10 us, whole microseconds above."""
    return "" if x is None else f"{x:.2f}" if x < 10 else f"{x:,.0f}"


def bold(text: str, on: bool) -> str:
    return f"**{text}**" if on and text else text


def flag(row: dict, column: str) -> bool:
    return cell(row, column).lower() == "true"


def knobs_of(spec: str) -> dict:
    """`search:rollouts=16,gate=0.05` -> {"rollouts": "16", "gate": "0.05"}."""
    _, _, text = spec.partition(":")
    return dict(item.split("=", 1) for item in text.split(",") if "=" in item)


def player_label(name: str, kind: str = "") -> str:
    """How the page names a CSV's player: `learned-fast-4p (iteration 3, 8 units)` is "iteration 3's 8-unit
    `learned-fast-4p`", a search spec "`search`, K = 16", a frontier point by its kind."""
    m = re.fullmatch(r"(\S+) \(iteration (\d+)(?:, (\d+) units)?\)", name)
    if m:
        width = f"{m.group(3)}-unit " if m.group(3) else ""
        return f"iteration {m.group(2)}'s {width}`{m.group(1)}`"
    if name.startswith("search:") or name == "search":
        k = knobs_of(name).get("rollouts", str(SEARCH_DEFAULT_ROLLOUTS))
        if kind == "plain search":
            return f"plain search, K = {k}"
        if kind == "search, learned rollouts":
            return f"search with learned rollouts, K = {k}"
        default = " (the default)" if kind == "search" and int(k) == SEARCH_DEFAULT_ROLLOUTS else ""
        return f"`search`, K = {k}{default}"
    m = re.fullmatch(r"(\S+) \((.+)\)", name)
    if m:
        return f"`{m.group(1)}` ({m.group(2)})"
    return f"`{name}`" + (" (the gated search)" if kind == "gated search" else "")


def strongest(rows: list[dict], row: dict, column: str = "vs_basic", group: str = "players") -> bool:
    """Whether `row` has the lowest (best) estimate of `column` among the rows of its `group`."""
    peers = [number(r, column) for r in rows if cell(r, group) == cell(row, group) and number(r, column) is not None]
    return bool(peers) and number(row, column) == min(peers)


# The frontier's kinds of player, in the order of its table and its plot's legend.
FRONTIER_KINDS = ("learned", "search", "plain search", "search, learned rollouts", "gated search")


@dataclass(frozen=True)
class QuotedRow:
    """A row the page quotes: each method writes one of its columns as a figure in a sentence."""
    row: dict

    def ci(self, column: str) -> str:
        """An estimate and its interval: -0.123 (-0.130 to -0.116)."""
        return interval(self.row, column)

    def est(self, column: str) -> str:
        """The estimate alone, at its interval's decimals: -0.123."""
        mean = number(self.row, column)
        return signed(mean, decimals([mean, *bounds(self.row, column)]))

    def mag(self, column: str) -> str:
        """The estimate's size: 0.123."""
        return magnitude(self.row, column)

    def magci(self, column: str) -> str:
        """The size and its interval, for a "better by": 0.123 (0.116 to 0.130)."""
        return magnitude(self.row, column, with_interval=True)

    def lohi(self, column: str) -> str:
        """The interval alone: -0.130 to -0.116."""
        return interval(self.row, column).partition("(")[2].rstrip(")")

    def about2(self, column: str) -> str:
        """The size in a plain sentence, two decimals: 0.12."""
        return f"{abs(number(self.row, column)):.2f}"

    def whole(self, column: str) -> str:
        """A whole number: 12,345."""
        return count(number(self.row, column))

    def us(self, column: str) -> str:
        """A time per decision in microseconds (``microseconds``)."""
        return microseconds(number(self.row, column))

    def text(self, column: str) -> str:
        """The cell as the CSV holds it."""
        return cell(self.row, column)
