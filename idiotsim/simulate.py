"""Python entry points to the numba engine: batches of games and single traced games."""
from __future__ import annotations

import numpy as np

from idiotsim import engine as en
from idiotsim import observation as ob
from idiotsim.cards import RANK_NAMES
from idiotsim.errors import IllegalMoveError
from idiotsim.observation import MAX_PLAYERS
from idiotsim.reference import illegal_message
from idiotsim.rules import Rules

SOURCE_NAMES = ("hand", "faceup", "blind", "talon")


def rules_header(rules: Rules) -> np.ndarray:
    header = np.zeros(ob.OBS_SIZE, dtype=np.int64)
    ob.rules_to_header(rules, header)
    return header


def engine_inputs(rules: Rules, seats) -> tuple:
    """The strategy tuple (padded to MAX_PLAYERS seats), the params matrix and the rules header."""
    fns = tuple(s.decide for s in seats) + (seats[0].decide,) * (MAX_PLAYERS - len(seats))
    width = max([len(s.params) for s in seats] + [1])
    params = np.zeros((MAX_PLAYERS, width), dtype=np.float64)
    for i, s in enumerate(seats):
        params[i, : len(s.params)] = s.params
    return fns, params, rules_header(rules)


def deck_matrix(decks, rules: Rules) -> np.ndarray:
    if decks is None or len(decks) == 0:
        return np.zeros((0, rules.num_cards), dtype=np.int64)
    return np.ascontiguousarray(np.stack(decks).astype(np.int64))


def play_games(rules: Rules, seats, seed: int, first_game: int, n_games: int, decks=None,
               block: int = 256) -> dict:
    """Play a batch on the numba engine; returns per-game result arrays.

    With `decks` (rounds x n_games deck arrays, in order) the games play those
    decks; otherwise game i shuffles its own from (seed, first_game + i).
    Raises IllegalMoveError naming the first game (by index) with an illegal move.
    """
    fns, params, header = engine_inputs(rules, seats)
    places = np.zeros((n_games, rules.players), dtype=np.int64)
    actions = np.zeros(n_games, dtype=np.int64)
    burns = np.zeros(n_games, dtype=np.int64)
    pickups = np.zeros(n_games, dtype=np.int64)
    stalled = np.zeros(n_games, dtype=np.int64)
    errors = np.zeros(n_games, dtype=np.int64)
    en.play_batch(fns, params, header, seed, first_game, n_games, deck_matrix(decks, rules), block,
                  places, actions, burns, pickups, stalled, errors)
    bad = np.flatnonzero(errors)
    if len(bad):
        i = int(bad[0])
        seat = int(errors[i] % 16)
        raise IllegalMoveError(illegal_message(seats[seat].label, seat, first_game + i, seed, int(errors[i] // 16)))
    return dict(places=places, actions=actions, burns=burns, pickups=pickups, stalled=stalled.astype(bool))


def trace_game(rules: Rules, seats, seed: int, game: int, decks=None, max_events: int | None = None):
    """One match on the numba engine with recording: (events, observation checksums, places)."""
    fns, params, header = engine_inputs(rules, seats)
    capacity = max_events or (rules.action_limit + 2 * rules.players + 2) * rules.rounds + 8
    trace = np.zeros((capacity, en.EV_WIDTH), dtype=np.int64)
    obs_log = np.zeros(capacity + rules.players * rules.rounds, dtype=np.uint64)
    places = np.zeros(MAX_PLAYERS, dtype=np.int64)
    state = np.zeros(en.GAME_SIZE, dtype=np.int64)
    matrix = deck_matrix(decks, rules)
    result = en.trace_match(fns, params, header, seed, game, matrix, 0 if len(matrix) else -1,
                            trace, obs_log, places, state)
    if result < 0:
        seat = int(state[en.ERROR_SEAT])
        raise IllegalMoveError(illegal_message(seats[seat].label, seat, game, seed, int(state[en.ERROR])))
    events = [event_dict(row, rules.players) for row in trace[: state[en.N_EVENTS]]]
    return events, [int(x) for x in obs_log[: state[en.N_OBS]]], [int(p) for p in places[: rules.players]]


def _ranks(code: int) -> list:
    return [RANK_NAMES[code // 169], RANK_NAMES[code // 13 % 13], RANK_NAMES[code % 13]]


def event_dict(row, n: int) -> dict:
    """A recorded event as the RULES.md trace dict."""
    kind, rnd, seat = int(row[0]), int(row[1]), int(row[2])
    if kind == en.EV_SWAP:
        return {"round": rnd, "seat": seat, "action": "swap", "faceup": _ranks(int(row[3])), "hand": _ranks(int(row[4]))}
    if kind == en.EV_PLAY:
        return {"round": rnd, "seat": seat, "action": "play", "from": SOURCE_NAMES[row[3]],
                "rank": RANK_NAMES[row[4]], "count": int(row[5]), "burn": bool(row[6])}
    if kind == en.EV_PICKUP:
        event = {"round": rnd, "seat": seat, "action": "pickup"}
        if row[3] >= 0:
            event.update({"from": SOURCE_NAMES[row[3]], "rank": RANK_NAMES[row[4]]})
        event["cards"] = int(row[5])
        return event
    if kind == en.EV_OUT:
        return {"round": rnd, "seat": seat, "action": "out", "place": int(row[3])}
    return {"round": rnd, "action": "end", "places": [int(p) for p in row[3: 3 + n]], "stalled": bool(seat)}
