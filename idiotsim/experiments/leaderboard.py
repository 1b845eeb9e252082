"""The tournament design: a round robin (``idiotsim.tournament``) summarised as a leaderboard.

The tournament plays in a temporary folder next to the reports; its summary
(``idiotsim.summary``: tables and plots) goes to ``<out>/<NAME>/`` and the
report shows the ranking.
"""
from __future__ import annotations

import csv
import io
import math
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from idiotsim.chunks import Executor
from idiotsim.experiments.design import Rendered
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.text import capitalised, csv_value, rules_text
from idiotsim.rules import Rules

QUICK_TOURNAMENT_GAMES = 1  # one block


@dataclass(frozen=True)
class PlayedTournament:
    spec: Spec
    summary: object  # idiotsim.summary.Summary
    quick: bool


class LeaderboardDesign:
    name = "tournament"

    def play(self, spec: Spec, out_dir: Path, games: int | None = None, precision: float | None = None,
             quick: bool = False, executor: Executor | None = None) -> PlayedTournament:
        """Play the tournament in a temporary folder under `out_dir` (shared with Dask workers) and summarize it."""
        from idiotsim.summary import summarize
        from idiotsim.tournament import TournamentConfig, run_tournament
        if precision is not None:
            print(f"note: --precision does not apply to the tournament spec {spec.path}; it plays its size",
                  file=sys.stderr)
        size = QUICK_TOURNAMENT_GAMES if quick and games is None else (games or spec.games)
        config = TournamentConfig(strategies=spec.strategies, players=spec.players, games=size, seed=spec.seed,
                                  rules=dict(spec.rules))
        with tempfile.TemporaryDirectory(dir=out_dir, prefix=f".{spec.name}-") as tmp:
            data = Path(tmp) / "data"
            run_tournament(config, data, executor=executor)
            return PlayedTournament(spec, summarize(data), quick)

    def analyse(self, played: PlayedTournament):
        """The tournament summary is the analysis."""
        return played.summary

    def render(self, played: PlayedTournament, summary, out_dir: Path) -> Rendered:
        """The ranking as the report; the full summary (tables and plots) into <out>/<name>/."""
        from idiotsim.plots import write_plots
        from idiotsim.summary import write_summary
        spec = played.spec
        folder = Path(out_dir) / spec.name
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("summary*"):
            old.unlink()
        write_summary(summary, folder)
        write_plots(summary, folder)
        answer = _answer(summary)
        return Rendered(_markdown(spec, summary, answer, played.quick), _csv(summary), answer, summary.games,
                        [folder])


def _answer(summary) -> str:
    from idiotsim.summary import fmt_ci
    table = summary.strategies
    top = table.row(0, named=True)
    answer = (f"`{top['strategy']}` ranks first with mean place "
              f"{fmt_ci(top['mean_place'], top['mean_place_lo'], top['mean_place_hi'])} and win rate "
              f"{top['win_rate']:.2%} in {summary.players}-player round robins of {table.height} strategies")
    if summary.differences.height:
        second = summary.differences.row(0, named=True)
        verdict = "significantly ahead of" if second["significant"] else "not significantly ahead of"
        answer += (f"; it is {verdict} `{second['worse']}` (difference "
                   f"{fmt_ci(second['difference'], second['lo'], second['hi'])})")
    return answer + "."


def _markdown(spec: Spec, summary, answer: str, quick: bool) -> str:
    from idiotsim.summary import fmt_ci
    table = summary.strategies
    lines = [f"# {capitalised(spec.title)}", "", f"**Question.** {spec.question.strip()}", "",
             f"**Answer.** {answer}", ""]
    if spec.notes.strip():
        lines += [spec.notes.strip(), ""]
    rules = Rules(**{**spec.rules, "players": spec.players})
    lines += ["## Setup", "",
              f"- Strategies ({table.height}): " + ", ".join(f"`{s}`" for s in spec.strategies),
              f"- Players: {spec.players}; rules: {rules_text(rules, exclude=('players',))}; seed: {spec.seed}",
              f"- A round-robin tournament (`idiotsim.tournament`): every table of {spec.players} distinct "
              "strategies, each deal replayed with the seats rotated (duplicate deals), cyclic orders balanced; "
              "intervals are cluster-robust over blocks of deals (`idiotsim.summary`).", "",
              "## Ranking", "",
              "| rank | strategy | seat-games | mean place (95% CI) | win rate | Idiot rate "
              "| gap to the next (95% CI) |",
              "|---|---|---|---|---|---|---|"]
    gaps = {r["better"]: r for r in summary.differences.iter_rows(named=True)}
    for r in table.iter_rows(named=True):
        g = gaps.get(r["strategy"])
        gap = "" if g is None else (fmt_ci(g["difference"], g["lo"], g["hi"]) + ("" if g["significant"] else " (n.s.)"))
        lines.append(f"| {r['rank']} | `{r['strategy']}` | {r['games']:,} | "
                     f"{fmt_ci(r['mean_place'], r['mean_place_lo'], r['mean_place_hi'])} | {r['win_rate']:.2%} | "
                     f"{r['idiot_rate']:.2%} | {gap} |")
    half = max((r["mean_place_hi"] - r["mean_place_lo"]) / 2 for r in table.iter_rows(named=True))
    lines += ["", "## Size", "",
              f"{summary.games:,} games{' (`--quick` check size: not the shipped numbers)' if quick else ''}; "
              + (f"the widest 95% CI half-width of a mean place is {half:.4f}, so mean places that differ by "
                 f"more than about {2 * half:.3f} are told apart (the gaps above have their own paired intervals)."
                 if not math.isnan(half) else "too few blocks for intervals.")
              + _identical_text(spec, table), "",
              f"Full summary (head to head, seats, game length, plots): [{spec.name}/summary.md]"
              f"({spec.name}/summary.md).",
              "", f"![mean place]({spec.name}/mean_place.png)", "",
              f"Numbers: [{spec.name}.csv]({spec.name}.csv). Spec: [{spec.name}.toml]({spec.name}.toml). "
              f"Regenerate: `idiotsim report reports/{spec.name}.toml`.", ""]
    return "\n".join(lines)


def _identical_text(spec: Spec, table) -> str:
    """Strategies with the same family and knob values play identically: built-in A/A controls."""
    from idiotsim.strategy_api import load_strategy
    groups: dict = {}
    for name in spec.strategies:
        s = load_strategy(name)
        groups.setdefault((s.strategy.name, tuple(s.params.tolist())), []).append(name)
    means = dict(zip(table["strategy"].to_list(), table["mean_place"].to_list()))
    parts = []
    for members in groups.values():
        if len(members) > 1 and all(m in means for m in members):
            vals = [means[m] for m in members]
            parts.append(f"{', '.join(f'`{m}`' for m in members)} (mean places {min(vals):.4f} to {max(vals):.4f})")
    if not parts:
        return ""
    return (" Some entries are the same player under two names (same family and knob values), built-in A/A "
            "controls whose spread shows the noise: " + "; ".join(parts) + ".")


def _csv(summary) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(summary.strategies.columns)
    for r in summary.strategies.iter_rows():
        writer.writerow([csv_value(v) for v in r])
    return buf.getvalue()
