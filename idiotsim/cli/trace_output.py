"""How ``idiotsim trace`` prints a match: JSON Lines (docs/trace.md), or with
``--pretty`` as a person reads it, one line per event."""
from __future__ import annotations

import json
import sys
from typing import Iterable

from idiotsim.cards import BASIC_KEY, card_name, card_pretty, card_rank
from idiotsim.rules import Rules


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


def pretty_lines(result, rules: Rules, seats, seed: int, game: int, symbols: bool = True) -> list[str]:
    """A match for a person: one line per event, the pile after each play, places."""
    show = card_pretty if symbols else card_name
    ellipsis = "\u2026" if symbols else "..."

    def cards(cs, sort=False) -> str:
        return " ".join(show(c) for c in (sorted(cs, key=_cards_key) if sort else cs))

    def pile_text(pile) -> str:
        if not pile:
            return "pile: empty"
        shown = cards(pile[-PILE_SHOWN:])
        return f"pile ({len(pile)}): " + (f"{ellipsis} {shown}" if len(pile) > PILE_SHOWN else shown)

    n = rules.players
    changed = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.as_dict().items()
               if k != "players" and v != getattr(Rules(players=n), k)]
    lines = [f"== game {game}, seed {seed}: {n} players, {rules.decks} deck{'s' if rules.decks > 1 else ''}"
             + (f", {rules.rounds} rounds" if rules.rounds > 1 else "")
             + (f"; rules: {', '.join(changed)}" if changed else "") + " =="]
    lines.append("seats: " + ", ".join(f"{p} {s.label}" for p, s in enumerate(seats)))
    width = len(str(n - 1))
    pile: list = []
    current_round = None
    for e in result.events:
        if e["round"] != current_round:
            current_round = e["round"]
            pile = []
            lines.append(f"-- round {current_round} --")
        if e["action"] == "end":
            order = sorted(range(n), key=lambda p: e["places"][p])
            ranking = ", ".join(f"{_place(e['places'][p])} seat {p}" for p in order)
            lines.append(f"round {current_round} over{' (STALLED at the action limit)' if e['stalled'] else ''}: "
                         f"{ranking}{'' if e['stalled'] else ' (the Idiot)'}")
            continue
        who = f"  seat {e['seat']:>{width}}  "
        action = e["action"]
        if action == "swap":
            lines.append(f"{who}face-up {cards(e['_faceup'], True)} | hand {cards(e['_hand'], True)}")
        elif action == "play":
            played = e["_cards"]
            source = e["from"]
            if source == "blind":
                text = f"flips {cards(played)} (blind), plays it"
            elif source == "talon":
                text = f"turns {cards(played)} (talon), plays it"
            else:
                text = f"plays {cards(played)} from {SOURCE_WORDS[source]}"
            pile = pile + list(played)
            if e["burn"]:
                text += f", burns {len(pile)} card{'s' if len(pile) > 1 else ''}"
                pile = []
            lines.append(f"{who}{text:<{PILE_COLUMN}} {pile_text(pile)}")
        elif action == "pickup":
            taken = e["_cards"]
            if "from" in e:  # a failed blind flip (R15) or chance card (V5): the last card taken
                flip = "flips" if e["from"] == "blind" else "turns"
                text = f"{flip} {show(taken[-1])} ({e['from']}), fails: picks up {e['cards']}"
            else:
                text = f"picks up {e['cards']} card{'s' if e['cards'] > 1 else ''}"
            lines.append(f"{who}{text:<{PILE_COLUMN}} took: {cards(taken, True)}")
            pile = []
        elif action == "out":
            lines.append(f"{who}is OUT: {_place(e['place'])} place")
        else:  # pragma: no cover - a new event kind shows raw
            lines.append(f"{who}{json.dumps(public_event(e))}")
    if rules.rounds > 1:
        lines.append("match: " + ", ".join(
            f"seat {p} total {result.totals[p]} ({_place(result.places[p])})" for p in range(n)))
    return lines


