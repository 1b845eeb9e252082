"""`idiotsim learn train`: data folders -> a model file, with its held-out figures.

The held-out games (``dataset.held_out_games``) stop the training and give the offline figures: per
decision, the teacher's mean place after the model's move minus after `basic`'s (its gain per
decision, negative is better), how often it picks the teacher's best move, and both by the kind of
the teacher's best move against basic's (the `where_basic_loses` categories).

A no-memory model (``TrainConfig.memory`` MEMORY_NONE) is fitted on the inputs without memory (the feature
function's counting NONE) of the same labelled positions, and says so in its header, so the player computes
them the same way (likewise MEMORY_SPECIALS, which remembers only the burned 2s and 10s): the teacher's labels are the search's, which remembers, and the fit regresses them on
what the student may know, which is the value of each move to a player who does not remember, averaged
over the positions it stands for.
"""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path

import numpy as np

from idiotsim.game import observation as ob
from idiotsim.errors import UserError
from idiotsim.runs.atomic_files import make_folder, write_atomic
from idiotsim.learn.dataset import Positions, held_out_games, positions_of
from idiotsim.learn.generate import CONFIG_FILE, read_data
from idiotsim.learn.train import save_model
from idiotsim.strategies.learned.model import COUNTING_OF_MEMORY, KIND_NAMES, MEMORY_NAMES, MLP2, with_basic_margin
from idiotsim.learn.train import TrainConfig, choices, fit, model_vector

MODEL_FILE = "model.npz"
TRAIN_FILE = "train.json"
SAME_AS_BASIC = "basic's move is the teacher's best"


def offline_figures(data: Positions, chosen: np.ndarray) -> dict:
    """Gain per decision against basic's move (mean, 95% half-width), agreement with the teacher's best
    move, and both by the kind of the teacher's best move (where_basic_loses' categories)."""
    from idiotsim.analysis.move_kinds import kind_of
    starts, ends = data.move_pos[:-1], data.move_pos[1:]
    gain = data.place[starts + chosen] - data.place[starts]
    best = np.array([int(np.argmin(data.place[a:b])) for a, b in zip(starts, ends)], np.int64)
    by_kind = defaultdict(list)
    for i in range(len(data)):
        kind = SAME_AS_BASIC if best[i] == 0 else kind_of(int(data.moves[starts[i]]), int(data.moves[starts[i] + best[i]]))
        by_kind[kind].append((chosen[i] == best[i], gain[i]))
    kinds = {k: {"positions": len(v), "agreement": float(np.mean([a for a, _ in v])),
                 "gain": float(np.mean([g for _, g in v]))} for k, v in sorted(by_kind.items())}
    return {"positions": len(data), "gain": float(gain.mean()),
            "gain_half": float(1.96 * gain.std(ddof=1) / np.sqrt(max(1, len(gain) - 1))),
            "agreement": float(np.mean(chosen == best)), "differs_from_basic": float(np.mean(chosen != 0)),
            "by_kind": kinds}


def train_model(data_folders, out, config: TrainConfig, log=None, max_game: int | None = None,
                margin: float = 0.0) -> dict:
    """Fit a model on the data folders (with `max_game`: only their games below it) and write
    `out`/model.npz (with `margin` added to basic's move's score: ``model.with_basic_margin``) and
    train.json; returns train.json's content."""
    import polars as pl
    out = make_folder(Path(out))
    frame = read_data(data_folders)
    if max_game is not None:
        frame = frame.filter(pl.col("game") < max_game)
    turn = positions_of(frame, ob.TURN, counting=COUNTING_OF_MEMORY[config.memory])
    swap = positions_of(frame, ob.SWAP)
    if len(turn) < 10:
        raise UserError(f"too few turn positions to train on ({len(turn)}); generate more data")
    held = held_out_games(turn.game, turn.folder, config.seed)
    train, test = turn.subset(~held), turn.subset(held)
    net, curve = fit(train, test, config, log=log)
    swap_net, swap_curve = None, []
    if len(swap) >= 10:
        swap_held = held_out_games(swap.game, swap.folder, config.seed)
        swap_net, swap_curve = fit(swap.subset(~swap_held), swap.subset(swap_held), config, swap=True)
    teachers = [json.loads((Path(f) / CONFIG_FILE).read_text()) for f in data_folders]
    summary = {
        "config": asdict(config), "kind": KIND_NAMES[config.kind], "data": [str(f) for f in data_folders], "max_game": max_game,
        "teachers": teachers, "train_positions": len(train), "held_out_positions": len(test),
        "swap_positions": len(swap), "curve": curve, "swap_curve": swap_curve,
        "held_out": offline_figures(test, choices(net, test)),
        "basic_held_out": offline_figures(test, np.zeros(len(test), np.int64)),
    }
    summary["margin"] = margin
    save_model(out / MODEL_FILE, with_basic_margin(model_vector(net, swap_net, config.memory), margin),
               {"format": 1, "kind": summary["kind"], "hidden": config.hidden, **_second_layer(config),
                "seed": config.seed, "margin": margin,
                "memory": MEMORY_NAMES[config.memory], "data": summary["data"], "teachers": teachers,
                "held_out": summary["held_out"]})
    write_atomic(out / TRAIN_FILE, json.dumps(summary, indent=1, sort_keys=True) + "\n")
    return summary


def _second_layer(config: TrainConfig) -> dict:
    """The model file's note of an MLP2's second layer (nothing for the other kinds: their files stay as
    they were)."""
    return {"hidden2": config.hidden2} if config.kind == MLP2 else {}
