"""After the search, on deals it never saw: which candidate is best, how it compares, and which
knobs matter.

- Selection: the final distribution mean, the distribution means of the
  last generations (the search's estimate of the optimum drifts with the
  noise) and the starting point, replayed against the control on fresh
  deals; the lowest paired difference is the best (``best.toml``).

- Validation: the best candidate against the starting point, `basic`, the
  control and every shipped preset, all at the focal seat of the same tables
  (``paired``). Paired differences in mean place (best minus comparator;
  negative = the best places better) with Holm-adjusted 95% CIs and p-values.
- Sensitivity: the best candidate with one searched knob (or one group of a
  family's ``GROUPS``) reset to its starting value; the paired cost in mean
  place of the reset (reset minus best; positive = the knob's tuned value
  helps), with 95% CIs. Only knobs that moved are reset.
"""
from __future__ import annotations

import sys

import numpy as np

from idiotsim.optimize.config import CONTROL, Problem, params_key
from idiotsim.optimize.cmaes import MEAN, knob_columns
from idiotsim.optimize.paired_arms import (SELECTION_DEALS, SENSITIVITY_DEALS, VALIDATION_DEALS, deals_for, focal_places,
                                     paired)
from idiotsim.analysis.stats import holm, holm_interval_alphas
from idiotsim.strategies.loading import SeatStrategy, load_strategy, registry


def finalists(problem: Problem, rows: list, final_mean: list) -> list[tuple[str, SeatStrategy]]:
    """The final distribution mean, the evaluated means of the last generations (newest first) and
    the starting point, so that a search that lost its way cannot end worse than it began."""
    names = [f"knob_{k.name}" for k in problem.knobs]
    means = [r for r in rows if r["candidate"] == MEAN][::-1][:problem.config.finalists - 1]
    named = [("final mean", problem.with_knobs(final_mean, "final mean"))]
    named += [(f"mean of generation {r['generation']}", problem.with_knobs([r[n] for n in names], "mean"))
              for r in means]
    if all(params_key(s) != params_key(problem.start) for _, s in named):
        named.append(("start", problem.start))
    return named


def selection(problem: Problem, rows: list, final_mean: list) -> tuple[SeatStrategy, list[dict]]:
    """The best finalist on fresh deals against the control, and every finalist's row."""
    config = problem.config
    named = finalists(problem, rows, final_mean)
    deals = SELECTION_DEALS + np.arange(deals_for(config.selection_games, config.players), dtype=np.int64)
    places = focal_places(problem.search_rules, [problem.control] + [s for _, s in named], problem.field,
                          config.seed, deals, problem.executor)
    table = []
    for (label, strategy), arm_places in zip(named, places[1:]):
        stats = paired(arm_places, places[0])
        table.append({"finalist": label, **knob_columns(problem, strategy),
                      "games": int(arm_places.size), "diff": stats["diff"], "diff_lo": stats["lo"],
                      "diff_hi": stats["hi"]})
    best = min(range(len(named)), key=lambda i: table[i]["diff"])  # ties: the newer
    return SeatStrategy("best", problem.family, named[best][1].params), table


def comparators(problem: Problem) -> list[tuple[str, SeatStrategy]]:
    """(label, strategy) for the start, basic, the control and every shipped preset; strategies
    that play identically (same function and knobs) are one row listing every name."""
    named = [(f"start ({problem.config.strategy})", problem.start), (CONTROL, load_strategy(CONTROL)),
             (f"field ({problem.config.field[0]})", problem.control)]
    named += [(name, load_strategy(name)) for name, family in sorted(registry().items()) if name in family.presets]
    labels: dict = {}
    strategies: dict = {}
    for label, strategy in named:
        key = params_key(strategy)
        strategies.setdefault(key, strategy)
        labels.setdefault(key, [])
        if label not in labels[key]:
            labels[key].append(label)
    return [(" = ".join(labels[key]), strategies[key]) for key in labels]


def validation(problem: Problem, best: SeatStrategy) -> list[dict]:
    config = problem.config
    if config.validation_games == 0:
        return []
    named = comparators(problem)
    deals = VALIDATION_DEALS + np.arange(deals_for(config.validation_games, config.players), dtype=np.int64)
    places = focal_places(problem.rules, [best] + [s for _, s in named], problem.field, config.seed, deals,
                          problem.executor)
    raw = [paired(places[0], places[i + 1]) for i in range(len(named))]
    p_values = [r["p"] for r in raw]
    adjusted, levels = holm(p_values), holm_interval_alphas(p_values)
    rows = []
    for i, (label, _) in enumerate(named):
        ci = paired(places[0], places[i + 1], level_alpha=levels[i])
        rows.append({"comparator": label, "games": int(places[0].size), "best_place": float(places[0].mean()),
                     "comparator_place": float(places[i + 1].mean()), "diff": ci["diff"],
                     "diff_lo": ci["lo"], "diff_hi": ci["hi"], "p_holm": adjusted[i],
                     "significant": bool(ci["hi"] < 0 or ci["lo"] > 0)})
    return rows


def knob_groups(problem: Problem) -> dict:
    """The family module's GROUPS (name -> knob names), restricted to the searched knobs."""
    module = sys.modules.get(getattr(problem.family.decide, "py_func", problem.family.decide).__module__)
    searched = {k.name for k in problem.knobs}
    groups = {}
    for name, members in getattr(module, "GROUPS", {}).items():
        kept = tuple(m for m in members if m in searched)
        if len(kept) >= 2:
            groups[name] = kept
    return groups


def resets(problem: Problem, best: SeatStrategy) -> list[tuple[str, str, SeatStrategy]]:
    """(kind, name, best with it reset to the start) for every moved knob and group."""
    start = problem.knob_values(problem.start)
    tuned = problem.knob_values(best)
    moved = [k for k in start if tuned[k] != start[k]]
    out = []
    for kind, name, members in ([("knob", k, (k,)) for k in moved]
                                + [("group", g, m) for g, m in knob_groups(problem).items()]):
        if any(tuned[k] != start[k] for k in members):
            values = [start[k] if k in members else tuned[k] for k in tuned]
            out.append((kind, name, problem.with_knobs(values, f"reset {name}")))
    return out


def sensitivity(problem: Problem, best: SeatStrategy) -> list[dict]:
    config = problem.config
    arms = resets(problem, best)
    if config.sensitivity_games == 0 or not arms:
        return []
    deals = SENSITIVITY_DEALS + np.arange(deals_for(config.sensitivity_games, config.players), dtype=np.int64)
    places = focal_places(problem.rules, [best] + [s for _, _, s in arms], problem.field, config.seed, deals,
                          problem.executor)
    rows = []
    for i, (kind, name, _) in enumerate(arms):
        cost = paired(places[i + 1], places[0])
        rows.append({"kind": kind, "name": name, "games": int(places[0].size), "cost": cost["diff"],
                     "cost_lo": cost["lo"], "cost_hi": cost["hi"], "p": cost["p"]})
    return rows
