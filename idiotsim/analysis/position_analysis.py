"""``idiotsim analyze``: every legal move of one position, judged by determinized search.

A position is what one seat knows at a decision: its observation and its own hand (the search
samples everything else, ``idiotsim.strategies.search.pimc.determinize``). It comes from a replayed game
(`position_from_game`: the decision on one trace line) or from a hand-entered TOML file
(`position_from_file`, checked for consistency field by field).

A replayed game is played on the reference engine, which keeps every physical card (a card code,
suit included): at each decision `replay_decisions` records where each card of the round lies
(`TableCards`), and the position shows the cards the seat sees with their suits (`SeenCards`).

`judge` plays every legal move on the same sampled states (common random numbers) and keeps the
K x moves matrix of places; `summarize` turns it into mean places and win rates with 95% CIs, and
each move's paired difference to the best move with a 95% CI over the K samples.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from types import SimpleNamespace

import numpy as np

from idiotsim.game import observation as ob
from idiotsim.strategies import loading as strategy_api  # noqa: F401 (the strategies load before idiotsim.strategies.search.pimc: import order)
from idiotsim.game.basic_player import legal_moves_basic_first
from idiotsim.game.cards import BASIC_KEY, RANK_NAMES, card_rank
from idiotsim.errors import RecordEnds, UserError
from idiotsim.game.observation import NR
from idiotsim.game.rng import SEAT_STREAM, new_state
from idiotsim.game.rules import Rules
from idiotsim.analysis.stats import Moments, mean_interval, rate_interval
from idiotsim.analysis.positions import (Card, Position, SeenCards, position_from_dict, position_from_file,
                                    position_to_dict, position_toml, rank_cards, seen_cards)
from idiotsim.game.moves import CHANCE, PICKUP, play_parts, swap_ranks

DECISION_EVENTS = ("swap", "play", "pickup")  # a trace line of one of these is one decision
ANALYZE_STREAM = SEAT_STREAM - 1  # the sampling stream of analyze: no seat of a game uses it
MAX_PRECISION_ROLLOUTS = 100_000  # the cap of --precision
PRECISION_BATCH = 200  # rollouts per batch with --precision


# ---- positions of replayed games -----------------------------------------------------------

@dataclass(frozen=True)
class TableCards:
    """Where every card (code) of the round lies at one decision of a replayed game: each seat's
    hand, face-up row and blind cards still lying, the pile (bottom first), the talon (next draw
    first) and the burned cards. Together they are the round's deck, each card once."""
    hands: tuple
    faceup: tuple
    blind: tuple
    pile: tuple
    talon: tuple
    burned: tuple

    def seen_at(self, obs: np.ndarray) -> SeenCards:
        """What the deciding seat of `obs` sees, with suits: its own hand, the face-up rows, the pile
        and the burned cards (at the swap, R6: only its own six cards); the cards known to be in a
        hand by rank only, as the observation counts them."""
        seat, n = int(obs[ob.SEAT]), len(self.hands)
        faceup = tuple(_cards_of(row) for row in self.faceup)
        if obs[ob.DECISION] == ob.SWAP:
            return SeenCards(_cards_of(self.hands[seat]), tuple(faceup[s] if s == seat else () for s in range(n)),
                             tuple(() for _ in range(n)), (), ())
        known = tuple(rank_cards(obs[ob.KNOWN + s * NR: ob.KNOWN + (s + 1) * NR]) for s in range(n))
        return SeenCards(_cards_of(self.hands[seat]), faceup, known, tuple(Card.of_code(c) for c in self.pile),
                         _cards_of(self.burned))


def _cards_of(codes) -> tuple:
    return tuple(Card.of_code(c) for c in sorted(codes))


def dealt_table(deck, players: int) -> TableCards:
    """R5: blind, then face-up, then hand, three each by seat; the rest is the talon."""
    deck = [int(c) for c in deck]
    n = players

    def rows(start: int) -> tuple:
        return tuple(tuple(deck[start + 3 * p: start + 3 * p + 3]) for p in range(n))

    return TableCards(rows(6 * n), rows(3 * n), rows(0), (), tuple(deck[9 * n:]), ())


def live_table(rnd, deck) -> TableCards:
    """The cards of a live reference `Round`; the burned cards are the deck's cards found nowhere else."""
    players = rnd.players
    table = TableCards(tuple(tuple(p.hand) for p in players), tuple(tuple(p.faceup) for p in players),
                       tuple(tuple(c for c in p.blind if c is not None) for p in players), tuple(rnd.pile),
                       tuple(rnd.talon), ())
    elsewhere = Counter(c for zone in (*table.hands, *table.faceup, *table.blind, table.pile, table.talon)
                        for c in zone)
    burned = Counter(int(c) for c in deck) - elsewhere
    return replace(table, burned=tuple(sorted(burned.elements())))


@dataclass
class Decision:
    """One decision of a replayed game: the seat's observation and hand counts, and the table's cards."""
    obs: np.ndarray
    hand: np.ndarray
    table: TableCards


def replay_decisions(rules: Rules, seats, decks, seed: int, game: int) -> tuple[list, list]:
    """The match `decks` played by `seats` on the reference engine: its trace events and its
    decisions in order (one per decision event: swap, play, pickup)."""
    from idiotsim.game.reference import play_match
    from idiotsim.strategies.loading import SeatStrategy
    from idiotsim.strategies.toolkit import Strategy

    decisions = []
    events = []
    live = {}

    def table_now(obs) -> TableCards:
        round_no = int(obs[ob.ROUND])
        deck = decks[round_no - 1]
        rnd = live.get("round")
        if rnd is None or rnd.round_no != round_no:  # the round's first swap: no event of it yet
            return dealt_table(deck, rules.players)
        return live_table(rnd, deck)

    def recorder(seat_strategy):
        def decide(obs, hand, params, rng):
            decisions.append(Decision(obs.copy(), hand.copy(), table_now(obs)))
            return seat_strategy.decide.py_func(obs, hand, params, rng)
        wrapped = Strategy(name=seat_strategy.label, decide=SimpleNamespace(py_func=decide), description="")
        return SeatStrategy(seat_strategy.label, wrapped, seat_strategy.params)

    def observer(event, rnd):
        live["round"] = rnd
        events.append(event)

    try:
        play_match(decks, rules, [recorder(s) for s in seats], seed, game, observer=observer)
    except RecordEnds:  # an unfinished game file: its last decision was never answered
        decisions.pop()
    return events, decisions


def position_from_game(rules: Rules, seats, decks, seed: int, game: int, line: int) -> Position:
    """The decision on trace line `line` (1-based, as ``idiotsim trace`` numbers its lines) of the
    match `decks` played by `seats` on the reference engine, with the cards the seat sees."""
    events, decisions = replay_decisions(rules, seats, decks, seed, game)
    if not 1 <= line <= len(events):
        raise UserError(f"--action {line}: the game's trace has lines 1..{len(events)}")
    event = events[line - 1]
    if event["action"] not in DECISION_EVENTS:
        raise UserError(f"--action {line}: trace line {line} is an {event['action']!r} event, not a decision "
                        f"(decisions are {', '.join(DECISION_EVENTS)} lines)")
    decision = decisions[sum(e["action"] in DECISION_EVENTS for e in events[:line - 1])]
    obs, table = decision.obs, decision.table
    pile = None if obs[ob.DECISION] == ob.SWAP else [card_rank(c) for c in table.pile]
    return Position(rules, obs, decision.hand, pile, origin=f"game {game}, trace line {line}",
                    cards=table.seen_at(obs))


# ---- the moves and their judgement ---------------------------------------------------------

def legal_moves(position: Position) -> np.ndarray:
    """Every legal move of the position (``game.moves.list_moves``), basic's first."""
    return legal_moves_basic_first(position.obs, position.hand)


def move_name(move: int, position: Position) -> str:
    """A move as a person says it: ``play 7 x2``, ``play 7 x1 +1 face-up``, ``pick up``, ``face-up K 10 10``."""
    if position.decision == ob.SWAP:
        ranks = sorted(swap_ranks(move), key=lambda r: BASIC_KEY[r])
        return "face-up " + " ".join(RANK_NAMES[r] for r in ranks)
    if move == PICKUP:
        return "pick up"
    if move == CHANCE:
        return "chance (turn the talon's top card)"
    rank, count, extra = play_parts(move)
    source = "face-up" if position.obs[ob.SOURCE] == ob.SRC_FACEUP else "hand"
    return f"play {RANK_NAMES[rank]} x{count} from {source}" + (f" +{extra} face-up" if extra else "")


def judge(position: Position, moves: np.ndarray, rollouts: int, seed: int = 0, policy: int = 0) -> np.ndarray:
    """The K x moves matrix of the seat's places: each move rolled out on the same `rollouts` sampled
    states."""
    places = np.zeros((rollouts, len(moves)), np.int64)
    rng = new_state(seed, 0, ANALYZE_STREAM)
    _fill_places(position, moves, rng, policy, places)
    return places


def _fill_places(position, moves, rng, policy, places) -> None:
    from idiotsim.strategies.search import pimc as search
    if search.place_matrix(position.obs, position.hand, rng, moves, places.shape[0], policy, places) < 0:
        raise UserError("the position cannot be sampled: its cards do not add up to the deck")


def judge_to_precision(position: Position, moves: np.ndarray, half_width: float, seed: int = 0, policy: int = 0,
                       cap: int = MAX_PRECISION_ROLLOUTS) -> np.ndarray:
    """Batches of samples until the best move is separated from every other (each paired CI excludes
    0) or every paired CI's half-width is <= `half_width`, or `cap` samples."""
    rng = new_state(seed, 0, ANALYZE_STREAM)
    batches = []
    done = 0
    while done < cap:
        batch = np.zeros((min(PRECISION_BATCH, cap - done), len(moves)), np.int64)
        _fill_places(position, moves, rng, policy, batch)
        batches.append(batch)
        done += batch.shape[0]
        rows = summarize(np.concatenate(batches))
        others = [r for r in rows if not r.best]
        if not others or all(r.diff_lo > 0 for r in others) or max(r.diff_half for r in others) <= half_width:
            break
    return np.concatenate(batches)


@dataclass
class MoveRow:
    """One move's judgement: mean place and win rate with 95% CIs, and the paired difference of its
    places to the best move's on the same samples (positive: worse than the best)."""
    index: int
    mean_place: float
    place_lo: float
    place_hi: float
    win_rate: float
    win_lo: float
    win_hi: float
    diff: float
    diff_lo: float
    diff_hi: float
    diff_half: float
    best: bool = False
    chosen_by: list = field(default_factory=list)


def _interval(values: np.ndarray):
    moments = Moments()
    moments.add(values)
    return mean_interval(moments, 1.0)


def summarize(places: np.ndarray) -> list[MoveRow]:
    """The rows of the table from the K x moves matrix of places; the best move is the lowest mean
    place (the earlier move on a tie, so basic's move keeps ties)."""
    k = places.shape[0]
    means = places.mean(axis=0)
    best = int(np.argmin(means))  # the first of equal minima
    rows = []
    for i in range(places.shape[1]):
        place = _interval(places[:, i])
        wins = int((places[:, i] == 1).sum())
        win = rate_interval((places[:, i] == 1).astype(np.int64), np.ones(k, np.int64))  # samples are independent
        win_lo, win_hi = win.lo, win.hi
        diff = _interval(places[:, i] - places[:, best])
        rows.append(MoveRow(i, place.mean, place.lo, place.hi, wins / k, win_lo, win_hi, diff.mean,
                            diff.lo, diff.hi, diff.half, best=i == best))
    return rows


def strategy_choices(position: Position) -> dict:
    """The move each shipped fair strategy family (search aside) would play here: name -> move."""
    from idiotsim.strategies.registry import FAMILIES
    choices = {}
    rng = new_state(0, 0, ANALYZE_STREAM)
    for family in FAMILIES:
        if not family.fair or family.name == "search":
            continue
        params = family.params({})
        choices[family.name] = int(family.decide.py_func(position.obs.copy(), position.hand.copy(), params, rng))
    return choices


def canonical_swap(move: int) -> int:
    """A swap choice with its ranks in ascending order (as ``list_swap_moves`` lists them)."""
    a, b, c = sorted(swap_ranks(move))
    return a + NR * b + NR * NR * c


# ---- the position as a person sees it --------------------------------------------------------

def _shown(cards, symbols: bool) -> str:
    """Cards as a hand is held: basic's key (3 ... A 2 10), then suit; ``-`` for none."""
    ordered = sorted(cards, key=lambda c: (BASIC_KEY[c.rank], c.sort_key()))
    return " ".join(c.text(symbols) for c in ordered) or "-"


def _pile_line(position: Position, seen: SeenCards, symbols: bool) -> str:
    obs = position.obs
    if obs[ob.PILE_SIZE] == 0:
        return "  pile: empty"
    if position.pile is not None:
        return f"  pile ({obs[ob.PILE_SIZE]}, top first): " + " ".join(c.text(symbols) for c in reversed(seen.pile))
    return (f"  pile ({obs[ob.PILE_SIZE]}): {_shown(seen.pile, symbols)}; top "
            f"{RANK_NAMES[obs[ob.PILE_TOP]]} x{obs[ob.PILE_RUN]}")


def position_lines(position: Position, symbols: bool = True) -> list[str]:
    """The position as the deciding seat sees it at the table: suits where known (``10♥``, or
    ``10H`` without `symbols`), hidden cards as counts."""
    obs = position.obs
    seen = seen_cards(position)
    n = int(obs[ob.PLAYERS])
    seat = position.seat
    lines = [f"position: {position.origin}; {n} players, seat {seat} to "
             + ("swap (R6)" if position.decision == ob.SWAP else "play")]
    if position.decision == ob.SWAP:
        lines.append(f"  seat {seat}: face-up {_shown(seen.faceup[seat], symbols)} | hand {_shown(seen.hand, symbols)}")
        return lines
    lines.append(_pile_line(position, seen, symbols))
    lines.append(f"  talon: {obs[ob.TALON_SIZE]}   burned: {_shown(seen.burned, symbols)}")
    for s in range(n):
        marker = ">" if s == seat else " "
        if obs[ob.PLACE + s]:
            lines.append(f"{marker} seat {s}: out, place {obs[ob.PLACE + s]}")
            continue
        hand = (f"hand {_shown(seen.hand, symbols)}" if s == seat else
                f"hand {obs[ob.HAND_SIZE + s]}" + (f" (known: {_shown(seen.known[s], symbols)})" if seen.known[s] else ""))
        lines.append(f"{marker} seat {s}: face-up {_shown(seen.faceup[s], symbols)} | {hand} | blind {obs[ob.BLIND_SIZE + s]}")
    return lines


def cards_json(position: Position) -> dict:
    """The cards the seat sees, as position-file codes (``10H``, or ``10`` when the suit is not known)."""
    seen = seen_cards(position)

    def codes(cards) -> list[str]:
        return [c.text() for c in sorted(cards, key=lambda c: (BASIC_KEY[c.rank], c.sort_key()))]

    return {"hand": codes(seen.hand), "faceup": [codes(row) for row in seen.faceup],
            "known": [codes(row) for row in seen.known],
            "pile_top_first": [c.text() for c in reversed(seen.pile)] if position.pile is not None else codes(seen.pile),
            "pile_in_order": position.pile is not None, "burned": codes(seen.burned)}


def analysis(position: Position, rollouts: int | None, precision: float | None, seed: int = 0) -> dict:
    """Everything ``analyze`` shows: the moves, their rows and the strategies' choices."""
    moves = legal_moves(position)
    if precision is None:
        places = judge(position, moves, rollouts, seed)
    else:
        places = judge_to_precision(position, moves, precision, seed)
    rows = summarize(places)
    index = {int(m): i for i, m in enumerate(moves)}
    for name, move in strategy_choices(position).items():
        key = canonical_swap(move) if position.decision == ob.SWAP else move
        if key in index:
            rows[index[key]].chosen_by.append(name)
    return dict(moves=moves, places=places, rows=rows)


def analysis_json(position: Position, result: dict) -> dict:
    return {
        "position": position_to_dict(position),
        "cards": cards_json(position),
        "rollouts": int(result["places"].shape[0]),
        "moves": [dict(move=move_name(int(m), position), code=int(m), mean_place=r.mean_place,
                       mean_place_ci=[r.place_lo, r.place_hi], win_rate=r.win_rate, win_rate_ci=[r.win_lo, r.win_hi],
                       difference_to_best=r.diff, difference_ci=[r.diff_lo, r.diff_hi], best=r.best,
                       chosen_by=r.chosen_by)
                  for m, r in zip(result["moves"], result["rows"])],
    }


def _fmt(x: float, digits: int = 3) -> str:
    return "nan" if math.isnan(x) else f"{x:.{digits}f}"


def table_rows(position: Position, result: dict) -> list[list[str]]:
    """The table's cells: move, mean place [CI], win rate [CI], difference to the best [CI], chosen by."""
    cells = []
    for m, r in zip(result["moves"], result["rows"]):
        cells.append([move_name(int(m), position) + (" (best)" if r.best else ""),
                      f"{_fmt(r.mean_place)} [{_fmt(r.place_lo)}, {_fmt(r.place_hi)}]",
                      f"{r.win_rate:.1%} [{r.win_lo:.1%}, {r.win_hi:.1%}]",
                      "-" if r.best else f"{r.diff:+.3f} [{r.diff_lo:+.3f}, {r.diff_hi:+.3f}]",
                      ", ".join(r.chosen_by)])
    return cells


__all__ = ["Position", "position_from_game", "position_from_file", "position_from_dict", "position_to_dict",
           "position_toml", "legal_moves", "judge", "judge_to_precision", "summarize", "strategy_choices", "analysis",
           "analysis_json", "position_lines", "table_rows", "move_name", "replay_decisions", "TableCards", "cards_json"]
