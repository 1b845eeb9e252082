"""A decision's moves: the signature every strategy is compiled with, the move codes it returns, which
moves the rules allow (docs/rules.md R10-R16, V1/V2, V5, V6, V11, V12), and the one list of legal moves.

A strategy is ``decide(obs, hand, params, rng) -> int`` compiled with ``SIG``. It returns, by decision
(``obs[DECISION]``):

- SWAP (R6): ``swap_choice(a, b, c)``, the ranks of the 3 cards to lie face-up;
- TURN: ``play(rank, count, extra)`` (``extra`` face-up cards join under V11), ``PICKUP`` or ``CHANCE`` (V5);
- BLIND (R15): the blind position (0, 1 or 2) to flip.

`list_turn_moves` and `list_swap_moves` (`list_moves` for either) list every legal move of a decision in one
order; every caller that needs the legal moves (the search, the learned player, the gate, `analyze`,
`review`, the table, the learning pipeline, OpenSpiel and PettingZoo) takes them from there. Both engines
check a decision by the same reasons (``ILLEGAL_REASONS``).

Everything numba here is compiled with ``kernel``: inline or small, it allocates nothing, and it runs
the same in the numba engine and, called from Python, beside the reference engine.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from idiotsim.game.cards import JACK, SIX, TEN, TWO
from idiotsim.game.observation import (ALL_RANKS, CAN_CHANCE, CAN_PICKUP, DECISION, FACEUP, LAST_HAND_WITH_FACEUP,
                                       LEGAL, MUST_PLAY, NR, PILE_RUN, PILE_TOP, SEAT, SIX_BURN, SOURCE, SRC_FACEUP,
                                       SRC_HAND, SWAP, TALON_SIZE)
from idiotsim.jit import kernel

SIG = types.int64(types.int64[::1], types.int64[::1], types.float64[::1], types.uint64[::1])

PICKUP = -1
CHANCE = -2
NO_RANK = -1  # what the rank helpers return when there is none
MAX_MOVES = 512  # a decision's legal moves at most: 13 ranks x counts 1..8 x V11 extras 0..3, pickup, chance


def compiled(decide):
    """The decision function compiled for ``SIG`` (from numba's cache when it can)."""
    if not any(tuple(sig) == tuple(SIG.args) for sig in decide.signatures):
        decide.compile(SIG)
    return decide


# ---- move codes ------------------------------------------------------------------

@kernel(inline="always")
def play(rank, count, extra):
    """A play of `count` cards of `rank` from the source, plus `extra` face-up cards (V11)."""
    return rank | (count << 4) | (extra << 8)


@kernel(inline="always")
def swap_choice(a, b, c):
    """The three ranks to lie face-up."""
    return a + NR * b + NR * NR * c


@kernel(inline="always")
def play_rank(move):
    """The rank of a play code."""
    return move & 15


@kernel(inline="always")
def play_cards(move):
    """The cards a play code puts on the pile: its count and its V11 face-up extras."""
    return ((move >> 4) & 15) + (move >> 8)


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
    """Bit r set when the player may play rank r now (`can_play`): held in the current source, legal on the
    pile, and V12's opening rank when one is due."""
    must = obs[MUST_PLAY]
    allowed = obs[LEGAL] if must < 0 else obs[LEGAL] & (1 << must)
    if obs[SOURCE] == SRC_HAND:
        return ranks_present(hand, 0) & allowed
    if obs[SOURCE] == SRC_FACEUP:
        return ranks_present(obs, FACEUP + obs[SEAT] * NR) & allowed
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
def play_burns(obs, move):
    """Does the play `move` (a legal play code, not PICKUP or CHANCE) burn the pile (R16.2)? A play of 10s;
    or one that leaves four or more cards of its rank on top (V7), or with V10 three 6s."""
    rank = move & 15
    run = play_cards(move)
    if obs[PILE_TOP] == rank:
        run += obs[PILE_RUN]
    return rank == TEN or run >= 4 or (obs[SIX_BURN] > 0 and rank == SIX and run >= obs[SIX_BURN])


@kernel(inline="always")
def faceup_addable(obs, hand, rank, count):
    """V11: how many face-up cards of `rank` may join a play of `count` from the hand."""
    if obs[LAST_HAND_WITH_FACEUP] == 0 or obs[SOURCE] != SRC_HAND or obs[TALON_SIZE] != 0:
        return 0
    if count != hand.sum():
        return 0
    return obs[FACEUP + obs[SEAT] * NR + rank]



@kernel(inline="always")
def play_all(obs, hand, rank):
    """A play of every copy of `rank` in the source (with V11's face-up cards when allowed)."""
    held = held_in_source(obs, hand, rank)
    return play(rank, held, faceup_addable(obs, hand, rank, held))


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


# ---- the legal moves -------------------------------------------------------------------

@kernel
def list_turn_moves(obs, hand, moves):
    """Every legal move of a TURN decision into `moves` (MAX_MOVES long); returns how many. In this order:
    each rank held in the source and legal now (V12: only MUST_PLAY), lowest id first, with each count
    1..held, and a play that empties the hand (V11) with each number of addable face-up cards; PICKUP
    when the pile is not empty (R14); CHANCE when V5 allows it."""
    count = 0
    must = obs[MUST_PLAY]
    for r in range(NR):
        if (must >= 0 and r != must) or not legal_now(obs, r):
            continue
        held = held_in_source(obs, hand, r)
        for c in range(1, held + 1):
            for extra in range(faceup_addable(obs, hand, r, c) + 1):
                moves[count] = play(r, c, extra)
                count += 1
    if obs[CAN_PICKUP] != 0:
        moves[count] = PICKUP
        count += 1
    if obs[CAN_CHANCE] != 0:
        moves[count] = CHANCE
        count += 1
    return count


@kernel(inline="always")
def can_lay(obs, hand, r1, r2, r3):
    """Are ranks r1, r2, r3 (a rank may repeat) among the seat's 6 cards at the swap (R6)?"""
    row = FACEUP + obs[SEAT] * NR
    for r in (r1, r2, r3):
        if (r1 == r) + (r2 == r) + (r3 == r) > hand[r] + obs[row + r]:
            return False
    return True


@kernel
def list_swap_moves(obs, hand, moves):
    """Every distinct choice of 3 face-up cards of the seat's 6 (R6) into `moves`, as `swap_choice` codes
    with the ranks ascending (`sorted_swap`), in ascending order of the ranks; returns how many."""
    count = 0
    for r1 in range(NR):
        for r2 in range(r1, NR):
            for r3 in range(r2, NR):
                if can_lay(obs, hand, r1, r2, r3):
                    moves[count] = swap_choice(r1, r2, r3)
                    count += 1
    return count


@kernel
def list_moves(obs, hand, moves):
    """`list_swap_moves` at the swap, else `list_turn_moves` (a blind flip, R15, has nothing to choose)."""
    if obs[DECISION] == SWAP:
        return list_swap_moves(obs, hand, moves)
    return list_turn_moves(obs, hand, moves)


@kernel(inline="always")
def sorted_swap(choice):
    """The swap choice with its three ranks ascending, as `list_swap_moves` lists it."""
    a, b, c = choice % NR, (choice // NR) % NR, choice // (NR * NR)
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return swap_choice(a, b, c)


@kernel
def put_first(moves, count, move):
    """`move` to the front of the first `count` moves, the others keeping their order (added when it is
    not among them); returns the new count."""
    at = count
    for i in range(count):
        if moves[i] == move:
            at = i
            break
    for i in range(at, 0, -1):
        moves[i] = moves[i - 1]
    moves[0] = move
    return count + 1 if at == count else count


def legal_moves(obs: np.ndarray, hand: np.ndarray, first: int | None = None) -> np.ndarray:
    """Every legal move of a SWAP or TURN decision (`list_moves`), `first` moved to the front when given."""
    moves = np.zeros(MAX_MOVES, np.int64)
    count = list_moves(obs, hand, moves)
    if first is not None:
        count = put_first(moves, count, first)
    return moves[:count].copy()
