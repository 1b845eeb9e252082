"""idiotsim: Monte Carlo simulation of the card game Idiot (Palace, Shed, Karma).

The layout (README, "Layout"), each layer importing only the ones below it (tests/test_layers.py):
``cli`` on top; the tools ``table``, ``experiments``, ``optimize``, ``learn``, ``interop``; ``analysis``;
``runs``; ``strategies`` (the strategy API and every shipped family); ``engine``; ``game``; and the flat
``errors`` and ``jit``. ``strategy_api`` is the one module a strategy file imports.
"""
import importlib
import importlib.abc
import importlib.util
import sys

from idiotsim.jit import use_source_keyed_cache

__version__ = "0.1.0"

use_source_keyed_cache()

# The modules of the Python API documented before the layout of December 2026, under their old names, so that
# a user's strategy file or notebook (and a pickle naming them) keeps working.
MOVED = {
    "idiotsim.toolkit": "idiotsim.strategies.toolkit",
    "idiotsim.cards": "idiotsim.game.cards",
    "idiotsim.rules": "idiotsim.game.rules",
    "idiotsim.rng": "idiotsim.game.rng",
    "idiotsim.observation": "idiotsim.game.observation",
    "idiotsim.simulate": "idiotsim.engine.batches",
    "idiotsim.tournament": "idiotsim.runs.tournament",
    "idiotsim.summary": "idiotsim.analysis.tournament_summary",
}


class _MovedModule(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports an old module name (MOVED) as the module it became: the same module object."""

    def find_spec(self, name, path=None, target=None):
        return importlib.util.spec_from_loader(name, self) if name in MOVED else None

    def create_module(self, spec):
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module):
        pass


if not any(isinstance(finder, _MovedModule) for finder in sys.meta_path):
    sys.meta_path.append(_MovedModule())
