"""How ``idiotsim trace`` prints a match: JSON Lines (docs/trace.md), or with
``--pretty`` as a person reads it, one line per event."""
from __future__ import annotations

import json
import sys
from typing import Iterable

from idiotsim.game.cards import BASIC_KEY, RANK_NAMES, RANK_OF_NAME, card_name, card_pretty, card_rank
from idiotsim.game.rules import Rules


def public_event(event: dict) -> dict:
    """A trace event without its private (``_``) keys: exactly the docs/trace.md format."""
    return {k: v for k, v in event.items() if not k.startswith("_")}


def trace_lines(events: Iterable[dict]) -> list[str]:
    return [json.dumps(public_event(e)) for e in events]


PLACE_WORDS = {1: "1st", 2: "2nd", 3: "3rd"}
SOURCE_WORDS = {"hand": "hand", "faceup": "face-up", "blind": "blind", "talon": "talon"}
PILE_SHOWN = 10  # the top cards of the pile shown after a play
PILE_COLUMN = 42


def _place(p: int) -> str:
    return PLACE_WORDS.get(p, f"{p}th")


def suit_symbols_ok() -> bool:
    """Suit symbols if stdout can encode them, else letter suits (``10H``)."""
    try:
        "\u2660\u2663\u2665\u2666\u2026".encode(sys.stdout.encoding or "ascii")
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def _cards_key(card: int):
    return (BASIC_KEY[card_rank(card)], card)


def _header(rules: Rules, seats, seed: int, game: int) -> list[str]:
    n = rules.players
    defaults = Rules(players=n)
    changed = [f"{name}={str(value).lower() if isinstance(value, bool) else value}"
               for name, value in rules.as_dict().items() if name != "players" and value != getattr(defaults, name)]
    title = (f"== game {game}, seed {seed}: {n} players, {rules.decks} deck{'s' if rules.decks > 1 else ''}"
             + (f", {rules.rounds} rounds" if rules.rounds > 1 else "")
             + (f"; rules: {', '.join(changed)}" if changed else "") + " ==")
    return [title, "seats: " + ", ".join(f"{p} {s.label}" for p, s in enumerate(seats))]


class _PrettyRound:
    """The lines of one round's events, following the pile as the events change it. With `suits` the
    cards are the reference engine's (the events' private ``_`` keys); without, the ranks the public
    events name (the engine keeps no suits, R1)."""

    def __init__(self, players: int, symbols: bool, suits: bool = True):
        self.players = players
        self.suits = suits
        self.show = (card_pretty if symbols else card_name) if suits else RANK_NAMES.__getitem__
        self.sort_key = _cards_key if suits else BASIC_KEY.__getitem__
        self.ellipsis = "\u2026" if symbols else "..."
        self.seat_width = len(str(players - 1))
        self.pile: list = []

    def cards(self, cards, sort: bool = False) -> str:
        return " ".join(self.show(c) for c in (sorted(cards, key=self.sort_key) if sort else cards))

    def taken(self, event: dict, key: str) -> list:
        """The cards of `event` under `key` (``_faceup``, ``_hand``, ``_cards``): the reference engine's
        codes, or the ranks the public event names."""
        if self.suits:
            return event[key]
        if key != "_cards":
            return [RANK_OF_NAME[name] for name in event[key[1:]]]
        if event["action"] == "play":
            return [RANK_OF_NAME[event["rank"]]] * event["count"]
        return self.pile + ([RANK_OF_NAME[event["rank"]]] if "from" in event else [])  # R14, R15, V5

    def pile_text(self) -> str:
        if not self.pile:
            return "pile: empty"
        shown = self.cards(self.pile[-PILE_SHOWN:])
        return f"pile ({len(self.pile)}): " + (f"{self.ellipsis} {shown}" if len(self.pile) > PILE_SHOWN else shown)

    def line(self, event: dict) -> str:
        if event["action"] == "end":
            return self.end(event)
        who = f"  seat {event['seat']:>{self.seat_width}}  "
        describe = {"swap": self.swap, "play": self.play, "pickup": self.pickup, "out": self.out}.get(event["action"])
        if describe is None:  # pragma: no cover - a new event kind shows raw
            return who + json.dumps(public_event(event))
        return who + describe(event)

    def swap(self, event: dict) -> str:
        hand = "? ? ?" if event["hand"] is None else self.cards(self.taken(event, "_hand"), True)
        return f"face-up {self.cards(self.taken(event, '_faceup'), True)} | hand {hand}"

    def play(self, event: dict) -> str:
        played = self.taken(event, "_cards")
        source = event["from"]
        if source == "blind":
            text = f"flips {self.cards(played)} (blind), plays it"
        elif source == "talon":
            text = f"turns {self.cards(played)} (talon), plays it"
        else:
            text = f"plays {self.cards(played)} from {SOURCE_WORDS[source]}"
        self.pile = self.pile + list(played)
        if event["burn"]:
            text += f", burns {len(self.pile)} card{'s' if len(self.pile) > 1 else ''}"
            self.pile = []
        return f"{text:<{PILE_COLUMN}} {self.pile_text()}"

    def pickup(self, event: dict) -> str:
        taken = self.taken(event, "_cards")
        if "from" in event:  # a failed blind flip (R15) or chance card (V5): the last card taken
            flip = "flips" if event["from"] == "blind" else "turns"
            text = f"{flip} {self.show(taken[-1])} ({event['from']}), fails: picks up {event['cards']}"
        else:
            text = f"picks up {event['cards']} card{'s' if event['cards'] > 1 else ''}"
        self.pile = []
        return f"{text:<{PILE_COLUMN}} took: {self.cards(taken, True)}"

    def out(self, event: dict) -> str:
        return f"is OUT: {_place(event['place'])} place"

    def end(self, event: dict) -> str:
        places = event["places"]
        ranking = ", ".join(f"{_place(places[p])} seat {p}" for p in sorted(range(self.players), key=places.__getitem__))
        stalled = event["stalled"]
        return (f"round {event['round']} over{' (STALLED at the action limit)' if stalled else ''}: "
                f"{ranking}{'' if stalled else ' (the Idiot)'}")


def as_seen_by(events: list, seat: int) -> list:
    """The events as `seat` saw them at the table: the hand another seat kept at its swap (R6) is hidden
    (``hand`` None); everything else in a trace happens in sight."""
    return [{**event, "hand": None, "_hand": None} if event["action"] == "swap" and event["seat"] != seat else event
            for event in events]


def pretty_lines(result, rules: Rules, seats, seed: int, game: int, symbols: bool = True) -> list[str]:
    """A match for a person: one line per event, the pile after each play, places (the match's totals only
    when `result` is not marked ``finished = False``). Cards show their suits when the events carry them
    (the reference engine's), else their ranks."""
    lines = _header(rules, seats, seed, game)
    suits = any(key.startswith("_") for event in result.events[:1] for key in event)  # a round opens with a swap
    current_round = None
    for event in result.events:
        if event["round"] != current_round:
            current_round = event["round"]
            round_lines = _PrettyRound(rules.players, symbols, suits)
            lines.append(f"-- round {current_round} --")
        lines.append(round_lines.line(event))
    if rules.rounds > 1 and getattr(result, "finished", True):
        lines.append("match: " + ", ".join(
            f"seat {p} total {result.totals[p]} ({_place(result.places[p])})" for p in range(rules.players)))
    return lines
