"""What the commands print for a person: rich tables that fit the terminal's width.

Every table is built from the objects the Markdown files are made from (``idiotsim.summary.Summary``, a
report's ``Written``), never from the Markdown itself, which stays the record on disk. On a terminal the
tables have rules and a bold head; piped, or with ``NO_COLOR`` set, they are plain text: spaces and
dashes, no escape codes (``console``). A table is first laid out with each estimate and its interval on
one line; when that is wider than the console, the interval moves under the estimate; a matrix that does
not fit either way is replaced by a line naming the files that hold it.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

# Plain text: a dashed line under the head, columns apart by spaces, nothing else.
PLAIN_BOX = box.Box("    \n    \n -  \n    \n    \n    \n    \n    \n", ascii=True)
RULED_BOX = box.SIMPLE_HEAD


def plain_wanted(console: Console) -> bool:
    """Plain text for a pipe or a file, and wherever NO_COLOR is set (no-color.org: set and not empty)."""
    return not console.is_terminal or bool(os.environ.get("NO_COLOR"))


def console(file=None, width: int | None = None) -> Console:
    """The console a command prints to (stdout unless `file`); plain when `plain_wanted`."""
    out = Console(file=file, width=width, highlight=False, emoji=False, markup=False)
    if plain_wanted(out):
        out = Console(file=file, width=width, highlight=False, emoji=False, markup=False, color_system=None,
                      no_color=True)
    return out


def new_table(out: Console, columns: list[tuple[str, str]]) -> Table:
    """A table in the console's style; columns are (header, justify)."""
    plain = plain_wanted(out)
    table = Table(box=PLAIN_BOX if plain else RULED_BOX, show_edge=False, pad_edge=False, padding=(0, 1),
                  collapse_padding=True, header_style="" if plain else "bold")
    for header, justify in columns:
        table.add_column(header, justify=justify, overflow="fold")
    return table


def natural_width(out: Console, table: Table) -> int:
    """The table's width with no cell wrapped (rich would squeeze it to the console's width)."""
    return Measurement.get(out, out.options.update_width(1_000_000), table).maximum


def fits(out: Console, table: Table) -> bool:
    return natural_width(out, table) <= out.width


def estimate_cell(text: str, stacked: bool) -> str:
    """`2.501 (2.48 to 2.52)` as it is, or stacked: the interval on a second line."""
    return text.replace(" (", "\n(", 1) if stacked else text


def estimate_header(name: str, stacked: bool) -> str:
    return f"{name}\n(95% CI)" if stacked else f"{name} (95% CI)"


def titled(out: Console, title: str, table: Table) -> None:
    """A table under its title (the title wraps to the console, not to the table's width)."""
    out.print(title, style="" if plain_wanted(out) else "bold")
    out.print(table)


def first_fitting(out: Console, build) -> Table:
    """`build(stacked)` one-line first, stacked when that is too wide (rich folds what still is)."""
    table = build(False)
    return table if fits(out, table) else build(True)


def paragraph(out: Console, text: str) -> None:
    """A sentence of a report: `code` spans bold on a terminal, the backticks dropped in plain text."""
    line = Text()
    for i, part in enumerate(re.split(r"`([^`]*)`", text)):
        line.append(part, style="bold" if i % 2 and not plain_wanted(out) else "")
    out.print(line)


# ---- a tournament summary (tournament, summarize, demo) ----------------------------------------------------

def print_summary(summary, out_dir, out: Console | None = None) -> None:
    """The strategy table, the ranking, the head-to-head matrix when it fits, and the seat advantage."""
    from idiotsim.strategy_api import UNFAIR_NOTE, is_fair_label
    from idiotsim.summary import length_text, same_players_text
    out = out or console()
    folder = Path(out_dir)
    out.print(f"Tournament {folder}: {summary.games:,} games, {summary.players} players", style="bold",
              highlight=False)
    paragraph(out, f"{length_text(summary)[:1].upper()}{length_text(summary)[1:]}. Intervals are 95% CIs over "
                   "clusters of deals.")
    out.print()
    titled(out, "Strategies (a lower mean place is better)", strategy_table(out, summary))
    if not all(map(is_fair_label, summary.strategies["strategy"])):
        paragraph(out, UNFAIR_NOTE.lstrip("\\"))
    out.print()
    titled(out, ranking_title(summary), ranking_table(out, summary))
    same = same_players_text(summary)
    if same:
        paragraph(out, same)
    out.print()
    matrix = head_to_head_table(out, summary)
    if matrix is None:
        n = summary.strategies.height
        paragraph(out, f"Head to head ({n} x {n}): too wide for {out.width} columns; see {folder / 'summary.md'} "
                       f"and {folder / 'head_to_head.png'}.")
    else:
        titled(out, "Head to head: the share of the shared tables at which the row strategy finishes ahead of "
                    "the column strategy (a tie counts half; 95% CI)", matrix)
    out.print()
    titled(out, f"Seat advantage (an even share is {1 / summary.players:.2%})", seat_table(out, summary))
    out.print()
    paragraph(out, f"summary.md, CSV tables and plots written to {folder}")


def _strategy_rows(summary) -> list[dict]:
    from idiotsim.strategy_api import UNFAIR_MARK, is_fair_label
    from idiotsim.summary import fmt_ci
    rows = []
    for r in summary.strategies.iter_rows(named=True):
        rows.append(dict(rank=str(r["rank"]), name=r["strategy"] + ("" if is_fair_label(r["strategy"]) else UNFAIR_MARK),
                         games=f"{r['games']:,}",
                         place=fmt_ci(r["mean_place"], r["mean_place_lo"], r["mean_place_hi"]),
                         win=fmt_ci(r["win_rate"], r["win_lo"], r["win_hi"], pct=True),
                         idiot=fmt_ci(r["idiot_rate"], r["idiot_lo"], r["idiot_hi"], pct=True),
                         stall=f"{r['stall_rate']:.4%}"))
    return rows


def strategy_table(out: Console, summary) -> Table:
    """Rank, strategy, mean place, win and Idiot rates with their 95% CIs; seat-games and stalls if there is
    room, the rank column only if there is room (the rows are in rank order)."""
    rows = _strategy_rows(summary)

    def build(stacked: bool, extras: bool, rank: bool) -> Table:
        columns = ([("rank", "right")] if rank else []) + [("strategy", "left")]
        columns += [("seat-games", "right")] if extras else []
        columns += [(estimate_header(name, stacked), "right") for name in ("mean place", "win rate", "Idiot rate")]
        columns += [("stall rate", "right")] if extras else []
        table = new_table(out, columns)
        for r in rows:
            cells = [r["rank"]] if rank else []
            cells += [r["name"]] + ([r["games"]] if extras else [])
            cells += [estimate_cell(r[k], stacked) for k in ("place", "win", "idiot")]
            table.add_row(*cells, *([r["stall"]] if extras else []))
        return table

    layouts = [(False, True, True), (False, False, True), (True, True, True), (True, False, True)]
    for layout in layouts:
        table = build(*layout)
        if fits(out, table):
            return table
    return build(True, False, False)


def ranking_table(out: Console, summary) -> Table:
    """The adjacent pairs in rank order, then the top strategy against every other (Holm over them all)."""
    from idiotsim.stats import format_p
    from idiotsim.summary import fmt_ci
    rows = list(summary.differences.iter_rows(named=True))

    def build(stacked: bool) -> Table:
        table = new_table(out, [("strategy", "left"), ("vs", "left"),
                                (estimate_header("difference", stacked), "right"), ("Holm p", "right"),
                                ("", "left")])
        for i, r in enumerate(rows):
            last_adjacent = r["against"] == "next" and i + 1 < len(rows) and rows[i + 1]["against"] == "top"
            table.add_row(r["better"], r["worse"],
                          estimate_cell(fmt_ci(r["difference"], r["lo"], r["hi"]), stacked), format_p(r["p_holm"]),
                          "ahead" if r["significant"] else "n.s.", end_section=last_adjacent)
        return table

    return first_fitting(out, build)


def ranking_title(summary) -> str:
    n = summary.differences.height
    if n == 0:
        return "Ranking: one strategy only"
    return (f"Ranking: differences in mean place (paired by cluster, 95% CI), each strategy against the next, "
            f"then the top one against every other; ahead = Holm p < 0.05 over these {n}")


def head_to_head_table(out: Console, summary) -> Table | None:
    """Row strategy ahead of column strategy (columns by rank), or None when it does not fit the width."""
    from idiotsim.summary import fmt_ci
    names = summary.strategies["strategy"].to_list()
    lookup = {(r["a"], r["b"]): r for r in summary.head_to_head.iter_rows(named=True)}

    def build(stacked: bool) -> Table:
        table = new_table(out, [("", "left")] + [(str(i + 1), "right") for i in range(len(names))])
        for i, a in enumerate(names):
            cells = []
            for b in names:
                r = lookup.get((a, b))
                cells.append("-" if r is None else estimate_cell(fmt_ci(r["a_ahead"], r["lo"], r["hi"]), stacked))
            table.add_row(f"{i + 1} {a}", *cells)
        return table

    table = first_fitting(out, build)
    return table if fits(out, table) else None


def seat_table(out: Console, summary) -> Table:
    from idiotsim.summary import fmt_ci
    table = new_table(out, [("seat", "right"), ("win rate (95% CI)", "right")])
    for r in summary.seats.iter_rows(named=True):
        table.add_row(str(r["seat"]), fmt_ci(r["win_rate"], r["lo"], r["hi"], pct=True))
    return table


# ---- run: the placements of each seat ------------------------------------------------------------------

def print_placements(frame, out_dir, out: Console | None = None) -> None:
    """`run`'s table: each seat's strategy, mean place, win and Idiot rates (``results.seat_table``)."""
    out = out or console()
    table = new_table(out, [("seat", "right"), ("strategy", "left"), ("mean place", "right"),
                            ("win rate", "right"), ("Idiot rate", "right")])
    for row in frame.iter_rows(named=True):
        table.add_row(str(row["seat"]), row["strategy"], f"{row['mean_place']:.4f}", f"{row['win_rate']:.2%}",
                      f"{row['idiot_rate']:.2%}")
    titled(out, f"Placements ({frame['games'][0]:,} games, results in {out_dir})", table)
    out.print(f"stall rate: {frame['stall_rate'][0]:.4%}")


# ---- report: each written report -----------------------------------------------------------------------

def print_report(written, out: Console | None = None) -> None:
    """A report's title and answer, the strategy table of a tournament report, and the files written."""
    out = out or console()
    title = written.spec.title
    out.print(title[:1].upper() + title[1:], style="bold", highlight=False)
    paragraph(out, written.answer)
    if written.summary is not None:
        titled(out, "Strategies (a lower mean place is better)", strategy_table(out, written.summary))
    paragraph(out, "written: " + ", ".join(str(f) for f in written.files))
    out.print()
