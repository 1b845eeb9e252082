"""Experiment specs: the TOML files in ``reports/``, read and checked into a ``Spec`` of ``Point``s.

Every problem is a ``SpecError`` (a ``UserError``) naming the file and the field.
A sweep expands into one ``Point`` per setting (rules, knobs and seating of that
setting); the field reference is ``SPEC_HELP`` in ``idiotsim.experiments.index``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from idiotsim.errors import UserError
from idiotsim.game.rules import FIELD_NAMES, Rules, coerce_field, read_toml

DESIGNS = ("paired", "strong", "seats", "tournament", "disagreement", "chart")
COMMON_FIELDS = ("title", "question", "design", "players", "rules", "games", "seed", "notes", "check_games")
PAIRED_FIELDS = ("treatment", "control", "opponents", "treatment_label", "control_label", "streams", "sweep", "fields",
                 "advice", "advice_against")
DESIGN_FIELDS = {
    "paired": PAIRED_FIELDS,
    "strong": PAIRED_FIELDS + ("beginner", "reference"),
    "seats": ("strategy", "sweep"),
    "tournament": ("strategies",),
    "disagreement": ("strategy", "judge"),
    "chart": ("strategy", "rows"),
}
REQUIRED = {
    "paired": ("question", "treatment", "control", "opponents", "players", "games", "seed"),
    "strong": ("question", "treatment", "control", "opponents", "players", "games", "seed", "beginner"),
    "seats": ("question", "strategy", "players", "games", "seed"),
    "tournament": ("question", "strategies", "players", "games", "seed"),
    "disagreement": ("question", "strategy", "judge", "players", "games", "seed"),
    "chart": ("question", "strategy", "rows", "players", "games", "seed"),
}
SWEEP_FIELDS = ("knob", "rule", "values", "variants", "series")
SERIES_FIELDS = ("knob", "rule", "values")
DEAL_VARIANT_FIELDS = ("label", "rules", "knobs", "opponents", "treatment", "control", "games", "fields", "level")
LEVELS = ("beginner", "fast", "strong", "search")  # a strong setting's level of play (the tips table's columns)
VARIANT_FIELDS = {"paired": DEAL_VARIANT_FIELDS, "strong": DEAL_VARIANT_FIELDS, "seats": ("label", "rules", "strategy")}
FIELD_FIELDS = ("label", "opponents", "games", "share")  # one [[fields]] table
BEGINNER_FIELDS = ("treatment", "control", "opponents", "label", "report")
PLAYERS_MARK = "{players}"  # in a paired strategy spec: the point's player count (learned-fast-{players}p)
STREAMS = ("shared", "independent")
MAX_GAMES = 10 ** 10
MAX_JUDGE = 100_000  # disagreement: sampled states judging one disagreement

@dataclass(frozen=True)
class Point:
    """One setting of a sweep (or the only setting)."""
    label: str  # "players=3", "burn_min=4", a variant's label; "" without a sweep
    x: object  # sweep value (number or label) for the plot
    series: str  # series label ("" when no series)
    rules: Rules
    treatment: str = ""  # paired
    control: str = ""
    opponents: tuple = ()
    strategy: str = ""  # seats
    games: int = 0  # games of this point at full size (a field's `games`); 0: the spec's
    field: str = ""  # the field's label ([[fields]]); "" without fields
    beginner_treatment: str = ""  # strong: the beginner contrast played on the same deals
    beginner_control: str = ""
    beginner_opponents: tuple = ()
    reference: str = ""  # strong: the reference arm (`basic`) in the focal seat among the strong arms' opponents
    only_fields: tuple = ()  # a variant played in these [[fields]] only (); () every field
    level: str = ""  # strong: the level of play its strong arms stand for (LEVELS; "strong" unless a variant says)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def subject(self) -> str:
        """The strategy a sweep's knobs apply to: the treatment (paired) or the strategy (seats)."""
        return self.treatment or self.strategy

    def with_subject(self, spec: str) -> Point:
        return replace(self, **{"treatment" if self.treatment else "strategy": spec})

    def with_knobs(self, knobs: dict) -> Point:
        """The subject's (and the beginner treatment's) knobs set."""
        point = self.with_subject(with_knobs(self.subject, knobs))
        if point.beginner_treatment:
            point = replace(point, beginner_treatment=with_knobs(point.beginner_treatment, knobs))
        return point

    def concrete(self) -> Point:
        """Every strategy spec with PLAYERS_MARK replaced by the point's player count."""
        def at(spec: str) -> str:
            return at_players(spec, self.players)
        return replace(self, treatment=at(self.treatment), control=at(self.control), strategy=at(self.strategy),
                       opponents=tuple(map(at, self.opponents)), beginner_treatment=at(self.beginner_treatment),
                       beginner_control=at(self.beginner_control),
                       beginner_opponents=tuple(map(at, self.beginner_opponents)), reference=at(self.reference))

    def strategy_specs(self) -> tuple:
        return tuple(s for s in (self.treatment, self.control, self.strategy, *self.opponents,
                                 self.beginner_treatment, self.beginner_control, *self.beginner_opponents,
                                 self.reference) if s)


@dataclass(frozen=True)
class Beginner:
    """A strong spec's beginner contrast: the basic-level question the strong contrast asks again."""
    treatment: str
    control: str
    opponents: tuple
    label: str  # words for it: "the basic-level contrast (heuristic)"
    report: str  # the name of the basic-level report it re-asks ("" for none)


@dataclass(frozen=True)
class Spec:
    name: str
    path: str
    title: str
    question: str
    design: str
    players: int
    rules: dict
    games: int
    seed: int
    notes: str = ""
    treatment: str = ""
    control: str = ""
    opponents: tuple = ()
    treatment_label: str = ""
    control_label: str = ""
    streams: str = "shared"
    strategy: str = ""
    strategies: tuple = ()
    judge: int = 0  # disagreement
    rows: tuple = ()  # chart: the face-up rows it ranks ("10-10-Q")
    check_games: int = 0  # the reduced size CI checks (against reports/check/NAME.*); 0: checked at full size
    fields: tuple = ()  # the labels of the [[fields]] (each point is played in every field)
    beginner: Beginner | None = None  # strong
    reference: str = ""  # strong: the reference arm's spec ("" for none)
    advice: str = ""  # paired, strong: the treatment as advice, for the report's first sentence
    advice_against: str = ""  # ... and the control as advice
    sweep_name: str = ""  # what the sweep varies ("players", "burn_min", "variant")
    series_name: str = ""
    points: tuple = ()

    @property
    def games_in_all(self) -> bool:
        """Whether `games` and `check_games` count the report's games in all (a tournament, a disagreement
        report) rather than each setting's."""
        return self.design in ("tournament", "disagreement")

    @property
    def subject(self) -> str:
        return self.treatment or self.strategy


class SpecError(UserError):
    pass


def _err(path, fieldname: str, message: str) -> SpecError:
    return SpecError(f"{path}: field '{fieldname}': {message}")


def _require_type(path, name, value, kind, what):
    ok = isinstance(value, kind) and not (kind in (int, (int,)) and isinstance(value, bool))
    if not ok:
        raise _err(path, name, f"must be {what}, got {value!r}")
    return value


def _check_keys(path, table: dict, allowed, prefix: str = "") -> None:
    for key in table:
        if key not in allowed:
            raise _err(path, prefix + key, f"unknown field; allowed: {', '.join(allowed)}")


def _rule_values(path, fieldname: str, table) -> dict:
    if not isinstance(table, dict):
        raise _err(path, fieldname, f"must be a table of rule NAME = VALUE, got {table!r}")
    values = {}
    for name, value in table.items():
        if name == "players":
            raise _err(path, f"{fieldname}.players", "players is a top-level field (or a sweep), not a rule here")
        if name not in FIELD_NAMES:
            raise _err(path, f"{fieldname}.{name}", f"unknown rule; valid rules: {', '.join(FIELD_NAMES)}")
        try:
            values[name] = coerce_field(name, value)
        except UserError as e:
            raise _err(path, f"{fieldname}.{name}", str(e)) from None
    return values


def _make_rules(path, fieldname: str, values: dict) -> Rules:
    try:
        return Rules(**values)
    except UserError as e:
        m = re.match(r"invalid rules: (\w+)", str(e))
        if fieldname == "rules" and m and m.group(1) in values and m.group(1) != "players":
            fieldname = f"rules.{m.group(1)}"  # name the offending field
        raise _err(path, fieldname, str(e)) from None
    except TypeError as e:  # pragma: no cover - guarded by _rule_values
        raise _err(path, fieldname, str(e)) from None


def _split_spec(spec: str) -> tuple[str, list]:
    """A strategy spec as (head, [(knob, value text), ...]); head keeps a file path."""
    if ".py:" in spec:
        path, _, rest = spec.partition(".py:")
        name, _, knobs = rest.partition(":")
        head = f"{path}.py:{name}"
    else:
        head, _, knobs = spec.partition(":")
    items = []
    for item in filter(None, (s.strip() for s in knobs.split(","))):
        k, _, v = item.partition("=")
        items.append((k.strip(), v.strip()))
    return head, items


def _fmt_knob(value) -> str:
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return f"{value:g}" if isinstance(value, float) else str(value)


def with_knobs(spec: str, knobs: dict) -> str:
    """The spec with knobs set (replacing a value given in it), e.g. heuristic:burn_min=4; its constraints
    (``+up=10``, idiotsim.strategies.constraints) stay at its end."""
    from idiotsim.strategies.constraints import split_constraints
    spec, constraints = split_constraints(spec)
    head, items = _split_spec(spec)
    items = [(k, v) for k, v in items if k not in knobs] + [(k, _fmt_knob(v)) for k, v in knobs.items()]
    return head + (":" + ",".join(f"{k}={v}" for k, v in items) if items else "") + (
        "+" + constraints if constraints else "")


def row_ranks(row: str) -> tuple:
    """The rank ids of a face-up row written "10-10-Q" (three ranks, any order), ascending (a chart's rows)."""
    from idiotsim.game.cards import RANK_OF_NAME
    names = row.split("-")
    if len(names) != 3 or any(n not in RANK_OF_NAME for n in names):
        raise ValueError(f"a face-up row is three ranks like 10-10-Q, got {row!r}")
    return tuple(sorted(RANK_OF_NAME[n] for n in names))


def row_text(ranks) -> str:
    """A row as a chart writes it: its ranks in card order 2, 3, ..., 10, J, Q, K, A (10-10-Q, 2-10-A, K-K-A)."""
    from idiotsim.game.cards import RANK_NAMES
    return "-".join(RANK_NAMES[r] for r in sorted(ranks))


def at_players(spec: str, players: int) -> str:
    return spec.replace(PLAYERS_MARK, str(players))


def _check_strategy(path, fieldname: str, spec, players: int | None = None) -> str:
    """A loadable spec (PLAYERS_MARK, where allowed (`players` given), replaced by `players` to check it)."""
    from idiotsim.strategies.loading import load_strategy
    if not isinstance(spec, str) or not spec.strip():
        raise _err(path, fieldname, f"must be a strategy spec string like 'heuristic:burn_min=4', got {spec!r}")
    try:
        load_strategy(spec if players is None else at_players(spec, players))
    except UserError as e:
        raise _err(path, fieldname, str(e)) from None
    return spec.strip()


def _check_spec_list(path, fieldname: str, value, players: int | None = None) -> tuple:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        raise _err(path, fieldname, f"must be a non-empty list of strategy specs, got {value!r}")
    return tuple(_check_strategy(path, f"{fieldname}[{i}]", v, players) for i, v in enumerate(value))


def _check_games(path, fieldname: str, value) -> int:
    games = _require_type(path, fieldname, value, int, "an integer")
    if not 1 <= games <= MAX_GAMES:
        raise _err(path, fieldname, f"must be 1..{MAX_GAMES}, got {games}")
    return games


def load_spec(path) -> Spec:
    """Read and validate an experiment spec; every problem is a UserError naming file and field."""
    path = Path(path)
    data = read_toml(path, "experiment spec")
    design = data.get("design", "paired")
    if design not in DESIGNS:
        raise _err(path, "design", f"must be one of {', '.join(DESIGNS)}, got {design!r}")
    allowed = COMMON_FIELDS + DESIGN_FIELDS[design]
    _check_keys(path, data, allowed)
    for name in REQUIRED[design]:
        if name not in data:
            raise _err(path, name, "missing (required for design " + design + ")")
    question = _require_type(path, "question", data["question"], str, "a string")
    title = _require_type(path, "title", data.get("title", path.stem.replace("_", " ")), str, "a string")
    notes = _require_type(path, "notes", data.get("notes", ""), str, "a string")
    players = _require_type(path, "players", data["players"], int, "an integer")
    if not 2 <= players <= 10:
        raise _err(path, "players", f"must be 2..10, got {players}")
    games = _check_games(path, "games", data["games"])
    check_games = _check_games(path, "check_games", data["check_games"]) if "check_games" in data else 0
    seed = _require_type(path, "seed", data["seed"], int, "an integer")
    if not 0 <= seed <= 2 ** 63 - 1:
        raise _err(path, "seed", f"must be 0..2**63-1, got {seed}")
    rule_values = _rule_values(path, "rules", data.get("rules", {}))
    base_rules = _make_rules(path, "rules", {**rule_values, "players": players})
    common = dict(name=path.stem, path=str(path), title=title, question=question, design=design, players=players,
                  rules=rule_values, games=games, seed=seed, notes=notes, check_games=check_games)

    if design == "tournament":
        value = data["strategies"]
        if value == "all":
            from idiotsim.strategies.loading import engine_speed_names
            specs = tuple(engine_speed_names())
        else:
            specs = _check_spec_list(path, "strategies", value)
        if len(specs) < 2:
            raise _err(path, "strategies", "a leaderboard needs at least 2 strategies")
        return Spec(**common, strategies=specs, points=(Point("", "", "", base_rules),))

    if design == "disagreement":
        strategy = _check_strategy(path, "strategy", data["strategy"])
        from idiotsim.strategies.loading import load_strategy
        family = load_strategy(strategy).strategy.name
        if family != "search":
            raise _err(path, "strategy", f"must be a spec of the search family (e.g. 'search:rollouts=32,swap=1'), "
                                         f"got {strategy!r} ({family})")
        judge = _require_type(path, "judge", data["judge"], int, "an integer")
        if not 2 <= judge <= MAX_JUDGE:
            raise _err(path, "judge", f"must be 2..{MAX_JUDGE}, got {judge}")
        return Spec(**common, strategy=strategy, judge=judge, points=(Point("", "", "", base_rules, strategy=strategy),))

    if design == "chart":
        strategy = _check_strategy(path, "strategy", data["strategy"], players)
        rows = data["rows"]
        if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
            raise _err(path, "rows", f"must be a non-empty list of face-up rows like '10-10-Q', got {rows!r}")
        texts = []
        for i, row in enumerate(rows):
            try:
                texts.append(row_text(row_ranks(row.strip())))
            except ValueError as e:
                raise _err(path, f"rows[{i}]", str(e)) from None
        if len(set(texts)) != len(texts):
            raise _err(path, "rows", "lists a row twice")
        return Spec(**common, strategy=strategy, rows=tuple(texts),
                    points=(Point("", "", "", base_rules, strategy=strategy),))

    if design in ("paired", "strong"):
        treatment = _check_strategy(path, "treatment", data["treatment"], players)
        control = _check_strategy(path, "control", data["control"], players)
        opponents = _check_spec_list(path, "opponents", data["opponents"], players)
        streams = data.get("streams", "shared")
        if streams not in STREAMS:
            raise _err(path, "streams", f"must be one of {', '.join(STREAMS)}, got {streams!r}")
        t_label = _require_type(path, "treatment_label", data.get("treatment_label", treatment), str, "a string")
        c_label = _require_type(path, "control_label", data.get("control_label", control), str, "a string")
        common.update(treatment=treatment, control=control, opponents=opponents, streams=streams,
                      treatment_label=t_label, control_label=c_label,
                      advice=_require_type(path, "advice", data.get("advice", ""), str, "a string"),
                      advice_against=_require_type(path, "advice_against", data.get("advice_against", ""), str,
                                                   "a string"))
        base = Point("", "", "", base_rules, treatment=treatment, control=control, opponents=opponents)
        if design == "strong":
            beginner = _beginner(path, data["beginner"], players)
            reference = _check_strategy(path, "reference", data["reference"], players) if "reference" in data else ""
            common.update(beginner=beginner, reference=reference)
            base = replace(base, beginner_treatment=beginner.treatment, beginner_control=beginner.control,
                           beginner_opponents=beginner.opponents, reference=reference)
    else:
        strategy = _check_strategy(path, "strategy", data["strategy"])
        common.update(strategy=strategy)
        base = Point("", "", "", base_rules, strategy=strategy)

    sweep_name, series_name, points = "", "", (base,)
    if "sweep" in data:
        sweep_name, series_name, points = _sweep_points(path, design, data["sweep"], base, rule_values)
    if "fields" in data:
        if series_name:
            raise _err(path, "fields", "the fields are the plot's series: not with [sweep.series]")
        fields = _fields(path, data["fields"], players)
        if sweep_name == "variant" and any(p.opponents != base.opponents for p in points):
            raise _err(path, "fields", "each field gives the opponents: no sweep.variants opponents with [[fields]]")
        labels = [label for label, _, _, _ in fields]
        for i, p in enumerate(points):
            unknown = [f for f in p.only_fields if f not in labels]
            if unknown:
                raise _err(path, f"sweep.variants[{i}].fields", f"no [[fields]] is labelled {unknown[0]!r}; the "
                           f"fields: {', '.join(labels)}")
        points = [replace(p, label=f"{p.label}, {label}" if p.label else label, x=p.x if sweep_name else label,
                          series=label if sweep_name else "", opponents=opponents,
                          games=_field_games(p.games, games, field_games, share), field=label)
                  for label, opponents, field_games, share in fields for p in points
                  if not p.only_fields or label in p.only_fields]
        common.update(fields=tuple(labels))
    elif any(p.only_fields for p in points):
        raise _err(path, "sweep.variants", "a variant's fields name [[fields]]: the spec has none")
    if design == "strong":
        points = [p if p.level else replace(p, level="strong") for p in points]
    points = [_concrete_point(path, p, "sweep" if "sweep" in data else "opponents") for p in points]
    return Spec(**common, sweep_name=sweep_name, series_name=series_name, points=tuple(points))


def _concrete_point(path, p: Point, fieldname: str) -> Point:
    """The point with its strategy specs at its player count, each loadable."""
    from idiotsim.strategies.loading import load_strategy
    p = p.concrete()
    for s in p.strategy_specs():
        try:
            load_strategy(s)
        except UserError as e:
            raise _err(path, fieldname, f"at {p.label or 'the only setting'}: {e}") from None
    _check_point(path, p, fieldname)
    return p


def _field_games(own: int, spec_games: int, field_games: int, share: float) -> int:
    """A setting's games in a field: the field's `games` (else the spec's), at most the setting's `own` (a
    variant's `games`; 0: none), times the field's `share`."""
    games = field_games or spec_games
    if own:
        games = min(games, own) if field_games else own
    return max(1, round(games * share))


def _fields(path, raw, players: int) -> list[tuple]:
    """(label, opponents, games, share) of each [[fields]] table (games 0: no cap; share 1: all)."""
    if not isinstance(raw, list) or not raw or not all(isinstance(f, dict) for f in raw):
        raise _err(path, "fields", "must be a non-empty array of tables ([[fields]])")
    fields, labels = [], set()
    for i, table in enumerate(raw):
        where = f"fields[{i}]"
        _check_keys(path, table, FIELD_FIELDS, where + ".")
        for name in ("label", "opponents"):
            if name not in table:
                raise _err(path, f"{where}.{name}", "missing")
        label = _require_type(path, f"{where}.label", table["label"], str, "a string")
        if label in labels:
            raise _err(path, f"{where}.label", f"label {label!r} repeats")
        labels.add(label)
        opponents = _check_spec_list(path, f"{where}.opponents", table["opponents"], players)
        games = _check_games(path, f"{where}.games", table["games"]) if "games" in table else 0
        share = table.get("share", 1.0)
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share <= 1:
            raise _err(path, f"{where}.share", f"must be a number in (0, 1], got {share!r}")
        fields.append((label, opponents, games, float(share)))
    return fields


def _beginner(path, table, players: int) -> Beginner:
    if not isinstance(table, dict):
        raise _err(path, "beginner", f"must be a table ([beginner]), got {table!r}")
    _check_keys(path, table, BEGINNER_FIELDS, "beginner.")
    for name in ("treatment", "control"):
        if name not in table:
            raise _err(path, f"beginner.{name}", "missing")
    opponents = _check_spec_list(path, "beginner.opponents", table.get("opponents", ["basic"]), players)
    report = _require_type(path, "beginner.report", table.get("report", ""), str, "a string")
    if report and not re.fullmatch(r"[A-Za-z0-9_-]+", report):
        raise _err(path, "beginner.report", f"must be a report name (the stem of its spec), got {report!r}")
    return Beginner(treatment=_check_strategy(path, "beginner.treatment", table["treatment"], players),
                    control=_check_strategy(path, "beginner.control", table["control"], players),
                    opponents=opponents,
                    label=_require_type(path, "beginner.label", table.get("label", "the beginner contrast"), str,
                                        "a string"),
                    report=report)


def _check_point(path, p: Point, fieldname: str) -> None:
    distinct = set(p.strategy_specs())
    if len(distinct) > 30:
        raise _err(path, fieldname, f"at most 30 distinct strategies per table, got {len(distinct)}")


def _axis(path, fieldname: str, table: dict, rule_values: dict, allowed) -> tuple:
    """(kind, name, values) of a sweep or series axis: kind 'knob' or 'rule'."""
    _check_keys(path, table, allowed, fieldname + ".")
    kinds = [k for k in ("knob", "rule") if k in table]
    if len(kinds) != 1:
        raise _err(path, fieldname, "give exactly one of knob = NAME, rule = NAME"
                   + (" or variants" if "variants" in allowed else ""))
    kind = kinds[0]
    name = table[kind]
    if not isinstance(name, str):
        raise _err(path, f"{fieldname}.{kind}", f"must be a name, got {name!r}")
    if kind == "rule" and name not in FIELD_NAMES:
        raise _err(path, f"{fieldname}.rule", f"unknown rule {name!r}; valid rules: {', '.join(FIELD_NAMES)}")
    if kind == "rule" and name in rule_values:
        raise _err(path, f"{fieldname}.rule", f"{name} is also set in [rules]; set it in one place")
    if "values" not in table:
        raise _err(path, f"{fieldname}.values", "missing")
    values = table["values"]
    if not isinstance(values, list) or not values:
        raise _err(path, f"{fieldname}.values", f"must be a non-empty list, got {values!r}")
    if len(set(map(repr, values))) != len(values):
        raise _err(path, f"{fieldname}.values", "values repeat")
    out = []
    for i, v in enumerate(values):
        if kind == "rule":
            try:
                v = coerce_field(name, v)
            except UserError as e:
                raise _err(path, f"{fieldname}.values[{i}]", str(e)) from None
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            raise _err(path, f"{fieldname}.values[{i}]", f"a knob value must be a number, got {v!r}")
        out.append(v)
    return kind, name, out


def _make_point(path, fieldname: str, base: Point, rule_values: dict, overrides: dict, knobs: dict,
                label: str, x, series: str) -> Point:
    """A sweep point: the base point with rule overrides and knobs of the subject strategy set."""
    from idiotsim.strategies.loading import load_strategy
    values = {**rule_values, **overrides}
    players = values.pop("players", base.players)
    rules = _make_rules(path, fieldname, {**values, "players": players})
    point = replace(base.with_knobs(knobs) if knobs else base, label=label, x=x, series=series, rules=rules)
    if knobs:
        try:
            for s in (point.subject, point.beginner_treatment):
                if s:
                    load_strategy(at_players(s, players))
        except UserError as e:
            raise _err(path, fieldname, str(e)) from None
    return point


def value_text(value) -> str:
    """A rule or knob value as a spec writes it: `true`, `none`, `7`."""
    if isinstance(value, bool):
        return str(value).lower()
    if value is None:
        return "none"
    return str(value)


def _label(name: str, value) -> str:
    return f"{name}={value_text(value)}"


def _sweep_points(path, design: str, sweep, base: Point, rule_values: dict):
    if not isinstance(sweep, dict):
        raise _err(path, "sweep", f"must be a table, got {sweep!r}")
    _check_keys(path, sweep, SWEEP_FIELDS, "sweep.")
    if "variants" in sweep:
        for other in ("knob", "rule", "values", "series"):
            if other in sweep:
                raise _err(path, f"sweep.{other}", "not allowed with sweep.variants")
        return _variant_points(path, design, sweep["variants"], base, rule_values)
    kind, name, values = _axis(path, "sweep", {k: v for k, v in sweep.items() if k != "series"}, rule_values,
                               SWEEP_FIELDS)
    series = [(None, None, None)]
    s_kind = s_name = None
    if "series" in sweep:
        if not isinstance(sweep["series"], dict):
            raise _err(path, "sweep.series", f"must be a table, got {sweep['series']!r}")
        s_kind, s_name, s_values = _axis(path, "sweep.series", sweep["series"], rule_values, SERIES_FIELDS)
        if (s_kind, s_name) == (kind, name):
            raise _err(path, "sweep.series", f"varies {name} like the sweep itself")
        series = [(s_kind, s_name, v) for v in s_values]
    # each axis value alone first, so that an error names it
    for ax_kind, ax_name, ax_values, where in ((kind, name, values, "sweep.values"),
                                               (s_kind, s_name, [v for *_, v in series], "sweep.series.values")):
        if ax_kind is None:
            continue
        if ax_kind == "knob":
            from idiotsim.strategies.loading import load_strategy
            subject = base.subject
            family = load_strategy(at_players(subject, base.players)).strategy
            knobs = [k.name for k in family.knobs]
            if ax_name not in knobs:
                raise _err(path, where.replace("values", "knob"),
                           f"strategy {family.name} (`{subject}`) has no knob {ax_name!r}; its knobs: "
                           f"{', '.join(knobs) or 'none'}")
        for i, v in enumerate(ax_values):
            one = {ax_name: v}
            _make_point(path, f"{where}[{i}]", base, rule_values, one if ax_kind == "rule" else {},
                        one if ax_kind == "knob" else {}, "", v, "")
    points = []
    for sk, sn, sv in series:
        s_label = _label(sn, sv) if sk is not None else ""
        for v in values:
            overrides, knobs = {}, {}
            for k_, n_, v_ in ((sk, sn, sv), (kind, name, v)):
                if k_ == "rule":
                    overrides[n_] = v_
                elif k_ == "knob":
                    knobs[n_] = v_
            label = _label(name, v) + (f", {s_label}" if s_label else "")
            points.append(_make_point(path, "sweep", base, rule_values, overrides, knobs, label, v, s_label))
    return name, s_name or "", points


def _variant_points(path, design: str, variants, base: Point, rule_values: dict):
    from idiotsim.strategies.loading import load_strategy
    if not isinstance(variants, list) or not variants or not all(isinstance(v, dict) for v in variants):
        raise _err(path, "sweep.variants", "must be a non-empty array of tables ([[sweep.variants]])")
    points, labels = [], set()
    allowed = VARIANT_FIELDS[design]
    for i, v in enumerate(variants):
        where = f"sweep.variants[{i}]"
        _check_keys(path, v, allowed, where + ".")
        if "label" not in v:
            raise _err(path, f"{where}.label", "missing")
        label = _require_type(path, f"{where}.label", v["label"], str, "a string")
        if label in labels:
            raise _err(path, f"{where}.label", f"label {label!r} repeats")
        labels.add(label)
        values = {}
        if "rules" in v:
            raw = v["rules"]
            if isinstance(raw, dict) and "players" in raw:
                players = _require_type(path, f"{where}.rules.players", raw["players"], int, "an integer")
                raw = {k: x for k, x in raw.items() if k != "players"}
            else:
                players = base.players
            values = _rule_values(path, f"{where}.rules", raw)
        else:
            players = base.players
        rules = _make_rules(path, f"{where}.rules", {**rule_values, **values, "players": players})
        p = replace(base, label=label, x=label, series="", rules=rules)
        for arm in ("treatment", "control"):
            if arm in v:
                p = replace(p, **{arm: _check_strategy(path, f"{where}.{arm}", v[arm], players)})
        if "games" in v:
            p = replace(p, games=_check_games(path, f"{where}.games", v["games"]))
        if "level" in v:
            if v["level"] not in LEVELS:
                raise _err(path, f"{where}.level", f"must be one of {', '.join(LEVELS)}, got {v['level']!r}")
            p = replace(p, level=v["level"])
        if "fields" in v:
            only = v["fields"]
            if not isinstance(only, list) or not only or not all(isinstance(f, str) for f in only):
                raise _err(path, f"{where}.fields", f"must be a non-empty list of [[fields]] labels, got {only!r}")
            p = replace(p, only_fields=tuple(only))
        if "knobs" in v:
            knobs = v["knobs"]
            if not isinstance(knobs, dict):
                raise _err(path, f"{where}.knobs", f"must be a table of knob = value, got {knobs!r}")
            for k, x in knobs.items():
                if isinstance(x, bool) or not isinstance(x, (int, float)):
                    raise _err(path, f"{where}.knobs.{k}", f"must be a number, got {x!r}")
            p = p.with_knobs(knobs)
            try:
                for s in (p.treatment, p.beginner_treatment):
                    if s:
                        load_strategy(at_players(s, players))
            except UserError as e:
                raise _err(path, f"{where}.knobs", str(e)) from None
        if "opponents" in v:
            opp = _check_spec_list(path, f"{where}.opponents", v["opponents"], players)
            p = replace(p, opponents=opp)
        if "strategy" in v:
            p = replace(p, strategy=_check_strategy(path, f"{where}.strategy", v["strategy"]))
        points.append(p)
    return "variant", "", points


def spec_paths(folder) -> list[Path]:
    return sorted(Path(folder).glob("*.toml"))

