"""``idiotsim.strategies.toolkit``: the accessors read what their names say, the helpers agree
with plain-Python readings of docs/rules.md on observations from real games, knobs
read by name are the right knobs, and the strategy modules form no import cycle
and define each shared constant once.
"""
from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from idiotsim.game import observation as ob
from idiotsim.strategies import toolkit as tk
from idiotsim.game.cards import BASIC_KEY, ORDINARY_RANKS, TEN, TWO
from idiotsim.game.reference import legal_ranks, play_match
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.strategies.loading import load_strategy

ROOT = Path(__file__).resolve().parents[2]
SEED = 77


def observations(rules: Rules, games: int = 12) -> list:
    """(obs, hand) of every decision in reference games of basic and random seats."""
    seen = []

    class Recorder:  # stands in for a compiled decide in the reference engine (which calls py_func)
        def __init__(self, decide):
            self.decide = decide

        def py_func(self, obs, hand, params, rng):
            seen.append((obs.copy(), hand.copy()))
            return int(self.decide(obs, hand, params, rng))

    seats = [load_strategy("random" if p % 2 else "basic") for p in range(rules.players)]
    seats = [dataclasses.replace(s, strategy=dataclasses.replace(s.strategy, decide=Recorder(s.strategy.decide)))
             for s in seats]
    for game in range(games):
        decks = [shuffled_deck(SEED, game, r, rules.decks) for r in range(rules.rounds)]
        play_match(decks, rules, seats, SEED, game)
    return seen


@pytest.fixture(scope="module")
def table():
    rules = Rules(players=5, chance=True, last_hand_with_faceup=True, low_rank=7)
    return rules, observations(rules)


def test_accessors_read_their_fields(table):
    _, seen = table
    for o, h in seen:
        n = o[ob.PLAYERS]
        assert (tk.decision(o), tk.my_seat(o), tk.player_count(o), tk.source(o)) == (
            o[ob.DECISION], o[ob.SEAT], n, o[ob.SOURCE])
        assert (tk.pile_top(o), tk.pile_run(o), tk.pile_size(o), tk.talon_size(o), tk.must_play(o)) == (
            o[ob.PILE_TOP], o[ob.PILE_RUN], o[ob.PILE_SIZE], o[ob.TALON_SIZE], o[ob.MUST_PLAY])
        assert (tk.can_pick_up(o), tk.can_chance(o), tk.deck_count(o)) == (
            o[ob.CAN_PICKUP] == 1, o[ob.CAN_CHANCE] == 1, o[ob.DECKS])
        for r in range(13):
            assert tk.pile_count(o, r) == o[ob.PILE_COUNTS + r] and tk.burned_count(o, r) == o[ob.BURNED + r]
        for s in range(n):
            assert tk.hand_size(o, s) == o[ob.HAND_SIZE + s] and tk.faceup_size(o, s) == o[ob.FACEUP_SIZE + s]
            assert tk.blind_size(o, s) == o[ob.BLIND_SIZE + s] and tk.is_in(o, s) == (o[ob.PLACE + s] == 0)
            assert tk.cards_held(o, s) == tk.hand_size(o, s) + tk.faceup_size(o, s) + tk.blind_size(o, s)
            assert (tk.pickup_legal(o, s), tk.pickup_free(o, s)) == (o[ob.PICKUP_LEGAL + s], o[ob.PICKUP_FREE + s])
            assert (tk.lacks(o, s), tk.lacks_free(o, s)) == (o[ob.LACKS + s], o[ob.LACKS_FREE + s])
            assert tk.unknown_in_hand(o, s) == o[ob.HAND_SIZE + s] - o[ob.KNOWN + 13 * s: ob.KNOWN + 13 * s + 13].sum()
            for r in range(13):
                assert tk.faceup_count(o, s, r) == o[ob.FACEUP + 13 * s + r]
                assert tk.known_count(o, s, r) == o[ob.KNOWN + 13 * s + r]
            for p in range(3):
                assert tk.blind_present(o, s, p) == (o[ob.BLIND_PRESENT + 3 * s + p] == 1)
            assert tk.faceup_ranks(o, s) == sum(1 << r for r in range(13) if o[ob.FACEUP + 13 * s + r])
            assert tk.known_ranks(o, s) == sum(1 << r for r in range(13) if o[ob.KNOWN + 13 * s + r])


def held(o, h, r) -> int:
    if o[ob.SOURCE] == ob.SRC_HAND:
        return int(h[r])
    return int(o[ob.FACEUP + 13 * o[ob.SEAT] + r]) if o[ob.SOURCE] == ob.SRC_FACEUP else 0


def test_play_helpers_follow_the_rules(table):
    rules, seen = table
    turns = [(o, h) for o, h in seen if o[ob.DECISION] == ob.TURN]
    assert len(turns) > 500
    for o, h in turns:
        top = None if o[ob.PILE_TOP] < 0 else int(o[ob.PILE_TOP])
        assert tk.followers(o, o[ob.PILE_TOP]) == legal_ranks(top, rules) == o[ob.LEGAL]
        must = o[ob.MUST_PLAY]
        playable = [r for r in range(13) if held(o, h, r) and (o[ob.LEGAL] >> r) & 1]
        assert [r for r in range(13) if tk.can_play(o, h, r)] == [r for r in playable if must < 0 or r == must]
        ordinary = [r for r in playable if r in ORDINARY_RANKS]
        assert tk.lowest_playable_ordinary(o, h) == (min(ordinary) if ordinary else tk.NO_RANK)
        mask = tk.playable_mask(o, h)
        assert tk.highest_rank(mask) == (max(playable) if playable else tk.NO_RANK)
        for r in playable:
            action = tk.play_all(o, h, r)
            count, extra = (action >> 4) & 15, action >> 8
            assert action & 15 == r and count == held(o, h, r)
            empties_hand = o[ob.SOURCE] == ob.SRC_HAND and o[ob.TALON_SIZE] == 0 and count == h.sum()
            assert extra == (o[ob.FACEUP + 13 * o[ob.SEAT] + r] if empties_hand else 0)  # V11
            limited = (tk.play_at_most(o, h, r, 1) >> 4) & 15
            assert limited == (1 if o[ob.SOURCE] == ob.SRC_HAND and o[ob.TALON_SIZE] > 0 else count)


@njit
def _ranks_present_at(counts, start):
    return tk.ranks_present(counts, start)


def test_ranks_present_reads_exactly_the_13_counts_from_start():
    rng = np.random.default_rng(19)
    for _ in range(500):
        counts = rng.integers(-2, 4, size=40).astype(np.int64)
        start = int(rng.integers(0, 40 - 13 + 1))
        expected = sum(1 << r for r in range(13) if counts[start + r] > 0)
        assert _ranks_present_at(counts, start) == expected


def test_table_helpers(table):
    _, seen = table
    for o, h in seen:
        n, me = o[ob.PLAYERS], o[ob.SEAT]
        still_in = [s for s in range(n) if o[ob.PLACE + s] == 0]
        later = [(me + i) % n for i in range(1, n) if (me + i) % n in still_in]
        assert tk.next_seat_in(o) == (later[0] if later else me)
        opponents = [tk.cards_held(o, s) for s in still_in if s != me]
        assert tk.smallest_opponent_hand(o) == (min(opponents) if opponents else 0)
        if o[ob.DECISION] == ob.BLIND:
            assert tk.lowest_blind(o) == list(o[ob.BLIND_PRESENT + 3 * me: ob.BLIND_PRESENT + 3 * me + 3]).index(1)


def test_swap_helpers(table):
    _, seen = table
    swaps = [(o, h) for o, h in seen if o[ob.DECISION] == ob.SWAP]
    assert len(swaps) > 20
    for o, h in swaps:
        row = o[ob.FACEUP + 13 * o[ob.SEAT]: ob.FACEUP + 13 * o[ob.SEAT] + 13]
        six = sorted([r for r in range(13) for _ in range(h[r] + row[r])], key=lambda r: BASIC_KEY[r])
        best = tk.swap_best(o, h, tk.BASIC_PREFERENCE)
        assert sorted([best % 13, best // 13 % 13, best // 169]) == sorted(six[3:])  # docs/rules.md: basic's swap
        kept = tk.swap_keep_deal(o)
        assert sorted([kept % 13, kept // 13 % 13, kept // 169]) == [r for r in range(13) for _ in range(row[r])]


def test_knobs_read_by_name_are_the_right_knobs():
    knobs = (tk.Knob("alpha", 1, 0, 9, "a"), tk.Knob("beta", 2, 0, 9, "b"), tk.Knob("gamma", 3, 0, 9, "c"))
    K = tk.knob_ids(knobs)
    assert (K.alpha, K.beta, K.gamma) == (0, 1, 2) and K._fields == ("alpha", "beta", "gamma")

    @njit
    def beta_minus_gamma(params):
        return params[K.beta] - params[K.gamma]

    assert beta_minus_gamma(np.array([10.0, 20.0, 5.0])) == 15.0
    preset = tk.Preset("tuned", beta=4)
    assert preset == {"beta": 4} and preset.summary == "tuned"


# ---- the modules (their layers and cycles: tests/test_layers.py) --------------------------------

def test_every_strategy_module_imports_first_in_a_fresh_interpreter():
    """A cycle shows as an ImportError when one particular module is imported first (the search's kernels
    were such a module): the modules that import a strategy family from outside its own module."""
    first = ("idiotsim.strategies.search.pimc", "idiotsim.strategies.search", "idiotsim.strategies.learned.policy",
             "idiotsim.strategies.search.gate", "idiotsim.strategies.basic", "idiotsim.strategies.loading",
             "idiotsim.strategy_api", "idiotsim.strategies.toolkit")
    script = "; ".join(f"subprocess.run([sys.executable, '-c', 'import {m}'], check=True)" for m in first)
    subprocess.run([sys.executable, "-c", f"import subprocess, sys; {script}"], check=True, cwd=ROOT)


@pytest.mark.parametrize("constant", ["TWO", "TEN", "SIX", "HAND_TARGET", "MAX_PLAYERS", "BASIC_KEY", "NR",
                                      "ORDINARY"])
def test_each_shared_constant_is_defined_once(constant):
    defined = []
    for path in sorted((ROOT / "idiotsim").rglob("*.py")) + sorted((ROOT / "strategies").rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            names += [e.id for t in targets if isinstance(t, ast.Tuple) for e in t.elts if isinstance(e, ast.Name)]
            if constant in names:
                defined.append(path.name)
    assert len(defined) <= 1, defined
    assert TWO == 0 and TEN == 8


def test_a_shipped_strategy_unpickles_in_a_new_process_with_its_disk_cache(tmp_path):
    """A Dask worker gets its strategies pickled: a shipped family's decision function must arrive as
    the module's own cached function, not a by-value copy that the worker compiles again."""
    import pickle
    import subprocess
    import sys
    from idiotsim.strategies.loading import load_strategy
    seat = load_strategy("learned-search-4p")
    (tmp_path / "seat.pkl").write_bytes(pickle.dumps(seat))
    code = ("import pickle, sys, importlib; seat = pickle.load(open(sys.argv[1], 'rb')); d = seat.decide; "
            "print(d is importlib.import_module(d.__module__).decide, type(d._cache).__name__, seat.label)")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "seat.pkl")], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "FunctionCache", "learned-search-4p"]
    assert (pickle.loads(pickle.dumps(seat)).params == seat.params).all()
