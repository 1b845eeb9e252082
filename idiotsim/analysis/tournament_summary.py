"""Summaries of a tournament folder, read lazily from its Parquet chunks.

Error bars
----------
Games of one block share deals (duplicate deals), so they are not independent.
Blocks are grouped into at most ``MAX_CLUSTERS`` consecutive clusters; clusters
are independent, and every mean, rate, share and difference gets a
cluster-robust 95% interval (ratio estimator, t quantile over clusters:
``idiotsim.analysis.stats``). No interval treats games as independent.

Ties (R19, rounds > 1): players with equal totals share the better place in the
results; the summary splits a tied position fairly instead, so the rates of a
table add up: a win is split 1/k among k players tied for first, the Idiot
likewise among the players tied for last, a player's place counts as the mean
of the positions its tie spans, and a tie between A and B counts half to "A
ahead of B".

Multiplicity: the ranking tests the adjacent pairs and the top strategy against
every other; a difference is called significant when its Holm-adjusted p-value
over that family is below 0.05.

Game length: the mean and median length are over the games that did not stall
(a stalled game counts the action limit, not its length), beside the stall rate.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from idiotsim.runs.atomic_files import write_atomic
from idiotsim.analysis.stats import (UNADJUSTED_ONLY, Interval, adjust_holm, decimals_for, median_of_counts, p_clause,
                                     rate_interval, ratio_difference, ratio_interval)
from idiotsim.strategies.loading import UNFAIR_MARK, UNFAIR_NOTE, is_fair_label
from idiotsim.runs.tournament import read_manifest, unique_labels

MAX_CLUSTERS = 1000
# Every query runs on polars' streaming engine, so memory stays flat however many games the folder holds.


def with_tie_shares(lazy: pl.LazyFrame, players: int) -> pl.LazyFrame:
    """Per seat s: tied_s (players sharing its place), mid_s (mean of the positions the tie spans),
    win_s and idiot_s (a first or last position split among those tied for it)."""
    places = [pl.col(f"place_{s}").cast(pl.Int32) for s in range(players)]
    worst = pl.max_horizontal(places)
    tied = [pl.sum_horizontal([(p == q).cast(pl.Int32) for q in places]).alias(f"tied_{s}")
            for s, p in enumerate(places)]
    lazy = lazy.with_columns(tied)
    shares = []
    for s, p in enumerate(places):
        k = pl.col(f"tied_{s}")
        shares += [(p + (k - 1) / 2).alias(f"mid_{s}"), ((p == 1).cast(pl.Float64) / k).alias(f"win_{s}"),
                   ((p == worst).cast(pl.Float64) / k).alias(f"idiot_{s}")]
    return lazy.with_columns(shares)


def seat_frames(lazy: pl.LazyFrame, players: int) -> list[pl.LazyFrame]:
    """Per seat, one row per game: cluster, seat, strategy, place, mid, win, idiot, stalled."""
    return [lazy.select("cluster", pl.lit(s, dtype=pl.Int8).alias("seat"), pl.col(f"strategy_{s}").alias("strategy"),
                        pl.col(f"place_{s}").alias("place"), pl.col(f"mid_{s}").alias("mid"),
                        pl.col(f"win_{s}").alias("win"), pl.col(f"idiot_{s}").alias("idiot"), "stalled")
            for s in range(players)]


@dataclass
class Summary:
    """Every table of a tournament summary, as polars DataFrames."""
    players: int
    games: int
    strategies: pl.DataFrame  # ranked, one row per strategy
    differences: pl.DataFrame  # adjacent pairs in rank order, then the top strategy against every other
    head_to_head: pl.DataFrame  # A ahead of B when both sit at one table
    seats: pl.DataFrame  # win rate by seat
    places: pl.DataFrame  # place distribution per strategy (recorded places)
    length: pl.DataFrame  # game-length histogram (all games, stalled ones at the action limit)
    length_ci: tuple  # mean length of the games that did not stall, with its 95% CI
    length_median: float  # median length of the games that did not stall
    convergence: pl.DataFrame  # running mean place per strategy against games played
    stall: Interval  # stall rate with its clustered 95% CI
    same_players: list  # groups of labels that play as one player (``same_player_groups``)
    length_stalled: pl.DataFrame | None = None  # the stalled games of `length` (actions, games): the plot's own bar

    @property
    def stall_rate(self) -> float:
        return self.stall.mean

    def to_pandas(self) -> dict:
        return {name: getattr(self, name).to_pandas() for name in
                ("strategies", "differences", "head_to_head", "seats", "places", "length", "convergence")}


def clustered(lazy: pl.LazyFrame, blocks: int) -> pl.LazyFrame:
    """Blocks grouped into at most MAX_CLUSTERS consecutive clusters."""
    clusters = min(MAX_CLUSTERS, blocks)
    return lazy.with_columns((pl.col("block") * clusters // blocks).alias("cluster"))


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
    lazy = with_tie_shares(clustered(lazy, blocks), n)
    per_cluster = strategy_sums(lazy, n)
    games = int(lazy.select(pl.len()).collect(engine="streaming").item())
    strategies = strategy_table(per_cluster)
    places = (pl.concat([seat.group_by("strategy", "place").agg(pl.len().alias("count")).collect(engine="streaming")
                         for seat in seat_frames(lazy, n)])
              .group_by("strategy", "place").agg(pl.col("count").sum()).sort("strategy", "place"))
    length = (lazy.group_by("actions").agg(pl.len().alias("games"), pl.col("stalled").sum().alias("stalled"))
              .sort("actions").collect(engine="streaming"))
    length_sums = game_sums(lazy)
    config = manifest["config"]
    return Summary(n, games, strategies, differences(strategies, per_cluster), head_to_head_table(pair_sums(lazy, n)),
                   seat_table(seat_sums(lazy, n)), places, length.select("actions", "games"),
                   _triple(length_interval(length_sums)),
                   stall_free_median(length), _convergence(per_cluster), stall_interval(length_sums),
                   same_player_groups(list(config["strategies"]) + [f for f in config.get("field", [])
                                                                    if f not in config["strategies"]],
                                      config.get("rules", {}), n),
                   length.filter(pl.col("stalled") > 0).select("actions", pl.col("stalled").alias("games")))


# ---- per-cluster sums (one query each) ---------------------------------------------------

def strategy_sums(lazy: pl.LazyFrame, n: int) -> pl.DataFrame:
    """Per strategy and cluster: seat-games n, sums of mid-rank places, win and Idiot shares, stalls."""
    per_seat = [seat.group_by("strategy", "cluster")
                .agg(pl.len().alias("n"), pl.col("mid").sum().alias("place_sum"), pl.col("win").sum().alias("wins"),
                     pl.col("idiot").sum().alias("idiots"), pl.col("stalled").cast(pl.Int64).sum().alias("stalls"))
                .collect(engine="streaming") for seat in seat_frames(lazy, n)]
    return pl.concat(per_seat).group_by("strategy", "cluster").agg(pl.all().sum()).sort("strategy", "cluster")


def pair_sums(lazy: pl.LazyFrame, n: int) -> pl.DataFrame:
    """Per ordered pair of strategies at one table and cluster: meetings n and y (A ahead, a tie counting half)."""
    # One small aggregation per seat pair (a single query over all pairs holds them all in memory).
    pairs = [lazy.select("cluster", pl.col(f"strategy_{s}").alias("a"), pl.col(f"strategy_{t}").alias("b"),
                         ((pl.col(f"place_{s}") < pl.col(f"place_{t}")).cast(pl.Float64)
                          + 0.5 * (pl.col(f"place_{s}") == pl.col(f"place_{t}")).cast(pl.Float64)).alias("ahead"))
             .filter(pl.col("a") != pl.col("b"))
             .group_by("a", "b", "cluster").agg(pl.col("ahead").sum().alias("y"), pl.len().alias("n"))
             .collect(engine="streaming")
             for s in range(n) for t in range(n) if s != t]
    return (pl.concat(pairs).group_by("a", "b", "cluster").agg(pl.col("y").sum(), pl.col("n").sum())
            .sort("a", "b", "cluster"))


def seat_sums(lazy: pl.LazyFrame, n: int) -> pl.DataFrame:
    """Per cluster: games and each seat's win shares (columns games, win_0 .. win_{n-1})."""
    return (lazy.group_by("cluster").agg([pl.len().alias("games")] + [pl.col(f"win_{s}").sum() for s in range(n)])
            .sort("cluster").collect(engine="streaming"))


def game_sums(lazy: pl.LazyFrame) -> pl.DataFrame:
    """Per cluster: games, stalled games, and the actions and count of the games that did not stall."""
    ok = ~pl.col("stalled")
    return (lazy.group_by("cluster")
            .agg(pl.len().alias("games"), pl.col("stalled").cast(pl.Int64).sum().alias("stalls"),
                 pl.col("actions").cast(pl.Int64).filter(ok).sum().alias("ok_actions"),
                 ok.cast(pl.Int64).sum().alias("ok_games"))
            .sort("cluster").collect(engine="streaming"))


# ---- intervals from per-cluster sums -----------------------------------------------------

def strategy_table(per_cluster: pl.DataFrame) -> pl.DataFrame:
    rows = []
    for (name,), group in per_cluster.group_by("strategy", maintain_order=True):
        n_c = group["n"].to_numpy()
        columns = {"mean_place": ("place_sum", ratio_interval), "win": ("wins", rate_interval),
                   "idiot": ("idiots", rate_interval)}
        row = dict(strategy=name, games=int(n_c.sum()))
        for prefix, (column, interval) in columns.items():
            x = interval(group[column].to_numpy(), n_c)
            key = "mean_place" if prefix == "mean_place" else f"{prefix}_rate"
            row.update({key: x.mean, f"{prefix}_lo": x.lo, f"{prefix}_hi": x.hi})
        row["stall_rate"] = int(group["stalls"].sum()) / row["games"]
        rows.append(row)
    table = pl.DataFrame(rows).sort("mean_place", "strategy")
    return table.with_columns(pl.int_range(1, table.height + 1).alias("rank")).select("rank", pl.exclude("rank"))


def differences(strategies: pl.DataFrame, per_cluster: pl.DataFrame) -> pl.DataFrame:
    """Mean-place differences paired by cluster: each adjacent pair in rank order, then the top strategy
    against every other; Holm-adjusted over the distinct pairs."""
    names = strategies["strategy"].to_list()
    pairs = list(zip(names, names[1:])) + [(names[0], other) for other in names[2:]]
    series = {name: (group["cluster"].to_numpy(), group["place_sum"].to_numpy(), group["n"].to_numpy())
              for (name,), group in per_cluster.group_by("strategy", maintain_order=True)}
    tested = adjust_holm([_paired_difference(series[a], series[b]) for a, b in pairs])
    rows = [dict(better=a, worse=b, against="next" if i < len(names) - 1 else "top", difference=x.mean, lo=x.lo,
                 hi=x.hi, p=x.p, p_holm=x.p_holm, significant=x.significant())
            for i, ((a, b), x) in enumerate(zip(pairs, tested))]
    schema = {"better": pl.String, "worse": pl.String, "against": pl.String, "difference": pl.Float64,
              "lo": pl.Float64, "hi": pl.Float64, "p": pl.Float64, "p_holm": pl.Float64, "significant": pl.Boolean}
    return pl.DataFrame(rows, schema=schema)


def _triple(x: Interval) -> tuple:
    return x.mean, x.lo, x.hi


def _paired_difference(a, b) -> Interval:
    """Mean place of b minus mean place of a over the clusters where both played."""
    (c_a, y_a, n_a), (c_b, y_b, n_b) = a, b
    _, i_a, i_b = np.intersect1d(c_a, c_b, return_indices=True)
    return ratio_difference(y_a[i_a], n_a[i_a], y_b[i_b], n_b[i_b])


def head_to_head_table(per_cluster: pl.DataFrame) -> pl.DataFrame:
    rows = []
    for (a, b), group in per_cluster.group_by("a", "b", maintain_order=True):
        x = rate_interval(group["y"].to_numpy(), group["n"].to_numpy())
        rows.append(dict(a=a, b=b, meetings=int(group["n"].sum()), a_ahead=x.mean, lo=x.lo, hi=x.hi))
    schema = {"a": pl.String, "b": pl.String, "meetings": pl.Int64, "a_ahead": pl.Float64, "lo": pl.Float64,
              "hi": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def seat_table(per_cluster: pl.DataFrame) -> pl.DataFrame:
    games = per_cluster["games"].to_numpy()
    seats = [c for c in per_cluster.columns if c.startswith("win_")]
    rows = []
    for s, column in enumerate(seats):
        x = rate_interval(per_cluster[column].to_numpy(), games)
        rows.append(dict(seat=s, win_rate=x.mean, lo=x.lo, hi=x.hi))
    return pl.DataFrame(rows)


def length_interval(per_cluster: pl.DataFrame) -> Interval:
    """Mean length of the games that did not stall, clustered."""
    return ratio_interval(per_cluster["ok_actions"].to_numpy(), per_cluster["ok_games"].to_numpy())


def stall_interval(per_cluster: pl.DataFrame) -> Interval:
    return rate_interval(per_cluster["stalls"].to_numpy(), per_cluster["games"].to_numpy())


def stall_free_median(length: pl.DataFrame) -> float:
    """Median length of the games that did not stall, from the histogram of (actions, games, stalled)."""
    counts = np.zeros(int(length["actions"].max()) + 1 if length.height else 1, dtype=np.int64)
    counts[length["actions"].to_numpy()] = (length["games"] - length["stalled"]).to_numpy()
    return median_of_counts(counts)


def _convergence(per_cluster: pl.DataFrame) -> pl.DataFrame:
    return (per_cluster.sort("strategy", "cluster")
            .with_columns(pl.col("n").cum_sum().over("strategy").alias("games"),
                          (pl.col("place_sum").cum_sum().over("strategy")
                           / pl.col("n").cum_sum().over("strategy")).alias("mean_place"))
            .select("strategy", "cluster", "games", "mean_place"))


PROBE_GAMES = 400  # games that fingerprint a strategy's decisions


def same_player_groups(specs: list, rules: dict, players: int) -> list[list[str]]:
    """Labels that play as one player: identical results (places, actions, burns, pickups) on every one of
    PROBE_GAMES probe games in which each sits in seat 0 against `basic` opponents, same deals and draws."""
    from idiotsim.errors import UserError
    from idiotsim.game.rules import Rules
    from idiotsim.engine.batches import play_seated, plays_in_python
    from idiotsim.strategies.loading import load_strategy
    labels = unique_labels(specs)
    try:
        strategies = [load_strategy(spec) for spec in specs] + [load_strategy("basic")]
    except UserError:  # a strategy file moved away since the tournament ran
        return []
    probed = [i for i in range(len(specs)) if not plays_in_python(strategies[i])]  # Python speed: too slow to probe
    labels, strategies = [labels[i] for i in probed], [strategies[i] for i in probed] + strategies[-1:]
    for strategy, label in zip(strategies, labels + ["basic opponent"]):
        object.__setattr__(strategy, "label", label)
    ids = np.tile(np.arange(PROBE_GAMES, dtype=np.int64), len(labels))
    seating = np.full((len(ids), players), len(labels), dtype=np.int8)
    seating[:, 0] = np.repeat(np.arange(len(labels)), PROBE_GAMES)
    out = play_seated(Rules(**{**rules, "players": players}), strategies, 0, ids, ids, seating)
    results = np.column_stack([out["places"], out["actions"], out["burns"], out["pickups"]])
    groups: dict = {}
    for i, label in enumerate(labels):
        groups.setdefault(results[i * PROBE_GAMES:(i + 1) * PROBE_GAMES].tobytes(), []).append(label)
    return [members for members in groups.values() if len(members) > 1]


# ---- text ------------------------------------------------------------------------------

def fmt_ci(value, lo, hi, digits=3, pct=False) -> str:
    """`value (lo to hi)`, with more decimals where a bound that excludes 0 would print as 0."""
    scale, unit = (100, "%") if pct else (1, "")
    digits = 2 if pct and digits == 3 else digits
    if math.isnan(lo):
        return f"{scale * value:.{digits}f}{unit}"
    d = decimals_for(scale * lo, scale * hi, digits)
    return f"{scale * value:.{d}f}{unit} ({scale * lo:.{d}f}{unit} to {scale * hi:.{d}f}{unit})"


STALL_WARNING = 0.05  # a strategy that stalls this share of its games or more is named in a warning


def stall_warning(summary: Summary) -> str:
    """A line naming every strategy whose games stall STALL_WARNING or more of the time ("" when none does):
    a stalled game stops at the action limit (R20), so the places of such a strategy are not those of finished
    games."""
    stalling = [(r["strategy"], r["stall_rate"]) for r in summary.strategies.iter_rows(named=True)
                if r["stall_rate"] >= STALL_WARNING]
    if not stalling:
        return ""
    names = ", ".join(f"{name} stalls {rate:.1%}" for name, rate in stalling)
    return (f"Warning: {names} of {'its' if len(stalling) == 1 else 'their'} games (the action limit, R20, ends "
            "them unfinished), so the table ranks places of games that never finished; read "
            f"{'that row' if len(stalling) == 1 else 'those rows'} with care.")


def length_text(summary: Summary) -> str:
    mean, lo, hi = summary.length_ci
    return (f"stall rate {fmt_ci(summary.stall.mean, summary.stall.lo, summary.stall.hi, digits=4, pct=True)}; "
            f"games that did not stall: mean length {fmt_ci(mean, lo, hi, digits=2)} actions, median "
            f"{summary.length_median:g}")


def ranking_lines(summary: Summary) -> list[str]:
    diffs = summary.differences
    if diffs.height == 0:
        return ["- one strategy only"]
    lines = [f"Differences in mean place, paired by cluster (95% CI); significant = Holm-adjusted p < 0.05 over "
             f"the {diffs.height} comparisons below (adjacent pairs, then the top strategy against every other)."]
    for r in diffs.iter_rows(named=True):
        verdict = "ahead of" if r["significant"] else "not significantly different from"
        why = f" ({UNADJUSTED_ONLY})" if uncalled(r) else ""
        lines.append(f"- {r['better']} is {verdict} {r['worse']}: mean place difference "
                     f"{fmt_ci(r['difference'], r['lo'], r['hi'])}, {p_clause('Holm', r['p_holm'])}{why}")
    return lines


def uncalled(difference: dict) -> bool:
    """A row of the differences table whose 95% CI excludes 0 though Holm does not call it."""
    return not difference["significant"] and (difference["lo"] > 0 or difference["hi"] < 0)


def same_players_text(summary: Summary) -> str:
    if not summary.same_players:
        return ""
    means = dict(zip(summary.strategies["strategy"].to_list(), summary.strategies["mean_place"].to_list()))
    groups = []
    for members in summary.same_players:
        values = [means[m] for m in members if m in means]
        spread = f" (mean places {min(values):.4f} to {max(values):.4f})" if values else ""
        groups.append(", ".join(f"`{m}`" for m in members) + spread)
    return (f"Same player under several names (identical results on {PROBE_GAMES} probe games; their differences "
            "show the noise): " + "; ".join(groups) + ".")


def to_markdown(summary: Summary, title: str = "Tournament summary") -> str:
    warning = stall_warning(summary)
    lines = [f"# {title}", "", f"{summary.games:,} games, {summary.players} players; {length_text(summary)}.", "",
             *([warning, ""] if warning else []),
             "Intervals are 95% CIs over clusters of deals; ties in multi-round matches are split (see "
             "`idiotsim.analysis.tournament_summary`).", "",
             "## Strategies", "", "| rank | strategy | seat-games | mean place (95% CI) | win rate (95% CI) "
             "| Idiot rate (95% CI) | stall rate |", "|---|---|---|---|---|---|---|"]
    for r in summary.strategies.iter_rows(named=True):
        name = r["strategy"] + ("" if is_fair_label(r["strategy"]) else UNFAIR_MARK)
        lines.append(f"| {r['rank']} | {name} | {r['games']:,} | "
                     f"{fmt_ci(r['mean_place'], r['mean_place_lo'], r['mean_place_hi'])} | "
                     f"{fmt_ci(r['win_rate'], r['win_lo'], r['win_hi'], pct=True)} | "
                     f"{fmt_ci(r['idiot_rate'], r['idiot_lo'], r['idiot_hi'], pct=True)} | {r['stall_rate']:.4%} |")
    if not all(map(is_fair_label, summary.strategies["strategy"])):
        lines += ["", UNFAIR_NOTE]
    if warning:
        lines += ["", warning]
    lines += ["", "## Ranking", ""] + ranking_lines(summary)
    same = same_players_text(summary)
    if same:
        lines += ["", same]
    lines += ["", "## Head to head", "", "Share of the games where both sit at one table in which the row "
              "strategy finishes ahead of the column strategy (a tie counts half; 95% CI).", ""]
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
    lines += ["", "## Seat advantage", "", "| seat | win rate (95% CI) |", "|---|---|"]
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
