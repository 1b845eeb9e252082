"""The strategy toolkit: everything a strategy is written with, in one import.

A strategy is a ``Strategy`` (metadata) holding one decision function compiled
with the signature ``SIG``::

    @strategy_function
    def decide(obs, hand, params, rng) -> int

- ``obs``: the public observation (``idiotsim.observation``); read it through
  the named accessors (``decision(obs)``, ``pile_top(obs)``,
  ``hand_size(obs, seat)``, ...), re-exported here.
- ``hand``: 13 counts, the deciding player's own hand by rank.
- ``params``: the knob values as floats; read them by name with ``knob_ids``.
- ``rng``: a one-element uint64 state for ``nb_below`` (``idiotsim.rng``): the
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
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from idiotsim.cards import ACE, BASIC_ORDER, JACK, KING, ORDINARY_MASK, ORDINARY_RANKS, TEN, THREE, TWO
from idiotsim.jit import kernel
from idiotsim.observation import (ALL_RANKS, BLIND, BLIND_PRESENT, BLIND_SIZE, BURNED, DECISION, DECKS, FACEUP,
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

SIG = types.int64(types.int64[::1], types.int64[::1], types.float64[::1], types.uint64[::1])

PICKUP = -1
CHANCE = -2
NO_RANK = -1  # what the rank helpers return when there is none
ALL_COPIES = 15  # more copies than any rank has: for `play_at_most`


def strategy_function(fn=None, *, allocates: bool = False):
    """A decision function compiled with ``SIG``, cached. Compilation waits for the first use
    (``compiled``), so a run compiles only the strategies it seats, and importing the registry
    compiles nothing. By default without reference counting (fast; see ``idiotsim.jit``), so it
    may not create arrays or lists; ``@strategy_function(allocates=True)`` is for one that must."""
    if fn is None:
        return lambda f: strategy_function(f, allocates=allocates)
    return njit(cache=True)(fn) if allocates else kernel(fn)


def compiled(decide):
    """The decision function compiled for ``SIG`` (from numba's cache when it can)."""
    if not any(tuple(sig) == tuple(SIG.args) for sig in decide.signatures):
        decide.compile(SIG)
    return decide


# ---- decision codes -----------------------------------------------------------

@kernel(inline="always")
def play(rank, count, extra):
    """A play of `count` cards of `rank` from the source, plus `extra` face-up cards (V11)."""
    return rank | (count << 4) | (extra << 8)


@kernel(inline="always")
def swap_choice(a, b, c):
    """The three ranks to lie face-up."""
    return a + NR * b + NR * NR * c


def play_parts(move: int) -> tuple:
    """(rank, count, extra) of a play code: the inverse of ``play`` (Python side: names, files, interop)."""
    return move & 15, (move >> 4) & 15, move >> 8


def swap_ranks(choice: int) -> tuple:
    """The three face-up ranks of a swap choice, in its code's order: the inverse of ``swap_choice``."""
    return choice % NR, choice // NR % NR, choice // (NR * NR)


# ---- what may be played ---------------------------------------------------------

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
def followers(obs, top):
    """The ranks that may be played on a pile topped by `top` (-1 = empty) under this game's
    rules, as a bit mask: "what could beat this card?"."""
    return legal_mask(top, obs[LOW_RANK], obs[TEN_ONLY_ON_LOWER] != 0)


@kernel(inline="always")
def follows(obs, rank, top):
    """May `rank` be played on a pile topped by `top` under this game's rules?"""
    return (followers(obs, top) >> rank) & 1 != 0


@kernel(inline="always")
def legal_now(obs, rank):
    """Is `rank` legal on the current pile (V12's MUST_PLAY aside)?"""
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
def can_play(obs, hand, rank):
    """May the player play `rank` now: held in the source, legal on the pile, and V12's opening rank?"""
    must = obs[MUST_PLAY]
    return held_in_source(obs, hand, rank) > 0 and legal_now(obs, rank) and (must < 0 or must == rank)


@kernel(inline="always")
def playable_mask(obs, hand):
    """Bit r set when the player holds rank r in the current source and it is legal now."""
    if obs[SOURCE] == SRC_HAND:
        return ranks_present(hand, 0) & obs[LEGAL]
    if obs[SOURCE] == SRC_FACEUP:
        return ranks_present(obs, FACEUP + obs[SEAT] * NR) & obs[LEGAL]
    return 0


COUNT_ROW = ir.VectorType(ir.IntType(64), NR)  # the 13 int64 counts of a rank row, as one LLVM vector


@intrinsic
def ranks_present(typingctx, counts, start):
    """Bit r set when counts[start + r] > 0, for the 13 counts from `start` of an int64 array (or of
    a pointer to int64): one vector load and compare instead of 13 compare-and-shift steps. The 13
    values must lie inside the array (every count row of the observation and state does)."""
    def data(context, builder, value):
        if isinstance(counts, types.CPointer):
            return value
        return context.make_array(counts)(context, builder, value).data

    def codegen(context, builder, signature, args):
        first = builder.gep(data(context, builder, args[0]), [args[1]])
        row = builder.load(builder.bitcast(first, COUNT_ROW.as_pointer()), align=8)
        present = builder.icmp_signed(">", row, ir.Constant(COUNT_ROW, None))
        return builder.zext(builder.bitcast(present, ir.IntType(NR)), ir.IntType(64))
    return types.int64(counts, types.int64), codegen


@intrinsic
def _count_trailing_zeros(typingctx, mask):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


@intrinsic
def _count_leading_zeros(typingctx, mask):
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


@kernel(inline="always")
def lowest_rank(mask):
    """The lowest rank id whose bit is set in `mask` (NO_RANK when none is)."""
    return _count_trailing_zeros(mask) - (mask == 0) * (64 - NO_RANK)  # no branch: cttz(0) is 64


@kernel(inline="always")
def highest_rank(mask):
    """The highest rank id whose bit is set in `mask` (NO_RANK when none is)."""
    return 63 - _count_leading_zeros(mask)  # ctlz(0) is 64: NO_RANK


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
def faceup_addable(obs, hand, rank, count):
    """V11: how many face-up cards of `rank` may join a play of `count` from the hand."""
    if obs[LAST_HAND_WITH_FACEUP] == 0 or obs[SOURCE] != SRC_HAND or obs[TALON_SIZE] != 0:
        return 0
    if count != hand.sum():
        return 0
    return obs[FACEUP + obs[SEAT] * NR + rank]


@kernel(inline="always")
def play_at_most(obs, hand, rank, most):
    """A play of `rank` from the source: every copy, but at most `most` from the hand while the
    talon lasts (R16.1 refills the hand anyway); V11 face-up cards join a play that empties the hand."""
    count = held_in_source(obs, hand, rank)
    if count > most and obs[SOURCE] == SRC_HAND and obs[TALON_SIZE] > 0:
        count = most
    return play(rank, count, faceup_addable(obs, hand, rank, count))


@kernel(inline="always")
def play_all(obs, hand, rank):
    """A play of every copy of `rank` in the source (with V11's face-up cards when allowed)."""
    held = held_in_source(obs, hand, rank)
    return play(rank, held, faceup_addable(obs, hand, rank, held))


# ---- the swap and the blind phase -------------------------------------------------

@kernel(inline="always")
def swap_best(obs, hand, preference):
    """The swap that lays face-up the 3 most wanted of the 6 cards, `preference` listing
    all 13 ranks from the most wanted (an int64 array)."""
    row = FACEUP + obs[SEAT] * NR
    choice = 0
    need = 3
    for i in range(NR):
        r = preference[i]
        k = hand[r] + obs[row + r]
        while k > 0 and need > 0:
            choice = choice * NR + r
            need -= 1
            k -= 1
        if need == 0:
            break
    return choice


@kernel
def swap_keep_deal(obs):
    """The swap that leaves the dealt face-up cards face-up."""
    row = FACEUP + obs[SEAT] * NR
    choice = 0
    for r in range(NR):
        for _ in range(obs[row + r]):
            choice = choice * NR + r
    return choice


@kernel(inline="always")
def lowest_blind(obs):
    """The lowest-numbered blind position that still holds a card."""
    base = BLIND_PRESENT + obs[SEAT] * 3
    for pos in range(3):
        if obs[base + pos]:
            return pos
    return 0


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


# ---- playing like `basic` (docs/rules.md's reference strategy) -----------------------------

# Ranks from the most wanted face-up: the `basic` key, highest first (10, 2, A, K, ..., 3).
BASIC_PREFERENCE = np.array(BASIC_ORDER[::-1], dtype=np.int64)


@kernel(inline="always")
def basic_rank(playable):
    """`basic`'s rank among the playable ones (a rank bit mask): the lowest ordinary rank; else 2; else 10;
    -1 when none is playable (the engine's inline basic turns use this too)."""
    if playable & ORDINARY_MASK:
        return lowest_rank(playable & ORDINARY_MASK)
    if playable & (1 << TWO):
        return TWO
    if playable & (1 << TEN):
        return TEN
    return -1


@kernel(inline="always")
def basic_turn(obs, hand):
    """All copies of the lowest legal ordinary rank; else all 2s; else all legal 10s; else pick up."""
    r = basic_rank(playable_mask(obs, hand))
    if r < 0:
        return PICKUP
    return play_all(obs, hand, r)


@kernel(inline="always")
def play_like_basic(obs, hand):
    """The decision `basic` makes: the 3 best cards by its key face-up, `basic_turn`, the lowest blind."""
    if obs[DECISION] == SWAP:
        return swap_best(obs, hand, BASIC_PREFERENCE)
    if obs[DECISION] == TURN:
        return basic_turn(obs, hand)
    return lowest_blind(obs)


# ---- illegal moves -----------------------------------------------------------------
# What a decision may not be: both engines report an illegal decision by one of these codes.
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
    giving a game's cost, in games of ``basic``, when one seat plays it (``idiotsim.work``).
    ``weights``: None, or a function of the knob values giving a block of numbers that ``params``
    appends after the knobs (the `learned` family's model: thousands of numbers, not knobs)."""
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

    def params(self, values: dict | None = None) -> np.ndarray:
        values = values or {}
        knobs = np.array([float(values.get(k.name, k.default)) for k in self.knobs], dtype=np.float64)
        if self.weights is None:
            return knobs
        return np.concatenate([knobs, np.asarray(self.weights(values), dtype=np.float64)])

    def __reduce__(self):
        """Pickled (for a Dask worker) with its decision function by import name when it is importable,
        as every shipped family's is: numba rebuilds a pickled function by value and without its disk
        cache, so each worker process would compile it again (minutes for the search family)."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        reference = _import_name(self.decide)
        if reference is not None:
            fields["decide"] = None  # imported again by name on the other side
        return (_strategy_from_fields, (fields, reference))


def _import_name(function) -> tuple[str, str] | None:
    """(module, name) under which `function` is importable in any process, or None (a user's file
    loaded by path, a function made at run time)."""
    module, name = getattr(function, "__module__", None), getattr(function, "__name__", None)
    if not module or not name or not module.startswith("idiotsim."):
        return None
    return (module, name) if getattr(sys.modules.get(module), name, None) is function else None


def _strategy_from_fields(fields: dict, reference: tuple[str, str] | None) -> Strategy:
    if reference is not None:
        fields = dict(fields, decide=getattr(importlib.import_module(reference[0]), reference[1]))
    return Strategy(**fields)
