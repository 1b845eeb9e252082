"""The tournament design: a round robin (``idiotsim.runs.tournament``) summarised as a leaderboard.

The tournament plays in a temporary folder next to the reports; its summary
(``idiotsim.analysis.tournament_summary``: tables and plots) goes to ``<out>/<NAME>/`` and the
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

from idiotsim.runs.chunks import Executor
from idiotsim.experiments.design import Rendered, csv_games
from idiotsim.experiments.report_markdown import opening, size_caveat, source_lines
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.text import csv_value, rules_text
from idiotsim.analysis.stats import UNADJUSTED_ONLY, format_p
from idiotsim.game.rules import Rules

QUICK_TOURNAMENT_GAMES = 1  # one block


@dataclass
class PlayedTournament:
    spec: Spec
    summary: object  # idiotsim.analysis.tournament_summary.Summary
    quick: bool
    reduced: bool = False  # the reduced size CI checks (check_games), written to check/NAME.*


class LeaderboardDesign:
    name = "tournament"
    full_size_files = (".md", ".csv", "/summary.md")

    def committed_games(self, spec: Spec, csv_path: Path) -> int:
        return csv_games(csv_path) // spec.players  # its rows count seat-games

    def play(self, spec: Spec, out_dir: Path, games: int | None = None, precision: float | None = None,
             quick: bool = False, executor: Executor | None = None) -> PlayedTournament:
        """Play the tournament in a temporary folder under `out_dir` (shared with Dask workers) and summarize it."""
        from idiotsim.analysis.tournament_summary import summarize
        from idiotsim.runs.tournament import TournamentConfig, run_tournament
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
        from idiotsim.analysis.tournament_plots import write_plots
        from idiotsim.analysis.tournament_summary import write_summary
        spec = played.spec
        folder = Path(out_dir) / spec.name
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("summary*"):
            old.unlink()
        write_summary(summary, folder)
        write_plots(summary, folder)
        answer = _answer(summary)
        plain = _plain(summary)
        return Rendered(_markdown(spec, summary, answer, played, plain), _csv(summary), answer, summary.games,
                        [folder], summary, plain=plain)


def _plain(summary) -> str:
    """The first sentence: who plays best, and whom it does not beat significantly."""
    table = summary.strategies
    top = table.row(0, named=True)
    level = [f"`{r['worse']}`" for r in _against_top(summary) if not r["significant"]]
    text = (f"`{top['strategy']}` plays best of the {table.height} strategies at a {summary.players}-player table "
            f"(mean place {top['mean_place']:.3f}; {(summary.players + 1) / 2:g} is even)")
    if len(level) > 3:
        text += f", though not significantly better than {len(level)} of the others"
    elif level:
        text += f", though not significantly better than {level[0] if len(level) == 1 else ', '.join(level[:-1]) + ' or ' + level[-1]}"
    return text + "."


def _answer(summary) -> str:
    from idiotsim.analysis.tournament_summary import fmt_ci, uncalled
    table = summary.strategies
    top = table.row(0, named=True)
    answer = (f"`{top['strategy']}` ranks first with mean place "
              f"{fmt_ci(top['mean_place'], top['mean_place_lo'], top['mean_place_hi'])} and win rate "
              f"{fmt_ci(top['win_rate'], top['win_lo'], top['win_hi'], pct=True)} in {summary.players}-player "
              f"round robins of {table.height} strategies")
    against = _against_top(summary)
    if against:
        behind = [r for r in against if r["significant"]]
        level = [r for r in against if not r["significant"]]
        answer += (f"; after Holm's adjustment it is significantly ahead of {len(behind)} of the {len(against)} "
                   "others")
        if level:
            closest = level[0]
            names = ", ".join(f"`{r['worse']}`" for r in level)
            why = f"; {UNADJUSTED_ONLY}" if uncalled(closest) else ""
            answer += (f", not of {names} (closest: `{closest['worse']}`, "
                       f"difference {fmt_ci(closest['difference'], closest['lo'], closest['hi'])}{why})")
        else:
            nearest = against[0]
            answer += (f" (nearest: `{nearest['worse']}`, difference "
                       f"{fmt_ci(nearest['difference'], nearest['lo'], nearest['hi'])})")
    return answer + "."


def _against_top(summary) -> list[dict]:
    """The top strategy's paired difference to every other, in rank order."""
    diffs = summary.differences
    top = summary.strategies["strategy"][0]
    rows = [r for r in diffs.iter_rows(named=True) if r["better"] == top]
    order = {name: i for i, name in enumerate(summary.strategies["strategy"].to_list())}
    return sorted(rows, key=lambda r: order[r["worse"]])


def _markdown(spec: Spec, summary, answer: str, played: PlayedTournament, plain: str) -> str:
    from idiotsim.analysis.tournament_summary import fmt_ci, length_text, same_players_text, stall_warning
    table = summary.strategies
    top = table["strategy"][0]
    lines = opening(spec.title, plain, spec.question, answer)
    if spec.notes.strip():
        lines += [spec.notes.strip(), ""]
    rules = Rules(**{**spec.rules, "players": spec.players})
    lines += ["## Setup", "",
              f"- Strategies ({table.height}): " + ", ".join(f"`{s}`" for s in spec.strategies),
              f"- Players: {spec.players}; rules: {rules_text(rules, exclude=('players',))}; seed: {spec.seed}",
              f"- A round-robin tournament (`idiotsim.runs.tournament`): every table of {spec.players} distinct "
              "strategies, each deal replayed with the seats rotated (duplicate deals), cyclic orders balanced; "
              "intervals are cluster-robust over blocks of deals (`idiotsim.analysis.tournament_summary`).", "",
              "## Ranking", "",
              f"Mean place is on the 1..{spec.players} scale (lower is better). The difference behind `{top}` is "
              "paired by cluster; significant = Holm-adjusted p < 0.05 over the "
              f"{summary.differences.height} comparisons of the summary (adjacent pairs and `{top}` against every "
              "other).", "",
              "| rank | strategy | seat-games | mean place (95% CI) | win rate (95% CI) | Idiot rate (95% CI) "
              f"| behind `{top}` (95% CI) | Holm p |",
              "|---|---|---|---|---|---|---|---|"]
    against = {r["worse"]: r for r in _against_top(summary)}
    for r in table.iter_rows(named=True):
        g = against.get(r["strategy"])
        gap = "" if g is None else fmt_ci(g["difference"], g["lo"], g["hi"]) + _verdict(g)
        p = "" if g is None else format_p(g["p_holm"])
        lines.append(f"| {r['rank']} | `{r['strategy']}` | {r['games']:,} | "
                     f"{fmt_ci(r['mean_place'], r['mean_place_lo'], r['mean_place_hi'])} | "
                     f"{fmt_ci(r['win_rate'], r['win_lo'], r['win_hi'], pct=True)} | "
                     f"{fmt_ci(r['idiot_rate'], r['idiot_lo'], r['idiot_hi'], pct=True)} | {gap} | {p} |")
    warning = stall_warning(summary)
    lines += ["", warning] if warning else []
    half = max((r["mean_place_hi"] - r["mean_place_lo"]) / 2 for r in table.iter_rows(named=True))
    same = same_players_text(summary)
    lines += ["", "## Size", "",
              f"{summary.games:,} games{size_caveat(played)}; "
              + (f"the widest 95% CI half-width of a mean place is {half:.4f} (differences have their own, "
                 "usually narrower, paired intervals above)." if not math.isnan(half) else "too few blocks for "
                 "intervals.")
              + f" Game length: {length_text(summary)}." + (f" {same}" if same else ""), "",
              f"Full summary (head to head, seats, game length, plots): [{spec.name}/summary.md]"
              f"({spec.name}/summary.md).",
              "", f"![mean place]({spec.name}/mean_place.png)", "", *source_lines(spec, played.reduced)]
    return "\n".join(lines)


def _verdict(difference: dict) -> str:
    """The words after a difference behind the top strategy: none where it is significant."""
    from idiotsim.analysis.tournament_summary import uncalled
    if difference["significant"]:
        return ""
    return f" (n.s.: {UNADJUSTED_ONLY})" if uncalled(difference) else " (n.s.)"


def _csv(summary) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(summary.strategies.columns)
    for r in summary.strategies.iter_rows():
        writer.writerow([csv_value(v) for v in r])
    return buf.getvalue()
