"""How a move differs from `basic`'s: the kinds of disagreement the reports (``experiments.disagreement``) and the
learned player's data (``learn.fitting``) count."""
from __future__ import annotations

from idiotsim.game.cards import TEN, TWO
from idiotsim.game.moves import PICKUP
from idiotsim.game.observation import NR

SWAP_KINDS = ("the swap: fewer 2s and 10s face-up", "the swap: more 2s and 10s face-up",
              "the swap: other ordinary cards face-up")
KINDS = (*SWAP_KINDS, "pick up instead of playing", "play a 10 (burn)", "keep the 10", "play a 2", "keep the 2",
         "fewer copies of the rank", "more copies of the rank", "a higher ordinary rank", "a lower ordinary rank",
         "other")


def kind_of(basic_move: int, search_move: int) -> str:
    """The kind of a turn disagreement between basic's move and the search's."""
    if search_move == PICKUP:
        return "pick up instead of playing"
    if basic_move < 0 or search_move < 0:
        return "other"
    b_rank, b_count = basic_move & 15, (basic_move >> 4) & 15
    s_rank, s_count = search_move & 15, (search_move >> 4) & 15
    if s_rank == b_rank:
        return "fewer copies of the rank" if s_count < b_count else "more copies of the rank"
    for rank, played, kept in ((TEN, "play a 10 (burn)", "keep the 10"), (TWO, "play a 2", "keep the 2")):
        if s_rank == rank:
            return played
        if b_rank == rank:
            return kept
    return "a higher ordinary rank" if s_rank > b_rank else "a lower ordinary rank"


def swap_kind_of(basic_choice: int, search_choice: int) -> str:
    """The kind of a swap disagreement (R6): by how many of the three face-up cards are 2s and 10s."""
    def specials(choice):
        return sum(r in (TWO, TEN) for r in face_up_ranks(choice))
    b, s = specials(basic_choice), specials(search_choice)
    return SWAP_KINDS[0] if s < b else SWAP_KINDS[1] if s > b else SWAP_KINDS[2]


def face_up_ranks(choice: int) -> tuple:
    """A swap choice (R6: three face-up ranks) as its sorted ranks, whatever their order in the code."""
    return tuple(sorted((choice % NR, choice // NR % NR, choice // (NR * NR))))
