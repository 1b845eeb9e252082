"""How numbers and settings are written in the reports (Markdown and CSV)."""
from __future__ import annotations

import math
import re

from idiotsim.experiments.spec import Point
from idiotsim.game.rules import Rules
from idiotsim.analysis.stats import decimals_for, p_clause


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
    """`+0.012 (95% CI -0.003 to +0.027, Holm p = 0.1234)`, signed, on `scale` (100: points)."""
    d = decimals_for(scale * estimate.lo, scale * estimate.hi, digits)
    return (f"{format_number(scale * estimate.mean, d, True)} (95% CI {format_number(scale * estimate.lo, d, True)} "
            f"to {format_number(scale * estimate.hi, d, True)}, {p_clause('Holm', estimate.p_holm)})")


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
