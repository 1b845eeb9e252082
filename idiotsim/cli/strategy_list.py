"""``idiotsim strategies [NAME]``: one line per strategy, or one strategy's knobs.

Output is plain text that fits the terminal (80 columns when piped).
``strategy_info`` is the only code here that reads a ``Strategy``.
"""
from __future__ import annotations

import shutil
import sys
import textwrap
from dataclasses import dataclass
from typing import Annotated, Optional

import typer

from idiotsim.errors import UserError

PIPED_WIDTH = 80
GAP = "  "


@dataclass(frozen=True)
class KnobInfo:
    name: str
    value: float  # the strategy's default, or the value its preset sets
    low: float
    high: float
    integer: bool
    meaning: str
    set_by_preset: bool


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    family: str
    summary: str  # what it does, in a line; for a preset, the knobs it sets
    description: str
    stochastic: bool
    counts_cards: bool
    knobs: tuple[KnobInfo, ...]
    presets: tuple[str, ...]  # a family's presets
    preset_text: str  # a preset's knob settings, "" for a family


def _number(value: float) -> str:
    return f"{value:g}"


def strategy_info(name: str, strategy) -> StrategyInfo:
    """What the command shows of registry entry `name` (a family, or a preset of `strategy`)."""
    is_preset = name != strategy.name
    preset = strategy.presets.get(name, {}) if is_preset else {}
    knobs = tuple(KnobInfo(k.name, preset.get(k.name, k.default), k.low, k.high, k.integer, k.doc, k.name in preset)
                  for k in strategy.knobs)
    preset_text = ", ".join(f"{knob}={_number(value)}" for knob, value in preset.items())
    return StrategyInfo(
        name=name, family=strategy.name,
        summary=f"preset: {preset_text}" if is_preset else strategy.description,
        description=strategy.description, stochastic=strategy.stochastic, counts_cards=strategy.counts_cards,
        knobs=knobs, presets=() if is_preset else tuple(strategy.presets), preset_text=preset_text)


def _all_infos() -> list[StrategyInfo]:
    """Every registry entry, each family followed by its presets."""
    from idiotsim.strategy_api import registry
    entries = registry()
    infos = [strategy_info(name, s) for name, s in entries.items()]
    families = [i for i in infos if i.name == i.family]
    return [member for family in families
            for member in [family] + [i for i in infos if i.family == family.name and i is not family]]


def _width() -> int:
    if sys.stdout.isatty():
        return shutil.get_terminal_size((PIPED_WIDTH, 24)).columns
    return PIPED_WIDTH


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else textwrap.shorten(text, width, placeholder=" ...")


def listing_lines(infos: list[StrategyInfo], width: int) -> list[str]:
    """One line per strategy: name, family, what it does."""
    rows = [("name", "family", "what it does")] + [(i.name, i.family, i.summary) for i in infos]
    name_width = max(len(r[0]) for r in rows)
    family_width = max(len(r[1]) for r in rows)
    text_width = width - name_width - family_width - 2 * len(GAP)
    lines = [f"{name:<{name_width}}{GAP}{family:<{family_width}}{GAP}{_clip(text, text_width)}".rstrip()
             for name, family, text in rows]
    return lines + ["", "Knobs of one: idiotsim strategies NAME. Set them as NAME:knob=value,..."]


def _range_text(knob: KnobInfo) -> str:
    return f"{_number(knob.low)}..{_number(knob.high)}" + ("" if knob.integer else " real")


def detail_lines(info: StrategyInfo, width: int) -> list[str]:
    """One strategy: what it does, and its knob table (name, default, range, meaning)."""
    wrap = textwrap.TextWrapper(width=width, subsequent_indent="  ")
    lines = wrap.wrap(f"{info.name}: {info.description}" if not info.preset_text else
                      f"{info.name}: {info.family} with {info.preset_text}. {info.family}: {info.description}")
    lines.append(f"stochastic: {'yes' if info.stochastic else 'no'}; counts cards: "
                 f"{'yes' if info.counts_cards else 'no'}")
    if info.presets:
        lines += wrap.wrap("presets: " + ", ".join(info.presets))
    if not info.knobs:
        return lines + ["knobs: none"]
    header = ("knob", "value" if info.preset_text else "default", "range")
    cells = [header] + [(k.name, _number(k.value) + ("*" if k.set_by_preset else ""), _range_text(k))
                        for k in info.knobs]
    widths = [max(len(row[c]) for row in cells) for c in range(3)]
    meaning_column = sum(widths) + 3 * len(GAP)
    meaning = textwrap.TextWrapper(width=max(width - meaning_column, 20))
    lines.append("")
    for row, knob in zip(cells, (None, *info.knobs)):
        first = GAP.join(cell.ljust(w) for cell, w in zip(row, widths)) + GAP
        text = meaning.wrap("meaning" if knob is None else knob.meaning) or [""]
        lines.append(first + text[0])
        lines += [" " * len(first) + more for more in text[1:]]
    if any(k.set_by_preset for k in info.knobs):
        lines += ["", f"* set by the preset; the other knobs keep {info.family}'s defaults."]
    return lines


def _find(name: str, infos: list[StrategyInfo]) -> StrategyInfo:
    if ".py:" in name:  # a strategy file, as --strategies takes it
        from idiotsim.strategy_api import load_strategy
        strategy = load_strategy(name).strategy
        return strategy_info(strategy.name, strategy)
    for info in infos:
        if info.name == name:
            return info
    raise UserError(f"unknown strategy {name!r}; available: {', '.join(sorted(i.name for i in infos))}")


def strategies(name: Annotated[Optional[str], typer.Argument(
        metavar="NAME", help="A strategy, preset or path/file.py:NAME: show its knobs "
                             "(name, default, range, meaning).")] = None) -> None:
    """List the strategies, one line each; with NAME, that strategy's knobs."""
    infos = _all_infos()
    lines = listing_lines(infos, _width()) if name is None else detail_lines(_find(name, infos), _width())
    sys.stdout.write("\n".join(lines) + "\n")
