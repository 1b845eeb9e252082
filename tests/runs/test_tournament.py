"""Tournaments: idiotsim.runs.tournament (lineups, blocks, rotated duplicate deals,
chunked resumable Parquet output), idiotsim.analysis.tournament_summary, idiotsim.analysis.tournament_plots and the
`tournament`, `summarize` and `demo` commands.

Most runs call ``cli.main(argv)`` in-process (it always ends with SystemExit).
Plotting costs seconds of CPU per run, so tests that are not about plots
replace ``idiotsim.analysis.tournament_plots.write_plots`` by a no-op (fixture ``no_plots``; the
commands import it at call time). The interruption tests run the installed
console script as a real subprocess and kill it half way.

Only the strategies ``basic`` and ``random`` are used, repeated where more
strategies are needed (``basic,basic`` is labelled ``basic`` and ``basic#2``).
"""
from __future__ import annotations

import itertools
import json
import math
import os
import signal
import subprocess
import uuid
import warnings
from collections import Counter
from pathlib import Path
from statistics import NormalDist

import numba
import numpy as np
import pandas as pd
import polars as pl
import pytest

from helpers import cli_ok, cli_user_error, run_cli, script, signal_when
from idiotsim import cli
from idiotsim.analysis import figures
from idiotsim.analysis import tournament_plots as plots
from idiotsim.strategies import loading as strategy_api
from idiotsim.analysis import tournament_summary as summary_mod
from idiotsim.runs import tournament as tm
from idiotsim.analysis.tournament_summary import summarize
from idiotsim.game.rules import Rules
from idiotsim.runs.tournament import TournamentConfig, run_tournament

SUMMARY_FILES = ("summary.md", "summary_strategies.csv", "summary_head_to_head.csv", "summary_seats.csv",
                 "summary_differences.csv")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
Z = NormalDist().inv_cdf(0.975)  # 1.95996...
T_DF2 = 4.302652729911275  # two-sided 95% t quantile with 2 degrees of freedom


# ---- helpers -------------------------------------------------------------------

def tournament(capsys, out, *args) -> str:
    return cli_ok(capsys, "tournament", "--out", out, *args)


def rows(out) -> pl.DataFrame:
    """Every game of a tournament folder, sorted by game."""
    files = sorted(Path(out).glob("chunk-*.parquet"))
    assert files, f"no chunk in {out}"
    return pl.concat([pl.read_parquet(f) for f in files]).sort("game")


def chunk_names(out) -> list[str]:
    return sorted(p.name for p in Path(out).glob("chunk-*.parquet"))


def summary_bytes(out) -> dict:
    return {name: (Path(out) / name).read_bytes() for name in SUMMARY_FILES}


def snapshot(folder) -> dict:
    """Every file of a folder: name -> (bytes, mtime_ns)."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(Path(folder).iterdir())}


def hidden(folder) -> list[str]:
    """Temporary files (names starting with a dot) left in a folder."""
    return sorted(p.name for p in Path(folder).iterdir() if p.name.startswith("."))


def manifest(out) -> dict:
    return json.loads((Path(out) / tm.MANIFEST).read_text())


def schema_columns(players: int) -> dict:
    """Column name -> polars dtype, from the documented ``tournament.SCHEMA`` table."""
    columns = {}
    for line in tm.SCHEMA.strip().splitlines()[2:]:
        name, dtype = [cell.strip() for cell in line.strip().strip("|").split("|")][:2]
        names = [name.replace("<s>", str(s)) for s in range(players)] if "<s>" in name else [name]
        for n in names:
            columns[n] = getattr(pl, dtype)
    return columns


@pytest.fixture
def no_plots(monkeypatch):
    monkeypatch.setattr(plots, "write_plots", lambda summary, out_dir: [])


@pytest.fixture
def restore_threads():
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


# ---- 1. determinism --------------------------------------------------------------

BASE = ("-s", "basic,random", "-n", "4", "--games", "2000", "--seed", "7")  # 5 lineups x 4 rotations, 100 blocks


def test_same_command_twice_gives_identical_results(capsys, tmp_path, no_plots):
    a, b = tmp_path / "a", tmp_path / "b"
    out_a = tournament(capsys, a, *BASE, "--chunk-games", "1000")
    out_b = tournament(capsys, b, *BASE, "--chunk-games", "1000")
    assert chunk_names(a) == chunk_names(b) == ["chunk-000000.parquet", "chunk-000001.parquet"]
    for name in chunk_names(a):
        assert pl.read_parquet(a / name).equals(pl.read_parquet(b / name)), name
    assert rows(a).height == 2000
    assert (a / tm.MANIFEST).read_bytes() == (b / tm.MANIFEST).read_bytes()
    assert summary_bytes(a) == summary_bytes(b)
    assert out_a.replace(str(a), "DIR") == out_b.replace(str(b), "DIR")

    # The same command again on the finished folder: no chunk is played again, nothing changes.
    before = snapshot(a)
    again = tournament(capsys, a, *BASE, "--chunk-games", "1000")
    after = snapshot(a)
    assert again == out_a
    assert set(after) == set(before)
    for name in chunk_names(a):
        assert after[name] == before[name], f"{name} was rewritten"
    assert {k: v[0] for k, v in after.items()} == {k: v[0] for k, v in before.items()}


def test_threads_and_chunk_size_do_not_change_results(capsys, tmp_path, no_plots, restore_threads):
    ref = tmp_path / "threads1"
    tournament(capsys, ref, *BASE, "--chunk-games", "1000", "--threads", "1")
    expected_rows, expected_summary = rows(ref), summary_bytes(ref)
    assert expected_rows.height == 2000
    variants = {"chunks1500": (["--chunk-games", "1500"], 2), "chunks5000": (["--chunk-games", "5000"], 1)}
    if numba.config.NUMBA_NUM_THREADS >= 2:
        variants["threads2"] = (["--chunk-games", "1000", "--threads", "2"], 2)
    for name, (extra, chunks) in variants.items():
        out = tmp_path / name
        tournament(capsys, out, *BASE, *extra)
        assert len(chunk_names(out)) == chunks, name
        assert rows(out).equals(expected_rows), name
        assert summary_bytes(out) == expected_summary, name


# ---- 2. interrupted runs resume ------------------------------------------------

KILL_ARGS = ["-s", "basic,random", "-n", "4", "--games", "16000", "--seed", "5", "--chunk-games", "1000",
             "--threads", "1"]
KILL_CHUNKS = 16


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The interrupted command's result when it runs to the end (in-process, without plots)."""
    out = tmp_path_factory.mktemp("uninterrupted") / "run"
    threads = numba.get_num_threads()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(plots, "write_plots", lambda summary, out_dir: [])
            with pytest.raises(SystemExit) as exc:
                cli.main(["tournament", "--out", str(out), *KILL_ARGS])
    finally:
        numba.set_num_threads(threads)
    assert exc.value.code == 0
    return out


def _kill_half_way(out: Path, sig, chunks: int = KILL_CHUNKS // 2) -> subprocess.CompletedProcess:
    """Start the command, poll its folder until `chunks` chunk files exist, send `sig`."""
    return signal_when(["tournament", "--out", out, *KILL_ARGS],
                       lambda: out.is_dir() and len(list(out.glob("chunk-*.parquet"))) >= chunks, sig,
                       f"{chunks} chunks")


@pytest.mark.long(20)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_interrupted_run_resumes_to_the_uninterrupted_result(tmp_path, uninterrupted, sig):
    out = tmp_path / "run"
    killed = _kill_half_way(out, sig)
    if sig == signal.SIGKILL:
        assert killed.returncode == -signal.SIGKILL
    else:
        assert killed.returncode != 0, killed.stderr
        assert "Traceback" not in killed.stderr
    # Half way: some chunks, not all; no summary yet; the manifest lists only chunks that exist.
    done = chunk_names(out)
    assert KILL_CHUNKS // 2 <= len(done) < KILL_CHUNKS, done
    assert not (out / "summary.md").exists()
    assert {tm.chunk_path(out, c).name for c in manifest(out)["finished_chunks"]} <= set(done)

    rerun = subprocess.run(script() + ["tournament", "--out", str(out), *KILL_ARGS], capture_output=True, text=True,
                           timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert chunk_names(out) == [tm.chunk_path(out, c).name for c in range(KILL_CHUNKS)]
    assert rows(out).equals(rows(uninterrupted))
    assert summary_bytes(out) == summary_bytes(uninterrupted)
    m = manifest(out)
    assert m["finished_chunks"] == list(range(KILL_CHUNKS))
    assert m["chunks"] == KILL_CHUNKS and m["total_games"] == 16_000
    assert m == manifest(uninterrupted)
    assert hidden(out) == []


def test_resume_removes_temporary_files_of_a_run_killed_mid_write(capsys, tmp_path, no_plots):
    # SIGKILL while chunk 2 is being written leaves its temporary file (write_atomic's
    # `.chunk-000002.parquet.<hex>.tmp`) and possibly `.manifest.json.tmp`; built here by hand.
    args = ["-s", "basic,random", "-n", "3", "--games", "3000", "--seed", "2", "--chunk-games", "1000"]
    full, out = tmp_path / "full", tmp_path / "killed"
    tournament(capsys, full, *args)
    tournament(capsys, out, *args)
    chunk2 = tm.chunk_path(out, 2)
    data = chunk2.read_bytes()
    chunk2.unlink()
    (out / f".{chunk2.name}.{uuid.uuid4().hex}.tmp").write_bytes(data[: len(data) // 2])
    m = manifest(out)
    m["finished_chunks"] = [0, 1]
    (out / tm.MANIFEST).write_text(json.dumps(m, indent=2) + "\n")
    (out / f".{tm.MANIFEST}.tmp").write_text(json.dumps(m, indent=2)[:50])
    for name in SUMMARY_FILES:
        (out / name).unlink()

    tournament(capsys, out, *args)
    assert rows(out).equals(rows(full))
    assert summary_bytes(out) == summary_bytes(full)
    assert manifest(out)["finished_chunks"] == [0, 1, 2]
    assert hidden(out) == [], "a resumed run leaves the temporary files of the killed run behind"


# ---- 3. another configuration against an existing folder ------------------------

CONFIG = {"-s": "basic,random", "-n": "3", "--games": "2000", "--seed": "1", "--chunk-games": "1000"}


def _args(config: dict, *extra) -> list[str]:
    return [x for kv in config.items() for x in kv] + list(extra)


@pytest.mark.parametrize("change, extra, key", [
    ({"--seed": "2", "--games": "500"}, [], "seed"),  # and fewer chunks: --force must drop the old ones
    ({"-s": "basic,random,random"}, [], "strategies"),
    ({}, ["--rule", "chance=true"], "rules"),
    ({"-n": "4"}, [], "players"),
    ({"--chunk-games": "1500"}, [], "chunk_games"),
], ids=["seed", "strategies", "rules", "players", "chunk_games"])
def test_another_configuration_is_refused_and_force_replaces(capsys, tmp_path, no_plots, change, extra, key):
    out = tmp_path / "t"
    tournament(capsys, out, *_args(CONFIG))
    before = snapshot(out)
    new_args = _args({**CONFIG, **change}, *extra)

    line = cli_user_error(capsys, "tournament", "--out", out, *new_args)
    assert "another configuration" in line and key in line and "--force" in line, line
    assert snapshot(out) == before, "the folder was touched"

    tournament(capsys, out, *new_args, "--force")
    fresh = tmp_path / "fresh"
    tournament(capsys, fresh, *new_args)
    assert sorted(os.listdir(out)) == sorted(os.listdir(fresh))
    assert rows(out).equals(rows(fresh))
    assert summary_bytes(out) == summary_bytes(fresh)
    assert manifest(out) == manifest(fresh)
    assert hidden(out) == []
    old_config = json.loads(before[tm.MANIFEST][0])["config"]
    assert manifest(out)["config"] != old_config


# ---- 4. fair tables ----------------------------------------------------------------

def _rr(labels, n):
    combos = itertools.combinations if len(labels) >= n else itertools.combinations_with_replacement
    return {tuple(c) for c in combos(labels, n)}


FAIRNESS = {
    # 5 strategies, 4 seats: 5 lineups x 4 rotations = 20 games a block; 60 blocks
    "5-strategies-4-players": (["-s", "basic,random,basic,basic,basic", "-n", "4", "--games", "1200"], 4,
                               _rr(["basic", "random", "basic#2", "basic#3", "basic#4"], 4), "round robin"),
    # 3 strategies, 4 seats: every multiset of 4 (strategies repeat); 15 lineups, 60 games a block; 12 blocks
    "3-strategies-4-players": (["-s", "basic,random,basic", "-n", "4", "--games", "720"], 4,
                               _rr(["basic", "random", "basic#2"], 4), "round robin"),
    # field mode: each candidate against basic; 2 lineups, 8 games a block; 60 blocks
    "field-basic": (["-s", "basic,random", "--field", "basic", "-n", "4", "--games", "480"], 4,
                    {("basic",) * 4, ("random", "basic", "basic", "basic")}, "field"),
    # independent deals: the same seating, every game its own deal; 1 lineup x 3 rotations; 100 blocks
    "independent-deals": (["-s", "basic,random,basic", "-n", "3", "--games", "300", "--independent-deals"], 3,
                          _rr(["basic", "random", "basic#2"], 3), "round robin"),
}


@pytest.mark.parametrize("case", list(FAIRNESS))
def test_fair_tables(capsys, tmp_path, no_plots, case):
    args, n, expected_lineups, mode = FAIRNESS[case]
    out = tmp_path / case
    tournament(capsys, out, *args, "--seed", "3")
    df = rows(out)
    m = manifest(out)
    lineups = [tuple(x) for x in m["lineups"]]
    duplicate = "--independent-deals" not in args
    assert {tuple(sorted(x)) for x in lineups} == {tuple(sorted(x)) for x in expected_lineups}
    assert len(lineups) == len(expected_lineups)
    L = len(lineups)
    blocks = m["total_games"] // (L * n)
    games = int(args[args.index("--games") + 1])
    assert blocks == math.ceil(games / (L * n)) and m["total_games"] == blocks * L * n == df.height
    assert df["game"].to_list() == list(range(df.height))
    assert df.columns == list(schema_columns(n))
    assert dict(df.schema) == schema_columns(n)

    records = list(df.iter_rows(named=True))
    tables = [tuple(r[f"strategy_{s}"] for s in range(n)) for r in records]
    labels = sorted({x for lineup in lineups for x in lineup})

    # Game ids: g = (b * L + l) * n + j; one deal per (block, lineup), or per game with --independent-deals.
    for r, table in zip(records, tables):
        g = r["game"]
        assert (r["block"], r["lineup"], r["rotation"]) == (g // n // L, g // n % L, g % n)
        assert r["deal"] == (g // n if duplicate else g)
        assert Counter(table) == Counter(lineups[r["lineup"]]), "a table is not its lineup"
    assert Counter((r["block"], r["lineup"]) for r in records) == {(b, l): n for b in range(blocks) for l in range(L)}

    # Each deal: played n times, rotations 0..n-1, row j = row 0 turned by j seats, so each
    # strategy of the lineup sits in each seat once (as often as it appears in the lineup).
    groups: dict = {}
    for r, table in zip(records, tables):
        groups.setdefault((r["block"], r["lineup"]), []).append((r, table))
    deals = Counter(r["deal"] for r in records)
    if duplicate:
        assert set(deals.values()) == {n} and len(deals) == blocks * L
    else:
        assert set(deals.values()) == {1}
    for (b, l), group in groups.items():
        group.sort(key=lambda x: x[0]["rotation"])
        assert [r["rotation"] for r, _ in group] == list(range(n))
        if duplicate:
            assert len({r["deal"] for r, _ in group}) == 1
        first = group[0][1]
        for j, (_, table) in enumerate(group):
            assert table == tuple(first[(s + j) % n] for s in range(n))
        for s in range(n):
            assert Counter(table[s] for _, table in group) == Counter(lineups[l])

    # Every strategy sits in every seat equally often.
    seat_counts = Counter((label, s) for table in tables for s, label in enumerate(table))
    for label in labels:
        assert len({seat_counts[(label, s)] for s in range(n)}) == 1, (label, seat_counts)
    if mode == "round robin":
        assert len(set(seat_counts.values())) == 1, seat_counts  # and every strategy equally often
        # Every pair of strategies meets equally often.
        meetings = Counter(pair for table in tables for pair in itertools.combinations(sorted(set(table)), 2))
        assert set(meetings) == set(itertools.combinations(labels, 2))
        assert len(set(meetings.values())) == 1, meetings
        # Over (n-1)! blocks the cyclic orders balance who sits next (left) to whom.
        if blocks % math.factorial(n - 1) == 0:
            nxt = Counter((t[s], t[(s + 1) % n]) for t in tables for s in range(n) if t[s] != t[(s + 1) % n])
            assert set(nxt) == set(itertools.permutations(labels, 2))
            assert len(set(nxt.values())) == 1, nxt
    else:
        # Field mode: each candidate's lineup is played equally often, and in it the candidate
        # sits in every seat once per block.
        per_lineup = Counter(r["lineup"] for r in records)
        assert set(per_lineup.values()) == {blocks * n}
        for l, lineup in enumerate(lineups):
            candidate_seats = Counter(s for r, t in zip(records, tables) if r["lineup"] == l
                                      for s in range(n) if t[s] == lineup[0])
            assert set(candidate_seats.values()) == {blocks * lineup.count(lineup[0])}


# ---- 5. A/A checks -------------------------------------------------------------------

@pytest.mark.parametrize("name", ["basic", "random"])
def test_a_a_comparison_shows_no_difference(capsys, tmp_path, no_plots, name):
    out = tmp_path / "aa"
    tournament(capsys, out, "-s", f"{name},{name}", "-n", "4", "--games", "2000", "--seed", "11")
    s = summarize(out)
    assert sorted(s.strategies["strategy"].to_list()) == [name, f"{name}#2"]
    assert s.differences.height == 1
    d = s.differences.row(0, named=True)
    assert {d["better"], d["worse"]} == {name, f"{name}#2"}
    assert d["significant"] is False
    assert d["lo"] <= 0 <= d["hi"], d
    for r in s.head_to_head.iter_rows(named=True):
        assert r["lo"] <= 0.5 <= r["hi"], r
    lo, hi = s.strategies["mean_place_lo"].to_list(), s.strategies["mean_place_hi"].to_list()
    assert lo[0] <= hi[1] and lo[1] <= hi[0], "the mean-place intervals do not overlap"
    md = (out / "summary.md").read_text()
    assert f"is not significantly different from {d['worse']}" in md
    if name == "basic":
        # A deterministic strategy against itself on rotated duplicate deals: every rotation of a
        # deal plays the same game, so both labels average exactly 2.5 and the difference is 0.
        assert s.strategies["mean_place"].to_list() == [2.5, 2.5]
        assert d["difference"] == 0
        assert s.head_to_head["a_ahead"].to_list() == [0.5, 0.5]


# ---- 6. summary numbers against a hand-made result set ---------------------------

# 3 players, strategies A, B, C; 6 games in blocks 0, 0 | 1, 1, 1 | 2 (3 clusters of 2, 3, 1 games).
#        block  seats (0,1,2)    places (0,1,2)  actions  stalled
HAND_GAMES = [
    (0, ("A", "B", "C"), (1, 2, 3), 40, False),
    (0, ("B", "C", "A"), (2, 3, 1), 50, False),
    (1, ("C", "A", "B"), (2, 1, 3), 30, False),
    (1, ("A", "C", "B"), (2, 1, 3), 60, False),
    (1, ("B", "A", "C"), (1, 3, 2), 45, True),
    (2, ("A", "B", "C"), (1, 3, 2), 35, False),
]
# By hand from the table above:
#   A places 1,1 | 1,2,3 | 1   -> 9/6 = 1.5;   wins 4, Idiot 1
#   B places 2,2 | 3,3,1 | 3   -> 14/6;        wins 1, Idiot 3
#   C places 3,3 | 2,1,2 | 2   -> 13/6;        wins 1, Idiot 2
HAND_PLACES = {"A": [[1, 1], [1, 2, 3], [1]], "B": [[2, 2], [3, 3, 1], [3]], "C": [[3, 3], [2, 1, 2], [2]]}


def clustered_by_hand(y, n, t=T_DF2) -> tuple[float, float, float]:
    """Ratio estimate sum(y)/sum(n) over clusters, its linearized standard error and t interval."""
    r = sum(y) / sum(n)
    d = len(y)
    se = math.sqrt(sum((yi - r * ni) ** 2 for yi, ni in zip(y, n)) / (d * (d - 1))) / (sum(n) / d)
    return r, r - t * se, r + t * se


def rate_by_hand(y, n) -> tuple[float, float, float]:
    """A rate's clustered interval, cut to [0, 1]."""
    r, lo, hi = clustered_by_hand(y, n)
    return r, max(lo, 0.0), min(hi, 1.0)


def assert_ci(got, expected):
    """(estimate, lo, hi) equal; the bounds within the 3-decimal t table the library uses."""
    est, lo, hi = expected
    assert got[0] == pytest.approx(est, rel=1e-12)
    tol = 2e-4 * (hi - lo)
    assert got[1] == pytest.approx(lo, abs=tol) and got[2] == pytest.approx(hi, abs=tol), (got, expected)


def write_hand_tournament(out: Path) -> None:
    out.mkdir()
    n = 3
    dtypes = schema_columns(n)
    data = {c: [] for c in dtypes}
    for g, (block, seats, places, actions, stalled) in enumerate(HAND_GAMES):
        data["game"].append(g)
        data["block"].append(block)
        data["lineup"].append(0)
        data["rotation"].append(g % n)
        data["deal"].append(g // n)
        for s in range(n):
            data[f"strategy_{s}"].append(seats[s])
            data[f"place_{s}"].append(places[s])
        data["actions"].append(actions)
        data["burns"].append(1)
        data["pickups"].append(2)
        data["stalled"].append(stalled)
    pl.DataFrame({c: pl.Series(c, v, dtype=dtypes[c]) for c, v in data.items()}).write_parquet(
        tm.chunk_path(out, 0))
    config = {"strategies": ["A", "B", "C"], "players": 3, "games": 6, "seed": 0,
              "rules": {"decks": 1, "low_rank": None, "lowest_starts": False, "rounds": 1, "chance": False,
                        "ten_only_on_lower": False, "idiot_deals": False, "burn_plays_again": True, "six_burn": 0,
                        "last_hand_with_faceup": False, "opening_lowest": False, "action_limit": 10000},
              "field": [], "duplicate": True, "chunk_games": 1000, "version": "0.1.0"}
    hand = {"config": config, "total_games": 6, "chunks": 1, "lineups": [["A", "B", "C"]], "finished_chunks": [0]}
    (out / tm.MANIFEST).write_text(json.dumps(hand, indent=2) + "\n")


@pytest.fixture
def hand_folder(tmp_path) -> Path:
    out = tmp_path / "hand"
    write_hand_tournament(out)
    return out


def test_hand_made_folder_follows_the_manifest_format(tmp_path, hand_folder):
    rules = {k: v for k, v in Rules(players=3).as_dict().items() if k != "players"}  # as the CLI fills it
    config = TournamentConfig(strategies=("basic", "random"), players=3, games=6, seed=0, rules=rules,
                              chunk_games=1000)
    real = tmp_path / "real"
    real.mkdir()
    tm.write_manifest(real, config, tm.Tournament(config), {0})
    hand, written = manifest(hand_folder), manifest(real)
    assert set(hand) == set(written)
    assert set(hand["config"]) == set(written["config"])
    assert hand["config"]["rules"] == written["config"]["rules"]
    assert dict(pl.read_parquet(tm.chunk_path(hand_folder, 0)).schema) == schema_columns(3)


def test_summary_numbers_by_hand(hand_folder):
    s = summarize(hand_folder)
    assert (s.players, s.games) == (3, 6)
    assert s.stall_rate == pytest.approx(1 / 6)

    t = {r["strategy"]: r for r in s.strategies.iter_rows(named=True)}
    assert s.strategies["strategy"].to_list() == ["A", "C", "B"]  # ranked by mean place
    assert s.strategies["rank"].to_list() == [1, 2, 3]
    expected = {"A": (9 / 6, 4, 1), "B": (14 / 6, 1, 3), "C": (13 / 6, 1, 2)}
    for name, (mean, wins, idiots) in expected.items():
        r = t[name]
        assert r["games"] == 6
        assert r["mean_place"] == pytest.approx(mean, rel=1e-12)
        assert r["win_rate"] == pytest.approx(wins / 6) and r["idiot_rate"] == pytest.approx(idiots / 6)
        assert r["stall_rate"] == pytest.approx(1 / 6)
        # Clustered CIs over the 3 blocks: mean place, win and Idiot rates alike.
        ys = [sum(c) for c in HAND_PLACES[name]]
        ns = [len(c) for c in HAND_PLACES[name]]
        assert_ci((r["mean_place"], r["mean_place_lo"], r["mean_place_hi"]), clustered_by_hand(ys, ns))
        win_ys = [sum(p == 1 for p in c) for c in HAND_PLACES[name]]
        idiot_ys = [sum(p == 3 for p in c) for c in HAND_PLACES[name]]
        assert_ci((r["win_rate"], r["win_lo"], r["win_hi"]), rate_by_hand(win_ys, ns))
        assert_ci((r["idiot_rate"], r["idiot_lo"], r["idiot_hi"]), rate_by_hand(idiot_ys, ns))
    # A worked out in full: clusters (y, n) = (2, 2), (6, 3), (1, 1); r = 1.5; residuals y - r n =
    # -1, 1.5, -0.5; variance 3.5 / (3 * 2) / 2^2; half width t(2) * sqrt(that).
    half = T_DF2 * math.sqrt(3.5 / 6 / 4)
    assert_ci((t["A"]["mean_place"], t["A"]["mean_place_lo"], t["A"]["mean_place_hi"]), (1.5, 1.5 - half, 1.5 + half))

    # Place distribution.
    places = {(r["strategy"], r["place"]): r["count"] for r in s.places.iter_rows(named=True)}
    assert places == {("A", 1): 4, ("A", 2): 1, ("A", 3): 1, ("B", 1): 1, ("B", 2): 2, ("B", 3): 3,
                      ("C", 1): 1, ("C", 2): 3, ("C", 3): 2}

    # Head to head: share of the shared games where a finishes ahead of b.
    head = {(r["a"], r["b"]): r for r in s.head_to_head.iter_rows(named=True)}
    assert set(head) == set(itertools.permutations("ABC", 2))
    ahead = {("A", "B"): [[1, 1], [1, 1, 0], [1]], ("A", "C"): [[1, 1], [1, 0, 0], [1]],
             ("C", "B"): [[0, 0], [1, 1, 0], [1]]}
    for (a, b), clusters in ahead.items():
        ys, ns = [sum(c) for c in clusters], [len(c) for c in clusters]
        for (x, y), flip in (((a, b), False), ((b, a), True)):
            r = head[(x, y)]
            assert r["meetings"] == 6
            yy = [n_ - y_ for y_, n_ in zip(ys, ns)] if flip else ys
            assert_ci((r["a_ahead"], r["lo"], r["hi"]), rate_by_hand(yy, ns))
    assert head[("A", "B")]["a_ahead"] == pytest.approx(5 / 6)
    assert head[("A", "C")]["a_ahead"] == pytest.approx(4 / 6)
    assert head[("C", "B")]["a_ahead"] == pytest.approx(3 / 6)

    # Seat win rates, clustered by block: seat 0 wins games 0 | 4 | 5; seat 1 games | 2, 3 |; seat 2 game 1 | |.
    seats = {r["seat"]: r for r in s.seats.iter_rows(named=True)}
    for seat, wins in {0: [1, 1, 1], 1: [0, 2, 0], 2: [1, 0, 0]}.items():
        assert_ci((seats[seat]["win_rate"], seats[seat]["lo"], seats[seat]["hi"]), rate_by_hand(wins, [2, 3, 1]))

    # Game length: 40 50 | 30 60 (45 stalled) | 35 actions: the stalled game is left out of mean and median.
    assert dict(s.length.iter_rows()) == {30: 1, 35: 1, 40: 1, 45: 1, 50: 1, 60: 1}
    assert_ci(s.length_ci, clustered_by_hand([90, 90, 35], [2, 2, 1]))
    assert s.length_ci[0] == pytest.approx(215 / 5) and s.length_median == 40
    assert_ci((s.stall.mean, s.stall.lo, s.stall.hi), rate_by_hand([0, 1, 0], [2, 3, 1]))

    # The Markdown table shows the same numbers.
    md = summary_mod.to_markdown(s)
    assert "| 1 | A | 6 | 1.500 (-0.143 to 3.143) | 66.67% (" in md
    assert "6 games, 3 players; stall rate 16.6667% (" in md
    assert "games that did not stall: mean length 43.00 (" in md and "median 40" in md


def test_ranking_difference_is_the_difference_of_mean_places(hand_folder):
    # summary.py: "every mean and difference gets a cluster-robust 95% interval (ratio estimator ...)".
    # The difference shown next to the table's mean places must be their difference, also when the
    # clusters hold unequal numbers of games: by hand, C - A = 13/6 - 9/6 and B - C = 14/6 - 13/6.
    s = summarize(hand_folder)
    diffs = {(r["better"], r["worse"]): r for r in s.differences.iter_rows(named=True)}
    assert set(diffs) == {("A", "C"), ("C", "B"), ("A", "B")}  # adjacent pairs, then the top against every other
    assert diffs[("A", "C")]["difference"] == pytest.approx(4 / 6, rel=1e-9)
    assert diffs[("C", "B")]["difference"] == pytest.approx(1 / 6, rel=1e-9)
    assert diffs[("A", "B")]["difference"] == pytest.approx(5 / 6, rel=1e-9)
    assert s.differences["against"].to_list() == ["next", "next", "top"]


def test_ranking_difference_matches_mean_places_with_more_blocks_than_clusters(capsys, tmp_path, no_plots):
    # 1500 blocks in 1000 clusters of 1 or 2 blocks: clusters of unequal size in a real tournament.
    out = tmp_path / "big"
    tournament(capsys, out, "-s", "basic,random", "-n", "2", "--games", "3000", "--seed", "9")
    s = summarize(out)
    assert rows(out)["block"].max() + 1 == 1500
    mean = dict(s.strategies.select("strategy", "mean_place").iter_rows())
    for r in s.differences.iter_rows(named=True):
        assert r["difference"] == pytest.approx(mean[r["worse"]] - mean[r["better"]], rel=1e-9, abs=1e-12)


# ---- 7. plots; summarize regenerates the same files -----------------------------

def assert_png(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, path.name
    assert data[12:16] == b"IHDR", path.name
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 100 and height > 100, (path.name, width, height)
    assert data[-12:] == b"\x00\x00\x00\x00IEND\xaeB`\x82", path.name
    from PIL import Image
    with Image.open(path) as image:
        image.verify()
    with Image.open(path) as image:
        image.load()
        assert image.size == (width, height)


def test_plots_and_summarize_regenerates_identical_files(capsys, tmp_path):
    assert len(plots.PLOTS) == 6
    out = tmp_path / "t"
    shown = tournament(capsys, out, "-s", "basic,random", "-n", "3", "--games", "300", "--seed", "3")
    for name in plots.PLOTS:
        assert_png(out / name)
    files = SUMMARY_FILES + plots.PLOTS
    before = {name: (out / name).read_bytes() for name in files}
    for name in files:
        (out / name).unlink()
    again = cli_ok(capsys, "summarize", out)
    assert again == shown
    after = {name: (out / name).read_bytes() for name in files}
    for name in SUMMARY_FILES:
        assert after[name] == before[name], name
    for name in plots.PLOTS:
        assert_png(out / name)
        assert after[name] == before[name], f"{name} differs when drawn again"
    assert hidden(out) == []


def test_a_strategy_file_with_a_long_path_fits_the_plots(capsys, tmp_path):
    folder = tmp_path / ("a-folder-with-a-long-name-" * 3)
    folder.mkdir()
    preset = folder / "best.toml"
    preset.write_text('family = "weighted"\n[knobs]\npickup = -3.0\n')
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="Tight layout not applied")  # no room left for the axes
        tournament(capsys, tmp_path / "t", "-s", f"{preset},basic", "-n", "2", "--games", "1000")
    assert f"| {preset} |" in (tmp_path / "t" / "summary.md").read_text()  # the tables keep the whole name
    assert plots.plot_labels([str(preset), "basic"]) == ["…" + str(preset)[-(plots.LABEL_WIDTH - 1):], "basic"]
    alike = [f"{start}{'-' * plots.LABEL_WIDTH}best.toml" for start in ("x", "y")]
    assert plots.plot_labels(alike) == alike  # shortened they would read the same: whole names


def test_plot_bytes_survive_a_last_bit_change_of_the_layout(capsys, tmp_path, monkeypatch):
    """tight_layout's margins differ in their last bits between CPUs (numpy's SIMD kernels). An axes edge on
    a half pixel, moved by those bits, would move a spine by a pixel and the PNG bytes with it:
    reports/check/leaderboard/convergence.png failed its check on an AVX-512 machine that way, its right
    edge 6 units in the last place below where another machine put it."""
    out = tmp_path / "t"
    tournament(capsys, out, "-s", "basic,random", "-n", "3", "--games", "300", "--seed", "3")
    summary = summarize(out)
    tight_layout = plots.plt.Figure.tight_layout

    def right_edge_on_a_half_pixel(fig, ulps_down):
        tight_layout(fig)
        pixels = fig.get_figwidth() * figures.DPI
        right = (round(fig.subplotpars.right * pixels) + 0.5) / pixels
        for _ in range(ulps_down):
            right = float(np.nextafter(right, 0.0))
        fig.subplots_adjust(right=right)

    drawn = []
    for ulps_down in (0, 8):
        monkeypatch.setattr(plots.plt.Figure, "tight_layout", lambda fig: right_edge_on_a_half_pixel(fig, ulps_down))
        drawn.append(plots.convergence(summary, tmp_path / f"convergence{ulps_down}.png").read_bytes())
    assert drawn[0] == drawn[1]


# ---- 8. bad input ---------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["-s", "basic,nosuch"], "unknown strategy 'nosuch'"),
    (["-s", "basic,random", "--field", "nosuch"], "unknown strategy 'nosuch'"),
    (["-s", "basic"], "needs at least 2 strategies"),
    (["-s", "basic,random", "--rule", "low_rank=8"], "invalid rules: low_rank"),
    (["-s", "basic,random", "--rule", "jokers=1"], "unknown rule 'jokers'"),
    (["-s", "basic,random", "--rule", "chance"], "chance"),
    (["-s", "basic,random", "--games", "0"], "--games must be"),
    (["-s", "basic,random", "--chunk-games", "5"], "--chunk-games must be 1000..10000000, got 5"),
    (["-s", "basic,random", "--threads", "0"], "--threads must be"),
    (["-s", "basic,random", "--seed", "-1"], "--seed must be"),
    (["-s", "basic,random", "-n", "11"], "players must be 2..10"),
    (["--games", "10"], "--strategies"),
], ids=["strategy", "field", "one-strategy", "rule-value", "rule-name", "rule-syntax", "games-0", "chunk-games-5",
        "threads", "seed", "players", "no-strategies"])
def test_bad_tournament_input(capsys, tmp_path, args, message):
    out = tmp_path / "t"
    line = cli_user_error(capsys, "tournament", "--out", out, *args)
    assert message in line, line
    assert not out.exists(), "a bad command created --out"


def test_bad_folders(capsys, tmp_path):
    a_file = tmp_path / "file.txt"
    a_file.write_text("keep me\n")
    line = cli_user_error(capsys, "tournament", "--out", a_file, "-s", "basic,random", "--games", "10")
    assert "exists and is not a folder" in line
    assert a_file.read_text() == "keep me\n"
    line = cli_user_error(capsys, "tournament", "--out", a_file / "t", "-s", "basic,random", "--games", "10")
    assert "cannot create the --out folder" in line

    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine\n")
    line = cli_user_error(capsys, "tournament", "--out", other, "-s", "basic,random", "--games", "10")
    assert "not empty" in line
    assert sorted(os.listdir(other)) == ["notes.txt"]

    empty = tmp_path / "empty"
    empty.mkdir()
    assert "holds no tournament" in cli_user_error(capsys, "summarize", empty)
    assert os.listdir(empty) == []
    assert "does not exist" in cli_user_error(capsys, "summarize", tmp_path / "missing")
    assert not (tmp_path / "missing").exists()
    (empty / tm.MANIFEST).write_text("{not json")
    assert "not valid JSON" in cli_user_error(capsys, "summarize", empty)

    # A tournament folder whose chunks are not written yet.
    started = tmp_path / "started"
    started.mkdir()
    config = TournamentConfig(strategies=("basic", "random"), players=3, games=12, seed=0)
    tm.write_manifest(started, config, tm.Tournament(config), set())
    assert "no finished chunk" in cli_user_error(capsys, "summarize", started)


def test_console_script_errors_are_one_line(tmp_path):
    for args in (["tournament", "--out", str(tmp_path / "t"), "-s", "basic,nosuch"],
                 ["tournament", "--out", str(tmp_path / "t"), "-s", "basic,random", "--chunk-games", "5"],
                 ["summarize", str(tmp_path)]):
        done = subprocess.run(script() + args, capture_output=True, text=True, timeout=300)
        assert done.returncode == 2, done.stderr
        assert done.stdout == ""
        assert "Traceback" not in done.stderr
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr


# ---- 9. the Python API ------------------------------------------------------------

def test_python_api_polars_and_pandas(capsys, tmp_path, no_plots):
    config = TournamentConfig(strategies=("basic", "random"), players=3, games=600, seed=4, chunk_games=1000)
    out = run_tournament(config, tmp_path / "api")
    assert Path(out) == tmp_path / "api"
    df = rows(out)
    assert df.height == 600 and dict(df.schema) == schema_columns(3)
    m = manifest(out)
    assert m["finished_chunks"] == [0] and m["total_games"] == 600

    # The same tournament from the command line plays the same games.
    cli_out = tmp_path / "cli"
    tournament(capsys, cli_out, "-s", "basic,random", "-n", "3", "--games", "600", "--seed", "4",
               "--chunk-games", "1000")
    assert rows(cli_out).equals(df)

    s = summarize(out)
    assert isinstance(s, summary_mod.Summary)
    tables = ("strategies", "differences", "head_to_head", "seats", "places", "length", "convergence")
    pandas_tables = s.to_pandas()
    assert set(pandas_tables) == set(tables)
    for name in tables:
        frame, pdf = getattr(s, name), pandas_tables[name]
        assert isinstance(frame, pl.DataFrame) and isinstance(pdf, pd.DataFrame), name
        assert list(pdf.columns) == frame.columns and len(pdf) == frame.height, name
        for column in frame.columns:
            np.testing.assert_array_equal(np.asarray(pdf[column]), frame[column].to_numpy(), err_msg=name)

    # The numbers agree with the raw rows (recomputed with pandas).
    long = pd.concat([pd.DataFrame({"strategy": df[f"strategy_{s_}"].to_list(), "place": df[f"place_{s_}"].to_list()})
                      for s_ in range(3)])
    by = long.groupby("strategy")["place"]
    st = pandas_tables["strategies"].set_index("strategy")
    for label, mean in by.mean().items():
        assert st.loc[label, "mean_place"] == pytest.approx(mean, rel=1e-12)
        assert st.loc[label, "games"] == by.size()[label]
        assert st.loc[label, "win_rate"] == pytest.approx((long[long.strategy == label].place == 1).mean())
        assert st.loc[label, "idiot_rate"] == pytest.approx((long[long.strategy == label].place == 3).mean())
    assert s.length_ci[0] == pytest.approx(df["actions"].mean())
    assert pandas_tables["length"]["games"].sum() == 600
    # The summary of the CLI run is the summary of the API run.
    cli_strategies = pd.read_csv(cli_out / "summary_strategies.csv")
    assert list(cli_strategies["strategy"]) == list(pandas_tables["strategies"]["strategy"])
    np.testing.assert_allclose(cli_strategies["mean_place"], pandas_tables["strategies"]["mean_place"], atol=1e-6)


# ---- demo -------------------------------------------------------------------------------

def test_demo_strategies_all_runs_the_cheap_round_robin(capsys, tmp_path, monkeypatch, no_plots):
    # Only basic and random (and the search players, which `all` leaves out), so the test does not grow with
    # every strategy shipped.
    shipped = strategy_api.registry()
    monkeypatch.setattr(strategy_api, "registry", lambda: {k: shipped[k] for k in ("basic", "random", "search",
                                                                                   "search-perfect-info")})
    out = tmp_path / "demo"
    shown = cli_ok(capsys, "demo", "--out", out, "--strategies", "all", "--games", "200")
    m = manifest(out)
    assert m["config"]["strategies"] == ["basic", "random"]
    assert (m["config"]["players"], m["config"]["seed"], m["total_games"]) == (4, 2026, 200)
    table = shown[shown.index("Strategies"):shown.index("Ranking")]  # the terminal's table (tests/cli/test_terminal.py)
    assert "basic" in table and "random" in table and "|" not in table
    for name in SUMMARY_FILES:
        assert (out / name).exists()


def test_the_demo_ladder_holds_the_players_a_user_came_for():
    from idiotsim.analysis.ladder import LADDER
    from idiotsim.strategies.search.search_knobs import K
    specs = [rung.spec for rung in LADDER]
    assert specs == ["random", "", "tuned-4p", "learned-fast-4p", "learned-4p", "learned-search-4p", "search"]
    k = int(strategy_api.load_strategy("search").params[K.rollouts])  # the K it plays, the knob's default
    assert f"K = {k}" in LADDER[-1].label and f"on {k} deals" in LADDER[-1].what
    for rung in LADDER:
        if rung.spec:
            strategy_api.load_strategy(rung.spec)
    shares = [rung.share for rung in LADDER if rung.spec]
    assert min(shares) == LADDER[-1].share == 1  # the search, the most expensive, plays fewest


@pytest.fixture
def cheap_ladder(monkeypatch):
    """The demo's ladder with cheap players in its rungs (the real one plays the search for a minute)."""
    from idiotsim.analysis import ladder
    rungs = (ladder.Rung("heuristic", "heuristic", 3, "a heuristic"), ladder.Rung("basic", "", 0, "the reference"),
             ladder.Rung("random", "random", 1, "random"))
    monkeypatch.setattr(ladder, "LADDER", rungs)
    return rungs


def test_demo_ladder_plays_each_player_against_three_basic_on_the_same_deals(capsys, tmp_path, cheap_ladder):
    from idiotsim.analysis import ladder
    out = tmp_path / "demo"
    shown = cli_ok(capsys, "demo", "--out", out, "--games", "40")
    heuristic, random_ = out / "players" / "heuristic", out / "players" / "random"
    for folder, games in ((heuristic, 120), (random_, 40)):
        m = manifest(folder)
        assert (m["config"]["field"], m["config"]["players"], m["config"]["seed"], m["total_games"]) == \
            (["basic"], 4, 2026, games)
        assert len(m["lineups"]) == 1
    assert not (out / "players" / "basic").exists()  # the reference is an identity, not played
    a, b = rows(heuristic), rows(random_)
    common = b["game"].to_list()
    assert a.filter(pl.col("game").is_in(common))["deal"].to_list() == b["deal"].to_list()  # the same deals
    table = pl.read_csv(out / "ladder.csv")
    assert sorted(table["strategy"]) == ["basic", "heuristic", "random"] and table["strategy"][-1] == "random"
    assert table["mean_place"].to_list() == sorted(table["mean_place"])  # best first
    for r in table.iter_rows(named=True):
        assert r["ahead"] == pytest.approx(2.5 - r["mean_place"], abs=1e-6)
        if r["strategy"] == "basic":
            assert r["mean_place"] == 2.5 and r["games"] == 0
            continue
        alone = summarize(out / "players" / r["strategy"]).strategies.filter(pl.col("strategy") == r["strategy"])
        for column in ("games", "mean_place", "mean_place_lo", "mean_place_hi", "win_rate", "win_lo", "win_hi"):
            assert r[column] == pytest.approx(alone[column][0], abs=1e-6), column  # the tournament's own CI
        assert r["ahead_lo"] == pytest.approx(2.5 - r["mean_place_hi"], abs=1e-6)
    for name in ladder.FILES + ladder.PLOTS:
        assert (out / name).exists(), name
    for name in ladder.PLOTS:
        assert_png(out / name)
    assert "`heuristic`" in (out / "ladder.md").read_text()
    lines = shown.splitlines()
    assert lines[0].startswith("The strength ladder")
    printed = shown[shown.index("-----"):shown.index("Mean place:")].splitlines()[1:]
    names = pl.read_csv(out / "ladder.csv")["strategy"].to_list()
    at = [next(i for i, line in enumerate(printed) if name in line.split()) for name in names]
    assert at == sorted(at)  # printed best first, as in ladder.csv
    assert "(exact)" in shown and "idiotsim demo --strategies all" in " ".join(shown.split())
    assert all(len(line) <= 80 for line in lines)


def test_demo_says_a_first_run_compiles_until_the_search_is_in_numbas_cache(tmp_path, monkeypatch):
    from idiotsim.cli import tournament_commands
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert "This first run compiles them" in tournament_commands.compile_note()
    compiled = tmp_path / "search_0123" / "pimc.search_decision-10.py311.nbi"
    compiled.parent.mkdir()
    compiled.write_bytes(b"")
    assert "compiles" not in tournament_commands.compile_note()


def test_demo_ladder_resumes_and_replaces_only_its_own_folders(capsys, tmp_path, cheap_ladder):
    out = tmp_path / "demo"
    first = cli_ok(capsys, "demo", "--out", out, "--games", "40")
    def chunks():
        return {name: data for name, data in snapshot(out / "players" / "random").items() if name.startswith("chunk")}
    before = chunks()
    again = cli_ok(capsys, "demo", "--out", out, "--games", "40")
    assert again == first and chunks() == before and before  # nothing played twice
    cli_ok(capsys, "demo", "--out", out, "--games", "80")  # other game counts: the rungs are replaced
    assert manifest(out / "players" / "random")["total_games"] == 80
    cli_ok(capsys, "demo", "--out", out, "--strategies", "basic,random", "--games", "40")  # a round robin there
    assert manifest(out)["config"]["strategies"] == ["basic", "random"]
    cli_ok(capsys, "demo", "--out", out, "--games", "40")  # and the ladder again
    assert (out / "ladder.csv").exists() and not (out / tm.MANIFEST).exists()
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me\n")
    line = cli_user_error(capsys, "demo", "--out", other, "--games", "40")
    assert "not empty and holds no demo" in line
    assert sorted(p.name for p in other.iterdir()) == ["notes.txt"]


def test_a_tournament_game_replays_alone_with_trace(tmp_path, capsys):
    """trace --seed S --game G --deal D with the row's seating gives the row's places, in both engines."""
    out = tmp_path / "t"
    cli_ok(capsys, "tournament", "--strategies", "basic,random,heuristic:burn_min=8", "--players", "3",
           "--games", "60", "--seed", "9", "--out", out)
    rows = pl.read_parquet(sorted(out.glob("chunk-*.parquet"))).sort("game")
    for row in rows.head(12).iter_rows(named=True):
        seats = ",".join(row[f"strategy_{s}"] for s in range(3))
        for engine in ("reference", "numba"):
            trace = cli_ok(capsys, "trace", "--players", 3, "--strategies", seats, "--seed", 9, "--game", row["game"],
                           "--deal", row["deal"], "--engine", engine)
            end = json.loads(trace.strip().splitlines()[-1])
            assert end["places"] == [row[f"place_{s}"] for s in range(3)], (engine, row)


# ---- ties in multi-round matches (R19) ------------------------------------------------------

def test_tied_places_share_wins_idiots_and_positions():
    """Recorded places give tied totals the better place; the summary splits the tied positions."""
    games = pl.DataFrame({"cluster": [0, 0, 0], "strategy_0": ["A", "A", "A"], "strategy_1": ["B", "B", "B"],
                          "strategy_2": ["C", "C", "C"], "place_0": [1, 1, 1], "place_1": [1, 2, 1],
                          "place_2": [3, 2, 1], "stalled": [False, False, False]})
    scored = summary_mod.with_tie_shares(games.lazy(), 3).collect()
    mid = scored.select([f"mid_{s}" for s in range(3)]).rows()
    win = scored.select([f"win_{s}" for s in range(3)]).rows()
    idiot = scored.select([f"idiot_{s}" for s in range(3)]).rows()
    assert mid == [(1.5, 1.5, 3.0), (1.0, 2.5, 2.5), (2.0, 2.0, 2.0)]
    assert np.allclose(win, [(0.5, 0.5, 0), (1, 0, 0), (1 / 3, 1 / 3, 1 / 3)])
    assert np.allclose(idiot, [(0, 0, 1), (0, 0.5, 0.5), (1 / 3, 1 / 3, 1 / 3)])
    # Every table's rates add up: one win, one Idiot, positions 1 + 2 + 3.
    assert all(sum(r) == pytest.approx(1) for r in win + idiot) and all(sum(r) == 6 for r in mid)
    table = summary_mod.strategy_table(summary_mod.strategy_sums(scored.lazy(), 3))
    assert sum(table["win_rate"]) == pytest.approx(1) and sum(table["idiot_rate"]) == pytest.approx(1)
    assert sum(table["mean_place"]) == pytest.approx(6)
    # A tie counts half to "A ahead of B", so A ahead of B and B ahead of A add up to 1.
    head = summary_mod.head_to_head_table(summary_mod.pair_sums(scored.lazy(), 3))
    shares = {(r["a"], r["b"]): r["a_ahead"] for r in head.iter_rows(named=True)}
    assert shares[("A", "B")] == pytest.approx((0.5 + 1 + 0.5) / 3)
    assert all(shares[(a, b)] + shares[(b, a)] == pytest.approx(1) for a, b in shares)


def test_multi_round_tournament_rates_add_up(capsys, tmp_path, no_plots):
    out = tmp_path / "rounds"
    tournament(capsys, out, "-s", "basic,hold-back,counter", "-n", "3", "--games", "600", "--seed", "4",
               "--rule", "rounds=3")
    s = summarize(out)
    recorded = pl.read_parquet(out / "chunk-000000.parquet")
    ties = sum(int((recorded[f"place_{a}"] == recorded[f"place_{b}"]).sum()) for a, b in ((0, 1), (0, 2), (1, 2)))
    assert ties > 0, "no tie to split"
    assert sum(s.strategies["win_rate"]) == pytest.approx(1) and sum(s.strategies["idiot_rate"]) == pytest.approx(1)
    assert sum(s.strategies["mean_place"]) == pytest.approx(6)
    assert sum(s.seats["win_rate"]) == pytest.approx(1)


def test_same_player_under_several_names_is_found_by_its_results():
    """`heuristic` at its defaults plays exactly like `basic`; `random` twice is one player under two names."""
    groups = summary_mod.same_player_groups(["basic", "heuristic", "random", "random", "counter", "hold-back"], {}, 4)
    assert sorted(groups) == [["basic", "heuristic"], ["random", "random#2"]]
    assert summary_mod.same_player_groups(["basic", "counter"], {}, 3) == []
