"""The strategy API: how a strategy is written, described and loaded.

A strategy is one numba function compiled with the signature ``SIG``::

    @strategy_function          # or @numba.njit(SIG, cache=True) if it allocates
    def decide(obs, hand, params, rng) -> int

- ``obs``: the public observation (see ``idiotsim.observation``), including
  the kind of decision asked for in ``obs[DECISION]``.
- ``hand``: 13 counts, the deciding player's own hand by rank.
- ``params``: the strategy's knobs as floats (empty for knob-less strategies).
- ``rng``: a one-element uint64 state for ``nb_below`` / ``nb_next_u64``:
  the only randomness a strategy may use, so games replay exactly.

It returns, by decision:
- SWAP: ``swap_choice(a, b, c)``, the ranks of the 3 cards to lie face-up.
- TURN: ``play(rank, count)`` (``play(rank, count, extra)`` adds ``extra``
  face-up cards under V11), ``PICKUP``, or ``CHANCE`` (V5).
- BLIND: the blind position (0, 1 or 2) to flip.

Compiled with one explicit signature, every strategy has the same numba
type, so a tuple of them indexed by seat lets any mix share one cached
engine; the reference engine calls the same functions, so decisions are
identical in both engines.
"""
from __future__ import annotations

import importlib
import importlib.util
import math
import os
import sys
from dataclasses import dataclass, field

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from idiotsim.jit import kernel

from idiotsim.errors import UserError
from idiotsim.observation import (ALL_RANKS, FACEUP, LAST_HAND_WITH_FACEUP, LEGAL, NR, SEAT, SOURCE,
                                  SRC_FACEUP, SRC_HAND, TALON_SIZE)

SIG = types.int64(types.int64[::1], types.int64[::1], types.float64[::1], types.uint64[::1])

PICKUP = -1
CHANCE = -2


def strategy_function(fn):
    """A decision function compiled with ``SIG``, cached and without reference counting
    (fast; see ``idiotsim.jit``). It may not create arrays or lists: use
    ``numba.njit(SIG, cache=True)`` for one that must. Compilation waits for the
    first use (``compiled``), so a run compiles only the strategies it seats."""
    return kernel(fn)


def compiled(decide):
    """The decision function compiled for ``SIG`` (from numba's cache when it can)."""
    if not any(tuple(sig) == tuple(SIG.args) for sig in decide.signatures):
        decide.compile(SIG)
    return decide


TWO = 0
TEN = 8
JACK = 9


@kernel(inline="always")
def play(rank, count, extra):
    """A play of `count` cards of `rank` from the source, plus `extra` face-up cards (V11)."""
    return rank | (count << 4) | (extra << 8)


@kernel(inline="always")
def swap_choice(a, b, c):
    """The three ranks to lie face-up."""
    return a + NR * b + NR * NR * c


@kernel(inline="always")
def legal_mask(top, low_rank, ten_only_on_lower):
    """R10, R11, V1/V2 (low_rank), V6: the ranks that may be played on `top` (-1 = empty pile),
    as a bit mask (bit r for rank r), like ``obs[LEGAL]`` for the current pile."""
    if top < 0 or top == TWO:
        return ALL_RANKS
    if top == low_rank:
        mask = (2 << top) - 1
    else:
        mask = ALL_RANKS & ~((1 << top) - 1)
    mask |= 1 << TWO
    if ten_only_on_lower and top >= JACK:
        return mask & ~(1 << TEN)
    return mask | (1 << TEN)


@kernel(inline="always")
def rank_is_legal(rank, top, low_rank, ten_only_on_lower):
    """May `rank` be played on `top` (-1 = empty pile)? (see ``legal_mask``)"""
    return (legal_mask(top, low_rank, ten_only_on_lower) >> rank) & 1 != 0


@kernel(inline="always")
def legal_now(obs, rank):
    """Is `rank` legal on the current pile?"""
    return (obs[LEGAL] >> rank) & 1 != 0


@kernel(inline="always")
def held_in_source(obs, hand, rank):
    """Cards of `rank` the player may play from now (R13): hand, else face-up."""
    if obs[SOURCE] == SRC_HAND:
        return hand[rank]
    if obs[SOURCE] == SRC_FACEUP:
        return obs[FACEUP + obs[SEAT] * NR + rank]
    return 0


@kernel(inline="always")
def playable_mask(obs, hand):
    """Bit r set when the player holds rank r in the current source and it is legal now."""
    held = 0
    if obs[SOURCE] == SRC_HAND:
        for r in range(NR):
            held |= (hand[r] > 0) << r
    elif obs[SOURCE] == SRC_FACEUP:
        row = FACEUP + obs[SEAT] * NR
        for r in range(NR):
            held |= (obs[row + r] > 0) << r
    return held & obs[LEGAL]


@intrinsic
def _count_trailing_zeros(typingctx, mask):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


@kernel(inline="always")
def lowest_rank(mask):
    """The lowest rank id whose bit is set in `mask` (13 when none is)."""
    return min(_count_trailing_zeros(mask), NR)


@kernel(inline="always")
def faceup_addable(obs, hand, rank, count):
    """V11: how many face-up cards of `rank` may join a play of `count` from the hand."""
    if obs[LAST_HAND_WITH_FACEUP] == 0 or obs[SOURCE] != SRC_HAND or obs[TALON_SIZE] != 0:
        return 0
    if count != hand.sum():
        return 0
    return obs[FACEUP + obs[SEAT] * NR + rank]


# ---- metadata and loading ------------------------------------------------

@dataclass(frozen=True)
class Knob:
    name: str
    default: float
    low: float
    high: float
    doc: str
    integer: bool = True


@dataclass(frozen=True)
class Strategy:
    """A strategy family: its decision function and its metadata (Axelrod style)."""
    name: str
    decide: object
    description: str
    stochastic: bool = False
    counts_cards: bool = False
    knobs: tuple = ()
    presets: dict = field(default_factory=dict)

    def params(self, values: dict | None = None) -> np.ndarray:
        values = values or {}
        return np.array([float(values.get(k.name, k.default)) for k in self.knobs], dtype=np.float64)


@dataclass(frozen=True)
class SeatStrategy:
    """A strategy with its knob values, as one seat plays it."""
    label: str
    strategy: Strategy
    params: np.ndarray

    @property
    def decide(self):
        return self.strategy.decide


def _parse_knobs(strategy: Strategy, text: str) -> dict:
    known = {k.name: k for k in strategy.knobs}
    values = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        name, _, raw = item.partition("=")
        if name not in known:
            valid = ", ".join(known) or "none"
            raise UserError(f"strategy {strategy.name} has no knob {name!r}; its knobs: {valid}")
        knob = known[name]
        try:
            value = float(raw)
        except ValueError:
            raise UserError(f"knob {strategy.name}:{name} takes a number, got {raw!r}") from None
        if not math.isfinite(value):
            raise UserError(f"knob {strategy.name}:{name} takes a finite number, got {raw!r}")
        if knob.integer and value != int(value):
            raise UserError(f"knob {strategy.name}:{name} takes an integer, got {raw!r}")
        if not knob.low <= value <= knob.high:
            raise UserError(f"knob {strategy.name}:{name}={raw} is out of range {knob.low:g}..{knob.high:g}")
        values[name] = value
    return values


def _load_from_file(path: str, name: str) -> Strategy:
    if not os.path.isfile(path):
        raise UserError(f"strategy file {path} does not exist")
    mod_name = "idiotsim_user_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(mod_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module  # numba's cache finds the module again in a later process
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # a user's file may fail in any way; report it in one line
        raise UserError(f"cannot load strategy file {path}: {type(e).__name__}: {e}") from None
    obj = getattr(module, name, None)
    if not isinstance(obj, Strategy):
        raise UserError(f"{path} defines no Strategy named {name!r}")
    if not hasattr(obj.decide, "signatures") or (
            obj.decide.signatures and not any(tuple(s) == tuple(SIG.args) for s in obj.decide.signatures)):
        raise UserError(f"strategy {name!r} in {path}: decide must be compiled with "
                        "@strategy_function (or numba.njit(SIG)) from idiotsim.strategy_api")
    return obj


def registry() -> dict:
    from idiotsim.strategies import STRATEGIES
    return STRATEGIES


def load_strategy(spec: str) -> SeatStrategy:
    """``name``, ``name:knob=v,...``, ``preset`` or ``path/to/file.py:name[:knob=v,...]``."""
    spec = spec.strip()
    if ".py:" in spec:
        path, _, rest = spec.partition(".py:")
        name, _, knob_text = rest.partition(":")
        strategy = _load_from_file(path + ".py", name)
    else:
        name, _, knob_text = spec.partition(":")
        strategies = registry()
        if name not in strategies:
            raise UserError(f"unknown strategy {name!r}; available: {', '.join(sorted(strategies))}")
        strategy = strategies[name]
    values = dict(strategy.presets.get(name, {})) if name in strategy.presets else {}
    values.update(_parse_knobs(strategy, knob_text))
    try:
        compiled(strategy.decide)
    except Exception as e:  # a user's function that numba cannot compile: one line, not a traceback
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise UserError(f"strategy {spec!r} does not compile with the strategy signature: {first}") from None
    return SeatStrategy(label=spec, strategy=strategy, params=strategy.params(values))


def split_specs(text: str) -> list[str]:
    """A comma list of strategy specs. Knobs are separated by commas too, so a
    spec with knobs ends at the next item that is not ``knob=value``."""
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            raise UserError(f"empty strategy name in {text!r}")
        if "=" in part and ":" not in part and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def load_strategies(text: str, players: int) -> list[SeatStrategy]:
    """A comma list of strategy specs, one per seat; one name means every seat plays it."""
    specs = split_specs(text)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise UserError(f"{players} players need 1 or {players} strategies, got {len(specs)}: {text}")
    return [load_strategy(s) for s in specs]


# ---- illegal moves -------------------------------------------------------
# Both engines report an illegal decision by one of these codes.
ILLEGAL_REASONS = (
    "",
    "the strategy plays a rank it does not hold (in that number) in its current source",
    "the rank is not legal on the pile",
    "pickup of an empty pile",
    "voluntary pickup in the blind phase",
    "chance (V5) is not allowed now",
    "a play must have at least one card",
    "face-up cards added to a play that does not empty the hand (V11)",
    "the opening play must be of the lowest ordinary rank in hand (V12)",
    "the face-up ranks chosen in the swap are not among the player's six cards",
    "the blind position chosen holds no card",
    "unknown action code",
)
(ILLEGAL_NOT_HELD, ILLEGAL_NOT_LEGAL, ILLEGAL_EMPTY_PICKUP, ILLEGAL_BLIND_PICKUP, ILLEGAL_CHANCE,
 ILLEGAL_ZERO_COUNT, ILLEGAL_EXTRA, ILLEGAL_OPENING, ILLEGAL_SWAP, ILLEGAL_BLIND_POSITION,
 ILLEGAL_CODE) = range(1, 12)
