"""Checking one field of an experiment spec: every problem is a ``SpecError`` naming the file and the field."""
from __future__ import annotations

import re

from idiotsim.errors import UserError
from idiotsim.experiments.strategy_text import at_players
from idiotsim.game.rules import FIELD_NAMES, Rules, coerce_field

MAX_GAMES = 10 ** 10


class SpecError(UserError):
    pass


def field_error(path, fieldname: str, message: str) -> SpecError:
    return SpecError(f"{path}: field '{fieldname}': {message}")


def require_type(path, name, value, kind, what):
    ok = isinstance(value, kind) and not (kind in (int, (int,)) and isinstance(value, bool))
    if not ok:
        raise field_error(path, name, f"must be {what}, got {value!r}")
    return value


def check_keys(path, table: dict, allowed, prefix: str = "") -> None:
    for key in table:
        if key not in allowed:
            raise field_error(path, prefix + key, f"unknown field; allowed: {', '.join(allowed)}")


def read_rule_values(path, fieldname: str, table) -> dict:
    if not isinstance(table, dict):
        raise field_error(path, fieldname, f"must be a table of rule NAME = VALUE, got {table!r}")
    values = {}
    for name, value in table.items():
        if name == "players":
            raise field_error(path, f"{fieldname}.players",
                              "players is a top-level field (or a sweep), not a rule here")
        if name not in FIELD_NAMES:
            raise field_error(path, f"{fieldname}.{name}", f"unknown rule; valid rules: {', '.join(FIELD_NAMES)}")
        try:
            values[name] = coerce_field(name, value)
        except UserError as e:
            raise field_error(path, f"{fieldname}.{name}", str(e)) from None
    return values


def make_rules(path, fieldname: str, values: dict) -> Rules:
    try:
        return Rules(**values)
    except UserError as e:
        m = re.match(r"invalid rules: (\w+)", str(e))
        if fieldname == "rules" and m and m.group(1) in values and m.group(1) != "players":
            fieldname = f"rules.{m.group(1)}"  # name the offending field
        raise field_error(path, fieldname, str(e)) from None
    except TypeError as e:  # pragma: no cover - guarded by read_rule_values
        raise field_error(path, fieldname, str(e)) from None


def check_strategy(path, fieldname: str, spec, players: int | None = None) -> str:
    """A loadable spec (PLAYERS_MARK, where allowed (`players` given), replaced by `players` to check it)."""
    from idiotsim.strategies.loading import load_strategy
    if not isinstance(spec, str) or not spec.strip():
        raise field_error(path, fieldname, f"must be a strategy spec string like 'heuristic:burn_min=4', got {spec!r}")
    try:
        load_strategy(spec if players is None else at_players(spec, players))
    except UserError as e:
        raise field_error(path, fieldname, str(e)) from None
    return spec.strip()


def check_spec_list(path, fieldname: str, value, players: int | None = None) -> tuple:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        raise field_error(path, fieldname, f"must be a non-empty list of strategy specs, got {value!r}")
    return tuple(check_strategy(path, f"{fieldname}[{i}]", v, players) for i, v in enumerate(value))


def read_games(path, fieldname: str, value) -> int:
    games = require_type(path, fieldname, value, int, "an integer")
    if not 1 <= games <= MAX_GAMES:
        raise field_error(path, fieldname, f"must be 1..{MAX_GAMES}, got {games}")
    return games
