"""The fast learned player (issue 18, speed) computes exactly what the old one did.

The player builds the state part once as its non-zero inputs, each move part likewise, and adds the
products input by input in index order, with no heap allocation (idiotsim.engine.memory). Every float
must be the same as the dense computation's: tests/learn/learn_reference.py keeps the player of commit
11e8f0f verbatim, and here both run on the positions of learned self-play in several variants
(R6 swaps and R13-R16 turns of every kind: V5 chance, V9, V10, V11 extras, V12 openings, two decks),
for the shipped models, random MLPs of odd widths (5, 21: the blocks of 8 units and the units after them), a random linear model, and the knobs that change
the inputs or the candidates (counting, save_tens, max_copies). Compared bit for bit: the training
features (state and move parts), every legal move's score, and every decision.
"""
from __future__ import annotations

import numpy as np
import pytest

from learn_reference import learned_decision as reference_decision
from learn_reference import move_features as reference_move_features
from learn_reference import reference_turn_move_score
from learn_reference import state_features as reference_state_features

from idiotsim.game import observation as ob
from idiotsim.strategies.strategy_checks import cell_rules
from idiotsim.strategies.learned import features as ft
from idiotsim.game.basic_player import legal_moves_basic_first as legal_moves
from idiotsim.learn.collect import MAX_KEPT, collect_game
from idiotsim.strategies.learned.model import LINEAR, MAX_HIDDEN, MLP, body_size, pack
from idiotsim.strategies.learned.learned_knobs import MODEL_AT
from idiotsim.strategies.learned.policy import learned_decision, turn_move_score
from idiotsim.engine.batches import rules_header, strategy_inputs
from idiotsim.strategies.loading import load_strategy

# (variant, players): every input block and move kind occurs (V11's extras need its variant, two decks 6 players)
CELLS = (("default", 4), ("default", 2), ("default", 5), ("V5 chance", 3), ("V9 burn_plays_again=false", 4),
         ("V10 six_burn=3", 4), ("V11 last_hand_with_faceup", 4), ("V12 opening_lowest", 3), ("V7 decks=2", 6),
         ("all variants", 4))
GAMES = 6


@pytest.fixture(scope="module")
def positions():
    """(obs, hand) of every decision (swaps and turns with two or more moves) of learned-fast self-play."""
    seats = [load_strategy("basic"), load_strategy("learned-fast-4p")]
    fns, _, params = strategy_inputs(seats)
    out_obs = np.zeros((MAX_KEPT, ob.OBS_SIZE), np.int64)
    out_hand = np.zeros((MAX_KEPT, ob.NR), np.int64)
    out_seat = np.zeros(MAX_KEPT, np.int64)
    found = []
    for variant, players in CELLS:
        header = rules_header(cell_rules(variant, players))
        for game in range(GAMES):
            seating = np.ones(players, np.int64)
            kept = collect_game(fns, params, header, 21, game, seating, 1.0, 1.0, out_obs, out_hand, out_seat)
            assert kept > 0
            found += [(out_obs[i].copy(), out_hand[i].copy()) for i in range(kept)]
    return found


def _random_model(kind: int, hidden: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return pack(kind, hidden, rng.normal(0, 0.5, body_size(kind, hidden)), rng.normal(0, 1.0, ft.SWAP_FEATURES))


def _params(spec: str) -> list[np.ndarray]:
    """The learned family's params for a spec, and the same knobs with random models in place of its own."""
    base = load_strategy(spec).params
    return [base] + [np.concatenate([base[:MODEL_AT], _random_model(kind, hidden, seed)])
                     for kind, hidden, seed in ((MLP, 5, 1), (MLP, 21, 4), (LINEAR, 0, 2))]


@pytest.mark.long(15)  # the positions fixture: learned self-play compiled and played in ten cells
def test_the_positions_cover_every_move_kind(positions):
    turns = [(o, h) for o, h in positions if o[ob.DECISION] == ob.TURN]
    moves = np.concatenate([legal_moves(o, h) for o, h in turns])
    assert {ob.SWAP, ob.TURN} <= {int(o[ob.DECISION]) for o, _ in positions} and len(turns) > 1500
    assert (moves == -1).any() and (moves == -2).any() and ((moves >> 8) & 15 > 0).any()  # pickup, V5, V11
    assert any(o[ob.SOURCE] == ob.SRC_FACEUP for o, _ in turns) and any(o[ob.MUST_PLAY] >= 0 for o, _ in turns)


def test_the_training_features_are_bit_identical(positions):
    for counting in (1, 0):
        for obs, hand in positions[::3]:
            if obs[ob.DECISION] != ob.TURN:
                continue
            new, old = np.empty(ft.STATE_FEATURES), np.empty(ft.STATE_FEATURES)
            ft.state_features(obs, hand, counting, new)
            reference_state_features(obs, hand, counting, old)
            assert new.tobytes() == old.tobytes()
            moves = legal_moves(obs, hand)
            for move in moves:
                m_new, m_old = np.empty(ft.MOVE_FEATURES), np.empty(ft.MOVE_FEATURES)
                ft.move_features(obs, hand, new, move, moves[0], counting, m_new)
                reference_move_features(obs, hand, old, move, moves[0], counting, m_old)
                assert m_new.tobytes() == m_old.tobytes()


@pytest.mark.parametrize("spec", ["learned-4p", "learned-fast-4p:counting=0", "learned-fast-nomem-4p"])
def test_every_legal_moves_score_is_bit_identical(positions, spec):
    for params in _params(spec):
        for obs, hand in positions[::2]:
            if obs[ob.DECISION] == ob.TURN:
                for move in legal_moves(obs, hand):
                    assert turn_move_score(obs, hand, params, move) == reference_turn_move_score(obs, hand, params,
                                                                                                 move)


@pytest.mark.long(15)  # the first compiles the reference player
@pytest.mark.parametrize("spec", ["learned-4p", "learned-fast-4p:counting=0", "learned-fast-nomem-4p",
                                  "learned-4p:save_tens=1,max_copies=1",
                                  "learned-fast-4p:burn_min=6,pickup_max=4"])
def test_every_decision_is_the_old_players(positions, spec):
    for params in _params(spec):
        new = [learned_decision(obs, hand, params) for obs, hand in positions]
        old = [reference_decision(obs, hand, params) for obs, hand in positions]
        assert new == old


def test_hidden_layers_beyond_the_stack_buffers_are_refused(tmp_path):
    from idiotsim.errors import UserError
    from idiotsim.strategies.learned.model import check_vector
    check_vector(_random_model(MLP, MAX_HIDDEN, 3), "wide")
    with pytest.raises(UserError, match=f"plays 1 to {MAX_HIDDEN}"):
        check_vector(_random_model(MLP, MAX_HIDDEN + 1, 3), "too wide")
