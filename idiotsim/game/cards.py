"""Ranks, card codes and deck strings (docs/rules.md R1-R3, R5, V7).

Ranks are small integers, in the order of the R3 codes:
``0='2', 1='3', ..., 7='9', 8='10', 9='J', 10='Q', 11='K', 12='A'``.
For the ordinary ranks (all but 2 and 10) this id order is the R2 order,
so "r may follow t" is a plain integer comparison.
A card code is ``rank * 4 + suit`` with suits ``C D H S``.
"""
from __future__ import annotations

import numpy as np

from idiotsim.errors import UserError

RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_NAMES = ("C", "D", "H", "S")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")
NUM_RANKS = 13
TWO, THREE, SIX, TEN, JACK, KING, ACE = 0, 1, 4, 8, 9, 11, 12
RANK_OF_NAME = {name: r for r, name in enumerate(RANK_NAMES)}
HAND_TARGET = 3  # R5, R16.1: cards dealt to each row, and the hand size drawing refills to

# R2: the ordinary ranks (all but 2 and 10), low to high; their id order is the R2 order.
ORDINARY_RANKS = tuple(r for r in range(NUM_RANKS) if r not in (TWO, TEN))
ORDINARY_MASK = sum(1 << r for r in ORDINARY_RANKS)

# The `basic` key (docs/rules.md, the reference strategy): 3 < ... < 9 < J < Q < K < A < 2 < 10.
# BASIC_ORDER lists the ranks by the key, lowest first; BASIC_KEY[rank] is the rank's place in it.
BASIC_ORDER = ORDINARY_RANKS + (TWO, TEN)
BASIC_KEY = np.array([BASIC_ORDER.index(r) for r in range(NUM_RANKS)], dtype=np.int64)
BASIC_KEY.setflags(write=False)
# The play facts (docs/rules.md): KEY_BELOW[r], the ranks `basic` plays before r (a lower key), and
# KEY_ABOVE[r], the ranks it lays face-up before r (a higher key), as bit masks.
KEY_BELOW = np.array([sum(1 << q for q in range(NUM_RANKS) if BASIC_KEY[q] < BASIC_KEY[r]) for r in range(NUM_RANKS)],
                     dtype=np.int64)
KEY_ABOVE = np.array([sum(1 << q for q in range(NUM_RANKS) if BASIC_KEY[q] > BASIC_KEY[r]) for r in range(NUM_RANKS)],
                     dtype=np.int64)
KEY_BELOW.setflags(write=False)
KEY_ABOVE.setflags(write=False)


def is_ordinary(rank: int) -> bool:
    """R2: every rank but 2 and 10 has a place in the order."""
    return rank != TWO and rank != TEN


def card_rank(card: int) -> int:
    return card // 4


def card_name(card: int) -> str:
    return RANK_NAMES[card // 4] + SUIT_NAMES[card % 4]


def card_pretty(card: int) -> str:
    return RANK_NAMES[card // 4] + SUIT_SYMBOLS[card % 4]


def sort_ranks_basic(ranks) -> list[int]:
    return sorted(ranks, key=lambda r: BASIC_KEY[r])


def parse_card(code: str) -> int:
    code = code.strip().upper()
    rank, suit = code[:-1], code[-1:]
    if rank not in RANK_OF_NAME or suit not in SUIT_NAMES:
        raise UserError(f"unknown card code {code!r} (expected rank 2-10,J,Q,K,A then suit C,D,H,S, e.g. 10H)")
    return RANK_OF_NAME[rank] * 4 + SUIT_NAMES.index(suit)


def parse_deck(text: str, decks: int | None = None) -> np.ndarray:
    """A deck string (R3, V7): 52 or 104 comma-separated codes, top first.

    With ``decks`` given, the length must match it. Each card appears exactly
    once per deck.
    """
    codes = [c for c in text.strip().split(",")]
    if codes == [""]:
        raise UserError("empty deck string")
    cards = [parse_card(c) for c in codes]
    if len(cards) not in (52, 104):
        raise UserError(f"a deck has 52 or 104 cards, this one has {len(cards)}")
    n_decks = len(cards) // 52
    if decks is not None and n_decks != decks:
        raise UserError(f"the rules ask for {decks} deck(s) ({52 * decks} cards), the deck string has {len(cards)}")
    counts = np.bincount(np.array(cards), minlength=52)
    bad = np.flatnonzero(counts != n_decks)
    if len(bad):
        c = int(bad[0])
        raise UserError(
            f"card {card_name(c)} appears {int(counts[c])} time(s) in a {n_decks}-deck game (expected {n_decks})"
        )
    return np.array(cards, dtype=np.int64)


def format_deck(deck) -> str:
    return ",".join(card_name(int(c)) for c in deck)


def read_deck_file(path: str, decks: int | None = None) -> list[np.ndarray]:
    """One deck per non-empty line."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [ln for ln in f.read().splitlines() if ln.strip()]
    except OSError as e:
        raise UserError(f"cannot read deck file {path}: {e.strerror}") from None
    if not lines:
        raise UserError(f"deck file {path} holds no deck")
    result = []
    for i, line in enumerate(lines, 1):
        try:
            result.append(parse_deck(line, decks))
        except UserError as e:
            raise UserError(f"{path} line {i}: {e}") from None
    return result
