"""The chart's page: chart.md (the chart a player memorises, then every cell it rests on), chart.csv, its
one-line answers and the main figures the index shows."""
from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np

from idiotsim.analysis.stats import UNADJUSTED_ONLY, Interval, decimals_for, format_p
from idiotsim.experiments.chart_analysis import ChartRules, beats, chart_rules, chart_share, costs, split_shares
from idiotsim.experiments.chart_cells import (BURN_SIZES, CHART_DEALS, CHART_FIRST_DEAL, CHART_SECTIONS, COPIES,
                                              COUNTING, COUNTING_REPORT, ORDER_DEALS, ORDER_RULES, OTHER_DEALS,
                                              OTHER_SIZES, PICKUP_RANKS, PICKUP_SIZES, SPLIT_DEALS, SPLIT_FIRST_DEAL, Cell,
                                              chart_rule_words, heldout_seed, pile_words, size_range, strong_spec)
from idiotsim.experiments.chart_play import PlayedChart, games_in_all
from idiotsim.experiments.chart_seats import SWAP_FIRST_DEAL
from idiotsim.experiments.design import CellTable
from idiotsim.experiments.report_markdown import opening, source_lines
from idiotsim.experiments.strategy_text import at_players
from idiotsim.experiments.strong_levels import read_levels
from idiotsim.experiments.text import (csv_value, fitting, format_number, format_percent, rules_text,
                                      unadjusted_note)


def difference_text(x: Interval, least: int = 3) -> str:
    """`+0.012 (-0.003 to +0.027)`, the digit rule; `n/a` where there was nothing to compare."""
    if math.isnan(x.mean):
        return "n/a"
    if x.mean == 0 and x.lo == 0 and x.hi == 0:
        return "0 (the same games)"
    if math.isnan(x.lo):
        return format_number(x.mean, least, True) + " (too few to judge)"
    d = decimals_for(x.lo, x.hi, least)
    return f"{_signed(x.mean, d)} ({_signed(x.lo, d)} to {_signed(x.hi, d)})"


def _signed(v: float, digits: int) -> str:
    """A signed number, but a bare 0.000 where it rounds to zero (never "+0.000" or "-0.000")."""
    text = format_number(v, digits, True)
    return text.lstrip("+-") if text.lstrip("+-") == "0." + "0" * digits else text


def _mark(x: Interval) -> str:
    return "better" if beats(x) else ("worse" if costs(x) else "no significant difference" + _why(x))


def _why(x: Interval) -> str:
    """Why a cell whose 95% CI excludes 0 is not called ("" for any other)."""
    return f" ({UNADJUSTED_ONLY})" if x.unadjusted_only() else ""


def find_cell(rows: list, section: str, key: str):
    for c, x, seats, differs in rows:
        if c.section == section and c.key == key:
            return x, seats, differs
    raise KeyError((section, key))


def percent_text(x: Interval) -> str:
    """A share and its interval in whole percent, or with the decimals a bound that is not 0 needs (the digit
    rule); n/a where the strong player's gain is not settled."""
    if any(math.isnan(v) for v in (x.mean, x.lo, x.hi)):
        return "n/a"
    d = decimals_for(100 * x.lo, 100 * x.hi, 0)

    def pct(v):
        text = f"{100 * v:.{d}f}%"
        return text.lstrip("-") if float(text[:-1]) == 0 else text
    return f"{pct(x.mean)} ({pct(x.lo)} to {pct(x.hi)})"


def _rank_word(name: str) -> str:
    return {"A": "an A", "J": "a J", "Q": "a Q", "K": "a K", "8": "an 8"}.get(name, f"a {name}")


def _low_pairs(rows_on_chart) -> list[str]:
    """The pairs that a chart's rows lay beside a 10 ("3" for 3-3-10), in the list's order."""
    return [r.split("-")[0] for r in rows_on_chart if r.endswith("-10") and r.split("-")[0] == r.split("-")[1]]


def rules_lines(rows: list, rules: ChartRules) -> list[str]:
    """The chart itself: what a player memorises, one numbered line a section."""
    listed = ", ".join(rules.rows)
    keep = " and ".join(f"{r}s" for r in rules.keep)
    swap = (f"Lay face-up the first of these rows your six cards can make, best first: {listed}. Otherwise"
            if rules.rows else "Lay face-up")
    if "triples" in rules.grown:
        swap += " three of a kind if you hold one (the lowest); otherwise"
    if "pairs" in rules.grown:
        swap += (f" your highest pair (3s up to {rules.pairs_to}s) with your best other card (10 before 2 before A, K, "
                 "...); otherwise")
    swap += " your three best cards, 10 before 2 before A, K, Q, ... down to 3"
    swap += f", but keep your {keep} in hand (face-up only if the hand has no room)." if keep else "."
    pairs = _low_pairs(rules.rows)
    if len(pairs) >= 3:
        swap += (f" In short: a pair face-up, best a pair of {pairs[0]}s to {pairs[-1]}s beside a 10, and the high "
                 "cards in hand.")
    play = "The lowest card you may play, with every copy of it"
    if rules.two_from:
        play += (f"; but when that is {_rank_word(rules.two_from)}"
                 + ("" if rules.two_from == "A" else " or higher") + ", a 2 instead if you hold one")
    if rules.stop:
        play += ("; when the next player has only face-up cards left, the lowest card none of them can beat, if "
                 "you hold one")
    play += "; otherwise 2s, and a 10 last"
    play += (f", but pick up a pile of 1 to {rules.save_specials} cards rather than spend a 2 or a 10 on it."
             if rules.save_specials else ".")
    single = [f"{r}s" for r in rules.singly if (r == "10" and "tens-singly" in rules.grown)
              or (r != "10" and "high-singly" in rules.grown)]
    one = ""
    if single or "twos-singly" in rules.grown:
        one = (f"Play {' and '.join([', '.join(single[:-1]), single[-1]] if len(single) > 1 else single)} one card at "
               "a time" if single else "Play")
        if "high-singly" in rules.grown:
            one += " (Ks and As all together when they make four of a kind on the pile)"
        if "twos-singly" in rules.grown:
            one += (", and 2s one at a time while the talon lasts." if single else
                    " 2s one at a time while the talon lasts.")
        else:
            one += "."
    pickup = (f"Pick up a pile of 1 to {rules.pickup[0]} cards by choice when every card in it is "
              f"{rules.pickup[1]} or higher, or a 2 (while you play from your hand)." if rules.pickup else
              "Never pick up the pile by choice.")
    burn = (f"Burn with a 10 as soon as the pile holds {rules.burn} cards or more." if rules.burn else
            "Save your 10s: play one only when nothing else may be played.")
    copies = (f"While the talon lasts, play at most {rules.copies} card{'s' if rules.copies > 1 else ''} at a time."
              if rules.copies else "Play every copy of any other rank you play, talon or not.")
    specials, _, _ = find_cell(rows, "counting-diff", "specials-none")
    counting = (f"Remembering the burned 2s and 10s is worth {difference_text(specials)} places a game to a learned "
                f"player ({_mark(specials)}); what remembering every card that left play is worth at each level "
                f"of play: {COUNTING_REPORT}.md. The chart player does not count.")
    sections = [("The swap", swap), ("Playing", play), ("One at a time", one), ("Picking up", pickup),
                ("Burning", burn), ("Copies", copies), ("Counting", counting)]
    return [f"{i}. **{name}.** {text}" for i, (name, text) in enumerate([t for t in sections if t[1]], 1)]


def chart_answer(played: PlayedChart, rows: list, rules: ChartRules) -> str:
    chart, _, _ = find_cell(rows, "chart", "chart")
    strong, _, _ = find_cell(rows, "chart", "strong")
    share = chart_share(played)
    n = played.spec.players
    lead = ("A player who follows this page finishes " +
            ("better than" if beats(chart) else "worse than" if costs(chart) else "no better than") +
            f" a beginner (`basic`) at {n} players: {difference_text(chart)} in mean place a game{_why(chart)}")
    parts = [f"lay face-up the first of {len(rules.rows)} listed rows you can make" if rules.rows
             else "lay your best cards face-up"]
    if "pairs" in rules.grown:
        parts.append(("else three of a kind or " if "triples" in rules.grown else "else ") + "your highest pair")
    if rules.keep:
        parts.append("keep " + " and ".join(f"{r}s" for r in rules.keep) + " in hand")
    if rules.two_from:
        parts.append(f"play a 2 rather than {_rank_word(rules.two_from)}"
                     + ("" if rules.two_from == "A" else " or higher"))
    if rules.stop:
        parts.append("stop a next player who is down to face-up cards")
    if rules.save_specials:
        parts.append(f"pick up a pile of 1 to {rules.save_specials} cards rather than spend a 2 or a 10 on it")
    if "high-singly" in rules.grown or "tens-singly" in rules.grown:
        parts.append("play " + ", ".join(f"{r}s" for r in rules.singly) + " one at a time"
                     + (" (2s too while the talon lasts)" if "twos-singly" in rules.grown else ""))
    parts.append(f"pick up piles of 1 to {rules.pickup[0]} cards of {rules.pickup[1]} or higher and 2s"
                 if rules.pickup else "never pick up by choice")
    parts.append(f"burn with a 10 from {rules.burn} cards on" if rules.burn else "save your 10s")
    parts.append(f"play at most {rules.copies} card{'s' if rules.copies > 1 else ''} at a time while the talon "
                 "lasts" if rules.copies else "play every copy")
    return (f"{lead} on held-out deals, {percent_text(share)} of what the strong player gains "
            f"({difference_text(strong)}); its rules: {'; '.join(parts)}.")


def chart_plain(played: PlayedChart, rows: list, rules: ChartRules) -> str:
    """The page's first sentence: what memorising it is worth, in words a player reads in five seconds."""
    chart, _, _ = find_cell(rows, "chart", "chart")
    strong, _, _ = find_cell(rows, "chart", "strong")
    share = chart_share(played)
    if not beats(chart):
        return ("Memorising this chart gains nothing measurable over a beginner's play (`basic`); the strong "
                f"player gains {abs(strong.mean):.2f} places a game.")
    pct = "" if math.isnan(share.mean) else f", about {100 * share.mean:.0f}% of what the strong player gains"
    rule = ("a 2 rather than " + ("an A" if rules.two_from == "A" else f"a {rules.two_from} or higher")
            if rules.two_from else None)
    pairs = _low_pairs(rules.rows)
    row = ("a pair face-up, best a low pair beside a 10" if len(pairs) >= 3 and "pairs" in rules.grown else
           "a low pair and a 10 face-up" if len(pairs) >= 3 else
           f"the best of {len(rules.rows)} face-up rows" if rules.rows else None)
    single = (", ".join(f"{r}s" for r in rules.singly) + " one at a time"
              if "high-singly" in rules.grown or "tens-singly" in rules.grown else None)
    tips = [t for t in (row, rule, single,
                        "never pick up by choice" if not rules.pickup else None,
                        "save your 10s" if not rules.burn else None) if t]
    worth = (f"Memorise this chart and you finish about {abs(chart.mean):.2f} places a game better than a beginner "
             f"(`basic`){pct}")
    return fitting([f"{worth}: {', '.join(tips)}.", f"{worth}. In short: {', '.join(tips)}."])


def chart_markdown(played: PlayedChart, rows: list, rules: ChartRules, answer: str, plot_name: str) -> str:
    spec = played.spec
    s = strong_spec(spec)
    lines = opening(spec.title, chart_plain(played, rows, rules), spec.question, answer)
    lines += ["## The chart", "", *rules_lines(rows, rules), "",
             "A measured rule (the listed rows, ranks kept in hand, the play order, pickups, burning, copies) is on "
             "the chart where it beats the beginner's rule at strong play with a Holm-adjusted p below 0.05 and does "
             "not cost the strong player measurably against its own choice; where no rule did, the chart keeps the "
             "beginner's rule. The rules grown from where the strong player's gain comes from (three of a kind, the "
             "highest pair, one at a time) were chosen on deals of their own, which no number on this page uses; "
             "what each is worth is measured on the held-out deals (The chart as a player). The sections below give "
             "every cell the page rests on.", "",
             f"Every cell is measured at strong play unless it says otherwise: the strong player is `{s}` (the "
             "learned player that searches its close turns), constrained to the rule (docs/strategies.md, "
             "\"Constraints\"), in every seat of a deal in turn with `basic` in the others. Each number is a paired "
             "difference in mean place on the same deals and random draws (negative: better), with its 95% CI "
             "clustered by deal; every p-value is Holm-adjusted over the page's "
             f"{sum(1 for _, x, _, _ in rows if not math.isnan(x.lo))} tests.{_uncalled_text(rows)}", ""]
    if spec.notes.strip():
        lines += [spec.notes.strip(), ""]
    lines += [f"![{spec.title}]({plot_name})", ""]
    lines += split_lines(played, rows)
    seed = heldout_seed(spec)
    lines += ["## The chart as a player", "",
              "`chart` (strategies/chart.py) plays the committed page and nothing else: its rows, pairs, play order, "
              "one card at a time, pickups, burning and copies as above, `basic`'s move everywhere else. On held-out "
              f"deals ({CHART_DEALS * played.deals:,} deals from {CHART_FIRST_DEAL:,} on, of seed {seed}: no rule was "
              "chosen on that seed and no other cell uses it), each against `basic` in the same seat:", "",
              "| player | against basic |", "|---|---|"]
    chart, _, _ = find_cell(rows, "chart", "chart")
    strong, _, _ = find_cell(rows, "chart", "strong")
    lines += [f"| `chart` | {difference_text(chart)} |", f"| `{s}` | {difference_text(strong)} |"]
    share = chart_share(played)
    lines += ["", f"The chart recovers {percent_text(share)} of the strong player's gain (the ratio of the two gains "
              "on the same deals, its 95% CI by the delta method over deals).", ""]
    lines += size_lines(played, rows)
    lines += [f"What each rule is worth to the chart player at {spec.players} players (the chart with that rule played "
              "as `basic` plays it, against the chart, on the held-out deals; positive: the rule helps; \"0 (the same "
              "games)\": the rule is `basic`'s own):", "", "| without | against the chart | verdict |", "|---|---|---|"]
    for section, (key, words, _) in ([("chart-rule", r) for r in chart_rule_words()]
                                     + [("chart-section", r) for r in CHART_SECTIONS]):
        x, _, _ = find_cell(rows, section, key)
        verdict = "helps" if costs(x) else ("hurts" if beats(x) else "no significant difference" + _why(x))
        name = f"**all of {words}**" if section == "chart-section" else words
        lines.append(f"| {name} | {difference_text(x)} | {verdict} |")
    lines += ["", "## The swap: which three cards lie face-up", "",
              "A row's number is the strong player laying exactly that row against it laying basic's row (the three "
              "best by 3 < 4 < ... < A < 2 < 10), on seats whose six cards hold exactly the row's ranks (so the row "
              "can be laid), the strong player playing on; and against the strong player's own swap. Bold rows "
              "beat basic's row (on the chart); the others are listed for the ranking. \"Same as basic\" is the "
              "share of those seats where basic's row is that row (there the two arms play the same game).", "",
              "| place | row | against basic's row | against the strong player's own row | seats | same as basic |",
              "|---|---|---|---|---|---|"]
    swap = sorted(((x.mean, c.key, x, seats) for c, x, seats, _ in rows if c.section == "swap"),
                  key=lambda t: (math.inf if math.isnan(t[0]) else t[0], t[1]))
    for place, (_, key, x, seats) in enumerate(swap, 1):
        own, _, _ = find_cell(rows, "swap-own", key)
        same = played.same_row[key]
        name = f"**{key}**" if key in rules.rows else key
        lines.append(f"| {place} | {name} | {difference_text(x)} | {difference_text(own)} | {seats:,} | "
                     f"{format_percent(float(np.mean(same)) if len(same) else math.nan, 0)} |")
    own, _, _ = find_cell(rows, "own-swap", "own")
    lines += ["", f"The strong player's own swap against basic's row, on every seat: {difference_text(own)}.", "",
              "Ranks to keep in hand: on seats where basic's row lays the rank face-up, the same row with that "
              "rank kept in hand instead (the next best card face-up), the strong player playing on:", "",
              "| rank | kept in hand, against basic's row | seats | verdict |", "|---|---|---|---|"]
    for c, x, seats, _ in rows:
        if c.section == "keep":
            verdict = "**keep in hand**" if c.key in rules.keep else _mark(x)
            lines.append(f"| {c.key} | {difference_text(x)} | {seats:,} | {verdict} |")
    lines += ["", "## The play order", "",
              "No constraint of the strong player's play order exists (it would leave the search little to "
              "choose), so these rules are measured on the beginner's play, as the chart player plays them: "
              f"`basic` with the one rule against `basic`, on deals of their own, {ORDER_DEALS} times as many as "
              "the strong player's cells (Size). A bold rule is on the chart.", "",
              "| rule | against basic | verdict |", "|---|---|---|"]
    for key, words, _ in ORDER_RULES:
        x, _, _ = find_cell(rows, "order", key)
        on = key in (rules.two_from, "stop" if rules.stop else None, f"save:{rules.save_specials}")
        lines.append(f"| {'**' + words + '**' if on else words} | {difference_text(x)} | "
                     f"{'**on the chart**' if on else _mark(x)} |")
    lines += ["", "## Voluntary pickups (R14)", "",
              "Picking up, in the hand phase, every pile of 1 to N cards whose cards are all 2s or of the rank "
              "given or higher, against never picking up by choice (the beginner's rule); below it (own), the same "
              "against the strong player's own choice. "
              + (f"On the chart: piles of 1 to {rules.pickup[0]} cards of {rules.pickup[1]} or higher."
                 if rules.pickup else "No pickup rule beats never picking up without costing the strong player: "
                 "never pick up by choice."), ""]
    never, _, _ = find_cell(rows, "pickup", "never")
    header = "| pile | " + " | ".join(f"{r} or higher" for r in PICKUP_RANKS) + " |"
    lines += [header, "|---|" + "---|" * len(PICKUP_RANKS)]
    for k in PICKUP_SIZES:
        cells = []
        for r in PICKUP_RANKS:
            x, _, _ = find_cell(rows, "pickup", f"{k}:{r}")
            y, _, _ = find_cell(rows, "pickup-own", f"{k}:{r}")
            text = f"{difference_text(x)}<br>own: {difference_text(y)}"
            cells.append(f"**{text}**" if rules.pickup == (k, r) else text)
        lines.append(f"| {pile_words(k)} | " + " | ".join(cells) + " |")
    lines += ["", f"Never picking up by choice against the strong player's own pickups: {difference_text(never)}.", ""]
    lines += ["## Burning with a 10", "",
              "A 10 as soon as the pile holds N cards (saved below), against saving 10s while another play is "
              "legal (the beginner's rule), and against the strong player's own choice. "
              + (f"On the chart: burn from {rules.burn} cards on." if rules.burn else
                 "No pile size beats saving the 10 without costing the strong player: save your 10s."), "",
              "| pile | against saving 10s | against the strong player's own |", "|---|---|---|"]
    for k in BURN_SIZES:
        x, _, _ = find_cell(rows, "burn", str(k))
        y, _, _ = find_cell(rows, "burn-own", str(k))
        lines.append(f"| from {k} card{'s' if k > 1 else ''} | {difference_text(x)} | {difference_text(y)} |")
    save, _, _ = find_cell(rows, "burn", "never")
    lines += ["", f"Saving 10s against the strong player's own choice: {difference_text(save)}.", "",
              "## Copies while the talon lasts", "",
              "At most N cards a play from the hand while the talon lasts, against the strong player's own choice "
              "of how many copies to play. " + (f"On the chart: at most {rules.copies}." if rules.copies else
                                                "Holding copies back does not pay: play every copy."), "",
              "| at most | against the strong player's own |", "|---|---|"]
    for k in COPIES:
        x, _, _ = find_cell(rows, "copies", str(k))
        lines.append(f"| {k} | {difference_text(x)} |")
    lines += ["", "## Counting", "", *counting_section(played, rows), "", "## Size", "", _size_text(played), "",
              *source_lines(spec, played.reduced)]
    return "\n".join(lines)


def counting_section(played: PlayedChart, rows: list) -> list[str]:
    """The Counting section's lines: what counting is worth at each level, quoted from COUNTING_REPORT's
    committed CSV beside this page's spec (one home per number: this page does not measure it again), then the
    page's own cells, the burned 2s and 10s alone against no memory."""
    spec = played.spec
    report = f"[{COUNTING_REPORT}]({COUNTING_REPORT}.md)"
    levels = [x for x in read_levels(Path(spec.path).parent / f"{COUNTING_REPORT}.csv")
              if x.players == spec.players and x.effect is not None]
    lines = ["Not counting means one thing at every level: knowing everything in sight now (the hand, every "
             "face-up card, the pile's top run, every size) and nothing of the cards that have left play (burned, "
             f"buried in the pile, picked up in sight). What counting is worth has one home, {report}: each level's "
             "counting player against the strongest player of its recipe that does not count, every control "
             "stronger than `basic`."]
    if levels:
        lines += ["", f"Its numbers at {spec.players} players, among `basic` opponents (mean place, counting minus not "
                  f"counting; 95% CIs and Holm p over that report's tests):", "",
                  "| level | counting's worth | Holm p | the control against basic | deals |", "|---|---|---|---|---|"]
        for x in levels:
            control = difference_text(x.strength) if x.strength is not None else "n/a"
            lines.append(f"| {x.setting} | {difference_text(x.effect)} | {format_p(x.effect.p_holm)} | {control} | "
                         f"{x.deals:,} |")
        first = levels[0]
        lines.append(f"| beginner (`counter` against basic's play) | {difference_text(first.beginner)} | "
                     f"{format_p(first.beginner.p_holm)} | 0 (it is `basic`) | {first.deals:,} |")
    else:
        lines += ["", f"({COUNTING_REPORT}.csv holds no {spec.players}-player row beside this spec: see {report}.)"]
    lines += ["", "The chart player does not count. What this page measures itself is the cheapest memory a chart "
              "could ask for, the burned 2s and 10s alone, on the learned players (`learned-fast-*`, 24 hidden "
              "units): two models of one recipe, neither a model with inputs zeroed: no memory (trained in its own "
              "run, without the memory inputs) and only the burned 2s and 10s remembered (fitted on the no-memory "
              "run's positions with those inputs), each against `basic` in the same seat, so the control's "
              "strength is in the table.", "", "| memory | against basic |", "|---|---|"]
    for name, model in COUNTING:
        x, _, _ = find_cell(rows, "counting", name)
        lines.append(f"| {name} (`{at_players(model, spec.players)}`) | {difference_text(x)} |")
    specials, _, _ = find_cell(rows, "counting-diff", "specials-none")
    lines += ["", f"The burned 2s and 10s alone, against no memory: {difference_text(specials)}."]
    return lines


def size_lines(played: PlayedChart, rows: list) -> list[str]:
    """The chart's worth at the other table sizes (the same page; the strong player of each size)."""
    spec = played.spec
    deals = len(played.seats[size_range(OTHER_SIZES[0])]) // OTHER_SIZES[0] if OTHER_SIZES else 0
    lines = [f"At the other table sizes the same page (chosen at {spec.players} players) is worth, on held-out "
             f"deals of the same seed ({deals:,} deals from {CHART_FIRST_DEAL:,} on at each size), each against "
             "`basic` in the same seat:", "",
             "| players | `chart` | the strong player | the chart's share of its gain |", "|---|---|---|---|"]
    for k in OTHER_SIZES:
        chart, _, _ = find_cell(rows, "size", f"{k}:chart")
        strong, _, _ = find_cell(rows, "size", f"{k}:strong")
        lines.append(f"| {k} | {difference_text(chart)} | {difference_text(strong)} (`"
                     f"{at_players(spec.strategy, k)}`) | {percent_text(chart_share(played, k))} |")
    return lines + [""]


def split_lines(played: PlayedChart, rows: list) -> list[str]:
    """The section "Where the strong player's gain comes from": a table, largest share first, and its plot."""
    spec = played.spec
    s = strong_spec(spec)
    total, _, _ = find_cell(rows, "split-total", "strong")
    lines = ["## Where the strong player's gain comes from", "",
             f"The strong player (`{s}`) against itself playing `basic`'s move in one kind of decision only "
             "(`strong-split`, strategies/search/split.py), on the same deals and random draws: what it loses is "
             "that kind's share of its gain over `basic` "
             f"({difference_text(total)} places a game on these deals). Largest first, so what to learn first is "
             "on top; kinds overlap (a play on a high pile may also be a play once the talon is gone), so the "
             "shares do not add up. The blind flip is `basic`'s for both and has no share.", "",
             "| the strong player plays basic's move in | it loses (places a game) | share of its gain | verdict |",
             "|---|---|---|---|"]
    for c, x, share in split_shares(played, rows):
        lines.append(f"| {c.name} | {difference_text(x)} | {percent_text(share)} | {_mark_loss(x)} |")
    lines += ["", f"![Where the strong player's gain comes from]({spec.name}{SOURCES_PLOT})", ""]
    return lines


SOURCES_PLOT = "_sources.png"  # the split's plot, beside NAME.png


def _mark_loss(x: Interval) -> str:
    return "it loses" if costs(x) else ("it gains" if beats(x) else "no significant difference" + _why(x))


def _uncalled_text(rows: list) -> str:
    """How many cells' unadjusted 95% CIs exclude 0 without the cell being called ("" when none does)."""
    uncalled = sum(1 for _, x, _, _ in rows if x.unadjusted_only())
    if not uncalled:
        return ""
    return (f" The intervals are not adjusted for those tests: {uncalled} of them exclude 0 and yet are not called "
            "(their Holm-adjusted p-value is 0.05 or more), so a cell is better or worse only where its Holm p is "
            "below 0.05.")


def _size_text(played: PlayedChart) -> str:
    spec = played.spec
    seats = [len(v) for k, v in played.seats.items() if k.startswith(("row ", "keep "))]
    deals = [len(np.unique(v.deal)) for k, v in played.seats.items() if k.startswith(("row ", "keep "))]
    caveat = (" (`--quick` check size: not the shipped numbers)" if played.quick else "") + \
             (" (the reduced size CI checks: not the shipped numbers)" if played.reduced else "")
    span = f"{min(seats):,}" if min(seats) == max(seats) else f"{min(seats):,} to {max(seats):,}"
    return (f"{played.deals:,} deals, each at every seat, for the pickup, burning, copies and counting cells "
            f"({played.deals * spec.players:,} games an arm); {CHART_DEALS * played.deals:,} held-out deals for the "
            f"chart player (seed {heldout_seed(spec)}), and {int(OTHER_DEALS * played.deals):,} at each other table "
            f"size; {SPLIT_DEALS * played.deals:,} deals from {SPLIT_FIRST_DEAL:,} "
            "on for where the strong player's gain comes from; "
            f"{ORDER_DEALS * played.deals:,} deals, each at every seat, for the play order (played at engine speed: "
            f"{ORDER_DEALS * played.deals * spec.players:,} games an arm); {span} seats (from {min(deals):,} to "
            f"{max(deals):,} deals) for each face-up row and rank kept in hand (the first seats of deals from "
            f"{SWAP_FIRST_DEAL:,} on that hold it, every arm of a row on the same seats); "
            f"{games_in_all(played):,} games in all{caveat}. Rules: {rules_text(spec.points[0].rules) or 'canonical'}; "
            f"seed {spec.seed}.")


CSV_COLUMNS = ("section", "cell", "key", "arm", "reference", "seats", "differs", "mean", "lo", "hi", "p", "p_holm",
               "on_chart", "games_in_all")


def _on_chart(cell: Cell, rules: ChartRules) -> bool:
    return ((cell.section == "swap" and cell.key in rules.rows) or (cell.section == "keep" and cell.key in rules.keep)
            or (cell.section == "pickup" and rules.pickup is not None and cell.key == f"{rules.pickup[0]}:"
                f"{rules.pickup[1]}") or (cell.section == "burn" and cell.key == str(rules.burn))
            or (cell.section == "copies" and cell.key == str(rules.copies))
            or (cell.section == "order" and cell.key in (rules.two_from, "stop" if rules.stop else None,
                                                         f"save:{rules.save_specials}"))
            or (cell.section == "chart-rule" and cell.key in rules.grown))


def chart_csv(played: PlayedChart, rows: list, games: int) -> str:
    rules = chart_rules(rows, played.spec)
    buffer = io.StringIO()
    w = csv.writer(buffer, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for c, x, seats, differs in rows:
        w.writerow([csv_value(v) for v in (c.section, c.name, c.key, c.arm, c.reference, seats, differs, x.mean, x.lo,
                                           x.hi, x.p, x.p_holm, _on_chart(c, rules), games)])
    return buffer.getvalue()


def chart_main_figures(rows: list) -> CellTable:
    shown = [(c, x) for c, x, _, _ in rows if c.section in ("chart", "counting-diff", "own-swap", "split-total")]
    cells = [[c.section, c.name, difference_text(x), format_p(x.p_holm)] for c, x in shown]
    tests = sum(1 for _, x, _, _ in rows if not math.isnan(x.lo))
    return CellTable("The chart player, the strong player and counting (mean place against the reference; "
                     "negative: better)", [("section", "left"), ("cell", "left"), ("effect (95% CI)", "right"),
                                           ("Holm p", "right")], cells,
                     note=unadjusted_note([(c.name, x) for c, x in shown], tests))
