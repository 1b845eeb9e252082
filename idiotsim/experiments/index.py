"""The index of the reports (``reports/README.md``) and the spec format it documents."""
from __future__ import annotations

import csv
from pathlib import Path

from idiotsim.analysis.stats import UNADJUSTED_ONLY, Interval
from idiotsim.experiments.deal_play import MIN_DIFFERING_DEALS
from idiotsim.experiments.report_markdown import MULTIPLICITY_RULE, STALL_RULE
from idiotsim.experiments.text import digits_for, format_interval
from idiotsim.strategies.search.search_knobs import DEFAULT_ROLLOUTS


def index_markdown(written: list) -> str:
    """The index: one row per written report (``Written``), then the spec format."""
    lines = ["# Reports: questions answered with evidence", "",
             "Each report is generated from the TOML spec of the same name by `idiotsim report reports/NAME.toml`; "
             "`idiotsim report --all` regenerates every report and this index. A report holds the question, the "
             "setup, the numbers with 95% confidence intervals, the answer in one sentence, the size and why it "
             "is enough, a plot and a CSV of the numbers.", "",
             "Design (see `idiotsim/experiments/`): treatment and control play the same deals with the same "
             "opponents and the same random draws, the focal seat rotating over every seat; the answer is the "
             "paired difference of the focal player's place (negative = better), clustered by deal. Seat questions "
             "rotate the dealt cards over the seats instead. Every interval, rates included, is a 95% CI over "
             "deals (clusters), never over games as if they were independent.", "",
             MULTIPLICITY_RULE + " The 95% CIs themselves are not adjusted: where one excludes 0 but its effect "
             f"is not called, the words beside it say so (\"{UNADJUSTED_ONLY}\").", "", STALL_RULE, "",
             "Sequential mode (`--precision H`) stops at the first look where every setting's 95% half-width is at "
             f"most H and at least {MIN_DIFFERING_DEALS} deals have a non-zero difference; the rule looks at the "
             "spread only, so the 95% intervals at stopping keep their coverage.", "",
             "CI regenerates every report and fails on any difference from the committed files "
             "(`idiotsim report --all --check`, run by `python3 dev.py test`). A report too large for the suite "
             "(a spec with `check_games`, marked * below) is regenerated at that reduced size instead and compared "
             "with its committed reduced-size result in `check/NAME.*`; its page says how to regenerate it at "
             "full size.", "",
             "| report | question | answer | games |", "|---|---|---|---|"]
    for w in written:
        q = _cell(w.spec.question.strip())
        mark = " *" if w.spec.check_games else ""
        lines.append(f"| [{w.spec.title}]({w.spec.name}.md){mark} | {q} | {_cell(w.plain or w.answer)} | {w.games:,} |")
    lines += tips_table(written)
    lines += ["", "## Reports made by other commands", "", *OTHER_REPORTS, "", "## Spec format", "", SPEC_HELP.strip(), ""]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


LEVEL_COLUMNS = (("beginner", "beginner (`basic`)"), ("fast", "fast strong (`learned-fast-4p`)"),
                 ("strong", "strong (gated `learned-search-4p`)"), ("search", f"search cross-check (K = {DEFAULT_ROLLOUTS})"))
TABLE_SIZES = (2, 3, 4, 5)
HEADLINE_PLAYERS = 4


def tips_table(written: list) -> list[str]:
    """Every tip (a basic-level report that `strong` reports re-ask) at every level of play, one row per tip
    and one short cell per level: the effect of following the tip (mean place, negative = better), its 95%
    CI and a verdict; then the gated player by table size, and each strong control against `basic`."""
    tips = _tips(written)
    if not tips:
        return []
    experts = _experts(written)
    head = ["", "## The tips at every level of play", "",
            "Each tip is asked as the same constraint (docs/strategies.md, \"Constraints\") of `basic` and of three "
            f"strong players, at {HEADLINE_PLAYERS} players against `basic` opponents; each strong report plays the "
            "beginner's contrast on the same deals. A cell: the effect on your mean place of following the tip "
            "(negative = better), its 95% CI, and a verdict: **helps** or **hurts** (Holm-adjusted p < 0.05 in its "
            "report) or unclear. The search cross-check plays fewer deals (its intervals are wider). A level a "
            "report does not ask is \"not asked\" (its report's notes say why); \"not run yet\": its spec asks it but "
            "the committed report predates that (regenerate it at full size).", ""]
    levels = ["| tip | " + " | ".join(words for _, words in LEVEL_COLUMNS) + f" | {AMONG_STRONG} |",
              "|---" * (2 + len(LEVEL_COLUMNS)) + "|"]
    sizes = ["", "### Strong play by table size", "",
             "The gated player (`learned-search-Np`, the learned player searching its close turns) against `basic` "
             "opponents, the tip's effect at each table size (the 1..n place scale grows with the player count); a "
             "tip links to its report by table size.", "",
             "| tip | " + " | ".join(f"{n} players" for n in TABLE_SIZES) + " |", "|---" * (1 + len(TABLE_SIZES)) + "|"]
    tables = ["", "### Among strong players", "",
              "The same tips asked of the gated player (`learned-search-Np`) at a table of three gated opponents, "
              "beside the same player among `basic` opponents on the same deals (each tip's experts report). A cell: "
              "the effect of following the tip among strong players, its 95% CI and verdict, then the effect among "
              "`basic` opponents; **the table changes the answer** where the paired difference of the two effects "
              "is significant (Holm-adjusted in its report).", "",
              "| tip | " + " | ".join(f"{n} players" for n in TABLE_SIZES) + " |", "|---" * (1 + len(TABLE_SIZES)) + "|"]
    controls = ["", "### The controls against basic", "",
                "Each strong report's control (the player not following the tip) against `basic` in the same seat on "
                f"the same deals, at {HEADLINE_PLAYERS} players against `basic` opponents: its mean place minus "
                "basic's (negative = stronger). A control weaker than basic would make its tip's answer a comparison "
                "with a broken player; its report says so in its first sentence.", "",
                "| tip | " + " | ".join(words for level, words in LEVEL_COLUMNS if level != "beginner") + " |",
                "|---" * len(LEVEL_COLUMNS) + "|"]
    for tip, by_size, rows, asked in tips:
        link = f"[{tip.spec.advice or tip.spec.title}]({tip.spec.name}.md)"

        def row(level: str, players: int) -> dict | str | None:
            found = _row(rows, level, players)
            wanted = "strong" if level == "beginner" else level
            return found if found is not None or (wanted, players) not in asked else NOT_RUN
        among = experts.get(tip.spec.beginner.report)
        levels.append(f"| {link} | " + " | ".join(_effect_cell(row(level, HEADLINE_PLAYERS), level)
                                                    for level, _ in LEVEL_COLUMNS)
                      + f" | {_effect_cell(_expert_row(among, HEADLINE_PLAYERS), 'strong')} |")
        if among is not None:
            tables.append(f"| [{tip.spec.advice or tip.spec.title}]({among[0].spec.name}.md) | "
                          + " | ".join(_tables_cell(_expert_row(among, n)) for n in TABLE_SIZES) + " |")
        sizes.append(f"| [{tip.spec.advice or tip.spec.title}]({by_size.spec.name}.md) | " + " | ".join(
            _effect_cell(row("strong", n), "strong") for n in TABLE_SIZES) + " |")
        controls.append(f"| {link} | " + " | ".join(_strength_cell(row(level, HEADLINE_PLAYERS))
                                                      for level, _ in LEVEL_COLUMNS if level != "beginner") + " |")
    return head + levels + sizes + (tables if experts else []) + controls


def _tips(written: list) -> list[tuple]:
    """(the tip's headline strong report, its report by table size (the headline where it has none), every CSV
    row of its strong reports, the (level, players) their specs ask) per basic-level report, in the written
    order; a row holds its report's first field's settings only (`basic` opponents)."""
    by_name = {w.spec.name: w for w in written}
    grouped: dict = {}
    for w in written:
        b = w.spec.beginner
        if w.spec.design == "strong" and b is not None and b.report in by_name:
            grouped.setdefault(b.report, []).append(w)
    tips = []
    for reports in grouped.values():
        rows = [row for w in reports for row in _csv_rows(w)
                if row.get("field", "") == (w.spec.fields[0] if w.spec.fields else "")]
        headline = next((w for w in reports if any(p.players == HEADLINE_PLAYERS for p in w.spec.points)), reports[0])
        by_size = next((w for w in reports if w is not headline and len({p.players for p in w.spec.points}) > 1),
                       headline)
        asked = {(p.level, p.players) for w in reports for p in w.spec.points
                 if p.field == (w.spec.fields[0] if w.spec.fields else "")}
        tips.append((headline, by_size, rows, asked))
    return tips


AMONG_STRONG = "among strong players (gated, 4 players)"


def _experts(written: list) -> dict:
    """The experts report of each tip (its basic-level report's name): (the report, its CSV rows)."""
    return {w.spec.beginner.report: (w, _csv_rows(w)) for w in written
            if w.spec.design == "experts" and w.spec.beginner is not None}


def _expert_row(among: tuple | None, players: int) -> dict | str | None:
    """A tip's row among strong players at a table size: the strong-table effect, and beside it the beginners'
    table's effect and the difference of the two (None: not asked; NOT_RUN: asked, not in the committed CSV)."""
    if among is None:
        return None
    w, rows = among
    found = [r for r in rows if r.get("players") == str(players)]
    if not found:
        return NOT_RUN if any(p.players == players for p in w.spec.points) else None
    r = found[0]
    return {"diff": r["diff"], "lo": r["diff_lo"], "hi": r["diff_hi"], "holm": r["diff_p_holm"],
            "b_diff": r["b_diff"], "b_lo": r["b_lo"], "b_hi": r["b_hi"], "b_holm": r["b_p_holm"],
            "gap_holm": r["gap_p_holm"]}


def _tables_cell(row: dict | str | None) -> str:
    """Among strong players, then among `basic` opponents on the same deals, and whether the table changes it."""
    if not isinstance(row, dict):
        return _effect_cell(row, "strong")
    among_basic = _verdict_cell(row, ("b_diff", "b_lo", "b_hi", "b_holm"), ("helps", "hurts", "unclear"))
    changes = float(row["gap_holm"] or "nan") < 0.05
    return (f"{_effect_cell(row, 'strong')}; among `basic` {among_basic}"
            + ("; **the table changes the answer**" if changes else ""))


def _csv_rows(w) -> list[dict]:
    path = next((Path(f) for f in w.files if str(f).endswith(".csv")), None)
    if path is None or not path.is_file():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def _row(rows: list, level: str, players: int) -> dict | None:
    """The row of a level of play at a table size (the beginner's: the strong level's row, whose beginner
    arms played the same deals)."""
    wanted = "strong" if level == "beginner" else level
    found = [r for r in rows if r.get("level") == wanted and r.get("players") == str(players)]
    if not found:
        return None
    row = found[0]
    if level == "beginner":
        return {"diff": row["b_diff"], "lo": row["b_lo"], "hi": row["b_hi"], "half": row["b_half"],
                "holm": row["b_p_holm"], "strength": "", "strength_lo": "", "strength_hi": "", "strength_holm": ""}
    return {"diff": row["diff"], "lo": row["diff_lo"], "hi": row["diff_hi"], "half": row["diff_half"],
            "holm": row["diff_p_holm"], "strength": row["strength_diff"], "strength_lo": row["strength_lo"],
            "strength_hi": row["strength_hi"], "strength_holm": row["strength_p_holm"]}


def _interval(mean: str, lo: str, hi: str, holm: str) -> Interval | None:
    if not mean or not lo:
        return None
    return Interval(float(mean), float(lo), float(hi), (float(hi) - float(lo)) / 2, p_holm=float(holm or "nan"))


NOT_RUN = "not run yet"  # a cell its report's spec asks, missing from the committed full-size CSV (stale)


def _verdict_cell(row: dict | str | None, fields: tuple[str, str, str, str], words: tuple[str, str, str]) -> str:
    """A tips-table cell: the interval in `row`'s fields (mean, lo, hi, Holm p) and its verdict, words =
    (negative, positive, not significant)."""
    if row is None or row == NOT_RUN:
        return row or "not asked"
    x = _interval(*(row[name] for name in fields))
    if x is None:
        return "n/a"
    verdict = (words[0] if x.mean < 0 else words[1]) if x.significant() else words[2]
    why = f" ({UNADJUSTED_ONLY})" if x.unadjusted_only() else ""
    return f"{format_interval(x, digits_for(x.half))} {verdict}{why}"


def _effect_cell(row: dict | str | None, level: str) -> str:
    return _verdict_cell(row, ("diff", "lo", "hi", "holm"), ("**helps**", "**hurts**", "unclear"))


def _strength_cell(row: dict | str | None) -> str:
    return _verdict_cell(row, ("strength", "strength_lo", "strength_hi", "strength_holm"),
                         ("stronger", "**weaker**", "even"))


# Reports whose runs are too long for every CI check (minutes of optimisation), each regenerated by
# the command its page gives.
OTHER_REPORTS = (
    "- [Tuned presets](tuned.md): how much better than basic can a simple policy play, and which decisions "
    "matter most? The `weighted` move scorer and the `heuristic` rules tuned by `idiotsim optimize` "
    "against basic for 2 to 5 players, validated on held-out deals (Holm-adjusted 95% CIs); regenerated by the commands on its page.",
    "- [The learned player](learned.md): how close to the search can a player at engine speed get? The `learned` "
    "presets, trained by `idiotsim learn` on the search's value of every legal move (three expert iterations), "
    "their held-out strength at 2 to 5 players against basic and tuned-Np, speed, and the frontier against the "
    "search; regenerated by the commands on its page.",
    "- [The search against OpenSpiel's ISMCTS](search_vs_ismcts.md): is the project's search stronger than "
    "OpenSpiel's information-set MCTS at the same time per decision, and by how much? Both rotated over the "
    "seats of 500 deals with basic elsewhere, paired with basic in the same seat; made by "
    "`benchmarks/search_vs_ismcts.py` (an hour of Python-speed play).",
)


SPEC_HELP = """
A spec is a TOML file; unknown or missing fields are errors naming the field and the file.

| field | designs | meaning |
|---|---|---|
| `title` | all | title of the report (default: the file name) |
| `question` | all | the question in words (required) |
| `design` | all | `paired` (default), `ladder` (the paired design read as a ranking: `control` is the yardstick player, each variant's `treatment` a player taking its seat among `opponents`; the first sentence says who beats the yardstick and who finishes behind it), `strong` (a paired contrast beside its beginner contrast on the same deals), `experts` (the strong design's arms and numbers, its two contrasts one strong player's at two tables: among `opponents`, a table of strong players, and among the `[beginner]` opponents, whose `treatment` and `control` are the same player's, on the same deals), `seats`, `tournament`, `disagreement` or `chart` (the strategy chart: every cell a constrained strong player, `idiotsim/experiments/chart_design.py`) |
| `players` | all | players at the table (required) |
| `games` | all | games per setting (required; rounded up to whole deals: 2 x players games a deal for `paired`, 4 x players for `strong` and `experts` (5 x players with a `reference`), players games a deal for `seats`; tournament: rounded up to whole blocks; disagreement: games of basic self-play; chart: each arm's games, players games a deal) |
| `check_games` | any | a report too large for the suite: CI regenerates it at this many games a setting (a tournament or disagreement spec: in all) and compares it with the committed `check/NAME.*`, which `idiotsim report` writes beside the full-size report |
| `seed` | all | run seed (required) |
| `[rules]` | all | docs/rules.md fields (`low_rank`, `lowest_starts`, `decks`, ...), canonical when absent |
| `notes` | all | a paragraph shown under the answer |
| `treatment`, `control` | paired, ladder, strong, experts | strategy specs with knobs and constraints, e.g. `heuristic:swap=2`, `learned-search-4p+up=10` (required); `{players}` in a spec is the setting's player count (`heuristic-tuned-{players}p`) |
| `treatment_label`, `control_label` | paired, ladder, strong, experts | words for the answer sentence (the treatment's a gerund: "Laying 10s face-up", "keeping them in hand") |
| `advice`, `advice_against` | paired, ladder, strong, experts | the treatment and the control as advice ("Put your 10s face-up", "Keep your 10s in hand"): the report's first, plain sentence leads with the one its settled answer supports |
| `opponents` | paired, ladder, strong, experts | list of strategy specs filling the other seats, cycling (required) |
| `streams` | paired, ladder, strong, experts | `shared` (default: both arms draw the same random numbers) or `independent` |
| `[[fields]]` | paired, ladder, strong, experts | tables with `label`, `opponents`, optional `games` (a setting's games in the field; a variant's own `games` caps them) and `share` (that part of a setting's games, 0..1): every setting is played against each field's opponents (in place of `opponents`); the fields are the plot's series |
| `[beginner]` | strong, experts | the basic-level contrast played on the same deals: `treatment`, `control` (required; a knob sweep sets the knob in `treatment` too), `opponents` (default `["basic"]`), `label`, `report` (the name of the basic-level report, for the tips table) |
| `reference` | strong, experts | a strategy (`basic`) played in the focal seat among the strong arms' opponents on the same deals: each strong arm's strength is its mean place minus the reference's, and a control weaker than it is named in the report's first sentence |
| `strategy` | seats, disagreement, chart | the strategy in every seat (required); disagreement: the search player (a `search` spec; `swap=1` searches the swap too) judged against basic on positions of basic self-play; chart: the strong player every cell is asked of (`learned-search-{players}p`) |
| `rows` | chart | the face-up rows the chart ranks, e.g. `["10-10-Q", "2-10-A", "K-K-A"]` (required) |
| `judge` | disagreement | sampled states on which both moves of each disagreement are played to value it (required, 2..100000) |
| `strategies` | tournament | list of strategy specs, or `"all"` for every shipped strategy and preset that plays at engine speed (not the search players) |
| `[sweep]` | paired, ladder, strong, experts, seats | `knob = NAME` (a knob of the treatment / strategy) or `rule = NAME`, with `values = [...]`; optional `[sweep.series]` (`knob` or `rule`, `values`) for a second dimension drawn as separate lines; or `[[sweep.variants]]` tables with `label` and optional `rules = {...}` (players allowed here), `knobs = {...}` (treatment knobs) and `opponents` (paired) or `strategy` (seats); paired and strong variants may also give their own `treatment`, `control`, `games`, `fields` (the labels of the [[fields]] they are played in) and, strong only, `level` (`fast`, `strong` or `search`: the tips tables' columns; `strong` by default) |
"""
