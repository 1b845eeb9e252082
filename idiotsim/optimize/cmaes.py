"""The CMA-ES search: one generation at a time, each persisted atomically.

CMA-ES (the ``cma`` package) works in knob units: bounds are the knobs'
ranges, the initial step is ``sigma`` times each range (``CMA_stds``) and
integer knobs are ``integer_variables`` (cma rounds them). Integer knobs get
two more things, because many of them are switches and thresholds whose best
value is an end of the range (heuristic's ``pickup_max`` 0 = never, ``burn_min``
104 = never, ``save_twos`` 0 or 1):

- a step never below ``INTEGER_FIRST_STEP`` at the start nor
  ``INTEGER_MIN_STEP`` later (``minstd``). cma's own floor for integer
  variables (0.2 units) is made for noise-free problems: with it a two-valued
  knob moves in about one sample in a hundred, too rarely for a noisy ranking
  to notice, and the search stays at its start;
- bounds one initial step beyond each end of the range (the candidates are
  clipped to the range when played). With the range itself as cma's bounds, a
  sample past an end is reflected back inside: started at an end with a step
  of a fifth of the range, nearly every sample of ``pickup_max`` picks up
  (costing up to 0.15 places), those costs dominate the ranking and the
  other knobs' small effects are lost. With the margin the distribution can
  move past the end, where its samples play the end value.

Each generation samples ``population`` candidates; they, the distribution
mean and the control (field[0]) play the generation's fresh deals at the
focal seat (see ``paired``). A candidate's fitness is its paired difference in mean place to
the control (lower is better).

Resuming: after generation g the folder's ``.search/gen-<g>.pkl`` holds the
generation's evaluation rows and the pickled optimiser, written to a
temporary name and renamed. The numpy random state cma draws from is seeded
from (seed, generation) before every call into cma, so a resumed run asks
exactly the candidates an uninterrupted one does.
"""
from __future__ import annotations

import contextlib
import pickle
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from idiotsim.runs.atomic_files import remove_temporaries, write_atomic
from idiotsim.optimize.config import Problem
from idiotsim.optimize.paired_arms import focal_places, paired

STATE_DIR = ".search"
MEAN = -1  # the candidate number of the distribution mean in the evaluations
INTEGER_FIRST_STEP = 0.5  # knob units: a sample moves an integer knob by >= 1 with probability 0.32
INTEGER_MIN_STEP = 0.3  # ... and later with probability >= 0.096, so no integer knob freezes


@dataclass(frozen=True)
class OptimizeProgress:
    """What a progress display shows: the phase, finished generations and the best so far."""
    phase: str  # "search", "selection", "validation", "sensitivity" or "done"
    generation: int  # finished generations
    generations: int
    games: int  # search games played
    best_diff: float | None = None  # the lowest paired difference measured so far (a candidate or a mean)
    best_lo: float | None = None
    best_hi: float | None = None
    best_knobs: dict | None = None


@contextlib.contextmanager
def numpy_seeded(seed: int, generation: int):
    """cma draws from numpy's global generator: seed it from (seed, generation) for one step
    (generation -1: the optimiser's creation), then restore it."""
    saved = np.random.get_state()
    np.random.seed(np.random.SeedSequence([seed % 2 ** 64, generation + 1]).generate_state(1)[0])
    try:
        yield
    finally:
        np.random.set_state(saved)


def global_randn(*shape):
    """cma's normal draws, always from numpy's global generator (its default, ``np.random.randn``,
    would be pickled with a copy of the generator and draw from that copy after a resume)."""
    return np.random.randn(*shape)


def step_scales(knobs, sigma: float) -> list:
    """``CMA_stds``: each knob's initial step divided by ``sigma``: its range, for an integer knob
    at least ``INTEGER_FIRST_STEP / sigma``."""
    return [max(k.high - k.low, INTEGER_FIRST_STEP / sigma) if k.integer else k.high - k.low for k in knobs]


def cma_options(knobs, sigma: float, population: int) -> dict:
    """Options of ``cma.CMAEvolutionStrategy(x0, sigma, options)`` for these knobs."""
    scales = step_scales(knobs, sigma)
    margins = [sigma * scale if k.integer else 0.0 for k, scale in zip(knobs, scales)]
    return {
        "bounds": [[k.low - m for k, m in zip(knobs, margins)], [k.high + m for k, m in zip(knobs, margins)]],
        "CMA_stds": scales,
        "integer_variables": [i for i, k in enumerate(knobs) if k.integer],
        "minstd": [INTEGER_MIN_STEP if k.integer else 0.0 for k in knobs],
        "popsize": population,
        "randn": global_randn, "verbose": -9, "verb_log": 0, "verb_disp": 0,
        "tolfun": 0, "tolx": 0, "tolflatfitness": 10 ** 9, "tolstagnation": 10 ** 9,
    }


def new_optimiser(problem: Problem):
    import cma
    options = cma_options(problem.knobs, problem.config.sigma, problem.population)
    x0 = [float(problem.start.params[i]) for i in problem.knob_index]
    with numpy_seeded(problem.config.seed, -1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cma.CMAEvolutionStrategy(x0, problem.config.sigma, options)


def mean_values(optimiser) -> list:
    """The distribution mean in knob units (inside cma's bounds; clipped to the knobs' ranges when played)."""
    return [float(v) for v in optimiser.result.xfavorite]


def search_deals(problem: Problem, generation: int) -> np.ndarray:
    d = problem.deals_per_eval
    return np.arange(generation * d, (generation + 1) * d, dtype=np.int64)


def play_generation(problem: Problem, optimiser, generation: int) -> list:
    """Ask, play and tell one generation; returns its evaluation rows (the mean first)."""
    config = problem.config
    with numpy_seeded(config.seed, generation), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        asked = optimiser.ask()
    arms = [problem.with_knobs(mean_values(optimiser), "mean")]
    arms += [problem.with_knobs(x, f"candidate {i}") for i, x in enumerate(asked)]
    places = focal_places(problem.search_rules, [problem.control] + arms, problem.field, config.seed,
                          search_deals(problem, generation), problem.executor)
    rows = []
    for number, (arm, arm_places) in enumerate(zip(arms, places[1:]), start=-1):
        stats = paired(arm_places, places[0])
        rows.append({"generation": generation, "candidate": number, **knob_columns(problem, arm),
                     "games": int(arm_places.size), "mean_place": float(arm_places.mean()),
                     "diff": stats["diff"], "diff_lo": stats["lo"], "diff_hi": stats["hi"]})
    with numpy_seeded(config.seed, generation), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        optimiser.tell(asked, [row["diff"] for row in rows[1:]])
    return rows


def knob_columns(problem: Problem, strategy) -> dict:
    return {f"knob_{name}": value for name, value in problem.knob_values(strategy).items()}


def state_path(out: Path, generation: int) -> Path:
    return out / STATE_DIR / f"gen-{generation:05d}.pkl"


def save_generation(out: Path, generation: int, rows: list, optimiser) -> None:
    state = pickle.dumps({"rows": rows, "optimiser": optimiser})
    write_atomic(state_path(out, generation), lambda tmp: tmp.write_bytes(state))


def load_generation(out: Path, generation: int) -> dict:
    return pickle.loads(state_path(out, generation).read_bytes())


def finished_generations(out: Path, planned: int) -> int:
    """How many generations in a row, from 0, are on disk."""
    g = 0
    while g < planned and state_path(out, g).exists():
        g += 1
    return g


def run_search(problem: Problem, out: Path, progress=None) -> tuple[list, object, int]:
    """Every generation not yet on disk; returns (all evaluation rows, the final optimiser,
    the number of generations played now)."""
    (out / STATE_DIR).mkdir(exist_ok=True)
    remove_temporaries(out / STATE_DIR)  # left by a run killed while writing
    planned = problem.generations
    done = finished_generations(out, planned)
    rows: list = []
    optimiser = new_optimiser(problem)
    for g in range(done):
        state = load_generation(out, g)
        rows += state["rows"]
        optimiser = state["optimiser"]
    report(progress, problem, "search", done, rows)
    for g in range(done, planned):
        generation_rows = play_generation(problem, optimiser, g)
        save_generation(out, g, generation_rows, optimiser)
        rows += generation_rows
        report(progress, problem, "search", g + 1, rows)
    return rows, optimiser, planned - done


def report(progress, problem: Problem, phase: str, generation: int, rows: list) -> None:
    if progress is None:
        return
    knob_names = [k.name for k in problem.knobs]
    best = min(rows, key=lambda r: r["diff"]) if rows else None
    progress(OptimizeProgress(
        phase=phase, generation=generation, generations=problem.generations,
        games=generation * problem.games_per_generation,
        best_diff=best and best["diff"], best_lo=best and best["diff_lo"], best_hi=best and best["diff_hi"],
        best_knobs=best and {k: best[f"knob_{k}"] for k in knob_names}))
