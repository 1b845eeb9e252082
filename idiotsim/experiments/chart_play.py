"""Playing the chart's arms: chunk tasks of seated games through the executor, and what play hands back."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from idiotsim.experiments.spec import Spec
from idiotsim.game.rules import Rules
from idiotsim.runs.chunks import Executor, map_in_order

CHUNK_GAMES = 2_000  # games per task


def play_task(rules_fields: dict, spec: str, seed: int, deal: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """The focal seat's place in each game (deal[i], `spec` at seat[i], basic elsewhere; game id
    deal * players + seat, so every arm of a seat draws the same random numbers): a pure function."""
    from idiotsim.engine.batches import play_seated
    from idiotsim.strategies.loading import load_strategy
    rules = Rules(**rules_fields)
    n = rules.players
    seating = np.zeros((len(deal), n), np.int8)
    if spec != "basic":
        seating[np.arange(len(deal)), seat] = 1
    strategies = [load_strategy("basic")] + ([] if spec == "basic" else [load_strategy(spec)])
    places = play_seated(rules, strategies, seed, deal * n + seat, deal, seating)["places"]
    return places[np.arange(len(deal)), seat].astype(np.int8)


def play_arms(rules: Rules, seed: int, jobs: list, executor: Executor | None) -> list:
    """jobs: (spec, Seats); each job's focal places, in order (chunks of CHUNK_GAMES games)."""
    fields = rules.as_dict()
    tasks, owners = [], []
    for j, (spec, seats) in enumerate(jobs):
        for lo in range(0, len(seats), CHUNK_GAMES):
            tasks.append((fields, spec, seed, seats.deal[lo:lo + CHUNK_GAMES], seats.seat[lo:lo + CHUNK_GAMES]))
            owners.append(j)
    parts = [[] for _ in jobs]
    for j, places in zip(owners, map_in_order(play_task, tasks, executor)):
        parts[j].append(places)
    return [np.concatenate(p) if p else np.zeros(0, np.int8) for p in parts]


@dataclass
class PlayedChart:
    spec: Spec
    games: int  # each arm's games
    deals: int  # rotated deals of the cells (and of the chart player)
    places: dict  # (spec, range name) -> focal places
    seats: dict  # range name -> Seats
    same_row: dict  # row text -> bool per seat: basic's row is that row
    quick: bool = False
    reduced: bool = False


def games_in_all(played: PlayedChart) -> int:
    return int(sum(len(v) for v in played.places.values()))
