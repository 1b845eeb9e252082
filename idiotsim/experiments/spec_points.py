"""A spec's settings: the ``Point``s its sweep (a knob, a rule, a series) or its variants expand into."""
from __future__ import annotations

from dataclasses import dataclass, replace

from idiotsim.errors import UserError
from idiotsim.experiments.spec_checks import (check_keys, check_spec_list, check_strategy, field_error,
                                              make_rules, read_games, read_rule_values, require_type)
from idiotsim.experiments.strategy_text import at_players, value_text, with_knobs
from idiotsim.game.rules import FIELD_NAMES, Rules, coerce_field

SWEEP_FIELDS = ("knob", "rule", "values", "variants", "series")
SERIES_FIELDS = ("knob", "rule", "values")
DEAL_VARIANT_FIELDS = ("label", "rules", "knobs", "opponents", "treatment", "control", "games", "fields", "level")
LEVELS = ("beginner", "fast", "strong", "search")  # a strong setting's level of play (the tips table's columns)
VARIANT_FIELDS = {"paired": DEAL_VARIANT_FIELDS, "ladder": DEAL_VARIANT_FIELDS, "strong": DEAL_VARIANT_FIELDS, "experts": DEAL_VARIANT_FIELDS,
                  "seats": ("label", "rules", "strategy")}


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


def _axis(path, fieldname: str, table: dict, rule_values: dict, allowed) -> tuple:
    """(kind, name, values) of a sweep or series axis: kind 'knob' or 'rule'."""
    check_keys(path, table, allowed, fieldname + ".")
    kinds = [k for k in ("knob", "rule") if k in table]
    if len(kinds) != 1:
        raise field_error(path, fieldname, "give exactly one of knob = NAME, rule = NAME"
                   + (" or variants" if "variants" in allowed else ""))
    kind = kinds[0]
    name = table[kind]
    if not isinstance(name, str):
        raise field_error(path, f"{fieldname}.{kind}", f"must be a name, got {name!r}")
    if kind == "rule" and name not in FIELD_NAMES:
        raise field_error(path, f"{fieldname}.rule", f"unknown rule {name!r}; valid rules: {', '.join(FIELD_NAMES)}")
    if kind == "rule" and name in rule_values:
        raise field_error(path, f"{fieldname}.rule", f"{name} is also set in [rules]; set it in one place")
    if "values" not in table:
        raise field_error(path, f"{fieldname}.values", "missing")
    values = table["values"]
    if not isinstance(values, list) or not values:
        raise field_error(path, f"{fieldname}.values", f"must be a non-empty list, got {values!r}")
    if len(set(map(repr, values))) != len(values):
        raise field_error(path, f"{fieldname}.values", "values repeat")
    out = []
    for i, v in enumerate(values):
        if kind == "rule":
            try:
                v = coerce_field(name, v)
            except UserError as e:
                raise field_error(path, f"{fieldname}.values[{i}]", str(e)) from None
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            raise field_error(path, f"{fieldname}.values[{i}]", f"a knob value must be a number, got {v!r}")
        out.append(v)
    return kind, name, out


def _make_point(path, fieldname: str, base: Point, rule_values: dict, overrides: dict, knobs: dict,
                label: str, x, series: str) -> Point:
    """A sweep point: the base point with rule overrides and knobs of the subject strategy set."""
    from idiotsim.strategies.loading import load_strategy
    values = {**rule_values, **overrides}
    players = values.pop("players", base.players)
    rules = make_rules(path, fieldname, {**values, "players": players})
    point = replace(base.with_knobs(knobs) if knobs else base, label=label, x=x, series=series, rules=rules)
    if knobs:
        try:
            for s in (point.subject, point.beginner_treatment):
                if s:
                    load_strategy(at_players(s, players))
        except UserError as e:
            raise field_error(path, fieldname, str(e)) from None
    return point


def _label(name: str, value) -> str:
    return f"{name}={value_text(value)}"


def sweep_points(path, design: str, sweep, base: Point, rule_values: dict):
    if not isinstance(sweep, dict):
        raise field_error(path, "sweep", f"must be a table, got {sweep!r}")
    check_keys(path, sweep, SWEEP_FIELDS, "sweep.")
    if "variants" in sweep:
        for other in ("knob", "rule", "values", "series"):
            if other in sweep:
                raise field_error(path, f"sweep.{other}", "not allowed with sweep.variants")
        return _variant_points(path, design, sweep["variants"], base, rule_values)
    kind, name, values = _axis(path, "sweep", {k: v for k, v in sweep.items() if k != "series"}, rule_values,
                               SWEEP_FIELDS)
    series = [(None, None, None)]
    s_kind = s_name = None
    if "series" in sweep:
        if not isinstance(sweep["series"], dict):
            raise field_error(path, "sweep.series", f"must be a table, got {sweep['series']!r}")
        s_kind, s_name, s_values = _axis(path, "sweep.series", sweep["series"], rule_values, SERIES_FIELDS)
        if (s_kind, s_name) == (kind, name):
            raise field_error(path, "sweep.series", f"varies {name} like the sweep itself")
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
                raise field_error(path, where.replace("values", "knob"),
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
        raise field_error(path, "sweep.variants", "must be a non-empty array of tables ([[sweep.variants]])")
    points, labels = [], set()
    allowed = VARIANT_FIELDS[design]
    for i, v in enumerate(variants):
        where = f"sweep.variants[{i}]"
        check_keys(path, v, allowed, where + ".")
        if "label" not in v:
            raise field_error(path, f"{where}.label", "missing")
        label = require_type(path, f"{where}.label", v["label"], str, "a string")
        if label in labels:
            raise field_error(path, f"{where}.label", f"label {label!r} repeats")
        labels.add(label)
        values = {}
        if "rules" in v:
            raw = v["rules"]
            if isinstance(raw, dict) and "players" in raw:
                players = require_type(path, f"{where}.rules.players", raw["players"], int, "an integer")
                raw = {k: x for k, x in raw.items() if k != "players"}
            else:
                players = base.players
            values = read_rule_values(path, f"{where}.rules", raw)
        else:
            players = base.players
        rules = make_rules(path, f"{where}.rules", {**rule_values, **values, "players": players})
        p = replace(base, label=label, x=label, series="", rules=rules)
        for arm in ("treatment", "control"):
            if arm in v:
                p = replace(p, **{arm: check_strategy(path, f"{where}.{arm}", v[arm], players)})
        if "games" in v:
            p = replace(p, games=read_games(path, f"{where}.games", v["games"]))
        if "level" in v:
            if v["level"] not in LEVELS:
                raise field_error(path, f"{where}.level", f"must be one of {', '.join(LEVELS)}, got {v['level']!r}")
            p = replace(p, level=v["level"])
        if "fields" in v:
            only = v["fields"]
            if not isinstance(only, list) or not only or not all(isinstance(f, str) for f in only):
                raise field_error(path, f"{where}.fields",
                                  f"must be a non-empty list of [[fields]] labels, got {only!r}")
            p = replace(p, only_fields=tuple(only))
        if "knobs" in v:
            knobs = v["knobs"]
            if not isinstance(knobs, dict):
                raise field_error(path, f"{where}.knobs", f"must be a table of knob = value, got {knobs!r}")
            for k, x in knobs.items():
                if isinstance(x, bool) or not isinstance(x, (int, float)):
                    raise field_error(path, f"{where}.knobs.{k}", f"must be a number, got {x!r}")
            p = p.with_knobs(knobs)
            try:
                for s in (p.treatment, p.beginner_treatment):
                    if s:
                        load_strategy(at_players(s, players))
            except UserError as e:
                raise field_error(path, f"{where}.knobs", str(e)) from None
        if "opponents" in v:
            opp = check_spec_list(path, f"{where}.opponents", v["opponents"], players)
            p = replace(p, opponents=opp)
        if "strategy" in v:
            p = replace(p, strategy=check_strategy(path, f"{where}.strategy", v["strategy"]))
        points.append(p)
    return "variant", "", points
