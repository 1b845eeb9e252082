"""The `learned` family's knobs, declared once: the spec parser, `idiotsim strategies`, the optimiser and the
learned player's kernels (``idiotsim.strategies.learned.policy``, by name: ``params[K.burn_min]``) all read
``KNOBS``. ``params`` = these knobs, the constraint block (``CONSTRAINTS_AT``: the moves it may choose from,
idiotsim.strategies.constraints; zeros when unconstrained), then the model's numbers from ``MODEL_AT``.

The knobs override the model (0 / the default = the model's own choice), so a tip can be asked of the
learned player as a paired treatment; ``idiotsim.strategies.learned.policy`` has their exact rules.
"""
from pathlib import Path

from idiotsim.game.cards import KING
from idiotsim.strategies.constraints import CONSTRAINT_SIZE
from idiotsim.strategies.toolkit import Knob, knob_ids

MODEL_DIR = Path(__file__).resolve().parent / "models"
# The shipped models (the `model` knob's values), each trained by the command in its file's meta
# (`idiotsim learn train`; reports/learned.md has the regeneration commands and strengths).
MODELS = ("learned-4p.npz", "learned-fast-4p.npz", "learned-fast-nomem-4p.npz", "learned-5p.npz", "learned-fast-5p.npz",
          "learned-3p.npz", "learned-fast-3p.npz", "learned-fast-specials-4p.npz", "learned-2p.npz", "learned-fast-2p.npz")
# The models trained for a table size of their own (issue 44: where the 4-player model was weak there), by
# player count: (the 64-unit model of learned-Np, the 24-unit model of learned-fast-Np), indices in MODELS.
TABLE_MODELS = {2: (8, 9), 3: (5, 6), 5: (3, 4)}

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
    Knob("counting", 1, 0, 1, "0: a model trained WITH memory fed the no-memory inputs (pile = its top run, "
                              "nothing burned or known, unseen = not in sight now): an ablation far weaker than "
                              "basic, not a player who does not count; that player is a model trained without "
                              "memory (learned-fast-nomem-Np), which never reads the memory inputs, whatever "
                              "this knob says"),
    Knob("model", 0, 0, len(MODELS) - 1, "the shipped model: " + ", ".join(
        f"{i} {name[:-4]}" for i, name in enumerate(MODELS))),
)
K = knob_ids(KNOBS)
CONSTRAINTS_AT = len(KNOBS)  # the constraint block follows the knobs
MODEL_AT = CONSTRAINTS_AT + CONSTRAINT_SIZE  # the model's numbers follow the block
