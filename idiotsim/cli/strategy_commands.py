"""``idiotsim strategies [NAME]``: one line per strategy, or one strategy's knobs.

Output is plain text that fits the terminal (80 columns when piped).
What it shows of a strategy comes from ``strategy_api.describe``.
"""
from __future__ import annotations

import shutil
import sys
import textwrap
from typing import Annotated, Optional

import typer

from idiotsim.errors import UserError
from idiotsim.strategies import loading as strategy_api
from idiotsim.strategies.loading import StrategyInfo, describe, is_source_spec, load_strategy

PIPED_WIDTH = 80
GAP = "  "


def _number(value: float) -> str:
    return f"{value:g}"


def _line_summary(info: StrategyInfo) -> str:
    """What it does in a line: a family's description; a preset's summary and the knobs it changes."""
    if info.preset_of is None:
        return info.summary
    own = "" if info.summary == _family_summary(info) else f": {info.summary}"
    return info.changes_text() + own


def _family_summary(info: StrategyInfo) -> str:
    return describe(info.family).summary


def _all_infos() -> list[StrategyInfo]:
    """Every registry entry, each family followed by its presets."""
    families = [describe(name) for name, strategy in strategy_api.registry().items() if name == strategy.name]
    return [member for family in families for member in [family] + [describe(p) for p in family.presets]]


def _width() -> int:
    if sys.stdout.isatty():
        return shutil.get_terminal_size((PIPED_WIDTH, 24)).columns
    return PIPED_WIDTH


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else textwrap.shorten(text, width, placeholder=" ...")


def listing_lines(infos: list[StrategyInfo], width: int) -> list[str]:
    """One line per strategy: name, family, what it does."""
    rows = [("name", "family", "what it does")] + [(i.name, i.family, _line_summary(i)) for i in infos]
    name_width = max(len(r[0]) for r in rows)
    family_width = max(len(r[1]) for r in rows)
    text_width = width - name_width - family_width - 2 * len(GAP)
    lines = [f"{name:<{name_width}}{GAP}{family:<{family_width}}{GAP}{_clip(text, text_width)}".rstrip()
             for name, family, text in rows]
    return lines + ["", "Knobs of one: idiotsim strategies NAME. Set them as NAME:knob=value,...",
                    "Tips as constraints on any of them: NAME+up=10+pickup=never (up, hand, pickup,",
                    "burn, tens, copies; docs/strategies.md, Constraints).",
                    "OpenSpiel's bots: openspiel:NAME[:knob=value,...], with the openspiel extra",
                    "(docs/interop.md lists them)."]


def _range_text(knob) -> str:
    return f"{_number(knob.low)}..{_number(knob.high)}" + ("" if knob.integer else " real")


def detail_lines(info: StrategyInfo, width: int) -> list[str]:
    """One strategy: what it does, and its knob table (name, default, range, meaning)."""
    wrap = textwrap.TextWrapper(width=width, subsequent_indent="  ")
    lines = wrap.wrap(f"{info.name}: {info.summary}" if info.preset_of is None else
                      f"{info.name}: {info.family} with {info.changes_text()}. {info.family}: "
                      f"{_family_summary(info)}")
    lines.append(f"stochastic: {'yes' if info.stochastic else 'no'}; counts cards: "
                 f"{'yes' if info.counts_cards else 'no'}; fair: "
                 f"{'yes' if info.fair else 'NO, it sees hidden cards (experiments only)'}")
    if info.presets:
        lines += wrap.wrap("presets: " + ", ".join(info.presets))
    if not info.knobs:
        return lines + ["knobs: none"]
    header = ("knob", "value" if info.preset_of else "default", "range")
    cells = [header] + [(k.name, _number(k.value) + ("*" if k.changed else ""), _range_text(k))
                        for k in info.knobs]
    widths = [max(len(row[c]) for row in cells) for c in range(3)]
    meaning_column = sum(widths) + 3 * len(GAP)
    meaning = textwrap.TextWrapper(width=max(width - meaning_column, 20))
    lines.append("")
    for row, knob in zip(cells, (None, *info.knobs)):
        first = GAP.join(cell.ljust(w) for cell, w in zip(row, widths)) + GAP
        text = meaning.wrap("meaning" if knob is None else knob.doc) or [""]
        lines.append(first + text[0])
        lines += [" " * len(first) + more for more in text[1:]]
    if any(k.changed for k in info.knobs):
        lines += ["", f"* set by the preset; the other knobs keep {info.family}'s defaults."]
    return lines


def _find(name: str) -> StrategyInfo:
    if ".py:" in name or is_source_spec(name):  # a file or another source's family (an OpenSpiel bot)
        strategy = load_strategy(name).strategy
        return describe(strategy.name, strategy)
    return describe(name)


def strategies(name: Annotated[Optional[str], typer.Argument(
        metavar="NAME", help="A strategy, preset or path/file.py:NAME: show its knobs "
                             "(name, default, range, meaning).")] = None) -> None:
    """List the strategies, one line each; with NAME, that strategy's knobs."""
    lines = listing_lines(_all_infos(), _width()) if name is None else detail_lines(_find(name), _width())
    sys.stdout.write("\n".join(lines) + "\n")
