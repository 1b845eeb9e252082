"""The bots of ``idiotsim play``: ``--level`` names one shipped strategy for every bot seat, ``--bots``
names them one by one.

``LEVELS`` is the one home of the level -> strategy table, with each bot's measured strength (the
shipped reports, or docs/strategies.md for the search at its default K). A new, stronger player
replaces a level by changing its one line (``hard`` was ``tuned-{p}p`` before the learned players).
"""
from __future__ import annotations

from dataclasses import dataclass

from idiotsim.errors import UserError

PRESET_PLAYER_COUNTS = range(2, 6)  # the learned and tuned presets exist for 2..5 players


@dataclass(frozen=True)
class Level:
    """A level: the strategy spec of its bots (``{p}``: the table's player count where a preset is
    tuned per player count) and how strong that player measured."""
    spec: str
    strength: str

    def spec_for(self, players: int) -> str:
        preset_for = min(max(players, PRESET_PLAYER_COUNTS[0]), PRESET_PLAYER_COUNTS[-1])
        return self.spec.format(p=preset_for)


LEVELS = {
    "easy": Level("high-early", "mean place 2.605 in the 4-player leaderboard of the 26 shipped players, "
                                "basic 2.389 (reports/leaderboard.md)"),
    "medium": Level("basic", "the reference player, 2.389 there"),
    "hard": Level("learned-fast-{p}p", "learned-fast-4p: 0.139 places ahead of basic at 4 players on held-out "
                                       "deals, 0.109 ahead of tuned-4p, the leaderboard's 1st (reports/learned.md)"),
    "expert": Level("search", "the search at K = 128, 0.43 places ahead of basic at 4 players "
                              "(docs/strategies.md; at K = 32 0.29, reports/search_strength.md)"),
}
DEFAULT_LEVEL = "hard"


def levels_help() -> str:
    """The levels, their bots and strengths, for ``play --help``."""
    return "; ".join(f"{name}: {level.spec.format(p='N')} ({level.strength})" for name, level in LEVELS.items())


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
