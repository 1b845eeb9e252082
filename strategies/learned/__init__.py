"""`learned`: a move scorer trained on the search's move values (issue 18; ``idiotsim.learn``).

Every candidate move of a turn is scored by a model of (observation, own hand, move) features
(``idiotsim.strategies.learned.features``: the state part once per decision, the move part per candidate) and the
best is played; the swap (R6) scores every distinct face-up choice with the model's swap head; the
blind flip (R15) is the lowest position. ``params`` = the knobs below, a constraint block (the moves it may
choose from: ``idiotsim.strategies.constraints``, read by the player itself) and the model's numbers
(``idiotsim.strategies.learned.model``), so every learned preset, model file and constraint shares one compiled
function.

The knobs override the model (0 / the default = the model's own choice), so a tip can be asked of the
learned player as a paired treatment; ``idiotsim.strategies.learned.policy`` has their exact rules. ``model``
picks a shipped model (MODELS); a model file of ``idiotsim learn train`` plays as the spec
``path/model.npz`` (knobs after a colon: ``path/model.npz:swap=1``).
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from pathlib import Path

from idiotsim.strategies.learned.learned_knobs import KNOBS, MODEL_DIR, MODELS, TABLE_MODELS
from idiotsim.strategies.learned.policy import learned_decision
from idiotsim.strategies.toolkit import Preset, Strategy, strategy_function

@lru_cache(maxsize=None)
def model_vector(path: str):
    """The model numbers of a model file (UserError when missing or corrupt), read once."""
    from idiotsim.strategies.learned.model import load_model
    vector, _ = load_model(path)
    vector.setflags(write=False)
    return vector


def shipped_weights(values: dict):
    return model_vector(str(MODEL_DIR / MODELS[int(values.get("model", 0))]))


# A game with one learned seat costs about this many games of basic: with r the share of basic's games/s that
# the learned player plays in every seat (benchmarks/learned.py speed; reports/learned.md, "Speed"), one seat of
# four costs 1 + (1 / r - 1) / 4. Chunks are sized by it, and "all" lineups (the leaderboard, the demo) leave
# the learned player out, as they leave out the search.
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
PRESETS["learned-fast-nomem-4p"] = Preset(
    "the learned player that does not remember the cards that have left play: learned-fast-4p's recipe (24 hidden "
    "units, three expert iterations) trained in its own run without the memory inputs (reports/learned.md)", model=2)
PRESETS["learned-fast-specials-4p"] = Preset(
    "the learned player that remembers only the burned 2s and 10s: learned-fast-nomem-4p's data fitted with those "
    "inputs (reports/learned.md, reports/chart.md)", model=7)
for _n in (2, 3, 5):  # a table size's own models where it has them, else the 4-player ones (the player count
    # is one of the inputs)
    if _n in TABLE_MODELS:
        PRESETS[f"learned-{_n}p"] = Preset(f"learned from the search at {_n} players: learned-4p's recipe on "
                                           f"{_n}-player positions, MLP, 64 hidden units (reports/learned.md)",
                                           model=TABLE_MODELS[_n][0])
        PRESETS[f"learned-fast-{_n}p"] = Preset(f"the fast learned player at {_n} players: learned-fast-4p's recipe "
                                                f"on {_n}-player positions, 24 hidden units (reports/learned.md)",
                                                model=TABLE_MODELS[_n][1])
    else:
        PRESETS[f"learned-{_n}p"] = Preset(f"learned-4p's model at {_n} players (trained on 4-player positions; "
                                           "reports/learned.md)", model=0)
        PRESETS[f"learned-fast-{_n}p"] = Preset(f"learned-fast-4p's model at {_n} players (trained on 4-player "
                                                "positions; reports/learned.md)", model=1)
    PRESETS[f"learned-fast-nomem-{_n}p"] = Preset(f"learned-fast-nomem-4p's model at {_n} players (trained on "
                                                  "4-player positions; reports/learned.md)", model=2)

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
    reads_constraints=True,
)
LEARNED = STRATEGY


def model_file_strategy(path: str) -> Strategy:
    """The family playing the model of a file (``idiotsim learn train``'s model.npz)."""
    model_vector(str(Path(path).resolve()))  # a missing or corrupt file fails here, in one line
    return dataclasses.replace(STRATEGY, weights=lambda values: model_vector(str(Path(path).resolve())))
