"""A match on the engine stepped one dealt card or one decision at a time: the OpenSpiel and PettingZoo
adapters' table.

A `Table` is one engine table (``idiotsim.engine.stepping``) whose decks the caller deals card by card
from the top (R3, R5: OpenSpiel's chance nodes); a round starts once ``rules.num_cards`` cards are dealt.
Every rule is the engine's own. The swaps (R6) are asked seat by seat; since a seat sees only its own six
cards while it swaps, the table hands them to the engine together once the last seat has chosen, so every
seat can be observed at the swap as dealt, with its own choice beside (`own_swap`). Multi-round matches
(V4) wait for a new deck after each round; the places are the match positions (R19). The engine records
the trace (docs/trace.md) as the table steps; it keeps ranks only, since suits never matter (R1).

Moves are action ids of ``idiotsim.game.action_space``.
"""
from __future__ import annotations

import copy

import numpy as np

from idiotsim.engine.stepping import (MATCH_OVER, PHASE_DEAL, PHASE_OVER, PHASE_SWAP, STEP_REASONS, begin_dealt_match,
                                      deal_round, match_places, observe_seat, recorded_table, step_table,
                                      table_dealer, table_legal_ids, table_phase, take_cards, take_events)
from idiotsim.game import observation as ob
from idiotsim.game.action_space import to_action
from idiotsim.game.cards import NUM_RANKS
from idiotsim.game.moves import MAX_MOVES
from idiotsim.game.rules import Rules

DEALING, SWAPPING, PLAYING, OVER = range(4)
CARD_CODES = 52  # a deck's distinct codes (R3); two decks hold each twice (V7)
VECTOR_SIZE = ob.OBS_SIZE + NUM_RANKS + 1  # `Table.vector`: observation, hand, own swap
EVENTS_PER_STEP = 16  # room for one step's trace events (a play, a seat out, the round's end: at most 4)
_PHASES = {PHASE_DEAL: DEALING, PHASE_SWAP: SWAPPING, PHASE_OVER: OVER}


class Table:
    """One match (``rules.rounds`` rounds) on the engine, advanced by `deal` and `apply`."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.n = rules.players
        self.state = recorded_table(EVENTS_PER_STEP)
        header = np.zeros(ob.HEADER_SIZE, dtype=np.int64)
        ob.rules_to_header(rules, header)
        begin_dealt_match(self.state, header, 0)
        self.events: list = []  # the trace events of docs/trace.md so far
        self.deck: list = []  # the cards dealt so far this round, top of the deck first
        self.swaps: list = []  # the swap action ids of seats 0.. so far (R6)
        self._views: dict = {}  # seat -> (observation, hand, scratch table) until the next card or move
        self._work = np.zeros(1, dtype=np.uint64)

    def copy(self) -> "Table":
        """An independent table (OpenSpiel clones states at every step of a search)."""
        new = copy.copy(self)
        new.state = self.state.copy()
        new.events = list(self.events)  # the events themselves are never changed
        new.deck = list(self.deck)
        new.swaps = list(self.swaps)
        new._views = {}
        new._work = np.zeros(1, dtype=np.uint64)
        return new

    def __deepcopy__(self, memo) -> "Table":
        return self.copy()

    # ---- where the match stands ------------------------------------------

    @property
    def phase(self) -> int:
        """DEALING, SWAPPING, PLAYING or OVER."""
        return _PHASES.get(int(table_phase(self.state)), PLAYING)

    @property
    def round_no(self) -> int:
        """The round in play, or the round being dealt."""
        return int(self.state[ob.ROUND]) + (self.phase == DEALING)

    @property
    def totals(self) -> list:
        """Each seat's sum of places in the rounds played (R19)."""
        return [int(x) for x in self.state[ob.SCORE: ob.SCORE + self.n]]

    @property
    def dealer(self) -> int:
        return int(table_dealer(self.state))

    @property
    def over(self) -> bool:
        return self.phase == OVER

    # ---- the deal --------------------------------------------------------

    def cards_left(self) -> np.ndarray:
        """Copies of each card code still to deal this round (indexed by code)."""
        left = np.full(CARD_CODES, self.rules.decks, dtype=np.int64)
        np.subtract.at(left, np.asarray(self.deck, dtype=np.int64), 1)
        return left

    def deal(self, card: int) -> None:
        """The next card from the top of the deck (R3); the last one starts the round."""
        if self.phase != DEALING or not 0 <= card < CARD_CODES or self.cards_left()[card] == 0:
            raise ValueError(f"card {card} cannot be dealt now")
        self._views = {}
        self.deck.append(int(card))
        if len(self.deck) == self.rules.num_cards:
            deal_round(self.state, np.asarray(self.deck, dtype=np.int64))

    def deal_deck(self, deck) -> None:
        for card in deck:
            self.deal(int(card))

    # ---- the seat to act and what it sees ----------------------------------

    def current_seat(self) -> int:
        """The seat to decide now; -1 while dealing or when the match is over."""
        phase = self.phase
        if phase == SWAPPING:
            return len(self.swaps)
        return int(self.state[ob.SEAT]) if phase == PLAYING else -1

    def decision(self, seat: int | None = None) -> int:
        """SWAP, TURN or BLIND: what `seat` (default: the seat to act) decides, or would decide, now."""
        return int(self._view(self.current_seat() if seat is None else seat)[0][ob.DECISION])

    def observation(self, seat: int) -> np.ndarray:
        """The project's observation of `seat` (what it may know, idiotsim.game.observation) as if it decided
        now (not to be changed: it is kept until the next move)."""
        return self._view(seat)[0]

    def hand(self, seat: int) -> np.ndarray:
        """The 13 rank counts of `seat`'s hand; at the swap, the hand as dealt."""
        return self._view(seat)[1]

    def vector(self, seat: int) -> np.ndarray:
        """What `seat` knows as one int64 vector: its observation, its hand and, at the swap once made,
        1 + its swap's action id (else 0); zeros while dealing or once the match is over."""
        vector = np.zeros(VECTOR_SIZE, dtype=np.int64)
        if self.phase in (SWAPPING, PLAYING):
            vector[:ob.OBS_SIZE] = self.observation(seat)
            vector[ob.OBS_SIZE: ob.OBS_SIZE + NUM_RANKS] = self.hand(seat)
            swap = self.own_swap(seat)
            vector[-1] = 0 if swap is None else 1 + swap
        return vector

    def own_swap(self, seat: int) -> int | None:
        """`seat`'s swap action id while the others still choose theirs (R6), else None."""
        return self.swaps[seat] if self.phase == SWAPPING and seat < len(self.swaps) else None

    def settled(self) -> dict:
        """Seat -> place of the seats already out in the round in play (R18)."""
        if self.phase != PLAYING:
            return {}
        places = self.state[ob.PLACE: ob.PLACE + self.n]
        return {seat: int(place) for seat, place in enumerate(places) if place}

    def _view(self, seat: int) -> tuple:
        view = self._views.get(seat)
        if view is None:
            obs = np.zeros(ob.OBS_SIZE, dtype=np.int64)
            hand = np.zeros(NUM_RANKS, dtype=np.int64)
            scratch = np.zeros(len(self.state), dtype=np.int64)
            observe_seat(self.state, seat, scratch, obs, hand)
            view = self._views[seat] = (obs, hand, scratch)
        return view

    def legal_actions(self) -> list:
        """The legal action ids of the seat to act (R6, R9-R15, V5, V11, V12), lowest first."""
        seat = self.current_seat()
        if seat < 0:
            return []
        ids = np.zeros(MAX_MOVES, dtype=np.int64)
        count = table_legal_ids(self._view(seat)[2], np.zeros(MAX_MOVES, dtype=np.int64), ids)
        return ids[:count].tolist()

    # ---- moves -----------------------------------------------------------

    def apply(self, action: int) -> None:
        """The seat to act takes `action` (an action id); the engine plays it. An illegal action raises
        ValueError and changes nothing."""
        phase = self.phase
        if phase not in (SWAPPING, PLAYING):
            raise ValueError("no seat decides now")
        action = int(action)
        if phase == SWAPPING:
            if action not in self.legal_actions():
                raise ValueError(f"action {action} is not a legal swap of seat {len(self.swaps)}")
            self._views = {}
            self.swaps.append(action)
            if len(self.swaps) == self.n:
                swaps, self.swaps = self.swaps, []
                for swap in swaps:
                    self._step(swap)
            return
        self._step(action)

    def apply_move(self, move: int) -> None:
        """`apply` of a decision code (``game.moves``: a swap choice, a play code, PICKUP, CHANCE, or a
        blind position), as a strategy returns it."""
        self.apply(to_action(self.decision(), move))

    def take_cards(self, cards_from: np.ndarray, seat: int, dealer: int | None = None) -> None:
        """The cards and public observation of `cards_from`, a table composed or sampled from what one seat
        knows, with `seat` to act (``engine.stepping.take_cards``)."""
        take_cards(self.state, cards_from, seat, dealer)
        self._views = {}

    def _step(self, action: int) -> None:
        result = step_table(self.state, action, self._work)
        if result < 0:
            raise ValueError(f"action {action} is illegal: {STEP_REASONS[-result]}")
        self._views = {}
        self.events += take_events(self.state, self.n)
        if result != MATCH_OVER and self.phase == DEALING:
            self.deck = []

    # ---- the end -----------------------------------------------------------

    def places(self) -> list:
        """The match positions (R19; the round's places when rounds = 1)."""
        places = np.zeros(ob.MAX_PLAYERS, dtype=np.int64)
        match_places(self.state, places)
        return places[: self.n].tolist()

    def trace(self) -> list:
        """The trace events so far, as `idiotsim trace` prints them."""
        return list(self.events)


def place_utility(place: int, players: int) -> float:
    """Place 1 (first out) is worth +1, place n (the Idiot) -1, evenly between."""
    return (players + 1 - 2 * place) / (players - 1)
