"""Questions answered with evidence: paired experiments, their analysis and their reports.

An experiment is a TOML spec in ``reports/`` (see ``reports/README.md`` for the
fields). ``idiotsim report reports/NAME.toml`` plays it and writes
``NAME.md`` (question, setup, numbers, the answer in one sentence, the size and
why it is enough), ``NAME.csv`` (the numbers) and ``NAME.png`` (the plot).

Designs
-------
``paired`` (the default): treatment against control. For each deal d and each
focal seat s (all n seats, so seat advantage cancels) the game is played twice:
the treatment in seat s, then the control in seat s, the opponents filling the
other seats in the same order (``opponents[j]`` sits j+1 seats left of the focal
seat, cycling through the list). Both games of a pair deal from the (seed, d)
shuffle and use game id ``d * n + s``, so every strategy's random draws come
from the same (seed, game, seat) streams (``streams = "independent"`` gives the
control game its own streams; used for A/A checks). The outcome is the focal
player's place; the unit of analysis is the deal (its n seats and 2 arms are
one cluster): D_d = mean over s of place(treatment) - place(control).

``seats``: one strategy in every seat; each deal is played n times with the
dealt cards rotated (the blind, face-up and hand cards dealt to seat h go to
seat h + r), so every hand is played from every seat, the talon unchanged. The
effect is the place of a hand sitting first (seat 0, who starts by R7) minus
the same hand sitting last (seat n-1), paired by deal. Also per seat win rates
and mean places, game length and stall rate; with a ``variants`` sweep, game
length against the first variant on the same deals (paired when the deck size
and player count match, else unpaired).

``tournament``: ``idiotsim.tournament.run_tournament`` and
``idiotsim.summary.summarize`` into ``<out>/<NAME>/``; the report shows the
ranking.

Statistics
----------
Everything is accumulated as exact integer sums per deal (sum, sum of squares),
so the numbers do not depend on chunking and are byte-identical for the same
spec, size and seed. Mean differences get a t interval over deals (clusters)
and a two-sided normal-approximation p-value. The variance reduction is the
variance of the unpaired difference (treatment and control games on
independent deals with independent random draws: per-game place variances
added, over n games per arm) divided by the variance of the paired difference.

Sequential mode (``precision``): looks after G1, 2 G1, 4 G1, ... games per
point (capped by the size); look k uses a (1 - 0.05 / 2^k) interval (alpha
spending: the looks together spend at most 0.05), and play stops at the first
look where every point's half-width of the mean place difference is at most
the target. The report says where and why it stopped; its p-values are the
look's p-value times 2^k (capped at 1), valid under the repeated looks.
"""
from __future__ import annotations

import csv
import io
import math
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist

import numpy as np
from numba import njit

from idiotsim.errors import UserError
from idiotsim.rng import nb_shuffled_deck
from idiotsim.rules import FIELD_NAMES, Rules, _coerce, read_toml
from idiotsim.summary import t95

DESIGNS = ("paired", "seats", "tournament")
COMMON_FIELDS = ("title", "question", "design", "players", "rules", "games", "seed", "notes")
DESIGN_FIELDS = {
    "paired": ("treatment", "control", "opponents", "treatment_label", "control_label", "streams", "sweep"),
    "seats": ("strategy", "sweep"),
    "tournament": ("strategies",),
}
REQUIRED = {
    "paired": ("question", "treatment", "control", "opponents", "players", "games", "seed"),
    "seats": ("question", "strategy", "players", "games", "seed"),
    "tournament": ("question", "strategies", "players", "games", "seed"),
}
SWEEP_FIELDS = ("knob", "rule", "values", "variants", "series")
SERIES_FIELDS = ("knob", "rule", "values")
VARIANT_FIELDS = {"paired": ("label", "rules", "knobs", "opponents"), "seats": ("label", "rules", "strategy")}
STREAMS = ("shared", "independent")

CHUNK_GAMES = 200_000  # games per play_seated call: memory stays flat
SEATS_CHUNK_GAMES = 50_000  # the seats design also holds the rotated decks (up to 104 int64 a game)
QUICK_GAMES = 4_000  # games per point with --quick
QUICK_TOURNAMENT_GAMES = 1  # one block
FIRST_LOOK_GAMES = 20_000  # sequential mode: games per point at the first look
ALPHA = 0.05
INDEPENDENT_OFFSET = 1 << 40  # control-arm game ids with streams = "independent"
MAX_GAMES = 10 ** 10


# ---- specs -----------------------------------------------------------------

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

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def games_per_deal(self) -> int:
        return 2 * self.players if self.treatment else self.players


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
    sweep_name: str = ""  # what the sweep varies ("players", "burn_min", "variant")
    series_name: str = ""
    points: tuple = ()


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
            values[name] = _coerce(name, value)
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
    """The spec with knobs set (replacing a value given in it), e.g. heuristic:burn_min=4."""
    head, items = _split_spec(spec)
    items = [(k, v) for k, v in items if k not in knobs] + [(k, _fmt_knob(v)) for k, v in knobs.items()]
    return head + (":" + ",".join(f"{k}={v}" for k, v in items) if items else "")


def _check_strategy(path, fieldname: str, spec) -> str:
    from idiotsim.strategy_api import load_strategy
    if not isinstance(spec, str) or not spec.strip():
        raise _err(path, fieldname, f"must be a strategy spec string like 'heuristic:burn_min=4', got {spec!r}")
    try:
        load_strategy(spec)
    except UserError as e:
        raise _err(path, fieldname, str(e)) from None
    return spec.strip()


def _check_spec_list(path, fieldname: str, value) -> tuple:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        raise _err(path, fieldname, f"must be a non-empty list of strategy specs, got {value!r}")
    return tuple(_check_strategy(path, f"{fieldname}[{i}]", v) for i, v in enumerate(value))


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
    games = _require_type(path, "games", data["games"], int, "an integer")
    if not 1 <= games <= MAX_GAMES:
        raise _err(path, "games", f"must be 1..{MAX_GAMES}, got {games}")
    seed = _require_type(path, "seed", data["seed"], int, "an integer")
    if not 0 <= seed <= 2 ** 63 - 1:
        raise _err(path, "seed", f"must be 0..2**63-1, got {seed}")
    rule_values = _rule_values(path, "rules", data.get("rules", {}))
    base_rules = _make_rules(path, "rules", {**rule_values, "players": players})
    common = dict(name=path.stem, path=str(path), title=title, question=question, design=design, players=players,
                  rules=rule_values, games=games, seed=seed, notes=notes)

    if design == "tournament":
        value = data["strategies"]
        if value == "all":
            from idiotsim.strategy_api import registry
            specs = tuple(sorted(registry()))
        else:
            specs = _check_spec_list(path, "strategies", value)
        if len(specs) < 2:
            raise _err(path, "strategies", "a leaderboard needs at least 2 strategies")
        return Spec(**common, strategies=specs, points=(Point("", "", "", base_rules),))

    if design == "paired":
        treatment = _check_strategy(path, "treatment", data["treatment"])
        control = _check_strategy(path, "control", data["control"])
        opponents = _check_spec_list(path, "opponents", data["opponents"])
        streams = data.get("streams", "shared")
        if streams not in STREAMS:
            raise _err(path, "streams", f"must be one of {', '.join(STREAMS)}, got {streams!r}")
        t_label = _require_type(path, "treatment_label", data.get("treatment_label", treatment), str, "a string")
        c_label = _require_type(path, "control_label", data.get("control_label", control), str, "a string")
        common.update(treatment=treatment, control=control, opponents=opponents, streams=streams,
                      treatment_label=t_label, control_label=c_label)
        base = Point("", "", "", base_rules, treatment=treatment, control=control, opponents=opponents)
    else:
        strategy = _check_strategy(path, "strategy", data["strategy"])
        common.update(strategy=strategy)
        base = Point("", "", "", base_rules, strategy=strategy)

    sweep_name, series_name, points = "", "", (base,)
    if "sweep" in data:
        sweep_name, series_name, points = _sweep_points(path, design, data["sweep"], base, rule_values)
    for i, p in enumerate(points):
        _check_point(path, p, "sweep" if "sweep" in data else "opponents")
    return Spec(**common, sweep_name=sweep_name, series_name=series_name, points=tuple(points))


def _check_point(path, p: Point, fieldname: str) -> None:
    distinct = {p.treatment, p.control, *p.opponents} if p.treatment else {p.strategy}
    if len(distinct) > 30:
        raise _err(path, fieldname, f"at most 30 distinct strategies per table, got {len(distinct)}")


def _axis(path, fieldname: str, table: dict, design: str, rule_values: dict, allowed) -> tuple:
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
                v = _coerce(name, v)
            except UserError as e:
                raise _err(path, f"{fieldname}.values[{i}]", str(e)) from None
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            raise _err(path, f"{fieldname}.values[{i}]", f"a knob value must be a number, got {v!r}")
        out.append(v)
    return kind, name, out


def _make_point(path, fieldname: str, design: str, base: Point, rule_values: dict, overrides: dict, knobs: dict,
                label: str, x, series: str) -> Point:
    """A sweep point: the base point with rule overrides and knobs of the subject strategy set."""
    from idiotsim.strategy_api import load_strategy
    values = {**rule_values, **overrides}
    players = values.pop("players", base.players)
    rules = _make_rules(path, fieldname, {**values, "players": players})
    subject = base.treatment if design == "paired" else base.strategy
    if knobs:
        subject = with_knobs(subject, knobs)
        try:
            load_strategy(subject)
        except UserError as e:
            raise _err(path, fieldname, str(e)) from None
    if design == "paired":
        return Point(label, x, series, rules, subject, base.control, base.opponents)
    return Point(label, x, series, rules, strategy=subject)


def _label(name: str, value) -> str:
    if isinstance(value, bool):
        value = str(value).lower()
    elif value is None:
        value = "none"
    return f"{name}={value}"


def _sweep_points(path, design: str, sweep, base: Point, rule_values: dict):
    if not isinstance(sweep, dict):
        raise _err(path, "sweep", f"must be a table, got {sweep!r}")
    _check_keys(path, sweep, SWEEP_FIELDS, "sweep.")
    if "variants" in sweep:
        for other in ("knob", "rule", "values", "series"):
            if other in sweep:
                raise _err(path, f"sweep.{other}", "not allowed with sweep.variants")
        return _variant_points(path, design, sweep["variants"], base, rule_values)
    kind, name, values = _axis(path, "sweep", {k: v for k, v in sweep.items() if k != "series"}, design,
                               rule_values, SWEEP_FIELDS)
    series = [(None, None, None)]
    s_kind = s_name = None
    if "series" in sweep:
        if not isinstance(sweep["series"], dict):
            raise _err(path, "sweep.series", f"must be a table, got {sweep['series']!r}")
        s_kind, s_name, s_values = _axis(path, "sweep.series", sweep["series"], design, rule_values, SERIES_FIELDS)
        if (s_kind, s_name) == (kind, name):
            raise _err(path, "sweep.series", f"varies {name} like the sweep itself")
        series = [(s_kind, s_name, v) for v in s_values]
    # each axis value alone first, so that an error names it
    for ax_kind, ax_name, ax_values, where in ((kind, name, values, "sweep.values"),
                                               (s_kind, s_name, [v for *_, v in series], "sweep.series.values")):
        if ax_kind is None:
            continue
        if ax_kind == "knob":
            from idiotsim.strategy_api import load_strategy
            subject = base.treatment if design == "paired" else base.strategy
            family = load_strategy(subject).strategy
            knobs = [k.name for k in family.knobs]
            if ax_name not in knobs:
                raise _err(path, where.replace("values", "knob"),
                           f"strategy {family.name} (`{subject}`) has no knob {ax_name!r}; its knobs: "
                           f"{', '.join(knobs) or 'none'}")
        for i, v in enumerate(ax_values):
            one = {ax_name: v}
            _make_point(path, f"{where}[{i}]", design, base, rule_values, one if ax_kind == "rule" else {},
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
            points.append(_make_point(path, "sweep", design, base, rule_values, overrides, knobs, label, v, s_label))
    return name, s_name or "", points


def _variant_points(path, design: str, variants, base: Point, rule_values: dict):
    from idiotsim.strategy_api import load_strategy
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
        p = Point(label, label, "", rules, base.treatment, base.control, base.opponents, base.strategy)
        if "knobs" in v:
            knobs = v["knobs"]
            if not isinstance(knobs, dict):
                raise _err(path, f"{where}.knobs", f"must be a table of knob = value, got {knobs!r}")
            for k, x in knobs.items():
                if isinstance(x, bool) or not isinstance(x, (int, float)):
                    raise _err(path, f"{where}.knobs.{k}", f"must be a number, got {x!r}")
            new = with_knobs(p.treatment, knobs)
            try:
                load_strategy(new)
            except UserError as e:
                raise _err(path, f"{where}.knobs", str(e)) from None
            p = Point(label, label, "", rules, new, p.control, p.opponents)
        if "opponents" in v:
            opp = _check_spec_list(path, f"{where}.opponents", v["opponents"])
            p = Point(label, label, "", rules, p.treatment, p.control, opp)
        if "strategy" in v:
            p = Point(label, label, "", rules, strategy=_check_strategy(path, f"{where}.strategy", v["strategy"]))
        points.append(p)
    return "variant", "", points


# ---- exact moments ------------------------------------------------------------

class Moments:
    """Count, sum and sum of squares of an integer series (Python ints: exact, order-free)."""
    __slots__ = ("n", "s1", "s2")

    def __init__(self):
        self.n = self.s1 = self.s2 = 0

    def add(self, x: np.ndarray) -> None:
        x = np.asarray(x, dtype=np.int64)
        self.n += int(x.size)
        self.s1 += int(x.sum())
        self.s2 += int((x * x).sum())

    def mean(self) -> float:
        return self.s1 / self.n if self.n else float("nan")

    def var(self) -> float:
        """Sample variance, computed exactly as a fraction then rounded once."""
        if self.n < 2:
            return float("nan")
        return (self.n * self.s2 - self.s1 * self.s1) / (self.n * (self.n - 1))


def interval(m: Moments, scale: float, level_alpha: float | None = None) -> dict:
    """Mean of m (divided by `scale`) with its CI and two-sided p-value against 0.

    `level_alpha` None: the 95% t interval over the m.n clusters; else a normal
    (1 - level_alpha) interval (sequential looks)."""
    n = m.n
    mean = m.mean() / scale
    var = m.var()
    if n < 2 or math.isnan(var):
        return dict(mean=mean, lo=float("nan"), hi=float("nan"), half=float("nan"), p=float("nan"), se=float("nan"))
    se = math.sqrt(max(var, 0.0) / n) / scale
    q = t95(n - 1) if level_alpha is None else NormalDist().inv_cdf(1 - level_alpha / 2)
    half = q * se
    if se == 0:
        p = 1.0 if mean == 0 else 0.0
    else:
        p = math.erfc(abs(mean) / se / math.sqrt(2))
    return dict(mean=mean, lo=mean - half, hi=mean + half, half=half, p=p, se=se)


# ---- deals with rotated seats ------------------------------------------------------

@njit(cache=True)
def _rotated_decks(seed, deal_ids, rotations, n, rounds, n_cards, out):
    """Row i * rounds + r: round r's shuffle of deal_ids[i] with the cards dealt to
    seat h (blind, face-up, hand; R5) moved to seat (h + rotations[i]) mod n."""
    deck = np.zeros(n_cards, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    for i in range(deal_ids.shape[0]):
        rot = rotations[i]
        for rd in range(rounds):
            nb_shuffled_deck(seed, deal_ids[i], rd, deck, state)
            row = i * rounds + rd
            for c in range(n_cards):
                out[row, c] = deck[c]
            for h in range(n):
                t = (h + rot) % n
                for part in range(3):
                    for j in range(3):
                        out[row, 3 * n * part + 3 * t + j] = deck[3 * n * part + 3 * h + j]


def rotated_decks(rules: Rules, seed: int, deal_ids: np.ndarray, rotations: np.ndarray) -> np.ndarray:
    out = np.zeros((len(deal_ids) * rules.rounds, rules.num_cards), dtype=np.int64)
    _rotated_decks(seed, np.ascontiguousarray(deal_ids, dtype=np.int64),
                   np.ascontiguousarray(rotations, dtype=np.int64), rules.players, rules.rounds, rules.num_cards, out)
    return out


# ---- play ------------------------------------------------------------------------

class DealStats:
    """What the statistics of a point share: `diff` holds one difference per deal, each the sum
    over the `n` games (seats or rotations) of that deal; the CI of its mean is the stopping rule."""

    @property
    def deals(self) -> int:
        return self.diff.n

    def half_width(self, level_alpha=None) -> float:
        return interval(self.diff, self.n, level_alpha)["half"]


class PairedStats(DealStats):
    """Accumulated statistics of one paired point (treatment T, control C)."""

    def __init__(self, n: int):
        self.n = n
        self.diff = Moments()  # per deal: sum over seats of place(T) - place(C)
        self.t_deal, self.c_deal = Moments(), Moments()  # per deal: sum over seats of place
        self.t_game, self.c_game = Moments(), Moments()  # per game: place
        self.win_diff, self.t_win, self.c_win = Moments(), Moments(), Moments()  # per deal, sums over seats
        self.idiot_diff, self.t_idiot, self.c_idiot = Moments(), Moments(), Moments()
        self.t_len, self.c_len = Moments(), Moments()  # per game: actions
        self.t_stalls = self.c_stalls = 0

    def add(self, pt: np.ndarray, pc: np.ndarray, at: np.ndarray, ac: np.ndarray, st, sc) -> None:
        """pt, pc: (deals, n) focal places; at, ac: (deals, n) actions; st, sc: stalled flags."""
        n = self.n
        pt = pt.astype(np.int64)
        pc = pc.astype(np.int64)
        self.diff.add((pt - pc).sum(axis=1))
        self.t_deal.add(pt.sum(axis=1))
        self.c_deal.add(pc.sum(axis=1))
        self.t_game.add(pt.ravel())
        self.c_game.add(pc.ravel())
        wt, wc = (pt == 1).sum(axis=1), (pc == 1).sum(axis=1)
        self.win_diff.add(wt - wc)
        self.t_win.add(wt)
        self.c_win.add(wc)
        it, ic = (pt == n).sum(axis=1), (pc == n).sum(axis=1)
        self.idiot_diff.add(it - ic)
        self.t_idiot.add(it)
        self.c_idiot.add(ic)
        self.t_len.add(at.ravel())
        self.c_len.add(ac.ravel())
        self.t_stalls += int(np.count_nonzero(st))
        self.c_stalls += int(np.count_nonzero(sc))


class SeatStats(DealStats):
    """Accumulated statistics of one seats point (n rotations of each deal)."""

    def __init__(self, n: int):
        self.n = n
        self.diff = Moments()  # per deal: sum over rotations of place(seat 0) - place(seat n-1)
        self.win_diff = Moments()
        self.seat_place = [Moments() for _ in range(n)]  # per deal: sum over rotations of seat k's place
        self.seat_win = [Moments() for _ in range(n)]
        self.first_game, self.last_game = Moments(), Moments()  # per game place of seat 0 / n-1
        self.length = Moments()  # per deal: sum of actions over rotations
        self.stalls = Moments()  # per deal: stalled games
        self.length_vs_base = None  # Moments of per-deal length minus the baseline's (paired), if comparable

    def add(self, places: np.ndarray, actions: np.ndarray, stalled: np.ndarray) -> np.ndarray:
        """places (deals, n rotations, n seats), actions and stalled (deals, n). Returns per-deal length."""
        n = self.n
        p = places.astype(np.int64)
        first, last = p[:, :, 0], p[:, :, n - 1]
        self.diff.add((first - last).sum(axis=1))
        self.win_diff.add((first == 1).sum(axis=1) - (last == 1).sum(axis=1))
        for k in range(n):
            self.seat_place[k].add(p[:, :, k].sum(axis=1))
            self.seat_win[k].add((p[:, :, k] == 1).sum(axis=1))
        self.first_game.add(first.ravel())
        self.last_game.add(last.ravel())
        length = actions.astype(np.int64).sum(axis=1)
        self.length.add(length)
        self.stalls.add(stalled.astype(np.int64).sum(axis=1))
        return length


class _PointPlayer:
    """Loaded strategies and seating for one point; plays deal ranges into its stats."""

    def __init__(self, spec: Spec, point: Point):
        from idiotsim.strategy_api import load_strategy
        self.spec, self.point = spec, point
        n = point.players
        self.n = n
        if point.treatment:
            specs = [point.treatment, point.control] + [o for o in dict.fromkeys(point.opponents)]
            self.specs = specs
            self.strategies = [load_strategy(s) for s in specs]
            for i, s in enumerate(self.strategies):  # distinct labels for error messages
                object.__setattr__(s, "label", ("treatment " if i == 0 else "control " if i == 1 else "") + s.label)
            index = {o: 2 + i for i, o in enumerate(dict.fromkeys(point.opponents))}
            # seating[s, arm, seat]
            self.seating = np.zeros((n, 2, n), dtype=np.int8)
            for s in range(n):
                for arm in range(2):
                    self.seating[s, arm, s] = arm
                    for j in range(n - 1):
                        self.seating[s, arm, (s + 1 + j) % n] = index[point.opponents[j % len(point.opponents)]]
            self.stats = PairedStats(n)
        else:
            self.specs = [point.strategy]
            self.strategies = [load_strategy(point.strategy)]
            self.stats = SeatStats(n)

    def inputs(self, d0: int, d1: int) -> dict:
        """The games of deals d0 .. d1 - 1: ids, seating and (seats design) rotated decks."""
        n, seed, rules = self.n, self.spec.seed, self.point.rules
        deals = np.arange(d0, d1, dtype=np.int64)
        m = len(deals)
        if self.point.treatment:
            # game index ((d - d0) * n + s) * 2 + arm
            deal_ids = np.repeat(deals, 2 * n)
            focal = np.tile(np.repeat(np.arange(n), 2), m)
            arm = np.tile(np.arange(2), m * n)
            game_ids = deal_ids * n + focal
            if self.spec.streams == "independent":
                game_ids = game_ids + arm * INDEPENDENT_OFFSET
            seating = np.tile(self.seating.reshape(2 * n, n), (m, 1))
            return dict(game_ids=game_ids, deal_ids=deal_ids, seating=seating, decks=None)
        deal_ids = np.repeat(deals, n)
        rotations = np.tile(np.arange(n), m)
        game_ids = deal_ids * n + rotations
        decks = rotated_decks(rules, seed, deal_ids, rotations)
        seating = np.zeros((m * n, n), dtype=np.int8)
        return dict(game_ids=game_ids, deal_ids=deal_ids, seating=seating, decks=decks)

    def task(self, d0: int, d1: int) -> tuple:
        """Arguments of ``play_chunk_task`` for deals d0 .. d1 - 1 (plain data: it may run on a worker)."""
        return (self.point.rules.as_dict(), [s.label for s in self.strategies], self.specs, self.spec.seed,
                self.inputs(d0, d1))

    def play(self, d0: int, d1: int):
        return self.add(play_chunk_task(*self.task(d0, d1)), d1 - d0)

    def add(self, out: dict, m: int):
        """Add the outputs of `m` deals' games to the statistics (in deal order)."""
        n = self.n
        if self.point.treatment:
            places = out["places"].reshape(m, n, 2, n)
            ar = np.arange(n)
            pt = places[:, ar, 0, ar]
            pc = places[:, ar, 1, ar]
            actions = out["actions"].reshape(m, n, 2)
            stalled = out["stalled"].reshape(m, n, 2)
            self.stats.add(pt, pc, actions[:, :, 0], actions[:, :, 1], stalled[:, :, 0], stalled[:, :, 1])
            return None
        return self.stats.add(out["places"].reshape(m, n, n), out["actions"].reshape(m, n),
                              out["stalled"].reshape(m, n))


def play_chunk_task(rules_fields: dict, labels: list, specs: list, seed: int, inputs: dict) -> dict:
    """Play one chunk of an experiment's games: a pure function of its arguments (Dask runs it on workers)."""
    from idiotsim.simulate import play_seated
    from idiotsim.strategy_api import load_strategy
    strategies = [load_strategy(spec) for spec in specs]
    for strategy, label in zip(strategies, labels):
        object.__setattr__(strategy, "label", label)
    return play_seated(Rules(**rules_fields), strategies, seed, inputs["game_ids"], inputs["deal_ids"],
                       inputs["seating"], decks=inputs["decks"])


@dataclass
class Run:
    """A played experiment: the spec, the size and per-point statistics."""
    spec: Spec
    games: int  # games per point (as requested)
    players: list  # _PointPlayer per point
    precision: float | None = None
    looks: int = 1
    alpha: float | None = None  # the last look's alpha (sequential mode)
    reached: bool = True  # sequential: precision reached
    quick: bool = False
    base_comparable: list = field(default_factory=list)  # seats: point i pairs with point 0 by deal

    @property
    def stats(self) -> list:
        return [p.stats for p in self.players]


def _deals_for(games: int, point: Point) -> int:
    return max(2, math.ceil(games / point.games_per_deal))


def run_experiment(spec: Spec, games: int | None = None, precision: float | None = None, quick: bool = False,
                   progress=None, cluster=None) -> Run:
    """Play a paired or seats spec (tournament specs: see ``run_leaderboard``)."""
    if spec.design == "tournament":
        raise UserError("a tournament spec is played by run_leaderboard")
    size = QUICK_GAMES if quick and games is None else (games or spec.games)
    if precision is not None and not 0 < precision < 10:
        raise UserError(f"--precision must be a positive mean-place half-width below 10, got {precision}")
    players = [_PointPlayer(spec, p) for p in spec.points]
    run = Run(spec, size, players, precision=precision, quick=quick)
    base = spec.points[0]
    run.base_comparable = [p.players == base.players and p.rules.num_cards == base.rules.num_cards
                           for p in spec.points]
    if spec.design == "seats" and spec.sweep_name == "variant":
        for i, pl_ in enumerate(players):
            if i and run.base_comparable[i]:
                pl_.stats.length_vs_base = Moments()
    caps = [_deals_for(size, p) for p in spec.points]
    if precision is None:
        looks = [caps]
    else:
        looks = []
        g = min(FIRST_LOOK_GAMES, size)
        while True:
            looks.append([min(c, _deals_for(g, p)) for c, p in zip(caps, spec.points)])
            if looks[-1] == caps:
                break
            g *= 2
    per_chunk = CHUNK_GAMES if spec.design == "paired" else min(CHUNK_GAMES, SEATS_CHUNK_GAMES)
    chunk = max(1, per_chunk // max(p.games_per_deal for p in spec.points))
    done = [0] * len(players)
    for k, targets in enumerate(looks, start=1):
        start = min(done)
        stop = max(targets)
        pieces = [(c0, i, max(c0, done[i]), min(c0 + chunk, targets[i]))
                  for c0 in range(start, stop, chunk) for i in range(len(players))]
        pieces = [p for p in pieces if p[2] < p[3]]
        tasks = (players[i].task(lo, hi) for _, i, lo, hi in pieces)  # lazily: inputs can be large
        if cluster is None:
            outputs = (play_chunk_task(*t) for t in tasks)
        else:
            outputs = iter(cluster.map_in_order(play_chunk_task, tasks))
        by_chunk: dict = {}
        for piece in pieces:
            by_chunk.setdefault(piece[0], []).append(piece)
        for c0, chunk_pieces in by_chunk.items():
            c1 = c0 + chunk
            base_length = None
            for _, i, lo, hi in chunk_pieces:
                pl_ = players[i]
                length = pl_.add(next(outputs), hi - lo)
                if spec.design == "seats":
                    if i == 0:
                        base_length = (lo, hi, length)
                    elif pl_.stats.length_vs_base is not None:
                        assert base_length is not None and base_length[:2] == (lo, hi)
                        pl_.stats.length_vs_base.add(length - base_length[2])
                if progress:
                    progress(i, hi)
            for i in range(len(players)):
                done[i] = max(done[i], min(c1, targets[i]))
        run.looks = k
        if precision is not None:
            run.alpha = ALPHA / 2 ** k
            widths = [pl_.stats.half_width(run.alpha) for pl_ in players]
            run.reached = all(w <= precision for w in widths)
            if run.reached:
                break
    return run


# ---- analysis -------------------------------------------------------------------------

def analyse_paired(st: PairedStats, alpha: float | None = None, looks: int = 1) -> dict:
    n = st.n
    place = interval(st.diff, n, alpha)
    win = interval(st.win_diff, n, alpha)
    idiot = interval(st.idiot_diff, n, alpha)
    if alpha is not None:  # alpha spending: the look's p-value times 2^k
        for d in (place, win, idiot):
            d["p"] = min(1.0, d["p"] * 2 ** looks)
    games = st.t_game.n
    unpaired = n * (st.t_game.var() + st.c_game.var())  # per-deal-sum scale: n games per arm
    paired = st.diff.var()
    if paired > 0:
        reduction = unpaired / paired
    else:
        reduction = float("inf")
    return dict(
        deals=st.deals, games=2 * games, seat_games=games,
        t_place=st.t_game.mean(), c_place=st.c_game.mean(),
        diff=place["mean"], diff_lo=place["lo"], diff_hi=place["hi"], diff_half=place["half"], diff_p=place["p"],
        t_win=st.t_win.s1 / games, c_win=st.c_win.s1 / games,
        win_diff=win["mean"], win_lo=win["lo"], win_hi=win["hi"], win_p=win["p"],
        t_idiot=st.t_idiot.s1 / games, c_idiot=st.c_idiot.s1 / games,
        idiot_diff=idiot["mean"], idiot_lo=idiot["lo"], idiot_hi=idiot["hi"], idiot_p=idiot["p"],
        variance_reduction=reduction,
        t_length=st.t_len.mean(), c_length=st.c_len.mean(),
        t_stall=st.t_stalls / games, c_stall=st.c_stalls / games,
    )


def analyse_seats(st: SeatStats, base: SeatStats | None, alpha: float | None = None, looks: int = 1) -> dict:
    from idiotsim.summary import wilson
    n = st.n
    place = interval(st.diff, n, alpha)
    win = interval(st.win_diff, n, alpha)
    if alpha is not None:
        for d in (place, win):
            d["p"] = min(1.0, d["p"] * 2 ** looks)
    games = st.length.n * n
    unpaired = n * (st.first_game.var() + st.last_game.var())
    paired = st.diff.var()
    length = interval(st.length, n, alpha)
    stalls = st.stalls.s1
    s_lo, s_hi = wilson(stalls, games)
    row = dict(
        deals=st.deals, games=games,
        first_place=st.first_game.mean(), last_place=st.last_game.mean(),
        diff=place["mean"], diff_lo=place["lo"], diff_hi=place["hi"], diff_half=place["half"], diff_p=place["p"],
        win_diff=win["mean"], win_lo=win["lo"], win_hi=win["hi"], win_p=win["p"],
        variance_reduction=unpaired / paired if paired > 0 else float("inf"),
        length=length["mean"], length_lo=length["lo"], length_hi=length["hi"],
        stall=stalls / games, stall_lo=s_lo, stall_hi=s_hi,
    )
    for k in range(n):
        seat_w = interval(st.seat_win[k], n, alpha)
        seat_p = interval(st.seat_place[k], n, alpha)
        row[f"seat{k}_win"], row[f"seat{k}_win_lo"], row[f"seat{k}_win_hi"] = seat_w["mean"], seat_w["lo"], seat_w["hi"]
        row[f"seat{k}_place"] = seat_p["mean"]
    row["first_win"] = row["seat0_win"]
    row["first_edge"] = row["seat0_win"] - 1 / n
    if base is not None and base is not st:
        if st.length_vs_base is not None:
            d = interval(st.length_vs_base, n, alpha)
            row.update(length_vs_base=d["mean"], length_vs_base_lo=d["lo"], length_vs_base_hi=d["hi"],
                       length_vs_base_p=d["p"], length_paired=True)
        elif st.n == base.n:  # same players, other deals: Welch interval of the difference of means
            a, b = interval(st.length, n), interval(base.length, n)
            diff = a["mean"] - b["mean"]
            se = math.hypot(a["se"], b["se"])
            q = 1.959963984540054 if alpha is None else NormalDist().inv_cdf(1 - alpha / 2)
            p = math.erfc(abs(diff) / se / math.sqrt(2)) if se > 0 else float("nan")
            row.update(length_vs_base=diff, length_vs_base_lo=diff - q * se, length_vs_base_hi=diff + q * se,
                       length_vs_base_p=p, length_paired=False)
    return row


def analyse(run: Run) -> list[dict]:
    alpha = run.alpha if run.precision is not None else None
    if run.spec.design == "paired":
        return [analyse_paired(st, alpha, run.looks) for st in run.stats]
    base = run.stats[0] if run.spec.sweep_name == "variant" else None  # length against the first variant
    return [analyse_seats(st, base, alpha, run.looks) for st in run.stats]


# ---- formatting ----------------------------------------------------------------------

def f_num(x: float, digits: int = 3, sign: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if isinstance(x, float) and math.isinf(x):
        return "inf"
    out = f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
    zero = "0." + "0" * digits
    if out.lstrip("+-") == zero:  # no "-0.000"
        out = ("+" if sign else "") + zero
    return out


def f_p(p: float) -> str:
    if math.isnan(p):
        return "n/a"
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def f_pct(x: float, digits: int = 2) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:.{digits}f}%"


def f_pp(x: float, digits: int = 2, sign=True) -> str:
    """A rate difference in percentage points."""
    return "n/a" if math.isnan(x) else f_num(100 * x, digits, sign)


def f_ratio(x: float) -> str:
    if math.isinf(x):
        return "exact (zero paired variance)"
    return "n/a" if math.isnan(x) else f"{x:.1f}x"


def _digits(half: float) -> int:
    return 4 if not math.isnan(half) and half < 0.002 else 3


def significant(lo: float, hi: float) -> bool:
    return not (math.isnan(lo) or math.isnan(hi)) and (lo > 0 or hi < 0)


def _opponents_text(opponents) -> str:
    names = list(dict.fromkeys(opponents))
    return f"{names[0]} opponents" if len(names) == 1 else "opponents " + ", ".join(opponents)


def _game_text(point: Point, spec: Spec) -> str:
    extra = _rules_text(point.rules, exclude=("players",))
    return f"{point.players}-player games" + (f" ({extra})" if extra != "canonical rules" else "")


def _rules_text(rules: Rules, exclude=()) -> str:
    default = Rules(players=rules.players)
    changed = []
    for k, v in rules.as_dict().items():
        if k in exclude or v == getattr(default, k):
            continue
        changed.append(f"{k}={str(v).lower() if isinstance(v, bool) else v}")
    return ", ".join(changed) if changed else "canonical rules"


def _level(r: dict) -> str:
    return "95% CI" if r.get("alpha") is None else f"{100 * (1 - r['alpha']):.3g}% CI"


def paired_sentence(spec: Spec, point: Point, r: dict) -> str:
    d = _digits(r["diff_half"])
    what = f"{spec.treatment_label} instead of {spec.control_label}"
    if point.label and spec.sweep_name not in ("players", "variant"):
        what = f"At {point.label}, {what[:1].lower() + what[1:]}"
    where = f"in {_game_text(point, spec)} with {_opponents_text(point.opponents)}"
    if point.label and spec.sweep_name == "variant":
        where += f" ({point.label})"
    lo, hi = r["diff_lo"], r["diff_hi"]
    level = _level(r)
    if significant(lo, hi):
        verb = "lowers (improves)" if r["diff"] < 0 else "raises (worsens)"
        a, b = sorted((abs(lo), abs(hi)))
        place = f"{verb} your mean place by {f_num(abs(r['diff']), d)} ({level} {f_num(a, d)} to {f_num(b, d)})"
    else:
        place = (f"makes no significant difference to your mean place: {f_num(r['diff'], d, sign=True)} "
                 f"({level} {f_num(lo, d, sign=True)} to {f_num(hi, d, sign=True)})")
    if significant(r["win_lo"], r["win_hi"]):
        w = (f"{'raises' if r['win_diff'] > 0 else 'lowers'} your win rate by {f_pp(abs(r['win_diff']), sign=False)} "
             f"points ({level} {f_pp(r['win_lo'])} to {f_pp(r['win_hi'])})")
    else:
        w = f"leaves your win rate unchanged within {level} {f_pp(r['win_lo'])} to {f_pp(r['win_hi'])} points"
    return f"{what} {place} and {w} {where}."


def seats_sentence(spec: Spec, point: Point, r: dict) -> str:
    d = _digits(r["diff_half"])
    n = point.players
    lo, hi = r["diff_lo"], r["diff_hi"]
    level = _level(r)
    who = f"in {_game_text(point, spec)} of {point.strategy} players"
    if point.label and spec.sweep_name == "variant":
        who += f" ({point.label})"
    if significant(lo, hi):
        verb = "better" if r["diff"] < 0 else "worse"
        a, b = sorted((abs(lo), abs(hi)))
        s = (f"Sitting first (seat 0) rather than last (seat {n - 1}) makes the same cards finish "
             f"{f_num(abs(r['diff']), d)} places {verb} on average ({level} {f_num(a, d)} to {f_num(b, d)})")
    else:
        s = (f"Sitting first (seat 0) rather than last (seat {n - 1}) makes no significant difference to the "
             f"mean place: {f_num(r['diff'], d, sign=True)} ({level} {f_num(lo, d, sign=True)} to "
             f"{f_num(hi, d, sign=True)})")
    return (f"{s}; seat 0 wins {f_pct(r['seat0_win'])} of games ({level} {f_pct(r['seat0_win_lo'])} to "
            f"{f_pct(r['seat0_win_hi'])}) against a fair share of {f_pct(1 / n)}, {who}.")


def headline(spec: Spec, results: list[dict]) -> str:
    """The one-line answer for the index."""
    points = spec.points
    if spec.design == "paired" and len(points) == 1:
        return paired_sentence(spec, points[0], results[0])
    if spec.design == "seats" and len(points) == 1:
        return seats_sentence(spec, points[0], results[0])
    d = max(_digits(r["diff_half"]) for r in results)
    level = _level(results[0])
    better = [i for i, r in enumerate(results) if significant(r["diff_lo"], r["diff_hi"]) and r["diff"] < 0]
    worse = [i for i, r in enumerate(results) if significant(r["diff_lo"], r["diff_hi"]) and r["diff"] > 0]
    m = len(results)
    if spec.design == "paired":
        subject = f"{spec.treatment_label} instead of {spec.control_label}"
        opp = _opponents_text(spec.opponents)
        words = _sweep_words(spec)
        tried = (", ".join(_short(p) for p in points) if m <= 6 else f"{m} settings")
        best = min(range(m), key=lambda i: (results[i]["diff"], i))
        worst = max(range(m), key=lambda i: (results[i]["diff"], -i))
        rb, rw = results[best], results[worst]

        def ci(r):
            return (f"{f_num(r['diff'], d, sign=True)}, {level} {f_num(r['diff_lo'], d, sign=True)} to "
                    f"{f_num(r['diff_hi'], d, sign=True)}")

        lo_v = min(r["diff"] for r in results)
        hi_v = max(r["diff"] for r in results)
        if len(better) == m:
            return (f"{subject} lowers (improves) your mean place at every {words} tried ({tried}), "
                    f"by {f_num(-hi_v, d)} to "
                    f"{f_num(-lo_v, d)} (all {m} {level}s exclude 0), most at {_short(points[best])}; {opp}.")
        if len(worse) == m:
            return (f"{subject} raises (worsens) your mean place at every {words} tried ({tried}), "
                    f"by {f_num(lo_v, d)} to "
                    f"{f_num(hi_v, d)} (all {m} {level}s exclude 0): least at {_short(points[best])}, most at "
                    f"{_short(points[worst])}; {opp}.")
        if not better:
            return (f"{subject} never lowers (improves) your mean place significantly: it raises it at "
                    f"{len(worse)} of {m} "
                    f"{words}s tried (most at {_short(points[worst])}: {ci(rw)}), and the best is "
                    f"{_short(points[best])} ({ci(rb)}); {opp}.")
        if not worse:
            return (f"{subject} lowers your mean place at {len(better)} of {m} {words}s tried, most at "
                    f"{_short(points[best])} ({ci(rb)}), and never raises it significantly (least good: "
                    f"{_short(points[worst])}, {ci(rw)}); {opp}.")
        return (f"{spec.treatment_label}: best at {_short(points[best])} ({ci(rb)} against {spec.control_label}), "
                f"worst at {_short(points[worst])} ({ci(rw)}); significantly better at {len(better)} and worse at "
                f"{len(worse)} of {m} {words}s; {opp}.")
    # seats design with a sweep
    def cell(p, r, label):
        star = "*" if significant(r["diff_lo"], r["diff_hi"]) else ""
        return f"{label} {f_num(r['diff'], d, sign=True)}{star}"

    if spec.series_name:
        groups = {}
        for p, r in zip(points, results):
            x = _short(Point(_label(spec.sweep_name, p.x), p.x, "", p.rules))
            groups.setdefault(p.series, []).append(cell(p, r, x))
        body = "; ".join(f"{s}: " + ", ".join(cells) for s, cells in groups.items())
    else:
        body = "; ".join(cell(p, r, _short(p) + ":") for p, r in zip(points, results))
    text = (f"Mean place of the same cards in seat 0 (who starts) minus in the last seat (* = {level} excludes 0): "
            f"{body}.")
    if spec.sweep_name == "variant":
        longest = max(range(m), key=lambda i: (results[i]["length"], -i))
        shortest = min(range(m), key=lambda i: (results[i]["length"], i))
        stall = max(range(m), key=lambda i: (results[i]["stall"], -i))
        text = (f"Game length ranges from {results[shortest]['length']:.1f} actions ({points[shortest].label}) to "
                f"{results[longest]['length']:.1f} ({points[longest].label}); the highest stall rate is "
                f"{f_pct(results[stall]['stall'], 3)} ({points[stall].label}). " + text)
    return text


def _sweep_words(spec: Spec) -> str:
    if spec.sweep_name == "players" and not spec.series_name:
        return "player count"
    if spec.sweep_name == "variant":
        return "variant"
    return "setting"


def _short(p: Point) -> str:
    """`players=3` as `3 players`; other labels as they are."""
    m = re.fullmatch(r"players=(\d+)(.*)", p.label)
    return f"{m.group(1)} players{m.group(2)}" if m else p.label


# ---- reports --------------------------------------------------------------------------

def _setup_lines(spec: Spec, run: Run) -> list[str]:
    lines = []
    base_rules = Rules(**{**spec.rules, "players": spec.players})
    if spec.design == "paired":
        lines += [f"- Treatment: `{spec.treatment}` ({spec.treatment_label})",
                  f"- Control: `{spec.control}` ({spec.control_label})",
                  f"- Opponents: {', '.join(f'`{o}`' for o in spec.opponents)} (opponent j sits j seats left "
                  f"of the focal player, cycling through the list)"]
    elif spec.design == "seats":
        lines += [f"- Every seat plays `{spec.strategy}`"]
    lines += [f"- Players: {spec.players}" + (" (swept)" if spec.sweep_name == "players" else ""),
              f"- Rules: {_rules_text(base_rules, exclude=('players',))}",
              f"- Seed: {spec.seed}"]
    if spec.sweep_name:
        what = "variants" if spec.sweep_name == "variant" else f"`{spec.sweep_name}`"
        lines.append(f"- Sweep: {what} over {len(spec.points)} settings"
                     + (f" (series: `{spec.series_name}`)" if spec.series_name else "")
                     + "; every setting plays the same deal ids")
        if spec.sweep_name == "variant":
            for p in spec.points:
                who = p.strategy or p.treatment
                changed = who != (spec.strategy or spec.treatment)
                extra = f"; {'strategy' if p.strategy else 'treatment'} `{who}`" if changed else ""
                lines.append(f"  - {p.label}: {_rules_text(p.rules)}, {p.players} players{extra}")
    if spec.design == "paired":
        n_text = "every seat"
        lines += ["", "Design: for each deal and each focal seat (" + n_text + ", so seat advantage cancels) the game "
                  "is played twice on the same cards with the same opponents: once with the treatment in the focal "
                  "seat, once with the control. "
                  + ("Both games use the same game id, so the opponents' random draws match."
                     if spec.streams == "shared" else
                     "The control game draws its strategies' randomness from its own streams (streams = "
                     "\"independent\").")
                  + " The effect is the focal player's place with the treatment minus with the control "
                  "(negative = the treatment finishes better); a deal's seats and both arms form one cluster, "
                  "and intervals are t intervals over deals."]
    else:
        lines += ["", "Design: each deal is played once per seat rotation: the blind, face-up and hand cards "
                  "dealt to seat h go to seat h + r (r = 0..n-1), the talon unchanged, so every hand is played "
                  "from every seat. The effect is the place of a hand in seat 0 (who starts, R7) minus the same "
                  "hand in the last seat n-1, paired by deal (a deal's n games are one cluster)."
                  + (" With `lowest_starts` (R8) the starter is chosen by the cards, so rotating the seats does "
                     "not change who starts: the difference left is the tie-break (ties go to the first seat "
                     "in turn order) and nothing else." if any(p.rules.lowest_starts for p in spec.points) else "")]
        if spec.sweep_name == "variant":
            lines += ["", "Game length (actions, R20) and stall rate per variant; the length difference against "
                      f"the first variant ({spec.points[0].label}) is paired by deal where the deck and the player "
                      "count match (same shuffles), else unpaired (Welch)."]
    return lines


def _size_lines(spec: Spec, run: Run, results: list[dict]) -> list[str]:
    halves = [r["diff_half"] for r in results]
    worst = max(halves)
    decided = [i for i, r in enumerate(results) if significant(r["diff_lo"], r["diff_hi"])]
    deals = sorted({r["deals"] for r in results})
    games = sorted({r["games"] for r in results})
    size = (f"{deals[0]:,} deals ({games[0]:,} games)" if len(deals) == 1 else
            f"{deals[0]:,} to {deals[-1]:,} deals ({games[0]:,} to {games[-1]:,} games)")
    m = len(results)
    lines = [f"Size: {size} per setting" + (f", {sum(r['games'] for r in results):,} games in all" if m > 1 else "")
             + (" (`--quick` check size: not the shipped numbers)" if run.quick else "") + "."]
    level = "95%" if run.alpha is None else f"{100 * (1 - run.alpha):.3g}%"
    best_half = min(halves)
    span = (f"{f_num(worst, 4)}" if m == 1 or best_half == worst else
            f"{f_num(best_half, 4)} to {f_num(worst, 4)} across settings")
    lines.append(f"Precision: the {level} CI half-width of the mean place difference is {span}, so the "
                 f"experiment tells an effect of {f_num(2 * worst, 4)} places (one place in "
                 f"{max(1, round(1 / (2 * worst))):,} games) or more from no effect (with about 97.5% power).")
    undecided = [i for i in range(m) if i not in decided]
    if decided:
        small = min(decided, key=lambda i: (abs(results[i]["diff"]), i))
        lines.append((f"The CI excludes 0 at {len(decided)} of {m} settings, which settles the sign of the effect "
                      "there" if m > 1 else "The CI excludes 0, which settles the sign of the effect")
                     + (f" (the smallest settled effect, {f_num(results[small]['diff'], 4, True)} at "
                        f"{spec.points[small].label}, is {abs(results[small]['diff']) / halves[small]:.1f} "
                        "half-widths from 0)." if m > 1 else
                        f" ({abs(results[small]['diff']) / halves[small]:.1f} half-widths from 0)."))
    if undecided:
        bound = max(max(abs(results[i]["diff_lo"]), abs(results[i]["diff_hi"])) for i in undecided)
        where = ", ".join(spec.points[i].label for i in undecided) if m > 1 else ""
        lines.append((f"At {where} the CI covers 0" if m > 1 else "The CI covers 0")
                     + f": any effect there is at most {f_num(bound, 4)} places either way (one place in "
                     f"{max(1, round(1 / bound)) if bound > 0 else 0:,} games); resolving a smaller effect would take "
                     "a larger size.")
    red = [r["variance_reduction"] for r in results if not math.isinf(r["variance_reduction"])]
    what = "the same deals" if spec.design == "paired" else "the rotated deals"
    if red:
        lo_r, hi_r = min(red), max(red)
        ratio = f"{lo_r:.1f}x" if len(red) == 1 or lo_r == hi_r else f"{lo_r:.1f}x to {hi_r:.1f}x"
        lines.append(f"Pairing on {what}: the variance of an unpaired difference (the two arms on independent "
                     f"deals) over the paired one is {ratio}"
                     + (": an unpaired experiment would need that many times the games for the same interval."
                        if lo_r >= 1 else " (above 1 the pairing saves games; below 1 it costs a little)."))
    else:
        lines.append("The paired differences are all exactly 0 (treatment and control play identically on "
                     "every deal), so the interval has zero width.")
    if run.precision is not None:
        if run.reached:
            lines.append(f"Sequential mode: stopped at look {run.looks} because every setting's half-width fell "
                         f"to the target {run.precision:g} or below. Look k uses a (1 - 0.05/2^k) interval, so the "
                         f"looks together spend at most 0.05; the intervals shown are look {run.looks}'s "
                         f"{level} intervals and the p-values are multiplied by 2^{run.looks}.")
        else:
            lines.append(f"Sequential mode: the target half-width {run.precision:g} was not reached by the maximum "
                         f"size after {run.looks} looks (raise it with --games). Look k uses a (1 - 0.05/2^k) "
                         f"interval; the intervals shown are look {run.looks}'s {level} intervals.")
    return lines


PAIRED_COLUMNS = ("setting", "deals", "games", "t_place", "c_place", "diff", "diff_lo", "diff_hi", "diff_half",
                  "diff_p", "t_win", "c_win", "win_diff", "win_lo", "win_hi", "win_p", "t_idiot", "c_idiot",
                  "idiot_diff", "idiot_lo", "idiot_hi", "idiot_p", "variance_reduction", "t_length", "c_length",
                  "t_stall", "c_stall")
SEATS_COLUMNS = ("setting", "players", "deals", "games", "first_place", "last_place", "diff", "diff_lo", "diff_hi",
                 "diff_half", "diff_p", "win_diff", "win_lo", "win_hi", "win_p", "first_win", "first_edge",
                 "variance_reduction", "length", "length_lo", "length_hi", "length_vs_base", "length_vs_base_lo",
                 "length_vs_base_hi", "length_vs_base_p", "length_paired", "stall", "stall_lo", "stall_hi")


def _csv_value(v) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        if math.isinf(v):
            return "inf"
        return f"{v:.6f}" if abs(v) >= 1e-4 or v == 0 else f"{v:.6e}"
    return str(v)


def csv_text(spec: Spec, results: list[dict]) -> str:
    cols = PAIRED_COLUMNS if spec.design == "paired" else SEATS_COLUMNS
    if spec.design == "seats":
        n_max = max(p.players for p in spec.points)
        cols = cols + tuple(f"seat{k}_{w}" for k in range(n_max) for w in ("win", "win_lo", "win_hi", "place"))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for p, r in zip(spec.points, results):
        row = {**r, "setting": p.label or "all", "players": p.players}
        w.writerow([_csv_value(row.get(c, float("nan"))) for c in cols])
    return buf.getvalue()


def _paired_table(spec: Spec, results: list[dict]) -> list[str]:
    d = max(_digits(r["diff_half"]) for r in results)
    head = ["| setting | deals | treatment mean place | control mean place | difference (95% CI) | p | "
            "win rate T / C | win-rate difference, points (95% CI) | p | Idiot-rate difference, points | "
            "variance reduction |", "|---" * 11 + "|"]
    rows = []
    for p, r in zip(spec.points, results):
        rows.append(f"| {p.label or 'all'} | {r['deals']:,} | {r['t_place']:.4f} | {r['c_place']:.4f} | "
                    f"{f_num(r['diff'], d, True)} ({f_num(r['diff_lo'], d, True)} to {f_num(r['diff_hi'], d, True)}) | "
                    f"{f_p(r['diff_p'])} | {f_pct(r['t_win'])} / {f_pct(r['c_win'])} | "
                    f"{f_pp(r['win_diff'])} ({f_pp(r['win_lo'])} to {f_pp(r['win_hi'])}) | {f_p(r['win_p'])} | "
                    f"{f_pp(r['idiot_diff'])} ({f_pp(r['idiot_lo'])} to {f_pp(r['idiot_hi'])}) | "
                    f"{f_ratio(r['variance_reduction'])} |")
    return head + rows


def _seats_table(spec: Spec, results: list[dict]) -> list[str]:
    d = max(_digits(r["diff_half"]) for r in results)
    head = ["| setting | players | deals | seat 0 minus seat n-1, mean place (95% CI) | p | "
            "win-rate difference, points (95% CI) | seat 0 win rate (fair share) | variance reduction |",
            "|---" * 8 + "|"]
    rows = []
    for p, r in zip(spec.points, results):
        rows.append(f"| {p.label or 'all'} | {p.players} | {r['deals']:,} | {f_num(r['diff'], d, True)} "
                    f"({f_num(r['diff_lo'], d, True)} to {f_num(r['diff_hi'], d, True)}) | {f_p(r['diff_p'])} | "
                    f"{f_pp(r['win_diff'])} ({f_pp(r['win_lo'])} to {f_pp(r['win_hi'])}) | "
                    f"{f_pct(r['seat0_win'])} ({f_pct(1 / p.players)}) | {f_ratio(r['variance_reduction'])} |")
    lines = head + rows
    n_max = max(p.players for p in spec.points)
    lines += ["", "Win rate by seat (95% CI over deals):", "",
              "| setting | " + " | ".join(f"seat {k}" for k in range(n_max)) + " |", "|---" * (n_max + 1) + "|"]
    for p, r in zip(spec.points, results):
        cells = [f"{f_pct(r[f'seat{k}_win'])} ({f_pct(r[f'seat{k}_win_lo'])} to {f_pct(r[f'seat{k}_win_hi'])})"
                 if k < p.players else "" for k in range(n_max)]
        lines.append(f"| {p.label or 'all'} | " + " | ".join(cells) + " |")
    compare = spec.sweep_name == "variant"
    lines += ["", "Game length and stalls:", "", "| setting | mean actions per game (95% CI) | "
              + ("difference vs " + spec.points[0].label + " (95% CI) | p | " if compare else "")
              + "stall rate (Wilson 95% CI) |", "|---" * (3 + 2 * compare) + "|"]
    for i, (p, r) in enumerate(zip(spec.points, results)):
        cells = [p.label or "all", f"{r['length']:.2f} ({r['length_lo']:.2f} to {r['length_hi']:.2f})"]
        if compare:
            if i == 0 or "length_vs_base" not in r:
                cells += ["-", "-"]
            else:
                cells += [f"{r['length_vs_base']:+.2f} ({r['length_vs_base_lo']:+.2f} to "
                          f"{r['length_vs_base_hi']:+.2f}){'' if r['length_paired'] else ' unpaired'}",
                          f_p(r["length_vs_base_p"])]
        cells.append(f"{f_pct(r['stall'], 4)} ({f_pct(r['stall_lo'], 4)} to {f_pct(r['stall_hi'], 4)})")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def markdown(spec: Spec, run: Run, results: list[dict], plot_name: str) -> str:
    title = spec.title[:1].upper() + spec.title[1:]
    lines = [f"# {title}", "", f"**Question.** {spec.question.strip()}", "",
             f"**Answer.** {headline(spec, results)}", ""]
    if len(spec.points) > 1:
        sentence = paired_sentence if spec.design == "paired" else seats_sentence
        lines += ["Per setting:", ""] + [f"- {sentence(spec, p, r)}" for p, r in zip(spec.points, results)] + [""]
    if spec.notes.strip():
        lines += [spec.notes.strip(), ""]
    lines += ["## Setup", ""] + _setup_lines(spec, run) + [""]
    lines += ["## Numbers", ""]
    table = _paired_table(spec, results) if spec.design == "paired" else _seats_table(spec, results)
    lv = _level(results[0])
    if lv != "95% CI":  # sequential mode: the last look's level
        table = [t.replace("95% CI", lv).replace(f"Wilson {lv}", "Wilson 95% CI") for t in table]
    lines += table
    lines += ["", ("Differences are treatment minus control" if spec.design == "paired" else
                   "Differences are seat 0 minus seat n-1") + " (negative mean place = better); p-values are two-sided "
              "(normal approximation over deals). Variance reduction: variance of the unpaired difference over "
              "variance of the paired difference.", ""]
    lines += ["## Size", ""] + _size_lines(spec, run, results) + [""]
    lines += [f"![{spec.title}]({plot_name})", "",
              f"Numbers: [{spec.name}.csv]({spec.name}.csv). Spec: [{spec.name}.toml]({spec.name}.toml). "
              f"Regenerate: `idiotsim report reports/{spec.name}.toml`.", ""]
    return "\n".join(lines)


def _tick(v) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if v is None:
        return "none"
    return str(v)


def plot(spec: Spec, results: list[dict], path: Path) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    points = spec.points
    seats = spec.design == "seats"
    panels = 3 if seats else 2
    fig, axes = plt.subplots(1, panels, figsize=(4.6 * panels, 3.8))
    numeric = bool(spec.sweep_name) and spec.sweep_name != "variant" and all(
        isinstance(p.x, (int, float)) and not isinstance(p.x, bool) for p in points)
    series = list(dict.fromkeys(p.series for p in points))
    xs_all = list(dict.fromkeys(_tick(p.x) for p in points)) if not numeric else None

    def xpos(p, k):
        if numeric:
            return float(p.x)
        return xs_all.index(_tick(p.x)) + (k - (len(series) - 1) / 2) * 0.12

    def draw(ax, key, lo, hi, scale, ylabel, zero=True):
        for k, s in enumerate(series):
            sel = [(p, r) for p, r in zip(points, results) if p.series == s]
            x = [xpos(p, k) for p, _ in sel]
            y = np.array([r[key] for _, r in sel]) * scale
            if lo is not None:
                err = np.vstack([y - np.array([r[lo] for _, r in sel]) * scale,
                                 np.array([r[hi] for _, r in sel]) * scale - y])
                err = np.clip(np.nan_to_num(err), 0, None)
            else:
                err = None
            ax.errorbar(x, y, yerr=err, fmt="o-" if numeric else "o", capsize=3, label=s or None)
        if zero:
            ax.axhline(0, color="grey", lw=0.8)
        ax.set_ylabel(ylabel)
        if not numeric:
            ax.set_xticks(range(len(xs_all)), xs_all, rotation=30 if len(xs_all) > 3 else 0, ha="right"
                          if len(xs_all) > 3 else "center", fontsize=8)
        else:
            ax.set_xlabel(spec.sweep_name)
            values = sorted({float(p.x) for p in points})
            if all(v == int(v) for v in values):
                if len(values) <= 12:
                    ax.set_xticks(values, [str(int(v)) for v in values])
                else:
                    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(alpha=0.3)
        if len(series) > 1:
            ax.legend(fontsize=7)

    if seats:
        draw(axes[0], "diff", "diff_lo", "diff_hi", 1, "mean place, seat 0 minus seat n-1")
        draw(axes[1], "length", "length_lo", "length_hi", 1, "mean actions per game", zero=False)
        draw(axes[2], "stall", "stall_lo", "stall_hi", 100, "stall rate, %", zero=False)
    else:
        draw(axes[0], "diff", "diff_lo", "diff_hi", 1, "mean place, treatment minus control")
        draw(axes[1], "win_diff", "win_lo", "win_hi", 100, "win rate difference, points")
    fig.suptitle(f"{spec.title} ({_level(results[0])})", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return path


# ---- leaderboard ------------------------------------------------------------------------

def run_leaderboard(spec: Spec, out_dir: Path, games: int | None = None, quick: bool = False, cluster=None):
    """Play the tournament in a temporary folder, summarize it into <out>/<name>/; return the summary."""
    from idiotsim.plots import write_plots
    from idiotsim.summary import summarize, write_summary
    from idiotsim.tournament import TournamentConfig, run_tournament
    size = QUICK_TOURNAMENT_GAMES if quick and games is None else (games or spec.games)
    config = TournamentConfig(strategies=spec.strategies, players=spec.players, games=size, seed=spec.seed,
                              rules=dict(spec.rules))
    folder = Path(out_dir) / spec.name
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out_dir, prefix=f".{spec.name}-") as tmp:
        data = Path(tmp) / "data"
        run_tournament(config, data, map_chunks=None if cluster is None else cluster.tournament_chunks())
        summary = summarize(data)
    for old in folder.glob("summary*"):
        old.unlink()
    write_summary(summary, folder)
    write_plots(summary, folder)
    return summary


def leaderboard_markdown(spec: Spec, summary, quick: bool) -> str:
    from idiotsim.summary import fmt_ci
    t = summary.strategies
    top = t.row(0, named=True)
    diffs = summary.differences
    second = diffs.row(0, named=True) if diffs.height else None
    top_ci = fmt_ci(top["mean_place"], top["mean_place_lo"], top["mean_place_hi"])
    answer = (f"`{top['strategy']}` ranks first with mean place {top_ci}"
              f" and win rate {top['win_rate']:.2%} in {summary.players}-player round robins of {t.height} strategies")
    if second is not None:
        verdict = "significantly ahead of" if second["significant"] else "not significantly ahead of"
        gap = fmt_ci(second["difference"], second["lo"], second["hi"])
        answer += f"; it is {verdict} `{second['worse']}` (difference {gap})"
    answer += "."
    lines = [f"# {spec.title[:1].upper() + spec.title[1:]}", "", f"**Question.** {spec.question.strip()}", "",
             f"**Answer.** {answer}", ""]
    if spec.notes.strip():
        lines += [spec.notes.strip(), ""]
    rules = Rules(**{**spec.rules, "players": spec.players})
    lines += ["## Setup", "",
              f"- Strategies ({t.height}): " + ", ".join(f"`{s}`" for s in spec.strategies),
              f"- Players: {spec.players}; rules: {_rules_text(rules, exclude=('players',))}; seed: {spec.seed}",
              f"- A round-robin tournament (`idiotsim.tournament`): every table of {spec.players} distinct "
              "strategies, each deal replayed with the seats rotated (duplicate deals), cyclic orders balanced; "
              "intervals are cluster-robust over blocks of deals (`idiotsim.summary`).", "",
              "## Ranking", "",
              "| rank | strategy | seat-games | mean place (95% CI) | win rate | Idiot rate "
              "| gap to the next (95% CI) |",
              "|---|---|---|---|---|---|---|"]
    gaps = {r["better"]: r for r in diffs.iter_rows(named=True)}
    for r in t.iter_rows(named=True):
        g = gaps.get(r["strategy"])
        gap = "" if g is None else (fmt_ci(g["difference"], g["lo"], g["hi"]) + ("" if g["significant"] else " (n.s.)"))
        lines.append(f"| {r['rank']} | `{r['strategy']}` | {r['games']:,} | "
                     f"{fmt_ci(r['mean_place'], r['mean_place_lo'], r['mean_place_hi'])} | {r['win_rate']:.2%} | "
                     f"{r['idiot_rate']:.2%} | {gap} |")
    halves = [(r["mean_place_hi"] - r["mean_place_lo"]) / 2 for r in t.iter_rows(named=True)]
    half = max(halves)
    lines += ["", "## Size", "",
              f"{summary.games:,} games{' (`--quick` check size: not the shipped numbers)' if quick else ''}; "
              + (f"the widest 95% CI half-width of a mean place is {half:.4f}, so mean places that differ by "
                 f"more than about {2 * half:.3f} are told apart (the gaps above have their own paired intervals)."
                 if not math.isnan(half) else "too few blocks for intervals.")
              + _identical_text(spec, t), "",
              f"Full summary (head to head, seats, game length, plots): [{spec.name}/summary.md]"
              f"({spec.name}/summary.md).",
              "", f"![mean place]({spec.name}/mean_place.png)", "",
              f"Numbers: [{spec.name}.csv]({spec.name}.csv). Spec: [{spec.name}.toml]({spec.name}.toml). "
              f"Regenerate: `idiotsim report reports/{spec.name}.toml`.", ""]
    return "\n".join(lines), answer


def _identical_text(spec: Spec, table) -> str:
    """Strategies with the same family and knob values play identically: built-in A/A controls."""
    from idiotsim.strategy_api import load_strategy
    groups: dict = {}
    for name in spec.strategies:
        s = load_strategy(name)
        groups.setdefault((s.strategy.name, tuple(s.params.tolist())), []).append(name)
    means = dict(zip(table["strategy"].to_list(), table["mean_place"].to_list()))
    parts = []
    for members in groups.values():
        if len(members) > 1 and all(m in means for m in members):
            vals = [means[m] for m in members]
            parts.append(f"{', '.join(f'`{m}`' for m in members)} (mean places {min(vals):.4f} to {max(vals):.4f})")
    if not parts:
        return ""
    return (" Some entries are the same player under two names (same family and knob values), built-in A/A "
            "controls whose spread shows the noise: " + "; ".join(parts) + ".")


def leaderboard_csv(summary) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    cols = summary.strategies.columns
    w.writerow(cols)
    for r in summary.strategies.iter_rows():
        w.writerow([_csv_value(v) for v in r])
    return buf.getvalue()


# ---- writing --------------------------------------------------------------------------------

@dataclass
class Written:
    spec: Spec
    answer: str
    files: list
    games: int


def write_report(spec: Spec, out_dir=None, games: int | None = None, quick: bool = False,
                 precision: float | None = None, progress=None, cluster=None) -> Written:
    """Play `spec` and write NAME.md, NAME.csv and NAME.png into out_dir (default: the spec's folder)."""
    out = Path(out_dir) if out_dir is not None else Path(spec.path).parent
    out.mkdir(parents=True, exist_ok=True)
    md, csv_path, png = out / f"{spec.name}.md", out / f"{spec.name}.csv", out / f"{spec.name}.png"
    if spec.design == "tournament":
        if precision is not None:
            print(f"note: --precision does not apply to the tournament spec {spec.path}; it plays its size",
                  file=sys.stderr)
        summary = run_leaderboard(spec, out, games, quick, cluster)
        text, answer = leaderboard_markdown(spec, summary, quick)
        _write_text(md, text)
        _write_text(csv_path, leaderboard_csv(summary))
        return Written(spec, answer, [md, csv_path, out / spec.name], summary.games)
    run = run_experiment(spec, games, precision, quick, progress, cluster)
    results = analyse(run)
    for r in results:
        r["alpha"] = run.alpha if run.precision is not None else None
    plot(spec, results, png)
    _write_text(md, markdown(spec, run, results, png.name))
    _write_text(csv_path, csv_text(spec, results))
    return Written(spec, headline(spec, results), [md, csv_path, png], sum(r["games"] for r in results))


def _write_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def index_markdown(written: list[Written]) -> str:
    lines = ["# Reports: questions answered with evidence", "",
             "Each report is generated from the TOML spec of the same name by `idiotsim report reports/NAME.toml`; "
             "`idiotsim report --all` regenerates every report and this index. A report holds the question, the "
             "setup, the numbers with 95% confidence intervals, the answer in one sentence, the size and why it "
             "is enough, a plot and a CSV of the numbers.", "",
             "Design (see `idiotsim/experiment.py`): treatment and control play the same deals with the same "
             "opponents and the same random draws, the focal seat rotating over every seat; the answer is the "
             "paired difference of the focal player's place (negative = better), clustered by deal. Seat questions "
             "rotate the dealt cards over the seats instead.", "",
             "| report | question | answer | games |", "|---|---|---|---|"]
    for w in written:
        q = w.spec.question.strip().replace("|", "\\|").replace("\n", " ")
        a = w.answer.replace("|", "\\|")
        lines.append(f"| [{w.spec.title}]({w.spec.name}.md) | {q} | {a} | {w.games:,} |")
    lines += ["", "## Spec format", "", SPEC_HELP.strip(), ""]
    return "\n".join(lines)


SPEC_HELP = """
A spec is a TOML file; unknown or missing fields are errors naming the field and the file.

| field | designs | meaning |
|---|---|---|
| `title` | all | title of the report (default: the file name) |
| `question` | all | the question in words (required) |
| `design` | all | `paired` (default), `seats` or `tournament` |
| `players` | all | players at the table (required) |
| `games` | all | games per setting (required; rounded up to whole deals: 2 x players games a deal for `paired`, players games a deal for `seats`; tournament: rounded up to whole blocks) |
| `seed` | all | run seed (required) |
| `[rules]` | all | RULES.md fields (`low_rank`, `lowest_starts`, `decks`, ...), canonical when absent |
| `notes` | all | a paragraph shown under the answer |
| `treatment`, `control` | paired | strategy specs with knobs, e.g. `heuristic:swap=2` (required) |
| `treatment_label`, `control_label` | paired | words for the answer sentence |
| `opponents` | paired | list of strategy specs filling the other seats, cycling (required) |
| `streams` | paired | `shared` (default: both arms draw the same random numbers) or `independent` |
| `strategy` | seats | the strategy in every seat (required) |
| `strategies` | tournament | list of strategy specs, or `"all"` for every shipped strategy and preset |
| `[sweep]` | paired, seats | `knob = NAME` (a knob of the treatment / strategy) or `rule = NAME`, with `values = [...]`; optional `[sweep.series]` (`knob` or `rule`, `values`) for a second dimension drawn as separate lines; or `[[sweep.variants]]` tables with `label` and optional `rules = {...}` (players allowed here), `knobs = {...}` (treatment knobs) and `opponents` (paired) or `strategy` (seats) |
"""


def spec_paths(folder) -> list[Path]:
    return sorted(Path(folder).glob("*.toml"))


def write_all(folder, out_dir=None, games=None, quick=False, precision=None, log=None, cluster=None) -> list[Written]:
    """Regenerate every spec in `folder` and the index README.md."""
    specs = [load_spec(p) for p in spec_paths(folder)]
    if not specs:
        raise UserError(f"{folder} holds no experiment spec (*.toml)")
    written = []
    for spec in specs:
        w = write_report(spec, out_dir if out_dir is not None else folder, games, quick, precision, cluster=cluster)
        written.append(w)
        if log:
            log(w)
    out = Path(out_dir) if out_dir is not None else Path(folder)
    _write_text(out / "README.md", index_markdown(written))
    return written
