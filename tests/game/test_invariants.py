"""Random-play invariants of the reference engine (pgx / OpenSpiel style).

Thousands of seeded games, with `random` and `basic` seats mixed, for every
variant alone (V1..V12), all of them combined, and a small action limit that
forces stalls (R20), for 2..5 players with one deck and 2..10 with two. The
`observer(event, round)` hook of `play_match` checks after every event, from
docs/rules.md and independently of the engine's own helpers:

- cards are conserved: hands + face-up + blind + pile + talon + burned == 52 * decks;
- the pile never shows a 10 on top, nor a run of four or more of a rank (R16.2,
  V7), nor three 6s with six_burn = 3 (V10);
- while the talon lasts every hand holds at least 3 cards (R13, R16.1);
- swap lines come first, seat 0 to n-1, and the round's first action is by the
  R7 / R8 (V3) / V8 starter; every later action is by the seat R16.4 / R4 / V9 name;
- every play comes from the R13 source (or the talon under V5), is legal on the
  pile it lands on (R10, R11, V1, V2, V6, V12), and burns exactly when R16.2 / V10
  say; every pickup takes the whole pile (plus the failed blind / chance card,
  which must have been illegal), never from an empty pile or in the blind phase;
- an out line follows exactly the play that emptied a player, with the next place;
- each round ends with an end line whose places are a permutation of 1..n; a
  round stalls only at the action limit, and then players out keep their
  places while the rest are placed by fewest cards, then turn order from the
  starter (R20); otherwise the one player left is the Idiot with place n (R18);
- match totals are the summed places and positions follow R19.
"""
from __future__ import annotations

import pytest

from idiotsim.game.cards import RANK_OF_NAME
from idiotsim.game.reference import play_match
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import load_strategy

TWO, SIX, TEN, JACK = RANK_OF_NAME["2"], RANK_OF_NAME["6"], RANK_OF_NAME["10"], RANK_OF_NAME["J"]
SEED = 20240611


def ordinary(rank: int) -> bool:
    return rank != TWO and rank != TEN


def legal(rank: int, top, rules: Rules) -> bool:
    """R10, R11, V1/V2, V6, straight from docs/rules.md (`top` None = empty pile)."""
    if top is None or rank == TWO:
        return True
    if rank == TEN:
        return not (rules.ten_only_on_lower and ordinary(top) and top >= JACK)
    if top == TWO:
        return True
    if rules.low_rank is not None and top == RANK_OF_NAME[str(rules.low_rank)]:
        return rank <= top
    return rank >= top


class Snapshot:
    """The facts about a round the checks need, taken after an event."""
    __slots__ = ("hand", "faceup", "blind", "places", "top", "run", "pile", "talon", "actions")

    def __init__(self, rnd):
        players = rnd.players
        self.hand = [len(p.hand) for p in players]
        self.faceup = [len(p.faceup) for p in players]
        self.blind = [sum(c is not None for c in p.blind) for p in players]
        self.places = [p.place for p in players]
        pile = rnd.pile
        self.pile = len(pile)
        self.talon = len(rnd.talon)
        self.actions = rnd.actions
        if pile:
            top = pile[-1] >> 2
            run = 0
            for card in reversed(pile):
                if card >> 2 != top:
                    break
                run += 1
            self.top, self.run = top, run
        else:
            self.top, self.run = None, 0

    def held(self, seat: int) -> int:
        return self.hand[seat] + self.faceup[seat] + self.blind[seat]

    def source(self, seat: int) -> str:
        return "hand" if self.hand[seat] else "faceup" if self.faceup[seat] else "blind"


class Checker:
    """The observer: checks every event of a match against docs/rules.md."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.n = rules.players
        self.dealer = self.n - 1  # R7
        self.round_no = 0
        self.rnd = None
        self.events = 0
        self.stalls = 0
        self.round_places = []

    def fail(self, msg, event):
        raise AssertionError(f"round {self.round_no} event {event}: {msg}")

    def next_in(self, seat: int, places) -> int:
        for i in range(1, self.n + 1):
            s = (seat + i) % self.n
            if places[s] == 0:
                return s
        return seat

    def start_round(self, rnd):
        self.rnd = rnd
        self.round_no += 1
        self.prev = None
        self.swaps = 0
        self.expected = None  # seat expected to act next
        self.pending_out = None  # seat whose play emptied it: an out line must follow
        self.outs = {}  # seat -> place from out lines
        self.first_action = True
        self.must_play = -1

    def __call__(self, event, rnd):
        self.events += 1
        if rnd is not self.rnd:
            self.start_round(rnd)
        if event["round"] != self.round_no:
            self.fail("wrong round number", event)
        before = self.prev
        after = Snapshot(rnd)
        self.check_state(rnd, after, event)
        action = event["action"]
        if action != "out" and self.pending_out is not None:
            self.fail(f"no out line after seat {self.pending_out} emptied", event)
        if action == "swap":
            self.on_swap(event, rnd, after)
        elif action in ("play", "pickup"):
            if self.swaps != self.n:
                self.fail("action before all swaps", event)
            if event["seat"] != self.expected:
                self.fail(f"seat {event['seat']} acts, expected seat {self.expected}", event)
            if self.first_action:
                if rnd.starter != event["seat"]:
                    self.fail(f"engine starter {rnd.starter} is not the first actor", event)
            if after.actions != before.actions + 1:
                self.fail("an action must count one action (R20)", event)
            if action == "play":
                self.on_play(event, before, after)
            else:
                self.on_pickup(event, before, after)
            self.first_action = False
            self.must_play = -1
        elif action == "out":
            self.on_out(event, before, after)
        elif action == "end":
            self.on_end(event, before, after, rnd)
        else:
            self.fail("unknown action", event)
        self.prev = after

    # ---- after every event -------------------------------------------------

    def check_state(self, rnd, s: Snapshot, event):
        rules = self.rules
        total = sum(s.hand) + sum(s.faceup) + sum(s.blind) + s.pile + s.talon + int(rnd.burned.sum())
        if total != rules.num_cards:
            self.fail(f"{total} cards, expected {rules.num_cards}", event)
        if s.top is not None:
            if s.top == TEN:
                self.fail("a 10 on top of the pile (R12)", event)
            if s.run >= 4:
                self.fail(f"{s.run} of a rank on top of the pile (R16.2)", event)
            if rules.six_burn and s.top == SIX and s.run >= rules.six_burn:
                self.fail("three 6s on top of the pile (V10)", event)
        if s.talon and min(s.hand) < 3:
            self.fail("a hand under 3 cards while the talon lasts (R13, R16.1)", event)
        if s.actions > rules.action_limit:
            self.fail("more actions than the limit (R20)", event)
        for seat in range(self.n):  # (the end line places players still holding cards)
            if s.places[seat] and s.held(seat) and event["action"] != "end":
                self.fail(f"seat {seat} is out but holds cards", event)

    # ---- events ------------------------------------------------------------

    def on_swap(self, event, rnd, s: Snapshot):
        seat = event["seat"]
        if seat != self.swaps:
            self.fail("swap lines must come first, seat 0 to n-1", event)
        if (s.hand[seat], s.faceup[seat], s.blind[seat]) != (3, 3, 3) or len(event["faceup"]) != 3:
            self.fail("a swap keeps 3 hand, 3 face-up, 3 blind cards (R5, R6)", event)
        self.swaps += 1
        if self.swaps == self.n:  # R7, V8, R8 (V3), V12: who starts, and with what
            left = (self.dealer + 1) % self.n
            starter = left
            lowest = None
            if self.rules.lowest_starts:
                for i in range(self.n):
                    seat_i = (left + i) % self.n
                    ranks = [c >> 2 for c in rnd.players[seat_i].hand if ordinary(c >> 2)]
                    if ranks and (lowest is None or min(ranks) < lowest):
                        starter, lowest = seat_i, min(ranks)
            self.expected = starter
            if self.rules.opening_lowest and lowest is not None:
                self.must_play = lowest

    def on_play(self, event, b: Snapshot, a: Snapshot):
        rules, seat = self.rules, event["seat"]
        rank = RANK_OF_NAME[event["rank"]]
        count = event["count"]
        source = event["from"]
        if b.places[seat]:
            self.fail("a player who is out acts (R16.3)", event)
        if source == "talon":  # V5
            if not (rules.chance and b.source(seat) == "hand" and b.talon and b.pile):
                self.fail("chance card not allowed here (V5)", event)
            if count != 1:
                self.fail("a chance play is one card", event)
        elif source != b.source(seat):
            self.fail(f"play from {source}, R13 source is {b.source(seat)}", event)
        if source == "blind" and count != 1:
            self.fail("one blind card per action (R15)", event)
        if count < 1:
            self.fail("a play has at least one card (R9)", event)
        if source == "hand":
            extra = b.faceup[seat] if rules.last_hand_with_faceup and b.talon == 0 else 0  # V11
            if count > b.hand[seat] + extra:
                self.fail("more cards played than held", event)
            if count > b.hand[seat] and a.hand[seat] != 0:
                self.fail("face-up cards added to a play that did not empty the hand (V11)", event)
        if source == "faceup" and count > b.faceup[seat]:
            self.fail("more face-up cards played than held", event)
        if not legal(rank, b.top, rules):
            self.fail(f"{event['rank']} is not legal on top rank {b.top}", event)
        if self.must_play >= 0 and rank != self.must_play:
            self.fail("the opening play must be of the starter's lowest rank (V12)", event)
        run = count + (b.run if b.top == rank else 0)
        burn = rank == TEN or run >= 4 or (rules.six_burn > 0 and rank == SIX and run >= rules.six_burn)
        if event["burn"] != burn:
            self.fail(f"burn flag {event['burn']}, R16.2 says {burn}", event)
        if burn and a.pile:
            self.fail("a burned pile must be empty", event)
        if not burn and (a.top != rank or a.pile != b.pile + count):
            self.fail("the played cards must lie on top of the pile", event)
        if a.hand[seat] < 3 and a.talon:
            self.fail("no draw up to 3 after the play (R16.1)", event)
        if a.held(seat) == 0:
            self.pending_out = seat
            self.expected = None
        elif burn and rules.burn_plays_again:  # R16.4
            self.expected = seat
        else:  # R4, V9
            self.expected = self.next_in(seat, a.places)

    def on_pickup(self, event, b: Snapshot, a: Snapshot):
        rules, seat = self.rules, event["seat"]
        source = event.get("from")
        if source is None:
            if b.pile == 0:
                self.fail("pickup of an empty pile (R14)", event)
            if b.source(seat) == "blind":
                self.fail("voluntary pickup in the blind phase (R15)", event)
            if event["cards"] != b.pile:
                self.fail("a pickup takes the whole pile", event)
        else:
            rank = RANK_OF_NAME[event["rank"]]
            if source == "blind":
                if b.source(seat) != "blind":
                    self.fail("blind flip outside the blind phase", event)
            elif source == "talon":
                if not (rules.chance and b.source(seat) == "hand" and b.talon and b.pile):
                    self.fail("chance card not allowed here (V5)", event)
            else:
                self.fail("unknown pickup source", event)
            if legal(rank, b.top, rules):
                self.fail(f"a legal {source} card ({event['rank']}) was taken, not played", event)
            if event["cards"] != b.pile + 1:
                self.fail("the pile and the flipped card go to the hand", event)
        if a.pile:
            self.fail("the pile must be empty after a pickup", event)
        if a.hand[seat] != b.hand[seat] + event["cards"]:
            self.fail("picked-up cards must go to the hand", event)
        self.expected = self.next_in(seat, a.places)

    def on_out(self, event, b: Snapshot, a: Snapshot):
        seat = event["seat"]
        if seat != self.pending_out:
            self.fail("an out line must follow the play that emptied that player", event)
        if event["place"] != len(self.outs) + 1 or a.places[seat] != event["place"]:
            self.fail("out players get the next finishing place (R16.3)", event)
        self.outs[seat] = event["place"]
        self.pending_out = None
        if a.places.count(0) > 1:
            self.expected = self.next_in(seat, a.places)
        else:
            self.expected = None

    def on_end(self, event, b: Snapshot, a: Snapshot, rnd):
        n, rules = self.n, self.rules
        places = event["places"]
        if sorted(places) != list(range(1, n + 1)):
            self.fail("places must be a permutation of 1..n", event)
        if places != a.places:
            self.fail("end line and engine places differ", event)
        for seat, place in self.outs.items():
            if places[seat] != place:
                self.fail("players out keep their places", event)
        still_in = [s for s in range(n) if s not in self.outs]
        if event["stalled"]:  # R20
            self.stalls += 1
            if a.actions != rules.action_limit or len(still_in) < 2:
                self.fail("a round may stall only at the action limit", event)
            starter = rnd.starter
            order = sorted(still_in, key=lambda s: (a.held(s), (s - starter) % n))
            expected = [len(self.outs) + 1 + i for i in range(len(order))]
            if [places[s] for s in order] != expected:
                self.fail(f"stalled placing {[places[s] for s in order]} for seats {order} (R20)", event)
        else:  # R18
            if len(still_in) != 1 or places[still_in[0]] != n or a.held(still_in[0]) == 0:
                self.fail("a finished round has one Idiot with place n (R18)", event)
        self.round_places.append(places)
        # R7 / V8: who deals the next round.
        self.dealer = places.index(n) if rules.idiot_deals else (self.dealer + 1) % n


def seat_specs(players: int, game: int) -> list:
    """The seats of a game, in a cycle of 12 games: one all `random`, one half
    `random`, one all `basic`, and nine with one `random` seat among `basic` ones
    (games between `random` players are long: they pick up and play at random)."""
    k = game % 12
    if k == 0:
        return ["random"] * players
    if k == 6:
        return ["random" if s % 2 == 0 else "basic" for s in range(players)]
    if k == 11:
        return ["basic"] * players
    return ["random" if s == game % players else "basic" for s in range(players)]


_STRATEGIES = {}


def strategy(spec):
    if spec not in _STRATEGIES:
        _STRATEGIES[spec] = load_strategy(spec)
    return _STRATEGIES[spec]


ALL_VARIANTS = dict(low_rank=7, lowest_starts=True, rounds=2, chance=True, ten_only_on_lower=True, decks=2,
                    idiot_deals=True, burn_plays_again=False, six_burn=3, last_hand_with_faceup=True,
                    opening_lowest=True)

# (case id, rules fields, player counts, games per player count)
CASES = [
    ("default", {}, (2, 3, 4, 5), 84),
    ("V1", dict(low_rank=7), (2, 3, 4, 5), 48),
    ("V2", dict(low_rank=9), (2, 3, 4, 5), 48),
    ("V3", dict(lowest_starts=True), (2, 3, 4, 5), 48),
    ("V4", dict(rounds=3), (2, 4), 36),
    ("V5", dict(chance=True), (2, 3, 4, 5), 48),
    ("V6", dict(ten_only_on_lower=True), (2, 3, 4, 5), 48),
    ("V7", dict(decks=2), (2, 3, 4, 5, 6, 7, 8, 9, 10), 24),
    ("V8", dict(idiot_deals=True, rounds=3), (3, 5), 36),
    ("V9", dict(burn_plays_again=False), (2, 3, 4, 5), 48),
    ("V10", dict(six_burn=3), (2, 3, 4, 5), 48),
    ("V11", dict(last_hand_with_faceup=True), (2, 3, 4, 5), 48),
    ("V12", dict(lowest_starts=True, opening_lowest=True), (2, 3, 4, 5), 48),
    ("V8+V3", dict(idiot_deals=True, lowest_starts=True, rounds=3), (4,), 36),
    ("combined", ALL_VARIANTS, (2, 4, 6, 8, 10), 24),
    ("combined-1deck", dict(ALL_VARIANTS, decks=1, low_rank=9), (2, 3, 4, 5), 24),
    ("stall", dict(action_limit=40), (2, 3, 4, 5), 48),
    ("stall-2decks", dict(action_limit=25, decks=2, rounds=2), (3, 7, 10), 18),
]

PARAMS = [pytest.param(case, fields, n, games, id=f"{case}-{n}p")
          for case, fields, counts, games in CASES for n in counts]


@pytest.mark.parametrize("case, fields, players, games", PARAMS)
def test_random_play_invariants(case, fields, players, games):
    """R1..R20, V1..V12: the invariants of the module docstring hold after every event."""
    rules = Rules(players=players, **fields)
    stalls = rounds_played = 0
    for game in range(games):
        checker = Checker(rules)
        seats = [strategy(s) for s in seat_specs(players, game)]
        decks = [shuffled_deck(SEED, game, r, rules.decks) for r in range(rules.rounds)]
        result = play_match(decks, rules, seats, SEED, game, observer=checker)
        assert checker.round_no == rules.rounds == len(result.rounds)
        assert checker.round_places == [r.places for r in result.rounds]
        totals = [sum(p[s] for p in checker.round_places) for s in range(players)]
        assert result.totals == totals
        assert result.places == [1 + sum(t < mine for t in totals) for mine in totals]  # R19
        assert result.stalled == (checker.stalls > 0)
        stalls += checker.stalls
        rounds_played += rules.rounds
    if rules.action_limit < 100:
        assert stalls > 0, f"the small action limit should force stalls ({rounds_played} rounds, none stalled)"
