"""The moves a person may make at a decision, how they are shown, and what a typed answer means.

A decision's moves are the legal moves the engine accepts (``idiotsim.game.basic_player.legal_moves_basic_first``: every
rank with every count, V11's added face-up cards, the pickup, V5's chance; at the swap every
distinct choice of 3 face-up cards, R6; on the blind row every position still lying, R15), listed
in the order a hand is held and numbered from 1. An answer is a number of the list or the move
typed: ``3 7s`` (three 7s), ``7s`` or ``7`` (every 7 held), ``10``, ``pickup``, ``chance``,
``K A 2`` at the swap (the three face-up ranks).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from idiotsim.game import observation as ob
from idiotsim.game.basic_player import legal_moves_basic_first
from idiotsim.game.cards import BASIC_KEY, NUM_RANKS, RANK_NAMES, RANK_OF_NAME, card_rank, sort_ranks_basic
from idiotsim.game.moves import CHANCE, PICKUP, play_parts, swap_ranks

PICKUP_WORDS = ("pickup", "pick up", "p", "take", "pick")
CHANCE_WORDS = ("chance", "c")
COMMANDS = ("hint", "quit", "help")


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


def parse(text: str, decision: int, moves: list[Move], hand) -> Answer:
    """The meaning of `text` at a decision with the listed `moves` (`hand`: own counts per rank)."""
    answer = text.strip().lower()
    if not answer:
        return Answer(error="type a move's number, or the move itself (help: the ways to answer)")
    if answer in COMMANDS:
        return Answer(command=answer)
    if answer.isdigit() and 1 <= int(answer) <= len(moves):
        return Answer(move=moves[int(answer) - 1].code)
    codes = {m.code for m in moves}
    if decision == ob.BLIND:
        return Answer(error=f"choose a blind card by its number: 1..{len(moves)}")
    if decision == ob.SWAP:
        return _parse_swap(answer, codes)
    if answer in PICKUP_WORDS:
        return Answer(move=PICKUP) if PICKUP in codes else Answer(error="the pile is empty: there is nothing to pick up")
    if answer in CHANCE_WORDS:
        return Answer(move=CHANCE) if CHANCE in codes else Answer(error="chance is not allowed now (V5)")
    return _parse_play(answer, codes, hand)


def _parse_swap(answer: str, codes: set) -> Answer:
    words = answer.removeprefix("face-up").replace(",", " ").split()
    if len(words) != 3 or any(w.upper() not in RANK_OF_NAME for w in words):
        return Answer(error="at the swap, type a number of the list or the three face-up ranks, e.g. K A 2")
    code = swap_code(RANK_OF_NAME[w.upper()] for w in words)
    if code not in codes:
        return Answer(error=f"you do not hold {' '.join(w.upper() for w in words)} among your 6 cards")
    return Answer(move=code)


def _parse_play(answer: str, codes: set, hand) -> Answer:
    match = _PLAY.match(answer)
    if not match:
        return Answer(error=f"{answer!r} is not a move: type a number 1..{len(codes)}, a play like 3 7s, "
                            "pickup, hint or quit")
    count_text, rank_text, extra_text = match.groups()
    rank = RANK_OF_NAME[rank_text.upper()]
    held = [m for m in codes if m not in (PICKUP, CHANCE) and m & 15 == rank]
    if not held:
        return Answer(error=f"no {RANK_NAMES[rank]} can be played now")
    count = int(count_text) if count_text else max((m >> 4) & 15 for m in held)
    extra = int(extra_text or 0)
    code = rank | count << 4 | extra << 8
    if code not in codes:
        most = max((m >> 4) & 15 for m in held)
        return Answer(error=f"you can play 1..{most} of your {RANK_NAMES[rank]}s now, not {count}"
                      + (f" +{extra}" if extra else ""))
    return Answer(move=code)
