"""The tests' oracle: a match of the reference engine played one dealt card or one decision at a time.

The engine's own stepped table (``idiotsim.interop.stepped.Table``, over ``engine.stepping``) and the
batched API are checked against it, observation by observation (tests/interop/test_stepped_table.py,
tests/engine/test_stepping.py).

The reference engine (``idiotsim.game.reference``) plays a round to its end, asking its seats for each
decision. A ``Table`` drives the same ``Round`` from outside: its seats are a script that answers
each question with the move the caller applied, so every rule is the engine's own. The deal is a
sequence of cards from the top of the deck (R3, R5): a round starts once ``rules.num_cards`` cards
are dealt. The swaps (R6) are asked seat by seat; since a seat sees only its own six cards while
it swaps, the engine plays the whole swap phase when the last seat has chosen. Multi-round matches
(V4) deal a new deck after each round; the places are the match positions (R19).

Moves are the project's decision codes (``idiotsim.game.moves``): a swap choice, a play code, PICKUP,
CHANCE, or a blind position.
"""
from __future__ import annotations

import copy
from dataclasses import replace

import numpy as np

from idiotsim.game import observation as ob
from idiotsim.game.cards import NUM_RANKS
from idiotsim.game.action_space import to_action
from idiotsim.game.reference import Round, counts, match_positions, next_dealer
from idiotsim.game.rules import Rules
from idiotsim.game.basic_player import legal_moves_basic_first

_NO_RNG = np.zeros(1, dtype=np.uint64)  # the stepped round's seats are scripted: they draw nothing

DEALING, SWAPPING, PLAYING, OVER = range(4)
CARD_CODES = 52  # a deck's distinct codes (R3); two decks hold each twice (V7)
VECTOR_SIZE = ob.OBS_SIZE + NUM_RANKS + 1  # `Table.vector`: observation, hand, own swap


class _Script:
    """Every seat of a stepped Round: each question is answered with the next queued move."""
    label = "interop"
    params = np.zeros(0, dtype=np.float64)

    def __init__(self):
        self.moves: list = []

    @property
    def decide(self):
        return self

    def py_func(self, obs, hand, params, rng) -> int:
        return self.moves.pop(0)


class ReferenceTable:
    """One match (``rules.rounds`` rounds) of the reference engine, advanced by `deal` and `apply`."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.n = rules.players
        self.round_no = 1
        self.dealer = self.n - 1  # R7: seat 0 starts round 1
        self.totals = [0] * self.n
        self.round_places: list = []
        self.events: list = []  # the trace events of docs/trace.md (keys with "_" are not printed)
        self.deck: list = []  # the cards dealt so far this round, top of the deck first
        self.round: Round | None = None
        self.script = _Script()
        self.swaps: list = []  # the swap choices of seats 0.. so far (R6)
        self.seat = -1  # the seat to act while PLAYING
        self.phase = DEALING
        self._seen: dict = {}  # seat -> (observation, hand) until the next card or move

    # ---- copying (OpenSpiel clones states at every step of a search) ----

    def __deepcopy__(self, memo):
        new = copy.copy(self)
        new.totals = list(self.totals)
        new.round_places = list(self.round_places)
        new.events = list(self.events)  # the events themselves are never changed
        new.deck = list(self.deck)
        new.swaps = list(self.swaps)
        new.script = _Script()
        new._seen = {}
        if self.round is not None:
            new.round = copy_round(self.round, new.script, new.events.append)
        return new

    def copy(self) -> "ReferenceTable":
        return self.__deepcopy__({})

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
        self._seen = {}
        self.deck.append(int(card))
        if len(self.deck) == self.rules.num_cards:
            self.round = Round(self.rules, self.deck, [self.script] * self.n, [_NO_RNG] * self.n, self.round_no,
                               self.dealer, list(self.totals), 0, 0, self.events.append)
            self.phase = SWAPPING

    def deal_deck(self, deck) -> None:
        for card in deck:
            self.deal(int(card))

    # ---- the seat to act and what it sees -----------------------------------

    def current_seat(self) -> int:
        """The seat to decide now; -1 while dealing or when the match is over."""
        if self.phase == SWAPPING:
            return len(self.swaps)
        return self.seat if self.phase == PLAYING else -1

    def decision(self, seat: int | None = None) -> int:
        """SWAP, TURN or BLIND: what `seat` (default: the seat to act) decides, or would decide, now."""
        if self.phase == SWAPPING:
            return ob.SWAP
        player = self.round.players[self.current_seat() if seat is None else seat]
        return ob.BLIND if player.source() == ob.SRC_BLIND else ob.TURN

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
        if self.round is not None:
            vector[:ob.OBS_SIZE] = self.observation(seat)
            vector[ob.OBS_SIZE: ob.OBS_SIZE + NUM_RANKS] = self.hand(seat)
            swap = self.own_swap(seat)
            vector[-1] = 0 if swap is None else 1 + to_action(ob.SWAP, swap)
        return vector

    def own_swap(self, seat: int) -> int | None:
        """`seat`'s swap choice while the others still choose theirs (R6), else None."""
        return self.swaps[seat] if self.phase == SWAPPING and seat < len(self.swaps) else None

    def _view(self, seat: int) -> tuple:
        view = self._seen.get(seat)
        if view is None:
            player = self.round.players[seat]
            if self.phase == SWAPPING:
                obs = self.round.swap_observation(player)
            else:
                obs = self.round.observation(self.decision(seat), player)
            view = self._seen[seat] = (obs, counts(player.hand))
        return view

    def legal_moves(self) -> list:
        """Every legal decision code of the seat to act (R6, R9-R15, V5, V11, V12), without repeats."""
        seat = self.current_seat()
        decision = self.decision()
        if decision == ob.BLIND:
            return [i for i, card in enumerate(self.round.players[seat].blind) if card is not None]
        return [int(m) for m in legal_moves_basic_first(self.observation(seat), self.hand(seat))]

    # ---- moves -----------------------------------------------------------

    def apply(self, move: int) -> None:
        """The seat to act makes `move` (a decision code); the engine plays it."""
        self._seen = {}
        if self.phase == SWAPPING:
            self.swaps.append(int(move))
            if len(self.swaps) == self.n:
                self.script.moves = self.swaps
                self.seat = self.round.begin()
                self.swaps = []
                self.phase = PLAYING
                self._end_round_if_over()
            return
        if self.phase != PLAYING:
            raise ValueError("no seat decides now")
        self.script.moves = [int(move)]
        self.seat = self.round.act(self.round.players[self.seat])
        self._end_round_if_over()

    def _end_round_if_over(self) -> None:
        if not self.round.over():
            return
        result = self.round.finish()
        self.round_places.append(result.places)
        self.totals = [t + p for t, p in zip(self.totals, result.places)]
        self.dealer = next_dealer(self.rules, self.dealer, result.places)
        self.round = None
        self.seat = -1
        if self.round_no == self.rules.rounds:
            self.phase = OVER
        else:
            self.round_no += 1
            self.deck = []
            self.phase = DEALING

    # ---- the end -----------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def places(self) -> list:
        """The match positions (R19; the round's places when rounds = 1)."""
        return match_positions(self.totals)

    def trace(self) -> list:
        """The trace events so far, as `idiotsim trace` prints them."""
        return [{k: v for k, v in e.items() if not k.startswith("_")} for e in self.events]


def place_utility(place: int, players: int) -> float:
    """Place 1 (first out) is worth +1, place n (the Idiot) -1, evenly between."""
    return (players + 1 - 2 * place) / (players - 1)


def copy_round(rnd: Round, script: _Script, emit) -> Round:
    """A Round sharing only what never changes (rules, header, scores), its cards copied."""
    new = copy.copy(rnd)
    new.players = [replace(p, hand=list(p.hand), faceup=list(p.faceup), blind=list(p.blind), known=p.known.copy())
                   for p in rnd.players]
    new.pile = list(rnd.pile)
    new.talon = list(rnd.talon)
    new.burned = rnd.burned.copy()
    new.seats = [script] * rnd.n
    new.emit = emit
    return new
