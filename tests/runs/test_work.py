"""Chunk sizes by work (idiotsim.runs.chunk_sizes): search tournaments get small chunks, others keep theirs."""
from __future__ import annotations

from idiotsim.strategies.loading import load_strategy
from idiotsim.runs.tournament import CHUNK_GAMES, Tournament, TournamentConfig
from idiotsim.runs.chunk_sizes import games_per_chunk, lineup_cost


def tournament(strategies, chunk_games=CHUNK_GAMES, games=1_000):
    return Tournament(TournamentConfig(strategies=tuple(strategies), players=4, games=games, seed=1,
                                       chunk_games=chunk_games))


def test_fast_players_keep_the_chunk_size():
    for specs in (("basic", "counter"), ("basic", "heuristic", "random", "weighted")):
        t = tournament(specs, chunk_games=2_000, games=10_000)
        assert t.chunk_games == 2_000
        assert t.chunks == -(-t.total_games // 2_000)


def test_search_seats_shrink_chunks_by_their_rollouts():
    basic, k16, k128 = (load_strategy(s) for s in ("basic", "search:rollouts=16", "search:rollouts=128"))
    assert lineup_cost([basic] * 4) == 1
    assert lineup_cost([k128, basic, basic, basic]) > lineup_cost([k16, basic, basic, basic]) > 1
    assert lineup_cost([k128] * 4) == 8 * lineup_cost([k16] * 4)
    small = tournament(("search:rollouts=128", "basic")).chunk_games
    assert 1 <= small < tournament(("search:rollouts=16", "basic")).chunk_games < CHUNK_GAMES
    assert games_per_chunk(10, 1e9) == 1


def test_a_search_tournament_has_one_file_per_small_chunk(tmp_path):
    from idiotsim.runs.tournament import run_tournament
    t = tournament(("search:rollouts=2", "basic"), chunk_games=1_000, games=8)
    assert t.chunk_games < t.total_games
    run_tournament(t.config, tmp_path)
    assert len(list(tmp_path.glob("chunk-*.parquet"))) == t.chunks > 1


def test_unfair_players_are_told_apart_by_label():
    from idiotsim.strategies.loading import is_fair_label
    assert not is_fair_label("search-perfect-info")
    assert not is_fair_label("search-perfect-info:rollouts=4#2")
    assert all(is_fair_label(label) for label in ("basic", "search:rollouts=3", "basic#2", "my.py:mine"))
