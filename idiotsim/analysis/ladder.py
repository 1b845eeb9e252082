"""The demo's strength ladder: each player at a table with three `basic` players, on the same deals.

Each rung is a field tournament of its own (``idiotsim.runs.tournament``: one lineup, the player and three
`basic` seats, the deal replayed with the player in every seat) under one seed, so block b of every rung
plays the same deal: the rungs share their first deals, and an expensive player's rung plays fewer of them.
A player's mean place has the 95% CI of every tournament summary, over clusters of its own rung's deals
(``idiotsim.analysis.tournament_summary``), so a rung with fewer games has a wider interval. `basic` in
that seat would average exactly 2.5 (four `basic` players share the places 1 to 4 of every game), so
"places ahead of basic" is 2.5 minus the mean place, with the same interval; `basic`'s own rung is that
identity, not played.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import polars as pl

# The engine compiles when it is first imported (a minute on a cold numba cache): the demo reads LADDER and
# says so before anything here imports it (idiotsim.analysis.tournament_summary, idiotsim.runs.tournament).

PLAYERS = 4
SEED = 2026
FIELD = "basic"
EVEN = (PLAYERS + 1) / 2  # basic's mean place against three of itself


@dataclass(frozen=True)
class Rung:
    label: str  # as the tables show it
    spec: str  # the strategy played ("" for basic: the reference, not played)
    share: int  # games per game of the search's rung
    what: str  # one line on what the player is


# The search's K in its rung is the `rollouts` knob's default (strategies/search/search_knobs.py), written out:
# importing the knobs imports the engine (tests/runs/test_tournament.py holds them equal).
LADDER = (  # from the bottom up, the order they play in (the expensive ones, slow to compile, last)
    Rung("random", "random", 40, "a uniformly random legal move"),
    Rung("basic", "", 0, "the reference player (docs/rules.md): 2.5 by symmetry, not played"),
    Rung("tuned-4p", "tuned-4p", 120, "a weighted player tuned for 4 players (CMA-ES, reports/tuned.md)"),
    Rung("learned-fast-4p", "learned-fast-4p", 40, "the fast learned player (24 units); `play`'s hard level"),
    Rung("learned-4p", "learned-4p", 30, "a neural network (64 units) learned from the search's moves"),
    Rung("learned-search-4p", "learned-search-4p", 10, "learned-4p searching only its close turns (K = 16)"),
    Rung("search (K = 128)", "search", 1, "the search: plays each move out on 128 deals sampled from what it has "
                                          "seen (docs/strategies.md); `play`'s expert level"),
)
DEMO_SEARCH_GAMES = 3_000  # the search's rung; every other rung plays `share` times as many
FILES = ("ladder.md", "ladder.csv")
PLOTS = ("mean_place.png", "places.png", "convergence.png")


def rung_games(rung: Rung, search_games: int) -> int:
    """Games a rung plays (whole blocks of PLAYERS rotations)."""
    return PLAYERS * math.ceil(rung.share * search_games / PLAYERS)


def rung_folder(out: Path, rung: Rung) -> Path:
    return Path(out) / "players" / rung.spec


@dataclass
class Ladder:
    """The ladder's table (best first) and the rungs' place counts and running mean places, as a Summary the
    tournament plots draw (mean_place, places, convergence)."""
    table: pl.DataFrame
    summary: object  # idiotsim.analysis.tournament_summary.Summary


def rung_rows(folder: Path, rung: Rung) -> tuple[dict, pl.DataFrame, pl.DataFrame]:
    """The player's row (mean place, win and Idiot rates with clustered 95% CIs), its place counts and its
    running mean place by cluster, from its rung's folder."""
    from idiotsim.analysis.tournament_summary import (clustered, seat_frames, strategy_sums, strategy_table,
                                                      with_tie_shares)
    from idiotsim.runs.tournament import read_manifest
    manifest = read_manifest(folder)
    n = int(manifest["config"]["players"])
    label = rung.spec  # the tournament's label of its one candidate
    lazy = pl.scan_parquet([str(f) for f in sorted(Path(folder).glob("chunk-*.parquet"))])
    blocks = int(lazy.select(pl.col("block").max()).collect(engine="streaming").item()) + 1
    lazy = with_tie_shares(clustered(lazy, blocks), n)
    per_cluster = strategy_sums(lazy, n).filter(pl.col("strategy") == label)
    row = strategy_table(per_cluster).row(0, named=True)
    places = (pl.concat([seat.filter(pl.col("strategy") == label).group_by("place").agg(pl.len().alias("count"))
                         .collect(engine="streaming") for seat in seat_frames(lazy, n)])
              .group_by("place").agg(pl.col("count").sum()).sort("place")
              .select(pl.lit(rung.label).alias("strategy"), "place", "count"))
    running = (per_cluster.sort("cluster")
               .select(pl.lit(rung.label).alias("strategy"), "cluster", pl.col("n").cum_sum().alias("games"),
                       (pl.col("place_sum").cum_sum() / pl.col("n").cum_sum()).alias("mean_place")))
    return row, places, running


def ladder_from(out: Path, rungs=None) -> Ladder:
    """The ladder of the rung folders under `out` (each played to its end); `rungs`: LADDER."""
    from idiotsim.analysis.stats import Interval
    from idiotsim.analysis.tournament_summary import Summary
    rows, places, running = [], [], []
    for rung in rungs or LADDER:
        if not rung.spec:
            places.append(pl.DataFrame(dict(strategy=[rung.label] * PLAYERS, place=list(range(1, PLAYERS + 1)),
                                            count=[1] * PLAYERS), schema_overrides={"count": pl.UInt32}))
            rows.append(dict(strategy=rung.label, games=0, mean_place=EVEN, mean_place_lo=math.nan,
                             mean_place_hi=math.nan, win_rate=1 / PLAYERS, win_lo=math.nan, win_hi=math.nan,
                             idiot_rate=1 / PLAYERS, idiot_lo=math.nan, idiot_hi=math.nan))
            continue
        row, counts, curve = rung_rows(rung_folder(out, rung), rung)
        rows.append({**row, "strategy": rung.label})
        places.append(counts)
        running.append(curve)
    table = (pl.DataFrame(rows).select("strategy", "games", "mean_place", "mean_place_lo", "mean_place_hi",
                                       "win_rate", "win_lo", "win_hi", "idiot_rate", "idiot_lo", "idiot_hi")
             .sort("mean_place", "strategy"))
    table = table.with_columns(pl.int_range(1, table.height + 1).alias("rank"),
                               (EVEN - pl.col("mean_place")).alias("ahead"),
                               (EVEN - pl.col("mean_place_hi")).alias("ahead_lo"),
                               (EVEN - pl.col("mean_place_lo")).alias("ahead_hi")).select("rank", pl.exclude("rank"))
    empty = pl.DataFrame()
    summary = Summary(PLAYERS, int(table["games"].sum()), table, empty, empty, empty,
                      pl.concat(places, how="vertical_relaxed") if places else empty, empty, (math.nan,) * 3, math.nan,
                      pl.concat(running) if running else empty, Interval(math.nan), [])
    return Ladder(table, summary)


def signed(value: float, lo: float, hi: float) -> str:
    """`fmt_ci` for a signed lead: `+0.273 (+0.261 to +0.285)`, and never a signed zero."""
    from idiotsim.analysis.tournament_summary import fmt_ci
    text = fmt_ci(value, lo, hi)
    parts = text.replace("(", "").replace(")", "").split()
    figures = [parts[0]] + ([parts[1], parts[3]] if len(parts) == 4 else [])
    marked = [f if f.startswith("-") or float(f) == 0 else "+" + f for f in figures]
    marked = [f.lstrip("-") if float(f) == 0 else f for f in marked]
    return marked[0] + (f" ({marked[1]} to {marked[2]})" if len(marked) == 3 else "")


def cells(table: pl.DataFrame) -> list[dict]:
    """Each rung's figures as printed (the terminal and ladder.md)."""
    from idiotsim.analysis.tournament_summary import fmt_ci
    out = []
    for r in table.iter_rows(named=True):
        played = not math.isnan(r["mean_place_lo"])
        out.append(dict(
            rank=str(r["rank"]), player=r["strategy"], games=f"{r['games']:,}" if played else "-",
            place=fmt_ci(r["mean_place"], r["mean_place_lo"], r["mean_place_hi"]) if played else "2.5 (exact)",
            ahead=signed(r["ahead"], r["ahead_lo"], r["ahead_hi"]) if played else "0 (the reference)",
            win=fmt_ci(r["win_rate"], r["win_lo"], r["win_hi"], pct=True) if played else "25%",
            idiot=fmt_ci(r["idiot_rate"], r["idiot_lo"], r["idiot_hi"], pct=True) if played else "25%"))
    return out


TITLE = f"The strength ladder: each player with three `{FIELD}` players on the same deals"
EXPLAIN = (f"Mean place: 1 is first, {PLAYERS} last. `{FIELD}` in the same seat averages exactly {EVEN:g} (four "
           f"`{FIELD}` players share the places), so the lead over `{FIELD}` is {EVEN:g} minus the mean place. 95% CIs "
           f"over each player's own deals: fewer games, a wider interval.")


def answer(ladder: Ladder) -> str:
    """The ladder in one sentence: the best player's lead over basic and the last one's gap."""
    c = cells(ladder.table)
    best, last = c[0], c[-1]
    text = f"`{best['player']}` plays best, {best['ahead']} places a game ahead of `{FIELD}`"
    if last["player"] != best["player"] and last["ahead"].startswith("-"):
        text += f"; `{last['player']}` trails `{FIELD}` by {last['ahead'].split(' (')[0].lstrip('-')}"
    return text + "."


def to_markdown(ladder: Ladder, rungs=None) -> str:
    what = {r.label: r.what for r in rungs or LADDER}
    lines = [f"# {TITLE}", "", answer(ladder), "", EXPLAIN, "",
             "| rank | player | games | mean place (95% CI) | places ahead of basic (95% CI) | win rate (95% CI) "
             "| Idiot rate (95% CI) | what it is |", "|---|---|---|---|---|---|---|---|"]
    for c in cells(ladder.table):
        lines.append(f"| {c['rank']} | `{c['player']}` | {c['games']} | {c['place']} | {c['ahead']} | {c['win']} | "
                     f"{c['idiot']} | {what.get(c['player'], '')} |")
    return "\n".join(lines) + "\n"


def write_ladder(ladder: Ladder, out: Path, rungs=None) -> list[Path]:
    """ladder.md, ladder.csv and the ladder's plots into `out`."""
    from idiotsim.analysis import tournament_plots as plots
    from idiotsim.analysis.figures import save_png
    from idiotsim.runs.atomic_files import write_atomic
    out = Path(out)
    write_atomic(out / "ladder.md", to_markdown(ladder, rungs))
    write_atomic(out / "ladder.csv", ladder.table.write_csv(float_precision=6))
    s = ladder.summary
    figures = [
        plots.draw_mean_place(s, title=f"Mean place at a table with three {FIELD} players ({FIELD}: {EVEN:g})",
                              xlabel="mean place (lower is better), 95% CI; games per player differ: see ladder.md"),
        plots.draw_places(s, title=f"Places at a table with three {FIELD} players"),
        plots.draw_convergence(s, title=f"Running mean place against three {FIELD} players", xlabel="games played")]
    return [out / name for name in FILES] + [save_png(fig, out / name) for fig, name in zip(figures, PLOTS)]
