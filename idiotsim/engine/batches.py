"""Python entry points to the numba engine: batches of games and single traced games."""
from __future__ import annotations

import threading

import numpy as np
from numba import types
from numba.core.types.function_type import CompileResultWAP

from idiotsim.engine import drivers
from idiotsim.engine import state_layout as layout
from idiotsim.engine.recording import event_dict
from idiotsim.engine.state_layout import MAX_STRATEGIES
from idiotsim.game import observation as ob
from idiotsim.errors import IllegalMoveError, StrategyFault, UserError
from idiotsim.game.reference import illegal_message
from idiotsim.game.rules import Rules
from idiotsim.game.basic_player import decide as basic_decide
from idiotsim.game.moves import SIG, compiled

# play_batch releases the GIL (a results file is written meanwhile: chunks.write_behind) but runs one
# batch at a time, as it did under the GIL: numba's workqueue threading layer aborts on concurrent use
# (a Dask worker with several threads).
ENGINE_LOCK = threading.Lock()


def rules_header(rules: Rules) -> np.ndarray:
    header = np.zeros(ob.OBS_SIZE, dtype=np.int64)
    ob.rules_to_header(rules, header)
    return header


def distinct_strategies(strategies) -> tuple[list, np.ndarray]:
    """The strategies without repeats (same decision function and knobs) and, for each given
    strategy, its index among them. Seats that play the same strategy then call the same
    tuple entry, which keeps the engine's dispatch predictable."""
    index_of: dict = {}
    distinct, index = [], []
    for s in strategies:
        key = (id(s.decide), s.params.tobytes())
        if key not in index_of:
            index_of[key] = len(distinct)
            distinct.append(s)
        index.append(index_of[key])
    return distinct, np.array(index, dtype=np.int64)


def strategy_inputs(strategies, by_address: bool = False) -> tuple:
    """The strategy tuple (padded to MAX_STRATEGIES; with `by_address` every entry an AddressEntry,
    for one-game calls), which of them are `basic` (the engine plays those inline: layout.SEAT_BASIC)
    and the knob matrix, one row per strategy."""
    python = [s.label for s in strategies if plays_in_python(s)]
    if python:
        raise UserError(f"strategy {python[0]!r} plays at Python speed, on the reference engine only: "
                        "drop --engine numba")
    if len(strategies) > MAX_STRATEGIES:
        raise UserError(f"at most {MAX_STRATEGIES} distinct strategies per run, got {len(strategies)}")
    decides = [compiled(s.decide) for s in strategies]  # called through their native entry points
    seated = [address_entry(d) for d in decides] if by_address else decides
    fns = tuple(seated) + (address_entry(decides[0]),) * (MAX_STRATEGIES - len(strategies))
    is_basic = np.zeros(MAX_STRATEGIES, dtype=np.int8)
    is_basic[: len(strategies)] = [s.decide is basic_decide for s in strategies]
    width = max([len(s.params) for s in strategies] + [1])
    params = np.zeros((MAX_STRATEGIES, width), dtype=np.float64)
    for i, s in enumerate(strategies):
        params[i, : len(s.params)] = s.params
    return fns, is_basic, params


class AddressEntry:
    """A decision function as an entry of the engine's strategy table by its compiled code's
    address, looked up once, and its numba type, made once. Handed a dispatcher, numba types it and
    looks up two of its addresses at every call: for the 32 entries of a table of dispatchers that
    costs more than a traced game takes. So the padding entries of every table are address entries, and
    so are the seated entries of a traced game (one game a call: `trace_game`). A batch's seated entries
    stay dispatchers, which the engine calls at their native entry points (through this entry's C
    wrapper a cheap strategy's games take longer: benchmarks/engine.py)."""

    _numba_type_ = types.FunctionType(SIG)

    def __init__(self, decide):
        self.decide = decide  # kept: the address is of its code
        self.address = CompileResultWAP(decide.overloads[tuple(SIG.args)]).address

    def __wrapper_address__(self) -> int:
        return self.address


_ADDRESS_ENTRIES: dict = {}


def address_entry(decide) -> AddressEntry:
    """The one AddressEntry of a compiled decision function."""
    entry = _ADDRESS_ENTRIES.get(id(decide))
    if entry is None or entry.decide is not decide:
        entry = _ADDRESS_ENTRIES[id(decide)] = AddressEntry(decide)
    return entry


def deck_matrix(decks, rules: Rules) -> np.ndarray:
    if decks is None or len(decks) == 0:
        return np.zeros((0, rules.num_cards), dtype=np.int64)
    return np.ascontiguousarray(np.stack(decks).astype(np.int64))


def play_seated(rules: Rules, strategies, seed: int, game_ids, deal_ids, seating, decks=None,
                block: int = 256) -> dict:
    """Play games on the numba engine, seat s of game i playing ``strategies[seating[i, s]]``.

    Game i shuffles its decks from (seed, deal_ids[i]) unless `decks` (rounds rows per
    game, in order) is given; its strategies draw from (seed, game_ids[i]) streams.
    Raises IllegalMoveError naming the first game (in order) with an illegal move.
    """
    if any(plays_in_python(s) for s in strategies):
        return play_seated_reference(rules, strategies, seed, game_ids, deal_ids, seating, decks)
    distinct, index = distinct_strategies(strategies)
    fns, is_basic, params = strategy_inputs(distinct)
    game_ids = np.ascontiguousarray(game_ids, dtype=np.int64)
    deal_ids = np.ascontiguousarray(deal_ids, dtype=np.int64)
    seating = np.ascontiguousarray(seating, dtype=np.int8)
    engine_seating = engine_seats(index, seating)
    n_games = len(game_ids)
    places = np.zeros((n_games, rules.players), dtype=np.int8)
    actions = np.zeros(n_games, dtype=np.int32)
    burns = np.zeros(n_games, dtype=np.int16)
    pickups = np.zeros(n_games, dtype=np.int16)
    stalled = np.zeros(n_games, dtype=np.int8)
    errors = np.zeros(n_games, dtype=np.int64)
    with ENGINE_LOCK:
        drivers.play_batch(fns, is_basic, params, rules_header(rules), seed, game_ids, deal_ids, engine_seating,
                      deck_matrix(decks, rules), block, places, actions, burns, pickups, stalled, errors)
    bad = np.flatnonzero(errors)
    if len(bad):
        i = int(bad[0])
        seats = [strategies[int(k)] for k in seating[i]]
        game_decks = None if decks is None else decks[i * rules.rounds: (i + 1) * rules.rounds]
        raise illegal_move(rules, seats, seed, int(game_ids[i]), int(deal_ids[i]), game_decks, int(errors[i]))
    return dict(places=places, actions=actions, burns=burns, pickups=pickups, stalled=stalled.astype(bool))


def illegal_move(rules: Rules, seats, seed: int, game: int, deal: int, decks, error: int) -> IllegalMoveError:
    """The error of the numba engine's illegal move `error` (reason * 16 + seat) in one game. Its cause may be
    the strategy's code rather than its choice (a float returned and truncated, an array read past its end):
    the game is played again on the reference engine, where the strategy's Python function shows such a
    fault (``game.strategy_faults``). Only where every seat plays at engine speed: the search in Python would
    take hours."""
    seat, reason = error % 16, error // 16
    found = IllegalMoveError(illegal_message(seats[seat].label, seat, game, seed, reason))
    if any(s.strategy.work is not None for s in seats):
        return found
    from idiotsim.game.reference import play_match
    from idiotsim.game.rng import shuffled_deck
    if decks is None:
        decks = [shuffled_deck(seed, deal, r, rules.decks) for r in range(rules.rounds)]
    try:
        play_match(decks, rules, seats, seed, game)
    except StrategyFault as fault:
        return fault
    except IllegalMoveError:
        pass
    return found


def engine_seats(index: np.ndarray, seating: np.ndarray) -> np.ndarray:
    """``index[seating]`` as int8 (the engine's strategy of each seat), without numpy's intp copy of the
    seating that fancy indexing makes: for a large chunk the page faults of its fresh memory cost more
    than the gather itself."""
    if np.array_equal(index, np.arange(len(index))):
        return seating
    seats = np.empty_like(seating)
    for strategy, engine_strategy in enumerate(index.tolist()):
        np.copyto(seats, engine_strategy, where=seating == strategy, casting="unsafe")
    return seats


def plays_in_python(seat_strategy) -> bool:
    """A strategy without a compiled decision function (an OpenSpiel bot, say): its games are played
    on the reference engine, which calls a strategy's Python function."""
    return not hasattr(seat_strategy.strategy.decide, "signatures")


def play_seated_reference(rules: Rules, strategies, seed: int, game_ids, deal_ids, seating, decks=None) -> dict:
    """`play_seated` on the reference engine, game after game: the same decks, random streams and results."""
    from idiotsim.game.reference import play_match
    from idiotsim.game.rng import shuffled_deck
    n_games = len(game_ids)
    places = np.zeros((n_games, rules.players), dtype=np.int8)
    stats = {name: np.zeros(n_games, dtype=dtype) for name, dtype in
             (("actions", np.int32), ("burns", np.int16), ("pickups", np.int16), ("stalled", bool))}
    for i, (game, deal) in enumerate(zip(np.asarray(game_ids).tolist(), np.asarray(deal_ids).tolist())):
        if decks is not None:
            game_decks = decks[i * rules.rounds: (i + 1) * rules.rounds]
        else:
            game_decks = [shuffled_deck(seed, deal, r, rules.decks) for r in range(rules.rounds)]
        result = play_match(game_decks, rules, [strategies[int(k)] for k in seating[i]], seed, game)
        places[i] = result.places
        for name in stats:
            stats[name][i] = getattr(result, name)
    return dict(places=places, **stats)


def play_games(rules: Rules, seats, seed: int, first_game: int, n_games: int, decks=None,
               block: int = 256) -> dict:
    """Games first_game .. first_game + n_games - 1 with a fixed strategy per seat.

    Game g deals from (seed, g) unless `decks` (rounds x n_games decks, in order) is given.
    """
    ids = np.arange(first_game, first_game + n_games, dtype=np.int64)
    seating = np.tile(np.arange(rules.players, dtype=np.int8), (n_games, 1))
    return play_seated(rules, seats, seed, ids, ids, seating, decks, block)


def trace_game(rules: Rules, seats, seed: int, game: int, decks=None, deal: int | None = None,
               max_events: int | None = None, stopped: list | None = None):
    """One match on the numba engine with recording: (events, observation checksums, places). A strategy's
    illegal move raises UserError; the events played before it are appended to `stopped` first."""
    fns, is_basic, params = strategy_inputs(seats, by_address=True)  # one game: see AddressEntry
    capacity = max_events or (rules.action_limit + 2 * rules.players + 2) * rules.rounds + 8
    log_capacity = capacity + rules.players * rules.rounds
    state = np.zeros(layout.STATE_SIZE + capacity * layout.EV_WIDTH + log_capacity, dtype=np.int64)
    state[layout.RECORD], state[layout.TRACE_CAP], state[layout.LOG_CAP] = 1, capacity, log_capacity
    seating = np.arange(rules.players) % len(seats)
    state[layout.SEAT_STRATEGY: layout.SEAT_STRATEGY + rules.players] = seating
    state[layout.SEAT_BASIC: layout.SEAT_BASIC + rules.players] = is_basic[seating]
    places = np.zeros(ob.MAX_PLAYERS, dtype=np.int64)
    matrix = deck_matrix(decks, rules)
    if not drivers.trace_match.signatures:  # compiled on first use only: `run` never needs it
        drivers.trace_match.compile(drivers.TRACE_SIG)
        drivers.trace_match.disable_compile()
    result = drivers.trace_match(fns, params, rules_header(rules), seed, game, game if deal is None else deal,
                            matrix, 0 if len(matrix) else -1, state, places)
    log_start = layout.TRACE + capacity * layout.EV_WIDTH
    trace = state[layout.TRACE: log_start].reshape(capacity, layout.EV_WIDTH)
    events = [event_dict(row, rules.players) for row in trace[: state[layout.N_EVENTS]]]
    if result < 0:
        if stopped is not None:
            stopped.extend(events)
        error = int(state[layout.ERROR]) * 16 + int(state[layout.ERROR_SEAT])
        raise illegal_move(rules, [seats[s] for s in seating], seed, game, game if deal is None else deal,
                           None if len(matrix) == 0 else list(matrix), error)
    checksums = state[log_start: log_start + state[layout.N_OBS]].view(np.uint64)
    return events, [int(x) for x in checksums], [int(p) for p in places[: rules.players]]
