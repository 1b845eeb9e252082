"""idiotsim: Monte Carlo simulation of the card game Idiot (Palace, Shed, Karma).

The layout (README, "Layout"), each layer importing only the ones below it (tests/test_layers.py):
``cli`` on top; the tools ``table``, ``experiments``, ``optimize``, ``learn``, ``interop``; ``analysis``;
``runs``; ``strategies`` (the strategy API and every shipped family); ``engine``; ``game``; and the flat
``errors`` and ``jit``. ``strategy_api`` is the one module a strategy file imports.
"""
from idiotsim.jit import use_source_keyed_cache

__version__ = "0.1.0"

use_source_keyed_cache()
