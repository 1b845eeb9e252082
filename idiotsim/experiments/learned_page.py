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

import re
from pathlib import Path
from typing import Callable

from idiotsim.errors import UserError
from idiotsim.experiments.learned_rows import KEYS, Rows, bounds, cell, count, decimals, interval, magnitude, \
    microseconds, number, signed
from idiotsim.experiments.learned_tables import BLOCKS, TABLES
from idiotsim.experiments.report_plots import frontier_plot
from idiotsim.experiments.text import wrap
from idiotsim.runs.atomic_files import write_atomic

PAGE = "learned.md"
TEMPLATE = "learned/template.md"
FRONTIER_PLOT = "learned_frontier.png"


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


def write_learned_page(folder) -> list[Path]:
    """Write `folder`/learned.md and learned_frontier.png from the template and CSVs there."""
    folder = Path(folder)
    text = learned_page_markdown(folder)
    return [write_atomic(folder / PAGE, text), frontier_plot(folder, folder / FRONTIER_PLOT)]
