"""The hidden cards of a table, read and written by name: the hands, the blind cards, the talon and the
face-up cards dealt for the swap, which no observation shows.

For everything that builds a table from what it knows or believes and plays it on: the search's
determinizations (``strategies.search.sampler``), positions replayed from the reference engine
(``analysis.replayed_states``), OpenSpiel's sampled worlds (``interop.worlds``). A table is one int64
array of TABLE_SIZE whose first OBS_SIZE values are its public observation (``game.observation``); the
rest is the engine's own (``state_layout``, read only inside ``engine/``). The accessors compile inline
to the load or store they name; they take the table or its ``memory.data_pointer`` (indexed without
numba's negative-index wraparound code).
"""
from __future__ import annotations

import numpy as np
from numba import carray, njit

from idiotsim.engine.memory import array_at, data_pointer
from idiotsim.engine.state_layout import (BLIND, GAME, HANDS, MAX_CARDS, NEXT_PLACE, PLAYERS_IN, RECORD, STATE_SIZE,
                                          SWAP_FACEUP, TALON, TALON_LEN, TALON_POS)
from idiotsim.game import observation as ob
from idiotsim.game.observation import NR
from idiotsim.jit import kernel

TABLE_SIZE = STATE_SIZE  # the int64 values of one table
MAX_TABLE_CARDS = MAX_CARDS  # the cards of the largest deal: room for any list of a table's cards
MAX_TALON = MAX_TABLE_CARDS  # room for the talon
NO_CARD = -1  # a blind position already flipped


@kernel(inline="always")
def hand_of(st, seat):
    """The 13 rank counts of `seat`'s hand, as an array over the table's memory (writes go through)."""
    return array_at(data_pointer(st), HANDS + seat * NR, NR)


@kernel(inline="always")
def hand_count(st, seat, rank):
    return st[HANDS + seat * NR + rank]


@kernel(inline="always")
def set_hand_count(st, seat, rank, count):
    st[HANDS + seat * NR + rank] = count


@kernel(inline="always")
def add_hand_card(st, seat, rank):
    """One card of `rank` more in `seat`'s hand."""
    st[HANDS + seat * NR + rank] += 1


@kernel(inline="always")
def dealt_faceup_count(st, seat, rank):
    """Cards of `rank` dealt face-up to `seat` while the swap (R6) is open."""
    return st[SWAP_FACEUP + seat * NR + rank]


@kernel(inline="always")
def set_dealt_faceup_count(st, seat, rank, count):
    st[SWAP_FACEUP + seat * NR + rank] = count


@kernel(inline="always")
def add_dealt_faceup_card(st, seat, rank):
    """One card of `rank` more dealt face-up to `seat` (the swap, R6, still open)."""
    st[SWAP_FACEUP + seat * NR + rank] += 1


@kernel(inline="always")
def blind_card(st, seat, position):
    """The rank of `seat`'s blind card at `position` (0..2), NO_CARD once flipped."""
    return st[BLIND + 3 * seat + position]


@kernel(inline="always")
def set_blind_card(st, seat, position, rank):
    st[BLIND + 3 * seat + position] = rank


@kernel(inline="always")
def talon_left(st):
    """Cards still to draw from the talon."""
    return st[TALON_LEN] - st[TALON_POS]


@kernel(inline="always")
def talon_card(st, i):
    """The rank of the i-th card still to draw (0: the next)."""
    return st[TALON + st[TALON_POS] + i]


@kernel(inline="always")
def set_talon(st, count):
    """The talon holds `count` cards from its start (set them with `set_talon_card`)."""
    st[TALON_POS] = 0
    st[TALON_LEN] = count


@kernel(inline="always")
def set_talon_card(st, i, rank):
    """The i-th card from the start of a talon laid by `set_talon`."""
    st[TALON + i] = rank


@kernel
def settle_scalars(st):
    """The engine's game scalars of a table composed from an observation: cleared, then the next place
    and the players still in from the observation's places; nothing recorded."""
    p = data_pointer(st)
    n = st[ob.PLAYERS]
    for i in range(GAME, STATE_SIZE):
        p[i] = 0
    out = 0
    for s in range(n):
        out += st[ob.PLACE + s] != 0
    st[NEXT_PLACE] = out + 1
    st[PLAYERS_IN] = n - out


@kernel(inline="always")
def copy_range(s, d, start, length):
    """d[start:start + length] = s[start:start + length] (arrays or pointers), as a loop numba inlines."""
    for i in range(start, start + length):
        d[i] = s[i]


@kernel
def copy_live_table(src, dst):
    """The part of a table a rollout reads and writes, from `src` into `dst`: the rows of the seats in
    play (rows past them stay as they are in `dst`: a fresh table's zeros; the dealt face-up rows only
    at the swap), the talon still to draw, the game scalars; not the dealt deck, not a recording."""
    s, d = data_pointer(src), data_pointer(dst)  # pointers: no wraparound code per element
    n = s[ob.PLAYERS]
    copy_range(s, d, 0, ob.HEADER_SIZE)
    for start in (ob.FACEUP, ob.KNOWN, HANDS):
        copy_range(s, d, start, n * NR)
    if s[ob.DECISION] == ob.SWAP:
        copy_range(s, d, SWAP_FACEUP, n * NR)
    for start in (ob.BLIND_PRESENT, BLIND):
        copy_range(s, d, start, 3 * n)
    for start in (ob.HAND_SIZE, ob.FACEUP_SIZE, ob.BLIND_SIZE, ob.PLACE, ob.SCORE, ob.PICKUP_LEGAL, ob.PICKUP_FREE,
                  ob.LACKS, ob.LACKS_FREE):
        copy_range(s, d, start, n)
    copy_range(s, d, ob.PILE_COUNTS, 2 * NR)  # and BURNED
    copy_range(s, d, TALON + s[TALON_POS], s[TALON_LEN] - s[TALON_POS])
    copy_range(s, d, GAME, STATE_SIZE - GAME)
    d[RECORD] = 0


@njit(cache=True)
def table_of_observation(obs):
    """The table an observation handed out by the numba engine is the head of: the one way from an
    observation to the hidden cards behind it, for a player that is not fair (an oracle, such as
    ``search-perfect-info``). Only an observation that is the head of a table has one; any other array
    gives memory that is not a table."""
    return carray(data_pointer(obs), TABLE_SIZE)


def compose_table(obs: np.ndarray, hands, blinds, talon) -> np.ndarray:
    """A table in play from its observation (a decision's, ``game.observation``) and its hidden cards:
    `hands` the 13 rank counts of each seat, `blinds` each seat's 3 blind ranks (NO_CARD where flipped),
    `talon` the ranks still to draw, next first."""
    st = np.zeros(TABLE_SIZE, dtype=np.int64)
    st[:ob.OBS_SIZE] = obs
    for seat, counts in enumerate(hands):
        st[HANDS + seat * NR: HANDS + (seat + 1) * NR] = counts
    for seat, ranks in enumerate(blinds):
        st[BLIND + 3 * seat: BLIND + 3 * seat + 3] = ranks
    settle_scalars(st)
    set_talon(st, len(talon))
    st[TALON: TALON + len(talon)] = talon
    return st


def hidden_cards(st: np.ndarray) -> tuple:
    """(hands, dealt face-up, blinds, talon) of a table, as compose_table takes them (Python lists)."""
    n = int(st[ob.PLAYERS])
    hands = [st[HANDS + s * NR: HANDS + (s + 1) * NR].tolist() for s in range(n)]
    faceup = [st[SWAP_FACEUP + s * NR: SWAP_FACEUP + (s + 1) * NR].tolist() for s in range(n)]
    blinds = [st[BLIND + 3 * s: BLIND + 3 * s + 3].tolist() for s in range(n)]
    talon = st[TALON + st[TALON_POS]: TALON + st[TALON_LEN]].tolist()
    return hands, faceup, blinds, talon


def places_settled(st: np.ndarray) -> tuple:
    """(next place, players still in): what `settle_scalars` derives, as the table holds them."""
    return int(st[NEXT_PLACE]), int(st[PLAYERS_IN])
