"""The rules as transitions of the engine's state: the numba twin of ``idiotsim.game.reference``.

The whole state of a game is one int64 array ``st`` (``state_layout``), so helpers pass one array instead
of many (numba passes every array as seven machine words, which cost more than the game logic when they
were many). Its first section is the public observation (``idiotsim.game.observation``), kept up to date
incrementally. The helpers index the state through its data pointer ``sp`` (``memory.data_pointer``):
numba adds negative-index wraparound code to every array access with a signed index, and a round makes
thousands of them.

A round is `deal`, `show_swap` and `apply_swap` at every seat, `open_table` and `start_play`, then
`show_turn` and `apply_action` (or `play_basic_turn` for a seat playing `basic` inline) until R18 or R20,
then `final_places`. The drivers that loop over them are ``drivers`` (rounds, matches, batches),
``stepping`` (batches of tables stepped from outside) and ``rollouts`` (a round played on from any state).

The observation also holds the pickup and play facts (PICKUP_LEGAL, PICKUP_FREE, LACKS, LACKS_FREE):
what the table saw of each seat's pickups and plays. They are public history, and a strategy is a
function of its observation alone (``game.moves.SIG``: no memory between decisions), so the one place
where they can be kept for it is here, where every action passes. Out of the observation, the search
could not rebuild them at its decisions and would sample the unseen cards uniformly (``belief=0``).
Measured (4 players, K = 128, one search seat among three `basic`, 4,000 paired deals): the facts are
worth 0.021 places to it (95% CI -0.010 to +0.052) and cost it 17% of its CPU time (the sampler's
rejection tries); the positions of `analyze` read them too, the counting reports compare beliefs with
and without them, and every committed figure of the search and the gated player was made with them. So they
stay, and the engine skips them when no observation is handed out (NO_OBSERVER)."""
from __future__ import annotations

from idiotsim.engine.memory import add_row
from idiotsim.engine.recording import record_event, swap_event_code
from idiotsim.engine.state_layout import (BLIND, BURNS, DECK, ERROR, ERROR_SEAT, EV_OUT, EV_PICKUP, EV_PLAY, EV_SWAP, HANDS,
                                          NEXT_PLACE, NO_OBSERVER, PICKUPS, PLAYERS_IN, RECORD, SRC_TALON,
                                          SWAP_FACEUP, TALON, TALON_LEN, TALON_POS)
from idiotsim.game import observation as ob
from idiotsim.game.basic_player import basic_rank
from idiotsim.game.cards import BASIC_ORDER, HAND_TARGET, KEY_ABOVE, KEY_BELOW, SIX, TEN
from idiotsim.game.moves import (CHANCE, ILLEGAL_BLIND_PICKUP, ILLEGAL_BLIND_POSITION, ILLEGAL_CHANCE, ILLEGAL_CODE,
                                 ILLEGAL_EMPTY_PICKUP, ILLEGAL_EXTRA, ILLEGAL_NOT_HELD, ILLEGAL_NOT_LEGAL,
                                 ILLEGAL_OPENING, ILLEGAL_SWAP, ILLEGAL_ZERO_COUNT, PICKUP, legal_mask, legal_now,
                                 ranks_present)
from idiotsim.game.observation import NR
from idiotsim.jit import kernel


@kernel
def _fail(sp, seat, reason):
    sp[ERROR] = reason
    sp[ERROR_SEAT] = seat
    return -1


@kernel
def _next_seat(sp, seat, n):
    """R4: to the left, skipping players who are out."""
    s = seat
    for _ in range(n):
        s = s + 1 if s + 1 < n else 0
        if sp[ob.PLACE + s] == 0:
            return s
    return seat


@kernel
def _cards_held(sp, seat):
    return sp[ob.HAND_SIZE + seat] + sp[ob.FACEUP_SIZE + seat] + sp[ob.BLIND_SIZE + seat]


@kernel
def _empty_pile(sp):
    sp[ob.PILE_TOP] = -1
    sp[ob.LEGAL] = ob.ALL_RANKS
    sp[ob.PILE_RUN] = 0
    sp[ob.PILE_SIZE] = 0
    for r in range(NR):
        sp[ob.PILE_COUNTS + r] = 0


@kernel(inline="always")
def _pick_up(sp, seat, extra_rank, source):
    """R14/R15/V5: the pile (and a failed flipped card) goes into the hand, publicly."""
    known = ob.KNOWN + seat * NR
    hand = HANDS + seat * NR
    add_row(sp, hand, ob.PILE_COUNTS)
    add_row(sp, known, ob.PILE_COUNTS)
    taken = sp[ob.PILE_SIZE]
    if extra_rank >= 0:
        sp[hand + extra_rank] += 1
        sp[known + extra_rank] += 1
        taken += 1
    elif not sp[NO_OBSERVER]:  # R14: the pickup facts, and the play facts (basic picks up holding nothing legal)
        sp[ob.PICKUP_LEGAL + seat] = sp[ob.LEGAL]
        sp[ob.PICKUP_FREE + seat] = 0
        _lacks_fact(sp, seat, sp[ob.LEGAL])
    sp[ob.HAND_SIZE + seat] += taken
    _empty_pile(sp)
    sp[ob.ACTIONS] += 1
    sp[ob.MUST_PLAY] = -1
    sp[PICKUPS] += 1
    record_event(sp, EV_PICKUP, sp[ob.ROUND], seat, source, extra_rank, taken, 0)


@kernel(inline="always")
def _after_play(sp, seat, rank, count, source, n):
    """R16: the cards are on the pile; draw, burn, out, again. Returns the seat to act next."""
    sp[ob.ACTIONS] += 1
    sp[ob.MUST_PLAY] = -1
    run = count  # in a local: the draws' stores through the state pointer would make it reload
    if sp[ob.PILE_TOP] == rank:
        run += sp[ob.PILE_RUN]
    else:
        sp[ob.PILE_TOP] = rank
        sp[ob.LEGAL] = legal_mask(rank, sp[ob.LOW_RANK], sp[ob.TEN_ONLY_ON_LOWER] != 0)
    sp[ob.PILE_RUN] = run
    sp[ob.PILE_SIZE] += count
    sp[ob.PILE_COUNTS + rank] += count
    drawn = min(HAND_TARGET - sp[ob.HAND_SIZE + seat], sp[TALON_LEN] - sp[TALON_POS])  # R16.1
    if drawn > 0:
        hand = HANDS + seat * NR
        first = TALON + sp[TALON_POS]
        for i in range(drawn):
            sp[hand + sp[first + i]] += 1
        sp[TALON_POS] += drawn
        sp[ob.HAND_SIZE + seat] += drawn
        sp[ob.TALON_SIZE] -= drawn
        if not sp[NO_OBSERVER]:  # the facts: unknown cards came in
            sp[ob.PICKUP_FREE + seat] += drawn
            sp[ob.LACKS_FREE + seat] += drawn
    six_burn = sp[ob.SIX_BURN]
    burned = rank == TEN or run >= 4 or (six_burn > 0 and rank == SIX and run >= six_burn)  # R16.2, V7, V10
    if burned:
        add_row(sp, ob.BURNED, ob.PILE_COUNTS)
        _empty_pile(sp)
        sp[BURNS] += 1
    record_event(sp, EV_PLAY, sp[ob.ROUND], seat, source, rank, count, 1 if burned else 0)
    if _cards_held(sp, seat) == 0:  # R16.3
        place = sp[NEXT_PLACE]
        sp[ob.PLACE + seat] = place
        sp[NEXT_PLACE] = place + 1
        sp[PLAYERS_IN] -= 1
        record_event(sp, EV_OUT, sp[ob.ROUND], seat, place, 0, 0, 0)
        if sp[PLAYERS_IN] == 1:
            return seat
        return _next_seat(sp, seat, n)  # R17
    if burned and sp[ob.BURN_PLAYS_AGAIN]:  # R16.4, V9
        return seat
    return _next_seat(sp, seat, n)


@kernel(inline="always")
def _take_cards(sp, seat, action, source):
    """R9, R11, R13, V11, V12: validate a play from hand or face-up and take its cards.
    Returns the number of cards played, or -1 on an illegal move."""
    rank = action & 15
    count = (action >> 4) & 15
    extra = action >> 8
    if rank >= NR:
        return _fail(sp, seat, ILLEGAL_CODE)
    if count < 1:
        return _fail(sp, seat, ILLEGAL_ZERO_COUNT)
    faceup = ob.FACEUP + seat * NR
    held = sp[HANDS + seat * NR + rank] if source == ob.SRC_HAND else sp[faceup + rank]
    if held < count:
        return _fail(sp, seat, ILLEGAL_NOT_HELD)
    if not legal_now(sp, rank):
        return _fail(sp, seat, ILLEGAL_NOT_LEGAL)
    if sp[ob.MUST_PLAY] >= 0 and rank != sp[ob.MUST_PLAY]:
        return _fail(sp, seat, ILLEGAL_OPENING)
    if extra != 0:
        empties_hand = (source == ob.SRC_HAND and count == sp[ob.HAND_SIZE + seat]
                        and sp[TALON_POS] == sp[TALON_LEN])
        if sp[ob.LAST_HAND_WITH_FACEUP] == 0 or not empties_hand or sp[faceup + rank] < extra:
            return _fail(sp, seat, ILLEGAL_EXTRA)
    _remove_played(sp, seat, rank, count, extra, source)
    return count + extra


@kernel(inline="always")
def _remove_played(sp, seat, rank, count, extra, source):
    """The cards of a legal play leave the source (and V11's extra face-up cards join them)."""
    faceup = ob.FACEUP + seat * NR
    if source == ob.SRC_HAND:
        sp[HANDS + seat * NR + rank] -= count
        sp[ob.HAND_SIZE + seat] -= count
        known = ob.KNOWN + seat * NR + rank
        if not sp[NO_OBSERVER]:
            _played_facts(sp, seat, rank, max(0, count - sp[known]))
        sp[known] = max(0, sp[known] - count)
    else:
        sp[faceup + rank] -= count
        sp[ob.FACEUP_SIZE + seat] -= count
    if extra:
        sp[faceup + rank] -= extra
        sp[ob.FACEUP_SIZE + seat] -= extra


NO_PICKUP = -2


@kernel(inline="always")
def _played_facts(sp, seat, rank, unknown_played):
    """The facts after a play of `rank` from the hand, `unknown_played` of its cards not KNOWN: they
    count off the free cards of a mask holding the rank, then the play fact (basic plays every copy
    of the first legal rank in its order; V12's opening allows only its rank)."""
    if sp[ob.PICKUP_LEGAL + seat] >> rank & 1:
        sp[ob.PICKUP_FREE + seat] = max(0, sp[ob.PICKUP_FREE + seat] - unknown_played)
    if sp[ob.LACKS + seat] >> rank & 1:
        sp[ob.LACKS_FREE + seat] = max(0, sp[ob.LACKS_FREE + seat] - unknown_played)
    allowed = sp[ob.LEGAL] if sp[ob.MUST_PLAY] < 0 else 0
    _lacks_fact(sp, seat, (KEY_BELOW[rank] & allowed) | (1 << rank))


@kernel(inline="always")
def _lacks_fact(sp, seat, mask):
    """The play facts (observation LACKS, LACKS_FREE): had the seat played like `basic`, its unknown
    hand cards now hold no card of `mask`'s ranks; joined with its earlier fact while no unknown
    card has come in since (LACKS_FREE 0), else in its place."""
    if sp[ob.LACKS_FREE + seat] == 0:
        mask |= sp[ob.LACKS + seat]
    sp[ob.LACKS + seat] = mask
    sp[ob.LACKS_FREE + seat] = 0


@kernel(inline="always")
def _source_of(sp, seat):
    """R13: where the seat plays from: its hand, else its face-up cards, else its blind cards."""
    if sp[ob.HAND_SIZE + seat] > 0:
        return ob.SRC_HAND
    if sp[ob.FACEUP_SIZE + seat] > 0:
        return ob.SRC_FACEUP
    return ob.SRC_BLIND


@kernel
def show_turn(sp, seat):
    """R13: the seat's source and what it may do, in the observation."""
    source = _source_of(sp, seat)
    pile_size = sp[ob.PILE_SIZE]
    sp[ob.SEAT] = seat
    sp[ob.SOURCE] = source
    sp[ob.DECISION] = ob.BLIND if source == ob.SRC_BLIND else ob.TURN
    sp[ob.CAN_PICKUP] = 1 if (pile_size > 0 and source != ob.SRC_BLIND) else 0
    sp[ob.CAN_CHANCE] = 1 if (sp[ob.CHANCE_RULE] != 0 and source == ob.SRC_HAND and sp[ob.TALON_SIZE] > 0
                              and pile_size > 0) else 0


@kernel(inline="always")
def apply_action(sp, seat, action, n):
    """One action (R13-R16) as `show_turn` asked for it; returns the next seat to act, or -1 on an illegal move."""
    source = sp[ob.SOURCE]
    # Either a play (rank, count from play_source) or a pickup (with the failed card pickup_rank).
    rank = -1
    count = 0
    play_source = source
    pickup_rank = NO_PICKUP
    if source == ob.SRC_BLIND:
        pos = action
        if pos == PICKUP:
            return _fail(sp, seat, ILLEGAL_BLIND_PICKUP)
        if pos < 0 or pos > 2 or sp[BLIND + seat * 3 + pos] < 0:
            return _fail(sp, seat, ILLEGAL_BLIND_POSITION)
        return _flip_blind(sp, seat, pos, n)
    if action == PICKUP:  # R14
        if sp[ob.PILE_SIZE] == 0:
            return _fail(sp, seat, ILLEGAL_EMPTY_PICKUP)
        pickup_rank = -1
    elif action == CHANCE:  # V5
        if sp[ob.CAN_CHANCE] == 0:
            return _fail(sp, seat, ILLEGAL_CHANCE)
        flipped = sp[TALON + sp[TALON_POS]]
        sp[TALON_POS] += 1
        sp[ob.TALON_SIZE] -= 1
        play_source = SRC_TALON
        if legal_now(sp, flipped):
            rank, count = flipped, 1
        else:
            pickup_rank = flipped
    elif action < 0:
        return _fail(sp, seat, ILLEGAL_CODE)
    else:
        count = _take_cards(sp, seat, action, source)
        if count < 0:
            return -1
        rank = action & 15
    if pickup_rank != NO_PICKUP:
        _pick_up(sp, seat, pickup_rank, play_source if pickup_rank >= 0 else -1)
        return _next_seat(sp, seat, n)
    return _after_play(sp, seat, rank, count, play_source, n)


@kernel  # not inlined: `play_on` (a rollout's policy turns) and `act` share one compiled copy (compile time)
def apply_once(sp, seat, action, n):
    return apply_action(sp, seat, action, n)


@kernel  # not inlined: its plays and pickups would double the code numba types in every rollout (compile time)
def _flip_blind(sp, seat, pos, n):
    """R15: the blind card at `pos` is turned over: played when legal, else picked up with the pile.
    Returns the seat to act next."""
    flipped = sp[BLIND + seat * 3 + pos]
    sp[BLIND + seat * 3 + pos] = -1
    sp[ob.BLIND_PRESENT + seat * 3 + pos] = 0
    sp[ob.BLIND_SIZE + seat] -= 1
    if legal_now(sp, flipped):
        return _after_play(sp, seat, flipped, 1, ob.SRC_BLIND, n)
    _pick_up(sp, seat, flipped, ob.SRC_BLIND)
    return _next_seat(sp, seat, n)


@kernel(inline="always")
def play_basic_turn(sp, seat, n):
    """The turn of a seat playing `basic` inline, straight from the state: `game.basic_player.play_like_basic`'s
    move (all copies of the lowest legal ordinary rank; else all 2s; else all 10s; else pick up; at a
    blind turn the lowest blind position), applied as `apply_action` applies it but without handing out the
    observation (`show_turn`) or checking the move (`basic` makes only legal ones: R9-R15, V11; V12's
    opening rank is the lowest ordinary one, which it plays). Returns the next seat to act."""
    source = _source_of(sp, seat)
    if source == ob.SRC_BLIND:
        pos = 0
        while sp[ob.BLIND_PRESENT + seat * 3 + pos] == 0:  # `toolkit.lowest_blind`
            pos += 1
        return _flip_blind(sp, seat, pos, n)
    row = HANDS + seat * NR if source == ob.SRC_HAND else ob.FACEUP + seat * NR
    rank = basic_rank(ranks_present(sp, row) & sp[ob.LEGAL])
    if rank < 0:  # R14: nothing playable, so the pile is not empty (every rank is legal on an empty pile)
        _pick_up(sp, seat, -1, -1)
        return _next_seat(sp, seat, n)
    count = sp[row + rank]
    extra = 0
    if (source == ob.SRC_HAND and sp[ob.LAST_HAND_WITH_FACEUP] != 0 and sp[ob.TALON_SIZE] == 0
            and count == sp[ob.HAND_SIZE + seat]):  # V11, as `toolkit.faceup_addable`
        extra = sp[ob.FACEUP + seat * NR + rank]
    _remove_played(sp, seat, rank, count, extra, source)
    return _after_play(sp, seat, rank, count + extra, source, n)


@kernel
def show_swap(sp, seat):
    """R6: the seat sees its own 6 cards only (its face-up row is shown while it chooses)."""
    row = ob.FACEUP + seat * NR
    for r in range(NR):
        sp[row + r] = sp[SWAP_FACEUP + seat * NR + r]
    sp[ob.SEAT] = seat


@kernel
def apply_swap(sp, seat, choice):
    """R6: the chosen 3 ranks lie face-up; returns -1 on an illegal choice, which changes nothing else."""
    row = ob.FACEUP + seat * NR
    hand = HANDS + seat * NR
    faceup = SWAP_FACEUP + seat * NR
    if choice < 0 or choice >= NR * NR * NR:
        return _fail(sp, seat, ILLEGAL_SWAP)
    a, b, c = choice % NR, (choice // NR) % NR, choice // (NR * NR)
    for r in (a, b, c):
        chosen = (a == r) + (b == r) + (c == r)
        if chosen > sp[hand + r] + sp[faceup + r]:
            return _fail(sp, seat, ILLEGAL_SWAP)
    for r in range(NR):  # the seat's row is shown no more (R6): the others swap unseen
        sp[row + r] = 0
    for r in range(NR):
        sp[hand + r] += sp[faceup + r]
        sp[faceup + r] = 0
    for r in (a, b, c):
        sp[hand + r] -= 1
        sp[faceup + r] += 1
    if sp[RECORD]:
        record_event(sp, EV_SWAP, sp[ob.ROUND], seat, swap_event_code(sp, faceup), swap_event_code(sp, hand), 0, 0)
    return 0



@kernel
def _choose_starter(sp, n, left_of_dealer):
    """R7, or R8/V3: the lowest ordinary rank in hand starts, ties in turn order from left of dealer."""
    if sp[ob.LOWEST_STARTS] == 0:
        return left_of_dealer
    for r in range(1, NR):
        if r == TEN:
            continue
        for i in range(n):
            seat = (left_of_dealer + i) % n
            if sp[HANDS + seat * NR + r] > 0:
                return seat
    return left_of_dealer


@kernel
def final_places(sp, n, starter):
    """R18; R20: on a stall the rest are placed by fewest cards held, then turn order from the starter."""
    while sp[PLAYERS_IN] > 0:
        best = -1
        best_cards = 1 << 30
        for i in range(n):
            seat = (starter + i) % n
            if sp[ob.PLACE + seat] == 0 and _cards_held(sp, seat) < best_cards:
                best = seat
                best_cards = _cards_held(sp, seat)
        sp[ob.PLACE + best] = sp[NEXT_PLACE]
        sp[NEXT_PLACE] += 1
        sp[PLAYERS_IN] -= 1


@kernel
def deal(sp, n, n_cards):
    """R5: a fresh table from the deck at sp[DECK:]; every count of an earlier round is cleared."""
    for i in range(n * NR):  # seats past n are never written, so stay 0
        sp[ob.FACEUP + i] = 0
        sp[ob.KNOWN + i] = 0
        sp[HANDS + i] = 0
        sp[SWAP_FACEUP + i] = 0
    for i in range(3 * n):
        sp[ob.BLIND_PRESENT + i] = 0
    for p in range(n):
        sp[ob.HAND_SIZE + p] = 0
        sp[ob.FACEUP_SIZE + p] = 0
        sp[ob.PICKUP_LEGAL + p] = 0
        sp[ob.PICKUP_FREE + p] = 0
        sp[ob.LACKS + p] = 0
        sp[ob.LACKS_FREE + p] = 0
        sp[ob.BLIND_SIZE + p] = 0
        sp[ob.PLACE + p] = 0
    for r in range(NR):
        sp[ob.BURNED + r] = 0
    _empty_pile(sp)
    for p in range(n):
        for k in range(3):
            sp[BLIND + 3 * p + k] = sp[DECK + 3 * p + k] >> 2
            sp[SWAP_FACEUP + p * NR + (sp[DECK + 3 * n + 3 * p + k] >> 2)] += 1
            sp[HANDS + p * NR + (sp[DECK + 6 * n + 3 * p + k] >> 2)] += 1
    for i in range(9 * n, n_cards):
        sp[TALON + i - 9 * n] = sp[DECK + i] >> 2
    sp[TALON_POS] = 0
    sp[TALON_LEN] = n_cards - 9 * n
    sp[NEXT_PLACE] = 1
    sp[PLAYERS_IN] = n
    sp[ob.DECISION] = ob.SWAP
    sp[ob.SOURCE] = ob.SRC_HAND
    sp[ob.TALON_SIZE] = n_cards - 9 * n
    sp[ob.MUST_PLAY] = -1
    sp[ob.CAN_PICKUP] = 0
    sp[ob.CAN_CHANCE] = 0
    sp[ob.STARTER] = -1
    sp[ob.ACTIONS] = 0


@kernel
def open_table(sp, n):
    """After the swap: the face-up and blind cards are on the table, every hand holds 3."""
    for p in range(n):
        for r in range(NR):
            sp[ob.FACEUP + p * NR + r] = sp[SWAP_FACEUP + p * NR + r]
        for k in range(3):
            sp[ob.BLIND_PRESENT + 3 * p + k] = 1
        sp[ob.HAND_SIZE + p] = 3
        sp[ob.FACEUP_SIZE + p] = 3
        sp[ob.BLIND_SIZE + p] = 3
        if sp[NO_OBSERVER]:
            continue
        for r in BASIC_ORDER:  # the play facts: basic lays face-up the 3 cards of the highest keys
            if sp[ob.FACEUP + p * NR + r] > 0:
                _lacks_fact(sp, p, KEY_ABOVE[r])
                break


@kernel
def start_play(sp, n, left_of_dealer):
    """After the swap: R7/R8 the starter (returned), V12 the rank of its opening play."""
    starter = _choose_starter(sp, n, left_of_dealer)
    sp[ob.STARTER] = starter
    if sp[ob.OPENING_LOWEST]:  # V12
        for r in range(1, NR):
            if r != TEN and sp[HANDS + starter * NR + r] > 0:
                sp[ob.MUST_PLAY] = r
                break
    return starter
