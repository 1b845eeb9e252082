"""The moves a person may make at a decision, how they are shown, and what a typed answer means.

A decision's moves are the legal moves the engine accepts (``idiotsim.game.basic_player.legal_moves_basic_first``: every
rank with every count, V11's added face-up cards, the pickup, V5's chance; at the swap every
distinct choice of 3 face-up cards, R6; on the blind row every position still lying, R15), listed
in the order a hand is held and numbered from 1. An answer is a number of the list or the move
typed: ``3 7s`` (three 7s), ``7s`` or ``7`` (every 7 held), ``10``, ``pickup``, ``chance``,
``K A 2`` at the swap (the three face-up ranks), or the cards as the screen shows them, with suit
letters or symbols: ``7H 7S`` or ``7♥ 7♠`` (two 7s), ``3h``, ``KH AS 2C`` at the swap. Suits never
matter to play (R1): a play of k cards of a rank plays the seat's lowest card codes of it, as the
engine does, so a card typed must only be one the seat holds where it plays from. One spelling is
read two ways: a lone ``7s`` is every 7 held (the plural, as before suits were read), ``7S`` in
capitals the 7 of spades. Errors quote the answer as it was typed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from idiotsim.game import observation as ob
from idiotsim.game.basic_player import legal_moves_basic_first
from idiotsim.game.cards import (BASIC_KEY, NUM_RANKS, RANK_NAMES, RANK_OF_NAME, SUIT_NAMES, SUIT_SYMBOLS,
                                 card_rank, sort_ranks_basic)
from idiotsim.game.moves import CHANCE, PICKUP, play_parts, swap_ranks

PICKUP_WORDS = ("pickup", "pick up", "p", "take", "pick")
CHANCE_WORDS = ("chance", "c")
COMMANDS = ("hint", "hint all", "quit", "help")


@dataclass(frozen=True)
class Move:
    """A legal move: the code the engine takes and the words shown for it."""
    code: int
    label: str


def swap_code(ranks) -> int:
    """The swap choice of three face-up ranks, ascending as ``search.list_swap_moves`` lists it."""
    a, b, c = sorted(ranks)
    return a + NUM_RANKS * b + NUM_RANKS ** 2 * c


def _lowest(cards, rank: int, k: int) -> list[int]:
    """The k cards of `rank` the engine plays first: the lowest codes (R5, decision)."""
    return sorted(c for c in cards if card_rank(c) == rank)[:k]


def turn_moves(codes: list[int], faceup: list[int], obs, hand, rules, show) -> list[Move]:
    """The moves of a TURN decision; `codes` are the cards of the seat's source row (R13), `faceup`
    its face-up row (V11 adds from it), `show` writes a card code."""
    listed = [int(m) for m in legal_moves_basic_first(obs, hand)]
    plays = sorted((m for m in listed if m not in (PICKUP, CHANCE)),
                   key=lambda m: (BASIC_KEY[m & 15], *play_parts(m)[1:]))
    moves = []
    for m in plays:
        rank, count, extra = play_parts(m)
        label = " ".join(show(c) for c in _lowest(codes, rank, count))
        if extra:
            label += f" + face-up {' '.join(show(c) for c in _lowest(faceup, rank, extra))}"
        moves.append(Move(m, label))
    if PICKUP in listed:
        moves.append(Move(PICKUP, f"pick up the pile ({obs[ob.PILE_SIZE]})"))
    if CHANCE in listed:
        moves.append(Move(CHANCE, "chance (the talon's top card)"))
    return moves


def swap_moves(six: list[int], obs, hand, rules, show) -> list[Move]:
    """The distinct choices of 3 face-up cards of the seat's 6 (R6); a choice's cards are the lowest
    codes of each rank, as the engine lays them."""
    moves = []
    for m in (int(x) for x in legal_moves_basic_first(obs, hand)):
        ranks = sort_ranks_basic(swap_ranks(m))
        pool = list(six)
        cards = []
        for r in ranks:
            card = _lowest(pool, r, 1)[0]
            pool.remove(card)
            cards.append(card)
        moves.append(Move(m, " ".join(show(c) for c in cards)))
    moves.sort(key=lambda mv: _strongest_first(mv.code))
    return moves


def _strongest_first(choice: int) -> list[int]:
    """Sort key of swap choices: the strongest face-up rows (by basic's key) first."""
    return sorted(-int(BASIC_KEY[r]) for r in swap_ranks(choice))


def blind_moves(obs) -> list[Move]:
    """R15: one of the blind positions still lying, chosen without seeing it."""
    seat = int(obs[ob.SEAT])
    return [Move(p, f"blind card {p + 1}") for p in range(3) if obs[ob.BLIND_PRESENT + 3 * seat + p]]


def move_list(decision: int, cards: list[int], obs, hand, rules, show, faceup=()) -> list[Move]:
    """The numbered list of a decision; `cards`: the seat's source row (TURN) or its 6 cards (SWAP);
    `faceup`: its face-up row (V11's added cards)."""
    if decision == ob.SWAP:
        return swap_moves(cards, obs, hand, rules, show)
    if decision == ob.BLIND:
        return blind_moves(obs)
    return turn_moves(cards, list(faceup), obs, hand, rules, show)


# ---- answers ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    """What a typed line means: a move code, a command (``hint``, ``quit``, ``help``), or an error
    message to show before the same prompt."""
    move: int | None = None
    command: str | None = None
    error: str | None = None


_RANK = r"(10|[2-9]|j|q|k|a)"
_PLAY = re.compile(rf"^(?:play\s+)?(?:(\d+)(?:\s*x\s*|\s+))?{_RANK}s?(?:\s*\+\s*(\d+))?$")  # [N ]rank[s][ +E]
_CARD = re.compile(r"^(10|[2-9]|[jqka])([cdhs\u2663\u2666\u2665\u2660])$", re.IGNORECASE)
_SUIT_OF = {**{letter: i for i, letter in enumerate(SUIT_NAMES)}, **{sym: i for i, sym in enumerate(SUIT_SYMBOLS)}}
_EXTRA = re.compile(r"\s*\+\s*(\d+)$")


def parse(text: str, decision: int, moves: list[Move], hand, cards=(), show=None) -> Answer:
    """The meaning of `text` at a decision with the listed `moves` (`hand`: own counts per rank;
    `cards`: the card codes the seat plays from, its six at the swap, for answers that name cards;
    `show`: how the screen writes a card, for the errors that list the seat's cards)."""
    typed = " ".join(text.split())
    answer = typed.lower()
    if not answer:
        return Answer(error="type a move's number, or the move itself (help: the ways to answer)")
    if answer in COMMANDS:
        return Answer(command=answer)
    if answer.isdigit() and 1 <= int(answer) <= len(moves):
        return Answer(move=moves[int(answer) - 1].code)
    codes = {m.code for m in moves}
    if decision == ob.BLIND:
        return Answer(error=f"choose a blind card by its number: 1..{len(moves)}")
    named = _cards_named(typed)
    if decision == ob.SWAP:
        return _parse_swap(typed, codes, named, cards, len(moves))
    if answer in PICKUP_WORDS:
        return Answer(move=PICKUP) if PICKUP in codes else Answer(error="the pile is empty: there is nothing to pick up")
    if answer in CHANCE_WORDS:
        return Answer(move=CHANCE) if CHANCE in codes else Answer(error="chance is not allowed now (V5)")
    if named is not None:
        return _parse_cards(typed, named, codes, cards, show or _letters)
    return _parse_play(typed, codes, cards)


def _cards_named(typed: str):
    """The cards an answer names, as (rank, suit, token) each, with a trailing `+E` (V11's added
    face-up cards) apart; None when it is not a list of cards. A lone `7s` is the plural (every 7),
    not the 7 of spades, unless the S is a capital."""
    extra = _EXTRA.search(typed)
    body = typed[:extra.start()] if extra else typed
    tokens = body.split()
    if tokens and tokens[0].lower() == "play":
        tokens = tokens[1:]
    found = [_CARD.match(t) for t in tokens]
    if not tokens or not all(found):
        return None
    if len(tokens) == 1 and tokens[0].endswith("s") and not extra:
        return None  # `7s`: every 7 held (the plural)
    cards = [(RANK_OF_NAME[m.group(1).upper()], _SUIT_OF[m.group(2).upper() if m.group(2).isascii() else m.group(2)],
              t) for m, t in zip(found, tokens)]
    return cards, int(extra.group(1)) if extra else 0


def _missing(named, cards) -> str | None:
    """The first card named that the seat does not hold in `cards` (each held card answers once)."""
    pool = list(cards)
    for rank, suit, token in named:
        code = rank * 4 + suit
        if code not in pool:
            return token
        pool.remove(code)
    return None


def _parse_cards(typed: str, named, codes: set, cards, show) -> Answer:
    named, extra = named
    ranks = {rank for rank, _, _ in named}
    if len(ranks) > 1:
        return Answer(error=f"{typed!r}: one rank at a time (a play is k cards of one rank, R9)")
    missing = _missing(named, cards)
    rank = ranks.pop()
    if missing is not None:
        held = [c for c in cards if card_rank(c) == rank]
        yours = f"your {RANK_NAMES[rank]}s there: {' '.join(show(c) for c in sorted(held))}" if held \
            else f"you hold no {RANK_NAMES[rank]} there"
        return Answer(error=f"{typed!r}: you do not hold {missing} where you play from ({yours})")
    code = rank | len(named) << 4 | extra << 8
    if code not in codes:
        return Answer(error=f"{typed!r}: " + _why_not(rank, len(named), extra, codes))
    return Answer(move=code)


def _letters(card: int) -> str:
    return RANK_NAMES[card_rank(card)] + SUIT_NAMES[card % 4]


def _why_not(rank: int, count: int, extra: int, codes: set) -> str:
    held = [m for m in codes if m not in (PICKUP, CHANCE) and m & 15 == rank]
    if not held:
        return f"no {RANK_NAMES[rank]} can be played now"
    most = max((m >> 4) & 15 for m in held)
    can = f"one {RANK_NAMES[rank]}" if most == 1 else f"1..{most} of your {RANK_NAMES[rank]}s"
    return f"you can play {can} now, not {count}" + (f" +{extra}" if extra else "")


def _parse_swap(typed: str, codes: set, named, cards, listed: int) -> Answer:
    if named is not None and not named[1]:
        if len(named[0]) != 3:
            return Answer(error=f"{typed!r}: at the swap, name three cards or ranks, e.g. K A 2")
        missing = _missing(named[0], cards)
        if missing is not None:
            return Answer(error=f"{typed!r}: {missing} is not among your 6 cards")
        ranks = [rank for rank, _, _ in named[0]]
    else:
        words = typed.lower().removeprefix("face-up").replace(",", " ").split()
        if len(words) != 3 or any(w.upper() not in RANK_OF_NAME for w in words):
            return Answer(error=f"{typed!r}: at the swap, type 1..{listed} from the list, or three ranks (K A 2)")
        ranks = [RANK_OF_NAME[w.upper()] for w in words]
    code = swap_code(ranks)
    if code not in codes:
        return Answer(error=f"{typed!r}: you do not hold {' '.join(RANK_NAMES[r] for r in ranks)} among your 6 cards")
    return Answer(move=code)


def _parse_play(typed: str, codes: set, cards) -> Answer:
    match = _PLAY.match(typed.lower())
    if not match:
        return Answer(error=f"{typed!r} is not a move: type 1..{len(codes)}, a play (3 7s, 7H), pickup, hint or quit")
    count_text, rank_text, extra_text = match.groups()
    rank = RANK_OF_NAME[rank_text.upper()]
    held = [m for m in codes if m not in (PICKUP, CHANCE) and m & 15 == rank]
    if cards and not any(card_rank(c) == rank for c in cards):
        return Answer(error=f"{typed!r}: you hold no {RANK_NAMES[rank]} where you play from")
    if not held:
        return Answer(error=f"{typed!r}: no {RANK_NAMES[rank]} can be played now")
    count = int(count_text) if count_text else max((m >> 4) & 15 for m in held)
    extra = int(extra_text or 0)
    code = rank | count << 4 | extra << 8
    if code not in codes:
        return Answer(error=f"{typed!r}: " + _why_not(rank, count, extra, codes))
    return Answer(move=code)
