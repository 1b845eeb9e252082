"""`idiotsim learn loop`: expert iteration (label with the search, train the student, let the student
collect positions too, relabel, retrain), every step resumable.

Folder `out`:

    iter-<i>/data/      the positions of iteration i (``generate``): iteration 1 from `collectors`,
                        later ones from the collectors and the previous iteration's model (DAgger)
    iter-<i>/model/     model.npz and train.json, trained on the data of iterations 1..i
    iter-1/model-<p>/   the same on the first p% of iteration 1's games (the curve against data size)
                        (each model's margin, ``model.with_basic_margin``, is chosen on tuning deals:
                        ``evaluate.tune_margin``; small predicted gains over basic's move are not worth
                        leaving it, measured in games)
    iter-<i>/strength.json, ...  the paired, rotated strength against basic (``evaluate``)
    model.npz           the last iteration's model; learn.md and its plots

A step whose output exists is skipped, so an interrupted loop resumes where it stopped; the data steps
resume chunk by chunk.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from idiotsim.runs.atomic_files import make_folder, write_atomic
from idiotsim.learn.evaluate import strengths, tune_margin
from idiotsim.learn.fitting import MODEL_FILE, TRAIN_FILE, train_model
from idiotsim.learn.generate import GenerateConfig, generate
from idiotsim.learn.train import TrainConfig
from idiotsim.strategies.search.search_knobs import DEFAULT_ROLLOUTS

STRENGTH_FILE = "strength.json"


@dataclass(frozen=True)
class LoopConfig:
    players: int = 4
    seed: int = 1
    iterations: int = 2
    games: int = 1000  # per iteration
    collectors: tuple = ("basic", "search:rollouts=16")
    rollouts: int = DEFAULT_ROLLOUTS  # the teacher's K
    turn_share: float = 0.5
    swap_share: float = 0.25
    train: TrainConfig = field(default_factory=TrainConfig)
    deals: int = 5000  # evaluation deals (each played at every seat)
    tuning_deals: int = 2000  # deals (of another seed) each margin is tried on
    size_shares: tuple = (25, 50)  # % of iteration 1's games for the data-size curve


def data_config(config: LoopConfig, iteration: int, out: Path) -> GenerateConfig:
    collectors = tuple(config.collectors)
    if iteration > 1:
        collectors += (str((out / f"iter-{iteration - 1}" / "model" / MODEL_FILE).resolve()),)
    return GenerateConfig(players=config.players, seed=config.seed * 1000 + iteration, games=config.games,
                          collectors=collectors, teacher_rollouts=config.rollouts, turn_share=config.turn_share,
                          swap_share=config.swap_share)


def _strength(model: Path, config: LoopConfig, log) -> dict:
    path = model.parent / STRENGTH_FILE
    if path.exists():
        return json.loads(path.read_text())
    (s,) = strengths([str(model)], config.players, config.deals)
    result = {"mean": s.vs_basic.mean, "lo": s.vs_basic.lo, "hi": s.vs_basic.hi, "deals": s.deals,
              "games_per_second": s.games_per_second}
    write_atomic(path, json.dumps(result, indent=1, sort_keys=True) + "\n")
    log(f"{model}: {result['mean']:+.4f} [{result['lo']:+.4f}, {result['hi']:+.4f}] against basic")
    return result


def _trained(folders, out: Path, config: LoopConfig, log, max_game=None) -> dict:
    """Train (unless done), then choose the margin on tuning deals (unless done)."""
    if not (out / TRAIN_FILE).exists() or not (out / MODEL_FILE).exists():
        log(f"training {out}")
        train_model(folders, out, config.train, max_game=max_game)
    summary = json.loads((out / TRAIN_FILE).read_text())
    if "margin_tuning" not in summary:
        margin, table = tune_margin(out / MODEL_FILE, config.players, config.tuning_deals)
        summary.update(margin=margin, margin_tuning=table)
        write_atomic(out / TRAIN_FILE, json.dumps(summary, indent=1, sort_keys=True) + "\n")
        log(f"{out}: margin {margin:g} (" + ", ".join(f"{m:g}: {d:+.4f}" for m, d, _, _ in table) + ")")
    return summary


def run_loop(config: LoopConfig, out, executor=None, log=print) -> list[dict]:
    """Every iteration of `config` into `out` (resuming); returns one summary per model trained."""
    out = make_folder(Path(out))
    write_atomic(out / "loop.json", json.dumps(asdict(config), indent=1, sort_keys=True, default=str) + "\n")
    rows = []
    folders = []
    for iteration in range(1, config.iterations + 1):
        data = out / f"iter-{iteration}" / "data"
        log(f"iteration {iteration}: positions from {', '.join(data_config(config, iteration, out).collectors)}")
        generate(data_config(config, iteration, out), data, executor)
        folders.append(data)
        if iteration == 1:
            for share in config.size_shares:
                folder = out / "iter-1" / f"model-{share}"
                summary = _trained([data], folder, config, log, max_game=config.games * share // 100)
                rows.append(dict(iteration=1, share=share, train=summary,
                                 strength=_strength(folder / MODEL_FILE, config, log)))
        folder = out / f"iter-{iteration}" / "model"
        summary = _trained(folders, folder, config, log)
        rows.append(dict(iteration=iteration, share=100, train=summary,
                         strength=_strength(folder / MODEL_FILE, config, log)))
    shutil.copyfile(out / f"iter-{config.iterations}" / "model" / MODEL_FILE, out / MODEL_FILE)
    from idiotsim.learn.learn_markdown import write_learn_report
    write_learn_report(rows, config, out)
    return rows


def with_train(config: LoopConfig, **changes) -> LoopConfig:
    return replace(config, train=replace(config.train, **changes))
