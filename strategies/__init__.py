"""The shipped strategies, one module per family. ``STRATEGIES`` maps each name
(and each preset name) to its ``Strategy``."""
from idiotsim.strategies import basic, counter, heuristic, randomplay

_FAMILIES = (basic.STRATEGY, randomplay.STRATEGY, heuristic.STRATEGY, counter.STRATEGY)

STRATEGIES = {}
for _s in _FAMILIES:
    STRATEGIES[_s.name] = _s
    for _preset in _s.presets:
        if _preset in STRATEGIES:
            raise ValueError(f"preset name {_preset!r} of {_s.name} is taken")
        STRATEGIES[_preset] = _s
