"""Rounds with `basic` at every seat, on a compact layout: the search's rollouts and the engine's all-`basic` rounds.

The engine keeps a round as one int64 array (``state_layout``) with the public observation kept up to date
for strategies; a round of `basic` players needs none of that. Here a round is a few hundred bytes on the
stack (a `Round`: the pile's count row and scalars, then a 48-byte `Seat` per seat, whose hand and face-up
counts are int8 rows of 16, so the ranks present are one vector compare and a pickup one vector add), the
rules and the talon a separate read-only `Table`, and the cycle check compares the round's first
32 + 48 n bytes, 16 at a time. The structs are byte offsets into stack buffers (`_stack_bytes`), read through
raw pointers: no array, no bounds or wraparound code, no allocation, no reference counts (`kernel`). The
round's counters (legal ranks, next place, players in, actions, skipped) are int64 in a buffer of their own
(`q`): apart from the byte rows, which are stored to at computed offsets, LLVM keeps them in registers
through the round loop.

- `basic_rollout(sp, seat, searcher)`: the round in the state at `sp` (an int64 pointer,
  ``memory.data_pointer(st)``) played on from `seat` to act until the place of `searcher` is decided (-1:
  the whole round); returns that place and writes every place, NEXT_PLACE, PLAYERS_IN, ACTIONS and SKIPPED
  back into the state as ``rollouts.play_on`` leaves them (nothing else is written);
- `basic_moves(sp, seat, moves, n_moves, places)`: for each move, `seat`'s move played on a copy of the
  round (as ``rollouts.act`` plays it) and then `basic_rollout`'s rollout: places[i], the seat's place after
  moves[i]; the state is not written. Returns 0, or -1 on an illegal move;
- `play_round(sp, starter)`: the engine's round (``drivers.play_round``) when every seat plays `basic` and
  nothing is recorded, burns and pickups counted (the `counting` flag, a constant the rollouts compile out).

It is the second implementation of R13-R18, R20 and the V-rules a round of `basic` players meets, and earns
its place by speed (README, "Design": the race against the C it was ported from, which it replaced):
tests/engine/test_basic_rounds.py holds it equal to ``rollouts.play_on``, and every all-`basic` game of the
equality tests to the reference engine.
"""
from __future__ import annotations

from llvmlite import ir
from numba import cfunc, types
from numba.extending import intrinsic

from idiotsim.engine import state_layout as layout
from idiotsim.game import observation as ob
from idiotsim.game.basic_player import basic_rank
from idiotsim.game.cards import HAND_TARGET, NUM_RANKS as NR, SIX, TEN
from idiotsim.game.moves import CHANCE, PICKUP, legal_mask
from idiotsim.game.rules import MAX_PLAYERS
from idiotsim.jit import kernel

ALL_RANKS = (1 << NR) - 1
ROW = 16  # bytes of a count row: 13 counts, then 3 zeros
TALON_ROOM = 127  # cards: counts, sizes and the talon position fit an int8 (state_layout.MAX_CARDS, checked below)
assert NR <= ROW

# ---- Seat: 48 bytes at SEATS + seat * SEAT_BYTES of a Round ----
S_HAND = 0  # counts by rank
S_FACEUP = ROW
S_BLIND = 2 * ROW  # 3 ranks, -1 once flipped
S_PLACE = S_BLIND + 3  # 0 while in
S_HAND_SIZE, S_FACEUP_SIZE, S_BLIND_SIZE = S_PLACE + 1, S_PLACE + 2, S_PLACE + 3
SEAT_BYTES = 3 * ROW

# ---- Round: what a rollout changes. Its first bytes up to SEATS, and the rows of the seats in play,
# decide the rest of the round but for the action count (R20): the cycle check compares them ----
R_PILE = 0  # the pile's counts by rank
R_PILE_SIZE, R_TALON_POS, R_PILE_TOP, R_PILE_RUN, R_TURN = ROW, ROW + 1, ROW + 2, ROW + 3, ROW + 4
SEATS = 2 * ROW
ROUND_BYTES = SEATS + MAX_PLAYERS * SEAT_BYTES
# The round's counters, int64 each, in a buffer of their own (`q`): apart from the byte rows, which are
# stored to at computed offsets, LLVM keeps them in registers through the round loop
R_LEGAL, R_NEXT_PLACE, R_PLAYERS_IN, R_ACTIONS, R_SKIPPED, R_BURNS, R_PICKUPS = (8 * i for i in range(7))
SCALAR_BYTES = 64
R_NEVER = SEATS - 1  # a padding byte, always 0: the place of searcher -1, never decided

# ---- Table: what a rollout only reads, the rules and the talon (int64 scalars, then int8 ranks) ----
(T_N, T_TALON_LEN, T_BURN_AGAIN, T_LAST_HAND_FACEUP, T_CHANCE, T_STARTER, T_MUST_PLAY,
 T_LIMIT) = (8 * i for i in range(8))
T_LEGAL_ON = 64  # int64 by rank: the legal ranks on each top rank (R10, R11, V1/V2, V6)
T_BURN_AT = T_LEGAL_ON + 8 * ROW  # int64 by rank: the run of a rank that burns the pile (R16.2, V10)
T_TALON = T_BURN_AT + 8 * ROW  # int8 ranks
TABLE_BYTES = T_TALON + TALON_ROOM + 1

INT64_MAX = (1 << 63) - 1
_I8 = ir.IntType(8)
_ROW16 = ir.VectorType(_I8, ROW)
_BYTES = types.CPointer(types.int8)


def _stack_bytes(size: int):
    """An intrinsic giving `size` bytes, 16-aligned, on the caller's stack frame (an alloca in its
    entry block: once per call of the function it ends up in, not per loop iteration), left as they are
    (numba's `cgutils.alloca_once` zero-fills them at every call: 1 KB per game of the engine's rounds)."""
    @intrinsic
    def stack_bytes(typingctx):
        def codegen(context, builder, signature, args):
            with builder.goto_entry_block():
                buf = builder.alloca(ir.ArrayType(_I8, size))
            buf.align = 16
            return builder.bitcast(buf, _I8.as_pointer())
        return _BYTES(), codegen
    return stack_bytes


_table_bytes = _stack_bytes(TABLE_BYTES)
_round_bytes = _stack_bytes(ROUND_BYTES)
_scalar_bytes = _stack_bytes(SCALAR_BYTES)


@intrinsic
def _i64(typingctx, p, off):
    """The int64 at byte offset `off` of `p`, as a pointer (`_i64(p, off)[0]`)."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(builder.gep(args[0], [args[1]]), ir.IntType(64).as_pointer())
    return types.CPointer(types.int64)(p, off), codegen


def _row(builder, p, off):
    return builder.bitcast(builder.gep(p, [off]), _ROW16.as_pointer())


@intrinsic
def _present(typingctx, p, off):
    """Bit r set when the count row at byte `off` of `p` has p[off + r] > 0: one vector compare."""
    def codegen(context, builder, signature, args):
        counts = builder.load(_row(builder, *args), align=16)
        positive = builder.icmp_signed(">", counts, ir.Constant(_ROW16, None))
        return builder.zext(builder.bitcast(positive, ir.IntType(ROW)), ir.IntType(64))
    return types.int64(p, off), codegen


@intrinsic
def _add_row(typingctx, p, to, frm):
    """p[to:to + 16] += p[frm:frm + 16], one vector add."""
    def codegen(context, builder, signature, args):
        at = _row(builder, args[0], args[1])
        added = builder.add(builder.load(at, align=16), builder.load(_row(builder, args[0], args[2]), align=16))
        builder.store(added, at, align=16)
        return context.get_dummy_value()
    return types.void(p, to, frm), codegen


@intrinsic
def _zero_row(typingctx, p, off):
    def codegen(context, builder, signature, args):
        builder.store(ir.Constant(_ROW16, None), _row(builder, *args), align=16)
        return context.get_dummy_value()
    return types.void(p, off), codegen


@intrinsic
def _copy_row(typingctx, to, frm, off):
    """to[off:off + 16] = frm[off:off + 16]."""
    def codegen(context, builder, signature, args):
        builder.store(builder.load(_row(builder, args[1], args[2]), align=16), _row(builder, args[0], args[2]),
                      align=16)
        return context.get_dummy_value()
    return types.void(to, frm, off), codegen


@intrinsic
def _rows_differ(typingctx, p, q, off):
    """Whether p[off:off + 16] and q[off:off + 16] differ, one vector compare."""
    def codegen(context, builder, signature, args):
        a = builder.load(_row(builder, args[0], args[2]), align=16)
        b = builder.load(_row(builder, args[1], args[2]), align=16)
        differ = builder.bitcast(builder.icmp_unsigned("!=", a, b), ir.IntType(ROW))
        return builder.icmp_unsigned("!=", differ, ir.Constant(ir.IntType(ROW), 0))
    return types.boolean(p, q, off), codegen


@kernel(inline="always")
def _same_bytes(p, q, size):
    """memcmp(p, q, size) == 0 for a multiple of 16 bytes."""
    for at in range(0, size, ROW):
        if _rows_differ(p, q, at):
            return False
    return True


@kernel(inline="always")
def _copy_bytes(to, frm, size):
    for at in range(0, size, ROW):
        _copy_row(to, frm, at)


@kernel(inline="always")
def _position_size(n):
    """The bytes of a Round a rollout reads and writes, with `n` seats in play."""
    return SEATS + n * SEAT_BYTES


@kernel(inline="always")
def _empty_pile(r, q):
    _zero_row(r, R_PILE)
    r[R_PILE_TOP] = -1
    r[R_PILE_RUN] = 0
    r[R_PILE_SIZE] = 0
    _i64(q, R_LEGAL)[0] = ALL_RANKS


@kernel(inline="always")
def _talon_left(t, r):
    return _i64(t, T_TALON_LEN)[0] - r[R_TALON_POS]


@kernel(inline="always")
def _next_seat(t, r, seat):
    """R4: to the left, skipping players who are out."""
    n = _i64(t, T_N)[0]
    s = seat
    for _ in range(n):
        s = s + 1 if s + 1 < n else 0
        if r[SEATS + s * SEAT_BYTES + S_PLACE] == 0:
            return s
    return seat


@kernel(inline="always")
def _pick_up(t, r, q, seat, extra, counting):
    """R14/R15/V5: the pile (and a failed flipped card, `extra` >= 0) goes into the hand. Returns the
    seat to act next. `counting` (a constant: the engine's rounds, not the search's rollouts): R_PICKUPS."""
    s = SEATS + seat * SEAT_BYTES
    _add_row(r, s + S_HAND, R_PILE)
    taken = r[R_PILE_SIZE]
    if extra >= 0:
        r[s + S_HAND + extra] += 1
        taken += 1
    r[s + S_HAND_SIZE] += taken
    _empty_pile(r, q)
    _i64(q, R_ACTIONS)[0] += 1
    if counting:
        _i64(q, R_PICKUPS)[0] += 1
    return _next_seat(t, r, seat)


@kernel(inline="always")
def _after_play(t, r, q, seat, rank, count, counting):
    """R16: `count` cards of `rank` are on the pile; draw, burn, out, again. Returns the seat to act next.
    `counting`: R_BURNS."""
    s = SEATS + seat * SEAT_BYTES
    _i64(q, R_ACTIONS)[0] += 1
    run = count
    if r[R_PILE_TOP] == rank:
        run += r[R_PILE_RUN]
    else:
        r[R_PILE_TOP] = rank
        _i64(q, R_LEGAL)[0] = _i64(t, T_LEGAL_ON + 8 * rank)[0]
    r[R_PILE_RUN] = run
    r[R_PILE_SIZE] += count
    r[R_PILE + rank] += count
    drawn = HAND_TARGET - r[s + S_HAND_SIZE]  # R16.1
    left = _talon_left(t, r)
    if drawn > left:
        drawn = left
    if drawn > 0:
        first = T_TALON + r[R_TALON_POS]
        for i in range(HAND_TARGET):  # at most HAND_TARGET: a loop LLVM unrolls instead of vectorizing
            if i < drawn:
                r[s + S_HAND + t[first + i]] += 1
        r[R_TALON_POS] += drawn
        r[s + S_HAND_SIZE] += drawn
    burned = run >= _i64(t, T_BURN_AT + 8 * rank)[0]
    if burned:  # R16.2, V7, V10
        _empty_pile(r, q)
        if counting:
            _i64(q, R_BURNS)[0] += 1
    if r[s + S_HAND_SIZE] + r[s + S_FACEUP_SIZE] + r[s + S_BLIND_SIZE] == 0:  # R16.3
        place = _i64(q, R_NEXT_PLACE)
        r[s + S_PLACE] = place[0]
        place[0] += 1
        players_in = _i64(q, R_PLAYERS_IN)
        players_in[0] -= 1
        if players_in[0] == 1:
            return seat
        return _next_seat(t, r, seat)  # R17
    if burned and _i64(t, T_BURN_AGAIN)[0]:  # R16.4, V9
        return seat
    return _next_seat(t, r, seat)


@kernel(inline="always")
def _flip_blind(t, r, q, seat, at, counting):
    """R15: the blind card at `at` is turned over: played when legal, else picked up with the pile."""
    s = SEATS + seat * SEAT_BYTES
    flipped = r[s + S_BLIND + at]
    r[s + S_BLIND + at] = -1
    r[s + S_BLIND_SIZE] -= 1
    if _i64(q, R_LEGAL)[0] >> flipped & 1:
        return _after_play(t, r, q, seat, flipped, 1, counting)
    return _pick_up(t, r, q, seat, flipped, counting)


@kernel(inline="always")
def _remove_played(r, s, from_hand, rank, count, extra):
    """The cards of a play leave the hand or the face-up row (R13), V11's extra face-up cards with them."""
    if from_hand:
        r[s + S_HAND + rank] -= count
        r[s + S_HAND_SIZE] -= count
    else:
        r[s + S_FACEUP + rank] -= count
        r[s + S_FACEUP_SIZE] -= count
    r[s + S_FACEUP + rank] -= extra
    r[s + S_FACEUP_SIZE] -= extra


@kernel(inline="always")
def _basic_turn(t, r, q, seat, counting):
    """`transitions.play_basic_turn`: all copies of the lowest legal ordinary rank; else all 2s; else all 10s;
    else pick up; at a blind turn the lowest blind position (R13-R15, V11). Returns the seat to act next."""
    s = SEATS + seat * SEAT_BYTES
    from_hand = r[s + S_HAND_SIZE] > 0
    if not from_hand and r[s + S_FACEUP_SIZE] == 0:
        at = 0
        while r[s + S_BLIND + at] < 0:
            at += 1
        return _flip_blind(t, r, q, seat, at, counting)
    row = s + (S_HAND if from_hand else S_FACEUP)
    rank = basic_rank(_present(r, row) & _i64(q, R_LEGAL)[0])
    if rank < 0:  # R14: nothing playable, so the pile is not empty
        return _pick_up(t, r, q, seat, -1, counting)
    count = r[row + rank]
    extra = 0
    if (from_hand and _i64(t, T_LAST_HAND_FACEUP)[0] and _talon_left(t, r) == 0
            and count == r[s + S_HAND_SIZE]):
        extra = r[s + S_FACEUP + rank]  # V11
    _remove_played(r, s, from_hand, rank, count, extra)
    return _after_play(t, r, q, seat, rank, count + extra, counting)


@kernel
def _apply_move(t, r, q, seat, move):
    """`rollouts.act`: the move of `seat` (``game.moves``' codes) as `transitions.apply_action` plays it; -1 when
    it is not legal (R9-R15, V5, V11; V12's opening rank is the caller's concern). Returns the seat to
    act next."""
    s = SEATS + seat * SEAT_BYTES
    from_hand = r[s + S_HAND_SIZE] > 0
    if not from_hand and r[s + S_FACEUP_SIZE] == 0:  # R15: a blind position
        if move < 0 or move > 2 or r[s + S_BLIND + move] < 0:
            return -1
        return _flip_blind(t, r, q, seat, move, False)
    if move == PICKUP:  # R14
        return _pick_up(t, r, q, seat, -1, False) if r[R_PILE_SIZE] > 0 else -1
    if move == CHANCE:  # V5
        if not _i64(t, T_CHANCE)[0] or not from_hand or _talon_left(t, r) == 0 or r[R_PILE_SIZE] == 0:
            return -1
        pos = r[R_TALON_POS]
        flipped = t[T_TALON + pos]
        r[R_TALON_POS] = pos + 1
        if _i64(q, R_LEGAL)[0] >> flipped & 1:
            return _after_play(t, r, q, seat, flipped, 1, False)
        return _pick_up(t, r, q, seat, flipped, False)
    rank, count, extra = move & 15, move >> 4 & 15, move >> 8
    if move < 0 or rank >= NR or count < 1 or not (_i64(q, R_LEGAL)[0] >> rank & 1):
        return -1
    must_play = _i64(t, T_MUST_PLAY)[0]
    if must_play >= 0 and rank != must_play:  # V12, before the round's first action only
        return -1
    if (r[s + S_HAND + rank] if from_hand else r[s + S_FACEUP + rank]) < count:
        return -1
    if extra != 0 and not (_i64(t, T_LAST_HAND_FACEUP)[0] and from_hand and count == r[s + S_HAND_SIZE]
                           and _talon_left(t, r) == 0 and r[s + S_FACEUP + rank] >= extra):
        return -1
    _remove_played(r, s, from_hand, rank, count, extra)
    return _after_play(t, r, q, seat, rank, count + extra, False)


@kernel
def _final_places(t, r, q):
    """`transitions.final_places`: R18; R20 on a stall, by fewest cards held, then turn order from the starter."""
    n = _i64(t, T_N)[0]
    starter = _i64(t, T_STARTER)[0]
    players_in = _i64(q, R_PLAYERS_IN)
    next_place = _i64(q, R_NEXT_PLACE)
    while players_in[0] > 0:
        best, best_cards = -1, 1 << 30
        for i in range(n):
            seat = (starter + i) % n
            s = SEATS + seat * SEAT_BYTES
            held = r[s + S_HAND_SIZE] + r[s + S_FACEUP_SIZE] + r[s + S_BLIND_SIZE]
            if r[s + S_PLACE] == 0 and held < best_cards:
                best, best_cards = seat, held
        r[SEATS + best * SEAT_BYTES + S_PLACE] = next_place[0]
        next_place[0] += 1
        players_in[0] -= 1


@kernel(inline="always")
def _copy_round(to, to_q, frm, frm_q, n):
    _copy_bytes(to, frm, _position_size(n))
    for at in range(R_LEGAL, R_SKIPPED + 8, 8):
        _i64(to_q, at)[0] = _i64(frm_q, at)[0]


@kernel
def _load(t, r, q, sp):
    """The Table and Round of the int64 state at `sp` (idiotsim.engine's layout)."""
    n = sp[ob.PLAYERS]
    _i64(t, T_N)[0] = n
    for at in range(0, _position_size(n), ROW):
        _zero_row(r, at)
    for p in range(n):
        s = SEATS + p * SEAT_BYTES
        for k in range(NR):
            r[s + S_HAND + k] = sp[layout.HANDS + p * NR + k]
            r[s + S_FACEUP + k] = sp[ob.FACEUP + p * NR + k]
        for k in range(3):
            r[s + S_BLIND + k] = sp[layout.BLIND + p * 3 + k]
        r[s + S_PLACE] = sp[ob.PLACE + p]
        r[s + S_HAND_SIZE] = sp[ob.HAND_SIZE + p]
        r[s + S_FACEUP_SIZE] = sp[ob.FACEUP_SIZE + p]
        r[s + S_BLIND_SIZE] = sp[ob.BLIND_SIZE + p]
    for k in range(NR):
        r[R_PILE + k] = sp[ob.PILE_COUNTS + k]
    r[R_PILE_SIZE] = sp[ob.PILE_SIZE]
    r[R_PILE_TOP] = sp[ob.PILE_TOP]
    r[R_PILE_RUN] = sp[ob.PILE_RUN]
    r[R_TALON_POS] = sp[layout.TALON_POS]
    _i64(q, R_LEGAL)[0] = sp[ob.LEGAL]
    _i64(q, R_NEXT_PLACE)[0] = sp[layout.NEXT_PLACE]
    _i64(q, R_PLAYERS_IN)[0] = sp[layout.PLAYERS_IN]
    _i64(q, R_ACTIONS)[0] = sp[ob.ACTIONS]
    _i64(q, R_SKIPPED)[0] = sp[layout.SKIPPED]
    talon_len = sp[layout.TALON_LEN]
    _i64(t, T_TALON_LEN)[0] = talon_len
    for i in range(sp[layout.TALON_POS], talon_len):
        t[T_TALON + i] = sp[layout.TALON + i]
    six_burn = sp[ob.SIX_BURN]
    _i64(t, T_BURN_AGAIN)[0] = sp[ob.BURN_PLAYS_AGAIN] != 0
    _i64(t, T_LAST_HAND_FACEUP)[0] = sp[ob.LAST_HAND_WITH_FACEUP] != 0
    _i64(t, T_CHANCE)[0] = sp[ob.CHANCE_RULE] != 0
    _i64(t, T_STARTER)[0] = sp[ob.STARTER]
    _i64(t, T_MUST_PLAY)[0] = sp[ob.MUST_PLAY]
    _i64(t, T_LIMIT)[0] = sp[ob.ACTION_LIMIT]
    low_rank, ten_only_on_lower = sp[ob.LOW_RANK], sp[ob.TEN_ONLY_ON_LOWER] != 0
    for k in range(NR):
        _i64(t, T_LEGAL_ON + 8 * k)[0] = legal_mask(k, low_rank, ten_only_on_lower)
        _i64(t, T_BURN_AT + 8 * k)[0] = 1 if k == TEN else 4
    if 0 < six_burn < 4:
        _i64(t, T_BURN_AT + 8 * SIX)[0] = six_burn


@kernel(inline="always")
def _store(t, r, q, sp):
    for p in range(_i64(t, T_N)[0]):
        sp[ob.PLACE + p] = r[SEATS + p * SEAT_BYTES + S_PLACE]
    sp[layout.NEXT_PLACE] = _i64(q, R_NEXT_PLACE)[0]
    sp[layout.PLAYERS_IN] = _i64(q, R_PLAYERS_IN)[0]
    sp[ob.ACTIONS] = _i64(q, R_ACTIONS)[0]
    sp[layout.SKIPPED] = _i64(q, R_SKIPPED)[0]


@kernel
def _play_on(t, r, q, seat, searcher):
    """`rollouts.play_on` with `basic` at every seat: on from `seat` until `searcher`'s place is decided.
    Brent's cycle search (`rollouts`' `_brent_step`) skips whole cycles of a repeating position up to the
    action limit, which gives the place of playing them."""
    snap = _round_bytes()
    compared = _position_size(_i64(t, T_N)[0])
    actions = _i64(q, R_ACTIONS)
    players_in = _i64(q, R_PLAYERS_IN)
    limit = _i64(t, T_LIMIT)[0]
    watch_from = actions[0] + layout.CYCLE_WATCH_FROM
    power, lam = 1, 0
    searching = SEATS + searcher * SEAT_BYTES + S_PLACE if searcher >= 0 else R_NEVER
    while players_in[0] > 1 and r[searching] == 0:  # R18
        if actions[0] >= watch_from:
            r[R_TURN] = seat
            if lam > 0 and _same_bytes(r, snap, compared):
                skipped = (limit - actions[0]) // lam * lam
                actions[0] += skipped
                _i64(q, R_SKIPPED)[0] += skipped
                watch_from = INT64_MAX  # one skip: the rest is shorter than a cycle
            elif lam == power or lam == 0:
                _copy_bytes(snap, r, compared)
                power = 2 * power if lam > 0 else 1
                lam = 1
            else:
                lam += 1
        if actions[0] >= limit:  # R20
            break
        seat = _basic_turn(t, r, q, seat, False)
    if r[searching] == 0:
        _final_places(t, r, q)
    return r[searching]


@kernel
def basic_rollout(sp, seat, searcher):
    """The searcher's place; the state's places, NEXT_PLACE,
    PLAYERS_IN, ACTIONS and SKIPPED as `rollouts.play_on` leaves them, nothing else written. With searcher -1
    the whole round (returning 0), as the C's."""
    t = _table_bytes()
    r = _round_bytes()
    q = _scalar_bytes()
    _load(t, r, q, sp)
    place = _play_on(t, r, q, seat, searcher)
    _store(t, r, q, sp)
    return place


@kernel
def basic_moves(sp, seat, moves, n_moves, places):
    """Places[i], the seat's place after moves[i] and a rollout, each
    on a copy of the state at `sp`, which is not written. Returns 0, or -1 on an illegal move."""
    t = _table_bytes()
    sample = _round_bytes()
    sample_q = _scalar_bytes()
    r = _round_bytes()
    q = _scalar_bytes()
    _load(t, sample, sample_q, sp)
    n = _i64(t, T_N)[0]
    for i in range(n_moves):
        _copy_round(r, q, sample, sample_q, n)
        nxt = _apply_move(t, r, q, seat, moves[i])
        if nxt < 0:
            return -1
        places[i] = _play_on(t, r, q, nxt, seat)
    return 0


@kernel
def play_round(sp, starter):
    """The engine's round (`drivers.play_round`'s loop, R13-R18, R20) with `basic` at every seat and nothing
    recorded, on the compact layout, from the state at `sp` after the swap with `starter` to act: played to
    its end or the action limit (its cycles played out, as the engine plays them, not skipped), every place
    decided (R18, R20). Writes the places, NEXT_PLACE, ACTIONS and PLAYERS_IN (0) back, adds the round's
    burns and pickups to BURNS and PICKUPS; nothing else of the state is written (the hands, the pile and
    the observation are left as the swap left them: the next round's deal clears them). Returns whether
    the round stalled (R20)."""
    t = _table_bytes()
    r = _round_bytes()
    q = _scalar_bytes()
    _load(t, r, q, sp)
    _i64(q, R_BURNS)[0] = 0
    _i64(q, R_PICKUPS)[0] = 0
    actions = _i64(q, R_ACTIONS)
    players_in = _i64(q, R_PLAYERS_IN)
    limit = _i64(t, T_LIMIT)[0]
    seat = starter
    stalled = False
    while players_in[0] > 1:  # R18
        if actions[0] >= limit:  # R20
            stalled = True
            break
        seat = _basic_turn(t, r, q, seat, True)
    _final_places(t, r, q)
    _store(t, r, q, sp)
    sp[layout.BURNS] += _i64(q, R_BURNS)[0]
    sp[layout.PICKUPS] += _i64(q, R_PICKUPS)[0]
    return stalled


_STATE = types.CPointer(types.int64)
ROLLOUT_SIG = types.int64(_STATE, types.int64, types.int64)
MOVES_SIG = types.int64(_STATE, types.int64, _STATE, types.int64, _STATE)


def c_callable() -> dict:
    """The two entry points compiled as C-callable functions (the tests' and benchmarks' handle on them),
    by the names of the C they were ported from (benchmarks/c_yardstick/rollout.c)."""
    @cfunc(ROLLOUT_SIG, cache=True)
    def rollout_port(sp, seat, searcher):
        return basic_rollout(sp, seat, searcher)

    @cfunc(MOVES_SIG, cache=True)
    def moves_port(sp, seat, moves, n_moves, places):
        return basic_moves(sp, seat, moves, n_moves, places)
    return {"idiotsim_basic_rollout": rollout_port, "idiotsim_basic_moves": moves_port}


assert layout.MAX_CARDS <= TALON_ROOM
