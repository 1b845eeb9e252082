"""Batches of tables stepped from outside: create a batch, observe it, step it.

The engine's public face for everything that chooses the moves itself: RL users (``interop.vector_env``),
self-play, the learners. Modelled on OpenSpiel's state and pgx's batched ``init``/``step``: B tables, each
one int64 row of the engine's state (``Tables.states``), every rule applied by ``transitions``, no Python
per table.

Between two steps every table waits for one decision:

- ``seat``: the seat to act; ``decision``: SWAP (R6), TURN or BLIND (R15) (``game.observation``);
- ``observation()``: what that seat may know, the very observation a strategy is handed (its first
  OBS_SIZE values are the state's own public section), and ``hand()``: that seat's 13 rank counts;
- ``legal_mask()``: its legal actions over the one fixed action space of ``game.action_space``
  (NUM_ACTIONS ids: 455 swaps, the plays by rank, count and V11 extras, pick up, chance, three blind
  positions); ``legal_ids()`` lists the same ids, lowest first.

``step(actions)`` applies one action id per table. A table plays a whole match (``rules.rounds`` rounds,
R19, V4, V8); when it ends, ``step`` reports its places (R19) and each seat's reward (place 1 +1, the
Idiot -1, evenly between), and with auto-reset the table deals its next game in the same step: game
index + ``stride`` (the batch size unless given), so table i plays games g_i, g_i + stride, ...

Deals are ``run``'s: game g shuffles its decks from (seed, g), so a batch whose every seat plays `basic`
through this API ends every game in the places ``idiotsim run`` gives it (tests/engine/test_stepping.py).
An illegal action leaves its table as it was; ``step`` raises naming the table and the rule, after the
other tables have stepped. A table given NO_ACTION (-1) does not step.

The compiled kernels (`begin_match`, `step_table`, `observe_table`, `table_legal_mask`, `table_legal_ids`,
`match_places`, and for a caller that runs its own auto-reset `table_game`, `begin_next_game` and
`observe_final`, the finished table as one seat sees it) are public too, for compiled callers that step one
table at a time (``interop.vector_env`` fuses step, reset, observation and mask in one pass).

For a caller that deals the cards itself (OpenSpiel's chance nodes, ``interop.stepped``): `begin_dealt_match`
and `deal_round` (a deck a round, the table waits for it between rounds), `observe_seat` (any seat's
observation as if it decided now), `recorded_table` and `take_events` (the trace, docs/trace.md, step by
step) and `take_cards` (a table given the cards a seat believes in: sampled worlds).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from idiotsim.engine.memory import array_at, data_pointer
from idiotsim.engine.recording import event_dict, record_round_end
from idiotsim.engine.state_layout import (DECK, ERROR, ERROR_SEAT, EV_WIDTH, GAME, HANDS, MATCH_DEAL, MATCH_DEALER,
                                          MATCH_DECKS_GIVEN, MATCH_GAME, MATCH_PHASE, MATCH_SEED, NEXT_PLACE, NO_OBSERVER,
                                          N_EVENTS, N_OBS, PLAYERS_IN, RECORD, SEAT_BASIC, STALLED, STATE_SIZE, TALON_LEN,
                                          TALON_POS, TOTAL_ACTIONS, TRACE, TRACE_CAP)
from idiotsim.engine.transitions import (apply_action, apply_swap, deal, final_places, open_table, show_swap,
                                         show_turn, start_play)
from idiotsim.errors import UserError
from idiotsim.game import observation as ob
from idiotsim.game.action_space import BLIND_BASE, NOT_A_MOVE, NUM_ACTIONS, action_id, legal_action_mask, move_code
from idiotsim.game.moves import ILLEGAL_CODE, ILLEGAL_REASONS, MAX_MOVES, list_moves
from idiotsim.game.observation import MAX_PLAYERS, NR, OBS_SIZE
from idiotsim.game.rng import nb_shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.jit import kernel

PHASE_SWAP, PHASE_PLAY, PHASE_OVER, PHASE_DEAL = range(4)
PLAYING, MATCH_OVER = 0, 1  # what `step_table` returns; an illegal action returns -(its reason)
NO_ACTION = -1  # `step_batch`: this table takes no step (its match is over, say)
ILLEGAL_OVER = len(ILLEGAL_REASONS)  # the reason of a step at a table whose match is over (no auto-reset)
ILLEGAL_UNDEALT = ILLEGAL_OVER + 1  # the reason of a step at a table that waits for its deck (`deal_round`)
STEP_REASONS = ILLEGAL_REASONS + ("the table's match is over (step it after a reset)",
                                  "the table waits for its next deck (deal_round)")


# ---- one table, compiled ------------------------------------------------------------------------

@kernel
def _deal_round(st, sp, rnd, work):
    """Round `rnd` (1-based) dealt from the match's (seed, deal) stream, and the first swap shown."""
    n = sp[ob.PLAYERS]
    n_cards = 52 * sp[ob.DECKS]
    nb_shuffled_deck(sp[MATCH_SEED], sp[MATCH_DEAL], rnd - 1, st[DECK: DECK + n_cards], work)
    deal(sp, n, n_cards)
    sp[ob.ROUND] = rnd
    sp[MATCH_PHASE] = PHASE_SWAP
    show_swap(sp, 0)


@kernel
def _reset_match(sp, header, seed, game, deal_index, decks_given):
    """The rules from `header`, scores and game counters cleared, R7's first dealer; recording
    (RECORD and its capacities) is the caller's and kept."""
    n = header[ob.PLAYERS]
    for i in range(ob.HEADER_SIZE):
        sp[i] = header[i]
    for p in range(MAX_PLAYERS):
        sp[ob.SCORE + p] = 0
        sp[SEAT_BASIC + p] = 0
    for i in range(GAME, N_OBS + 1):
        sp[i] = 0
    sp[NO_OBSERVER] = 0  # the observation is handed out at every decision: every fact is kept
    sp[MATCH_DEALER] = n - 1  # R7: seat 0 starts round 1
    sp[MATCH_SEED] = seed
    sp[MATCH_GAME] = game
    sp[MATCH_DEAL] = deal_index
    sp[MATCH_DECKS_GIVEN] = decks_given


@kernel
def begin_match(st, header, seed, game, deal_index, work):
    """A new match at the table `st` (STATE_SIZE): the rules from `header`, decks from (seed, deal_index),
    game index `game`; it waits for seat 0's swap. `work` is a uint64[1] of scratch."""
    sp = data_pointer(st)
    _reset_match(sp, header, seed, game, deal_index, 0)
    _deal_round(st, sp, 1, work)


@kernel
def begin_dealt_match(st, header, game):
    """A new match at the table `st` whose decks the caller deals, one per round (`deal_round`): it
    waits for round 1's deck (PHASE_DEAL; its observation is all rules and zeros until then)."""
    sp = data_pointer(st)
    _reset_match(sp, header, 0, game, game, 1)
    for i in range(ob.HEADER_SIZE, OBS_SIZE):
        sp[i] = 0
    sp[MATCH_PHASE] = PHASE_DEAL


@kernel
def deal_round(st, deck):
    """The next round of a table waiting for its deck dealt from `deck` (the card codes of
    ``game.cards``, top of the deck first, R3, R5); it waits for seat 0's swap. Returns PLAYING, or
    -ILLEGAL_UNDEALT when the table waits for no deck."""
    sp = data_pointer(st)
    if sp[MATCH_PHASE] != PHASE_DEAL:
        return -ILLEGAL_UNDEALT
    n_cards = 52 * sp[ob.DECKS]
    for i in range(n_cards):
        sp[DECK + i] = deck[i]
    rnd = sp[ob.ROUND] + 1
    deal(sp, sp[ob.PLAYERS], n_cards)
    sp[ob.ROUND] = rnd
    sp[MATCH_PHASE] = PHASE_SWAP
    show_swap(sp, 0)
    return PLAYING


@kernel
def _end_round(st, sp, n, work):
    """R18/R20 places, the match's scores and next dealer (R7, V8); the next round dealt, or the match
    over. Returns PLAYING or MATCH_OVER."""
    stalled = sp[PLAYERS_IN] > 1
    if stalled:
        sp[STALLED] = 1
    final_places(sp, n, sp[ob.STARTER])
    sp[TOTAL_ACTIONS] += sp[ob.ACTIONS]
    record_round_end(sp, sp[ob.ROUND], stalled, n)
    idiot = 0
    for p in range(n):
        sp[ob.SCORE + p] += sp[ob.PLACE + p]
        if sp[ob.PLACE + p] == n:
            idiot = p
    sp[MATCH_DEALER] = idiot if sp[ob.IDIOT_DEALS] else (sp[MATCH_DEALER] + 1) % n
    if sp[ob.ROUND] < sp[ob.ROUNDS]:
        if sp[MATCH_DECKS_GIVEN]:
            sp[MATCH_PHASE] = PHASE_DEAL
        else:
            _deal_round(st, sp, sp[ob.ROUND] + 1, work)
        return PLAYING
    sp[MATCH_PHASE] = PHASE_OVER
    return MATCH_OVER


@kernel
def _take_error(sp):
    """The reason of the illegal move just refused, cleared: the table is as it was."""
    reason = sp[ERROR]
    sp[ERROR] = 0
    sp[ERROR_SEAT] = 0
    return reason


@kernel
def step_table(st, action, work):
    """The seat to act at table `st` takes action id `action`. Returns PLAYING (the next decision is
    shown), MATCH_OVER (`match_places` holds the result), or -reason (``STEP_REASONS``) for an illegal
    action, which changes nothing."""
    sp = data_pointer(st)
    phase = sp[MATCH_PHASE]
    if phase == PHASE_OVER:
        return -ILLEGAL_OVER
    if phase == PHASE_DEAL:
        return -ILLEGAL_UNDEALT
    move = move_code(sp[ob.DECISION], action)
    if move == NOT_A_MOVE:
        return -ILLEGAL_CODE
    n = sp[ob.PLAYERS]
    seat = sp[ob.SEAT]
    if phase == PHASE_SWAP:
        if apply_swap(sp, seat, move) < 0:
            return -_take_error(sp)
        if seat + 1 < n:
            show_swap(sp, seat + 1)
            return PLAYING
        open_table(sp, n)
        sp[MATCH_PHASE] = PHASE_PLAY
        show_turn(sp, start_play(sp, n, (sp[MATCH_DEALER] + 1) % n))
        return PLAYING
    nxt = apply_action(sp, seat, move, n)
    if nxt < 0:
        return -_take_error(sp)
    if sp[PLAYERS_IN] > 1 and sp[ob.ACTIONS] < sp[ob.ACTION_LIMIT]:  # R18, R20
        show_turn(sp, nxt)
        return PLAYING
    return _end_round(st, sp, n, work)


@kernel
def table_game(st):
    """The game index table `st` plays."""
    return st[MATCH_GAME]


@kernel
def begin_next_game(st, stride, work):
    """Auto-reset of table `st`: its next game begun, game index + `stride`, dealt from its deal index +
    `stride`, its rules kept (`work`: a uint64[1] of scratch)."""
    # the table's own first HEADER_SIZE values are the header `begin_match` copies: an identity copy here
    begin_match(st, st, st[MATCH_SEED], st[MATCH_GAME] + stride, st[MATCH_DEAL] + stride, work)


@kernel
def observe_final(st, seat, obs, hand):
    """A finished match as `seat` sees it, into `obs` (OBS_SIZE) and `hand` (13): the public observation as
    the last action left it (its places, scores, piles), with SEAT set to `seat`, and that seat's hand.
    Only for a table whose match is over (`step_table` returned MATCH_OVER): during a match the
    observation belongs to the seat to act (`observe_table`)."""
    _copy_view(st, seat, obs, hand)


@kernel
def _copy_view(st, seat, obs, hand):
    """The observation at `st` with SEAT `seat`, and that seat's hand, into `obs` and `hand`."""
    for i in range(OBS_SIZE):
        obs[i] = st[i]
    obs[ob.SEAT] = seat
    at = HANDS + seat * NR
    for r in range(NR):
        hand[r] = st[at + r]


@kernel
def match_places(st, places):
    """R19: each seat's position in the finished match (lowest total first, equal totals share)."""
    n = st[ob.PLAYERS]
    for p in range(n):
        better = 0
        for q in range(n):
            if st[ob.SCORE + q] < st[ob.SCORE + p]:
                better += 1
        places[p] = better + 1


@kernel
def observe_table(st, obs, hand):
    """The seat to act's observation and hand into `obs` (OBS_SIZE) and `hand` (13)."""
    for i in range(OBS_SIZE):
        obs[i] = st[i]
    at = HANDS + st[ob.SEAT] * NR
    for r in range(NR):
        hand[r] = st[at + r]


@kernel
def observe_seat(st, seat, scratch, obs, hand):
    """Any seat's observation and hand into `obs` and `hand` as if it decided now, the table unchanged
    (`scratch`: STATE_SIZE of work space). At the swap (R6) a seat sees its own face-up row and no
    other; in play, its own source and what it may do (R13)."""
    for i in range(STATE_SIZE):
        scratch[i] = st[i]
    sp = data_pointer(scratch)
    if sp[MATCH_PHASE] == PHASE_SWAP:
        _show_own_swap(sp, seat)
    elif sp[MATCH_PHASE] == PHASE_PLAY and seat != sp[ob.SEAT]:
        show_turn(sp, seat)
    _copy_view(scratch, seat, obs, hand)


@kernel
def _show_own_swap(sp, seat):
    """R6: `seat`'s own face-up row shown and every other seat's hidden, as at its swap."""
    for i in range(sp[ob.PLAYERS] * NR):
        sp[ob.FACEUP + i] = 0
    show_swap(sp, seat)


@kernel
def table_phase(st):
    """PHASE_SWAP, PHASE_PLAY, PHASE_OVER or PHASE_DEAL (a table waiting for its deck, `deal_round`)."""
    return st[MATCH_PHASE]


@kernel
def table_dealer(st):
    """The dealer of the round in play, or of the next round once one is over (R7, V8)."""
    return st[MATCH_DEALER]


@kernel
def table_legal_mask(st, moves, mask):
    """The legal action ids of the seat to act into `mask` (NUM_ACTIONS; `moves`: MAX_MOVES of work
    space); returns how many."""
    sp = data_pointer(st)
    return legal_action_mask(array_at(sp, 0, OBS_SIZE), array_at(sp, HANDS + sp[ob.SEAT] * NR, NR), moves, mask)


def take_cards(st: np.ndarray, cards_from: np.ndarray, seat: int, dealer: int | None = None) -> None:
    """Table `st`, in a match, given the cards and public observation of `cards_from` (a table composed or
    sampled from what one seat knows: ``hidden_cards``, the search's sampler), in play or at the swap as
    `cards_from`'s decision says, `seat` shown as the seat to act (at the swap: with no swap made yet).
    Its match (the round's dealer, or `dealer` when given; its seed and game), its counts of burns,
    pickups and actions, and its recording are kept."""
    st[:GAME] = cards_from[:GAME]
    for scalar in (TALON_POS, TALON_LEN, NEXT_PLACE, PLAYERS_IN):
        st[scalar] = cards_from[scalar]
    if dealer is not None:
        st[MATCH_DEALER] = dealer
    if st[ob.DECISION] == ob.SWAP:
        st[MATCH_PHASE] = PHASE_SWAP
        _show_swap(st, seat)
    else:
        st[MATCH_PHASE] = PHASE_PLAY
        _show_turn(st, seat)


@njit(cache=True)
def _show_swap(st, seat):
    _show_own_swap(data_pointer(st), seat)


@njit(cache=True)
def _show_turn(st, seat):
    show_turn(data_pointer(st), seat)


def recorded_table(events: int) -> np.ndarray:
    """A table (STATE_SIZE) with room for `events` trace events after it and recording on, and no room
    for observation checksums (only the drivers log those)."""
    st = np.zeros(STATE_SIZE + events * EV_WIDTH, dtype=np.int64)
    st[RECORD], st[TRACE_CAP] = 1, events
    return st


def take_events(st: np.ndarray, n: int) -> list:
    """The trace events recorded at `st` since the last call, as dicts (n: the players); the room is
    emptied for the next."""
    count = int(st[N_EVENTS])
    rows = st[TRACE: TRACE + count * EV_WIDTH].reshape(count, EV_WIDTH)
    events = [event_dict(row, n) for row in rows]
    st[N_EVENTS] = 0
    return events


# ---- a batch, compiled ------------------------------------------------------------------------

@njit(cache=True)
def begin_matches(states, header, seed, games, deals):
    work = np.zeros(1, np.uint64)
    for i in range(states.shape[0]):
        begin_match(states[i], header, seed, games[i], deals[i], work)


@njit(cache=True)
def step_batch(states, actions, auto_reset, stride, status, places, actions_played, stalled):
    """`step_table` at every table; a finished match's places, actions and stall flag into row i of
    `places`, `actions_played` and `stalled`, then (with `auto_reset`) its table's next game begun."""
    work = np.zeros(1, np.uint64)
    for i in range(states.shape[0]):
        st = states[i]
        if actions[i] == NO_ACTION:
            status[i] = PLAYING
            continue
        result = step_table(st, actions[i], work)
        status[i] = result
        if result != MATCH_OVER:
            continue
        match_places(st, places[i])
        actions_played[i] = st[TOTAL_ACTIONS]
        stalled[i] = st[STALLED]
        if auto_reset:
            begin_next_game(st, stride, work)


@njit(cache=True)
def observe_batch(states, obs, hands):
    for i in range(states.shape[0]):
        observe_table(states[i], obs[i], hands[i])


@njit(cache=True)
def legal_masks(states, masks):
    moves = np.zeros(MAX_MOVES, np.int64)
    for i in range(states.shape[0]):
        table_legal_mask(states[i], moves, masks[i])


@kernel
def table_legal_ids(st, moves, ids):
    """The legal action ids of the seat to act into `ids` (MAX_MOVES), lowest first; returns how many.
    The legal-move lister lists a decision's moves in the order of their ids (``game.action_space``)."""
    sp = data_pointer(st)
    obs = array_at(sp, 0, OBS_SIZE)
    decision = sp[ob.DECISION]
    if decision == ob.BLIND:
        count = 0
        for pos in range(3):
            if sp[ob.BLIND_PRESENT + sp[ob.SEAT] * 3 + pos]:
                ids[count] = BLIND_BASE + pos
                count += 1
        return count
    count = list_moves(obs, array_at(sp, HANDS + sp[ob.SEAT] * NR, NR), moves)
    for i in range(count):
        ids[i] = action_id(decision, moves[i])
    return count


@njit(cache=True)
def legal_id_lists(states, ids, counts):
    """Each table's legal ids, lowest first, into row i of `ids` (MAX_MOVES wide); their number into counts[i]."""
    moves = np.zeros(MAX_MOVES, np.int64)
    for i in range(states.shape[0]):
        counts[i] = table_legal_ids(states[i], moves, ids[i])


# ---- the Python face -------------------------------------------------------------------------------

@dataclass(frozen=True)
class StepResult:
    """What one `TableBatch.step` ended: ``done[i]`` when table i's match ended in this step; then
    ``places[i]`` (R19 positions by seat), ``rewards[i]`` (+1 first to -1 the Idiot, by seat),
    ``game[i]`` (the game index it played), ``actions[i]`` and ``stalled[i]`` (R20); rows of tables
    still playing are 0."""
    done: np.ndarray
    places: np.ndarray
    rewards: np.ndarray
    game: np.ndarray
    actions: np.ndarray
    stalled: np.ndarray


def place_rewards(places: np.ndarray, players: int) -> np.ndarray:
    """Place 1 +1, place `players` (the Idiot) -1, evenly between; 0 where `places` is 0."""
    rewards = (players + 1 - 2 * places.astype(np.float64)) / (players - 1)
    return np.where(places > 0, rewards, 0.0)


class TableBatch:
    """B tables of `rules`, table i playing game ``games[i]`` (default 0..B-1) dealt as ``run`` deals it
    from `seed`; with `auto_reset` each table deals its next game (index + `stride`, default B) as its
    match ends."""

    def __init__(self, rules: Rules, seed: int = 0, games=None, tables: int | None = None,
                 auto_reset: bool = True, stride: int | None = None):
        if games is None:
            games = np.arange(tables if tables is not None else 1, dtype=np.int64)
        games = np.ascontiguousarray(games, dtype=np.int64)
        if games.ndim != 1 or len(games) == 0:
            raise UserError("a table batch needs a list of one or more game indices")
        self.rules = rules
        self.players = rules.players
        self.seed = int(seed)
        self.auto_reset = bool(auto_reset)
        self.stride = len(games) if stride is None else int(stride)
        self.states = np.zeros((len(games), STATE_SIZE), dtype=np.int64)
        self.header = np.zeros(ob.HEADER_SIZE, dtype=np.int64)
        ob.rules_to_header(rules, self.header)
        self._status = np.zeros(len(games), dtype=np.int64)
        self.reset(games)

    def __len__(self) -> int:
        return self.states.shape[0]

    def reset(self, games, deals=None) -> None:
        """Every table begins game ``games[i]`` (decks from ``deals[i]``, default the game's own)."""
        games = np.ascontiguousarray(games, dtype=np.int64)
        deals = games if deals is None else np.ascontiguousarray(deals, dtype=np.int64)
        if games.shape != (len(self),) or deals.shape != (len(self),):
            raise UserError(f"reset needs {len(self)} game indices, one per table")
        begin_matches(self.states, self.header, self.seed, games, deals)

    # ---- what each table waits for ----

    @property
    def seat(self) -> np.ndarray:
        """The seat to act at each table."""
        return self.states[:, ob.SEAT]

    @property
    def decision(self) -> np.ndarray:
        """SWAP, TURN or BLIND at each table (``game.observation``)."""
        return self.states[:, ob.DECISION]

    @property
    def game(self) -> np.ndarray:
        """The game index each table plays."""
        return self.states[:, MATCH_GAME]

    @property
    def over(self) -> np.ndarray:
        """Tables whose match is over and not begun again (without auto-reset)."""
        return self.states[:, MATCH_PHASE] == PHASE_OVER

    def observation(self, out: np.ndarray | None = None) -> np.ndarray:
        """(B, OBS_SIZE): the observation of each table's seat to act (``game.observation``)."""
        obs = np.empty((len(self), OBS_SIZE), dtype=np.int64) if out is None else out
        hands = np.empty((len(self), NR), dtype=obs.dtype)
        observe_batch(self.states, obs, hands)
        return obs

    def hand(self, out: np.ndarray | None = None) -> np.ndarray:
        """(B, 13): the rank counts of each table's seat to act."""
        hands = np.empty((len(self), NR), dtype=np.int64) if out is None else out
        rows = HANDS + self.seat[:, None] * NR + np.arange(NR)
        hands[:] = np.take_along_axis(self.states, rows, axis=1)
        return hands

    def observe(self, obs: np.ndarray, hands: np.ndarray) -> None:
        """Observation and hand of every table's seat to act into `obs` (B, OBS_SIZE) and `hands` (B, 13)
        of any integer type, in one compiled pass."""
        observe_batch(self.states, obs, hands)

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """(B, NUM_ACTIONS) bool: the legal actions of each table's seat to act."""
        masks = np.empty((len(self), NUM_ACTIONS), dtype=np.bool_) if out is None else out
        legal_masks(self.states, masks)
        return masks

    def legal_ids(self, ids: np.ndarray | None = None, counts: np.ndarray | None = None) -> tuple:
        """(ids (B, MAX_MOVES), counts (B,)): each table's legal action ids, lowest first, in row i's
        first counts[i] places."""
        ids = np.zeros((len(self), MAX_MOVES), dtype=np.int64) if ids is None else ids
        counts = np.zeros(len(self), dtype=np.int64) if counts is None else counts
        legal_id_lists(self.states, ids, counts)
        return ids, counts

    # ---- a step ----

    def step(self, actions) -> StepResult:
        """Every table's seat to act takes ``actions[i]`` (an id of ``game.action_space``, or NO_ACTION: that
        table waits, as a finished one without auto-reset must)."""
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (len(self),):
            raise UserError(f"step needs {len(self)} actions, one per table, got shape {actions.shape}")
        b, n = len(self), self.players
        places = np.zeros((b, MAX_PLAYERS), dtype=np.int64)
        played = np.zeros(b, dtype=np.int64)
        stalled = np.zeros(b, dtype=np.int64)
        games = self.game.copy()
        step_batch(self.states, actions, self.auto_reset, self.stride, self._status, places, played, stalled)
        bad = np.flatnonzero(self._status < 0)
        if len(bad):
            i = int(bad[0])
            raise ValueError(f"table {i} (game {int(games[i])}): action {int(actions[i])} is illegal: "
                             f"{STEP_REASONS[-int(self._status[i])]}")
        done = self._status == MATCH_OVER
        places = places[:, :n]
        return StepResult(done=done.copy(), places=places, rewards=place_rewards(places, n),
                          game=np.where(done, games, 0), actions=played, stalled=stalled.astype(bool))
