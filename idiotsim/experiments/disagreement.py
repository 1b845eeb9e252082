"""Where does basic lose? On positions of basic self-play, how often the search player would play
another move than basic, by the kind of disagreement, and what each kind is worth in mean place.

Positions: every TURN decision with more than one legal move of `games` games of 4 (or n) `basic`
players (reference engine, ``idiotsim.positions``). At each, the search (`search:rollouts=K`)
decides from the seat's observation and hand; where it differs from basic, both moves are played
on the same `judge` fresh sampled states (``search.place_matrix``) and the position's value of the
disagreement is the mean place of the search's move minus basic's (negative: the search's move is
better). Per kind: the number of disagreements, their share of the decisions and their mean value,
each with a 95% CI clustered by game (the positions of one game are not independent).

Not a design of ``idiotsim report`` (yet): ``python -m idiotsim.experiments.disagreement --out
reports/where_basic_loses`` writes NAME.md and NAME.csv.
"""
from __future__ import annotations

import argparse
import csv
import io
import time
from pathlib import Path

import numpy as np

from idiotsim import observation as ob
from idiotsim import strategy_api  # noqa: F401 (the strategies load before idiotsim.search: import order)
from idiotsim.cards import TEN, TWO
from idiotsim.rng import SEAT_STREAM, new_state
from idiotsim.rules import Rules
from idiotsim.files import write_atomic
from idiotsim.stats import ratio_interval, rate_interval
from idiotsim.toolkit import PICKUP

KINDS = ("pick up instead of playing", "play a 10 (burn)", "keep the 10", "play a 2", "keep the 2",
         "fewer copies of the rank", "more copies of the rank", "a higher ordinary rank",
         "a lower ordinary rank", "other")
DISAGREEMENT_STREAM = SEAT_STREAM - 2  # the search's samples here: no seat of a game uses it


def kind_of(basic_move: int, search_move: int) -> str:
    """The kind of a disagreement between basic's move and the search's."""
    if search_move == PICKUP:
        return "pick up instead of playing"
    if basic_move < 0 or search_move < 0:
        return "other"
    b_rank, b_count = basic_move & 15, (basic_move >> 4) & 15
    s_rank, s_count = search_move & 15, (search_move >> 4) & 15
    if s_rank == b_rank:
        return "fewer copies of the rank" if s_count < b_count else "more copies of the rank"
    for rank, played, kept in ((TEN, "play a 10 (burn)", "keep the 10"), (TWO, "play a 2", "keep the 2")):
        if s_rank == rank:
            return played
        if b_rank == rank:
            return kept
    return "a higher ordinary rank" if s_rank > b_rank else "a lower ordinary rank"


def disagreements(rules: Rules, games: int, seed: int, rollouts: int, judge: int) -> tuple[np.ndarray, list]:
    """(decisions looked at in each game, [(game, kind, value)] for each disagreement)."""
    from idiotsim import search
    from idiotsim.positions import decision_positions
    from idiotsim.strategy_api import load_strategy
    params = load_strategy(f"search:rollouts={rollouts}").params
    decisions = np.zeros(games, np.int64)
    found = []
    for game in range(games):
        for position in decision_positions(rules, "basic", seed, game, decisions=(ob.TURN,)):
            obs, hand = position["obs"], position["hand"]
            moves = np.zeros(search.MAX_MOVES, np.int64)
            rng = new_state(seed, game * 10_000 + int(obs[ob.ACTIONS]), DISAGREEMENT_STREAM)
            if search.list_turn_moves(obs, hand, params, rng, moves) < 2:
                continue
            decisions[game] += 1
            choice = int(search.search_decision(obs, hand, params, rng, obs, False))
            if choice == moves[0]:
                continue
            places = np.zeros((judge, 2), np.int64)
            search.place_matrix(obs, hand, rng, np.array([moves[0], choice], np.int64), judge, 0, places)
            found.append((game, kind_of(int(moves[0]), choice), float((places[:, 1] - places[:, 0]).mean())))
    return decisions, found


def table(decisions: np.ndarray, found: list) -> list[dict]:
    """Per kind (and "any"): count, share of the decisions and mean value, 95% CIs clustered by game."""
    rows = []
    for kind in ("any", *KINDS):
        picked = [(g, v) for g, k, v in found if kind in ("any", k)]
        if not picked:
            continue
        count, value_sum = np.zeros(len(decisions)), np.zeros(len(decisions))
        for g, v in picked:
            count[g] += 1
            value_sum[g] += v
        share, value = rate_interval(count, decisions), ratio_interval(value_sum, count)
        rows.append(dict(kind=kind, disagreements=len(picked), share=share.mean, share_lo=share.lo,
                         share_hi=share.hi, value=value.mean, value_lo=value.lo, value_hi=value.hi))
    return rows


def markdown(rows: list, decisions: int, args) -> str:
    """The report; `decisions`: how many decisions were looked at in all."""
    lines = [
        "# Where does basic lose?",
        "",
        f"**Question.** On positions of `basic` self-play ({args.players} players), how often would the search "
        f"player (`search:rollouts={args.rollouts}`) play another move than `basic`, by the kind of "
        "disagreement, and what is each kind worth in mean place?",
        "",
        f"Size: {args.games} games of basic self-play, {decisions:,} turn decisions with more than one legal move; "
        f"each disagreement judged on {args.judge} fresh sampled states with both moves (common random numbers). "
        "Value: mean place after the search's move minus after basic's (negative: the search's move is better), "
        "95% CIs clustered by game. The swap is not included (the search swaps like basic).",
        "",
        "| kind | disagreements | share of decisions (95% CI) | value, places (95% CI) |",
        "|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['kind']} | {r['disagreements']:,} | {r['share']:.2%} ({r['share_lo']:.2%} to "
                     f"{r['share_hi']:.2%}) | {r['value']:+.3f} ({r['value_lo']:+.3f} to {r['value_hi']:+.3f}) |")
    lines += ["", f"Regenerate: `python -m idiotsim.experiments.disagreement --players {args.players} --games "
              f"{args.games} --rollouts {args.rollouts} --judge {args.judge} --seed {args.seed} --out {args.out}`", ""]
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rollouts", type=int, default=32)
    parser.add_argument("--judge", type=int, default=64)
    parser.add_argument("--seed", type=int, default=6205)
    parser.add_argument("--out", default="reports/where_basic_loses")
    args = parser.parse_args(argv)
    start = time.time()
    decisions, found = disagreements(Rules(players=args.players), args.games, args.seed, args.rollouts, args.judge)
    rows = table(decisions, found)
    out = Path(args.out)
    write_atomic(out.with_suffix(".md"), markdown(rows, int(decisions.sum()), args))
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_atomic(out.with_suffix(".csv"), text.getvalue())
    print(f"{out.with_suffix('.md')}: {int(decisions.sum()):,} decisions, {len(found):,} disagreements, "
          f"{time.time() - start:.1f} s")


if __name__ == "__main__":
    main()
