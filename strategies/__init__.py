"""The shipped strategies, one module per family. ``STRATEGIES`` maps each name
(and each preset name) to its ``Strategy``."""
from strategies import basic, randomplay

_FAMILIES = (basic.STRATEGY, randomplay.STRATEGY)

STRATEGIES = {}
for _s in _FAMILIES:
    STRATEGIES[_s.name] = _s
    for _preset in _s.presets:
        STRATEGIES[_preset] = _s
