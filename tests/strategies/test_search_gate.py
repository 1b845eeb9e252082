"""The gated search (issue 18: `search`'s `gate` and `top` knobs, the learned swap `swap=3`;
strategies/search/gate.py).

- `gate=-1` with the learned swap is the learned player exactly: decision by decision (turns, blind
  flips) on positions of several variants and table sizes, for both shipped models, drawing nothing
  from the stream; and whole games (the swap too) on the numba engine, at 2 and 4 players.
- The gate on with every move kept (`gate` off, `top` >= the moves) is the search exactly, decision
  and stream.
- In between, each turn is the learned move when the model's best leads the runner-up by more than
  `gate` (nothing drawn), else the search over the `top` best-scored moves (`keep_top`), which is the
  search over those moves alone.
- A decision depends only on what the seat has seen (tests/strategies/test_search.py's hidden-card moves).
- The generic checks (legal in every variant, identical decisions in both engines, deterministic) on
  a small budget, for the shipped presets' knobs (`learned-search-Np`) at K = 2 and for `prior`; the
  default knobs append nothing to params but the zero constraint block (every shipped report unchanged).
"""
from __future__ import annotations

import numpy as np
import pytest

from idiotsim.game import observation as ob
from idiotsim.strategies.search import pimc as search, gate as search_gate
from idiotsim.strategies.strategy_checks import check_strategy
from idiotsim.strategies.learned import policy
from idiotsim.analysis.replayed_states import decision_positions
from idiotsim.game.rng import new_state
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_seated
from idiotsim.strategies.learned import LEARNED
from idiotsim.strategies.learned.learned_knobs import TABLE_MODELS
from idiotsim.strategies.search import KNOBS, STRATEGY, search_knobs
from idiotsim.strategies.constraints import CONSTRAINT_SIZE
from idiotsim.strategies.loading import load_strategy
from test_search import check_legal_state, with_hidden_cards_moved

SEED = 1819
RULES = [Rules(players=4), Rules(players=2), Rules(players=3, chance=True),
         Rules(players=5, last_hand_with_faceup=True, low_rank=7)]


def rules_id(rules: Rules) -> str:
    return f"{rules.players}p" + ("-variant" if rules != Rules(players=rules.players) else "")


@pytest.fixture(scope="module", params=RULES, ids=rules_id)
def rules_positions(request):
    """Every 2nd decision (turn, blind) of 3 games: the learned player at seat 0, `random` at seat 1
    (pickups by choice, KNOWN cards), basic elsewhere."""
    rules = request.param
    spec = ",".join(["learned-4p", "random"] + ["basic"] * (rules.players - 2))
    found = [p for g in range(3) for p in decision_positions(rules, spec, SEED, g)]
    return rules, found[::2]


def decide(strategy, params, pos, seed: int, obs=None):
    """(decision, the stream afterwards)."""
    stream = new_state(seed, 0, 0)
    obs = pos["obs"] if obs is None else obs
    move = strategy.decide(obs.copy(), pos["hand"].copy(), params, stream)
    return int(move), stream.tolist()


def turn_scores(params, pos):
    """The search's turn moves and the learned model's score of each."""
    moves = np.zeros(search.MAX_MOVES, np.int64)
    n = search.list_search_moves(pos["obs"], pos["hand"], params, moves)
    scores = np.zeros(n)
    search_gate.learned_scores(pos["obs"], pos["hand"], params, search_knobs.LEARNED_AT, moves, n, scores)
    return moves[:n], scores


def test_the_knobs_and_the_learned_params_layout():
    names = [k.name for k in KNOBS]
    assert [names[k] for k in (search_knobs.K.gate, search_knobs.K.top, search_knobs.K.prior, search_knobs.K.swap)] == \
        ["gate", "top", "prior", "swap"]
    assert search_knobs.LEARNED_AT == len(KNOBS) + CONSTRAINT_SIZE and len(STRATEGY.params()) == search_knobs.LEARNED_AT
    assert not STRATEGY.params()[search_knobs.CONSTRAINTS_AT:].any()  # the block: zeros, no constraint
    assert search_gate.SCORE_WIDTH == policy.MAX_WIDTH
    for values in ({"gate": 0.05}, {"top": 2}, {"prior": 1}, {"swap": search_knobs.SWAP_LEARNED}):
        for model in (0, 1):
            params = STRATEGY.params({**values, "rollout_model": model})
            assert np.array_equal(params[search_knobs.LEARNED_AT:], LEARNED.params({"model": model}))


@pytest.mark.parametrize("model", [0, 1])
def test_gate_minus_one_is_the_learned_player_decision_by_decision(rules_positions, model):
    _, found = rules_positions
    gated = STRATEGY.params({"gate": -1, "swap": search_knobs.SWAP_LEARNED, "rollout_model": model})
    learned = LEARNED.params({"model": model})
    for pos in found:
        seed = int(pos["obs"][ob.ACTIONS])
        assert decide(STRATEGY, gated, pos, seed) == decide(LEARNED, learned, pos, seed)


@pytest.mark.parametrize("players", [2, 4])
def test_gate_minus_one_plays_the_learned_players_games(players):
    rules = Rules(players=players)
    ids = np.arange(24)
    seating = np.zeros((24, players), np.int8)
    seating[np.arange(24), ids % players] = 1
    model = TABLE_MODELS.get(players, (0,))[0]  # the learned-Np preset's model: the table's own where it has one
    results = [play_seated(rules, [load_strategy("basic"), load_strategy(spec)], SEED, ids, ids, seating)
               for spec in (f"learned-{players}p", f"search:gate=-1,swap=3,rollout_model={model}")]
    for key in results[0]:
        assert np.array_equal(results[0][key], results[1][key]), key


def test_every_move_kept_is_the_search_decision_and_stream(rules_positions):
    _, found = rules_positions
    plain = STRATEGY.params({"rollouts": 2})
    kept = STRATEGY.params({"rollouts": 2, "top": search.MAX_MOVES})
    assert len(kept) > len(plain)  # the model is read: the gate's scoring runs
    for pos in found[::2]:
        seed = int(pos["obs"][ob.ACTIONS])
        assert decide(STRATEGY, kept, pos, seed) == decide(STRATEGY, plain, pos, seed)


def test_keep_top_keeps_the_best_scored_moves_in_their_order_or_best_first():
    moves = np.arange(10, 16)
    scores = np.array([0.1, 0.5, -0.2, 0.5, 0.3, 0.0])
    every = list(range(10, 16))
    for top, kept, by_score in ((1, [11], [11]), (2, [11, 13], [11, 13]), (3, [11, 13, 14], [11, 13, 14]),
                                (4, [10, 11, 13, 14], [11, 13, 14, 10]), (0, every, [11, 13, 14, 10, 15, 12]),
                                (9, every, [11, 13, 14, 10, 15, 12])):
        for prior, expected in ((False, kept), (True, by_score)):
            m = moves.copy()
            n = search_gate.keep_top(m, scores, np.zeros(12, np.int64), 6, top, prior)
            assert m[:n].tolist() == expected, (top, prior)


@pytest.mark.parametrize("gate, top", [(0.02, 0), (0.05, 2), (1000.0, 1)])
def test_a_clear_turn_is_the_learned_move_and_a_close_one_the_search_over_the_top_moves(rules_positions, gate, top):
    """lead > gate: the learned player's move, no draw; else the search over the `top` best moves, which
    (with the same stream) is the search over those moves alone; top = 1 is the learned move."""
    _, found = rules_positions
    params = STRATEGY.params({"rollouts": 2, "gate": gate, "top": top})
    learned = LEARNED.params()
    clear = close = 0
    for pos in found:
        if pos["obs"][ob.DECISION] != ob.TURN:
            continue
        moves, scores = turn_scores(params, pos)
        if len(moves) < 2:
            continue
        seed = int(pos["obs"][ob.ACTIONS])
        move, stream = decide(STRATEGY, params, pos, seed)
        ranked = sorted(range(len(moves)), key=lambda i: (-scores[i], i))
        if scores[ranked[0]] - scores[ranked[1]] > gate:
            clear += 1
            assert (move, stream) == decide(LEARNED, learned, pos, seed)
            assert stream == new_state(seed, 0, 0).tolist()
        else:
            close += 1
            best = sorted(ranked[:top]) if top else list(range(len(moves)))
            assert move in moves[best].tolist()
            if top == 1 and pos["obs"][ob.ACTIONS] < policy.LONG_ROUND:
                assert move == decide(LEARNED, learned, pos, seed)[0]
    assert close > 0 and (clear > 0 or gate == 1000.0)


def test_a_gated_decision_depends_only_on_what_the_seat_has_seen(rules_positions):
    _, found = rules_positions
    rng = np.random.default_rng(5)
    params = STRATEGY.params({"rollouts": 2, "gate": 0.03, "top": 3, "swap": search_knobs.SWAP_LEARNED})
    for pos in found[::2]:
        truth = pos["state"]
        other = with_hidden_cards_moved(truth, pos["seat"], rng)
        check_legal_state(other, pos["obs"], pos["hand"])
        seed = int(pos["obs"][ob.ACTIONS])
        assert decide(STRATEGY, params, pos, seed, truth[: ob.OBS_SIZE]) == \
            decide(STRATEGY, params, pos, seed, other[: ob.OBS_SIZE])


@pytest.mark.parametrize("spec", ["learned-search-4p:rollouts=2", "search:rollouts=2,gate=0.03,top=2,prior=1"])
def test_the_gated_search_passes_the_generic_checks(spec):
    """The shipped preset's knobs at K = 2 (tests/strategies/test_strategies.py leaves its presets to this test), and the
    pruning with the model's order."""
    report = check_strategy(spec, games=12, sample=1, speed=False)
    assert report.ok, report.render()
    assert dict(report.results[0].measures)["games"] >= 14 * 12
