"""What an optimisation run is: its configuration and the checked problem it defines.

Strategies are any spec ``idiotsim.strategies.loading.load_strategy`` takes (names,
``name:knob=v``, file specs, ``best.toml`` preset files)."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from dataclasses import field as dataclass_field

import numpy as np

from idiotsim import __version__
from idiotsim.engine.batches import MAX_STRATEGIES
from idiotsim.errors import UserError
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import SeatStrategy, load_strategy
from idiotsim.strategies.toolkit import Strategy

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
    executor: object = None  # an idiotsim.runs.chunks executor playing the games (None: here)

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
    start = load_strategy(config.strategy)
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
    field = [load_strategy(spec) for spec in config.field]
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
