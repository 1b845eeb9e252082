"""Plain helper functions for the tests (fixtures are in ``conftest.py``):
hand-built decks (docs/rules.md R3, R5, V7), a runner for the reference engine
that returns the trace as text lines, and the CLI run in-process.

A hand-built deck names the cards that matter and leaves the rest to a filler:
the cards of the full deck (52 * decks) not named anywhere, in a fixed order
(by default ascending card code, 2C 2D 2H 2S 3C ... AS; pass ``fill`` to choose
another order). Filler cards go to every unnamed position in deck order, that is
to the blind cards of seat 0 first (R5 deals blind, face-up, hand, talon).
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from idiotsim.game.cards import card_name, format_deck, parse_card, parse_deck
from idiotsim.game.reference import play_match
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import SeatStrategy, load_strategies

ALL_CODES = tuple(card_name(c) for c in range(52))  # ascending card code: 2C 2D 2H 2S 3C ... AS


def _norm(code: str) -> str:
    return card_name(parse_card(code))


def _codes(cards) -> list:
    if cards is None:
        return []
    if isinstance(cards, str):
        cards = [c for c in cards.replace(",", " ").split() if c]
    return [_norm(c) for c in cards]


def deal_positions(players: int, seat: int, row: str) -> list:
    """R5: the deck indices of `seat`'s blind / faceup / hand cards (positions 0, 1, 2)."""
    base = {"blind": 0, "faceup": 3 * players, "hand": 6 * players}[row]
    return [base + 3 * seat + i for i in range(3)]


def build_deck_list(seats, talon=(), decks: int = 1, fill=None, players: int | None = None) -> list:
    """The deck as a list of card codes (top first) in R5 deal order.

    ``seats``: one entry per seat, either a dict with optional keys ``blind``,
    ``faceup``, ``hand`` or a tuple ``(blind, faceup, hand)``; each value is a
    list of up to 3 codes (or a space/comma separated string), placed in
    positions 0, 1, 2 of that row. ``players`` defaults to ``len(seats)``
    (extra seats get only filler). ``talon``: the first talon cards, drawn in
    this order. Everything else is filler (see the module docstring).
    """
    n = players if players is not None else len(seats)
    if len(seats) > n:
        raise ValueError(f"{len(seats)} seat entries for {n} players")
    size = 52 * decks
    if 9 * n > size:
        raise ValueError(f"{n} players need {9 * n} cards, {decks} deck(s) hold {size}")
    deck: list = [None] * size
    for p, entry in enumerate(seats):
        if isinstance(entry, dict):
            unknown = set(entry) - {"blind", "faceup", "hand"}
            if unknown:
                raise ValueError(f"seat {p}: unknown rows {sorted(unknown)}")
            rows = {k: _codes(entry.get(k)) for k in ("blind", "faceup", "hand")}
        else:
            blind, faceup, hand = entry
            rows = {"blind": _codes(blind), "faceup": _codes(faceup), "hand": _codes(hand)}
        for row, cards in rows.items():
            if len(cards) > 3:
                raise ValueError(f"seat {p} {row}: at most 3 cards, got {cards}")
            for pos, card in zip(deal_positions(n, p, row), cards):
                deck[pos] = card
    talon = _codes(talon)
    if 9 * n + len(talon) > size:
        raise ValueError(f"talon prefix of {len(talon)} cards does not fit")
    for i, card in enumerate(talon):
        deck[9 * n + i] = card
    used = Counter(c for c in deck if c is not None)
    for card, k in used.items():
        if k > decks:
            raise ValueError(f"card {card} named {k} times in a {decks}-deck game")
    order = _codes(fill) if fill is not None else list(ALL_CODES)
    order += [c for c in ALL_CODES if c not in order]
    remaining = Counter({c: decks for c in ALL_CODES})
    remaining.subtract(used)
    filler = [c for c in order for _ in range(remaining[c])]
    it = iter(filler)
    deck = [c if c is not None else next(it) for c in deck]
    return deck


def build_deck(seats, talon=(), decks: int = 1, fill=None, players: int | None = None) -> str:
    """The deck string (R3: comma-separated codes, top first); see `build_deck_list`."""
    text = ",".join(build_deck_list(seats, talon, decks, fill, players))
    parse_deck(text, decks)  # every card exactly `decks` times
    return text


def deck_array(deck) -> np.ndarray:
    """A deck string, a list of codes ("10H") or of card numbers, or an array, as an array of card numbers."""
    if isinstance(deck, str):
        return parse_deck(deck)
    if isinstance(deck, np.ndarray):
        return deck.astype(np.int64)
    deck = list(deck)
    if deck and not isinstance(deck[0], str):
        return np.array([int(c) for c in deck], dtype=np.int64)  # card codes (rank * 4 + suit)
    return parse_deck(",".join(deck))


def strategies_for(spec, players: int) -> list:
    """A strategy spec string (``"basic"``, ``"random,basic"``), or a list of SeatStrategy / specs."""
    if isinstance(spec, str):
        return load_strategies(spec, players)
    result = []
    for s in spec:
        result.append(s if isinstance(s, SeatStrategy) else load_strategies(s, 1)[0])
    if len(result) != players:
        raise ValueError(f"{players} players need {players} strategies, got {len(result)}")
    return result


def event_line(event: dict) -> str:
    """One trace line: the event without its private ``_`` keys, Python's json.dumps defaults."""
    return json.dumps({k: v for k, v in event.items() if not k.startswith("_")})


def _deck_list(deals) -> list:
    """One deck (string, array, list of codes) or a list of decks, as a list of decks."""
    if isinstance(deals, (str, np.ndarray)):
        return [deals]
    deals = list(deals)
    if deals and ((isinstance(deals[0], str) and "," not in deals[0]) or isinstance(deals[0], (int, np.integer))):
        return [deals]  # one deck given as a list of codes or card numbers
    return deals


def run_match(deals, rules: Rules | None = None, strategies="basic", seed: int = 0, game: int = 0,
              observer=None, **rule_fields):
    """Play the reference engine; returns ``(MatchResult, trace lines)``.

    ``deals``: one deck (string, code list or array) or a list of them (one per
    round). Without ``rules``, ``Rules(**rule_fields)`` is used (so ``decks=2``
    is the V7 rule field), with ``players`` required and ``rounds`` defaulting
    to the number of deals.
    """
    arrays = [deck_array(d) for d in _deck_list(deals)]
    if rules is None:
        rule_fields.setdefault("rounds", len(arrays))
        rules = Rules(**rule_fields)
    elif rule_fields:
        rules = rules.replace(**rule_fields)
    seats = strategies_for(strategies, rules.players)
    result = play_match(arrays, rules, seats, seed, game, observer)
    return result, [event_line(e) for e in result.events]


def run_trace(deals, rules: Rules | None = None, strategies="basic", seed: int = 0, game: int = 0,
              observer=None, **rule_fields) -> list:
    """The trace of `run_match` as a list of JSON strings."""
    return run_match(deals, rules, strategies, seed, game, observer, **rule_fields)[1]


def non_swap(lines: list) -> list:
    """The trace lines after the swap lines (play, pickup, out and end lines)."""
    return [ln for ln in lines if '"action": "swap"' not in ln]


# ---- building expected trace lines -----------------------------------------

def swap_line(seat, faceup, hand, round_no=1) -> str:
    return json.dumps({"round": round_no, "seat": seat, "action": "swap", "faceup": list(faceup), "hand": list(hand)})


def play_line(seat, source, rank, count=1, burn=False, round_no=1) -> str:
    return json.dumps({"round": round_no, "seat": seat, "action": "play", "from": source, "rank": str(rank),
                       "count": count, "burn": burn})


def pickup_line(seat, cards, source=None, rank=None, round_no=1) -> str:
    event = {"round": round_no, "seat": seat, "action": "pickup"}
    if source is not None:
        event.update({"from": source, "rank": str(rank)})
    event["cards"] = cards
    return json.dumps(event)


def out_line(seat, place, round_no=1) -> str:
    return json.dumps({"round": round_no, "seat": seat, "action": "out", "place": place})


def end_line(places, stalled=False, round_no=1) -> str:
    return json.dumps({"round": round_no, "action": "end", "places": list(places), "stalled": stalled})


def cards_of(event: dict) -> list:
    """The card codes (e.g. ``["JD", "JS"]``) of a play or pickup event, from its private ``_cards``."""
    return [card_name(c) for c in event.get("_cards", [])]


__all__ = [
    "ALL_CODES", "build_deck", "build_deck_list", "deal_positions", "deck_array", "event_line", "format_deck",
    "run_match", "run_trace", "non_swap", "strategies_for", "swap_line", "play_line", "pickup_line", "out_line",
    "end_line", "cards_of",
]


# ---- the command line, in-process ------------------------------------------

def run_cli(capsys, *args):
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    import pytest

    from idiotsim import cli
    with pytest.raises(SystemExit) as exc:
        cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def command_paths() -> list[tuple]:
    """Every command as its words after `idiotsim`, a group's sub-commands after it: ("run",), ("learn",),
    ("learn", "generate"), ..."""
    import typer

    from idiotsim.cli import app

    def walk(group, path):
        for name in group.list_commands(typer.Context(group)):
            command = group.get_command(typer.Context(group), name)
            yield path + (name,)
            if hasattr(command, "list_commands"):  # a group
                yield from walk(command, path + (name,))
    return list(walk(typer.main.get_command(app), ()))


def cli_ok(capsys, *args) -> str:
    """Exit code 0 and no traceback; returns stdout."""
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert "Traceback" not in err
    return out


def cli_user_error(capsys, *args) -> str:
    """A user error: exit code 2, nothing on stdout, ONE `error: ...` line on stderr, no traceback."""
    code, out, err = run_cli(capsys, *args)
    assert code == 2, (code, out, err)
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    return lines[0]


def write_position(path, data: dict) -> None:
    """A position file (TOML) for `idiotsim analyze` from {"rules", "position", "pile": tables,
    "seats": [tables]}; cards may carry suit symbols."""
    lines = []
    for table in ("rules", "position", "pile"):
        if table in data:
            lines.append(f"[{table}]")
            lines += [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in data[table].items()]
    for seat in data["seats"]:
        lines.append("[[seats]]")
        lines += [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in seat.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def script() -> list[str]:
    """The installed `idiotsim` command (or the module, where no script is installed)."""
    exe = Path(sys.executable).with_name("idiotsim")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "idiotsim.cli"]


def _default_sigint():
    # A background job of a non-interactive shell starts with SIGINT ignored, and Python keeps an
    # ignored SIGINT ignored: give the child the default disposition, as Ctrl-C in a terminal finds it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def signal_when(args: list, ready, sig, what: str) -> subprocess.CompletedProcess:
    """Start `idiotsim ARGS`, poll `ready()` until it holds (`what` names it in a failure), send `sig`."""
    proc = subprocess.Popen(script() + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=_default_sigint)
    deadline = time.monotonic() + 240
    try:
        while not ready():
            if proc.poll() is not None:
                pytest.fail(f"the command ended before it was stopped: {proc.returncode} {proc.stderr.read()}")
            if time.monotonic() > deadline:
                pytest.fail(f"not {what} within 240 s")
            time.sleep(0.002)
        proc.send_signal(sig)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


def exchange_with_talon(table, seat: int, where: str = "hand") -> None:
    """One card of `seat`'s hand (`where` "hand") or of the face-up row it was dealt ("faceup", while the
    seats swap) exchanged with a talon card of another rank, at an ``interop.stepped.Table``: a change
    that only that seat can see."""
    from idiotsim.engine import hidden_cards as hc
    from idiotsim.interop.stepped import SWAPPING
    st = table.state[:hc.TABLE_SIZE].copy()
    count, set_count = ((hc.hand_count, hc.set_hand_count) if where == "hand"
                        else (hc.dealt_faceup_count, hc.set_dealt_faceup_count))
    talon = hc.hidden_cards(st)[3]
    j, mine = next((j, r) for j, t in enumerate(talon) for r in range(13) if r != t and count(st, seat, r) > 0)
    set_count(st, seat, mine, count(st, seat, mine) - 1)
    set_count(st, seat, talon[j], count(st, seat, talon[j]) + 1)
    talon[j] = mine
    hc.set_talon(st, len(talon))
    for i, rank in enumerate(talon):
        hc.set_talon_card(st, i, rank)
    table.take_cards(st, 0 if table.phase == SWAPPING else table.current_seat())
