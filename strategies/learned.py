"""`learned`: a move scorer trained on the search's move values (issue 18; ``idiotsim.learn``).

Every candidate move of a turn is scored by a model of (observation, own hand, move) features
(``idiotsim.learn.features``: the state part once per decision, the move part per candidate) and the
best is played; the swap (R6) scores every distinct face-up choice with the model's swap head; the
blind flip (R15) is the lowest position. ``params`` = the knobs below, then the model's numbers
(``idiotsim.learn.model``), so every learned preset and model file shares one compiled function.

The knobs override the model (0 / the default = the model's own choice), so a tip can be asked of the
learned player as a paired treatment; ``idiotsim.learn.policy`` has their exact rules. ``model``
picks a shipped model (MODELS); a model file of ``idiotsim learn train`` plays as the spec
``path/model.npz`` (knobs after a colon: ``path/model.npz:swap=1``).
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from pathlib import Path

from idiotsim.learn.policy import (K_BURN_MIN, K_COUNTING, K_MAX_COPIES, K_MODEL, K_PICKUP_MAX, K_PICKUP_MIN_RANK,
                                   K_SAVE_TENS, K_SWAP, learned_decision)
from idiotsim.toolkit import KING, Knob, Preset, Strategy, strategy_function

MODEL_DIR = Path(__file__).resolve().parent / "models"
# The shipped models (the `model` knob's values), each trained by the command in its file's meta
# (`idiotsim learn train`; reports/learned.md has the regeneration commands and strengths).
MODELS = ("learned-4p.npz", "learned-fast-4p.npz")

KNOBS = (
    Knob("swap", 0, 0, 4, "0 the model's swap (every distinct face-up choice scored); 1..4 heuristic's swap modes: "
                          "1 best by 3<..<A<2<10 (basic), 2 10s kept in hand, 3 2s kept in hand, 4 2s and 10s "
                          "kept in hand"),
    Knob("burn_min", 104, 0, 104, "a legal 10 is played before anything else when the pile holds >= burn_min "
                                  "cards (104 = off: the model's choice)"),
    Knob("save_tens", 0, 0, 1, "1: no 10 while another rank may be played (basic's rule); 0 the model's choice"),
    Knob("max_copies", 8, 1, 8, "while the talon lasts, a play from the hand has at most this many cards "
                                "(8 = off)"),
    Knob("pickup_max", 0, 0, 52, "hand phase: pick up a pile of 1..pickup_max cards when every card in it is a 2 "
                                 "or an ordinary rank >= pickup_min_rank (heuristic's rule; 0 = off)"),
    Knob("pickup_min_rank", KING, 1, 12, "rank id (1='3' .. 12='A') of the weakest card such a pickup takes"),
    Knob("counting", 1, 0, 1, "0: the card-counting inputs replaced by what a non-counter sees (pile = its top "
                              "run, nothing burned or known, unseen = not in sight now)"),
    Knob("model", 0, 0, len(MODELS) - 1, "the shipped model: " + ", ".join(
        f"{i} {name[:-4]}" for i, name in enumerate(MODELS))),
)
assert [k.name for k in KNOBS].index("swap") == K_SWAP and [k.name for k in KNOBS].index("model") == K_MODEL
assert (K_BURN_MIN, K_SAVE_TENS, K_MAX_COPIES, K_PICKUP_MAX, K_PICKUP_MIN_RANK, K_COUNTING) == tuple(
    [k.name for k in KNOBS].index(n) for n in ("burn_min", "save_tens", "max_copies", "pickup_max",
                                               "pickup_min_rank", "counting"))


@lru_cache(maxsize=None)
def model_vector(path: str):
    """The model numbers of a model file (UserError when missing or corrupt), read once."""
    from idiotsim.learn.model import load_model
    vector, _ = load_model(path)
    vector.setflags(write=False)
    return vector


def shipped_weights(values: dict):
    return model_vector(str(MODEL_DIR / MODELS[int(values.get("model", 0))]))


# A game with one learned seat costs about this many games of basic (benchmarks/learned.py speed and the
# same-process CPU-time comparison in reports/learned.md's Speed section, 4 players, one thread: learned-4p in
# every seat plays 0.032 of basic's games/s, so one seat of four costs 1 + (1 / 0.032 - 1) / 4 = 8.6 games of
# basic; learned-fast-4p, 24 hidden units, about 0.033, 8.3). Chunks are sized by it, and "all" lineups (the
# leaderboard, the demo) leave the learned player out, as they leave out the search.
GAMES_OF_BASIC_PER_GAME = 8.5


def work(params) -> float:
    return GAMES_OF_BASIC_PER_GAME


@strategy_function
def decide(obs, hand, params, rng):
    return learned_decision(obs, hand, params)


PRESETS = {
    "learned-4p": Preset("learned from the search (K = 128, three expert iterations) at 4 players: MLP, 64 hidden "
                         "units (reports/learned.md)", model=0),
    "learned-fast-4p": Preset("the fast learned player: MLP, 24 hidden units, the same teacher's data "
                              "(reports/learned.md)", model=1),
}
for _n in (2, 3, 5):  # one model for every table size: the player count is one of its inputs
    PRESETS[f"learned-{_n}p"] = Preset(f"learned-4p's model at {_n} players (trained on 4-player positions; "
                                       "reports/learned.md)", model=0)
    PRESETS[f"learned-fast-{_n}p"] = Preset(f"learned-fast-4p's model at {_n} players (trained on 4-player "
                                            "positions; reports/learned.md)", model=1)


STRATEGY = Strategy(
    name="learned",
    decide=decide,
    description="Learned move scorer: a model of (observation, hand, move) features fitted to the search's move "
                "values; knobs override it for the tips",
    counts_cards=True,
    knobs=KNOBS,
    presets=PRESETS,
    looks_at=("own cards", "pile", "burned cards", "every seat's face-up and known cards", "the talon"),
    weights=shipped_weights,
    work=work,
)
LEARNED = STRATEGY


def model_file_strategy(path: str) -> Strategy:
    """The family playing the model of a file (``idiotsim learn train``'s model.npz)."""
    model_vector(str(Path(path).resolve()))  # a missing or corrupt file fails here, in one line
    return dataclasses.replace(STRATEGY, weights=lambda values: model_vector(str(Path(path).resolve())))
