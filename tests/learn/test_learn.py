"""The learned player (issue 18): idiotsim.learn and strategies/learned/__init__.py.

- The model file format: round trip, same bytes, one-line errors for missing, corrupt or foreign files.
- A model that prefers basic's move plays exactly like basic (the candidate list and its ties).
- The override knobs do what strategies/learned/__init__.py says (R6 swap modes, 10s, copies, pickups, counting).
- The numba player's move is the numpy trainer's argmax on the same positions (one feature function), for
  every kind; a two-layer model's (MLP2) scores are the trainer's, and its gradient is the loss's slope.
- Data generation is resumable and gives the same bytes; training gives the same model bytes; the
  learning-rate decay scales each epoch's steps.
- `idiotsim learn loop` runs end to end on a tiny configuration.
"""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from helpers import cli_ok, cli_user_error
from idiotsim.game import observation as ob
from idiotsim.errors import UserError
from idiotsim.strategies.learned import features as ft
from idiotsim.strategies.learned.learned_knobs import MODEL_AT
from idiotsim.learn.dataset import move_rows, positions_of
from idiotsim.learn.generate import GenerateConfig, generate, read_data
from idiotsim.learn.train import save_model
from idiotsim.strategies.learned.model import LINEAR, MLP, MLP2, basic_model, body_size, load_model, pack
from idiotsim.learn.train import Net, TrainConfig, choices, fit, loss_and_slope, model_vector, targets
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_games, play_seated
from idiotsim.strategies.loading import load_strategy
from idiotsim.strategies.strategy_checks import VARIANTS, cell_rules

TEN, TWO = 8, 0


@pytest.fixture(scope="module")
def basic_model_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "basic.npz"
    save_model(path, basic_model(), {"note": "prefers basic's move"})
    return path


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory):
    """Labelled positions of 6 games (basic and a K = 2 search collecting), K = 4 teacher."""
    out = tmp_path_factory.mktemp("data")
    config = GenerateConfig(players=3, seed=5, games=6, chunk_games=2, collectors=("basic", "search:rollouts=2"),
                            teacher_rollouts=4, turn_share=0.6, swap_share=1.0)
    generate(config, out)
    return out, config


def test_model_file_round_trip_and_errors(tmp_path, basic_model_file):
    vector, meta = load_model(basic_model_file)
    assert np.array_equal(vector, basic_model()) and meta == {"note": "prefers basic's move"}
    again = tmp_path / "again.npz"
    save_model(again, vector, meta)
    assert again.read_bytes() == basic_model_file.read_bytes()
    with pytest.raises(UserError, match="does not exist"):
        load_model(tmp_path / "missing.npz")
    (tmp_path / "corrupt.npz").write_bytes(b"not a zip file")
    with pytest.raises(UserError, match="corrupt"):
        load_model(tmp_path / "corrupt.npz")
    foreign = basic_model().copy()
    foreign[3] += 1  # another state layout
    with pytest.raises(UserError, match="another feature layout"):
        save_model(tmp_path / "foreign.npz", foreign, {})
    with pytest.raises(ValueError):
        pack(MLP, 4, np.zeros(3))
    two_layers = pack(MLP2, 4, np.zeros(body_size(MLP2, 4, 3)), hidden2=3)
    save_model(tmp_path / "mlp2.npz", two_layers, {})
    assert np.array_equal(load_model(tmp_path / "mlp2.npz")[0], two_layers)
    one_layer = pack(MLP, 4, np.zeros(body_size(MLP, 4)))
    one_layer[7] = 3  # a second layer's width on a one-layer model
    with pytest.raises(UserError, match="last value of 0"):
        save_model(tmp_path / "bad.npz", one_layer, {})
    too_wide = pack(MLP2, 1000, np.zeros(body_size(MLP2, 1000, 30)), hidden2=30)
    with pytest.raises(UserError, match="1 to 24 after a first layer of 1000"):
        save_model(tmp_path / "wide.npz", too_wide, {})


def test_model_file_errors_are_one_line_in_the_cli(tmp_path, capsys):
    line = cli_user_error(capsys, "run", "--players", "4", "--games", "10", "--out", tmp_path / "r",
                          "--strategies", f"{tmp_path}/missing.npz,basic,basic,basic")
    assert "missing.npz does not exist" in line


@pytest.mark.parametrize("variant", ["default", "V5 chance", "V12 opening_lowest", "V11 last_hand_with_faceup",
                                     "V6 ten_only_on_lower"])
def test_a_model_preferring_basics_move_plays_like_basic(basic_model_file, variant):
    rules = cell_rules(variant, 4)
    learned = load_strategy(str(basic_model_file))
    basic = load_strategy("basic")
    a = play_games(rules, [learned, basic, learned, basic], seed=3, first_game=0, n_games=300)
    b = play_games(rules, [basic] * 4, seed=3, first_game=0, n_games=300)
    assert np.array_equal(a["places"], b["places"]) and np.array_equal(a["actions"], b["actions"])


def _decisions(spec: str, positions) -> list:
    seat = load_strategy(spec)
    rng = np.zeros(1, np.uint64)
    return [int(seat.decide(obs, hand, seat.params, rng)) for obs, hand in positions]


def _positions(players=4, games=30, decision=ob.TURN):
    """(obs, hand) of the decisions of one type in basic self-play (reference engine)."""
    from idiotsim.experiments.disagreement import basic_positions
    return [(o, h) for game in range(games) for o, h in basic_positions(Rules(players=players), 11, game)
            if o[ob.DECISION] == decision]


def test_override_knobs(basic_model_file):
    turns = _positions()
    model = str(basic_model_file)
    for (obs, hand), move in zip(turns, _decisions(f"{model}:burn_min=0", turns)):
        ten_ok = hand[TEN] > 0 and obs[ob.SOURCE] == ob.SRC_HAND and (obs[ob.LEGAL] >> TEN) & 1 and obs[ob.MUST_PLAY] < 0
        if ten_ok:
            assert move >= 0 and move & 15 == TEN
    for (obs, hand), move in zip(turns, _decisions(f"{model}:max_copies=1", turns)):
        if move >= 0 and obs[ob.SOURCE] == ob.SRC_HAND and obs[ob.TALON_SIZE] > 0:
            assert (move >> 4) & 15 == 1
    for (obs, hand), move in zip(turns, _decisions(f"{model}:pickup_max=52,pickup_min_rank=1", turns)):
        if obs[ob.PILE_SIZE] > 0 and obs[ob.SOURCE] == ob.SRC_HAND and obs[ob.MUST_PLAY] < 0:
            assert move == -1  # every pile is "strong" from rank id 1 up: always picked up
    swaps = _positions(decision=ob.SWAP, games=10)
    for mode in (1, 2, 3, 4):
        assert _decisions(f"{model}:swap={mode}", swaps) == _decisions(f"heuristic:swap={mode}", swaps)
    assert _decisions(f"{model}:swap=0", swaps) == _decisions("basic", swaps)  # the basic-key swap head


def test_save_tens_keeps_the_ten_while_another_rank_is_playable(tmp_path):
    """A model that loves 10s plays one whenever it may, except where save_tens forbids it."""
    body = np.zeros(body_size(LINEAR, 0))
    body[ft.STATE_FEATURES * ft.MOVE_FEATURES + ft.M_RANK + TEN] = 5.0
    path = tmp_path / "tens.npz"
    save_model(path, pack(LINEAR, 0, body), {})
    turns = [(o, h) for o, h in _positions() if h[TEN] > 0 and o[ob.SOURCE] == ob.SRC_HAND
             and (o[ob.LEGAL] >> TEN) & 1 and o[ob.MUST_PLAY] < 0]
    assert len(turns) > 20
    loves = _decisions(str(path), turns)
    saves = _decisions(f"{path}:save_tens=1", turns)
    others = [bool(np.any([(h[r] > 0) and (o[ob.LEGAL] >> r) & 1 for r in range(13) if r != TEN]))
              for o, h in turns]
    assert all(m & 15 == TEN for m in loves)
    assert all((m & 15 != TEN) == other for m, other in zip(saves, others))
    assert any(others) and not all(others)


def test_counting_off_hides_the_counting_inputs():
    for obs, hand in _positions(games=5):
        on, off = np.zeros(ft.STATE_FEATURES), np.zeros(ft.STATE_FEATURES)
        ft.state_features(obs, hand, 1, on)
        ft.state_features(obs, hand, 0, off)
        assert not off[ft.S_BURNED:ft.S_BURNED + 13].any()
        for k in range(ft.MAX_OPPONENTS):
            base = ft.S_OPPONENTS + k * ft.OPPONENT_WIDTH + ft.O_KNOWN
            assert not off[base:base + 13].any()
        assert off[ft.S_PILE:ft.S_PILE + 13].sum() * 4 == (obs[ob.PILE_RUN] if obs[ob.PILE_TOP] >= 0 else 0)
        same = np.r_[ft.S_HAND:ft.S_BLIND + 1, ft.S_TOP:ft.S_BURNED]  # own cards, the pile's top, run and size
        assert np.array_equal(on[same], off[same])
        specials = np.zeros(ft.STATE_FEATURES)  # no memory but the burned 2s and 10s
        ft.state_features(obs, hand, ft.SPECIALS, specials)
        burned = specials[ft.S_BURNED:ft.S_BURNED + 13]
        assert burned[TWO] * 4 == obs[ob.BURNED + TWO] and burned[TEN] * 4 == obs[ob.BURNED + TEN]
        assert not np.delete(burned, [TWO, TEN]).any()
        unseen = slice(ft.S_UNSEEN, ft.S_UNSEEN + 13)
        for r in range(13):
            gone = obs[ob.BURNED + r] if r in (TWO, TEN) else 0
            assert specials[unseen][r] * 4 == max(off[unseen][r] * 4 - gone, 0)
        others = np.r_[0:ft.S_BURNED, ft.S_UNSEEN + 13:ft.STATE_FEATURES]
        assert np.array_equal(specials[others], off[others])


def _without_memory(obs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The observation with what a player who does not remember cannot know scrambled: the burned cards, the
    opponents' publicly known hand cards, and the pile's counts beneath its visible top run (sizes kept)."""
    out = obs.copy()
    out[ob.BURNED:ob.BURNED + 13] = rng.integers(0, 5, 13)
    out[ob.KNOWN:ob.KNOWN + 13 * obs[ob.PLAYERS]] = rng.integers(0, 3, 13 * obs[ob.PLAYERS])
    out[ob.PILE_COUNTS:ob.PILE_COUNTS + 13] = rng.integers(0, 3, 13)
    if obs[ob.PILE_TOP] >= 0:
        out[ob.PILE_COUNTS + obs[ob.PILE_TOP]] = obs[ob.PILE_RUN]
    return out


def test_a_no_memory_model_never_reads_what_it_would_have_to_remember():
    """learned-fast-nomem-4p (its model's header says no memory): its every score is the same when the burned
    cards, the known hand cards and the pile beneath its top run change, whatever the counting knob says;
    learned-fast-4p (trained with memory) changes its scores and some moves on the same positions."""
    from idiotsim.strategies.learned.model import H_MEMORY, MEMORY_FULL, MEMORY_NONE, memory_of
    from idiotsim.strategies.learned.policy import turn_move_score
    from idiotsim.game.moves import list_moves
    rng = np.random.default_rng(4)
    nomem, nomem_counting, memory = (load_strategy(s) for s in ("learned-fast-nomem-4p",
                                                                "learned-fast-nomem-4p:counting=1", "learned-fast-4p"))
    assert memory_of(nomem.params[MODEL_AT:]) == MEMORY_NONE == nomem.params[MODEL_AT + H_MEMORY]
    assert memory_of(memory.params[MODEL_AT:]) == MEMORY_FULL
    turns = [(o, h) for o, h in _positions(games=20) if o[ob.PILE_SIZE] > o[ob.PILE_RUN] or o[ob.BURNED:ob.BURNED + 13].any()]
    scrambled = [(_without_memory(o, rng), h) for o, h in turns]
    assert len(turns) > 200
    changed_scores = changed_moves = 0
    for (obs, hand), (other, _) in zip(turns, scrambled):
        moves = np.zeros(64, np.int64)
        for move in moves[:list_moves(obs, hand, moves)]:
            assert turn_move_score(obs, hand, nomem.params, move) == turn_move_score(other, hand, nomem.params, move)
            assert turn_move_score(obs, hand, nomem_counting.params, move) == turn_move_score(obs, hand, nomem.params,
                                                                                              move)
            changed_scores += turn_move_score(obs, hand, memory.params, move) != turn_move_score(other, hand,
                                                                                                memory.params, move)
    assert _decisions("learned-fast-nomem-4p", turns) == _decisions("learned-fast-nomem-4p", scrambled)
    changed_moves = sum(a != b for a, b in zip(_decisions("learned-fast-4p", turns),
                                               _decisions("learned-fast-4p", scrambled)))
    assert changed_scores > 100 and changed_moves > 0


def test_the_memory_flag_is_checked_in_the_model_file(tmp_path):
    from idiotsim.strategies.learned.model import H_MEMORY, MEMORY_FULL, MEMORY_NONE, MEMORY_SPECIALS, memory_of
    assert memory_of(basic_model()) == MEMORY_FULL
    for kind in (MEMORY_NONE, MEMORY_SPECIALS):
        vector = pack(LINEAR, 0, np.zeros(body_size(LINEAR, 0)), memory=kind)
        assert vector[H_MEMORY] == kind and memory_of(vector) == kind
        save_model(tmp_path / "nomem.npz", vector, {})
        assert np.array_equal(load_model(tmp_path / "nomem.npz")[0], vector)
    vector[H_MEMORY] = 0.5
    with pytest.raises(UserError, match="memory kind is 0.5"):
        save_model(tmp_path / "bad.npz", vector, {})


@pytest.mark.long(30)
def test_generation_resumes_with_the_same_bytes(tiny_data, tmp_path):
    out, config = tiny_data
    files = sorted(out.glob("chunk-*.parquet"))
    assert len(files) == 3
    again = tmp_path / "again"
    generate(config, again)
    (again / files[1].name).unlink()  # as if killed before that chunk was written
    generate(config, again)
    assert [f.read_bytes() for f in files] == [(again / f.name).read_bytes() for f in files]
    frame = read_data([out])
    assert set(frame["decision"].unique()) == {ob.SWAP, ob.TURN}
    assert frame["moves"].list.len().min() >= 2
    assert (frame["place"].list.eval(pl.element().is_between(1, 3)).list.all()).all()
    with pytest.raises(UserError, match="another configuration"):
        generate(GenerateConfig(**{**config.__dict__, "teacher_rollouts": 8}), out)


def test_move_rows_are_each_positions_rows_in_order():
    move_pos = np.array([0, 3, 3, 4, 9, 11])  # position 1 has no rows
    for idx in ([], [0], [4, 0, 1, 3], [2, 2, 1]):
        expected = [r for i in idx for r in range(move_pos[i], move_pos[i + 1])]
        assert move_rows(move_pos, np.array(idx, np.int64)).tolist() == expected


def test_training_is_deterministic_and_the_player_plays_the_trainers_argmax(tiny_data, tmp_path):
    from idiotsim.learn.fitting import MODEL_FILE, train_model
    out, _ = tiny_data
    config = TrainConfig(kind=MLP, hidden=4, epochs=2, batch=32)
    train_model([out], tmp_path / "a", config)
    train_model([out], tmp_path / "b", config)
    assert (tmp_path / "a" / MODEL_FILE).read_bytes() == (tmp_path / "b" / MODEL_FILE).read_bytes()
    from idiotsim.strategies.learned.model import COUNTING_OF_MEMORY, H_MEMORY
    from idiotsim.strategies.learned.policy import turn_move_score
    for memory in (0, 1, 2):  # full, none, specials: fitted on those inputs, played on them
        turn = positions_of(read_data([out]), ob.TURN, counting=COUNTING_OF_MEMORY[memory])
        for kind, hidden, hidden2 in ((MLP, 4, 0), (LINEAR, 0, 0), (MLP2, 5, 3)):
            net, _ = fit(turn, turn, TrainConfig(kind=kind, hidden=hidden, hidden2=hidden2, epochs=2, batch=32))
            net.arrays = {k: v + np.random.default_rng(1).normal(0, 0.3, v.shape) for k, v in net.arrays.items()}
            path = tmp_path / f"kind{kind}-{memory}.npz"
            save_model(path, model_vector(net, None, memory), {})
            expected = [int(m) for m in turn.moves[turn.move_pos[:-1] + choices(net, turn)]]
            assert _decisions(str(path), zip(turn.obs, turn.hand)) == expected
            if memory:  # the same numbers read as a full-memory model score otherwise somewhere
                params = load_strategy(str(path)).params
                full = params.copy()
                full[MODEL_AT + H_MEMORY] = 0.0
                assert any(turn_move_score(o, h, params, m) != turn_move_score(o, h, full, m)
                           for o, h, m in zip(turn.obs[turn.owner()], turn.hand[turn.owner()], turn.moves))
    train_model([out], tmp_path / "c", TrainConfig(kind=MLP, hidden=4, epochs=2, batch=32, memory=1))
    vector, meta = load_model(tmp_path / "c" / MODEL_FILE)
    assert meta["memory"] == "none" and vector[6] == 1



def test_a_two_layer_models_scores_are_the_trainers_and_its_gradient_is_the_losss_slope(tiny_data, tmp_path):
    from idiotsim.strategies.learned.policy import turn_move_score
    out, _ = tiny_data
    turn = positions_of(read_data([out]), ob.TURN)
    rng = np.random.default_rng(3)
    net = Net(MLP2, 5, rng, hidden2=3)
    net.arrays = {k: rng.normal(0, 0.5, v.shape) for k, v in net.arrays.items()}
    owner = turn.owner()
    score, _ = net.scores(turn.state_x, turn.move_x, owner)
    save_model(tmp_path / "mlp2.npz", model_vector(net, None), {})
    params = load_strategy(str(tmp_path / "mlp2.npz")).params
    played = [turn_move_score(o, h, params, m) for o, h, m in zip(turn.obs[owner], turn.hand[owner], turn.moves)]
    assert np.allclose(played, score, rtol=0, atol=1e-9)
    few = turn.subset(np.arange(len(turn)) < 40)
    s, m, owner, y = few.state_x, few.move_x, few.owner(), targets(few.place, few.move_pos)

    def loss():
        return loss_and_slope(net.scores(s, m, owner)[0], y, few.move_pos)[0]
    score, cache = net.scores(s, m, owner)
    grads = net.gradients(s, m, owner, few.move_pos, cache, loss_and_slope(score, y, few.move_pos)[1])
    assert set(grads) == set(net.arrays)
    for name, array in net.arrays.items():
        for flat in rng.choice(array.size, min(array.size, 6), replace=False):
            at = np.unravel_index(flat, array.shape)
            keep = array[at]
            array[at] = keep + 1e-6
            up = loss()
            array[at] = keep - 1e-6
            down = loss()
            array[at] = keep
            assert grads[name][at] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-8), (name, at)


def test_learning_rate_decay_scales_each_epochs_steps(tiny_data):
    """lr_decay multiplies the rate after each epoch: at a vanishing factor the second epoch cannot move
    the net from the first epoch's, at 1 it does; the default is the constant rate."""
    out, _ = tiny_data
    turn = positions_of(read_data([out]), ob.TURN)
    one, _ = fit(turn, turn, TrainConfig(hidden=4, epochs=1, batch=32))
    frozen, _ = fit(turn, turn, TrainConfig(hidden=4, epochs=2, batch=32, lr_decay=1e-12, patience=9))
    moving, curve = fit(turn, turn, TrainConfig(hidden=4, epochs=2, batch=32, patience=9))
    assert TrainConfig().lr_decay == 1.0
    assert np.allclose(model_vector(frozen, None), model_vector(one, None), rtol=0, atol=1e-9)
    assert curve[2][2] < curve[1][2]  # the constant rate's second epoch improved (so was the one kept) ...
    assert not np.allclose(model_vector(moving, None), model_vector(one, None), rtol=0, atol=1e-6)  # ... and moved


def test_lr_decay_out_of_range_is_a_one_line_error(tmp_path, capsys):
    line = cli_user_error(capsys, "learn", "train", "--data", tmp_path, "--lr-decay", "0", "--out", tmp_path / "m")
    assert "--lr-decay" in line


@pytest.mark.parametrize("args, says", [
    (("--kind", "mlp2", "--hidden", "1000", "--hidden2", "30"), "1030 hidden units"),
    (("--hidden", "2000"), "--hidden 2000: the player plays at most 1024"),
    (("--kind", "mlp2", "--hidden2", "0"), "--hidden2"),
    (("--kind", "mlp3"), "mlp, mlp2")])
def test_a_model_too_wide_to_play_is_refused_before_training(tmp_path, capsys, args, says):
    line = cli_user_error(capsys, "learn", "train", "--data", tmp_path, *args, "--out", tmp_path / "m")
    assert says in line

@pytest.mark.long(60)
def test_learn_loop_end_to_end(tmp_path, capsys):
    out = tmp_path / "loop"
    args = ("learn", "loop", "--players", "3", "--games", "8", "--rollouts", "2", "--deals", "30", "--tuning-deals", "10", "--epochs", "2",
            "--hidden", "4", "--collectors", "basic", "--out", out)
    text = cli_ok(capsys, *args)
    assert "Learning curve" in text and (out / "model.npz").exists() and (out / "learning_curve.png").exists()
    assert (out / "iter-2" / "data" / "generate.json").read_text().count("model.npz") == 1  # DAgger
    before = (out / "model.npz").read_bytes()
    cli_ok(capsys, *args)  # resumes: every step is there already
    assert (out / "model.npz").read_bytes() == before
    result = cli_ok(capsys, "learn", "evaluate", "--players", "3", "--deals", "20", "--strategies",
                    f"{out}/model.npz,basic", "--out", tmp_path / "eval")
    assert "| `basic` | +0.0000" in result
    assert "No such command 'fly'" in cli_user_error(capsys, "learn", "fly", "--out", tmp_path / "x")


def test_play_seated_with_a_learned_seat_is_legal_in_every_variant(basic_model_file, tmp_path):
    """A random MLP (far from basic: voluntary pickups, split copies) plays legal moves everywhere."""
    net = Net(MLP, 8, np.random.default_rng(7))
    net.arrays = {k: np.random.default_rng(8).normal(0, 1.0, v.shape) for k, v in net.arrays.items()}
    path = tmp_path / "random.npz"
    save_model(path, model_vector(net, None), {})
    learned, basic = load_strategy(str(path)), load_strategy("basic")
    for variant, fields in VARIANTS.items():
        rules = cell_rules(variant, 6 if "decks" in fields else 4)
        seating = np.tile(np.arange(rules.players, dtype=np.int8) % 2 == 0, (200, 1)).astype(np.int8)
        play_seated(rules, [basic, learned], 9, np.arange(200), np.arange(200), seating)
