"""Loading strategies: the registry of shipped families and presets, spec strings
(``name:knob=v``, ``path/file.py:NAME``, a preset file ``path/best.toml``) and descriptions.

Any spec may end in constraints (``idiotsim.strategies.constraints``): ``learned-search-4p+up=10+pickup=never``
plays that strategy restricted to the moves the constraints allow (`constrain`).

A preset file (``idiotsim optimize`` writes one as ``best.toml``) names a family
and its knob values; every knob not listed keeps the family's default::

    family = "weighted"
    [knobs]
    strength = -0.83
    pickup = -5.5

Strategies are written with ``idiotsim.strategies.toolkit`` (which never imports this
module: this module imports the shipped families through the registry, and they import
only the toolkit). A shipped name imports its own family's module only
(``idiotsim.strategies.registry``). A strategy file imports both through the facade
``idiotsim.strategy_api``.
"""
from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import math
import os
import re
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from idiotsim.errors import UserError
from idiotsim.game.strategy_faults import compile_error
from idiotsim.strategies.constraints import Constraints, constrained_move, parse_constraints, split_constraints
from idiotsim.strategies.registry import STRATEGIES
from idiotsim.strategies.toolkit import SIG, Knob, Strategy, compiled


# ---- metadata and loading ------------------------------------------------

@dataclass(frozen=True)
class SeatStrategy:
    """A strategy with its knob values (and constraints), as one seat plays it."""
    label: str
    strategy: Strategy
    params: np.ndarray
    constraints: Constraints | None = None  # None: unconstrained

    @property
    def decide(self):
        return self.strategy.decide


def _parse_knobs(strategy: Strategy, text: str) -> dict:
    known = {k.name: k for k in strategy.knobs}
    values = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        name, equals, raw = item.partition("=")
        if name not in known:
            valid = ", ".join(known) or "none"
            raise UserError(f"strategy {strategy.name} has no knob {name!r}; its knobs: {valid}")
        if not equals:
            raise UserError(f"knob {strategy.name}:{name} needs a value: {name}=V")
        knob = known[name]
        try:
            value = float(raw)
        except ValueError:
            raise UserError(f"knob {strategy.name}:{name} takes a number, got {raw!r}") from None
        if not math.isfinite(value):
            raise UserError(f"knob {strategy.name}:{name} takes a finite number, got {raw!r}")
        if knob.integer and value != int(value):
            raise UserError(f"knob {strategy.name}:{name} takes an integer, got {raw!r}")
        if not knob.low <= value <= knob.high:
            raise UserError(f"knob {strategy.name}:{name}={raw} is out of range {knob.low:g}..{knob.high:g}")
        values[name] = value
    return values


def _load_from_file(path: str, name: str) -> Strategy:
    if not os.path.isfile(path):
        raise UserError(f"strategy file {path} does not exist")
    try:
        module = _module_of_file(path)
    except Exception as e:  # a user's file may fail in any way; report it in one line
        raise UserError(f"cannot load strategy file {path}: {type(e).__name__}: {e}") from None
    obj = getattr(module, name, None)
    if not isinstance(obj, Strategy):
        raise UserError(f"{path} defines no Strategy named {name!r}")
    if not hasattr(obj.decide, "signatures") or (
            obj.decide.signatures and not any(tuple(s) == tuple(SIG.args) for s in obj.decide.signatures)):
        raise UserError(f"strategy {name!r} in {path}: decide must be compiled with "
                        "@strategy_function (or numba.njit(SIG)) from idiotsim.strategy_api")
    return obj


def _file_without_name(path: str) -> str:
    """The error of a spec that names a strategy file but not the Strategy in it, with the names it defines."""
    if not os.path.isfile(path):
        return f"strategy file {path} does not exist"
    try:
        names = [name for name, value in vars(_module_of_file(path)).items() if isinstance(value, Strategy)]
    except Exception:  # noqa: BLE001 - the file loads with its own error once it is named properly
        names = []
    defined = f" ({path} defines {', '.join(names)})" if names else ""
    return f"strategy file {path}: give the Strategy in it as FILE.py:NAME, e.g. {path}:{(names or ['NAME'])[0]}" \
           f"{defined}"


def _module_of_file(path: str):
    """The module of a strategy file. A shipped family's file is imported as its package module: loaded
    under a second name, its functions would share numba's cache entries (keyed by file and function)
    with the package's and reference a module that another process cannot import."""
    shipped = Path(importlib.import_module("idiotsim.strategies").__file__).resolve().parent
    source = Path(path).resolve()
    if source.is_relative_to(shipped):  # a family's module, or a family package's __init__.py
        parts = source.relative_to(shipped).with_suffix("").parts
        return importlib.import_module(".".join(("idiotsim.strategies", *parts[:len(parts) - (parts[-1] == "__init__")])))
    mod_name = "idiotsim_user_" + source.stem
    spec = importlib.util.spec_from_file_location(mod_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module  # numba's cache finds the module again in a later process
    spec.loader.exec_module(module)
    return module


def registry() -> Mapping:
    """Every shipped strategy and preset name -> its family's ``Strategy`` (a family's module is
    imported when one of its names is looked up)."""
    return STRATEGIES


def engine_speed_names() -> list[str]:
    """Every shipped strategy and preset that plays at engine speed (``Strategy.work`` is None): what
    the demo and a leaderboard of ``"all"`` seat. The search players have reports of their own."""
    return sorted(name for name, family in registry().items() if family.work is None)


def _registered(name: str) -> Strategy:
    strategies = registry()
    if name not in strategies:
        raise UserError(f"unknown strategy {name!r}; available: {', '.join(sorted(strategies))}")
    return strategies[name]


def load_strategy(spec: str) -> SeatStrategy:
    """``name``, ``name:knob=v,...``, ``preset``, ``path/to/file.py:name[:knob=v,...]``, a preset
    file ``path/to/best.toml`` or a learned model file ``path/to/model.npz[:knob=v,...]``, each
    optionally followed by constraints (``+up=10+burn=never``, `constrain`)."""
    spec = spec.strip()
    base, suffix = split_constraints(spec)
    if suffix:
        return constrain(load_strategy(base), parse_constraints(suffix, spec), label=spec)
    if spec.endswith(".toml"):
        return load_preset_file(spec)
    if _source_of(spec) is not None:
        return _load_from_source(spec)
    if ".npz" in spec:  # a learned model file (strategies/learned/__init__.py), knobs after a colon
        from idiotsim.strategies.learned import model_file_strategy
        path, _, knob_text = spec.partition(".npz")
        strategy, name, knob_text = model_file_strategy(path + ".npz"), "learned", knob_text.removeprefix(":")
    elif ".py:" in spec:
        path, _, rest = spec.partition(".py:")
        name, _, knob_text = rest.partition(":")
        strategy = _load_from_file(path + ".py", name)
    elif spec.endswith(".py"):
        raise UserError(_file_without_name(spec))
    else:
        name, _, knob_text = spec.partition(":")
        strategy = _registered(name)
    values = dict(strategy.presets.get(name, {}))
    values.update(_parse_knobs(strategy, knob_text))
    if ".py:" in spec:  # a user's function: compiled now, so that a failure is one line, not a traceback
        _compile_users(strategy, spec)  # (a shipped family compiles, or loads from the cache, when it first plays)
    return SeatStrategy(label=spec, strategy=strategy, params=strategy.params(values))


def constrain(seat: SeatStrategy, constraints: Constraints, label: str | None = None) -> SeatStrategy:
    """`seat` restricted to the moves `constraints` allow (``idiotsim.strategies.constraints``): a family that
    reads the block itself (the search, the learned player) gets it in its params after the knobs; any other
    plays its ``constrained_decide`` (or a wrapper compiled now, for a user's file) with the block after its
    params. No constraints give `seat` back (relabelled)."""
    if seat.constraints is not None:
        raise ValueError(f"{seat.label} is constrained already: give every constraint in one spec")
    strategy, params = seat.strategy, np.asarray(seat.params, np.float64)
    label = label or seat.label
    if not constraints:
        return SeatStrategy(label, strategy, params)
    if not hasattr(strategy.decide, "signatures"):
        raise UserError(f"strategy {label!r}: constraints apply to compiled strategies only ({strategy.name} plays "
                        "in Python)")
    block = constraints.block()
    if strategy.reads_constraints:
        at = len(strategy.knobs)
        params = params.copy()
        params[at:at + len(block)] = block
        return SeatStrategy(label, strategy, params, constraints)
    at = len(params)
    decide = strategy.constrained_decide if at == len(strategy.knobs) else None
    if decide is None:
        decide = _wrapped(strategy.decide, at, label)
    wrapped = dataclasses.replace(strategy, decide=decide, constrained_decide=None)
    return SeatStrategy(label, wrapped, np.concatenate([params, block]), constraints)


_WRAPPERS: dict = {}


def _wrapped(decide, at: int, label: str):
    """A user strategy's decision under the constraint block at params[at:], compiled now (not cached: numba
    keys a closure's cache by its cells, which differ in every process)."""
    key = (id(decide), at)
    if key not in _WRAPPERS:
        from numba import njit

        def constrained(obs, hand, params, rng):
            return constrained_move(obs, hand, params, at, decide(obs, hand, params, rng))
        try:
            _WRAPPERS[key] = (decide, compiled(njit(SIG)(constrained)))
        except Exception as e:  # numba's error in any form
            raise compile_error(e, decide.py_func, label, "does not compile with its constraints") from None
    return _WRAPPERS[key][1]


def _compile_users(strategy: Strategy, spec: str) -> None:
    try:
        compiled(strategy.decide)
    except Exception as e:  # numba's error in any form: its cause and the place in the user's file
        raise compile_error(e, strategy.decide.py_func, spec) from None


# Families from other sources: a spec ``SOURCE:NAME[:knob=v,...]`` whose SOURCE an installed package registers as
# an entry point of this group, a function NAME -> Strategy. idiotsim's own: ``openspiel`` (OpenSpiel's bots as
# seats, ``openspiel:ismcts:simulations=1000``, idiotsim.interop.bots), from the optional extra of that name.
SOURCES_GROUP = "idiotsim.strategy_sources"


def strategy_sources() -> dict:
    """Source name -> entry point of every installed strategy source."""
    from importlib.metadata import entry_points
    return {entry.name: entry for entry in entry_points(group=SOURCES_GROUP)}


def _source_of(spec: str):
    """The entry point of the source `spec` names (``SOURCE:NAME...``), or None (a shipped name, a file, ...)."""
    source, colon, _ = spec.partition(":")
    if not colon or source in registry() or "." in source or "/" in source:
        return None
    return strategy_sources().get(source)


def _load_from_source(spec: str) -> SeatStrategy:
    """A family of another source (`SOURCES_GROUP`): only a spec that names one imports it."""
    entry = _source_of(spec)
    try:
        family = entry.load()
    except ImportError as e:
        raise UserError(f"strategy {spec!r} needs {e.name}, which is not installed: "
                        f"pip install 'idiotsim[{entry.name}]'") from None
    name, _, knob_text = spec.partition(":")[2].partition(":")
    strategy = family(name)
    return SeatStrategy(label=spec, strategy=strategy, params=strategy.params(_parse_knobs(strategy, knob_text)))


def is_source_spec(spec: str) -> bool:
    """Does `spec` name a family of another source (``openspiel:ismcts``)?"""
    return _source_of(spec.strip()) is not None


def load_preset_file(path) -> SeatStrategy:
    """A preset file (family and knobs) as a seat strategy labelled with its path."""
    path = str(path)
    family, knobs = read_preset_file(path)
    if ".py:" not in family and family not in registry():
        raise UserError(f"preset file {path} names unknown family {family!r}; available: "
                        f"{', '.join(sorted(registry()))}")
    knob_text = ",".join(f"{name}={value!r}" for name, value in knobs.items())
    strategy = load_strategy(f"{family}:{knob_text}" if knob_text else family)
    return SeatStrategy(path, strategy.strategy, strategy.params)


def read_preset_file(path: str) -> tuple[str, dict]:
    """(family spec, knob values) of a preset file; a file that is not one is a UserError."""
    try:
        data = tomllib.loads(Path(path).read_text())
    except FileNotFoundError:
        raise UserError(f"preset file {path} does not exist") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise UserError(f"cannot read preset file {path}: {e}") from None
    family = data.get("family")
    knobs = data.get("knobs", {})
    if not isinstance(family, str) or not isinstance(knobs, dict):
        raise UserError(f"preset file {path} needs family = \"name\" and a [knobs] table")
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in knobs.values()):
        raise UserError(f"preset file {path}: knob values must be numbers")
    return family, knobs


def family_spec(strategy: Strategy, spec: str) -> str:
    """How a preset file names the family of `spec`: its registry name, else the file spec made
    absolute (or as the preset file `spec` names it)."""
    if registry().get(strategy.name) is strategy:
        return strategy.name
    if spec.strip().endswith(".toml"):
        return read_preset_file(spec.strip())[0]
    path, _, rest = spec.partition(".py:")
    return f"{os.path.abspath(path)}.py:{rest.partition(':')[0]}"


def preset_text(strategy: SeatStrategy, spec: str, comment_lines=()) -> str:
    """A preset file for `load_preset_file` naming the family of `spec` and every knob value of
    `strategy`, floats written to round-trip exactly."""
    lines = [f"# {line}" for line in comment_lines]
    lines += [f"family = \"{family_spec(strategy.strategy, spec)}\"", "", "[knobs]"]
    for knob, value in zip(strategy.strategy.knobs, strategy.params):
        lines.append(f"{knob.name} = {int(value) if knob.integer else repr(float(value))}")
    return "\n".join(lines) + "\n"


KNOB_ITEM = re.compile(r"\w+=")  # a spec list's item that continues the spec before it: knob=value


def split_specs(text: str) -> list[str]:
    """A comma list of strategy specs. Knobs are separated by commas too, so a
    spec with knobs ends at the next item that is not ``knob=value``."""
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            raise UserError(f"empty strategy name in {text!r}")
        if KNOB_ITEM.match(part) and ":" not in part and specs:
            specs[-1] += "," + part
        elif specs and part in _knob_names(specs[-1]) and part not in registry():
            raise UserError(f"knob {part} of {specs[-1].partition(':')[0]} needs a value: {specs[-1]},{part}=V")
        else:
            specs.append(part)
    return specs


def _knob_names(spec: str) -> set:
    """The knob names of a spec's registered family (none for a file or another source)."""
    family = registry().get(spec.partition(":")[0].partition("+")[0])
    return {knob.name for knob in family.knobs} if family is not None else set()


def load_strategies(text: str, players: int) -> list[SeatStrategy]:
    """A comma list of strategy specs, one per seat; one name means every seat plays it."""
    specs = split_specs(text)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise UserError(f"{players} players need 1 or {players} strategies, got {len(specs)}: {text}")
    return [load_strategy(s) for s in specs]


# ---- descriptions ---------------------------------------------------------

@dataclass(frozen=True)
class KnobSetting:
    """A knob as a strategy or preset sets it: ``value`` is the family default unless the preset
    changes it (``changed``)."""
    name: str
    value: float
    default: float
    low: float
    high: float
    integer: bool
    doc: str
    changed: bool


@dataclass(frozen=True)
class StrategyInfo:
    """What ``idiotsim strategies`` shows of one registered name.

    ``summary``: one line, what it does (a preset's own summary for a preset).
    ``preset_of``: the family a preset belongs to, None for a family.
    ``changes``: for a preset, the knob values it sets, in the family's knob order.
    ``knobs``: every knob with its value under this name."""
    name: str
    family: str
    summary: str
    preset_of: str | None
    changes: dict
    knobs: tuple
    stochastic: bool
    counts_cards: bool
    looks_at: tuple
    presets: tuple = ()  # a family's presets
    fair: bool = True  # False: sees hidden cards (experiments only)

    def changes_text(self) -> str:
        """``swap=0, burn_min=1``: the knobs a preset sets; empty for a family."""
        return ", ".join(f"{k}={v:g}" for k, v in self.changes.items())


def describe(name: str, strategy: Strategy | None = None) -> StrategyInfo:
    """The description of a registered strategy or preset (UserError for an unknown name), or of
    `strategy` itself (a strategy loaded from a file) when given."""
    strategy = strategy or _registered(name)
    preset = strategy.presets.get(name, {})
    changes = {k.name: float(preset[k.name]) for k in strategy.knobs if k.name in preset}
    knobs = tuple(KnobSetting(k.name, changes.get(k.name, float(k.default)), float(k.default), float(k.low),
                              float(k.high), k.integer, k.doc, k.name in changes) for k in strategy.knobs)
    is_preset = name != strategy.name
    summary = (getattr(preset, "summary", "") or strategy.description) if is_preset else strategy.description
    return StrategyInfo(
        name=name, family=strategy.name, summary=summary,
        preset_of=strategy.name if is_preset else None, changes=changes, knobs=knobs,
        stochastic=strategy.stochastic, counts_cards=strategy.counts_cards, looks_at=tuple(strategy.looks_at),
        presets=() if is_preset else tuple(strategy.presets), fair=strategy.fair)


UNFAIR_MARK = "*"  # marks a player that sees hidden cards in tables
UNFAIR_NOTE = "\\* not a fair player: it sees hidden cards (an upper bound, for experiments only)"


def is_fair_label(label: str) -> bool:
    """False when a table's strategy label (``name[:knobs][#k]``, as tournaments write it) names a shipped
    family that sees hidden cards (``Strategy.fair``); True for every other label."""
    family = registry().get(label.strip().partition(":")[0].partition("#")[0])
    return family is None or family.fair
