"""The search's rollouts in C (idiotsim.engine.native, issue 19 item 4) against the numba engine.

`rollout.c` keeps its own compact copy of a round, so it is a second implementation of R13-R18, R20
and the V-rules a rollout of `basic` players meets; `engine.play_on` and `engine.act` are the first,
checked game by game against the reference engine (test_engine_equality.py, test_rollout_speed.py).
Here the two must agree exactly, through the numba twins that serve when no C compiler is found:

- `idiotsim_basic_rollout`, from every 2nd decision of games on the reference engine (a `random` seat
  makes KNOWN cards, long hands and stalls) and from states sampled at them (hands the games never
  reached), for every seat still in: the same place, and the same places, NEXT_PLACE, PLAYERS_IN,
  ACTIONS and SKIPPED left in the state, nothing else written; whole cycles skipped (R20) included.
- `idiotsim_basic_moves`, on the same states with every move the search lists and with codes that are
  not legal moves: the same places, the same refusals (-1), the state left as it was.
- Without a compiler, or with IDIOTSIM_NATIVE=0, the twins serve and a search decides as it does in C;
  a failed build leaves nothing half-written behind, and builds that race share one library.
"""
from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import threading

import numpy as np
import pytest
from test_rollout_speed import IDS, VARIANTS

from idiotsim.engine import kernels as en
from idiotsim.game import observation as ob
from idiotsim.strategies.search import pimc as search
from idiotsim.strategies.search import sampler
from idiotsim.engine.native import build as native_build
from idiotsim.engine.native import rollout as native
from idiotsim.analysis.replayed_states import decision_positions
from idiotsim.game.rules import Rules
from idiotsim.strategies.search import STRATEGY
from idiotsim.game.moves import CHANCE, PICKUP

SEED = 91
POINTER = ctypes.POINTER(ctypes.c_int64)
WRITTEN = ([en.NEXT_PLACE, en.PLAYERS_IN, ob.ACTIONS, en.SKIPPED]
           + list(range(ob.PLACE, ob.PLACE + ob.MAX_PLAYERS)))  # what basic_rollout writes


def pointer(a: np.ndarray):
    return a.ctypes.data_as(POINTER)


@pytest.fixture(scope="module")
def both():
    """(C, numba) for each symbol, callable from Python."""
    if native.MODE != "c":
        pytest.fail(f"the C library is not loaded here ({native.REASON}); CI has a compiler")
    library = ctypes.CDLL(str(native_build.build()))
    twins = native.numba_twins()
    pairs = {}
    for symbol, argtypes in ((native.basic_rollout.symbol, [POINTER, ctypes.c_int64, ctypes.c_int64]),
                             (native.basic_moves.symbol,
                              [POINTER, ctypes.c_int64, POINTER, ctypes.c_int64, POINTER])):
        c = getattr(library, symbol)
        c.restype, c.argtypes = ctypes.c_int64, argtypes
        pairs[symbol] = (c, twins[symbol].ctypes)
    return pairs


def states(rules: Rules, games: int) -> list:
    """(state, seat to act, obs, hand) at every 2nd TURN or BLIND decision of `games` games with one
    `random` seat, each followed by a state sampled from that seat's view."""
    spec = ",".join("random" if s == 1 else "basic" for s in range(rules.players))
    found = []
    for game in range(games):
        for pos in decision_positions(rules, spec, SEED, game)[::2]:
            truth = pos["state"][: en.STATE_SIZE].copy()
            sampled = np.zeros(en.STATE_SIZE, np.int64)
            pool = np.zeros(en.MAX_CARDS, np.int64)
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
def test_c_rollouts_equal_the_numba_engine(rules, both):
    c, twin = both[native.basic_rollout.symbol]
    differ, skipped, rollouts = [], 0, 0
    for st, seat, _, _ in states(rules, 3):
        for searcher in range(rules.players):
            if st[ob.PLACE + searcher]:
                continue
            by_c, by_numba = st.copy(), st.copy()
            place_c, place_numba = c(pointer(by_c), seat, searcher), twin(pointer(by_numba), seat, searcher)
            rollouts += 1
            skipped += by_c[en.SKIPPED] > 0
            untouched = np.ones(en.STATE_SIZE, bool)
            untouched[WRITTEN] = False
            if (place_c != place_numba or not np.array_equal(by_c[WRITTEN], by_numba[WRITTEN])
                    or not np.array_equal(by_c[untouched], st[untouched])):
                differ.append((int(st[ob.ACTIONS]), seat, searcher, place_c, place_numba))
    assert not differ, differ[:5]
    assert rollouts > 150
    if rules.action_limit == 400:
        assert skipped > 0  # the cycle check ran and skipped whole cycles


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_c_moves_equal_the_numba_engine(rules, both):
    c, twin = both[native.basic_moves.symbol]
    differ, refused, judged = [], 0, 0
    for st, seat, obs, hand in states(rules, 2):
        moves = listed_moves(obs, hand)
        for i in range(len(moves)):
            places_c, places_numba = np.zeros(1, np.int64), np.zeros(1, np.int64)
            before = st.copy()
            done_c = c(pointer(st), seat, pointer(moves[i:]), 1, pointer(places_c))
            done_numba = twin(pointer(st), seat, pointer(moves[i:]), 1, pointer(places_numba))
            assert np.array_equal(st, before)
            judged += 1
            refused += done_c < 0
            if done_c != done_numba or (done_c == 0 and places_c[0] != places_numba[0]):
                differ.append((int(st[ob.ACTIONS]), seat, int(moves[i]), done_c, done_numba, places_c, places_numba))
    assert not differ, differ[:5]
    assert 0 < refused < judged


CHILD = """
import json, sys, numpy as np
from idiotsim.engine.native import rollout
from idiotsim.strategies.search import pimc as search
from idiotsim.strategies.search import STRATEGY
cases = json.loads(sys.stdin.read())
params = STRATEGY.params({"rollouts": 8})
moves = [int(STRATEGY.decide(np.array(o), np.array(h), params, np.array([s], np.uint64))) for o, h, s in cases]
print(json.dumps([rollout.MODE, rollout.REASON, moves]))
"""


def decide_in_child(cases: list, **environ) -> tuple:
    import json
    done = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(cases), capture_output=True, text=True,
                          env={**os.environ, **environ}, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return tuple(json.loads(done.stdout.strip().splitlines()[-1]))


def test_the_numba_twins_serve_without_a_compiler_and_decide_alike(tmp_path):
    """IDIOTSIM_NATIVE=0, and a compiler that fails (a fresh cache, so the build is tried): the
    twins serve, and `search` makes the decisions it makes in C, stream for stream."""
    found = [p for p in decision_positions(Rules(players=4), "basic", SEED, 0) if p["obs"][ob.DECISION] == ob.TURN]
    cases = [(p["obs"].tolist(), p["hand"].tolist(), k) for k, p in enumerate(found[:12])]
    params = STRATEGY.params({"rollouts": 8})
    in_c = [int(STRATEGY.decide(np.array(o), np.array(h), params, np.array([s], np.uint64))) for o, h, s in cases]
    assert native.MODE == "c"
    mode, reason, moves = decide_in_child(cases, IDIOTSIM_NATIVE="0")
    assert (mode, reason, moves) == ("numba", "IDIOTSIM_NATIVE=0", in_c)
    mode, reason, moves = decide_in_child(cases, CC="false", XDG_CACHE_HOME=str(tmp_path))
    assert (mode, moves) == ("numba", in_c) and reason.startswith("false failed")
    assert not list(tmp_path.rglob("*.so"))  # nothing half-written left behind


def test_racing_builds_share_one_library(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    built = []
    workers = [threading.Thread(target=lambda: built.append(native_build.build())) for _ in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(built) == 3 and len(set(built)) == 1
    assert [p.name for p in built[0].parent.iterdir()] == ["rollout.so"]
    ctypes.CDLL(str(built[0])).idiotsim_basic_moves  # a whole library
