"""reports/learned.md, the learned player's page, written from its CSVs: `idiotsim learn page --out reports`.

The page's words are its template, ``learned/template.md`` in the reports folder; every table and every
figure the words quote comes from a CSV of the same folder:

- ``learned.csv`` (``benchmarks/learned.py table``), ``learned_gate.csv`` (``gate-table``) and
  ``learned_frontier.csv`` (``frontier``, which the page also draws as ``learned_frontier.png``);
- ``learned/*.csv``: the studies whose runs wrote no CSV of their own, recorded with the decimals the page
  gave them (the learning curves, the gate's grid, the speed runs, the rollout policy).

The template holds Markdown with two kinds of fields. A line ``{{table:NAME}}`` is one of the tables of
``TABLES``: every row of its CSV in the file's order, so a model's row added to a CSV shows without a change
here. ``{{FILE|KEY...|COLUMN|FORMAT}}`` is one cell: the row of FILE whose key columns (``KEYS``) hold the
KEYs, formatted by FORMAT (``FORMATS``). Estimates follow the project's digit rule (``decimals_for``: as
many decimals as the interval needs; no number that is not 0 prints as 0, and no "-0.000"); a bound a
study recorded as 0.000 (its run kept three decimals) prints as "about 0", and a note under its table says
on which side of 0 it lay.
"""
from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from idiotsim.analysis.stats import decimals_for
from idiotsim.errors import UserError
from idiotsim.experiments.text import format_number
from idiotsim.runs.atomic_files import write_atomic

PAGE = "learned.md"
TEMPLATE = "learned/template.md"
FRONTIER_PLOT = "learned_frontier.png"
LEAST = 3  # decimals of a mean-place difference, more where the digit rule needs them
from idiotsim.strategies.search.search_knobs import DEFAULT_ROLLOUTS as SEARCH_DEFAULT_ROLLOUTS  # the search's K

# The key columns of each CSV a `{{FILE|KEY...|COLUMN|FORMAT}}` field may name.
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


# ---- numbers by the digit rule -------------------------------------------------------------------

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


# ---- who a row is ------------------------------------------------------------------------------------

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


# ---- the tables -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Table:
    """The rows of `csv` (those whose `where` columns hold the given text), one line each, in the file's order
    or `order`'s."""
    csv: str
    columns: tuple  # (header, function(row, rows) -> cell)
    where: tuple = ()  # (column, text) pairs
    order: Callable | None = None  # a sort key of a row

    def render(self, read: Rows) -> str:
        rows = [r for r in read(self.csv) if all(cell(r, c) == v for c, v in self.where)]
        if not rows:
            raise UserError(f"{self.csv} has no row for the learned player's page ({dict(self.where)})")
        if self.order is not None:
            rows = sorted(rows, key=self.order)
        cells = [[f(r, rows) for _, f in self.columns] for r in rows]
        lines = ["| " + " | ".join(h for h, _ in self.columns) + " |", "|" + "---|" * len(self.columns)]
        lines += ["| " + " | ".join(line) + " |" for line in cells]
        return "\n".join(lines + zero_bound_notes(rows, cells))


def zero_bound_notes(rows: list[dict], cells: list[list[str]]) -> list[str]:
    """Under a table that shows "about 0": on which side of 0 each such bound was recorded, and so whether its
    interval includes 0. A row is named by its first cell (and its second where the first repeats)."""
    firsts = [line[0].replace("**", "") for line in cells]
    notes = []
    for r, line, first in zip(rows, cells, firsts):
        name = first if firsts.count(first) == 1 else f"{first} ({line[1]})"
        for column in r:
            lower = column == "lo" or column.endswith("_lo")
            if not (lower or column == "hi" or column.endswith("_hi")) or not cell(r, column):
                continue
            text = cell(r, column)
            estimate = column[:-3] if column.endswith(("_lo", "_hi")) else "vs_basic"
            estimate = estimate if estimate in r else f"{column[:-2]}vs_basic"
            self_comparison = number(r, estimate) == 0 and all(number(r, c) == 0 for c in bounds_columns(r, estimate))
            if number(r, column) == 0 and not self_comparison:
                below = text.startswith("-")
                inside = below if lower else not below
                notes.append(f"the {name} row's {'lower' if lower else 'upper'} bound lay just "
                             f"{'below' if below else 'above'} 0 (the interval {'includes' if inside else 'excludes'} 0)")
    if not notes:
        return []
    return ["", wrap("About 0: a bound these runs recorded as 0.000, three decimals being all they kept; "
                     + "; ".join(notes) + ".")]


def column(header: str, function: Callable) -> tuple:
    return header, function


def text_of(name: str) -> Callable:
    return lambda r, rows: cell(r, name)


def count_of(name: str) -> Callable:
    return lambda r, rows: count(number(r, name))


def fixed_of(name: str, d: int) -> Callable:
    return lambda r, rows: fixed(number(r, name), d)


def interval_of(name: str, bold_when: Callable | None = None) -> Callable:
    return lambda r, rows: bold(interval(r, name), bool(bold_when and bold_when(r, rows)))


def estimate_of(name: str) -> Callable:
    """An estimate recorded without its interval: signed, no fewer decimals than `LEAST`."""
    return lambda r, rows: "" if number(r, name) is None else signed(number(r, name), decimals([number(r, name)]))


def best_at_players(r, rows) -> bool:
    return strongest(rows, r)


def gate_cells(spec: str) -> tuple:
    """(gate, K, top) of a gated search spec as the grid shows them."""
    knobs = knobs_of(spec)
    gate = knobs.get("gate")
    if gate == "-1":
        return "-1 (the learned player)", "-", "all"
    return (gate if gate is not None else "off (the search)", knobs.get("rollouts", str(SEARCH_DEFAULT_ROLLOUTS)),
            knobs.get("top", "all"))


# The frontier's kinds of player, in the order of its table and with the plot's markers.
FRONTIER_KINDS = ("learned", "search", "plain search", "search, learned rollouts", "gated search")
FRONTIER_MARKERS = {"learned": "o", "search": "^", "plain search": "s", "search, learned rollouts": "D",
                    "gated search": "*"}


def frontier_time(r, rows) -> str:
    """Measured in one process, or derived from another figure (the source says how): "about"."""
    derived = re.search(r"time:.*( x|scaled)", cell(r, "source"))
    return ("about " if derived else "") + microseconds(number(r, "us_per_decision")) + " us"


def frontier_deals(r, rows) -> str:
    seeds = re.search(r"deals of (seeds? [\d, ]*\d)", cell(r, "source"))
    return count(number(r, "deals")) + (f" ({seeds.group(1)})" if seeds else "")


def curve_label(r, rows) -> str:
    return bold(cell(r, "data"), flag(r, "shipped"))


def fits_label(r, rows) -> str:
    name = cell(r, "shipped_as")
    return bold(cell(r, "hidden") + (f": `{name}`" if name else ""), flag(r, "shipped"))


def fits_rate(r, rows) -> str:
    decay = number(r, "lr_decay")
    return f"{cell(r, 'epochs')}, " + ("constant" if decay == 1 else f"x{cell(r, 'lr_decay')}")


def fits_every_seat(r, rows) -> str:
    ratio = cell(r, "every_seat_ratio")
    if not ratio:
        return ""
    note = cell(r, "every_seat_note")
    text = ("about " if flag(r, "every_seat_estimated") else "") + ratio + (f" ({note})" if note else "")
    return bold(text, flag(r, "shipped"))


def earlier_lines(read: Rows) -> str:
    """Iterations 1 and 2: one line a model, its margins' results side by side (the chosen one bold)."""
    rows = read("learned/earlier.csv")
    lines = ["| model | turn positions (training + held-out) | margin | deals | vs `basic` |", "|---|---|---|---|---|"]
    groups: list[list[dict]] = []
    for r in rows:  # a model's margins on the same deals: consecutive rows
        if groups and all(cell(r, c) == cell(groups[-1][0], c) for c in ("model", "deals", "deal_seed")):
            groups[-1].append(r)
        else:
            groups.append([r])
    for group in groups:
        model = cell(group[0], "model")
        results = []
        for r in group:
            text = interval(r, "vs_basic")
            note = cell(r, "note")
            results.append(bold(text, flag(r, "chosen")) + (f", {note}" if note else ""))
        seed = cell(group[0], "deal_seed")
        deals = count(number(group[0], "deals")) + (f" ({seed})" if seed else "")
        lines.append(f"| {model} | {count(number(group[0], 'positions'))} | "
                     f"{' / '.join(cell(r, 'margin') for r in group)} | {deals} | {' / '.join(results)} |")
    return "\n".join(lines)


def speed_ratio(name: str) -> Callable:
    """A ratio to `basic`, bold for the fast point's own figure (its target's number)."""
    return lambda r, rows: bold(cell(r, name), cell(r, "player") == "learned-fast-4p" and
                                cell(r, "run") == "the shipped models")


def gate_ratio(r, rows) -> str:
    basic = number(r, "basic_cpu_games_per_second")
    return cell(r, "ratio") + (f" (`basic` {count(basic)})" if basic is not None else "")


def gate_quiet(r, rows) -> str:
    quiet = number(r, "quiet_estimate")
    if quiet is None:
        return ""
    return bold(f"about {count(quiet)}", cell(r, "player") == "learned-search-4p")


def players_label(r, rows) -> str:
    return player_label(cell(r, "player"))


TABLES: dict[str, Table] = {
    "strength": Table("learned.csv", (
        column("players", text_of("players")),
        column("player", players_label),
        column("held-out deals", count_of("deals")),
        column("vs `basic` (95% CI, Holm)", interval_of("vs_basic", best_at_players)),
        column("vs `tuned-Np` (paired)", lambda r, rows: "" if interval(r, "vs_tuned") == "0" else interval(r, "vs_tuned")),
        column("vs the model it replaced (paired)", interval_of("vs_shipped")),
    )),
    "curve": Table("learned/curve.csv", (
        column("data", curve_label),
        column("training turn positions", count_of("train_positions")),
        column("hidden", text_of("hidden")),
        column("margin 0, vs `basic`", estimate_of("margin0_vs_basic")),
        column("at its margin, vs `basic`", interval_of("vs_basic", lambda r, rows: flag(r, "shipped"))),
        column("margin", text_of("margin")),
        column("vs iteration 2 (paired)", interval_of("vs_iteration2", lambda r, rows: flag(r, "shipped"))),
        column("held-out gain per decision", lambda r, rows: plus_minus(r, "gain", "gain_half", 4)),
    )),
    "fits": Table("learned/fits.csv", (
        column("hidden", fits_label),
        column("epochs, rate", fits_rate),
        column("best epoch: held-out loss", lambda r, rows: f"{cell(r, 'best_epoch')}: {cell(r, 'held_out_loss')}"),
        column("held-out gain per decision", lambda r, rows: plus_minus(r, "gain", "gain_half", 4)),
        column("tuning, margin 0", estimate_of("tuning_margin0")),
        column("tuning, at its margin", interval_of("tuning_vs_basic")),
        column("margin", text_of("margin")),
        column("tuning, minus `learned-4p` (paired)", interval_of("tuning_vs_learned4p")),
        column("held-out, vs `basic`", interval_of("held_out_vs_basic", lambda r, rows: flag(r, "shipped"))),
        column("held-out, minus `learned-4p` (paired)",
               interval_of("held_out_vs_learned4p", lambda r, rows: flag(r, "shipped"))),
        column("every seat / basic", fits_every_seat),
    )),
    "agreement": Table("learned/agreement.csv", (
        column("teacher's best move", text_of("teachers_best")),
        column("positions", count_of("positions")),
        column("model picks it", lambda r, rows: f"{cell(r, 'model_picks_percent')}% "
                                                 f"({cell(r, 'iteration2_picks_percent')}%)"),
        column("model's gain per decision", lambda r, rows: f"{cell(r, 'gain')} ({cell(r, 'iteration2_gain')})"),
    )),
    "frontier": Table("learned_frontier.csv", (
        column("player", lambda r, rows: player_label(cell(r, "player"), cell(r, "kind"))),
        column("vs `basic`", interval_of("vs_basic")),
        column("deals", frontier_deals),
        column("time per decision", frontier_time),
    ), order=lambda r: (FRONTIER_KINDS.index(cell(r, "kind")) if cell(r, "kind") in FRONTIER_KINDS
                        else len(FRONTIER_KINDS), number(r, "us_per_decision"))),
    "gate_grid": Table("learned/gate_grid.csv", (
        column("gate", lambda r, rows: gate_cells(cell(r, "player"))[0]),
        column("K", lambda r, rows: gate_cells(cell(r, "player"))[1]),
        column("top", lambda r, rows: gate_cells(cell(r, "player"))[2]),
        column("searched", lambda r, rows: f"{100 * number(r, 'searched'):.0f}%"),
        column("vs `basic` (tuning deals)", interval_of("vs_basic")),
        column("games/s, one seat (CPU)", count_of("cpu_games_per_second_one_seat")),
        column("ratio to `basic`", text_of("ratio")),
        column("quiet reading", count_of("quiet_estimate")),
        column("load", text_of("load")),
    )),
    "gate": Table("learned_gate.csv", (
        column("players", text_of("players")),
        column("player", players_label),
        column("held-out deals", count_of("deals")),
        column("vs `basic` (95% CI, Holm)", interval_of("vs_basic", best_at_players)),
        column("vs `learned-Np` (paired)", interval_of("vs_learned")),
        column("vs `search`, K = 16 (paired)", interval_of("vs_search16")),
    )),
    "gate_speed": Table("learned/gate_speed.csv", (
        column("players", text_of("players")),
        column("player", players_label),
        column("games/s, one seat (CPU)", count_of("cpu_games_per_second_one_seat")),
        column("of `basic` in every seat", gate_ratio),
        column("quiet reading", gate_quiet),
        column("us per decision", text_of("us_per_decision")),
    )),
    "sparse": Table("learned/speed_sparse.csv", (
        column("players", text_of("players")),
        column("player", players_label),
        column("games/s, every seat, now", count_of("every_seat_now")),
        column("of `basic` in every seat", text_of("now_ratio")),
        column("before", count_of("every_seat_before")),
        column("of `basic`", text_of("before_ratio")),
        column("now / before", text_of("now_over_before")),
    )),
    "fast24": Table("learned/speed_fast24.csv", (
        column("players", text_of("players")),
        column("`learned-fast-Np` (24 units)", text_of("fast24_ratio")),
        column("iteration 3's 8-unit model", text_of("fast8_ratio")),
        column("`learned-Np` (64 units)", text_of("full64_ratio")),
        column("24 / 8", text_of("fast24_over_fast8")),
        column("actions a game (24 / 8 / 64 units)", lambda r, rows: " / ".join(
            cell(r, c) for c in ("actions_fast24", "actions_fast8", "actions_full64"))),
    )),
}
for _run, _name in (("after the sparse inference", "speed"), ("the shipped models", "speed_shipped")):
    TABLES[_name] = Table("learned/speed.csv", (
        column("players", text_of("players")),
        column("player", players_label),
        column("games/s, one seat (basic elsewhere)", count_of("games_per_second_one_seat")),
        column("games/s, every seat", count_of("games_per_second_every_seat")),
        column("every seat / basic in every seat", speed_ratio("every_seat_ratio")),
        column("us per decision", text_of("us_per_decision")),
    ), where=(("run", _run),))
for _study, _name in (("iteration 3, 4,000 deals", "rollouts"), ("iteration 2, 2,000 deals", "rollouts_earlier")):
    TABLES[_name] = Table("learned/rollouts.csv", (
        column("variant", text_of("variant")),
        column("mean place", text_of("mean_place")),
        column("wins", lambda r, rows: cell(r, "wins_percent") + "%"),
        column("Idiot", lambda r, rows: cell(r, "idiot_percent") + "%"),
        column("minus `basic` in the same seat", lambda r, rows: plus_minus(r, "vs_basic", "vs_basic_half")),
        column("minus the default search", lambda r, rows: bold(plus_minus(r, "vs_default", "vs_default_half"),
                                                                flag(r, "highlight"))),
    ), where=(("study", _study),))
BLOCKS = {"earlier": earlier_lines}  # tables laid out otherwise than a row a line


# ---- single figures ---------------------------------------------------------------------------------

def _est(row, name):
    mean = number(row, name)
    return signed(mean, decimals([mean, *bounds(row, name)]))


FORMATS: dict[str, Callable] = {
    "ci": lambda row, name: interval(row, name),  # -0.273 (-0.280 to -0.267)
    "est": _est,  # -0.273, at its interval's decimals
    "mag": lambda row, name: magnitude(row, name),  # 0.273
    "magci": lambda row, name: magnitude(row, name, with_interval=True),  # 0.045 (0.040 to 0.051)
    "lohi": lambda row, name: interval(row, name).partition("(")[2].rstrip(")"),  # -0.280 to -0.267
    "about2": lambda row, name: f"{abs(number(row, name)):.2f}",  # a plain sentence's 0.27
    "int": lambda row, name: count(number(row, name)),  # 20,000
    "us": lambda row, name: microseconds(number(row, name)),  # 0.70, 543
    "text": lambda row, name: cell(row, name),
}
FIELD = re.compile(r"\{\{([^{}]+)\}\}")


def figure(read: Rows, field: str) -> str:
    """One `{{FILE|KEY...|COLUMN|FORMAT}}` field."""
    parts = field.split("|")
    name = parts[0]
    if name not in KEYS:
        raise UserError(f"{TEMPLATE}: {{{{{field}}}}} names {name!r}, not one of {', '.join(KEYS)}")
    keys = KEYS[name]
    if len(parts) != len(keys) + 3 or parts[-1] not in FORMATS:
        raise UserError(f"{TEMPLATE}: {{{{{field}}}}} must be {name}|{'|'.join(k.upper() for k in keys)}|COLUMN|"
                        f"FORMAT (FORMAT one of {', '.join(FORMATS)})")
    wanted = parts[1: 1 + len(keys)]
    found = [r for r in read(name) if [cell(r, k) for k in keys] == wanted]
    if len(found) != 1:
        raise UserError(f"{TEMPLATE}: {{{{{field}}}}}: {name} has {len(found)} rows with {keys} = {wanted}")
    return FORMATS[parts[-1]](found[0], parts[-2])


def learned_page_markdown(folder) -> str:
    """The page, from `folder`'s template and CSVs."""
    folder = Path(folder)
    template = folder / TEMPLATE
    if not template.is_file():
        raise UserError(f"{template} is missing: the learned player's page is written from it and the CSVs")
    read = Rows(folder)
    out = []
    for lines in paragraphs(template.read_text().splitlines()):
        directive = re.fullmatch(r"\{\{table:(\w+)\}\}", lines[0].strip()) if len(lines) == 1 else None
        if directive:
            name = directive.group(1)
            if name in BLOCKS:
                out.append(BLOCKS[name](read))
            elif name in TABLES:
                out.append(TABLES[name].render(read))
            else:
                raise UserError(f"{template}: no table {name!r} (tables: {', '.join([*TABLES, *BLOCKS])})")
        elif any(FIELD.search(line) for line in lines):
            out.append(rewrapped([FIELD.sub(lambda m: figure(read, m.group(1)), line) for line in lines]))
        else:
            out.append("\n".join(lines))
    return "\n".join(out) + "\n"


WIDTH = 105  # the page's lines


def paragraphs(lines: list[str]) -> list[list[str]]:
    """The template's lines as blocks: a blank line, a list item with its continuation lines, a paragraph, a
    code block (indented, after a blank line) or a table line, each a block of its own."""
    blocks: list[list[str]] = []
    code = False
    for line in lines:
        item = re.match(r" *- ", line)
        text = line.strip()
        if not text:
            blocks.append([line])
            code = False
        elif code or (line.startswith("    ") and (not blocks or not blocks[-1][0].strip())):
            code = True
            blocks.append([line])
        elif item or text.startswith(("|", "#", "{{table:", "!", "```")) or not blocks or not blocks[-1][0].strip() \
                or blocks[-1][0].strip().startswith(("|", "#", "{{table:", "!", "```")):
            blocks.append([line])
        else:
            blocks[-1].append(line)
    return blocks


def rewrapped(lines: list[str]) -> str:
    """A paragraph or list item whose fields were filled in, wrapped again to `WIDTH` columns."""
    first = re.match(r" *(- )?", lines[0]).group(0)
    return wrap(" ".join(line.strip() for line in lines)[len(first.strip()):].strip(), first)


def wrap(text: str, first: str = "") -> str:
    """`text` in lines of at most `WIDTH` columns (a longer word stays whole), the first starting with `first`,
    the others indented as deep. A line never starts with what Markdown would read as a list, a quote, a
    heading or an underline (`- `, `+ `, `> `, `# `, `= `, `1. `): such a word keeps to the word before it."""
    groups: list[str] = []
    for word in text.split():
        if groups and re.fullmatch(r"[-+*>#=|]+|\d+[.)]", word):
            groups[-1] += " " + word
        else:
            groups.append(word)
    lines, line, prefix = [], "", first
    for group in groups:
        if line and len(prefix) + len(line) + 1 + len(group) > WIDTH:
            lines.append(prefix + line)
            line, prefix = "", " " * len(first)
        line += (" " if line else "") + group
    return "\n".join(lines + [prefix + line])


def frontier_figure(folder):
    """Strength against time per decision, a point per row of learned_frontier.csv, each labelled where its
    label overlaps no other label, point or the legend."""
    from idiotsim.analysis.figures import plt
    rows = Rows(Path(folder))("learned_frontier.csv")
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    labels = []
    kinds = [*FRONTIER_KINDS, *sorted({cell(r, "kind") for r in rows} - set(FRONTIER_KINDS))]
    for kind in kinds:
        points = sorted((r for r in rows if cell(r, "kind") == kind), key=lambda r: number(r, "us_per_decision"))
        if not points:
            continue
        x = [max(number(r, "us_per_decision"), 0.05) for r in points]
        y = [-number(r, "vs_basic") for r in points]
        err = [[yi + number(r, "hi") for r, yi in zip(points, y)], [-number(r, "lo") - yi for r, yi in zip(points, y)]]
        ax.errorbar(x, y, yerr=err, fmt=FRONTIER_MARKERS.get(kind, "v") + ("-" if kind in ("search", "plain search")
                                                                            else ""), label=kind, capsize=3)
        labels += [(xi, yi, short_label(cell(r, "player"))) for xi, yi, r in zip(x, y, points)]
    ax.set_xscale("log")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("time per decision of the player's seat (microseconds, one thread, log scale)")
    ax.set_ylabel("places better than basic (rotated, paired)")
    ax.set_title("Strength against time per decision, 4 players, three basic opponents")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()  # the labels are placed on the final layout, and take no part in it
    place_labels(ax, labels)
    return fig


def frontier_plot(folder, path) -> Path:
    """learned_frontier.png (`frontier_figure`)."""
    from idiotsim.analysis.figures import save_png
    return save_png(frontier_figure(folder), Path(path))


def short_label(player: str) -> str:
    """A point's label on the plot: `K=16` for the search, `learned-fast-4p, 8 units` for an earlier model."""
    if player.startswith("search:"):
        return f"K={knobs_of(player).get('rollouts', SEARCH_DEFAULT_ROLLOUTS)}"
    m = re.fullmatch(r"(\S+) \(iteration (\d+)(?:, (\d+) units)?\)", player)
    if m:
        return f"{m.group(1)}, " + (f"{m.group(3)} units" if m.group(3) else f"iteration {m.group(2)}")
    return player


# A label's tries: right of its point, then left, then up or down in steps of 9 points on either side.
LABEL_PLACES = tuple((side, step) for step in (0, 1, -1, 2, -2, 3, -3, 4, -4) for side in (1, -1))


def place_labels(ax, labels, fontsize: int = 7) -> list:
    """Each point's label beside it, at the first place (`LABEL_PLACES`) where it overlaps no label placed
    before it, no point and not the legend, lowest points first; a label moved up or down has a leader line
    to its point. Returns the labels (matplotlib texts)."""
    from matplotlib.transforms import Bbox
    renderer = ax.figure.canvas.get_renderer()
    taken = [ax.get_legend().get_window_extent(renderer)] if ax.get_legend() else []
    for x, y, _ in labels:  # the points themselves, a few pixels each way
        px, py = ax.transData.transform((x, y))
        taken.append(Bbox.from_extents(px - 3, py - 3, px + 3, py + 3))
    axes = ax.get_window_extent(renderer)
    texts = []
    for x, y, text in sorted(labels, key=lambda item: item[1]):
        for side, step in LABEL_PLACES:
            place = dict(fontsize=fontsize, textcoords="offset points", va="center", xytext=(7 * side, 9 * step),
                         ha="left" if side > 0 else "right")
            note = ax.annotate(text, (x, y), **place)
            box = note.get_window_extent(renderer)
            note.remove()
            inside = axes.contains(box.x0, box.y0) and axes.contains(box.x1, box.y1)
            if inside and not any(box.padded(-1).overlaps(other) for other in taken):  # touching is not overlapping
                break
        if step:  # a leader line from a moved label to its point
            place["arrowprops"] = {"arrowstyle": "-", "lw": 0.5, "color": "grey", "shrinkA": 0, "shrinkB": 3}
        note = ax.annotate(text, (x, y), **place)
        note.set_in_layout(False)
        taken.append(box)
        texts.append(note)
    return texts


def write_learned_page(folder) -> list[Path]:
    """Write `folder`/learned.md and learned_frontier.png from the template and CSVs there."""
    folder = Path(folder)
    text = learned_page_markdown(folder)
    return [write_atomic(folder / PAGE, text), frontier_plot(folder, folder / FRONTIER_PLOT)]
