"""What an optimisation run is: its configuration, the checked problem it defines, and
the strategy specs it accepts (names, ``name:knob=v``, file specs, ``best.toml`` presets).

A preset file (``best.toml``) names a family and its knob values::

    family = "weighted"
    [knobs]
    strength = -0.83
    pickup = -5.5

``load_preset_file`` turns it into a strategy a seat can play; every knob not
listed keeps the family's default.
"""
from __future__ import annotations

import math
import os
import tomllib
from dataclasses import asdict, dataclass
from dataclasses import field as dataclass_field
from pathlib import Path

import numpy as np

from idiotsim import __version__
from idiotsim.engine import MAX_STRATEGIES
from idiotsim.errors import UserError
from idiotsim.rules import Rules
from idiotsim.strategy_api import SeatStrategy, Strategy, load_strategy, registry

CONTROL = "basic"  # a comparator of every validation


@dataclass(frozen=True)
class OptimizeConfig:
    """One optimisation run. ``games_per_eval`` is rounded up to whole deals (one game per seat)."""
    strategy: str  # the family to tune; its knob values in the spec are the starting point
    players: int = 4
    field: tuple = (CONTROL,)  # the other seats (cycled); field[0] is also the control at the focal seat
    seed: int = 1
    knobs: tuple = ()  # the knobs to tune (default: all of the family's)
    games_per_eval: int = 20_000  # games per candidate per generation
    generations: int = 40
    budget: int | None = None  # at most this many search games (every arm of a generation counts)
    population: int | None = None  # CMA-ES lambda (default 4 + 3 ln(knobs))
    sigma: float = 0.2  # initial step, as a share of each knob's range
    finalists: int = 8  # the final distribution mean and those of the last finalists - 1 generations ...
    selection_games: int = 40_000  # ... replayed on fresh deals this many games each; the best is best.toml
    validation_games: int = 200_000  # games per comparator on held-out deals (0: no validation)
    sensitivity_games: int = 100_000  # games per reset knob or group (0: no sensitivity table)
    # R20 for the search games only (0: the rules' limit). Candidates far from good play can
    # cycle (two players passing the same cards round); each such game would otherwise play the
    # full 10,000 actions, 100 normal games' work. Validation and sensitivity use the rules as given.
    search_action_limit: int = 1_000
    rules: dict = dataclass_field(default_factory=dict)

    def as_json(self) -> dict:
        return {**asdict(self), "field": list(self.field), "knobs": list(self.knobs), "version": __version__}


@dataclass
class Problem:
    """A checked configuration: loaded strategies and the knobs under search."""
    config: OptimizeConfig
    rules: Rules
    start: SeatStrategy
    field: list  # SeatStrategy per field spec
    knob_index: list  # indices into start.params of the searched knobs
    deals_per_eval: int
    population: int

    @property
    def search_rules(self) -> Rules:
        limit = self.config.search_action_limit
        return self.rules if limit == 0 else self.rules.replace(action_limit=min(limit, self.rules.action_limit))

    @property
    def family(self) -> Strategy:
        return self.start.strategy

    @property
    def knobs(self) -> list:
        return [self.family.knobs[i] for i in self.knob_index]

    @property
    def control(self) -> SeatStrategy:
        return self.field[0]

    @property
    def games_per_generation(self) -> int:
        """Every candidate, the distribution mean and the control play the generation's deals in every seat."""
        return (self.population + 2) * self.deals_per_eval * self.config.players

    @property
    def generations(self) -> int:
        """The generations that fit in the budget."""
        if self.config.budget is None:
            return self.config.generations
        return min(self.config.generations, self.config.budget // self.games_per_generation)

    def with_knobs(self, values, label: str) -> SeatStrategy:
        """The starting point with the searched knobs set to `values` (clipped; integer knobs rounded)."""
        params = self.start.params.copy()
        for i, knob, value in zip(self.knob_index, self.knobs, values):
            value = min(max(float(value), knob.low), knob.high)
            params[i] = round(value) if knob.integer else value
        return SeatStrategy(label, self.family, params)

    def knob_values(self, strategy: SeatStrategy) -> dict:
        return {knob.name: float(strategy.params[i]) for i, knob in zip(self.knob_index, self.knobs)}


def extra_families() -> dict:
    """Families this module can tune before they are registered in ``idiotsim.strategies``."""
    from idiotsim.strategies.weighted import WEIGHTED
    return {WEIGHTED.name: WEIGHTED}


def families() -> dict:
    return {**extra_families(), **registry()}


def load_spec(spec: str) -> SeatStrategy:
    """A strategy spec as ``load_strategy`` takes it, or a preset file ``path/best.toml``."""
    spec = spec.strip()
    if spec.endswith(".toml"):
        return load_preset_file(spec)
    name, _, knob_text = spec.partition(":")
    if ".py:" not in spec and name not in registry() and name in extra_families():
        from idiotsim.strategy_api import _parse_knobs, compiled  # the registry's knob parser, for one more family
        family = extra_families()[name]
        compiled(family.decide)
        return SeatStrategy(spec, family, family.params(_parse_knobs(family, knob_text)))
    return load_strategy(spec)


def family_spec(strategy: Strategy, spec: str) -> str:
    """How a preset file names the family of `spec`: its registry name, else the file spec made
    absolute (or as the preset file `spec` names it)."""
    if families().get(strategy.name) is strategy:
        return strategy.name
    if spec.endswith(".toml"):
        return tomllib.loads(Path(spec).read_text())["family"]
    path, _, rest = spec.partition(".py:")
    return f"{os.path.abspath(path)}.py:{rest.partition(':')[0]}"


def load_preset_file(path) -> SeatStrategy:
    """A ``best.toml`` (family and knobs) as a seat strategy labelled with its path."""
    path = str(path)
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
    if ".py:" not in family and family not in families():
        raise UserError(f"preset file {path} names unknown family {family!r}; available: "
                        f"{', '.join(sorted(families()))}")
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in knobs.values()):
        raise UserError(f"preset file {path}: knob values must be numbers")
    knob_text = ",".join(f"{name}={value!r}" for name, value in knobs.items())
    strategy = load_spec(f"{family}:{knob_text}" if knob_text else family)
    return SeatStrategy(path, strategy.strategy, strategy.params)


def preset_text(strategy: SeatStrategy, spec: str, comment_lines=()) -> str:
    """A preset file for `load_preset_file` naming the family of `spec` and every knob value of
    `strategy`, floats written to round-trip exactly."""
    lines = [f"# {line}" for line in comment_lines]
    lines += [f"family = \"{family_spec(strategy.strategy, spec)}\"", "", "[knobs]"]
    for knob, value in zip(strategy.strategy.knobs, strategy.params):
        lines.append(f"{knob.name} = {int(value) if knob.integer else repr(float(value))}")
    return "\n".join(lines) + "\n"


# ---- checking a configuration -----------------------------------------------------

def _positive(name: str, value, minimum: int = 1) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise UserError(f"{name} must be an integer >= {minimum}, got {value!r}")


def validate_config(config: OptimizeConfig) -> Problem:
    """Check everything before anything is written; a mistake is one ``UserError`` line."""
    try:
        rules = Rules(**{**config.rules, "players": config.players})
    except (TypeError, ValueError) as e:
        raise UserError(f"bad rules: {e}") from None
    start = load_spec(config.strategy)
    if not start.strategy.knobs:
        raise UserError(f"strategy {start.strategy.name} has no knobs to optimise")
    names = [k.name for k in start.strategy.knobs]
    chosen = list(config.knobs) or names
    unknown = [k for k in chosen if k not in names]
    if unknown:
        raise UserError(f"strategy {start.strategy.name} has no knob {unknown[0]!r}; its knobs: {', '.join(names)}")
    if len(set(chosen)) != len(chosen):
        raise UserError(f"--knobs names a knob twice: {', '.join(chosen)}")
    if not config.field:
        raise UserError("--field needs at least one strategy")
    field = [load_spec(spec) for spec in config.field]
    _positive("--games-per-eval", config.games_per_eval)
    _positive("--generations", config.generations)
    _positive("--finalists", config.finalists)
    _positive("--selection-games", config.selection_games)
    _positive("--validation-games", config.validation_games, 0)
    _positive("--sensitivity-games", config.sensitivity_games, 0)
    _positive("--search-action-limit", config.search_action_limit, 0)
    if config.population is not None:
        _positive("--population", config.population, 2)
    if not (isinstance(config.sigma, (int, float)) and 0 < config.sigma <= 1):
        raise UserError(f"--sigma must be in (0, 1] (a share of each knob's range), got {config.sigma!r}")
    if len({params_key(s) for s in field}) > MAX_STRATEGIES - 2:
        raise UserError(f"--field may hold at most {MAX_STRATEGIES - 2} distinct strategies")
    population = config.population or 4 + int(3 * math.log(len(chosen)))
    problem = Problem(config, rules, start, field, [names.index(k) for k in chosen],
                      deals_per_eval=math.ceil(config.games_per_eval / config.players), population=population)
    if config.budget is not None:
        _positive("--budget", config.budget)
        if config.budget < problem.games_per_generation:
            raise UserError(f"--budget {config.budget} is less than one generation "
                            f"({problem.games_per_generation} games: {population} candidates, the mean and the "
                            f"control, {problem.deals_per_eval * config.players} games each)")
    return problem


def params_key(strategy: SeatStrategy) -> tuple:
    return id(strategy.decide), np.asarray(strategy.params).tobytes()
