"""The rules config: one immutable object holding every field of docs/rules.md."""
from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, fields

from idiotsim.errors import UserError

LOW_RANK_CHOICES = (None, 7, 9)
SIX_BURN_CHOICES = (0, 3)
MAX_PLAYERS = 10


@dataclass(frozen=True)
class Rules:
    players: int = 4
    decks: int = 0  # 0 = automatic: one deck up to 5 players, two from 6 on (V7)
    low_rank: int | None = None  # V1 (7) / V2 (9)
    lowest_starts: bool = False  # V3 / R8
    rounds: int = 1  # V4 / R19
    chance: bool = False  # V5
    ten_only_on_lower: bool = False  # V6
    idiot_deals: bool = False  # V8
    burn_plays_again: bool = True  # R16.4; False is V9
    six_burn: int = 0  # V10: 3 = three 6s burn; 0 = off
    last_hand_with_faceup: bool = False  # V11
    opening_lowest: bool = False  # V12
    action_limit: int = 10_000  # R20

    def __post_init__(self):
        if self.decks == 0:
            object.__setattr__(self, "decks", 1 if self.players <= 5 else 2)
        _validate(self)

    @property
    def low_rank_id(self) -> int:
        """The rank id (see idiotsim.game.cards) of the V1/V2 low rank, -1 when off."""
        return -1 if self.low_rank is None else self.low_rank - 2

    @property
    def num_cards(self) -> int:
        return 52 * self.decks

    def replace(self, **changes) -> "Rules":
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


FIELD_TYPES = {f.name: f.type for f in fields(Rules)}
FIELD_NAMES = tuple(FIELD_TYPES)
_BOOL_FIELDS = {n for n, t in FIELD_TYPES.items() if t == "bool"}


def _validate(r: Rules) -> None:
    def bad(msg):
        raise UserError(f"invalid rules: {msg}")

    for name in FIELD_NAMES:
        value = getattr(r, name)
        if name in _BOOL_FIELDS:
            if not isinstance(value, bool):
                bad(f"{name} must be true or false, got {value!r}")
        elif name == "low_rank":
            if value not in LOW_RANK_CHOICES or isinstance(value, (bool, float)):
                bad(f"low_rank must be none, 7 or 9, got {value!r}")
        elif not isinstance(value, int) or isinstance(value, bool):
            bad(f"{name} must be an integer, got {value!r}")
    if not 2 <= r.players <= MAX_PLAYERS:
        bad(f"players must be 2..{MAX_PLAYERS}, got {r.players}")
    if r.decks not in (1, 2):
        bad(f"decks must be 1 or 2, got {r.decks}")
    if 9 * r.players > 52 * r.decks:
        bad(f"{r.players} players need {9 * r.players} cards, {r.decks} deck(s) hold {52 * r.decks}: use decks=2")
    if not 1 <= r.rounds <= 10:
        bad(f"rounds must be 1..10, got {r.rounds}")
    if r.six_burn not in SIX_BURN_CHOICES:
        bad(f"six_burn must be 0 (off) or 3, got {r.six_burn}")
    if not 1 <= r.action_limit <= 10_000_000:
        bad(f"action_limit must be 1..10000000, got {r.action_limit}")
    if r.opening_lowest and not r.lowest_starts:
        bad("opening_lowest (V12) applies only with lowest_starts (V3): set both")


def coerce_field(name: str, value):
    """A value from TOML or from a --rule string, to the field's type."""
    if name not in FIELD_TYPES:
        raise UserError(f"unknown rule {name!r}; valid rules: {', '.join(FIELD_NAMES)}")
    if isinstance(value, str):
        text = value.strip().lower()
        if name == "low_rank" and text in ("none", "off", "0", ""):
            return None
        if name in _BOOL_FIELDS:
            if text in ("true", "1", "yes", "on"):
                return True
            if text in ("false", "0", "no", "off"):
                return False
            raise UserError(f"rule {name} takes true or false, got {value!r}")
        try:
            return int(text)
        except ValueError:
            choices = "none, 7 or 9" if name == "low_rank" else "an integer"
            raise UserError(f"rule {name} takes {choices}, got {value!r}") from None
    return value


def parse_rule_assignment(text: str) -> tuple[str, object]:
    if "=" not in text:
        raise UserError(f"--rule takes NAME=VALUE, got {text!r}; valid names: {', '.join(FIELD_NAMES)}")
    name, value = text.split("=", 1)
    name = name.strip()
    return name, coerce_field(name, value)


def read_toml(path, what: str) -> dict:
    """A TOML file as a dict; an unreadable or invalid file is a UserError naming `what` it is."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise UserError(f"cannot read {what} {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{what} {path} is not valid TOML: {e}") from None


def stated_value(path: str | None, assignments, name: str):
    """The value of field `name` that a rules file and --rule assignments state (the last one), or None where
    neither names it."""
    value = None
    if path:
        data = read_toml(path, "rules file")
        data = data.get("rules", data)
        if isinstance(data, dict) and name in data:
            value = coerce_field(name, data[name])
    for text in assignments:
        field_name, field_value = parse_rule_assignment(text)
        if field_name == name:
            value = field_value
    return value


def load_rules(path: str | None = None, assignments=(), **overrides) -> Rules:
    """Rules from an optional TOML file, then --rule NAME=VALUE strings, then keyword overrides."""
    values: dict = {}
    if path:
        data = read_toml(path, "rules file")
        data = data.get("rules", data)
        if not isinstance(data, dict):
            raise UserError(f"rules file {path}: [rules] must be a table of NAME = VALUE")
        for name, value in data.items():
            try:
                values[name] = coerce_field(name, value)
            except UserError as e:
                raise UserError(f"{e} (in {path})") from None
    for text in assignments:
        name, value = parse_rule_assignment(text)
        values[name] = value
    for name, value in overrides.items():
        if value is not None:
            values[name] = coerce_field(name, value)
    try:
        return Rules(**values)
    except UserError as e:
        raise UserError(f"{e} (in {path})" if path else str(e)) from None
