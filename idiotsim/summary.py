"""Summaries of a tournament folder, read lazily from its Parquet chunks.

Error bars
----------
Games of one block share deals (duplicate deals), so they are not independent.
Blocks are grouped into at most ``MAX_CLUSTERS`` consecutive clusters; clusters
are independent, and every mean and difference gets a cluster-robust 95%
interval (ratio estimator, t quantile over clusters). Win and Idiot rates also
get the Wilson score interval over the strategy's seat-games, as asked for by
convention; with duplicate deals that interval is conservative for
comparisons and the clustered intervals are the ones to compare strategies by.
A difference is called significant when its 95% interval excludes 0.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from idiotsim.files import write_atomic
from idiotsim.stats import ratio_ci, ratio_difference_ci, wilson
from idiotsim.tournament import read_manifest

MAX_CLUSTERS = 1000
# Every query runs on polars' streaming engine, so memory stays flat however many games the folder holds.


def seat_frames(lazy: pl.LazyFrame, players: int) -> list[pl.LazyFrame]:
    """Per seat, one row per game: cluster, seat, strategy, place, stalled (aggregated seat by seat)."""
    return [lazy.select("cluster", pl.lit(s, dtype=pl.Int8).alias("seat"),
                        pl.col(f"strategy_{s}").alias("strategy"), pl.col(f"place_{s}").alias("place"), "stalled")
            for s in range(players)]


@dataclass
class Summary:
    """Every table of a tournament summary, as polars DataFrames."""
    players: int
    games: int
    strategies: pl.DataFrame  # ranked, one row per strategy
    differences: pl.DataFrame  # adjacent pairs in rank order
    head_to_head: pl.DataFrame  # A ahead of B when both sit at one table
    seats: pl.DataFrame  # win rate by seat
    places: pl.DataFrame  # place distribution per strategy
    length: pl.DataFrame  # game-length histogram
    length_ci: tuple
    convergence: pl.DataFrame  # running mean place per strategy against games played
    stall_rate: float

    def to_pandas(self) -> dict:
        return {name: getattr(self, name).to_pandas() for name in
                ("strategies", "differences", "head_to_head", "seats", "places", "length", "convergence")}


def summarize(out_dir) -> Summary:
    out = Path(out_dir)
    manifest = read_manifest(out)
    n = int(manifest["config"]["players"])
    files = sorted(out.glob("chunk-*.parquet"))
    if not files:
        from idiotsim.errors import UserError
        raise UserError(f"{out} holds no finished chunk yet")
    lazy = pl.scan_parquet([str(f) for f in files])
    blocks = int(lazy.select(pl.col("block").max()).collect(engine="streaming").item()) + 1
    clusters = min(MAX_CLUSTERS, blocks)
    lazy = lazy.with_columns((pl.col("block") * clusters // blocks).alias("cluster"))

    per_seat = [seat.group_by("strategy", "cluster")
                .agg(pl.len().alias("n"), pl.col("place").cast(pl.Int64).sum().alias("place_sum"),
                     (pl.col("place") == 1).sum().alias("wins"), (pl.col("place") == n).sum().alias("idiots"),
                     pl.col("stalled").sum().alias("stalls"))
                .collect(engine="streaming") for seat in seat_frames(lazy, n)]
    per_cluster = (pl.concat(per_seat).group_by("strategy", "cluster").agg(pl.all().sum())
                   .sort("strategy", "cluster"))
    games = int(lazy.select(pl.len()).collect(engine="streaming").item())
    strategies, means = _strategy_table(per_cluster, clusters)
    differences = _differences(strategies, means)
    head = _head_to_head(lazy, n, clusters)
    seat_table = _seat_table(lazy, n)
    places = (pl.concat([seat.group_by("strategy", "place").agg(pl.len().alias("count")).collect(engine="streaming")
                         for seat in seat_frames(lazy, n)])
              .group_by("strategy", "place").agg(pl.col("count").sum()).sort("strategy", "place"))
    length = lazy.group_by("actions").agg(pl.len().alias("games")).sort("actions").collect(engine="streaming")
    per_cluster_length = (lazy.group_by("cluster").agg(pl.col("actions").cast(pl.Int64).sum().alias("y"),
                                                        pl.len().alias("n")).sort("cluster").collect(engine="streaming"))
    length_ci = ratio_ci(per_cluster_length["y"].to_numpy(), per_cluster_length["n"].to_numpy())
    stall_rate = float(lazy.select(pl.col("stalled").mean()).collect(engine="streaming").item())
    return Summary(n, games, strategies, differences, head, seat_table, places, length, length_ci,
                   _convergence(per_cluster), stall_rate)


def _strategy_table(per_cluster: pl.DataFrame, clusters: int):
    rows, means = [], {}
    for (name,), group in per_cluster.group_by("strategy", maintain_order=True):
        n_c = group["n"].to_numpy()
        mean, lo, hi = ratio_ci(group["place_sum"].to_numpy(), n_c)
        total = int(n_c.sum())
        wins, idiots = int(group["wins"].sum()), int(group["idiots"].sum())
        w_lo, w_hi = wilson(wins, total)
        i_lo, i_hi = wilson(idiots, total)
        y_series, n_series = np.zeros(clusters), np.zeros(clusters)
        y_series[group["cluster"].to_numpy()] = group["place_sum"].to_numpy()
        n_series[group["cluster"].to_numpy()] = n_c
        means[name] = (y_series, n_series)
        rows.append(dict(strategy=name, games=total, mean_place=mean, mean_place_lo=lo, mean_place_hi=hi,
                         win_rate=wins / total, win_lo=w_lo, win_hi=w_hi, idiot_rate=idiots / total,
                         idiot_lo=i_lo, idiot_hi=i_hi, stall_rate=int(group["stalls"].sum()) / total))
    table = pl.DataFrame(rows).sort("mean_place", "strategy")
    table = table.with_columns(pl.int_range(1, table.height + 1).alias("rank")).select("rank", pl.exclude("rank"))
    return table, means


def _differences(strategies: pl.DataFrame, means: dict) -> pl.DataFrame:
    """Mean-place difference of each strategy and the next in rank order, paired by cluster."""
    names = strategies["strategy"].to_list()
    rows = []
    for a, b in zip(names, names[1:]):
        (y_a, n_a), (y_b, n_b) = means[a], means[b]
        both = (n_a > 0) & (n_b > 0)
        diff, lo, hi = ratio_difference_ci(y_a[both], n_a[both], y_b[both], n_b[both])
        rows.append(dict(better=a, worse=b, difference=diff, lo=lo, hi=hi,
                         significant=bool(lo > 0 or hi < 0) if not math.isnan(lo) else False))
    schema = {"better": pl.String, "worse": pl.String, "difference": pl.Float64, "lo": pl.Float64,
              "hi": pl.Float64, "significant": pl.Boolean}
    return pl.DataFrame(rows, schema=schema)


def _head_to_head(lazy: pl.LazyFrame, n: int, clusters: int) -> pl.DataFrame:
    # One small aggregation per seat pair (a single query over all pairs holds them all in memory).
    pairs = [lazy.select("cluster", pl.col(f"strategy_{s}").alias("a"), pl.col(f"strategy_{t}").alias("b"),
                         (pl.col(f"place_{s}") < pl.col(f"place_{t}")).alias("ahead"))
             .filter(pl.col("a") != pl.col("b"))
             .group_by("a", "b", "cluster").agg(pl.col("ahead").sum().alias("y"), pl.len().alias("n"))
             .collect(engine="streaming")
             for s in range(n) for t in range(n) if s != t]
    per_cluster = (pl.concat(pairs).group_by("a", "b", "cluster").agg(pl.col("y").sum(), pl.col("n").sum())
                   .sort("a", "b", "cluster"))
    rows = []
    for (a, b), group in per_cluster.group_by("a", "b", maintain_order=True):
        rate, lo, hi = ratio_ci(group["y"].to_numpy(), group["n"].to_numpy())
        rows.append(dict(a=a, b=b, meetings=int(group["n"].sum()), a_ahead=rate, lo=lo, hi=hi))
    schema = {"a": pl.String, "b": pl.String, "meetings": pl.Int64, "a_ahead": pl.Float64, "lo": pl.Float64,
              "hi": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def _seat_table(lazy: pl.LazyFrame, n: int) -> pl.DataFrame:
    stats = lazy.select([pl.len().alias("games")] + [(pl.col(f"place_{s}") == 1).sum().alias(f"w{s}")
                                                      for s in range(n)]).collect(engine="streaming").row(0, named=True)
    rows = []
    for s in range(n):
        lo, hi = wilson(stats[f"w{s}"], stats["games"])
        rows.append(dict(seat=s, win_rate=stats[f"w{s}"] / stats["games"], lo=lo, hi=hi))
    return pl.DataFrame(rows)


def _convergence(per_cluster: pl.DataFrame) -> pl.DataFrame:
    return (per_cluster.sort("strategy", "cluster")
            .with_columns(pl.col("n").cum_sum().over("strategy").alias("games"),
                          (pl.col("place_sum").cum_sum().over("strategy")
                           / pl.col("n").cum_sum().over("strategy")).alias("mean_place"))
            .select("strategy", "cluster", "games", "mean_place"))


def fmt_ci(value, lo, hi, digits=3, pct=False) -> str:
    if pct:
        return f"{value:.2%} ({lo:.2%} to {hi:.2%})"
    if math.isnan(lo):
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} ({lo:.{digits}f} to {hi:.{digits}f})"


def to_markdown(summary: Summary, title: str = "Tournament summary") -> str:
    lines = [f"# {title}", "", f"{summary.games:,} games, {summary.players} players; "
             f"stall rate {summary.stall_rate:.4%}; mean game length "
             f"{fmt_ci(*summary.length_ci, digits=2)} actions.", "",
             "## Strategies", "", "| rank | strategy | seat-games | mean place (95% CI) | win rate (Wilson 95% CI) "
             "| Idiot rate (Wilson 95% CI) | stall rate |", "|---|---|---|---|---|---|---|"]
    for r in summary.strategies.iter_rows(named=True):
        lines.append(f"| {r['rank']} | {r['strategy']} | {r['games']:,} | "
                     f"{fmt_ci(r['mean_place'], r['mean_place_lo'], r['mean_place_hi'])} | "
                     f"{fmt_ci(r['win_rate'], r['win_lo'], r['win_hi'], pct=True)} | "
                     f"{fmt_ci(r['idiot_rate'], r['idiot_lo'], r['idiot_hi'], pct=True)} | {r['stall_rate']:.4%} |")
    lines += ["", "## Ranking", ""]
    for r in summary.differences.iter_rows(named=True):
        verdict = "ahead of" if r["significant"] else "not significantly different from"
        lines.append(f"- {r['better']} is {verdict} {r['worse']}: mean place difference "
                     f"{fmt_ci(r['difference'], r['lo'], r['hi'])}")
    if summary.differences.height == 0:
        lines.append("- one strategy only")
    lines += ["", "## Head to head", "", "Share of the games where both sit at one table in which the row "
              "strategy finishes ahead of the column strategy (95% CI).", ""]
    names = summary.strategies["strategy"].to_list()
    lookup = {(r["a"], r["b"]): r for r in summary.head_to_head.iter_rows(named=True)}
    lines.append("| | " + " | ".join(names) + " |")
    lines.append("|---" * (len(names) + 1) + "|")
    for a in names:
        cells = []
        for b in names:
            r = lookup.get((a, b))
            cells.append("-" if r is None else fmt_ci(r["a_ahead"], r["lo"], r["hi"]))
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines += ["", "## Seat advantage", "", "| seat | win rate (Wilson 95% CI) |", "|---|---|"]
    for r in summary.seats.iter_rows(named=True):
        lines.append(f"| {r['seat']} | {fmt_ci(r['win_rate'], r['lo'], r['hi'], pct=True)} |")
    return "\n".join(lines) + "\n"


def write_summary(summary: Summary, out_dir) -> list[Path]:
    out = Path(out_dir)
    written = [out / "summary.md", out / "summary_strategies.csv", out / "summary_head_to_head.csv",
               out / "summary_seats.csv", out / "summary_differences.csv"]
    tables = (summary.strategies, summary.head_to_head, summary.seats, summary.differences)
    write_atomic(written[0], to_markdown(summary))
    for path, table in zip(written[1:], tables):
        write_atomic(path, table.write_csv(float_precision=6))
    return written
