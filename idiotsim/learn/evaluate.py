"""Strength in whole games, paired and rotated: each player plays deal d at every seat s in turn, the
other seats `basic`, and its place is paired with `basic`'s place in the same seat of the same deal
(every seat `basic`). A player's strength is the mean over deals of (its place - basic's place) in the
rotated seats: negative is better. Every player of one evaluation plays the same deals with the same
streams, so two players' strengths are paired too; the family's CIs are Holm-adjusted
(``idiotsim.analysis.stats``). The deals are drawn from an evaluation seed no training game uses."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from idiotsim.game.rules import Rules
from idiotsim.analysis.stats import Interval, adjust_holm, holm_interval_alphas, normal_interval

EVALUATION_SEED = 18_000_001  # fresh deals: the data of `idiotsim learn generate` uses other seeds
TUNING_SEED = 18_000_002  # the deals the margin is chosen on (never the evaluation's)
MARGINS = (0.0, 0.03, 0.05, 0.08, 0.12)


@dataclass(frozen=True)
class Strength:
    spec: str
    players: int
    deals: int
    vs_basic: Interval  # Holm-adjusted over the family
    per_deal: np.ndarray  # the rotated mean place minus basic's, per deal (for paired comparisons)
    games_per_second: float  # one seat of it, basic elsewhere, one thread (this machine, this load)


def rotated_places(spec: str, rules: Rules, seed: int, deals: np.ndarray) -> tuple[np.ndarray, float]:
    """(places of `spec` at seat s of deal d [deal, seat], games/s), basic in the other seats."""
    from idiotsim.engine.batches import play_seated
    from idiotsim.strategies.loading import load_strategy
    n = rules.players
    strategies = [load_strategy("basic"), load_strategy(spec)]
    game_ids = (deals[:, None] * n + np.arange(n)[None, :]).ravel()
    deal_ids = np.repeat(deals, n)
    seating = np.zeros((len(game_ids), n), np.int8)
    seating[np.arange(len(game_ids)), np.tile(np.arange(n), len(deals))] = 1
    play_seated(rules, strategies, seed, game_ids[:n], deal_ids[:n], seating[:n])  # compile outside the clock
    start = time.perf_counter()
    places = play_seated(rules, strategies, seed, game_ids, deal_ids, seating)["places"]
    seconds = time.perf_counter() - start
    own = places[np.arange(len(game_ids)), np.tile(np.arange(n), len(deals))].reshape(len(deals), n)
    return own.astype(np.int64), len(game_ids) / seconds


def basic_places(rules: Rules, seed: int, deals: np.ndarray) -> np.ndarray:
    from idiotsim.engine.batches import play_seated
    from idiotsim.strategies.loading import load_strategy
    seating = np.zeros((len(deals), rules.players), np.int8)
    return play_seated(rules, [load_strategy("basic")], seed, deals, deals, seating)["places"].astype(np.int64)


def strengths(specs, players: int, deals: int, seed: int = EVALUATION_SEED, first_deal: int = 0) -> list[Strength]:
    """Each spec's rotated, paired strength against basic on the same `deals` deals (Holm over the specs)."""
    rules = Rules(players=players)
    ids = np.arange(first_deal, first_deal + deals, dtype=np.int64)
    baseline = basic_places(rules, seed, ids)
    rows = []
    for spec in specs:
        own, speed = rotated_places(spec, rules, seed, ids)
        rows.append((spec, (own - baseline).mean(axis=1), speed))
    means = [d.mean() for _, d, _ in rows]
    ses = [d.std(ddof=1) / np.sqrt(len(d)) for _, d, _ in rows]
    raw = [normal_interval(m, s) for m, s in zip(means, ses)]
    alphas = holm_interval_alphas([x.p for x in raw])
    adjusted = adjust_holm([normal_interval(m, s, a) for m, s, a in zip(means, ses, alphas)])
    return [Strength(spec, players, deals, x, d, speed) for (spec, d, speed), x in zip(rows, adjusted)]


def paired_difference(a: Strength, b: Strength) -> Interval:
    """a's strength minus b's on the same deals (95% CI over deals)."""
    d = a.per_deal - b.per_deal
    return normal_interval(d.mean(), d.std(ddof=1) / np.sqrt(len(d)))


def tune_margin(model_path, players: int, deals: int, margins=MARGINS) -> tuple[float, list]:
    """The margin (``model.with_basic_margin``) whose model is strongest on `deals` tuning deals, and every
    margin's (margin, mean, lo, hi). The model file is rewritten with the chosen margin."""
    import tempfile
    from pathlib import Path

    from idiotsim.learn.train import save_model
    from idiotsim.strategies.learned.model import load_model, with_basic_margin
    vector, meta = load_model(model_path)
    base = float(meta.get("margin", 0.0))
    with tempfile.TemporaryDirectory() as tmp:
        specs = []
        for m in margins:
            spec = str(Path(tmp) / f"margin-{m:g}.npz")
            save_model(spec, with_basic_margin(vector, m - base), {**meta, "margin": m})
            specs.append(spec)
        rows = strengths(specs, players, deals, seed=TUNING_SEED)
    table = [(m, r.vs_basic.mean, r.vs_basic.lo, r.vs_basic.hi) for m, r in zip(margins, rows)]
    best = min(table, key=lambda row: row[1])[0]
    save_model(model_path, with_basic_margin(vector, best - base), {**meta, "margin": best, "margin_tuning": table})
    return best, table
