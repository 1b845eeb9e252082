"""The registry of the shipped strategies (one module per family).

``FAMILY_MODULES`` lists, for each family module, its families and every name they register (the
family names and their presets, ``Strategy.presets``). A name is looked up there, so loading one
strategy imports its own module only: `idiotsim run` of `basic` never imports the search or the
learned player. ``tests/cli/test_startup.py`` checks the table against the modules.

``STRATEGIES`` maps every family and preset name to its family's ``Strategy``, importing a family's
module when one of its names is looked up; ``FAMILIES`` (every family) imports every module on first
use. To ship a new family, add its module to ``FAMILY_MODULES``.
"""
from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping

FAMILY_MODULES = {  # module -> (attributes holding its families, every name they register)
    "basic": (("STRATEGY",), ("basic",)),
    "randomplay": (("STRATEGY",), ("random",)),
    "heuristic": (("STRATEGY",), (
        "heuristic", "best-faceup", "keep-deal", "specials-in-hand", "low-early", "high-early", "no-early-burn",
        "burn-early", "chancer", "spend-twos", "hold-back", "pickup-small", "blocker", "heuristic-tuned-2p",
        "heuristic-tuned-3p", "heuristic-tuned-4p", "heuristic-tuned-5p")),
    "counter": (("STRATEGY",), ("counter", "count-specials")),
    "weighted": (("STRATEGY",), ("weighted", "tuned-2p", "tuned-3p", "tuned-4p", "tuned-5p")),
    "chart": (("STRATEGY",), ("chart",)),
    "search": (("STRATEGY", "PERFECT_INFO"), (
        "search", "learned-search-2p", "learned-search-3p", "learned-search-4p", "learned-search-5p",
        "search-perfect-info")),
    "search.split": (("STRATEGY",), ("strong-split",)),
    "learned": (("STRATEGY",), (
        "learned", "learned-4p", "learned-fast-4p", "learned-fast-nomem-4p", "learned-fast-specials-4p", "learned-2p", "learned-fast-2p",
        "learned-fast-nomem-2p", "learned-3p", "learned-fast-3p", "learned-fast-nomem-3p", "learned-5p",
        "learned-fast-5p", "learned-fast-nomem-5p")),
}
NAMES = tuple(name for _, names in FAMILY_MODULES.values() for name in names)


def names_of(families) -> dict:
    """Family and preset names -> family; a name may be taken once only."""
    names = {}
    for family in families:
        for name in (family.name, *family.presets):
            if name in names:
                raise ValueError(f"strategy name {name!r} of {family.name} is taken by {names[name].name}")
            names[name] = family
    return names


@functools.cache
def module_families(module: str) -> tuple:
    """The families of one family module (imported now)."""
    loaded = importlib.import_module(f"idiotsim.strategies.{module}")
    return tuple(getattr(loaded, attribute) for attribute in FAMILY_MODULES[module][0])


def family_of(name: str):
    """The family registering `name` (a family or preset name), importing its module only; None if no
    shipped family registers it."""
    for module, (_, names) in FAMILY_MODULES.items():
        if name in names:
            return names_of(module_families(module))[name]
    return None


class Strategies(Mapping):
    """Name -> family for every name of ``NAMES``, in that order; a lookup imports the name's module only."""

    def __getitem__(self, name: str):
        family = family_of(name)
        if family is None:
            raise KeyError(name)
        return family

    def __iter__(self):
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)

    def __contains__(self, name) -> bool:
        return name in NAMES


STRATEGIES = Strategies()


def __getattr__(attribute: str):
    """``FAMILIES``, built on first use (it imports every family module)."""
    if attribute != "FAMILIES":
        raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")
    families = tuple(family for module in FAMILY_MODULES for family in module_families(module))
    globals()["FAMILIES"] = families
    return families
