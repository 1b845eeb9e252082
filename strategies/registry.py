"""The registry of the shipped strategies (one module per family).

``FAMILIES`` lists the families; each carries its presets (``Strategy.presets``).
``STRATEGIES`` maps every family name and every preset name to its family's
``Strategy``. To ship a new family, add its module's ``STRATEGY`` to ``FAMILIES``.
"""
from idiotsim.strategies import basic, counter, heuristic, learned, randomplay, search, weighted

FAMILIES = (basic.STRATEGY, randomplay.STRATEGY, heuristic.STRATEGY, counter.STRATEGY, weighted.STRATEGY,
            search.STRATEGY, search.PERFECT_INFO, learned.STRATEGY)


def names_of(families) -> dict:
    """Family and preset names -> family; a name may be taken once only."""
    names = {}
    for family in families:
        for name in (family.name, *family.presets):
            if name in names:
                raise ValueError(f"strategy name {name!r} of {family.name} is taken by {names[name].name}")
            names[name] = family
    return names


STRATEGIES = names_of(FAMILIES)
