"""The report of a deal design (paired, seats): Markdown and CSV from the analysed rows.

The design (a ``idiotsim.experiments.deals.DealDesign``) supplies its own parts
(sentence, headline over a sweep, table, setup lines, CSV cells); this module
assembles them with the parts every deal design
shares: the setup, the size and why it is enough, the sequential-mode note.
"""
from __future__ import annotations

import csv
import io
import math
import shlex
from pathlib import Path

from idiotsim.experiments.design import CellTable
from idiotsim.experiments.deal_play import MIN_DIFFERING_DEALS, Played
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.text import (capitalised, csv_value, digits_for, format_interval, format_number,
                                      format_points_interval, rules_text, short_label, unadjusted_note)
from idiotsim.game.rules import Rules
from idiotsim.analysis.stats import UNADJUSTED_ONLY, format_p


MULTIPLICITY_RULE = (
    "Multiplicity: every difference a report tests (mean place and win rate at every setting, and game length "
    "against the first variant) forms one family, as do the leaderboard's adjacent pairs and its top strategy "
    "against every other, and each p-value is Holm-adjusted over its family. An effect is called significant, its "
    "sign settled, only when its Holm-adjusted p-value is below 0.05, and settings are not ranked against each "
    "other without a paired interval for their difference.")
STALL_RULE = (
    "Stalls: a round that reaches the action limit (R20) stops there, so its length says nothing about how long "
    "the game would have run. Game length is the mean (95% CI over deals) and median of the games that did not "
    "stall, printed beside the stall rate, never a mean with the limit averaged in.")


ANSWER_MARK = "**Answer.** "  # the careful answer's line of NAME.md
PLAIN_LINE = 2  # NAME.md's line (from 0) holding its plain first sentence (the index reads it from a committed report)


def headline(design, spec: Spec, rows: list) -> str:
    """The careful one-line answer."""
    if len(spec.points) == 1:
        return design.sentence(spec, spec.points[0], rows[0])
    return design.sweep_headline(spec, rows)


def opening(title: str, plain: str, question: str, answer: str) -> list[str]:
    """Every report's first lines: its title, the plain sentence a player reads in five seconds (line
    PLAIN_LINE), the question, and the careful answer."""
    return [f"# {capitalised(title)}", "", plain, "", f"**Question.** {question.strip()}", "", f"{ANSWER_MARK}{answer}",
            ""]


def plain_of(markdown_text: str) -> str:
    """The plain first sentence of a report's Markdown ("" when it has none)."""
    lines = markdown_text.splitlines()
    line = lines[PLAIN_LINE] if len(lines) > PLAIN_LINE else ""
    return "" if line.startswith("**") else line


def markdown(design, played: Played, rows: list, plot_name: str) -> str:
    spec = played.spec
    lines = opening(spec.title, design.plain_sentence(spec, rows), spec.question, headline(design, spec, rows))
    if len(spec.points) > 1:
        lines += ["Per setting:", ""] + [f"- {design.sentence(spec, p, r)}" for p, r in zip(spec.points, rows)] + [""]
    if spec.notes.strip():
        lines += [spec.notes.strip(), ""]
    lines += ["## Setup", ""] + setup_lines(design, spec) + [""]
    lines += ["## Numbers", ""]
    lines += design.table(spec, rows)
    note = unadjusted_note(*design.holm_cases(spec, rows))
    lines += ["", note] if note else []
    lines += ["", design.effect_words + " (negative mean place = better); p-values are two-sided "
              "(normal approximation over deals). " + MULTIPLICITY_RULE + " Variance reduction: variance of the "
              "unpaired difference over variance of the paired difference. " + STALL_RULE, ""]
    lines += ["## Size", ""] + size_lines(design, played, rows) + [""]
    lines += [f"![{spec.title}]({plot_name})", ""] + source_lines(spec, played.reduced)
    return "\n".join(lines)


def size_caveat(played) -> str:
    """What a report played at another size than its spec's says after its size ("" at that size)."""
    return ((" (`--quick` check size: not the shipped numbers)" if played.quick else "")
            + (" (the reduced size CI checks: not the shipped numbers)" if played.reduced else ""))


def source_lines(spec: Spec, reduced: bool) -> list[str]:
    """A report's last lines: its numbers, its spec, how to regenerate it and, for a large one, how CI
    checks it."""
    spec_link = f"../{spec.name}.toml" if reduced else f"{spec.name}.toml"
    lines = [f"Numbers: [{spec.name}.csv]({spec.name}.csv). Spec: [{spec.name}.toml]({spec_link}). "
             f"Regenerate: `{regenerate_command(spec)}`.", ""]
    return lines + ([check_size_line(spec, reduced), ""] if spec.check_games else [])


def regenerate_command(spec: Spec) -> str:
    """The command that regenerates the report of `spec`: `idiotsim report reports/NAME.toml` for a spec in a
    folder called reports (the shipped ones, run in the repository's root as its README says), else with the
    spec's absolute path (right wherever the user runs it)."""
    path = Path(spec.path).resolve()
    shown = f"reports/{path.name}" if path.parent.name == "reports" else shlex.quote(str(path))
    return f"idiotsim report {shown}"


def check_size_line(spec: Spec, reduced: bool) -> str:
    """How a report too large for the suite is checked, and how it is regenerated at full size."""
    size = f"{spec.check_games:,} games" + (" in all" if spec.games_in_all else " a setting")
    if reduced:
        return (f"This is the reduced-size result CI compares byte for byte ({size}, "
                f"the spec's `check_games`), not the shipped numbers: those are in [../{spec.name}.md](../{spec.name}.md).")
    return (f"The full size is too large for the test suite, which regenerates this report at {size} "
            f"(the spec's `check_games`) and compares it with the committed "
            f"[check/{spec.name}.md](check/{spec.name}.md) and check/{spec.name}.csv. `{regenerate_command(spec)}` "
            f"regenerates it at full size and rewrites the check files too (give it "
            "`--threads`; `--workers N` or `--cluster ADDR` spread it over Dask workers, with the same numbers).")


def main_figures(design, spec: Spec, rows: list) -> CellTable:
    """The differences in mean place and win rate at every setting, for the terminal (NAME.md has them all)."""
    d = max(digits_for(r.place_diff.half) for r in rows)
    columns = [("setting", "left"), ("deals", "right"), ("mean place difference (95% CI)", "right"),
               ("Holm p", "right"), ("win rate difference, points (95% CI)", "right"), ("Holm p", "right")]
    cells = [[short_label(p.label or "all"), f"{r.deals:,}", format_interval(r.place_diff, d),
              format_p(r.place_diff.p_holm), format_points_interval(r.win_diff), format_p(r.win_diff.p_holm)]
             for p, r in zip(spec.points, rows)]
    return CellTable(f"{design.effect_words} (a negative mean place is better)", columns, cells, optional=(1,),
                     note=unadjusted_note(*design.holm_cases(spec, rows)))


def setup_lines(design, spec: Spec) -> list[str]:
    above, below = design.setup_lines(spec)
    base_rules = Rules(**{**spec.rules, "players": spec.players})
    lines = above + [f"- Players: {spec.players}" + (" (swept)" if spec.sweep_name == "players" else ""),
                     f"- Rules: {rules_text(base_rules, exclude=('players',))}",
                     f"- Seed: {spec.seed}"]
    if spec.sweep_name:
        what = "variants" if spec.sweep_name == "variant" else f"`{spec.sweep_name}`"
        distinct = len(dict.fromkeys(p.label.removesuffix(p.field).removesuffix(", ") for p in spec.points))
        settings = (f"{distinct} settings, each in {len(spec.fields)} fields"
                    if spec.fields and distinct * len(spec.fields) == len(spec.points) else
                    f"{distinct} settings in {len(spec.fields)} fields ({len(spec.points)} in all)" if spec.fields else
                    f"{len(spec.points)} settings")
        lines.append(f"- Sweep: {what} over {settings}"
                     + (f" (series: `{spec.series_name}`)" if spec.series_name else "")
                     + "; every setting plays the same deal ids")
        if spec.sweep_name == "variant":
            for p in spec.points:
                changed = p.subject != spec.subject
                extra = f"; {'strategy' if p.strategy else 'treatment'} `{p.subject}`" if changed else ""
                lines.append(f"  - {p.label}: {rules_text(p.rules)}, {p.players} players{extra}")
    return lines + below


def size_lines(design, played: Played, rows: list) -> list[str]:
    spec, m = played.spec, len(rows)
    diffs = [r.place_diff for r in rows]
    halves = [x.half for x in diffs]
    worst = max(halves)
    decided = [i for i, x in enumerate(diffs) if x.significant()]
    deals = sorted({r.deals for r in rows})
    games = sorted({r.games for r in rows})
    size = (f"{deals[0]:,} deals ({games[0]:,} games)" if len(deals) == 1 else
            f"{deals[0]:,} to {deals[-1]:,} deals ({games[0]:,} to {games[-1]:,} games)")
    lines = [f"Size: {size} per setting" + (f", {sum(r.games for r in rows):,} games in all" if m > 1 else "")
             + size_caveat(played) + "."]
    best_half = min(halves)
    span = (f"{format_number(worst, 4)}" if m == 1 or best_half == worst else
            f"{format_number(best_half, 4)} to {format_number(worst, 4)} across settings")
    lines.append(f"Precision: the 95% CI half-width of the mean place difference is {span}, so an effect of "
                 f"{format_number(2 * worst, 4)} places (one place in {max(1, round(1 / (2 * worst))):,} games) "
                 "would exclude 0 with about 97.5% probability before the Holm adjustment." if worst > 0 else
                 f"Precision: the 95% CI half-width of the mean place difference is {span}: every deal gave the "
                 "same difference.")
    lines += design.size_notes(spec, rows)
    if decided:
        small = min(decided, key=lambda i: (abs(diffs[i].mean), i))
        lines.append((f"The sign of the effect is settled (Holm p < 0.05) at {len(decided)} of {m} settings"
                      if m > 1 else "The sign of the effect is settled (Holm p < 0.05)")
                     + (f"; the smallest settled effect is {format_interval(diffs[small], 4)} at "
                        f"{spec.points[small].label}." if m > 1 else "."))
    undecided = [i for i in range(m) if i not in decided]
    if undecided:
        where = ", ".join(spec.points[i].label for i in undecided) if m > 1 else ""
        widest = max(undecided, key=lambda i: (diffs[i].hi - diffs[i].lo, i))
        why = f"; {UNADJUSTED_ONLY}" if diffs[widest].unadjusted_only() else ""
        lines.append((f"At {where} the sign is not settled" if m > 1 else "The sign is not settled")
                     + f" (95% CI{' at ' + spec.points[widest].label if m > 1 else ''}: "
                     f"{format_interval(diffs[widest], 4)}{why}); telling a smaller effect from none would take a "
                     "larger size.")
    lines.append(_pairing_line(design, rows))
    if played.precision is not None:
        lines.append(_sequential_line(played))
    return lines


def _pairing_line(design, rows: list) -> str:
    reductions = [r.variance_reduction for r in rows if not math.isinf(r.variance_reduction)]
    if not reductions:
        return ("The paired differences are all exactly 0 (treatment and control play identically on "
                "every deal), so the interval has zero width.")
    lo, hi = min(reductions), max(reductions)
    ratio = f"{lo:.1f}x" if len(reductions) == 1 or lo == hi else f"{lo:.1f}x to {hi:.1f}x"
    return (f"Pairing on {design.pairing_words}: the variance of an unpaired difference (the two arms on independent "
            f"deals) over the paired one is {ratio}"
            + (": an unpaired experiment would need that many times the games for the same interval."
               if lo >= 1 else " (above 1 the pairing saves games; below 1 it costs a little)."))


def _sequential_line(played: Played) -> str:
    if played.reached:
        return (f"Sequential mode: stopped at look {played.looks} because every setting's 95% half-width fell "
                f"to the target {played.precision:g} or below with at least {MIN_DIFFERING_DEALS} deals whose "
                "difference is not 0. The rule looks only at the spread, not at the estimate, so the 95% "
                "intervals at stopping keep their coverage (checked by simulation in tests/analysis/test_coverage.py).")
    return (f"Sequential mode: the target half-width {played.precision:g} (with at least {MIN_DIFFERING_DEALS} "
            f"deals whose difference is not 0) was not reached by the maximum size after {played.looks} looks "
            "(raise it with --games); the intervals are the 95% intervals of the last look.")


def csv_text(design, spec: Spec, rows: list) -> str:
    columns = design.csv_columns_for(spec)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    for p, r in zip(spec.points, rows):
        cells = {"setting": p.label or "all", **design.point_cells(p), **r.csv_cells()}
        writer.writerow([csv_value(cells.get(c, float("nan"))) for c in columns])
    return buf.getvalue()
