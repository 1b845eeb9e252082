"""Chunk sizes by work: a chunk of games with slow players (search) holds fewer games, so progress
bars move at their speed and a chunk takes about as long as a chunk of fast players.

A strategy's ``Strategy.work`` gives the cost of a game in which one seat plays it, in games of
``basic`` players (None: as fast as basic). A game's cost is the mean of its seats' costs (a table
of basic players costs 1), and a chunk of `chunk_games` basic games becomes `chunk_games / cost`
games. Players as fast as basic leave chunk sizes exactly as they were.
"""
from __future__ import annotations

import math
import sys

# Games of basic (4 players) a thread plays a second, about: 1,000,000 in 2.3 s on one thread of a loaded 2-core
# machine. Only for the note a long run prints before it starts (``note_long_run``).
BASIC_GAMES_A_SECOND = 300_000
LONG_RUN_SECONDS = 3600  # a run estimated to take longer says so before it starts


def seat_cost(seat_strategy) -> float:
    """The cost of a game with one seat of this strategy (its knob values), in games of basic."""
    work = seat_strategy.strategy.work
    return 1.0 if work is None else max(1.0, float(work(seat_strategy.params)))


def lineup_cost(seat_strategies) -> float:
    """The cost of one game of this table of seats, in games of basic: the mean of the seats'."""
    return sum(seat_cost(s) for s in seat_strategies) / len(seat_strategies)


def games_per_chunk(chunk_games: int, cost: float) -> int:
    """`chunk_games` games of basic, as games of cost `cost` (at least 1)."""
    if cost <= 1.0:
        return chunk_games
    return max(1, math.floor(chunk_games / cost))


def table_cost(specs, players: int) -> float:
    """The cost of a game whose seats play `specs` in turn (cycled to `players` seats), in games of
    basic: for experiment points, ``table_cost([point.subject, *point.opponents], point.players)``."""
    from idiotsim.strategies.loading import load_strategy
    seats = [load_strategy(specs[i % len(specs)]) for i in range(players)]
    return lineup_cost(seats)


def duration_words(seconds: float) -> str:
    """'about 40 minutes', 'about 3 hours', 'about 19 days', 'about 5 years': the largest unit there are at
    least two of (minutes below two hours)."""
    unit, size = next(((u, n) for u, n in (("year", 365 * 86400), ("day", 86400), ("hour", 3600))
                       if seconds >= 2 * n), ("minute", 60))
    count = max(1, round(seconds / size))
    return f"about {count:,} {unit}{'s' if count > 1 else ''}"


def note_long_run(games: int, basic_games: float, resumes: bool = True, out=None,
                  parallelism: tuple[int, str] | None = None) -> bool:
    """Before a run of `games` games costing `basic_games` games of basic (``lineup_cost``): when it would take
    longer than LONG_RUN_SECONDS on its `parallelism` (``chunks.parallelism``: (count, unit), e.g. a Dask
    cluster's workers; None: this process's numba threads), one line on stderr with its size, its estimated
    time, and how to stop it (`resumes`: the same command goes on from there). Whether it said so.
    It goes on: a run stops at Ctrl-C with nothing lost, and one this long may be meant."""
    if parallelism is None:
        import numba
        parallelism = thread_parallelism(numba.get_num_threads())
    count, unit = parallelism
    seconds = basic_games / (BASIC_GAMES_A_SECOND * max(1, count))
    if seconds <= LONG_RUN_SECONDS:
        return False
    print(f"note: {games:,} games to play, {duration_words(seconds)} on {count} {unit} "
          f"(at about {BASIC_GAMES_A_SECOND:,} games of basic a second a thread; slower players in proportion); "
          + ("Ctrl-C stops it, and the same command goes on from there" if resumes else "Ctrl-C stops it"),
          file=out or sys.stderr)
    return True


def thread_parallelism(threads: int) -> tuple[int, str]:
    """`threads` engine threads as a run's parallelism (``note_long_run``)."""
    return max(1, threads), "threads" if threads > 1 else "thread"
