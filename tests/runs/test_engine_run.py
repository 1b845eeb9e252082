"""`idiotsim run` and `deal` on the numba engine: determinism, replay, and errors.

- Determinism: every game draws only from its (seed, game) streams
  (``idiotsim.game.rng``), so results do not depend on the block size of
  ``play_games``, the thread count (``--threads``, ``numba.set_num_threads``)
  or the Parquet chunk size (``runner.run(chunk_games=...)``).
- ``deal`` prints exactly the decks ``run --seed`` plays: ``run --decks`` on
  them gives the same rows (one and two rounds).
- Any row of a run replays alone (``play_games(first_game=i, n_games=1)``,
  ``trace --seed S --game i``).
- A strategy's illegal move stops ``run`` with exit code 2 and one line naming
  the strategy, seat, game and seed, and leaves no result behind.
- ``--out`` holding results needs ``--force``; bad inputs are one-line errors.
- ``trace --engine numba`` prints the reference trace byte for byte.
- `basic`, which the engine plays inline, plays as it does through the strategy table.

Most tests call ``cli.main(argv)`` in-process (it always ends with SystemExit);
a few run the installed console script to see the real exit code and stderr.
"""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from helpers import cli_ok, cli_user_error, run_cli
from idiotsim import cli
from idiotsim.runs import runner
from idiotsim.game.cards import format_deck
from idiotsim.errors import IllegalMoveError, UserError
from idiotsim.jit import kernel
from idiotsim.game.reference import play_match
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_games, play_seated
from idiotsim.strategies.loading import SeatStrategy, load_strategies

SEED = 424_242
MIXED4 = "basic,random,basic,random"
TWO_THREADS = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")


# ---- helpers -------------------------------------------------------------------

def script() -> list[str]:
    exe = Path(sys.executable).with_name("idiotsim")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "idiotsim.cli"]


def run_script(*args):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run(script() + [str(a) for a in args], capture_output=True, text=True, env=env, timeout=300)


def results(out: Path) -> pl.DataFrame:
    """Every Parquet file of a results folder, as one frame sorted by game."""
    files = sorted(Path(out).glob("*.parquet"))
    assert files, f"no Parquet file in {out}"
    return pl.concat([pl.read_parquet(f) for f in files]).sort("game")


def snapshot(folder: Path) -> dict:
    """Every file under `folder` (hidden ones included) with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def assert_no_results(out: Path):
    """No Parquet file, no staging folder, no temporary file and no manifest left in `out`."""
    if not out.exists():
        return
    left = [p.name for p in out.rglob("*")]
    assert not [n for n in left if n.endswith(".parquet") or n.startswith(".staging") or n.endswith(".tmp")], left
    assert not (out / runner.MANIFEST).exists(), left


def batch_equal(a: dict, b: dict):
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key]), key


@pytest.fixture
def restore_threads():
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


# ---- (1) determinism ----------------------------------------------------------

DETERMINISM_CASES = [
    pytest.param(Rules(players=4), MIXED4, id="4p-mixed"),
    pytest.param(Rules(players=3, rounds=2, idiot_deals=True, chance=True), "random,basic,random",
                 id="3p-rounds2-V5-V8"),
    pytest.param(Rules(players=7), "basic", id="7p-two-decks"),
    pytest.param(Rules(players=5, action_limit=110), "basic,random,basic,basic,basic", id="5p-stalls"),
]


@pytest.mark.parametrize("rules, spec", DETERMINISM_CASES)
def test_play_games_does_not_depend_on_block_size(rules, spec):
    seats = load_strategies(spec, rules.players)
    want = play_games(rules, seats, SEED, 1000, 600)
    for block in (1, 7, 64, 599, 600, 5000):
        batch_equal(play_games(rules, seats, SEED, 1000, 600, block=block), want)
    if rules.action_limit == 110:
        assert want["stalled"].any() and not want["stalled"].all()


@TWO_THREADS
@pytest.mark.parametrize("rules, spec", DETERMINISM_CASES)
def test_play_games_does_not_depend_on_threads(rules, spec, restore_threads):
    seats = load_strategies(spec, rules.players)
    numba.set_num_threads(1)
    one = play_games(rules, seats, SEED, 0, 800, block=16)
    numba.set_num_threads(2)
    two = play_games(rules, seats, SEED, 0, 800, block=16)
    batch_equal(one, two)


def test_games_differ_by_seed_and_index():
    """Not a constant: other seeds and game indices give other games."""
    rules = Rules(players=4)
    seats = load_strategies(MIXED4, 4)
    a = play_games(rules, seats, SEED, 0, 200)
    b = play_games(rules, seats, SEED + 1, 0, 200)
    c = play_games(rules, seats, SEED, 200, 200)
    assert not np.array_equal(a["actions"], b["actions"])
    assert not np.array_equal(a["actions"], c["actions"])


@pytest.mark.parametrize("rules", [Rules(players=4), Rules(players=3, rounds=2, chance=True, opening_lowest=True,
                                                          last_hand_with_faceup=True, lowest_starts=True)])
def test_basic_played_inline_equals_basic_through_the_strategy_table(rules):
    """engine.SEAT_BASIC: the engine plays `basic` inline; its twin (the same function compiled again, so
    not `basic` to the engine) is called through the strategy table. Same games, alone or seated together."""
    basic = load_strategies("basic", 1)[0]
    twin = SeatStrategy("basic-twin", dataclasses.replace(basic.strategy, decide=kernel(basic.decide.py_func)),
                        basic.params)
    n = rules.players
    inline = play_games(rules, [basic] * n, SEED, 0, 2000)
    batch_equal(inline, play_games(rules, [twin] * n, SEED, 0, 2000))
    batch_equal(inline, play_games(rules, [twin if s % 2 else basic for s in range(n)], SEED, 0, 2000))


def test_a_full_strategy_table_plays_as_tables_with_padding():
    """The engine's table holds 32 strategies: a batch seating 32 distinct ones (every entry a dispatcher)
    plays the games that batches of the same seats play with 4 (the other 28 entries padding), and a 33rd
    distinct strategy is a user error."""
    rules = Rules(players=4)
    strategies = load_strategies(",".join(f"heuristic:burn_min={k}" for k in range(32)), 32)
    games = np.arange(400, dtype=np.int64)
    seating = ((games[:, None] * 4 + np.arange(4)) % 32).astype(np.int8)  # 8 tables of 4, in turn
    full = play_seated(rules, strategies, SEED, games, games, seating)
    for table in range(8):
        seats = [strategies[(table * 4 + s) % 32] for s in range(4)]
        ids = games[table::8]
        alone = play_seated(rules, seats, SEED, ids, ids, np.tile(np.arange(4, dtype=np.int8), (len(ids), 1)))
        batch_equal({k: v[table::8] for k, v in full.items()}, alone)
    more = load_strategies(",".join(f"heuristic:burn_min={k}" for k in range(33)), 33)
    with pytest.raises(UserError, match="at most 32 distinct strategies"):
        play_seated(rules, more, SEED, games[:1], games[:1], np.arange(4, dtype=np.int8)[None, :])


@TWO_THREADS
def test_run_threads_one_and_two_write_the_same_results(capsys, tmp_path, restore_threads):
    args = ["run", "--players", 4, "--strategies", MIXED4, "--games", 3000, "--seed", SEED]
    cli_ok(capsys, *args, "--out", tmp_path / "t1", "--threads", 1)
    cli_ok(capsys, *args, "--out", tmp_path / "t2", "--threads", 2)
    one, two = results(tmp_path / "t1"), results(tmp_path / "t2")
    assert one["game"].to_list() == list(range(3000))
    assert_frame_equal(one, two)


def test_run_chunk_sizes_write_the_same_results(capsys, tmp_path):
    rules = Rules(players=3, rounds=2)
    seats = load_strategies("basic,random,basic", 3)
    frames = {}
    for chunk in (1000, 333, 250, 1):
        games = 1000 if chunk > 1 else 5
        out = runner.run(rules, seats, SEED, games, tmp_path / f"c{chunk}", chunk_games=chunk)
        assert len(list(out.glob("*.parquet"))) == -(-games // chunk)
        frames[chunk] = results(out)
    assert frames[1000]["game"].to_list() == list(range(1000))
    assert_frame_equal(frames[333], frames[1000])
    assert_frame_equal(frames[250], frames[1000])
    assert_frame_equal(frames[1], frames[1000].head(5))
    cli_ok(capsys, "run", "--players", 3, "--rule", "rounds=2", "--strategies", "basic,random,basic", "--games", 1000,
       "--seed", SEED, "--out", tmp_path / "cli")
    assert_frame_equal(results(tmp_path / "cli"), frames[1000])


def test_result_columns(capsys, tmp_path):
    cli_ok(capsys, "run", "--players", 4, "--strategies", MIXED4, "--games", 50, "--seed", SEED, "--out", tmp_path / "r")
    frame = results(tmp_path / "r")
    assert frame.columns == ["game", "seed"] + [f"strategy_{s}" for s in range(4)] + [f"place_{s}" for s in range(4)] \
        + ["actions", "burns", "pickups", "stalled"]
    assert frame["seed"].unique().to_list() == [SEED]
    assert [frame[f"strategy_{s}"][0] for s in range(4)] == MIXED4.split(",")
    places = frame.select([f"place_{s}" for s in range(4)]).to_numpy()
    assert (np.sort(places, axis=1) == np.arange(1, 5)).all()  # R18: a permutation of 1..n


# ---- (2) deal -> run --decks ----------------------------------------------------

@pytest.mark.parametrize("rounds", [1, 2])
def test_deal_writes_the_decks_run_plays(capsys, tmp_path, rounds):
    games = 400
    rule = ["--rule", f"rounds={rounds}"]
    text = cli_ok(capsys, "deal", "--players", 4, "--seed", SEED, "--games", games, *rule)
    lines = text.splitlines()
    assert len(lines) == games * rounds
    assert lines[0] == format_deck(shuffled_deck(SEED, 0, 0, 1))
    assert lines[-1] == format_deck(shuffled_deck(SEED, games - 1, rounds - 1, 1))
    decks = tmp_path / "decks.txt"
    decks.write_text(text)
    common = ["--players", 4, "--strategies", MIXED4, "--seed", SEED, *rule]
    cli_ok(capsys, "run", *common, "--games", games, "--out", tmp_path / "seeded")
    cli_ok(capsys, "run", *common, "--decks", decks, "--out", tmp_path / "dealt")
    seeded, dealt = results(tmp_path / "seeded"), results(tmp_path / "dealt")
    assert len(seeded) == games
    assert_frame_equal(dealt, seeded)
    # --games with --decks plays the first games of the file
    cli_ok(capsys, "run", *common, "--decks", decks, "--games", 37, "--out", tmp_path / "first")
    assert_frame_equal(results(tmp_path / "first"), seeded.head(37))


def test_deal_first_game(capsys):
    whole = cli_ok(capsys, "deal", "--players", 3, "--seed", SEED, "--games", 10).splitlines()
    tail = cli_ok(capsys, "deal", "--players", 3, "--seed", SEED, "--games", 4, "--first-game", 6).splitlines()
    assert tail == whole[6:]


# ---- (3) one game replays alone ---------------------------------------------------

def test_each_row_replays_alone(capsys, tmp_path):
    games, spec = 300, "basic,random,basic"
    cli_ok(capsys, "run", "--players", 3, "--strategies", spec, "--games", games, "--seed", SEED, "--out", tmp_path / "r")
    frame = results(tmp_path / "r")
    rules, seats = Rules(players=3), load_strategies(spec, 3)
    for i in (0, 1, 2, 137, 298, 299):
        row = frame.row(i, named=True)
        assert row["game"] == i
        alone = play_games(rules, seats, SEED, i, 1)
        assert alone["places"][0].tolist() == [row[f"place_{s}"] for s in range(3)]
        assert (alone["actions"][0], alone["burns"][0], alone["pickups"][0], alone["stalled"][0]) == (
            row["actions"], row["burns"], row["pickups"], row["stalled"])
        # and the trace of that game (results.py: "replay it with idiotsim trace --seed SEED --game GAME")
        trace = cli_ok(capsys, "trace", "--players", 3, "--strategies", spec, "--seed", SEED, "--game", i,
                   "--engine", "numba").splitlines()
        end = trace[-1]
        assert end.startswith('{"round": 1, "action": "end", "places": ')
        assert f'"places": {[row[f"place_{s}"] for s in range(3)]}' in end
        assert sum('"action": "play"' in ln or '"action": "pickup"' in ln for ln in trace) == row["actions"]


# ---- (4) an illegal move stops the run ----------------------------------------------

SNEAKY = '''\
"""`basic`, except that once in a while it plays a rank it does not hold."""
from idiotsim.game.observation import ACTIONS, DECISION, PILE_SIZE, SOURCE, SRC_HAND, TURN
from idiotsim.game.moves import SIG, play
from idiotsim.strategies.toolkit import Strategy, strategy_function
from idiotsim.strategies.basic import decide as basic_decide


@strategy_function
def decide(obs, hand, params, rng):
    if obs[DECISION] == TURN and obs[SOURCE] == SRC_HAND and obs[PILE_SIZE] == 0 and obs[ACTIONS] == 45:
        for r in range(13):
            if hand[r] == 0:
                return play(r, 1, 0)
    return basic_decide(obs, hand, params, rng)


SNEAKY = Strategy(name="sneaky", decide=decide, description="basic, with an illegal move now and then")
'''


@pytest.fixture
def sneaky(tmp_path):
    """(strategies spec with the sneaky strategy at seat 1, first game index with an illegal move, its message)."""
    path = tmp_path / "sneaky.py"
    path.write_text(SNEAKY)
    spec = f"basic,{path}:SNEAKY,basic"
    rules, seats = Rules(players=3), load_strategies(spec, 3)
    for game in range(200):  # the reference engine finds the first illegal move
        try:
            play_match([shuffled_deck(SEED, game, 0, 1)], rules, seats, SEED, game)
        except IllegalMoveError as e:
            assert game > 0, "the sneaky strategy should play some games legally"
            return spec, game, str(e)
    pytest.fail("the sneaky strategy never made an illegal move")


def test_illegal_move_stops_run(capsys, tmp_path, sneaky):
    spec, game, message = sneaky
    out = tmp_path / "out"
    line = cli_user_error(capsys, "run", "--players", 3, "--strategies", spec, "--games", 200, "--seed", SEED,
                      "--out", out)
    assert line == f"error: {message}"
    assert f"strategy '{spec.split(',')[1]}' at seat 1 " in line
    assert f" in game {game} (seed {SEED})" in line
    assert "does not hold" in line
    assert_no_results(out)
    # the games before it play: the move is illegal only in some games
    cli_ok(capsys, "run", "--players", 3, "--strategies", spec, "--games", game, "--seed", SEED, "--out", out)
    assert len(results(out)) == game


def test_illegal_move_with_force_keeps_the_old_results(capsys, tmp_path, sneaky):
    spec, game, message = sneaky
    out = tmp_path / "out"
    cli_ok(capsys, "run", "--players", 3, "--games", 100, "--seed", 1, "--out", out)
    before = snapshot(out)
    line = cli_user_error(capsys, "run", "--players", 3, "--strategies", spec, "--games", 200, "--seed", SEED,
                      "--out", out, "--force")
    assert line == f"error: {message}"
    assert snapshot(out) == before


def test_illegal_move_console_script(tmp_path, sneaky):
    """The real exit code and stderr. The strategy file is copied to a fresh folder, so this
    process compiles it itself (see test_strategy_file_loads_again_from_the_numba_cache)."""
    spec, game, message = sneaky
    old_path = spec.split(",")[1].rsplit(":", 1)[0]
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    new_path = str(fresh / "sneaky.py")
    Path(new_path).write_text(Path(old_path).read_text())
    spec, message = spec.replace(old_path, new_path), message.replace(old_path, new_path)
    out = tmp_path / "out"
    done = run_script("run", "--players", 3, "--strategies", spec, "--games", 200, "--seed", SEED,
                      "--out", out, "--threads", 1)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr == f"error: {message}\n"
    assert_no_results(out)


def test_strategy_file_loads_again_from_the_numba_cache(tmp_path):
    """A strategy file compiled with `cache=True` (``@strategy_function``, or the documented
    ``numba.njit(SIG, cache=True)``) must load again once numba has cached it: a second
    `run` with the same file plays the same games."""
    path = tmp_path / "mine.py"
    path.write_text(
        "from idiotsim.strategy_api import SIG, Strategy, strategy_function\n"
        "from idiotsim.strategies.basic import decide as basic_decide\n\n\n"
        "@strategy_function\n"
        "def decide(obs, hand, params, rng):\n"
        "    return basic_decide(obs, hand, params, rng)\n\n\n"
        "MINE = Strategy(name='mine', decide=decide, description='basic, from a file')\n")
    spec = f"{path}:MINE,basic,random"
    for attempt in ("first", "second"):
        done = run_script("run", "--players", 3, "--strategies", spec, "--games", 50, "--seed", SEED,
                          "--out", tmp_path / attempt)
        assert done.returncode == 0, f"{attempt} run: {done.stderr}"
    assert_frame_equal(results(tmp_path / "second"), results(tmp_path / "first"))


# ---- (5) --out holding results ----------------------------------------------------

def test_out_with_results_needs_force(capsys, tmp_path):
    out = tmp_path / "out"
    rules, seats = Rules(players=4), load_strategies(MIXED4, 4)
    runner.run(rules, seats, 1, 500, out, chunk_games=100)  # five chunk files
    before = snapshot(out)
    assert len(list(out.glob("*.parquet"))) == 5
    args = ["run", "--players", 4, "--strategies", MIXED4, "--games", 300, "--seed", 2, "--out", out]
    line = cli_user_error(capsys, *args)
    assert "already holds results" in line and "--force" in line
    assert snapshot(out) == before
    cli_ok(capsys, *args, "--force")
    cli_ok(capsys, *args[:-2], "--out", tmp_path / "fresh")
    assert_frame_equal(results(out), results(tmp_path / "fresh"))  # the old chunks are gone
    assert len(list(out.glob("*.parquet"))) == 1
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_out_is_a_file(capsys, tmp_path):
    path = tmp_path / "file.txt"
    path.write_text("keep me\n")
    line = cli_user_error(capsys, "run", "--games", 10, "--out", path)
    assert "not a folder" in line
    assert path.read_text() == "keep me\n"
    line = cli_user_error(capsys, "run", "--games", 10, "--out", path / "under")
    assert "cannot create the --out folder" in line


# ---- (6) bad inputs ---------------------------------------------------------------

TOO_MANY_THREADS = numba.config.NUMBA_NUM_THREADS + 1


@pytest.mark.parametrize("args, message", [
    (["run", "--games", 0], "--games must be 1.."),
    (["run", "--games", -5], "--games must be 1.."),
    (["run", "--games=-1"], "--games must be 1.."),
    (["run", "--games", "many"], "Invalid value for '--games'"),
    (["run"], "give --games"),
    (["run", "--games", 10, "--threads", 0], "--threads must be 1.."),
    (["run", "--games", 10, "--threads", -1], "--threads must be 1.."),
    (["run", "--games", 10, "--threads", TOO_MANY_THREADS], f"got {TOO_MANY_THREADS}"),
    (["run", "--games", 10, "--seed", -1], "--seed must be an integer 0..9223372036854775807"),
    (["run", "--games", 10, "--seed", 2 ** 63], "--seed must be an integer 0..9223372036854775807"),
    (["run", "--games", 10, "--seed", "abc"], "Invalid value for '--seed'"),
    (["run", "--games", 10, "--seed", "1.5"], "Invalid value for '--seed'"),
    (["run", "--games", 10, "--players", 11], "players must be 2..10"),
    (["run", "--games", 10, "--strategies", "nosuch"], "unknown strategy 'nosuch'"),
    (["deal", "--games", 0], "--games must be 1.."),
    (["deal", "--games", -2], "--games must be 1.."),
    (["deal", "--seed", -1], "--seed must be an integer 0..9223372036854775807"),
    (["deal", "--seed", 2 ** 63], "--seed must be an integer 0..9223372036854775807"),
    (["deal", "--seed", "abc"], "Invalid value for '--seed'"),
    (["deal", "--first-game", -1], "--first-game must be a game index"),
])
def test_bad_inputs_are_one_line_errors(capsys, tmp_path, args, message):
    out = tmp_path / "out"
    extra = ["--out", out] if args[0] == "run" else []
    line = cli_user_error(capsys, *args, *extra)
    assert message in line, line
    assert_no_results(out)


def test_deck_file_with_fewer_games_than_games(capsys, tmp_path):
    decks = tmp_path / "decks.txt"
    decks.write_text(cli_ok(capsys, "deal", "--players", 4, "--seed", 3, "--games", 3))
    out = tmp_path / "out"
    line = cli_user_error(capsys, "run", "--players", 4, "--decks", decks, "--games", 4, "--out", out)
    assert "--games 4" in line and "holds only 3 game(s)" in line
    assert_no_results(out)
    # two rounds: 3 decks are one game and a half
    line = cli_user_error(capsys, "run", "--players", 4, "--rule", "rounds=2", "--decks", decks, "--out", out)
    assert "not a multiple of rounds=2" in line
    line = cli_user_error(capsys, "run", "--players", 4, "--rule", "rounds=3", "--decks", decks, "--games", 2,
                      "--out", out)
    assert "holds only 1 game(s)" in line
    assert_no_results(out)


def test_bad_deck_file_for_run(capsys, tmp_path):
    out = tmp_path / "out"
    bad = tmp_path / "bad.txt"
    bad.write_text(format_deck(shuffled_deck(1, 0, 0, 1)[:51]) + "\n")
    line = cli_user_error(capsys, "run", "--decks", bad, "--out", out)
    assert "line 1" in line and "51" in line
    assert "cannot read deck file" in cli_user_error(capsys, "run", "--decks", tmp_path / "missing.txt", "--out", out)
    two = tmp_path / "two.txt"
    two.write_text(format_deck(np.tile(np.arange(52), 2)) + "\n")
    assert "104" in cli_user_error(capsys, "run", "--players", 4, "--decks", two, "--out", out)
    assert_no_results(out)


def test_bad_inputs_console_script(tmp_path):
    out = tmp_path / "out"
    for args in (["run", "--games", "0", "--out", out], ["run", "--games", "5", "--threads", "0", "--out", out],
                 ["deal", "--seed", "-3"]):
        done = run_script(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stdout == ""
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert_no_results(out)


# ---- (7) trace --engine numba --------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["--seed", 1],
    ["--seed", 2, "--game", 17, "--players", 3, "--strategies", "basic,random,basic"],
    ["--seed", 3, "--players", 2, "--strategies", "random", "--rule", "chance=true"],
    ["--seed", 4, "--players", 5, "--rule", "rounds=3", "--rule", "idiot_deals=true", "--strategies",
     "basic,basic,random,basic,basic"],
    ["--seed", 5, "--game", 3, "--players", 8, "--strategies", "random,basic,basic,basic,basic,basic,basic,basic"],
    ["--seed", 6, "--players", 4, "--rule", "low_rank=7", "--rule", "lowest_starts=true", "--rule",
     "opening_lowest=true", "--rule", "six_burn=3", "--rule", "ten_only_on_lower=true", "--rule",
     "last_hand_with_faceup=true", "--rule", "burn_plays_again=false", "--strategies", MIXED4],
    ["--seed", 7, "--players", 3, "--rule", "action_limit=25", "--strategies", "random"],
])
def test_trace_numba_equals_reference_byte_for_byte(capsys, args):
    reference = cli_ok(capsys, "trace", *args, "--engine", "reference")
    numba_trace = cli_ok(capsys, "trace", *args, "--engine", "numba")
    assert reference.count("\n") > 10 and reference.endswith("\n")
    assert numba_trace == reference


def test_trace_numba_from_a_deck_file(capsys, tmp_path):
    decks = tmp_path / "decks.txt"
    decks.write_text(cli_ok(capsys, "deal", "--players", 4, "--seed", 9, "--games", 3))
    args = ["trace", "--players", 4, "--deck", decks, "--strategies", MIXED4]
    assert cli_ok(capsys, *args, "--engine", "numba") == cli_ok(capsys, *args, "--engine", "reference")


def test_trace_numba_pretty_is_an_error(capsys):
    line = cli_user_error(capsys, "trace", "--seed", 1, "--engine", "numba", "--pretty")
    assert "--pretty" in line and "reference" in line
