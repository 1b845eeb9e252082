"""Chunk sizes by work: a chunk of games with slow players (search) holds fewer games, so progress
bars move at their speed and a chunk takes about as long as a chunk of fast players.

A strategy's ``Strategy.work`` gives the cost of a game in which one seat plays it, in games of
``basic`` players (None: as fast as basic). A game's cost is the mean of its seats' costs (a table
of basic players costs 1), and a chunk of `chunk_games` basic games becomes `chunk_games / cost`
games. Players as fast as basic leave chunk sizes exactly as they were.
"""
from __future__ import annotations

import math


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
