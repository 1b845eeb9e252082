"""The bots of ``idiotsim play``: ``--level`` names one shipped strategy for every bot seat, ``--bots``
names them one by one.

``LEVELS`` is the one home of the level -> strategy table, with each bot's measured strength (the
shipped reports, or docs/strategies.md for the search at its default K): the README's level table
(``levels_markdown``) and ``play --help`` (``levels_help``) are written from it, and
tests/table/test_levels.py holds them equal to it and its figures to the reports' CSV files. A new,
stronger player replaces a level by changing its one line (``hard`` was ``tuned-{p}p`` before the
learned players).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from idiotsim.errors import UserError

PRESET_PLAYER_COUNTS = range(2, 6)  # the learned and tuned presets exist for 2..5 players


@dataclass(frozen=True)
class Level:
    """A level: the strategy spec of its bots (``{p}``: the table's player count where a preset is
    tuned per player count), what that bot is in a few words, how strong it measured (`headline`, for
    ``play --help`` too, and `detail`; Markdown: names in backticks) and where that was measured
    (links from the README)."""
    spec: str
    bot: str
    headline: str
    detail: str = ""
    sources: tuple = ()

    def spec_for(self, players: int) -> str:
        preset_for = min(max(players, PRESET_PLAYER_COUNTS[0]), PRESET_PLAYER_COUNTS[-1])
        return self.spec.format(p=preset_for)


# The expert's K is the search's `rollouts` knob's default (strategies/search/search_knobs.py), written out:
# `play --help` imports no numba (tests/table/test_levels.py holds them equal).
LEVELS = {
    "easy": Level("high-early", "`high-early`",
                  "mean place 2.610 (95% CI 2.605 to 2.615) at 4 players, `basic` 2.397 (2.393 to 2.400)",
                  "in the 4-player leaderboard of the 27 shipped players", ("reports/leaderboard.md",)),
    "medium": Level("basic", "`basic`", "the reference player of docs/rules.md",
                    "mean place 2.397 in that leaderboard", ("reports/leaderboard.md",)),
    "hard": Level("learned-fast-{p}p", "`learned-fast-Np` (N = the table's players, 2..5)",
                  "0.139 (95% CI 0.132 to 0.145) places ahead of `basic` at 4 players",
                  "`learned-fast-4p` on held-out deals; 0.109 (0.102 to 0.116) ahead of `tuned-4p`, the "
                  "leaderboard's second (after `chart`) at 2.376 (2.372 to 2.379)", ("reports/learned.md", "reports/tuned.md")),
    "expert": Level("search", "`search` (K = 128)",
                    "0.478 (95% CI 0.467 to 0.489) places ahead of `basic` at 4 players",
                    "at K = 32 0.380 (0.331 to 0.429)", ("docs/strategies.md", "reports/search_strength.md")),
}
DEFAULT_LEVEL = "hard"


def _plain(markdown: str) -> str:
    return markdown.replace("`", "")


def levels_help() -> str:
    """The levels, their bots and strengths, for ``play --help``."""
    return "; ".join(f"{name}: {_plain(level.bot)}, {_plain(level.headline)}" for name, level in LEVELS.items())


def levels_markdown() -> str:
    """The README's level table (tests/table/test_levels.py keeps the README's copy equal to it)."""
    rows = ["| `--level` | bot | measured strength |", "|---|---|---|"]
    for name, level in LEVELS.items():
        links = ", ".join(f"[{path}]({path})" for path in level.sources)
        default = " (default)" if name == DEFAULT_LEVEL else ""
        detail = "; ".join(filter(None, [level.detail, links]))
        rows.append(f"| `{name}`{default} | {level.bot} | {level.headline}{f' ({detail})' if detail else ''} |")
    return "\n".join(rows) + "\n"


def level_figures() -> set[str]:
    """Every number of the levels' strengths, as written (for the tests that hold them to the reports)."""
    return {n for level in LEVELS.values() for n in re.findall(r"\d+\.\d+", level.headline + " " + level.detail)}


def bot_specs(level: str | None, bots: str | None, players: int) -> list[str]:
    """The strategy specs of the ``players - 1`` bot seats, from ``--level`` or ``--bots`` (one spec
    for every bot, or one per bot seat in seat order)."""
    from idiotsim.strategies.loading import split_specs
    if level is not None and bots is not None:
        raise UserError("give at most one of --level and --bots")
    if bots is None:
        name = (level or DEFAULT_LEVEL).strip().lower()
        if name not in LEVELS:
            raise UserError(f"unknown --level {level!r}; levels: {', '.join(LEVELS)}")
        return [LEVELS[name].spec_for(players)] * (players - 1)
    specs = split_specs(bots)
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise UserError(f"--bots: {players} players leave {players - 1} bot seat(s); give 1 or "
                        f"{players - 1} strategies, got {len(specs)}: {bots}")
    return specs
