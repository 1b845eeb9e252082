"""How numbers, settings and Markdown blocks are written in the reports (Markdown and CSV)."""
from __future__ import annotations

import math
import re
import textwrap

from idiotsim.experiments.spec_points import Point
from idiotsim.game.rules import Rules
from idiotsim.analysis.stats import UNADJUSTED_ONLY, Interval, decimals_for, p_clause


def format_number(x: float, digits: int = 3, sign: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if isinstance(x, float) and math.isinf(x):
        return "inf"
    out = f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
    zero = "0." + "0" * digits
    if out.lstrip("+-") == zero:  # no "-0.000"
        out = ("+" if sign else "") + zero
    return out


def format_percent(x: float, digits: int = 2) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:.{digits}f}%"


def format_points(x: float, digits: int = 2, sign=True) -> str:
    """A rate difference in percentage points."""
    return "n/a" if math.isnan(x) else format_number(100 * x, digits, sign)


def format_ratio(x: float) -> str:
    if math.isinf(x):
        return "exact (zero paired variance)"
    return "n/a" if math.isnan(x) else f"{x:.1f}x"


def format_interval(estimate, digits: int) -> str:
    """`+0.012 (-0.003 to +0.027)`: a signed estimate with its interval, with more decimals where a bound
    that excludes 0 would print as 0."""
    d = decimals_for(estimate.lo, estimate.hi, digits)
    return (f"{format_number(estimate.mean, d, True)} ({format_number(estimate.lo, d, True)} to "
            f"{format_number(estimate.hi, d, True)})")


def format_points_interval(estimate) -> str:
    """A rate difference and its interval in percentage points."""
    d = decimals_for(100 * estimate.lo, 100 * estimate.hi, 2)
    return (f"{format_points(estimate.mean, d)} ({format_points(estimate.lo, d)} to "
            f"{format_points(estimate.hi, d)})")


def ci_text(estimate, digits: int, scale: float = 1) -> str:
    """`+0.012 (95% CI -0.003 to +0.027, Holm p = 0.1234)`, signed, on `scale` (100: points); where the CI
    excludes 0 but the Holm-adjusted p-value does not settle the sign, it says so (``UNADJUSTED_ONLY``)."""
    d = decimals_for(scale * estimate.lo, scale * estimate.hi, digits)
    why = f"; {UNADJUSTED_ONLY}" if estimate.unadjusted_only() else ""
    return (f"{format_number(scale * estimate.mean, d, True)} (95% CI {format_number(scale * estimate.lo, d, True)} "
            f"to {format_number(scale * estimate.hi, d, True)}, {p_clause('Holm', estimate.p_holm)}{why})")


def unadjusted_note(cases: list, tests: int) -> str:
    """The line under a table of unadjusted 95% CIs whose verdicts are Holm-adjusted, naming each interval
    (`cases`: [(label, Interval or None)]) that excludes 0 without being called; "" when there is none."""
    uncalled = [(label, x) for label, x in cases if x is not None and x.unadjusted_only()]
    if not uncalled:
        return ""
    listed = "; ".join(f"{label} ({p_clause('Holm', x.p_holm)})" for label, x in uncalled)
    return (f"Not called although its 95% CI excludes 0: {listed}. The 95% CIs are not adjusted for the report's "
            f"{tests} tests; an effect is called only where its Holm-adjusted p-value over them is below 0.05.")


def setting_case(label: str, what: str) -> str:
    """An interval's name in ``unadjusted_note``: `the mean place at players=4`, or `the mean place` for a lone
    setting."""
    return f"the {what} at {label}" if label else f"the {what}"


def estimate_cells(name: str, estimate) -> dict:
    """CSV cells of an estimate: NAME, NAME_lo, NAME_hi."""
    return {name: estimate.mean, f"{name}_lo": estimate.lo, f"{name}_hi": estimate.hi}


def length_text(estimate) -> str:
    d = decimals_for(estimate.lo, estimate.hi, 2)
    return f"{format_number(estimate.mean, d)} ({format_number(estimate.lo, d)} to {format_number(estimate.hi, d)})"


def length_pair_text(a, b) -> str:
    return f"{length_text(a)} / {length_text(b)}"


def stall_text(estimate) -> str:
    d = decimals_for(100 * estimate.lo, 100 * estimate.hi, 4)
    return f"{format_percent(estimate.mean, d)} ({format_percent(estimate.lo, d)} to {format_percent(estimate.hi, d)})"


def stall_pair_text(a, b) -> str:
    return f"{stall_text(a)} / {stall_text(b)}"


def place_scale_words(spec) -> str:
    """Across player counts a place means something else: say on which scale effects are given."""
    counts = {p.players for p in spec.points}
    return " (the 1..n place scale grows with the player count)" if len(counts) > 1 else ""


def digits_for(half_width: float) -> int:
    """Decimals of a mean-place difference: one more when the interval is narrow."""
    return 4 if not math.isnan(half_width) and half_width < 0.002 else 3


def csv_value(v) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        if math.isinf(v):
            return "inf"
        return f"{v:.6f}" if abs(v) >= 1e-4 or v == 0 else f"{v:.6e}"
    return str(v)


def interval_cells(name: str, estimate, half: bool = False) -> dict:
    """CSV cells of a difference: NAME (`diff`) or NAME_diff, NAME_lo, NAME_hi[, NAME_half], NAME_p."""
    mean_name = name if name == "diff" else f"{name}_diff"
    cells = {mean_name: estimate.mean, f"{name}_lo": estimate.lo, f"{name}_hi": estimate.hi}
    if half:
        cells[f"{name}_half"] = estimate.half
    return {**cells, f"{name}_p": estimate.p}


def rules_text(rules: Rules, exclude=()) -> str:
    """The rules that differ from canonical, e.g. `low_rank=7, decks=2`."""
    default = Rules(players=rules.players)
    changed = []
    for k, v in rules.as_dict().items():
        if k in exclude or v == getattr(default, k):
            continue
        changed.append(f"{k}={str(v).lower() if isinstance(v, bool) else v}")
    return ", ".join(changed) if changed else "canonical rules"


def game_text(point: Point) -> str:
    extra = rules_text(point.rules, exclude=("players",))
    return f"{point.players}-player games" + (f" ({extra})" if extra != "canonical rules" else "")


def opponents_text(opponents) -> str:
    names = list(dict.fromkeys(opponents))
    return f"{names[0]} opponents" if len(names) == 1 else "opponents " + ", ".join(opponents)


def short_label(label: str) -> str:
    """`players=3` as `3 players`; other labels as they are."""
    m = re.fullmatch(r"players=(\d+)(.*)", label)
    return f"{m.group(1)} players{m.group(2)}" if m else label


def capitalised(title: str) -> str:
    return title[:1].upper() + title[1:]


# ---- plain sentences (a report's first line: what a player reads in five seconds) --------------------------------

PLACES = " places a game"


def about(x: float) -> str:
    """|x| for a plain sentence: two decimals, more where two print as 0 (never "0.00")."""
    decimals = 2
    while round(abs(x), decimals) == 0 and decimals < 6:
        decimals += 1
    return f"{abs(x):.{decimals}f}"


def verb_of(x: Interval) -> str:
    """'gains', 'costs' (a settled sign: negative mean place is better) or '' (not settled)."""
    if not x.significant():
        return ""
    return "gains" if x.mean < 0 else "costs"


def _and(items: list) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def settings_words(labels: list, total: int, counted: bool = False) -> str:
    """'2, 3 and 5 players', 'burn_min=1 and burn_min=4', '12 of 16 settings', 'all 16 settings' (`counted`:
    a count for more than one setting that is not a player count)."""
    if not labels or labels == [""]:
        return ""
    counts = [re.fullmatch(r"(\d+) players", short_label(label)) for label in labels]
    if all(counts):
        return _and([m.group(1) for m in counts]) + " players"
    if len(labels) > 4 or (counted and len(labels) > 1):
        return f"all {total} settings" if len(labels) == total else f"{len(labels)} of {total} settings"
    return _and([short_label(label) for label in labels])


def _amount(members: list, terse: bool) -> str:
    """'0.05, 0.08 and 0.13', or their range where there are more than three (`terse`: more than one, and one
    figure where the range's ends print alike)."""
    values = [about(x.mean) for _, x in members]
    if len(values) > 3 or (terse and len(values) > 1):
        ordered = sorted(members, key=lambda m: abs(m[1].mean))
        low, high = about(ordered[0][1].mean), about(ordered[-1][1].mean)
        return low if low == high and terse else f"{low} to {high}"
    return _and(values)


def effects_text(effects: list, unit: str = PLACES, terse: int = 0) -> str:
    """What a contrast does at each setting, grouped by its settled sign: `effects` is [(setting label,
    Interval)] -> 'gains about 0.05 to 0.13 places a game at 2 to 5 players', 'gains about 0.006 and 0.004
    places a game at 2 and 3 players, costs about 0.004 at 5 players and makes no clear difference at 4
    players'. One setting without a label: 'gains about 0.13 places a game'. Shorter for a first sentence
    that would be too long: `terse` 1 gives each group's range, 2 also counts settings that are not player
    counts ('at 3 of 8 settings')."""
    total = len(effects)
    groups = []
    for verb in ("gains", "costs", ""):
        members = [(label, x) for label, x in effects if verb_of(x) == verb]
        if not members:
            continue
        where = settings_words([label for label, _ in members], total, counted=terse >= 2)
        at = f" at {where}" if where else ""
        if not verb:
            groups.append(f"makes no clear difference{at}")
            continue
        groups.append(f"{verb} about {_amount(members, terse >= 1)}{unit if not groups else ''}{at}")
    return _and(groups)


FIRST_SENTENCE = 200  # a report's plain first sentence is shorter than this


def first_sentence(text: str) -> str:
    """`text` up to its first full stop that ends a sentence (one before a space or the end)."""
    return re.split(r"(?<=\.)\s", text.strip(), maxsplit=1)[0]


def fitting(candidates: list[str]) -> str:
    """The first of `candidates` (texts, fullest first) whose first sentence is shorter than FIRST_SENTENCE,
    else the one whose first sentence is shortest."""
    return next((c for c in candidates if len(first_sentence(c)) < FIRST_SENTENCE),
                min(candidates, key=lambda c: len(first_sentence(c))))


def lead_words(spec, decider: Interval) -> tuple[str, bool]:
    """The plain sentence's lead, the advice its settled sign supports (the spec's `advice` for a treatment
    that gains, `advice_against` for one that costs), and whether the sentence goes on about the treatment
    as "it" (the advice is the treatment's). ("", False) without such advice."""
    verb = verb_of(decider)
    if verb == "gains" and spec.advice:
        return spec.advice.strip().rstrip("."), True
    if verb == "costs" and spec.advice_against:
        return spec.advice_against.strip().rstrip("."), False
    return "", False


def subject_words(spec, it: bool, lead: str, bare: bool = False) -> str:
    """The treatment as the plain sentence's subject: 'it' after its own advice, its label after the
    control's advice, else 'Label instead of control label'; `bare`: the labels without their parentheses
    (a shorter first sentence)."""
    if it:
        return "it"
    treatment, control = (_unbracketed(x) if bare else x for x in (spec.treatment_label, spec.control_label))
    label = treatment[:1].lower() + treatment[1:]
    return label if lead else f"{capitalised(label)} instead of {control}"


def _unbracketed(label: str) -> str:
    """`Counting cards (counter)` as `Counting cards`."""
    return re.sub(r"\s*\([^()]*\)", "", label).strip()


def sentence_of(lead: str, body: str) -> str:
    text = f"{lead}: {body}" if lead else body
    return capitalised(text).rstrip(".") + "."


def plain_of_bodies(lead: str, bodies: list[str]) -> str:
    """A plain first sentence whose first sentence is shorter than FIRST_SENTENCE where it can be: the lead
    and the fullest body (`bodies`: fullest first) in one sentence; else the lead as a sentence of its own and
    that body after it ("Put your 2s face-up. At strong play, it gains ..."); else, without a lead, the first
    shorter body that fits."""
    split = [sentence_of("", lead) + " " + sentence_of("", bodies[0])] if lead else []
    return fitting([sentence_of(lead, bodies[0])] + split + [sentence_of(lead, body) for body in bodies[1:]])


WRAP_WIDTH = 105  # the learned player's page's lines


def wrap(text: str, first: str = "", width: int = WRAP_WIDTH) -> str:
    """`text` in lines of at most `width` columns (a longer word stays whole), the first starting with `first`,
    the others indented as deep. A line never starts with what Markdown would read as a list, a quote, a
    heading or an underline (`- `, `+ `, `> `, `# `, `= `, `1. `): such a word keeps to the word before it."""
    groups: list[str] = []
    for word in text.split():
        if groups and re.fullmatch(r"[-+*>#=|]+|\d+[.)]", word):
            groups[-1] += " " + word
        else:
            groups.append(word)
    lines, line, prefix = [], "", first
    for group in groups:
        if line and len(prefix) + len(line) + 1 + len(group) > width:
            lines.append(prefix + line)
            line, prefix = "", " " * len(first)
        line += (" " if line else "") + group
    return "\n".join(lines + [prefix + line])


def paragraph(text: str) -> str:
    """A paragraph of Markdown in lines of at most `WRAP_WIDTH` columns (``wrap``), however the source broke it."""
    return wrap(text)


def list_item(text: str) -> str:
    """A list item (``- ``) in lines of at most `WRAP_WIDTH` columns, its continuation lines indented."""
    return wrap(text, "- ")


def block(markdown: str) -> str:
    """Markdown kept as written (its line breaks and indentation), from a triple-quoted string indented with
    the code: dedented, without the blank lines around it."""
    return textwrap.dedent(markdown).strip("\n")


def tight(*blocks: str) -> str:
    """Blocks one after another with no blank line between them: the items of one list."""
    return "\n".join(blocks)
