"""idiotsim: Monte Carlo simulation of the card game Idiot (Palace, Shed, Karma)."""
from idiotsim.numba_cache import use_source_keyed_cache

__version__ = "0.1.0"

use_source_keyed_cache()
