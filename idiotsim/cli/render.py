"""What the commands print for a person: rich tables that fit the terminal's width.

Every table is built from the objects the Markdown files are made from (``idiotsim.analysis.tournament_summary.Summary``, a
report's ``Written``), never from the Markdown itself, which stays the record on disk. On a terminal the
tables have rules and a bold head; piped, or with ``NO_COLOR`` set, they are plain text: spaces and
dashes, no escape codes (``console``). A figure is never broken across lines: a table is first laid out
with each estimate and its interval on one line; when that is wider than the console, the interval moves
under the estimate, then columns that can go (seat-games, stalls, rank, deals) go; a head-to-head matrix
that does not fit either way is replaced by a line naming the files that hold it.
"""
from __future__ import annotations

import os
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

# Plain text: a dashed line under the head, columns apart by spaces, nothing else.
PLAIN_BOX = box.Box("    \n    \n -  \n    \n    \n    \n    \n    \n", ascii=True)
RULED_BOX = box.SIMPLE_HEAD
STRATEGIES_TITLE = "Strategies (a lower mean place is better)"


def silence_stdout() -> None:
    """Standard output to the null device: its reader has gone (`idiotsim run | head -1`)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)


class PipeSafeConsole(Console):
    """A console whose reader may stop reading: rich's own reaction to a closed pipe is SystemExit(1) in
    the middle of the command, so the exit code of `idiotsim run | head -1` depended on whether the table
    fit the pipe's buffer, and a command that prints before it writes its files would stop short. This
    one prints nothing more and lets the command finish (exit code 0: every result is written)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        if self.file is sys.stdout:  # its unwritten buffer would fail again at exit
            silence_stdout()


def plain_wanted(console: Console) -> bool:
    """Plain text for a pipe or a file, and wherever NO_COLOR is set (no-color.org: set and not empty)."""
    return not console.is_terminal or bool(os.environ.get("NO_COLOR"))


def console(file=None, width: int | None = None) -> Console:
    """The console a command prints to (stdout unless `file`); plain when `plain_wanted`."""
    out = PipeSafeConsole(file=file, width=width, highlight=False, emoji=False, markup=False)
    if plain_wanted(out):
        out = PipeSafeConsole(file=file, width=width, highlight=False, emoji=False, markup=False,
                              color_system=None, no_color=True)
    return out


@dataclass(frozen=True)
class Column:
    """A column of a table: `names` (strategies, settings) may wrap at spaces when it must; every other
    column is as wide as its widest cell, so a figure is never broken (its header wraps instead)."""
    header: str
    justify: str = "right"
    names: bool = False


def grid(out: Console, columns: list[Column], rows: list[list[str]], stacked: bool = False) -> Table:
    """A table in the console's style. `stacked`: each estimate's interval under it, on a line of its own."""
    plain = plain_wanted(out)
    table = Table(box=PLAIN_BOX if plain else RULED_BOX, show_edge=False, pad_edge=False, padding=(0, 1),
                  collapse_padding=True, header_style="" if plain else "bold")
    cells = [[row[i] for row in rows] if column.names else estimate_cells([row[i] for row in rows], stacked)
             for i, column in enumerate(columns)]
    headers = [header_text(column.header, has_interval(values)) for column, values in zip(columns, cells)]
    for column, values, header, width in zip(columns, cells, headers, column_widths(out, columns, cells, headers)):
        aligned = not stacked and has_interval(values)  # estimate_cells lined the estimates up
        table.add_column(header, justify="left" if aligned else column.justify, width=width, overflow="fold")
    for row in zip(*cells):
        table.add_row(*row)
    return table


def has_interval(values: list[str]) -> bool:
    """Whether a figure column holds an interval, `(lo to hi)`, beside or under its estimate."""
    return any(" (" in v or "\n(" in v for v in values)


def header_text(header: str, interval: bool) -> str:
    """A header names its interval, `(95% CI)`, on a line of its own, and not at all when no cell has one."""
    return header.replace(" (95% CI)", "\n(95% CI)" if interval else "")


def column_widths(out: Console, columns: list[Column], cells: list[list[str]], headers: list[str]) -> list:
    """Each figure column as wide as its widest cell, or its header in two lines a line if wider; spare room
    then unwraps the headers, left to right. Name columns: None (rich gives them the rest)."""
    def longest(lines) -> int:
        return max(map(len, lines), default=0)

    widths = [max(longest(line for v in values for line in v.splitlines()), header_width(header))
              for values, header in zip(cells, headers)]
    used = sum(max(w, longest(h.splitlines())) if c.names else w for c, w, h in zip(columns, widths, headers))
    room = out.width - used - 2 * (len(columns) - 1)  # a column's right padding and the space between
    for i, header in enumerate(headers):
        full = longest(header.splitlines())
        if not columns[i].names and 0 < full - widths[i] <= room:
            room -= full - widths[i]
            widths[i] = full
    return [None if c.names else w for c, w in zip(columns, widths)]


def header_width(header: str) -> int:
    """Room for a header in at most two lines per line of it, and never a word broken."""
    return max((max(max(map(len, line.split())), -(-len(line) // 2)) for line in header.splitlines()), default=0)


def estimate_cells(column: list[str], stacked: bool) -> list[str]:
    """Cells such as `2.501 (2.48 to 2.52)`: stacked, the interval on a second line; else on one line with
    the estimates right-aligned to each other (the column is left-aligned so the intervals line up too)."""
    if stacked:
        return [text.replace(" (", "\n(", 1) for text in column]
    parts = [text.split(" (", 1) for text in column]
    width = max(len(p[0]) for p in parts) if any(len(p) == 2 for p in parts) else 0
    return [p[0].rjust(width) + (" (" + p[1] if len(p) == 2 else "") for p in parts]


def widths(out: Console, table: Table) -> Measurement:
    """The table's width: maximum with no name wrapped, minimum with names wrapped at spaces."""
    return Measurement.get(out, out.options.update_width(1_000_000), table)


def choose(out: Console, layouts: list, must_fit: bool = False) -> Table | None:
    """The first layout (a callable making a table) that fits the console's width as it is; else the last
    one with its names wrapped, if that fits (or regardless, unless `must_fit`)."""
    for layout in layouts:
        table = layout()
        if widths(out, table).maximum <= out.width:
            return table
    return table if not must_fit or widths(out, table).minimum <= out.width else None


def heading(out: Console, text: str) -> None:
    out.print(text, style="" if plain_wanted(out) else "bold")


def titled(out: Console, title: str, table: Table) -> None:
    """A table under its title (the title wraps to the console, not to the table's width)."""
    heading(out, title)
    out.print(table)


INTERVAL = re.compile(r"\([^()\s]+ to [^()\s]+\)")  # `(2.48 to 2.52)`, kept on one line


def paragraph(out: Console, text: str) -> None:
    """A sentence of a report, wrapped to the console between words but never inside an interval: `code`
    spans bold on a terminal, the backticks dropped in plain text."""
    parts = re.split(r"`([^`]*)`", text)
    plain = "".join(parts)
    kept = INTERVAL.sub(lambda m: m.group().replace(" ", "\0"), plain)
    wrapped = "\n".join(textwrap.wrap(kept, out.width, break_long_words=False, break_on_hyphens=False))
    if len(wrapped) != len(plain):  # whitespace that wrapping does not keep in place: let rich wrap it
        wrapped = plain
    line = Text(wrapped.replace("\0", " "))
    if not plain_wanted(out):
        start = 0
        for i, part in enumerate(parts):
            if i % 2:
                line.stylize("bold", start, start + len(part))
            start += len(part)
    out.print(line)


# ---- a tournament summary (tournament, summarize, demo) ----------------------------------------------------

def print_summary(summary, out_dir, out: Console | None = None) -> None:
    """The strategy table, the ranking, the head-to-head matrix when it fits, and the seat advantage."""
    from idiotsim.strategies.loading import UNFAIR_NOTE, is_fair_label
    from idiotsim.analysis.tournament_summary import length_text, same_players_text, stall_warning
    out = out or console()
    folder = Path(out_dir)
    heading(out, f"Tournament {folder}: {summary.games:,} games, {summary.players} players")
    paragraph(out, f"{length_text(summary)[:1].upper()}{length_text(summary)[1:]}. Intervals are 95% CIs over "
                   "clusters of deals.")
    warning = stall_warning(summary)
    if warning:
        paragraph(out, warning)
    out.print()
    titled(out, STRATEGIES_TITLE, strategy_table(out, summary))
    if not all(map(is_fair_label, summary.strategies["strategy"])):
        paragraph(out, UNFAIR_NOTE.lstrip("\\"))
    if warning:
        paragraph(out, warning)
    out.print()
    titled(out, ranking_title(summary), ranking_table(out, summary))
    same = same_players_text(summary)
    if same:
        paragraph(out, same)
    out.print()
    matrix, keyed = head_to_head_table(out, summary)
    if matrix is None:
        n = summary.strategies.height
        paragraph(out, f"Head to head ({n} x {n}): too wide for {out.width} columns; see {folder / 'summary.md'} "
                       f"and {folder / 'head_to_head.png'}.")
    else:
        heading(out, "Head to head: the share of the shared tables at which the row strategy finishes ahead of "
                     "the column strategy (a tie counts half; 95% CI)")
        if keyed:
            paragraph(out, "Rows and columns by rank: " + ", ".join(
                f"{i + 1} {name}" for i, name in enumerate(summary.strategies["strategy"])) + ".")
        out.print(matrix)
    out.print()
    titled(out, f"Seat advantage (an even share is {1 / summary.players:.2%})", seat_table(out, summary))
    out.print()
    paragraph(out, f"summary.md, CSV tables and plots written to {folder}")


def _strategy_rows(summary) -> list[dict]:
    from idiotsim.strategies.loading import UNFAIR_MARK, is_fair_label
    from idiotsim.analysis.tournament_summary import fmt_ci
    rows = []
    for r in summary.strategies.iter_rows(named=True):
        mark = "" if is_fair_label(r["strategy"]) else UNFAIR_MARK
        rows.append(dict(rank=str(r["rank"]), name=r["strategy"] + mark,
                         games=f"{r['games']:,}",
                         place=fmt_ci(r["mean_place"], r["mean_place_lo"], r["mean_place_hi"]),
                         win=fmt_ci(r["win_rate"], r["win_lo"], r["win_hi"], pct=True),
                         idiot=fmt_ci(r["idiot_rate"], r["idiot_lo"], r["idiot_hi"], pct=True),
                         stall=f"{r['stall_rate']:.4%}"))
    return rows


def strategy_table(out: Console, summary) -> Table:
    """Rank, strategy, mean place, win and Idiot rates with their 95% CIs; seat-games and stalls if there is
    room, and the rank in a column of its own if there is room, else before the name ("12 counter")."""
    rows = _strategy_rows(summary)
    for r in rows:
        r["ranked"] = f"{r['rank']:>{len(rows[-1]['rank'])}} {r['name']}"

    def layout(stacked: bool, extras: bool, rank_column: bool):
        keys = (["rank", "name"] if rank_column else ["ranked"]) + (["games"] if extras else [])
        keys += ["place", "win", "idiot"] + (["stall"] if extras else [])
        headers = {"rank": Column("rank"), "name": Column("strategy", "left", names=True),
                   "ranked": Column("rank, strategy", "left", names=True), "games": Column("seat-games"),
                   "place": Column("mean place (95% CI)"), "win": Column("win rate (95% CI)"),
                   "idiot": Column("Idiot rate (95% CI)"), "stall": Column("stall rate")}
        return lambda: grid(out, [headers[k] for k in keys], [[r[k] for k in keys] for r in rows], stacked)

    return choose(out, [layout(False, True, True), layout(False, False, True), layout(True, True, True),
                        layout(True, False, True), layout(True, False, False)])


def ranking_table(out: Console, summary) -> Table:
    """The adjacent pairs in rank order, then the top strategy against every other (Holm over them all)."""
    from idiotsim.analysis.stats import format_p
    from idiotsim.analysis.tournament_summary import fmt_ci, uncalled
    diffs = list(summary.differences.iter_rows(named=True))
    columns = [Column("strategy", "left", names=True), Column("vs", "left", names=True),
               Column("difference (95% CI)"), Column("Holm p"), Column("", "left")]
    rows = [[r["better"], r["worse"], fmt_ci(r["difference"], r["lo"], r["hi"]), format_p(r["p_holm"]),
             "ahead" if r["significant"] else "n.s. after Holm" if uncalled(r) else "n.s."] for r in diffs]

    def layout(stacked: bool):
        def make() -> Table:
            table = grid(out, columns, rows, stacked)
            adjacent = sum(r["against"] == "next" for r in diffs)
            if 0 < adjacent < len(diffs):  # a gap between the adjacent pairs and the top against the others
                table.rows[adjacent - 1].end_section = True
            return table
        return make

    return choose(out, [layout(False), layout(True)])


def ranking_title(summary) -> str:
    n = summary.differences.height
    if n == 0:
        return "Ranking: one strategy only"
    return (f"Ranking: differences in mean place (paired by cluster, 95% CI), each strategy against the next, "
            f"then the top one against every other; ahead = Holm p < 0.05 over these {n}")


def head_to_head_table(out: Console, summary) -> tuple[Table | None, bool]:
    """Row strategy ahead of column strategy (columns by rank), and whether its rows are named by rank alone
    (then the caller prints the key); None when it does not fit the width even so."""
    from idiotsim.analysis.tournament_summary import fmt_ci
    names = summary.strategies["strategy"].to_list()
    lookup = {(r["a"], r["b"]): r for r in summary.head_to_head.iter_rows(named=True)}
    cells = [[("-" if (a, b) not in lookup else
               fmt_ci(lookup[a, b]["a_ahead"], lookup[a, b]["lo"], lookup[a, b]["hi"])) for b in names]
             for a in names]
    named = [[f"{i + 1} {a}"] + row for i, (a, row) in enumerate(zip(names, cells))]
    ranked = [[str(i + 1)] + row for i, row in enumerate(cells)]
    columns = [Column("", "left", names=True)] + [Column(str(i + 1)) for i in range(len(names))]
    layouts = [(lambda: grid(out, columns, named), False), (lambda: grid(out, columns, named, stacked=True), False),
               (lambda: grid(out, [Column("")] + columns[1:], ranked), True),
               (lambda: grid(out, [Column("")] + columns[1:], ranked, stacked=True), True)]
    for layout, keyed in layouts:
        table = layout()
        if widths(out, table).maximum <= out.width:
            return table, keyed
    return None, False


def seat_table(out: Console, summary) -> Table:
    from idiotsim.analysis.tournament_summary import fmt_ci
    return grid(out, [Column("seat"), Column("win rate (95% CI)")],
                [[str(r["seat"]), fmt_ci(r["win_rate"], r["lo"], r["hi"], pct=True)]
                 for r in summary.seats.iter_rows(named=True)])


# ---- the demo's strength ladder -------------------------------------------------------------------------

def print_ladder(ladder, out_dir, out: Console | None = None) -> None:
    """The ladder's table (best first), what its figures mean, and where its files are."""
    from idiotsim.analysis.ladder import EXPLAIN, TITLE, answer, cells
    out = out or console()
    folder = Path(out_dir)
    heading(out, TITLE.replace("`", ""))
    paragraph(out, answer(ladder))
    out.print()
    rows = cells(ladder.table)
    headers = {"rank": Column("rank"), "player": Column("player", "left", names=True), "games": Column("games"),
               "place": Column("mean place (95% CI)"), "ahead": Column("ahead of basic (95% CI)"),
               "win": Column("win rate (95% CI)")}

    def layout(keys, stacked):
        return lambda: grid(out, [headers[k] for k in keys], [[r[k] for k in keys] for r in rows], stacked)

    full, narrow = ["rank", "player", "games", "place", "ahead", "win"], ["player", "games", "place", "ahead"]
    out.print(choose(out, [layout(full, False), layout(full, True), layout(narrow, False), layout(narrow, True)]))
    out.print()
    paragraph(out, EXPLAIN)
    out.print()
    paragraph(out, f"ladder.md, ladder.csv and plots in {folder}, each player's games in {folder / 'players'}. "
                   f"The cheap strategies' round robin: `idiotsim demo --strategies all`.")


# ---- run: the placements of each seat ------------------------------------------------------------------

def print_placements(frame, out_dir, out: Console | None = None) -> None:
    """`run`'s table: each seat's strategy, mean place, win and Idiot rates (``results.seat_table``)."""
    out = out or console()
    columns = [Column("seat"), Column("strategy", "left", names=True), Column("mean place"), Column("win rate"),
               Column("Idiot rate")]
    rows = [[str(r["seat"]), r["strategy"], f"{r['mean_place']:.4f}", f"{r['win_rate']:.2%}", f"{r['idiot_rate']:.2%}"]
            for r in frame.iter_rows(named=True)]
    titled(out, f"Placements ({frame['games'][0]:,} games, results in {out_dir})", grid(out, columns, rows))
    from idiotsim.analysis.tournament_summary import STALL_WARNING
    stall = frame["stall_rate"][0]
    out.print(f"stall rate: {stall:.4%}")
    if stall >= STALL_WARNING:
        paragraph(out, f"Warning: {stall:.1%} of the games stalled (the action limit, R20, ended them unfinished), "
                       "so these places are not those of finished games; read them with care.")


# ---- report: each written report -----------------------------------------------------------------------

def print_report(written, out: Console | None = None) -> None:
    """A report's title, its plain first sentence and careful answer, its main figures (a tournament's strategy
    table), the files written."""
    out = out or console()
    title = written.spec.title
    heading(out, title[:1].upper() + title[1:])
    if getattr(written, "plain", ""):
        paragraph(out, written.plain)
        out.print()
    paragraph(out, written.answer)
    out.print()
    if written.summary is not None:
        titled(out, STRATEGIES_TITLE, strategy_table(out, written.summary))
    elif written.table is not None:
        titled(out, written.table.title, cell_table(out, written.table))
        if written.table.note:
            paragraph(out, written.table.note)
    paragraph(out, "written: " + ", ".join(str(f) for f in written.files))
    out.print()


def cell_table(out: Console, cells) -> Table:
    """A design's ``CellTable`` (its left-aligned columns hold names): intervals stacked if one line is too
    wide, then without its optional columns."""
    columns = [Column(header, justify, names=justify == "left") for header, justify in cells.columns]
    kept = [i for i in range(len(columns)) if i not in cells.optional]
    narrow = [columns[i] for i in kept], [[row[i] for i in kept] for row in cells.rows]
    return choose(out, [lambda: grid(out, columns, cells.rows), lambda: grid(out, columns, cells.rows, stacked=True),
                        lambda: grid(out, *narrow, stacked=True)])
