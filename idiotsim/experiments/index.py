"""The index of the reports (``reports/README.md``) and the spec format it documents."""
from __future__ import annotations

from idiotsim.experiments.play import MIN_DIFFERING_DEALS
from idiotsim.experiments.report import MULTIPLICITY_RULE, STALL_RULE


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
             MULTIPLICITY_RULE, "", STALL_RULE, "",
             "Sequential mode (`--precision H`) stops at the first look where every setting's 95% half-width is at "
             f"most H and at least {MIN_DIFFERING_DEALS} deals have a non-zero difference; the rule looks at the "
             "spread only, so the 95% intervals at stopping keep their coverage.", "",
             "CI regenerates every report at full size and fails on any difference from the committed files "
             "(`idiotsim report --all --check`, run by `python3 dev.py test`).", "",
             "| report | question | answer | games |", "|---|---|---|---|"]
    for w in written:
        q = w.spec.question.strip().replace("|", "\\|").replace("\n", " ")
        a = w.answer.replace("|", "\\|")
        lines.append(f"| [{w.spec.title}]({w.spec.name}.md) | {q} | {a} | {w.games:,} |")
    lines += ["", "## Spec format", "", SPEC_HELP.strip(), ""]
    return "\n".join(lines)


SPEC_HELP = """
A spec is a TOML file; unknown or missing fields are errors naming the field and the file.

| field | designs | meaning |
|---|---|---|
| `title` | all | title of the report (default: the file name) |
| `question` | all | the question in words (required) |
| `design` | all | `paired` (default), `seats` or `tournament` |
| `players` | all | players at the table (required) |
| `games` | all | games per setting (required; rounded up to whole deals: 2 x players games a deal for `paired`, players games a deal for `seats`; tournament: rounded up to whole blocks) |
| `seed` | all | run seed (required) |
| `[rules]` | all | docs/rules.md fields (`low_rank`, `lowest_starts`, `decks`, ...), canonical when absent |
| `notes` | all | a paragraph shown under the answer |
| `treatment`, `control` | paired | strategy specs with knobs, e.g. `heuristic:swap=2` (required) |
| `treatment_label`, `control_label` | paired | words for the answer sentence |
| `opponents` | paired | list of strategy specs filling the other seats, cycling (required) |
| `streams` | paired | `shared` (default: both arms draw the same random numbers) or `independent` |
| `strategy` | seats | the strategy in every seat (required) |
| `strategies` | tournament | list of strategy specs, or `"all"` for every shipped strategy and preset that plays at engine speed (not the search players) |
| `[sweep]` | paired, seats | `knob = NAME` (a knob of the treatment / strategy) or `rule = NAME`, with `values = [...]`; optional `[sweep.series]` (`knob` or `rule`, `values`) for a second dimension drawn as separate lines; or `[[sweep.variants]]` tables with `label` and optional `rules = {...}` (players allowed here), `knobs = {...}` (treatment knobs) and `opponents` (paired) or `strategy` (seats) |
"""
