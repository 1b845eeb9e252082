"""The game file: a played game as JSON, enough to replay it exactly.

It holds the rules, the seats (``you`` for the person, a strategy spec for each bot), the seed and
game index the decks were shuffled from (the bots' random streams too), the decks themselves (one
deck string per round, R3) and every decision of every seat in the order they were taken, as the
move codes strategies return. Replaying feeds each seat its recorded decisions on the reference
engine, so the replay is the game whatever the bots would do now. A game left unfinished (Ctrl-C,
``quit``) replays up to its last decision.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from idiotsim.game import observation as ob
from idiotsim.game.cards import NUM_RANKS, format_deck, parse_deck
from idiotsim.game.moves import CHANCE, PICKUP
from idiotsim.errors import IllegalMoveError, RecordEnds, UserError
from idiotsim.runs.atomic_files import write_atomic
from idiotsim.game.rules import Rules

FORMAT = "idiotsim-game"
VERSION = 1
HUMAN_LABEL = "you"


@dataclass
class GameRecord:
    """A game as played: rules, seat labels, the seat of the person (None for a game of bots), the
    seed and game index, the decks (card codes, one array per round) and the decisions
    ``(seat, move)`` in order; ``places`` once the match is over (R19)."""
    rules: Rules
    seats: list
    human_seat: int | None
    seed: int
    game: int
    decks: list
    decisions: list = field(default_factory=list)
    places: list | None = None
    path: str | None = field(default=None, compare=False)  # the file it was loaded from, for messages

    @property
    def finished(self) -> bool:
        return self.places is not None

    def moves_of(self, seat: int) -> list[int]:
        return [move for s, move in self.decisions if s == seat]

    def to_json(self) -> str:
        data = {"format": FORMAT, "version": VERSION, "rules": self.rules.as_dict(), "seats": list(self.seats),
                "human_seat": self.human_seat, "seed": self.seed, "game": self.game,
                "decks": [format_deck(d) for d in self.decks], "finished": self.finished, "places": self.places,
                "decisions": [[int(s), int(m)] for s, m in self.decisions]}
        return json.dumps(data, indent=1) + "\n"


def save(record: GameRecord, path) -> Path:
    """Write the game file (atomically: a reader never sees half of it)."""
    try:
        return write_atomic(Path(path), record.to_json())
    except OSError as e:
        raise UserError(f"cannot write the game file {path}: {e.strerror or e}") from None


def load(path) -> GameRecord:
    """A game file, checked field by field (a UserError naming the file and the field)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"game file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read game file {path}: {getattr(e, 'strerror', None) or e}") from None
    except json.JSONDecodeError as e:
        raise UserError(f"game file {path} is not valid JSON: {e}") from None
    try:
        record = _record_of(data)
    except UserError as e:
        raise UserError(f"game file {path}: {e}") from None
    record.path = str(path)
    return record


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise UserError(message)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _record_of(data) -> GameRecord:
    _need(isinstance(data, dict) and data.get("format") == FORMAT, f"not an idiotsim game file (format {FORMAT!r})")
    _need(data.get("version") == VERSION, f"version {data.get('version')!r}, this idiotsim reads version {VERSION}")
    _need(isinstance(data.get("rules"), dict), "rules must be a table of rules fields")
    from idiotsim.game.rules import load_rules
    rules = load_rules(None, [f"{k}={'none' if v is None else v}" for k, v in data["rules"].items()])
    seats = data.get("seats")
    _need(isinstance(seats, list) and len(seats) == rules.players and all(isinstance(s, str) for s in seats),
          f"seats must list {rules.players} labels")
    human = data.get("human_seat")
    _need(human is None or (_is_int(human) and 0 <= human < rules.players), f"human_seat must be 0..{rules.players - 1}")
    for name in ("seed", "game"):
        _need(_is_int(data.get(name)) and data[name] >= 0, f"{name} must be a non-negative integer")
    decks = data.get("decks")
    _need(isinstance(decks, list) and len(decks) == rules.rounds and all(isinstance(d, str) for d in decks),
          f"decks must list {rules.rounds} deck string(s), one per round")
    decisions = data.get("decisions")
    _need(isinstance(decisions, list) and all(
        isinstance(d, list) and len(d) == 2 and all(map(_is_int, d)) and 0 <= d[0] < rules.players
        for d in decisions), "decisions must be a list of [seat, move] pairs")
    places = data.get("places")
    _need(places is None or (isinstance(places, list) and len(places) == rules.players), "places must list every seat")
    return GameRecord(rules, seats, human, data["seed"], data["game"], [parse_deck(d, rules.decks) for d in decks],
                      [tuple(d) for d in decisions], places)


def hides_hands(record: GameRecord) -> bool:
    """Does the record show only what the person's seat could know (a person's game, unfinished), unless
    asked to reveal the rest? A finished game, or a game of bots, shows everything."""
    return record.human_seat is not None and not record.finished


# ---- replaying -------------------------------------------------------------------------------

def replay_seats(record: GameRecord) -> list:
    """One seat strategy per seat that answers each decision with the seat's next recorded move and
    raises RecordEnds when the record has no more (an unfinished game). A recorded move the rules do
    not allow there is a UserError naming the file's decision (its number in the file, whose it is),
    never the strategy that once made it: the file is what is wrong."""
    from idiotsim.strategies.loading import SeatStrategy
    from idiotsim.strategies.toolkit import Strategy
    seats = []
    for seat, label in enumerate(record.seats):
        moves = iter([(i, move) for i, (s, move) in enumerate(record.decisions) if s == seat])

        def decide(obs, hand, params, rng, moves=moves):
            index, move = next(moves, (None, None))
            if move is None:
                raise RecordEnds
            problem = illegal_reason(obs, hand, move)
            if problem:
                raise UserError(f"{_file_words(record)} decision {index + 1} ({_whose(record, int(obs[ob.SEAT]))}, "
                                f"round {int(obs[ob.ROUND])}) is not a legal move there: {problem}")
            return move

        strategy = Strategy(name=label, decide=SimpleNamespace(py_func=decide), description="a recorded seat")
        seats.append(SeatStrategy(label, strategy, np.zeros(0)))
    return seats


def _file_words(record: GameRecord) -> str:
    return f"game file {record.path}:" if record.path else "the game file's"


def _whose(record: GameRecord, seat: int) -> str:
    return f"yours, seat {seat}" if seat == record.human_seat else f"seat {seat}, {record.seats[seat]}"


def illegal_reason(obs, hand, move: int) -> str | None:
    """Why `move` is not legal at the decision `obs`/`hand` (the legal moves of ``game.moves``), or None."""
    from idiotsim.game.moves import held_in_source, legal_moves, legal_now, play_parts, sorted_swap, swap_ranks
    from idiotsim.game.cards import RANK_NAMES
    kind = int(obs[ob.DECISION])
    seat = int(obs[ob.SEAT])
    if kind == ob.BLIND:
        if 0 <= move < 3 and obs[ob.BLIND_PRESENT + 3 * seat + move]:
            return None
        return f"blind card {move + 1} is not lying there" if 0 <= move < 3 else f"{move} names no blind card"
    legal = {int(m) for m in legal_moves(obs, hand)}
    if kind == ob.SWAP:
        if 0 <= move < NUM_RANKS ** 3 and int(sorted_swap(move)) in legal:
            return None
        if not 0 <= move < NUM_RANKS ** 3:
            return f"{move} is not a swap choice"
        return f"face-up {' '.join(RANK_NAMES[r] for r in swap_ranks(move))} are not among the seat's six cards"
    if move in legal:
        return None
    if move == PICKUP:
        return "picks up, and there is no pile to pick up" if not obs[ob.PILE_SIZE] else "picks up, not allowed now"
    if move == CHANCE:
        return "takes a chance card (V5), not allowed now"
    rank, count, extra = play_parts(move)
    if not 0 <= rank < NUM_RANKS or count < 1:
        return f"{move} is not a move code"
    played = f"plays {RANK_NAMES[rank]} x{count}" + (f" +{extra} face-up" if extra else "")
    if not legal_now(obs, rank):
        return f"{played}, and {RANK_NAMES[rank]} may not be played on the pile now"
    if held_in_source(obs, hand, rank) < count:
        return f"{played}, more than the seat holds where it plays from"
    return f"{played}, which the rules do not allow there"


def replay(record: GameRecord, observer=None):
    """Play the record back on the reference engine: (trace events, the MatchResult or None when the
    game is unfinished). A record the rules reject is a UserError."""
    from idiotsim.game.reference import match_positions, play_match
    events = []

    def watch(event, rnd):
        events.append(event)
        if observer is not None:
            observer(event, rnd)

    try:
        result = play_match(record.decks, record.rules, replay_seats(record), record.seed, record.game, observer=watch)
    except RecordEnds:
        totals = [0] * record.rules.players
        for event in events:
            if event["action"] == "end":
                totals = [t + p for t, p in zip(totals, event["places"])]
        return events, SimpleNamespace(events=events, totals=totals, places=match_positions(totals), finished=False)
    except IllegalMoveError as e:  # not expected: replay_seats checks each move first
        raise UserError(f"{_file_words(record)} does not replay: {e}") from None
    if len(events_decisions(events)) != len(record.decisions):
        raise UserError(f"{_file_words(record)} holds decisions beyond the end of its game")
    result.finished = True
    return events, result


def events_decisions(events) -> list:
    """The decision events of a trace (one per decision a seat took: swap, play, pickup)."""
    return [e for e in events if e["action"] in ("swap", "play", "pickup")]


# ---- recording -------------------------------------------------------------------------------

def recording_seats(seats, record: GameRecord) -> list:
    """`seats` wrapped so that every decision is appended to ``record.decisions``."""
    from idiotsim.strategies.loading import SeatStrategy
    from idiotsim.strategies.toolkit import Strategy
    wrapped = []
    for seat, seat_strategy in enumerate(seats):
        def decide(obs, hand, params, rng, seat=seat, inner=seat_strategy.decide.py_func):
            move = int(inner(obs, hand, params, rng))
            record.decisions.append((seat, move))
            return move

        strategy = Strategy(name=seat_strategy.label, decide=SimpleNamespace(py_func=decide),
                            description=seat_strategy.strategy.description)
        wrapped.append(SeatStrategy(seat_strategy.label, strategy, seat_strategy.params))
    return wrapped


def record_game(rules: Rules, seats, decks, seed: int, game: int, human_seat: int | None = None,
                observer=None) -> GameRecord:
    """Play a match on the reference engine and return its record (every seat's decisions)."""
    from idiotsim.game.reference import play_match
    record = GameRecord(rules, [s.label for s in seats], human_seat, seed, game, [np.asarray(d) for d in decks])
    result = play_match(record.decks, rules, recording_seats(seats, record), seed, game, observer=observer)
    record.places = list(result.places)
    return record
