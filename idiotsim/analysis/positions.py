"""Positions for ``idiotsim analyze``: what one seat knows at a decision (``Position``), read from
and written to a hand-entered TOML position file, checked for consistency field by field.

A card in a position file is a rank (``"10"``) or a rank with its suit (``"10H"``, ``"10♥"``); the
position keeps the cards as given (``SeenCards``) so that the display shows suits where known."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from idiotsim.game import observation as ob
from idiotsim.game.cards import RANK_NAMES, RANK_OF_NAME, SUIT_NAMES, SUIT_SYMBOLS, TEN
from idiotsim.errors import UserError
from idiotsim.game.observation import NR
from idiotsim.game.rules import Rules, coerce_field, read_toml

HAND_AFTER_REFILL = 3  # R13: every play is followed by a refill to 3 while the talon lasts
ROW = 3  # face-up and blind cards dealt per seat (R5)


SUIT_OF_TEXT = {**{name: i for i, name in enumerate(SUIT_NAMES)}, **{sym: i for i, sym in enumerate(SUIT_SYMBOLS)}}


class Card(NamedTuple):
    """A card as a person at the table knows it: its rank, and its suit (an index into SUIT_NAMES)
    when known."""
    rank: int
    suit: int | None = None

    @classmethod
    def of_code(cls, code: int) -> Card:
        return cls(code // 4, code % 4)

    @property
    def code(self) -> int | None:
        return None if self.suit is None else self.rank * 4 + self.suit

    def text(self, symbols: bool = False) -> str:
        """``10H`` (``10♥`` with symbols), or ``10`` when the suit is not known."""
        if self.suit is None:
            return RANK_NAMES[self.rank]
        return RANK_NAMES[self.rank] + (SUIT_SYMBOLS if symbols else SUIT_NAMES)[self.suit]

    def sort_key(self) -> tuple:
        return self.rank, -1 if self.suit is None else self.suit


@dataclass(frozen=True)
class SeenCards:
    """The cards the deciding seat sees, as Cards: its own hand, every seat's face-up and known
    cards (tuples per seat), the pile (bottom first when its order is known) and the burned cards.
    Hidden cards (other hands, blind rows, the talon) are not here: only their counts are seen."""
    hand: tuple
    faceup: tuple
    known: tuple
    pile: tuple
    burned: tuple


@dataclass
class Position:
    """What the deciding seat knows: rules, observation, own hand, the pile in order when known
    (bottom first, ranks), and the cards with their suits where known (``seen_cards``)."""
    rules: Rules
    obs: np.ndarray
    hand: np.ndarray
    pile: list | None = None
    origin: str = ""
    cards: SeenCards | None = None

    @property
    def seat(self) -> int:
        return int(self.obs[ob.SEAT])

    @property
    def decision(self) -> int:
        return int(self.obs[ob.DECISION])


def rank_cards(counts) -> tuple:
    """Cards of unknown suit from counts per rank, lowest rank id first."""
    return tuple(Card(r) for r in range(NR) for _ in range(int(counts[r])))


def seen_cards(position: Position) -> SeenCards:
    """The position's cards: with suits where they are known, else ranks from the observation."""
    if position.cards is not None:
        return position.cards
    obs = position.obs
    n = int(obs[ob.PLAYERS])

    def row(start: int, s: int) -> tuple:
        return rank_cards(obs[start + s * NR: start + (s + 1) * NR])

    pile = (tuple(Card(r) for r in position.pile) if position.pile is not None
            else rank_cards(obs[ob.PILE_COUNTS: ob.PILE_COUNTS + NR]))
    return SeenCards(rank_cards(position.hand), tuple(row(ob.FACEUP, s) for s in range(n)),
                     tuple(row(ob.KNOWN, s) for s in range(n)), pile, rank_cards(obs[ob.BURNED: ob.BURNED + NR]))


# ---- positions from a file -----------------------------------------------------------------

def _card(item, name: str) -> Card:
    """A rank (``"10"``) or a rank with its suit (``"10H"``, ``"10♥"``)."""
    text = str(item).strip().upper()
    if text in RANK_OF_NAME:
        return Card(RANK_OF_NAME[text])
    if text[:-1] in RANK_OF_NAME and text[-1:] in SUIT_OF_TEXT:
        return Card(RANK_OF_NAME[text[:-1]], SUIT_OF_TEXT[text[-1:]])
    raise UserError(f"position field {name}: unknown card {item!r} (a rank {', '.join(RANK_NAMES)}, "
                    f"with or without a suit C, D, H, S: \"10\" or \"10H\")")


def _cards(value, name: str) -> list[Card]:
    """A list of cards, each with or without its suit."""
    if not isinstance(value, list):
        raise UserError(f"position field {name}: a list of cards like [\"3\", \"10H\", \"K\"], got {value!r}")
    return [_card(item, name) for item in value]


def _ranks(cards: list[Card]) -> list[int]:
    return [c.rank for c in cards]


def _rank(value, name: str) -> int:
    """A rank alone (``pile.top``, ``position.must_play``)."""
    text = str(value).strip().upper()
    if text not in RANK_OF_NAME:
        raise UserError(f"position field {name}: unknown rank {value!r} (ranks: {', '.join(RANK_NAMES)})")
    return RANK_OF_NAME[text]


def _check_cards_once(fields: list[tuple[str, list[Card]]], decks: int) -> None:
    """Every card given with its suit lies in one place: at most `decks` copies over all fields."""
    first_field: dict = {}
    seen: Counter = Counter()
    for name, cards in fields:
        for card in cards:
            if card.suit is None:
                continue
            seen[card] += 1
            first_field.setdefault(card, name)
            if seen[card] > decks:
                copies = "twice" if seen[card] == 2 else f"{seen[card]} times"
                raise UserError(f"position field {name}: card {card.text()} is given {copies} (also in "
                                f"{first_field[card]}), the deck{'s hold' if decks > 1 else ' holds'} {decks}")


def _check_known_in_hand(known: list[Card], hand: list[Card], name: str) -> None:
    """The deciding seat's known cards are cards of its hand: a known card with a suit is that hand
    card, or a hand card given without its suit."""
    left = list(hand)
    for card in sorted(known, key=lambda c: c.suit is None):  # suited first: they need their own card
        match = next((c for c in left if c == card), None) or next(
            (c for c in left if c.rank == card.rank and (c.suit is None or card.suit is None)), None)
        if match is None:
            raise UserError(f"position field {name}: {card.text()} is known to be in the hand but position.hand "
                            "does not hold it")
        left.remove(match)


def _count(table: dict, key: str, name: str, default=None, low: int = 0, high: int = 10 ** 6) -> int:
    value = table.get(key, default)
    if value is None:
        raise UserError(f"position field {name} is missing")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise UserError(f"position field {name} must be an integer {low}..{high}, got {value!r}")
    return value


def _table(data: dict, key: str, name: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise UserError(f"position field {name} must be a table")
    return value


def _check_keys(table: dict, allowed: tuple, name: str) -> None:
    for key in table:
        if key not in allowed:
            raise UserError(f"position field {name}.{key} is unknown; fields of {name}: {', '.join(allowed)}")


def _rules_of(data: dict) -> Rules:
    values = {}
    for key, value in _table(data, "rules", "rules").items():
        values[key] = coerce_field(key, value)
    seats = data.get("seats")
    if not isinstance(seats, list) or not seats:
        raise UserError("position field seats is missing: one [[seats]] table per player, in seat order")
    if "players" in values and values["players"] != len(seats):
        raise UserError(f"position field rules.players = {values['players']} but {len(seats)} [[seats]] are given")
    values["players"] = len(seats)
    try:
        return Rules(**values)
    except TypeError as e:
        raise UserError(f"position field rules: {e}") from None


SEAT_FIELDS = ("faceup", "hand", "blind", "known", "place", "pickup_legal", "pickup_free", "lacks", "lacks_free")
# A seat's facts (docs/rules.md "Pickup facts", "Play facts"): the mask's field and offset, the count's.
FACTS = (("pickup_legal", ob.PICKUP_LEGAL, "pickup_free", ob.PICKUP_FREE),
         ("lacks", ob.LACKS, "lacks_free", ob.LACKS_FREE))
POSITION_FIELDS = ("seat", "hand", "decision", "round", "actions", "starter", "must_play")
PILE_FIELDS = ("cards", "top", "run", "burned", "talon")


def position_from_file(path: str) -> Position:
    """A hand-entered position (TOML, README "analyze"); an inconsistent one is a UserError naming
    the field."""
    try:
        return position_from_dict(read_toml(path, "position file"))
    except UserError as e:
        message = str(e)
        raise UserError(message if path in message else f"{path}: {message}") from None


def position_from_dict(data: dict) -> Position:
    for key in data:
        if key not in ("rules", "position", "pile", "seats"):
            raise UserError(f"position field {key} is unknown; tables: rules, position, pile, seats")
    rules = _rules_of(data)
    me = _table(data, "position", "position")
    _check_keys(me, POSITION_FIELDS, "position")
    n = rules.players
    seat = _count(me, "seat", "position.seat", high=n - 1)
    decision = str(me.get("decision", "turn")).lower()
    if decision not in ("turn", "swap"):
        raise UserError(f"position field position.decision must be \"turn\" or \"swap\", got {decision!r}")
    hand_cards = _cards(me.get("hand", []), "position.hand")
    hand = np.bincount(_ranks(hand_cards), minlength=NR).astype(np.int64)
    obs = np.zeros(ob.OBS_SIZE, np.int64)
    ob.rules_to_header(rules, obs)
    obs[ob.SEAT] = seat
    obs[ob.ROUND] = _count(me, "round", "position.round", 1, 1, rules.rounds)
    obs[ob.ACTIONS] = _count(me, "actions", "position.actions", 0, 0, rules.action_limit - 1)
    obs[ob.PILE_TOP] = obs[ob.MUST_PLAY] = -1
    obs[ob.LEGAL] = ob.ALL_RANKS
    seats = data["seats"]
    if decision == "swap":
        cards = _fill_swap(obs, hand_cards, seats, seat, rules)
        return Position(rules, obs, hand, None, origin="position file", cards=cards)
    pile, cards = _fill_turn(obs, hand_cards, rules, data, me, seats, seat)
    return Position(rules, obs, hand, pile, origin="position file", cards=cards)


def _fill_swap(obs, hand_cards, seats, seat, rules) -> SeenCards:
    """R6: the seat sees only its own 3 hand and 3 face-up cards; nobody has started yet."""
    obs[ob.DECISION] = ob.SWAP
    obs[ob.STARTER] = -1
    obs[ob.TALON_SIZE] = rules.num_cards - 3 * ROW * rules.players  # R5
    if len(hand_cards) != ROW:
        raise UserError(f"position field position.hand: the swap (R6) holds {ROW} hand cards, got {len(hand_cards)}")
    own = seats[seat] if isinstance(seats[seat], dict) else {}
    faceup = _cards(own.get("faceup", []), f"seats[{seat}].faceup")
    if len(faceup) != ROW:
        raise UserError(f"position field seats[{seat}].faceup: the swap (R6) shows {ROW} face-up cards, "
                        f"got {len(faceup)}")
    row = ob.FACEUP + seat * NR
    obs[row: row + NR] = np.bincount(_ranks(faceup), minlength=NR)
    _check_cards_once([("position.hand", hand_cards), (f"seats[{seat}].faceup", faceup)], rules.decks)
    hand = np.bincount(_ranks(hand_cards), minlength=NR)
    _check_deck_counts(obs, hand, None)
    rows = tuple(tuple(faceup) if s == seat else () for s in range(rules.players))
    return SeenCards(tuple(hand_cards), rows, tuple(() for _ in rows), (), ())


def _fill_turn(obs, hand_cards, rules, data, me, seats, seat) -> tuple[list | None, SeenCards]:
    """The observation of a turn from the file's tables; the pile's ranks in order (or None) and the
    cards as given."""
    n = rules.players
    hand = np.bincount(_ranks(hand_cards), minlength=NR).astype(np.int64)
    pile_table = _table(data, "pile", "pile")
    _check_keys(pile_table, PILE_FIELDS, "pile")
    faceups, knowns = [], []
    for s, entry in enumerate(seats):
        if not isinstance(entry, dict):
            raise UserError(f"position field seats[{s}] must be a table")
        _check_keys(entry, SEAT_FIELDS, f"seats[{s}]")
        faceup_cards = _cards(entry.get("faceup", []), f"seats[{s}].faceup")
        known_cards = _cards(entry.get("known", []), f"seats[{s}].known")
        faceups.append(tuple(faceup_cards))
        knowns.append(tuple(known_cards))
        faceup, known = _ranks(faceup_cards), _ranks(known_cards)
        blind_present = _blind_present(entry.get("blind"), f"seats[{s}].blind")
        blind = sum(blind_present)
        place = _count(entry, "place", f"seats[{s}].place", 0, 0, n)
        hand_size = int(hand.sum()) if s == seat and "hand" not in entry else _count(entry, "hand", f"seats[{s}].hand")
        if len(faceup) > ROW:
            raise UserError(f"position field seats[{s}].faceup: at most {ROW} face-up cards (R5), got {len(faceup)}")
        if len(known) > hand_size:
            raise UserError(f"position field seats[{s}].known: {len(known)} known cards in a hand of {hand_size}")
        if s == seat and hand_size != hand.sum():
            raise UserError(f"position field seats[{s}].hand: {hand_size} but position.hand lists {hand.sum()} cards")
        if s == seat and np.any(np.bincount(known, minlength=NR) > hand):
            raise UserError(f"position field seats[{s}].known: cards known to be in the hand are not in position.hand")
        if s == seat:
            _check_known_in_hand(known_cards, hand_cards, f"seats[{s}].known")
        holds = hand_size + len(faceup) + blind
        if place and holds:
            raise UserError(f"position field seats[{s}].place: a seat that is out (place {place}) holds no cards")
        if not place and not holds:
            raise UserError(f"position field seats[{s}]: a seat with no cards is out: give its place")
        if blind < ROW and faceup:
            raise UserError(f"position field seats[{s}].blind: blind cards are flipped only once the face-up "
                            "row is gone (R13)")
        obs[ob.FACEUP + s * NR: ob.FACEUP + (s + 1) * NR] = np.bincount(faceup, minlength=NR)
        obs[ob.KNOWN + s * NR: ob.KNOWN + (s + 1) * NR] = np.bincount(known, minlength=NR)
        obs[ob.BLIND_PRESENT + ROW * s: ob.BLIND_PRESENT + ROW * (s + 1)] = blind_present
        obs[ob.HAND_SIZE + s] = hand_size
        obs[ob.FACEUP_SIZE + s] = len(faceup)
        obs[ob.BLIND_SIZE + s] = blind
        obs[ob.PLACE + s] = place
        for mask_name, mask_at, free_name, free_at in FACTS:
            obs[mask_at + s], obs[free_at + s] = _fact(entry, s, rules.num_cards, mask_name, free_name)
    talon = _count(pile_table, "talon", "pile.talon", 0)
    obs[ob.TALON_SIZE] = talon
    _check_places(obs, n)
    _check_talon(obs, n, talon)
    pile, pile_cards, burned = _fill_pile(obs, rules, pile_table)
    _fill_turn_header(obs, hand, rules, me, seat)
    others_known = [(f"seats[{s}].known", list(knowns[s])) for s in range(n) if s != seat]  # own: hand cards
    _check_cards_once([("position.hand", hand_cards)] + [(f"seats[{s}].faceup", list(faceups[s])) for s in range(n)]
                      + others_known + [("pile.cards", pile_cards), ("pile.burned", burned)], rules.decks)
    _check_deck_counts(obs, hand, rules)
    return pile, SeenCards(tuple(hand_cards), tuple(faceups), tuple(knowns), tuple(pile_cards), tuple(burned))


def _blind_present(value, name: str) -> list[int]:
    """A seat's blind row: a count k (the cards still lying are the last k positions, as a player
    flipping from the left leaves them), or 3 flags, 1 where a card lies."""
    if isinstance(value, list):
        if len(value) != ROW or any(v not in (0, 1) or isinstance(v, bool) for v in value):
            raise UserError(f"position field {name}: a count 0..{ROW} or {ROW} flags like [0, 1, 1], got {value!r}")
        return [int(v) for v in value]
    count = _count({"blind": value}, "blind", name, high=ROW)
    return [0] * (ROW - count) + [1] * count


def _check_places(obs, n) -> None:
    places = sorted(int(p) for p in obs[ob.PLACE: ob.PLACE + n] if p)
    if places != list(range(1, len(places) + 1)):
        raise UserError(f"position field seats[].place: the places of the seats that are out must be 1..k, "
                        f"one each, got {places}")
    if len(places) >= n - 1:
        raise UserError("position field seats[].place: the round is over (at most one seat still holds cards)")


def _check_talon(obs, n, talon) -> None:
    if talon == 0:
        return
    for s in range(n):
        if obs[ob.PLACE + s] == 0 and obs[ob.HAND_SIZE + s] < HAND_AFTER_REFILL:
            raise UserError(f"position field seats[{s}].hand: {obs[ob.HAND_SIZE + s]} cards while the talon "
                            f"holds {talon} (R13: hands are refilled to {HAND_AFTER_REFILL} while it lasts)")
        if obs[ob.FACEUP_SIZE + s] < ROW or obs[ob.BLIND_SIZE + s] < ROW:
            raise UserError(f"position field seats[{s}]: face-up or blind cards played while the talon holds "
                            f"{talon} (R13)")


def _fill_pile(obs, rules, pile_table) -> tuple[list | None, list[Card], list[Card]]:
    """The pile: `cards` (bottom first) fixes the top and the run; or counts with `top` and `run`.
    Returns the pile's ranks in order (None when given as counts), its cards and the burned cards."""
    burned_cards = _cards(pile_table.get("burned", []), "pile.burned")
    obs[ob.BURNED: ob.BURNED + NR] = np.bincount(_ranks(burned_cards), minlength=NR)
    pile_cards = _cards(pile_table.get("cards", []), "pile.cards")
    cards = _ranks(pile_cards)
    ordered = "top" not in pile_table and "run" not in pile_table
    if cards and ordered:
        top = cards[-1]
        run = len(cards) - next((i for i in range(len(cards) - 1, -1, -1) if cards[i] != top), -1) - 1
    elif cards:
        top = _rank(pile_table.get("top"), "pile.top") if "top" in pile_table else None
        if top is None:
            raise UserError("position field pile.top is missing (with pile.run, pile.cards is read as counts)")
        run = _count(pile_table, "run", "pile.run", 1, 1, len(cards))
        if cards.count(top) < run:
            raise UserError(f"position field pile.top: the pile holds {cards.count(top)} {RANK_NAMES[top]}, "
                            f"fewer than run = {run}")
    else:
        if "top" in pile_table or "run" in pile_table:
            raise UserError("position field pile.top: an empty pile (no pile.cards) has no top")
        return [], [], burned_cards
    if top == TEN:
        raise UserError("position field pile.top: a 10 burns the pile (R12), it is never the top card")
    if run >= 4 or (rules.six_burn and top == RANK_OF_NAME["6"] and run >= rules.six_burn):
        raise UserError(f"position field pile.run: {run} cards of {RANK_NAMES[top]} on top would have burned (R16.2)")
    obs[ob.PILE_TOP] = top
    obs[ob.PILE_RUN] = run
    obs[ob.PILE_SIZE] = len(cards)
    obs[ob.PILE_COUNTS: ob.PILE_COUNTS + NR] = np.bincount(cards, minlength=NR)
    from idiotsim.game.reference import legal_ranks
    obs[ob.LEGAL] = legal_ranks(top, rules)
    return (cards if ordered else None), pile_cards, burned_cards


def _fill_turn_header(obs, hand, rules, me, seat) -> None:
    n = rules.players
    if obs[ob.PLACE + seat]:
        raise UserError(f"position field position.seat: seat {seat} is out already")
    if obs[ob.HAND_SIZE + seat]:
        source = ob.SRC_HAND
    elif obs[ob.FACEUP_SIZE + seat]:
        source = ob.SRC_FACEUP
    else:
        raise UserError(f"position field position.seat: seat {seat} plays from the blind row, a flip with no "
                        "choice to judge (R15)")
    obs[ob.DECISION] = ob.TURN
    obs[ob.SOURCE] = source
    obs[ob.STARTER] = _count(me, "starter", "position.starter", seat, 0, n - 1)
    pile_size = obs[ob.PILE_SIZE]
    obs[ob.CAN_PICKUP] = int(pile_size > 0)
    obs[ob.CAN_CHANCE] = int(rules.chance and source == ob.SRC_HAND and obs[ob.TALON_SIZE] > 0 and pile_size > 0)
    if "must_play" in me:
        obs[ob.MUST_PLAY] = _rank(me["must_play"], "position.must_play")
        if not rules.opening_lowest or pile_size or obs[ob.BURNED: ob.BURNED + NR].any():
            raise UserError("position field position.must_play: only the opening play under V12 has a rank to play")
    if not _has_legal_play(obs, hand) and not obs[ob.CAN_PICKUP]:
        raise UserError("position field position.hand: the seat can neither play nor pick up")


def _has_legal_play(obs, hand) -> bool:
    held = hand if obs[ob.SOURCE] == ob.SRC_HAND else obs[ob.FACEUP + obs[ob.SEAT] * NR: ob.FACEUP + (obs[ob.SEAT] + 1) * NR]
    return any(held[r] and obs[ob.LEGAL] >> r & 1 for r in range(NR))


def _check_deck_counts(obs, hand, rules: Rules | None) -> None:
    """Per rank, the cards in sight fit the deck; at a turn, every card of the deck is somewhere."""
    decks = int(obs[ob.DECKS])
    n = int(obs[ob.PLAYERS])
    seen = hand + obs[ob.PILE_COUNTS: ob.PILE_COUNTS + NR] + obs[ob.BURNED: ob.BURNED + NR]
    for s in range(n):
        seen = seen + obs[ob.FACEUP + s * NR: ob.FACEUP + (s + 1) * NR]
        if s != obs[ob.SEAT]:
            seen = seen + obs[ob.KNOWN + s * NR: ob.KNOWN + (s + 1) * NR]
    over = np.flatnonzero(seen > 4 * decks)
    if over.size:
        r = int(over[0])
        raise UserError(f"position field seats/pile: {seen[r]} cards of rank {RANK_NAMES[r]} in sight, "
                        f"the deck holds {4 * decks}")
    if rules is None:
        return
    total = int(obs[ob.HAND_SIZE: ob.HAND_SIZE + n].sum() + obs[ob.FACEUP_SIZE: ob.FACEUP_SIZE + n].sum()
                + obs[ob.BLIND_SIZE: ob.BLIND_SIZE + n].sum() + obs[ob.PILE_SIZE] + obs[ob.BURNED: ob.BURNED + NR].sum()
                + obs[ob.TALON_SIZE])
    if total != rules.num_cards:
        raise UserError(f"position field pile.talon: hands, face-up, blind, pile, burned and talon hold {total} "
                        f"cards, the deck {rules.num_cards}")


def position_to_dict(position: Position, suits: bool = False) -> dict:
    """The position as a position file's tables (``position_from_dict`` reads it back); cards as
    ranks (``"10"``), or with `suits` as ``"10H"`` where the suit is known."""
    obs, rules = position.obs, position.rules
    n = rules.players
    seat = position.seat
    seen = seen_cards(position)

    def names(cards, in_order: bool = False) -> list[str]:
        shown = cards if in_order else sorted(cards, key=Card.sort_key)
        return [c.text() if suits else RANK_NAMES[c.rank] for c in shown]

    defaults = Rules(players=n)
    data = {"rules": {k: v for k, v in rules.as_dict().items() if v != getattr(defaults, k) and v is not None}}
    me = {"seat": seat, "hand": names(seen.hand)}
    if position.decision == ob.SWAP:
        me["decision"] = "swap"
        data["position"] = me
        data["seats"] = [{"faceup": names(seen.faceup[s])} for s in range(n)]
        return data
    me.update(round=int(obs[ob.ROUND]), actions=int(obs[ob.ACTIONS]), starter=int(obs[ob.STARTER]))
    if obs[ob.MUST_PLAY] >= 0:
        me["must_play"] = RANK_NAMES[obs[ob.MUST_PLAY]]
    data["position"] = me
    pile = {"burned": names(seen.burned), "talon": int(obs[ob.TALON_SIZE])}
    pile["cards"] = names(seen.pile, in_order=position.pile is not None)
    if position.pile is None and obs[ob.PILE_SIZE]:
        pile.update(top=RANK_NAMES[obs[ob.PILE_TOP]], run=int(obs[ob.PILE_RUN]))
    data["pile"] = pile
    data["seats"] = [{"faceup": names(seen.faceup[s]), "hand": int(obs[ob.HAND_SIZE + s]),
                      "blind": _blind_entry(obs, s), "known": names(seen.known[s]),
                      "place": int(obs[ob.PLACE + s]), **_fact_entries(obs, s)} for s in range(n)]
    return data


def _fact(entry: dict, s: int, cards: int, mask_name: str, free_name: str) -> tuple[int, int]:
    """A seat's fact (docs/rules.md "Pickup facts", "Play facts"): its ranks (`pickup_legal`: those
    legal when it last picked up, R14; `lacks`: those its unknown hand cards held none of at its last
    fact; absent before the first) and the count kept beside them (cards drawn since, less those
    played of such ranks; 0 when absent)."""
    mask = 0
    if mask_name in entry:
        ranks = entry[mask_name]
        if not isinstance(ranks, list) or not ranks:
            raise UserError(f"position field seats[{s}].{mask_name}: a non-empty list of ranks")
        for value in ranks:
            mask |= 1 << _rank(value, f"seats[{s}].{mask_name}")
    return mask, _count(entry, free_name, f"seats[{s}].{free_name}", 0, 0, cards)


def _fact_entries(obs, s: int) -> dict:
    """The facts' fields of a seat for a position file, each only when it is not 0."""
    entry = {}
    for mask_name, mask_at, free_name, free_at in FACTS:
        mask, free = int(obs[mask_at + s]), int(obs[free_at + s])
        if mask:
            entry[mask_name] = [RANK_NAMES[r] for r in range(NR) if mask >> r & 1]
        if free:
            entry[free_name] = free
    return entry


def _blind_entry(obs, seat: int):
    """A seat's blind row for a position file: the count when it reads back the same, else the flags."""
    present = [int(x) for x in obs[ob.BLIND_PRESENT + ROW * seat: ob.BLIND_PRESENT + ROW * (seat + 1)]]
    count = sum(present)
    return count if present == [0] * (ROW - count) + [1] * count else present


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value + '"'
    return str(value)


def position_toml(position: Position) -> str:
    """The position as a position file (TOML, suits where known): ``analyze --save-position`` writes it."""
    data = position_to_dict(position, suits=True)
    lines = []
    for table in ("rules", "position", "pile"):
        if table in data:
            lines.append(f"[{table}]")
            lines += [f"{key} = {_toml_value(value)}" for key, value in data[table].items()]
            lines.append("")
    for s, entry in enumerate(data["seats"]):
        lines.append(f"[[seats]]  # seat {s}")
        lines += [f"{key} = {_toml_value(value)}" for key, value in entry.items()]
        lines.append("")
    return "\n".join(lines)
