"""The strategy toolkit: everything a strategy is written with, in one import.

A strategy is a ``Strategy`` (metadata) holding one decision function compiled
with the signature ``SIG``::

    @strategy_function
    def decide(obs, hand, params, rng) -> int

- ``obs``: the public observation (``idiotsim.game.observation``); read it through
  the named accessors (``decision(obs)``, ``pile_top(obs)``,
  ``hand_size(obs, seat)``, ...), re-exported here.
- ``hand``: 13 counts, the deciding player's own hand by rank.
- ``params``: the knob values as floats; read them by name with ``knob_ids``.
- ``rng``: a one-element uint64 state for ``nb_below`` (``idiotsim.game.rng``): the
  only randomness a strategy may use, so that games replay exactly.

It returns, by decision (``decision(obs)``):

- SWAP: ``swap_choice(a, b, c)``, the ranks of the 3 cards to lie face-up
  (or ``swap_best(obs, hand, preference)``).
- TURN: ``play(rank, count, extra)`` (``extra`` face-up cards join under V11;
  ``play_all`` works it out), ``PICKUP``, or ``CHANCE`` (V5).
- BLIND: the blind position (0, 1 or 2) to flip (``lowest_blind(obs)``).

Every helper here is compiled with ``kernel``: inline or small, it allocates
nothing, and it runs the same in the numba engine and, called from a
strategy's Python function, in the reference engine.
"""
from __future__ import annotations

import dataclasses
import importlib
import sys
from collections import namedtuple
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from idiotsim.game.basic_player import (BASIC_PREFERENCE, basic_turn, lowest_blind, play_all, play_like_basic,
                                 swap_best)
from idiotsim.game.cards import ACE, JACK, KING, ORDINARY_MASK, ORDINARY_RANKS, TEN, THREE, TWO
from idiotsim.game.moves import (CHANCE, ILLEGAL_BLIND_PICKUP, ILLEGAL_BLIND_POSITION, ILLEGAL_CHANCE,
                                 ILLEGAL_CODE, ILLEGAL_EMPTY_PICKUP, ILLEGAL_EXTRA, ILLEGAL_NOT_HELD, ILLEGAL_NOT_LEGAL,
                                 ILLEGAL_OPENING, ILLEGAL_REASONS, ILLEGAL_SWAP, ILLEGAL_ZERO_COUNT, NO_RANK, PICKUP,
                                 SIG, can_play, compiled, faceup_addable, held_in_source, highest_rank, legal_mask,
                                 legal_now, lowest_rank, play, playable_mask, rank_is_legal, ranks_present,
                                 swap_choice)
from idiotsim.jit import kernel
from idiotsim.strategies.constraints import CONSTRAINT_SIZE
from idiotsim.game.observation import (ALL_RANKS, BLIND, BLIND_PRESENT, BLIND_SIZE, BURNED, DECISION, DECKS, FACEUP,
                                  HAND_SIZE, KNOWN, LAST_HAND_WITH_FACEUP, LEGAL, LOW_RANK, MUST_PLAY, NR,
                                  PILE_COUNTS, PLAYERS, SEAT, SOURCE, SRC_BLIND, SRC_FACEUP, SRC_HAND, SWAP,
                                  TALON_SIZE, TEN_ONLY_ON_LOWER, TURN, blind_present, blind_size, burned_count,
                                  can_chance, can_pick_up, cards_held, deck_count, decision, faceup_count,
                                  faceup_size, hand_size, is_in, known_count, lacks, lacks_free, legal_ranks,
                                  must_play, my_seat, pickup_free, pickup_legal, pile_count, pile_run, pile_size,
                                  pile_top, player_count, source, talon_size, unknown_in_hand)

# Re-exported, so that a strategy imports everything it needs from here.
__all__ = [
    # ranks and decisions
    "TWO", "THREE", "TEN", "JACK", "KING", "ACE", "NR", "ORDINARY_RANKS", "ORDINARY_MASK", "ALL_RANKS",
    "SWAP", "TURN", "BLIND", "SRC_HAND", "SRC_FACEUP", "SRC_BLIND", "PICKUP", "CHANCE", "NO_RANK", "ALL_COPIES",
    # observation accessors
    "decision", "my_seat", "player_count", "source", "pile_top", "pile_run", "pile_size", "pile_count",
    "burned_count", "legal_ranks", "talon_size", "must_play", "can_pick_up", "can_chance", "deck_count", "hand_size",
    "faceup_size", "blind_size", "cards_held", "faceup_count", "known_count", "blind_present", "is_in",
    "unknown_in_hand", "pickup_legal", "pickup_free", "lacks", "lacks_free",
    # decisions and helpers
    "play", "swap_choice", "legal_mask", "rank_is_legal", "followers", "follows", "legal_now", "held_in_source",
    "can_play", "playable_mask", "faceup_ranks", "known_ranks", "lowest_rank", "highest_rank",
    "lowest_playable_ordinary", "faceup_addable", "play_at_most", "play_all", "swap_best", "swap_keep_deal",
    "lowest_blind", "next_seat_in", "smallest_opponent_hand",
    "with_others", "unseen", "known_total", "unseen_total", "BASIC_PREFERENCE", "basic_turn", "play_like_basic",
    # writing and describing a strategy
    "SIG", "strategy_function", "compiled", "Knob", "knob_ids", "Preset", "Strategy", "ILLEGAL_REASONS",
]

ALL_COPIES = 15  # more copies than any rank has: for `play_at_most`


def strategy_function(fn=None, *, allocates: bool = False):
    """A decision function compiled with ``SIG``, cached. Compilation waits for the first use
    (``compiled``), so a run compiles only the strategies it seats, and importing the registry
    compiles nothing. By default without reference counting (fast; see ``idiotsim.jit``), so it
    may not create arrays or lists; ``@strategy_function(allocates=True)`` is for one that must."""
    if fn is None:
        return lambda f: strategy_function(f, allocates=allocates)
    return njit(cache=True)(fn) if allocates else kernel(fn)




@kernel(inline="always")
def followers(obs, top):
    """The ranks that may be played on a pile topped by `top` (-1 = empty) under this game's
    rules, as a bit mask: "what could beat this card?"."""
    return legal_mask(top, obs[LOW_RANK], obs[TEN_ONLY_ON_LOWER] != 0)


@kernel(inline="always")
def follows(obs, rank, top):
    """May `rank` be played on a pile topped by `top` under this game's rules?"""
    return (followers(obs, top) >> rank) & 1 != 0




@kernel(inline="always")
def lowest_playable_ordinary(obs, hand):
    """The lowest ordinary rank (R2) the player may play now, NO_RANK when there is none."""
    return lowest_rank(playable_mask(obs, hand) & ORDINARY_MASK)


@kernel(inline="always")
def faceup_ranks(obs, seat):
    """The ranks face-up in front of `seat`, as a bit mask."""
    return ranks_present(obs, FACEUP + seat * NR)


@kernel(inline="always")
def known_ranks(obs, seat):
    """The ranks publicly known to be in `seat`'s hand, as a bit mask."""
    return ranks_present(obs, KNOWN + seat * NR)


# ---- plays ---------------------------------------------------------------------


@kernel(inline="always")
def play_at_most(obs, hand, rank, most):
    """A play of `rank` from the source: every copy, but at most `most` from the hand while the
    talon lasts (R16.1 refills the hand anyway); V11 face-up cards join a play that empties the hand."""
    count = held_in_source(obs, hand, rank)
    if count > most and obs[SOURCE] == SRC_HAND and obs[TALON_SIZE] > 0:
        count = most
    return play(rank, count, faceup_addable(obs, hand, rank, count))




# ---- the swap and the blind phase -------------------------------------------------


@kernel
def swap_keep_deal(obs):
    """The swap that leaves the dealt face-up cards face-up."""
    row = FACEUP + obs[SEAT] * NR
    choice = 0
    for r in range(NR):
        for _ in range(obs[row + r]):
            choice = choice * NR + r
    return choice




# ---- the table ----------------------------------------------------------------------

@kernel(inline="always")
def next_seat_in(obs):
    """The next seat still in (R4), or the deciding seat when no one else is."""
    n = player_count(obs)
    seat = obs[SEAT]
    s = seat
    for _ in range(n - 1):
        s += 1
        if s >= n:
            s = 0
        if is_in(obs, s):
            return s
    return seat


@kernel
def smallest_opponent_hand(obs):
    """The fewest cards (hand + face-up + blind) an opponent still in holds; 0 when none is in."""
    fewest = -1
    for s in range(player_count(obs)):
        if s != obs[SEAT] and is_in(obs, s):
            held = cards_held(obs, s)
            if fewest < 0 or held < fewest:
                fewest = held
    return max(fewest, 0)


# ---- counting cards (only public facts: see docs/strategies.md) ---------------------------

@kernel
def with_others(obs, hand, rank):
    """Cards of `rank` the others may still play: not burned, not in the pile, not in the
    own hand, not face-up in front of the deciding player."""
    gone = obs[BURNED + rank] + obs[PILE_COUNTS + rank] + obs[FACEUP + obs[SEAT] * NR + rank] + hand[rank]
    return 4 * obs[DECKS] - gone


@kernel
def unseen(obs, hand, rank):
    """Cards of `rank` nobody has seen: in the talon, a blind row or an opponent's unknown hand cards."""
    c = with_others(obs, hand, rank)
    seat = obs[SEAT]
    for s in range(obs[PLAYERS]):
        if s != seat:
            c -= obs[FACEUP + s * NR + rank] + obs[KNOWN + s * NR + rank]
    return c


@kernel
def known_total(obs, seat):
    """Cards publicly known to be in `seat`'s hand."""
    t = 0
    for q in range(NR):
        t += obs[KNOWN + seat * NR + q]
    return t


@kernel
def unseen_total(obs):
    """All unseen cards: the talon, every blind card (the own ones too) and the opponents'
    hand cards that are not KNOWN."""
    seat = obs[SEAT]
    u = obs[TALON_SIZE]
    for s in range(obs[PLAYERS]):
        u += obs[BLIND_SIZE + s]
        if s != seat:
            u += obs[HAND_SIZE + s] - known_total(obs, s)
    return u




# ---- metadata -------------------------------------------------------------------------

@dataclass(frozen=True)
class Knob:
    """A number that tunes a strategy; it arrives in ``params`` (see ``knob_ids``)."""
    name: str
    default: float
    low: float
    high: float
    doc: str
    integer: bool = True


def knob_ids(knobs) -> tuple:
    """The index of each knob in ``params``, by name: ``K = knob_ids(KNOBS)``, then
    ``params[K.burn_min]``. A named tuple of constants, which numba folds into the
    compiled code: reading a knob by name costs what ``params[2]`` costs."""
    return namedtuple("KnobIds", [k.name for k in knobs])(*range(len(knobs)))


class Preset(dict):
    """A preset's knob values (a plain dict of them) with a one-line summary:
    ``Preset("contrast: no swap at all", swap=0)``."""

    def __init__(self, summary: str, **values):
        super().__init__(values)
        self.summary = summary


@dataclass(frozen=True)
class Strategy:
    """A strategy family: its decision function and its metadata (Axelrod style).

    ``description``: one line, what it does. ``stochastic``: draws from ``rng``.
    ``counts_cards``: reads the public history (burned, picked-up and pile cards),
    not only the current table. ``looks_at``: the facts its decisions read, in words.
    ``fair``: False for a player that sees hidden cards (marked in every listing).
    ``presets``: preset name -> knob values (a ``Preset`` carries a summary too).
    ``work``: None for a player about as fast as ``basic``; else a function of the knob values
    giving a game's cost, in games of ``basic``, when one seat plays it (``idiotsim.runs.chunk_sizes``).
    ``weights``: None, or a function of the knob values giving a block of numbers that ``params``
    appends after the knobs (the `learned` family's model: thousands of numbers, not knobs).
    ``reads_constraints``: its decision function reads a constraint block (``idiotsim.strategies.constraints``)
    right after the knobs itself (the search, the learned player), so ``params`` always holds one there,
    zeros when unconstrained, and the weights follow it. Otherwise a constrained seat plays
    ``constrained_decide`` (a shipped family's compiled wrapper: its decision, replaced by the nearest
    allowed move, with the block after its knobs), or a wrapper made when the spec is loaded."""
    name: str
    decide: object
    description: str
    stochastic: bool = False
    counts_cards: bool = False
    knobs: tuple = ()
    presets: dict = field(default_factory=dict)
    looks_at: tuple = ("own cards", "pile")
    fair: bool = True  # False: sees hidden cards (an upper bound for experiments, never a real player)
    work: object = None  # params -> cost of a game with one seat of it, in games of basic; None: 1
    weights: object = None  # knob values -> numbers appended to params after the knobs (a learned model)
    reads_constraints: bool = False  # its decide reads the constraint block after the knobs itself
    constrained_decide: object = None  # its decision under a constraint block that follows its knobs

    def params(self, values: dict | None = None, constraints: np.ndarray | None = None) -> np.ndarray:
        """The knob values (the defaults where `values` gives none), then the constraint block where the
        family reads one itself (`constraints`, or zeros) and the weights; for another family with
        `constraints`, the block after everything (``constraint_at``)."""
        values = values or {}
        parts = [np.array([float(values.get(k.name, k.default)) for k in self.knobs], dtype=np.float64)]
        if self.reads_constraints:
            parts.append(np.zeros(CONSTRAINT_SIZE) if constraints is None else constraints)
        if self.weights is not None:
            parts.append(np.asarray(self.weights(values), dtype=np.float64))
        if constraints is not None and not self.reads_constraints:
            parts.append(constraints)
        return np.concatenate(parts).astype(np.float64) if len(parts) > 1 else parts[0]

    def constraint_at(self, values: dict | None = None) -> int:
        """Where in ``params(values, constraints)`` the constraint block lies: right after the knobs for a
        family that reads it itself or has no weights, else after the weights."""
        if self.reads_constraints or self.weights is None:
            return len(self.knobs)
        return len(self.knobs) + len(self.weights(values or {}))

    def __reduce__(self):
        """Pickled (for a Dask worker) with its decision function by import name when it is importable,
        as every shipped family's is: numba rebuilds a pickled function by value and without its disk
        cache, so each worker process would compile it again (minutes for the search family)."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        references = {}
        for name in FUNCTION_FIELDS:
            reference = _import_name(fields[name])
            if reference is not None:
                fields[name] = None  # imported again by name on the other side
                references[name] = reference
        return (_strategy_from_fields, (fields, references))


FUNCTION_FIELDS = ("decide", "constrained_decide")  # a Strategy's compiled functions: pickled by import name


def _import_name(function) -> tuple[str, str] | None:
    """(module, name) under which `function` is importable in any process, or None (a user's file
    loaded by path, a function made at run time)."""
    module, name = getattr(function, "__module__", None), getattr(function, "__name__", None)
    if not module or not name or not module.startswith("idiotsim."):
        return None
    return (module, name) if getattr(sys.modules.get(module), name, None) is function else None


def _strategy_from_fields(fields: dict, references) -> Strategy:
    if references is not None and not isinstance(references, dict):  # pickled before constrained_decide
        references = {"decide": references}
    for name, (module, attribute) in (references or {}).items():
        fields = dict(fields, **{name: getattr(importlib.import_module(module), attribute)})
    return Strategy(**fields)
