"""`idiotsim.optimize`: CMA-ES on paired common-random-number games.

- Paired play: arms that play alike get a difference of exactly 0; a weak arm a
  clearly positive one; the places are those of the focal seat.
- The search finds the known optimum of a bad starting point (heuristic with
  no swap and high cards early), and validation on held-out deals says so.
- Integer knobs on plateaus (a switch at one end of its range, a never-threshold
  at the other) move and settle; with cma's plain integer handling they did not.
- Outputs: evaluations, best.toml (loadable as a strategy and as a field),
  optimize.md and plots; progress reports after every generation.
- Resume (kill -9, then the same command): tests/optimize/test_optimize_cli.py.
- Bad input: one-line UserError and no folder written.
"""
from __future__ import annotations


import warnings
from pathlib import Path

import cma
import numpy as np
import polars as pl
import pytest

from idiotsim.errors import UserError
from idiotsim.optimize import OptimizeConfig, run_optimize, validate_config
from idiotsim.optimize.overview import Run, decisions_line, overview_markdown
from idiotsim.optimize.overview import main as overview_main
from idiotsim.optimize.paired_arms import focal_places, paired
from idiotsim.optimize.cmaes import cma_options, mean_values, new_optimiser, numpy_seeded
from idiotsim.optimize.validate import selection
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import load_strategy


def test_paired_arms_share_deals_seats_and_draws():
    rules = Rules(players=4)
    basic, rnd = load_strategy("basic"), load_strategy("random")
    deals = np.arange(300, dtype=np.int64)
    places = focal_places(rules, [basic, load_strategy("heuristic"), rnd], [basic], 5, deals)
    assert places.shape == (3, 300, 4)
    same = paired(places[1], places[0])
    assert (same["diff"], same["lo"], same["hi"]) == (0.0, 0.0, 0.0)  # heuristic's defaults are basic
    assert (places[0].mean(axis=0) > 1).all()
    worse = paired(places[2], places[0])
    assert worse["lo"] > 0.5  # random at the focal seat places far worse than basic


def test_paired_arms_beyond_one_engine_batch():
    """More arms than the engine's strategy tuple holds are played in groups on the same deals."""
    rules = Rules(players=3)
    arms = [load_strategy(f"heuristic:burn_min={b % 32}") for b in range(40)]
    places = focal_places(rules, arms, [load_strategy("basic")], 2, np.arange(50, dtype=np.int64))
    assert places.shape == (40, 50, 3)
    assert np.array_equal(places[0], places[32])  # the same knobs in another batch: the same games
    assert not np.array_equal(places[7], places[0])


def small_config(**changes) -> OptimizeConfig:
    fields = dict(strategy="heuristic:swap=0,order=1", players=4, knobs=("swap", "order"), games_per_eval=1200,
                  generations=6, seed=3, selection_games=2000, validation_games=8000, sensitivity_games=4000)
    fields.update(changes)
    return OptimizeConfig(**fields)


def test_search_finds_the_optimum_of_a_bad_start(tmp_path):
    seen = []
    out = run_optimize(small_config(), tmp_path / "opt", progress=seen.append)
    best = load_strategy(str(out / "best.toml"))
    knobs = {k.name: v for k, v in zip(best.strategy.knobs, best.params)}
    assert (knobs["swap"], knobs["order"]) == (1, 0)  # basic's choices: best cards face-up, low cards first
    assert best.label == str(out / "best.toml")
    selection = pl.read_csv(out / "selection.csv").sort("diff")
    assert selection.height == 7 and selection["finalist"][-1] == "mean of generation 0"  # the start: worst
    assert (selection["knob_swap"][0], selection["knob_order"][0]) == (1, 0)
    validation = pl.read_csv(out / "validation.csv")
    start = validation.filter(pl.col("comparator").str.starts_with("start"))
    assert start["diff_hi"][0] < -0.1 and start["significant"][0]
    evaluations = pl.read_parquet(out / "evaluations.parquet")
    assert evaluations.height == 6 * (validate_config(small_config()).population + 1)
    assert {"generation", "candidate", "knob_swap", "knob_order", "games", "diff", "diff_lo", "diff_hi"} <= set(
        evaluations.columns)
    assert (evaluations["diff_lo"] <= evaluations["diff"]).all()
    assert (evaluations["diff"] <= evaluations["diff_hi"]).all()
    assert [p.generation for p in seen if p.phase == "search"] == list(range(7))
    assert [p.phase for p in seen[-4:]] == ["selection", "validation", "sensitivity", "done"]
    start = evaluations.filter((pl.col("generation") == 0) & (pl.col("candidate") == -1))
    assert start["diff_lo"][0] > 0.1  # the start against the control, basic
    last_search = [p for p in seen if p.phase == "search"][-1]
    assert abs(last_search.best_diff) < 0.02  # the best found plays about like basic, the optimum here
    md = (out / "optimize.md").read_text()
    for part in ("## Validation on held-out deals", "## Sensitivity", "convergence.png", "knobs.png",
                 "idiotsim optimize --strategy"):
        assert part in md
    assert all((out / name).stat().st_size > 1000 for name in ("convergence.png", "knobs.png", "sensitivity.png"))
    sensitivity = pl.read_csv(out / "sensitivity.csv")
    assert set(sensitivity["name"]) == {"swap", "order"} and (sensitivity["cost_lo"] > 0).all()
    page = overview_markdown([out], tmp_path / "tuned.md")  # the page over several runs (reports/tuned.md)
    basic = validation.filter(pl.col("comparator").str.contains("basic"))
    assert f"| `heuristic` | 4 | [{out}](opt/optimize.md) | {basic['games'][0]:,} |" in page
    assert f"{basic['diff'][0]:+.4f} [{basic['diff_lo'][0]:+.4f}, {basic['diff_hi'][0]:+.4f}]" in page
    assert "`best-faceup`, `low-early`, `no-early-burn` |" in page  # basic's knobs, shipped under these names
    assert "`swap` (knob)" in page and "idiotsim optimize --strategy heuristic:swap=0,order=1 " in page
    gain = -basic["diff"][0]
    lead = page.splitlines()[2]
    assert (f"at best {gain:.3f} places a game (`heuristic`, 4 players)" in lead if gain > 0 else
            lead.startswith("No tuned policy here beats `basic`"))


def plateau_search(problem, optimiser, generations: int = 15) -> tuple[dict, float]:
    """CMA-ES on a toy of heuristic's landscape: spending 2s (save_twos 0) gains 0.02 places,
    any voluntary pickup (pickup_max > 0) costs 0.1 whatever its size, two_above is flat.
    Returns the rounded final mean and the share of candidates that picked up."""
    picked_up = asked_count = 0
    for g in range(generations):
        with numpy_seeded(problem.config.seed, g), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            asked = optimiser.ask()
        played = [problem.knob_values(problem.with_knobs(x, "candidate")) for x in asked]
        picked_up += sum(v["pickup_max"] > 0 for v in played)
        asked_count += len(played)
        with numpy_seeded(problem.config.seed, g), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            optimiser.tell(asked, [(-0.02 if v["save_twos"] == 0 else 0) + (0.1 if v["pickup_max"] > 0 else 0)
                                   for v in played])
    return problem.knob_values(problem.with_knobs(mean_values(optimiser), "mean")), picked_up / asked_count


def plain_cma_optimiser(problem):
    """What the search did before: the knob ranges as bounds, steps of sigma times each range, cma's
    own floor for integer steps."""
    knobs = problem.knobs
    options = {**cma_options(knobs, problem.config.sigma, problem.population),
               "bounds": [[k.low for k in knobs], [k.high for k in knobs]],
               "CMA_stds": [k.high - k.low for k in knobs], "minstd": 0}
    x0 = [float(problem.start.params[i]) for i in problem.knob_index]
    with numpy_seeded(problem.config.seed, -1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cma.CMAEvolutionStrategy(x0, problem.config.sigma, options)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_integer_knobs_on_plateaus_move_and_settle(seed):
    problem = validate_config(OptimizeConfig(strategy="heuristic", knobs=("save_twos", "pickup_max", "two_above"),
                                             seed=seed))
    mean, pickup_share = plateau_search(problem, new_optimiser(problem))
    assert (mean["save_twos"], mean["pickup_max"]) == (0, 0)
    assert pickup_share < 0.35
    _, plain_pickup_share = plateau_search(problem, plain_cma_optimiser(problem))
    assert plain_pickup_share > 0.8  # reflected at the end of its range, nearly every candidate picked up


def test_a_search_that_lost_its_way_ends_at_the_start():
    """When every distribution mean is worse than the start (here: no swap, high cards first),
    the start is among the finalists and wins the selection."""
    problem = validate_config(small_config(strategy="heuristic", selection_games=4000))
    rows = [{"generation": 0, "candidate": -1, "knob_swap": 0.0, "knob_order": 1.0}]
    best, table = selection(problem, rows, final_mean=[0, 0])
    assert [r["finalist"] for r in table] == ["final mean", "mean of generation 0", "start"]
    assert table[0]["diff_lo"] > 0.05 and table[1]["diff_lo"] > 0.05 and table[2]["diff"] == 0
    assert np.array_equal(best.params, load_strategy("heuristic").params)


def test_best_toml_is_a_strategy_and_a_field(tmp_path):
    preset = tmp_path / "best.toml"
    preset.write_text('family = "heuristic"\n[knobs]\nburn_min = 9\npickup_max = 2\n')
    s = load_strategy(str(preset))
    assert s.label == str(preset) and s.strategy.name == "heuristic"
    assert list(s.params[[2, 6]]) == [9, 2] and s.params[0] == 1  # unlisted knobs keep their defaults
    weighted = tmp_path / "w.toml"
    weighted.write_text('family = "weighted"\n[knobs]\nstrength = -0.5\n')
    problem = validate_config(small_config(field=(str(weighted), "basic")))
    assert problem.control.strategy.name == "weighted" and problem.control.params[4] == -0.5
    out = run_optimize(small_config(strategy=str(preset), knobs=("swap",), generations=1, games_per_eval=400,
                                    selection_games=400, validation_games=0, sensitivity_games=0), tmp_path / "o")
    again = load_strategy(str(out / "best.toml"))
    assert list(again.params[[2, 6]]) == [9, 2]  # knobs outside the search keep the start's values


def test_changed_config_is_refused_unless_forced(tmp_path):
    out = tmp_path / "opt"
    run_optimize(small_config(generations=1, validation_games=0, sensitivity_games=0), out)
    with pytest.raises(UserError, match="another configuration"):
        run_optimize(small_config(generations=2, validation_games=0, sensitivity_games=0), out)
    run_optimize(small_config(generations=2, validation_games=0, sensitivity_games=0), out, force=True)
    assert pl.read_parquet(out / "evaluations.parquet")["generation"].max() == 1


def bad_preset(tmp_path) -> str:
    path = tmp_path / "bad.toml"
    path.write_text('family = "no-such-family"\n[knobs]\n')
    return str(path)


BAD_INPUTS = {
    "unknown strategy": (lambda tmp: dict(strategy="no-such-strategy"), "unknown strategy"),
    "knob not of that strategy": (lambda tmp: dict(knobs=("swap", "force_p")), "has no knob 'force_p'"),
    "family without knobs": (lambda tmp: dict(strategy="basic", knobs=()), "has no knobs"),
    "zero budget": (lambda tmp: dict(budget=0), "--budget must be"),
    "budget below one generation": (lambda tmp: dict(budget=100), "less than one generation"),
    "zero games per candidate": (lambda tmp: dict(games_per_eval=0), "--games-per-eval must be"),
    "unknown field": (lambda tmp: dict(field=("basic", "nobody")), "unknown strategy"),
    "best.toml of an unknown family": (lambda tmp: dict(field=(bad_preset(tmp),)), "unknown family"),
    "best.toml of an unknown family as the strategy": (lambda tmp: dict(strategy=bad_preset(tmp)), "unknown family"),
    "missing best.toml": (lambda tmp: dict(strategy=str(tmp / "nothing.toml")), "does not exist"),
}


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, case):
    changes, message = BAD_INPUTS[case]
    out = tmp_path / "opt"
    with pytest.raises(UserError, match=message) as error:
        run_optimize(small_config(**changes(tmp_path)), out)
    assert "\n" not in str(error.value)
    assert not out.exists()


def test_unwritable_folder_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(UserError, match="cannot write to --out") as error:
        run_optimize(small_config(), blocker / "opt")
    assert "\n" not in str(error.value)
    with pytest.raises(UserError, match="not a folder"):
        run_optimize(small_config(), blocker)
    assert blocker.read_text() == ""


def test_overview_bad_arguments_are_one_line_and_write_nothing(tmp_path, capsys):
    page = tmp_path / "tuned.md"
    unfinished = tmp_path / "unfinished"
    unfinished.mkdir()
    (unfinished / "optimize.json").write_text("{}")
    for args in ([str(page)], [str(page), str(unfinished)], [str(page), str(tmp_path / "nothing")]):
        assert overview_main(args) == 2
        error = capsys.readouterr().err
        assert error.startswith("error: ") and error.count("\n") == 1
    assert not page.exists()


def test_overview_names_resets_that_changed_no_game_apart():
    sensitivity = pl.DataFrame({"kind": ["knob", "knob", "group", "knob"],
                                "name": ["save_twos", "burn_min", "twos", "swap"], "cost": [0.02, 0.0, 0.0, -0.001],
                                "cost_lo": [0.015, 0.0, 0.0, -0.003], "cost_hi": [0.025, 0.0, 0.0, 0.001]})
    run = Run(Path("f"), small_config(), "heuristic", pl.DataFrame(), sensitivity, "none")
    line = decisions_line(run)
    assert line.index("`save_twos` (knob) +0.0200") < line.index("`swap` (knob) -0.0010")
    assert line.endswith("(no game changed: `burn_min`, `twos` (group)).")
