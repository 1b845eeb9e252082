"""Experiment specs: the TOML files in ``reports/``, read and checked into a ``Spec`` of ``Point``s.

Every problem is a ``SpecError`` (a ``UserError``, ``spec_checks``, where each field is checked) naming the
file and the field. A sweep expands into one ``Point`` per setting (rules, knobs and seating of that
setting; ``spec_points``); the field reference is ``SPEC_HELP`` in ``idiotsim.experiments.index``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from idiotsim.errors import UserError
from idiotsim.experiments.spec_checks import (check_keys, check_spec_list, check_strategy, field_error,
                                              make_rules, read_games, read_rule_values, require_type)
from idiotsim.experiments.spec_points import Point, sweep_points
from idiotsim.experiments.strategy_text import row_ranks, row_text
from idiotsim.game.rules import read_toml

DESIGNS = ("paired", "ladder", "strong", "experts", "seats", "tournament", "disagreement", "chart")
COMMON_FIELDS = ("title", "question", "design", "players", "rules", "games", "seed", "notes", "check_games")
PAIRED_FIELDS = ("treatment", "control", "opponents", "treatment_label", "control_label", "streams", "sweep", "fields",
                 "advice", "advice_against")
DESIGN_FIELDS = {
    "paired": PAIRED_FIELDS,
    "ladder": PAIRED_FIELDS,
    "strong": PAIRED_FIELDS + ("beginner", "reference"),
    "experts": PAIRED_FIELDS + ("beginner", "reference"),
    "seats": ("strategy", "sweep"),
    "tournament": ("strategies",),
    "disagreement": ("strategy", "judge"),
    "chart": ("strategy", "rows"),
}
REQUIRED = {
    "paired": ("question", "treatment", "control", "opponents", "players", "games", "seed"),
    "ladder": ("question", "treatment", "control", "opponents", "players", "games", "seed"),
    "strong": ("question", "treatment", "control", "opponents", "players", "games", "seed", "beginner"),
    "experts": ("question", "treatment", "control", "opponents", "players", "games", "seed", "beginner"),
    "seats": ("question", "strategy", "players", "games", "seed"),
    "tournament": ("question", "strategies", "players", "games", "seed"),
    "disagreement": ("question", "strategy", "judge", "players", "games", "seed"),
    "chart": ("question", "strategy", "rows", "players", "games", "seed"),
}
FIELD_FIELDS = ("label", "opponents", "games", "share")  # one [[fields]] table
BEGINNER_FIELDS = ("treatment", "control", "opponents", "label", "report")
STREAMS = ("shared", "independent")
MAX_JUDGE = 100_000  # disagreement: sampled states judging one disagreement


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


def load_spec(path) -> Spec:
    """Read and validate an experiment spec; every problem is a UserError naming file and field."""
    path = Path(path)
    data = read_toml(path, "experiment spec")
    design = data.get("design", "paired")
    if design not in DESIGNS:
        raise field_error(path, "design", f"must be one of {', '.join(DESIGNS)}, got {design!r}")
    allowed = COMMON_FIELDS + DESIGN_FIELDS[design]
    check_keys(path, data, allowed)
    for name in REQUIRED[design]:
        if name not in data:
            raise field_error(path, name, "missing (required for design " + design + ")")
    question = require_type(path, "question", data["question"], str, "a string")
    title = require_type(path, "title", data.get("title", path.stem.replace("_", " ")), str, "a string")
    notes = require_type(path, "notes", data.get("notes", ""), str, "a string")
    players = require_type(path, "players", data["players"], int, "an integer")
    if not 2 <= players <= 10:
        raise field_error(path, "players", f"must be 2..10, got {players}")
    games = read_games(path, "games", data["games"])
    check_games = read_games(path, "check_games", data["check_games"]) if "check_games" in data else 0
    seed = require_type(path, "seed", data["seed"], int, "an integer")
    if not 0 <= seed <= 2 ** 63 - 1:
        raise field_error(path, "seed", f"must be 0..2**63-1, got {seed}")
    rule_values = read_rule_values(path, "rules", data.get("rules", {}))
    base_rules = make_rules(path, "rules", {**rule_values, "players": players})
    common = dict(name=path.stem, path=str(path), title=title, question=question, design=design, players=players,
                  rules=rule_values, games=games, seed=seed, notes=notes, check_games=check_games)

    if design == "tournament":
        value = data["strategies"]
        if value == "all":
            from idiotsim.strategies.loading import engine_speed_names
            specs = tuple(engine_speed_names())
        else:
            specs = check_spec_list(path, "strategies", value)
        if len(specs) < 2:
            raise field_error(path, "strategies", "a leaderboard needs at least 2 strategies")
        return Spec(**common, strategies=specs, points=(Point("", "", "", base_rules),))

    if design == "disagreement":
        strategy = check_strategy(path, "strategy", data["strategy"])
        from idiotsim.strategies.loading import load_strategy
        family = load_strategy(strategy).strategy.name
        if family != "search":
            raise field_error(path, "strategy", f"must be a spec of the search family (e.g. "
                                                f"'search:rollouts=32,swap=1'), got {strategy!r} ({family})")
        judge = require_type(path, "judge", data["judge"], int, "an integer")
        if not 2 <= judge <= MAX_JUDGE:
            raise field_error(path, "judge", f"must be 2..{MAX_JUDGE}, got {judge}")
        return Spec(**common, strategy=strategy, judge=judge, points=(Point("", "", "", base_rules, strategy=strategy),))

    if design == "chart":
        strategy = check_strategy(path, "strategy", data["strategy"], players)
        rows = data["rows"]
        if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
            raise field_error(path, "rows", f"must be a non-empty list of face-up rows like '10-10-Q', got {rows!r}")
        texts = []
        for i, row in enumerate(rows):
            try:
                texts.append(row_text(row_ranks(row.strip())))
            except ValueError as e:
                raise field_error(path, f"rows[{i}]", str(e)) from None
        if len(set(texts)) != len(texts):
            raise field_error(path, "rows", "lists a row twice")
        return Spec(**common, strategy=strategy, rows=tuple(texts),
                    points=(Point("", "", "", base_rules, strategy=strategy),))

    if design in ("paired", "ladder", "strong", "experts"):
        treatment = check_strategy(path, "treatment", data["treatment"], players)
        control = check_strategy(path, "control", data["control"], players)
        opponents = check_spec_list(path, "opponents", data["opponents"], players)
        streams = data.get("streams", "shared")
        if streams not in STREAMS:
            raise field_error(path, "streams", f"must be one of {', '.join(STREAMS)}, got {streams!r}")
        t_label = require_type(path, "treatment_label", data.get("treatment_label", treatment), str, "a string")
        c_label = require_type(path, "control_label", data.get("control_label", control), str, "a string")
        common.update(treatment=treatment, control=control, opponents=opponents, streams=streams,
                      treatment_label=t_label, control_label=c_label,
                      advice=require_type(path, "advice", data.get("advice", ""), str, "a string"),
                      advice_against=require_type(path, "advice_against", data.get("advice_against", ""), str,
                                                   "a string"))
        base = Point("", "", "", base_rules, treatment=treatment, control=control, opponents=opponents)
        if design in ("strong", "experts"):
            beginner = _beginner(path, data["beginner"], players)
            reference = check_strategy(path, "reference", data["reference"], players) if "reference" in data else ""
            common.update(beginner=beginner, reference=reference)
            base = replace(base, beginner_treatment=beginner.treatment, beginner_control=beginner.control,
                           beginner_opponents=beginner.opponents, reference=reference)
    else:
        strategy = check_strategy(path, "strategy", data["strategy"])
        common.update(strategy=strategy)
        base = Point("", "", "", base_rules, strategy=strategy)

    sweep_name, series_name, points = "", "", (base,)
    if "sweep" in data:
        sweep_name, series_name, points = sweep_points(path, design, data["sweep"], base, rule_values)
    if "fields" in data:
        if series_name:
            raise field_error(path, "fields", "the fields are the plot's series: not with [sweep.series]")
        fields = _fields(path, data["fields"], players)
        if sweep_name == "variant" and any(p.opponents != base.opponents for p in points):
            raise field_error(path, "fields",
                              "each field gives the opponents: no sweep.variants opponents with [[fields]]")
        labels = [label for label, _, _, _ in fields]
        for i, p in enumerate(points):
            unknown = [f for f in p.only_fields if f not in labels]
            if unknown:
                raise field_error(path, f"sweep.variants[{i}].fields", f"no [[fields]] is labelled {unknown[0]!r}; the "
                           f"fields: {', '.join(labels)}")
        points = [replace(p, label=f"{p.label}, {label}" if p.label else label, x=p.x if sweep_name else label,
                          series=label if sweep_name else "", opponents=opponents,
                          games=_field_games(p.games, games, field_games, share), field=label)
                  for label, opponents, field_games, share in fields for p in points
                  if not p.only_fields or label in p.only_fields]
        common.update(fields=tuple(labels))
    elif any(p.only_fields for p in points):
        raise field_error(path, "sweep.variants", "a variant's fields name [[fields]]: the spec has none")
    if design in ("strong", "experts"):
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
            raise field_error(path, fieldname, f"at {p.label or 'the only setting'}: {e}") from None
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
        raise field_error(path, "fields", "must be a non-empty array of tables ([[fields]])")
    fields, labels = [], set()
    for i, table in enumerate(raw):
        where = f"fields[{i}]"
        check_keys(path, table, FIELD_FIELDS, where + ".")
        for name in ("label", "opponents"):
            if name not in table:
                raise field_error(path, f"{where}.{name}", "missing")
        label = require_type(path, f"{where}.label", table["label"], str, "a string")
        if label in labels:
            raise field_error(path, f"{where}.label", f"label {label!r} repeats")
        labels.add(label)
        opponents = check_spec_list(path, f"{where}.opponents", table["opponents"], players)
        games = read_games(path, f"{where}.games", table["games"]) if "games" in table else 0
        share = table.get("share", 1.0)
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share <= 1:
            raise field_error(path, f"{where}.share", f"must be a number in (0, 1], got {share!r}")
        fields.append((label, opponents, games, float(share)))
    return fields


def _beginner(path, table, players: int) -> Beginner:
    if not isinstance(table, dict):
        raise field_error(path, "beginner", f"must be a table ([beginner]), got {table!r}")
    check_keys(path, table, BEGINNER_FIELDS, "beginner.")
    for name in ("treatment", "control"):
        if name not in table:
            raise field_error(path, f"beginner.{name}", "missing")
    opponents = check_spec_list(path, "beginner.opponents", table.get("opponents", ["basic"]), players)
    report = require_type(path, "beginner.report", table.get("report", ""), str, "a string")
    if report and not re.fullmatch(r"[A-Za-z0-9_-]+", report):
        raise field_error(path, "beginner.report", f"must be a report name (the stem of its spec), got {report!r}")
    return Beginner(treatment=check_strategy(path, "beginner.treatment", table["treatment"], players),
                    control=check_strategy(path, "beginner.control", table["control"], players),
                    opponents=opponents,
                    label=require_type(path, "beginner.label", table.get("label", "the beginner contrast"), str,
                                        "a string"),
                    report=report)


def _check_point(path, p: Point, fieldname: str) -> None:
    distinct = set(p.strategy_specs())
    if len(distinct) > 30:
        raise field_error(path, fieldname, f"at most 30 distinct strategies per table, got {len(distinct)}")


def spec_paths(folder) -> list[Path]:
    return sorted(Path(folder).glob("*.toml"))

