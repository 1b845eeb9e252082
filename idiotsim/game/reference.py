"""The reference engine: docs/rules.md as plain, readable Python.

This is the executable spec. It favours being checked line by line against
docs/rules.md over speed; the numba engine (``idiotsim.engine.transitions``) must produce the
same trace from the same deck. Rule ids are cited where a line implements them.

Cards are card codes (``rank * 4 + suit``, see ``idiotsim.game.cards``); suits
never affect play (R1) and are kept only so that ``trace --pretty`` can show
them. Where a player holds several cards of a rank, the lowest codes are
played first.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from idiotsim.game import observation as ob
from idiotsim.game.cards import (BASIC_KEY, HAND_TARGET, NUM_RANKS, RANK_NAMES, SIX, TEN, TWO, card_rank, is_ordinary,
                            sort_ranks_basic)
from idiotsim.errors import IllegalMoveError, LeaveGame, UserError
from idiotsim.game.rng import SEAT_STREAM, new_state
from idiotsim.game.strategy_faults import exception_fault, is_move_code, return_fault
from idiotsim.game.rules import Rules
from idiotsim.game.moves import (CHANCE, ILLEGAL_BLIND_PICKUP, ILLEGAL_BLIND_POSITION, ILLEGAL_CHANCE,
                              ILLEGAL_CODE, ILLEGAL_EMPTY_PICKUP, ILLEGAL_EXTRA, ILLEGAL_NOT_HELD,
                              ILLEGAL_NOT_LEGAL, ILLEGAL_OPENING, ILLEGAL_REASONS, ILLEGAL_SWAP,
                              ILLEGAL_ZERO_COUNT, PICKUP)


def counts(cards) -> np.ndarray:
    """Cards per rank."""
    return np.array(count_list(cards), dtype=np.int64)


def count_list(cards) -> list:
    c = [0] * NUM_RANKS
    for card in cards:
        c[card >> 2] += 1
    return c


_OBS_PACKING = struct.Struct(f"={ob.OBS_SIZE}q")  # an observation's int64s in native order, no padding


def as_observation(values: list) -> np.ndarray:
    """An observation filled in as a list (`Round.base_observation`), as the array a strategy sees:
    packed by `struct` into a writable buffer (a read-only array would be another type to numba),
    which converts a list this long at a fraction of `np.array`'s cost (a third of a reference
    game's instructions went to that conversion)."""
    assert len(values) == ob.OBS_SIZE  # a slice of the wrong length would move every field after it
    return np.frombuffer(bytearray(_OBS_PACKING.pack(*values)), dtype=np.int64)


def logged_checksum(obs: np.ndarray, hand: np.ndarray) -> int:
    """What `obs_log` records of an observation: observation.checksum, computed by its compiled form
    (the Python loop would cost most of a game; tests/engine/test_engine_equality.py shows they agree)."""
    return int(ob.obs_checksum(obs, hand))


def take_rank(cards: list, rank: int, k: int) -> list:
    """Remove and return the k lowest-coded cards of `rank` from `cards`."""
    chosen = sorted(c for c in cards if card_rank(c) == rank)[:k]
    for c in chosen:
        cards.remove(c)
    return chosen


def may_follow(rank: int, top: int | None, rules: Rules) -> bool:
    """R10, R11, V1/V2, V6: may a card of `rank` be played on a pile whose top is `top`?"""
    if top is None:  # R11: empty pile
        return True
    if rank == TWO:  # R10
        return True
    if rank == TEN:  # R10, V6
        return not (rules.ten_only_on_lower and is_ordinary(top) and top >= 9)
    if top == TWO:  # R11: a 2 resets
        return True
    if top == rules.low_rank_id:  # V1/V2: after the low rank, play that rank or lower
        return rank <= top
    return rank >= top


@lru_cache(maxsize=None)
def legal_ranks(top: int | None, rules: Rules) -> int:
    """The ranks that may follow `top`, as the bit mask of ``obs[LEGAL]``."""
    return sum(1 << r for r in range(NUM_RANKS) if may_follow(r, top, rules))


@dataclass
class Player:
    seat: int
    hand: list = field(default_factory=list)
    faceup: list = field(default_factory=list)
    blind: list = field(default_factory=list)  # three positions; None once flipped
    place: int = 0  # 0 while still in (R16.3)
    known: np.ndarray = field(default_factory=lambda: np.zeros(NUM_RANKS, dtype=np.int64))
    pickup_legal: int = 0  # the pickup facts (observation PICKUP_LEGAL, PICKUP_FREE; docs/rules.md)
    pickup_free: int = 0
    lacks: int = 0  # the play facts (observation LACKS, LACKS_FREE; docs/rules.md)
    lacks_free: int = 0

    def learn_lacks(self, mask: int) -> None:
        """A play fact: had this player played like `basic`, its unknown hand cards hold none of the
        ranks in `mask` now; joined with the earlier fact while no unknown card has come in since."""
        self.lacks = mask | self.lacks if self.lacks_free == 0 else mask
        self.lacks_free = 0

    def cards_held(self) -> int:
        return len(self.hand) + len(self.faceup) + sum(c is not None for c in self.blind)

    def source(self) -> int:
        """R13: hand while it holds cards, else face-up, else blind."""
        if self.hand:
            return ob.SRC_HAND
        if self.faceup:
            return ob.SRC_FACEUP
        return ob.SRC_BLIND


@dataclass
class RoundResult:
    places: list
    stalled: bool
    actions: int
    burns: int
    pickups: int


@dataclass
class MatchResult:
    places: list  # match position per seat (R19); the round place when rounds = 1
    totals: list  # summed round places per seat
    rounds: list  # RoundResult per round
    events: list  # trace events (dicts; keys starting with "_" are not part of the trace)

    @property
    def actions(self):
        return sum(r.actions for r in self.rounds)

    @property
    def burns(self):
        return sum(r.burns for r in self.rounds)

    @property
    def pickups(self):
        return sum(r.pickups for r in self.rounds)

    @property
    def stalled(self):
        return any(r.stalled for r in self.rounds)


class Round:
    """One round (R4-R18, R20) of a match."""

    def __init__(self, rules: Rules, deck, seats, rngs, round_no: int, dealer: int, scores, game, seed, emit,
                 obs_log=None):
        self.rules = rules
        self.obs_log = obs_log
        self.n = rules.players
        self.seats = seats
        self.rngs = rngs
        self.round_no = round_no
        self.dealer = dealer
        self.scores = scores
        self.game = game
        self.seed = seed
        self.emit = emit
        self.players = [Player(p) for p in range(self.n)]
        self.pile: list = []  # bottom first
        self.burned = np.zeros(NUM_RANKS, dtype=np.int64)
        self.next_place = 1
        self.actions = self.burns = self.pickups = 0
        self.starter = -1
        self.must_play = -1  # V12
        header = np.zeros(ob.OBS_SIZE, dtype=np.int64)
        ob.rules_to_header(rules, header)
        self.header = header.tolist()  # an observation with only the rules filled in
        self.legal_on = {top: legal_ranks(top, rules) for top in (None, *range(NUM_RANKS))}  # by the pile's top
        self.deal(list(int(c) for c in deck))

    # ---- setup -----------------------------------------------------------

    def deal(self, deck):
        """R5: blind, then face-up, then hand, three each by seat; the rest is the talon."""
        n = self.n
        for p, player in enumerate(self.players):
            player.blind = deck[3 * p: 3 * p + 3]
            player.faceup = deck[3 * n + 3 * p: 3 * n + 3 * p + 3]
            player.hand = deck[6 * n + 3 * p: 6 * n + 3 * p + 3]
        self.talon = deck[9 * n:]  # drawn from index 0 first

    def swap_phase(self):
        """R6: each player picks which 3 of their 6 cards lie face-up, seeing only their own cards."""
        for player in self.players:
            obs = self.swap_observation(player)
            choice = self.decide(player.seat, obs, counts(player.hand))
            ranks = [choice % NUM_RANKS, choice // NUM_RANKS % NUM_RANKS, choice // NUM_RANKS ** 2]
            pool = sorted(player.hand + player.faceup)
            if not 0 <= choice < NUM_RANKS ** 3 or np.any(
                    np.bincount(ranks, minlength=NUM_RANKS) > counts(pool)):
                self.illegal(player.seat, ILLEGAL_SWAP)
            faceup = [take_rank(pool, r, 1)[0] for r in ranks]
            player.faceup, player.hand = sorted(faceup), pool
            self.emit({"round": self.round_no, "seat": player.seat, "action": "swap",
                       "faceup": [str_rank(r) for r in sort_ranks_basic(map(card_rank, player.faceup))],
                       "hand": [str_rank(r) for r in sort_ranks_basic(map(card_rank, player.hand))],
                       "_faceup": sorted(player.faceup), "_hand": sorted(player.hand)})
        for player in self.players:  # the play facts: basic lays face-up its 3 cards of the highest keys
            lowest = min(BASIC_KEY[card_rank(c)] for c in player.faceup)
            player.learn_lacks(sum(1 << q for q in range(NUM_RANKS) if BASIC_KEY[q] > lowest))

    def choose_starter(self, left_of_dealer: int) -> int:
        """R7 (player left of the dealer), or R8/V3 (lowest ordinary rank in hand)."""
        if not self.rules.lowest_starts:
            return left_of_dealer
        best_seat, best_rank = left_of_dealer, None
        for i in range(self.n):
            seat = (left_of_dealer + i) % self.n
            ordinary = [card_rank(c) for c in self.players[seat].hand if is_ordinary(card_rank(c))]
            if ordinary and (best_rank is None or min(ordinary) < best_rank):
                best_seat, best_rank = seat, min(ordinary)
        return best_seat

    # ---- observation -----------------------------------------------------

    def base_observation(self, decision: int, seat: int) -> list:
        """The header of an observation, as a list: the caller fills it in and makes it an array once
        (`as_observation`), which costs less than filling an array slice by slice."""
        obs = self.header.copy()
        obs[ob.DECISION] = decision
        obs[ob.SEAT] = seat
        obs[ob.ROUND] = self.round_no
        obs[ob.PILE_TOP] = -1
        obs[ob.LEGAL] = ob.ALL_RANKS
        obs[ob.MUST_PLAY] = -1
        obs[ob.STARTER] = self.starter
        obs[ob.TALON_SIZE] = len(self.talon)
        obs[ob.ACTIONS] = self.actions
        obs[ob.SCORE: ob.SCORE + self.n] = self.scores
        return obs

    def swap_observation(self, player: Player) -> np.ndarray:
        obs = self.base_observation(ob.SWAP, player.seat)
        obs[ob.SOURCE] = ob.SRC_HAND
        row = ob.FACEUP + player.seat * NUM_RANKS
        obs[row: row + NUM_RANKS] = count_list(player.faceup)
        return as_observation(obs)

    def observation(self, decision: int, player: Player) -> np.ndarray:
        """Everything public at the table, for `player`'s decision (R6, R15: never a hidden card)."""
        obs = self.base_observation(decision, player.seat)
        source = player.source()
        obs[ob.SOURCE] = source
        if self.pile:
            obs[ob.PILE_TOP] = card_rank(self.pile[-1])
            obs[ob.PILE_RUN] = self.top_run()
        obs[ob.LEGAL] = self.legal_now()
        obs[ob.PILE_SIZE] = len(self.pile)
        obs[ob.MUST_PLAY] = self.must_play
        obs[ob.CAN_PICKUP] = int(bool(self.pile) and source != ob.SRC_BLIND)
        obs[ob.CAN_CHANCE] = int(self.chance_allowed(player))
        for p in self.players:
            s = p.seat
            obs[ob.FACEUP + s * NUM_RANKS: ob.FACEUP + (s + 1) * NUM_RANKS] = count_list(p.faceup)
            obs[ob.KNOWN + s * NUM_RANKS: ob.KNOWN + (s + 1) * NUM_RANKS] = p.known.tolist()
            blind_present = [int(c is not None) for c in p.blind]
            obs[ob.BLIND_PRESENT + 3 * s: ob.BLIND_PRESENT + 3 * s + 3] = blind_present
            obs[ob.HAND_SIZE + s] = len(p.hand)
            obs[ob.FACEUP_SIZE + s] = len(p.faceup)
            obs[ob.BLIND_SIZE + s] = sum(blind_present)
            obs[ob.PLACE + s] = p.place
            obs[ob.PICKUP_LEGAL + s] = p.pickup_legal
            obs[ob.PICKUP_FREE + s] = p.pickup_free
            obs[ob.LACKS + s] = p.lacks
            obs[ob.LACKS_FREE + s] = p.lacks_free
        obs[ob.PILE_COUNTS: ob.PILE_COUNTS + NUM_RANKS] = count_list(self.pile)
        obs[ob.BURNED: ob.BURNED + NUM_RANKS] = self.burned.tolist()
        return as_observation(obs)

    def chance_allowed(self, player: Player) -> bool:
        """V5: instead of picking up, in the hand phase while the talon lasts."""
        return self.rules.chance and player.source() == ob.SRC_HAND and bool(self.talon) and bool(self.pile)

    def decide(self, seat: int, obs: np.ndarray, hand_counts: np.ndarray) -> int:
        if self.obs_log is not None:
            self.obs_log.append(logged_checksum(obs, hand_counts))
        strategy = self.seats[seat]
        args = (obs, hand_counts, strategy.params, self.rngs[seat])
        try:
            move = strategy.decide.py_func(*args)
        except (UserError, LeaveGame):
            raise
        except Exception as e:  # the strategy's own code failed: its cause and line, not a traceback
            raise exception_fault(e, strategy.label, seat, self.game, self.seed) from e
        if not is_move_code(move):
            raise return_fault(move, strategy.decide.py_func, args, strategy.label, seat, self.game, self.seed)
        return int(move)

    def illegal(self, seat: int, reason: int):
        raise IllegalMoveError(illegal_message(self.seats[seat].label, seat, self.game, self.seed, reason))

    # ---- the pile --------------------------------------------------------

    def top_run(self) -> int:
        """How many cards of the top card's rank lie on top in a row."""
        top = card_rank(self.pile[-1])
        run = 0
        for card in reversed(self.pile):
            if card_rank(card) != top:
                break
            run += 1
        return run

    def burns_now(self, played_rank: int) -> bool:
        """R16.2 (a 10, or four or more of a rank on top, V7), V10 (three 6s)."""
        if played_rank == TEN:
            return True
        run = self.top_run()
        return run >= 4 or (self.rules.six_burn > 0 and card_rank(self.pile[-1]) == SIX and run >= self.rules.six_burn)

    # ---- playing ---------------------------------------------------------

    def run(self) -> RoundResult:
        seat = self.begin()
        while not self.over():
            seat = self.act(self.players[seat])
        return self.finish()

    def begin(self) -> int:
        """R6 (the swap), R7/R8 (the starter), V12; returns the seat that acts first."""
        left_of_dealer = (self.dealer + 1) % self.n
        self.swap_phase()
        self.starter = self.choose_starter(left_of_dealer)
        if self.rules.opening_lowest:  # V12
            ordinary = [card_rank(c) for c in self.players[self.starter].hand if is_ordinary(card_rank(c))]
            self.must_play = min(ordinary) if ordinary else -1
        return self.starter

    def over(self) -> bool:
        """R18: one player left; R20: the action limit, checked before each action."""
        return self.players_in() <= 1 or self.actions >= self.rules.action_limit

    def finish(self) -> RoundResult:
        """The places of an ended round (R18, R20) and its end event."""
        stalled = self.players_in() > 1
        places = self.final_places(stalled)
        self.emit({"round": self.round_no, "action": "end", "places": places, "stalled": stalled})
        return RoundResult(places, stalled, self.actions, self.burns, self.pickups)

    def players_in(self) -> int:
        return sum(p.place == 0 for p in self.players)

    def next_seat(self, seat: int) -> int:
        """R4: to the left, skipping players who are out."""
        for i in range(1, self.n + 1):
            s = (seat + i) % self.n
            if self.players[s].place == 0:
                return s
        return seat

    def act(self, player: Player) -> int:
        """One action (R13-R16) of `player`; returns the seat that acts next."""
        if player.source() == ob.SRC_BLIND:
            return self.blind_action(player)
        action = self.decide(player.seat, self.observation(ob.TURN, player), counts(player.hand))
        if action == PICKUP:
            if not self.pile:
                self.illegal(player.seat, ILLEGAL_EMPTY_PICKUP)
            self.pick_up(player, extra_card=None, source=None)
            return self.next_seat(player.seat)
        if action == CHANCE:
            if not self.chance_allowed(player):
                self.illegal(player.seat, ILLEGAL_CHANCE)
            return self.chance_action(player)
        if action < 0 or action & 15 >= NUM_RANKS:
            self.illegal(player.seat, ILLEGAL_CODE)
        return self.play_from_source(player, rank=action & 15, count=(action >> 4) & 15, extra=action >> 8)

    def play_from_source(self, player: Player, rank: int, count: int, extra: int) -> int:
        """R9, R11, R13; V11 (face-up cards added to the play that empties the hand); V12."""
        source = player.source()
        cards = player.hand if source == ob.SRC_HAND else player.faceup
        if count < 1:
            self.illegal(player.seat, ILLEGAL_ZERO_COUNT)
        if count_list(cards)[rank] < count:
            self.illegal(player.seat, ILLEGAL_NOT_HELD)
        if not may_follow(rank, self.top_rank(), self.rules):
            self.illegal(player.seat, ILLEGAL_NOT_LEGAL)
        if self.must_play >= 0 and rank != self.must_play:
            self.illegal(player.seat, ILLEGAL_OPENING)
        if extra:
            empties_hand = source == ob.SRC_HAND and count == len(player.hand) and not self.talon
            if (not self.rules.last_hand_with_faceup or not empties_hand
                    or count_list(player.faceup)[rank] < extra):
                self.illegal(player.seat, ILLEGAL_EXTRA)
        played = take_rank(cards, rank, count)
        if source == ob.SRC_HAND:
            unknown_played = max(0, count - int(player.known[rank]))
            if player.pickup_legal >> rank & 1:
                player.pickup_free = max(0, player.pickup_free - unknown_played)
            if player.lacks >> rank & 1:
                player.lacks_free = max(0, player.lacks_free - unknown_played)
            player.known[rank] = max(0, player.known[rank] - count)
            # basic plays every copy of its rank, and only when no rank it plays first was allowed
            allowed = self.legal_now() if self.must_play < 0 else 0
            first = sum(1 << q for q in range(NUM_RANKS) if allowed >> q & 1 and BASIC_KEY[q] < BASIC_KEY[rank])
            player.learn_lacks(first | 1 << rank)
        played += take_rank(player.faceup, rank, extra)
        return self.after_play(player, played, ob.SOURCE_NAMES[source])

    def blind_action(self, player: Player) -> int:
        """R15: flip one blind card; play it if legal, else take the pile and it."""
        pos = self.decide(player.seat, self.observation(ob.BLIND, player), counts(player.hand))
        if pos == PICKUP:
            self.illegal(player.seat, ILLEGAL_BLIND_PICKUP)
        if not 0 <= pos < 3 or player.blind[pos] is None:
            self.illegal(player.seat, ILLEGAL_BLIND_POSITION)
        card, player.blind[pos] = player.blind[pos], None
        if may_follow(card_rank(card), self.top_rank(), self.rules):
            return self.after_play(player, [card], "blind")
        self.pick_up(player, extra_card=card, source="blind")
        return self.next_seat(player.seat)

    def chance_action(self, player: Player) -> int:
        """V5: turn the talon's top card; play it if legal, else take the pile and it."""
        card = self.talon.pop(0)
        if may_follow(card_rank(card), self.top_rank(), self.rules):
            return self.after_play(player, [card], "talon")
        self.pick_up(player, extra_card=card, source="talon")
        return self.next_seat(player.seat)

    def top_rank(self):
        return card_rank(self.pile[-1]) if self.pile else None

    def legal_now(self) -> int:
        """`legal_ranks` on the pile as it lies."""
        return self.legal_on[self.top_rank()]

    def pick_up(self, player: Player, extra_card, source):
        """R14/R15/V5: the whole pile (and a failed flipped card) goes to the hand; the pile is empty."""
        taken = self.pile + ([extra_card] if extra_card is not None else [])
        if extra_card is None:  # R14: the pickup facts
            player.pickup_legal = self.legal_now()
            player.pickup_free = 0
            player.learn_lacks(player.pickup_legal)
        player.hand += taken
        player.known += counts(taken)  # everyone saw these cards go into the hand
        self.pile = []
        self.actions += 1
        self.pickups += 1
        self.must_play = -1
        event = {"round": self.round_no, "seat": player.seat, "action": "pickup"}
        if source is not None:
            event.update({"from": source, "rank": str_rank(card_rank(extra_card))})
        event.update({"cards": len(taken), "_cards": taken})
        self.emit(event)

    def after_play(self, player: Player, played: list, source_name: str) -> int:
        """R16: draw, burn, out, again; returns the seat that acts next."""
        rank = card_rank(played[0])
        self.actions += 1
        self.must_play = -1
        self.pile += played
        while len(player.hand) < HAND_TARGET and self.talon:  # R16.1
            player.hand.append(self.talon.pop(0))
            player.pickup_free += 1
            player.lacks_free += 1
        burned = self.burns_now(rank)  # R16.2
        if burned:
            self.burned += counts(self.pile)
            self.pile = []
            self.burns += 1
        self.emit({"round": self.round_no, "seat": player.seat, "action": "play", "from": source_name,
                   "rank": str_rank(rank), "count": len(played), "burn": burned, "_cards": played})
        if player.cards_held() == 0:  # R16.3
            player.place = self.next_place
            self.next_place += 1
            self.emit({"round": self.round_no, "seat": player.seat, "action": "out", "place": player.place})
            if self.players_in() == 1:
                return player.seat
            return self.next_seat(player.seat)  # R17: an unburned pile stays for the next player
        if burned and self.rules.burn_plays_again:  # R16.4 (V9 turns it off)
            return player.seat
        return self.next_seat(player.seat)

    def final_places(self, stalled: bool) -> list:
        """R18: the last player in is the Idiot; R20: a stalled round places the rest by cards held."""
        still_in = [p for p in self.players if p.place == 0]
        order = {(self.starter + i) % self.n: i for i in range(self.n)}
        still_in.sort(key=lambda p: (p.cards_held(), order[p.seat]))
        for p in still_in:
            p.place = self.next_place
            self.next_place += 1
        return [p.place for p in self.players]


def str_rank(rank: int) -> str:
    return RANK_NAMES[rank]


def illegal_message(label: str, seat: int, game: int, seed: int, reason: int) -> str:
    return (f"strategy {label!r} at seat {seat} made an illegal move in game {game} (seed {seed}): "
            f"{ILLEGAL_REASONS[reason]}")


def match_positions(totals: list) -> list:
    """R19: the lowest total wins; equal totals share the better position."""
    return [1 + sum(t < mine for t in totals) for mine in totals]


def play_match(decks, rules: Rules, seats, seed: int = 0, game: int = 0, observer=None,
               obs_log: list | None = None) -> MatchResult:
    """Play `rules.rounds` rounds (one deck each, R19/V4) and return results and the trace.

    `observer(event, round)`, if given, is called after every event with the
    live `Round`, so tests can check invariants after each action. `obs_log`, if
    given, receives a checksum of every observation handed to a strategy.
    """
    n = rules.players
    events: list = []

    def emit(event):
        events.append(event)
        if observer is not None:
            observer(event, rnd)

    rngs = [new_state(seed, game, SEAT_STREAM + s) for s in range(n)]
    totals = [0] * n
    rounds = []
    dealer = n - 1  # R7: in round 1 the dealer is seat n-1
    rnd = None
    for r, deck in enumerate(decks):
        rnd = Round(rules, deck, seats, rngs, r + 1, dealer, list(totals), game, seed, emit, obs_log)
        result = rnd.run()
        rounds.append(result)
        totals = [t + p for t, p in zip(totals, result.places)]
        dealer = next_dealer(rules, dealer, result.places)
    return MatchResult(match_positions(totals), totals, rounds, events)


def next_dealer(rules: Rules, dealer: int, places: list) -> int:
    """Who deals the next round: the Idiot of this one (V8), else the seat left of the dealer (R7)."""
    if rules.idiot_deals:
        return places.index(rules.players)
    return (dealer + 1) % rules.players
