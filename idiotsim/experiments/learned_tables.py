"""The tables of the learned player's page: every row of its CSV in the file's order, so a model's row added
to a CSV shows without a change here."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from idiotsim.errors import UserError
from idiotsim.experiments.learned_rows import (FRONTIER_KINDS, SEARCH_DEFAULT_ROLLOUTS, Rows, bold,
                                               bounds_columns, cell, count, decimals, fixed, flag, interval,
                                               knobs_of, microseconds, number, player_label, plus_minus, signed,
                                               strongest)
from idiotsim.experiments.text import wrap


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


def table(read: Rows, name: str) -> str:
    """The table `name` of ``TABLES`` or ``BLOCKS``, from its CSV's rows."""
    return BLOCKS[name](read) if name in BLOCKS else TABLES[name].render(read)
