"""Paired play: several strategies ("arms") take the focal seat of the same tables.

On deal d with focal seat s, every arm sits at seat s with the field in the
other seats (field[j mod len] at seat s + 1 + j), on the same cards (deal d's
shuffle) and with the same random draws (game id d * n + s for every arm, so
each seat's strategy stream is shared). Every deal is played with the focal
seat in each of the n seats. An arm's difference to another is, per deal, the
sum over the n focal seats of the place difference; its mean over deals / n
is the paired difference in mean place, with a t interval over deals.

Deal ranges are disjoint by purpose: generation g of the search plays deals
g * D ... (g + 1) * D - 1; validation and sensitivity play deals from their
own offsets, never seen by the search.
"""
from __future__ import annotations

import math

import numpy as np

from idiotsim.runs.chunks import LocalExecutor
from idiotsim.engine.batches import MAX_STRATEGIES
from idiotsim.analysis.stats import Moments, mean_interval, normal_interval
from idiotsim.engine.batches import distinct_strategies, play_seated

VALIDATION_DEALS = 1 << 40
SENSITIVITY_DEALS = 2 << 40
SELECTION_DEALS = 3 << 40
CHUNK_GAMES = 50_000  # games per task on a Dask cluster


def focal_places(rules, arms: list, field: list, seed: int, deal_ids: np.ndarray, executor=None) -> np.ndarray:
    """Places of the focal seat, shape (arms, deals, n): arm a at focal seat s on deal d.

    With a Dask `executor` (``idiotsim.runs.chunks``) the games are pure tasks (arms, a range of deals)
    played on its workers; every game depends on its deal and seat only, so the places are the same."""
    room = MAX_STRATEGIES - len(distinct_strategies(field)[0])
    groups = [arms[i:i + room] for i in range(0, len(arms), room)]
    if executor is None or isinstance(executor, LocalExecutor):
        return np.concatenate([_play_group(rules, group, field, seed, deal_ids) for group in groups], axis=0)
    tasks = [(rules, group, field, seed, deals) for group in groups
             for deals in deal_chunks(deal_ids, rules.players * len(group))]
    results = list(executor.map_in_order(_play_group, tasks))
    per_group = len(tasks) // len(groups)
    return np.concatenate([np.concatenate(results[g * per_group:(g + 1) * per_group], axis=1)
                           for g in range(len(groups))], axis=0)


def deal_chunks(deal_ids: np.ndarray, games_per_deal: int) -> list:
    """`deal_ids` cut into CHUNK_GAMES-sized tasks (always the same number of pieces for a given size)."""
    pieces = min(len(deal_ids), math.ceil(len(deal_ids) * games_per_deal / CHUNK_GAMES))
    return np.array_split(np.asarray(deal_ids, dtype=np.int64), max(1, pieces))


def _play_group(rules, arms: list, field: list, seed: int, deal_ids: np.ndarray) -> np.ndarray:
    n, k, m = rules.players, len(arms), len(deal_ids)
    strategies = list(arms) + list(field)
    table = np.empty((n, k, n), dtype=np.int8)  # [focal seat, arm, seat] -> strategy index
    for s in range(n):
        for j in range(n - 1):
            table[s, :, (s + 1 + j) % n] = k + j % len(field)
        table[s, :, s] = np.arange(k)
    seating = np.tile(table.reshape(n * k, n), (m, 1))  # games ordered (deal, focal seat, arm)
    deals = np.repeat(np.asarray(deal_ids, dtype=np.int64), n * k)
    focal = np.tile(np.repeat(np.arange(n), k), m)
    result = play_seated(rules, strategies, seed, deals * n + focal, deals, seating)
    places = result["places"].reshape(m, n, k, n)
    seats = np.arange(n)
    return places[:, seats, :, seats].transpose(2, 1, 0)  # (arms, deals, focal seat)


def paired(places_a: np.ndarray, places_b: np.ndarray, level_alpha: float | None = None) -> dict:
    """Mean place of a minus b over (deals, n) focal places, with its CI (a t interval over
    deals, or a normal one at `level_alpha`) and two-sided p-value."""
    n = places_a.shape[1]
    diff = Moments()
    diff.add((places_a.astype(np.int64) - places_b.astype(np.int64)).sum(axis=1))
    result = mean_interval(diff, n)
    lo, hi = result.lo, result.hi
    if level_alpha is not None and not math.isnan(result.se):  # a Holm-adjusted level: normal quantile
        held = normal_interval(result.mean, result.se, level_alpha)
        lo, hi = held.lo, held.hi
    return dict(diff=result.mean, lo=lo, hi=hi, p=result.p, se=result.se)


def deals_for(games: int, players: int) -> int:
    return math.ceil(games / players)
