"""The compact rounds (``idiotsim.engine.basic_rounds``) against the engine's general loop and the reference engine.

`basic_rounds` keeps its own compact copy of a round, so it is a second implementation of R13-R18, R20 and
the V-rules a round of `basic` players meets; `rollouts.play_on` and `rollouts.act` are the first, checked
game by game against the reference engine (test_engine_equality.py, test_rollout_speed.py). Here the two
must agree exactly:

- `basic_rollout`, from every 2nd decision of games on the reference engine (a `random` seat makes KNOWN
  cards, long hands and stalls) and from states sampled at them (hands the games never reached), for every
  seat still in: the same place, and the same places, NEXT_PLACE, PLAYERS_IN, ACTIONS and SKIPPED left in
  the state, nothing else written; whole cycles skipped (R20) included;
- `basic_moves`, on the same states with every move the search lists and with codes that are not legal
  moves: the same places, the same refusals (-1), the state left as it was; and all the legal moves in one
  call, as a search makes it;
- the engine's rounds with `basic` at every seat, which play on the compact layout (`play_round`):
  `play_games` against the reference engine in every variant, multi-round matches and stalls included.
"""
from __future__ import annotations

import numpy as np
import pytest
from test_engine_equality import VARIANTS as ENGINE_VARIANTS
from test_rollout_speed import IDS, VARIANTS

from idiotsim.analysis.replayed_states import decision_positions
from idiotsim.engine import basic_rounds
from idiotsim.engine import rollouts as engine_rollouts
from idiotsim.engine import state_layout as layout
from idiotsim.engine.batches import play_games
from idiotsim.engine.memory import data_pointer
from idiotsim.game import observation as ob
from idiotsim.game.moves import CHANCE, PICKUP
from idiotsim.game.reference import play_match
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import load_strategies
from idiotsim.strategies.search import STRATEGY
from idiotsim.strategies.search import pimc as search
from idiotsim.strategies.search import sampler
from numba import njit

SEED = 91
WRITTEN = ([layout.NEXT_PLACE, layout.PLAYERS_IN, ob.ACTIONS, layout.SKIPPED]
           + list(range(ob.PLACE, ob.PLACE + ob.MAX_PLAYERS)))  # what basic_rollout writes


@njit
def compact_rollout(st, seat, searcher):
    return basic_rounds.basic_rollout(data_pointer(st), seat, searcher)


@njit
def compact_moves(st, seat, moves, places):
    return basic_rounds.basic_moves(data_pointer(st), seat, data_pointer(moves), moves.shape[0], data_pointer(places))


@njit
def general_moves(st, seat, moves, places):
    """`basic_moves` by the general loop: each move on a copy of the state, then `play_on_basic`."""
    for i in range(moves.shape[0]):
        roll = st.copy()
        nxt = engine_rollouts.act(roll, seat, moves[i])
        if nxt < 0:
            return -1
        places[i] = engine_rollouts.play_on_basic(roll, nxt, seat)
    return 0


def states(rules: Rules, games: int) -> list:
    """(state, seat to act, obs, hand) at every 2nd TURN or BLIND decision of `games` games with one
    `random` seat, each followed by a state sampled from that seat's view."""
    spec = ",".join("random" if s == 1 else "basic" for s in range(rules.players))
    found = []
    for game in range(games):
        for pos in decision_positions(rules, spec, SEED, game)[::2]:
            truth = pos["state"][: layout.STATE_SIZE].copy()
            sampled = np.zeros(layout.STATE_SIZE, np.int64)
            pool = np.zeros(layout.MAX_CARDS, np.int64)
            rng = np.array([pos["obs"][ob.ACTIONS]], np.uint64)
            assert sampler.sample_state(pos["obs"], pos["hand"], rng, sampled, pool) == 0
            found += [(truth, pos["seat"], pos["obs"], pos["hand"]), (sampled, pos["seat"], pos["obs"], pos["hand"])]
    return found


def listed_moves(obs, hand) -> np.ndarray:
    """Every move the search lists at the decision, and codes that are not moves there."""
    if obs[ob.DECISION] == ob.BLIND:
        present = [obs[ob.BLIND_PRESENT + obs[ob.SEAT] * 3 + i] for i in range(3)]
        return np.array([i for i in range(3) if present[i]] + [i for i in range(3) if not present[i]] + [3, PICKUP])
    moves = np.zeros(search.MAX_MOVES, np.int64)
    n = search.list_search_moves(obs, hand, STRATEGY.params({}), moves)
    wrong = [PICKUP if obs[ob.PILE_SIZE] == 0 else -7, CHANCE, 13, 0x0F, (moves[0] & 15) | 0x90, 0x300 | moves[0]]
    return np.array(list(moves[:n]) + wrong)


@pytest.mark.parametrize("rules", VARIANTS + [Rules(players=4, low_rank=7, action_limit=400)],
                         ids=IDS + ["V1-stalls"])
def test_compact_rollouts_equal_the_general_loop(rules):
    differ, skipped, rollouts = [], 0, 0
    untouched = np.ones(layout.STATE_SIZE, bool)
    untouched[WRITTEN] = False
    for st, seat, _, _ in states(rules, 3):
        for searcher in range(rules.players):
            if st[ob.PLACE + searcher]:
                continue
            compact, general = st.copy(), st.copy()
            place_compact, place_general = compact_rollout(compact, seat, searcher), engine_rollouts.play_on_basic(general, seat, searcher)
            rollouts += 1
            skipped += compact[layout.SKIPPED] > 0
            if (place_compact != place_general or not np.array_equal(compact[WRITTEN], general[WRITTEN])
                    or not np.array_equal(compact[untouched], st[untouched])):
                differ.append((int(st[ob.ACTIONS]), seat, searcher, place_compact, place_general))
    assert not differ, differ[:5]
    assert rollouts > 150
    if rules.action_limit == 400:
        assert skipped > 0  # the cycle check ran and skipped whole cycles


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_compact_moves_equal_the_general_loop(rules):
    differ, refused, judged = [], 0, 0
    for st, seat, obs, hand in states(rules, 2):
        moves = listed_moves(obs, hand)
        before = st.copy()
        for i in range(len(moves)):
            by_compact, by_general = np.zeros(1, np.int64), np.zeros(1, np.int64)
            done_compact = compact_moves(st, seat, moves[i:i + 1].copy(), by_compact)
            done_general = general_moves(st, seat, moves[i:i + 1].copy(), by_general)
            assert np.array_equal(st, before)
            judged += 1
            refused += done_compact < 0
            if done_compact != done_general or (done_compact == 0 and by_compact[0] != by_general[0]):
                differ.append((int(st[ob.ACTIONS]), seat, int(moves[i]), done_compact, done_general))
        legal = np.array([m for m in moves if general_moves(st, seat, np.array([m]), np.zeros(1, np.int64)) == 0],
                         np.int64)
        by_compact, by_general = np.zeros(len(legal), np.int64), np.zeros(len(legal), np.int64)
        done = (compact_moves(st, seat, legal, by_compact), general_moves(st, seat, legal, by_general))
        assert done == (0, 0) and np.array_equal(by_compact, by_general) and np.array_equal(st, before)
    assert not differ, differ[:5]
    assert 0 < refused < judged


@pytest.mark.parametrize("case, fields", [(case, fields) for case, fields, _, _ in ENGINE_VARIANTS],
                         ids=[case for case, _, _, _ in ENGINE_VARIANTS])
def test_all_basic_games_equal_the_reference_engine(case, fields):
    """`play_games` of all-`basic` tables (every round on the compact layout) against the reference engine,
    every variant, multi-round matches (V4, V8) and stalls (R20) included, at every player count: the same
    places, actions, burns, pickups and stalls. (test_engine_equality.py's outcome test leaves the
    multi-round variants out; its trace test records, which takes the engine's own round loop.)"""
    seed, games = 4242, 60
    failures, stalls = [], 0
    for n in (range(2, 11) if fields.get("decks") == 2 else range(2, 6)):
        rules = Rules(players=n, **fields)
        seats = load_strategies("basic", n)
        batch = play_games(rules, seats, seed, 0, games, block=7)
        for g in range(games):
            decks = [shuffled_deck(seed, g, r, rules.decks) for r in range(rules.rounds)]
            ref = play_match(decks, rules, seats, seed, g)
            got = (batch["places"][g].tolist(), int(batch["actions"][g]), int(batch["burns"][g]),
                   int(batch["pickups"][g]), bool(batch["stalled"][g]))
            want = (ref.places, ref.actions, ref.burns, ref.pickups, ref.stalled)
            stalls += ref.stalled
            if got != want:
                failures.append((n, g, got, want))
    assert not failures, failures[:5]
    if fields.get("action_limit") == 40:
        assert stalls > 0
