"""The strong design: a paired contrast asked of a strong player, beside its beginner contrast on the same deals.

A tip answered for `basic` (the beginner contrast, e.g. ``heuristic:swap=1`` against
``heuristic:swap=2`` among `basic` opponents) is asked again of a strong player (the
strong contrast, e.g. the learned player with the swap override 1 against 2), in one
or more fields of opponents. For each deal d and focal seat s four games are played
on the same cards with the same game id: strong treatment (T), strong control (C) in
the field, and beginner treatment (BT), beginner control (BC) among the beginner's
opponents. Per deal (the cluster, its n seats and 4 arms):

- the strong effect   D_d = mean_s place(T) - place(C)
- the beginner effect B_d = mean_s place(BT) - place(BC)
- the difference of the two effects G_d = D_d - B_d, where the strong-play answer
  differs from the beginner's (an interaction), with a t interval over deals: the
  two effects share the deals, so their common deal-to-deal noise cancels in G_d;
- the strong player's strength S_d = mean_s place(C) - place(BC), printed where the
  field's opponents are the beginner's (the same table but for the focal player).

Every difference the report prints (both effects' mean place and win rate, G and S
at every setting) is one Holm family.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from idiotsim.experiments.design import CellTable
from idiotsim.experiments.paired_design import INDEPENDENT_OFFSET, PairedDesign, PairedRow, PairedStatistics, analyse_paired
from idiotsim.experiments.spec import PLAYERS_MARK, Point, Spec
from idiotsim.experiments.text import (ci_text, digits_for, format_interval, format_number, format_points_interval,
                                       game_text, interval_cells, length_pair_text, opponents_text, short_label,
                                       stall_pair_text)
from idiotsim.analysis.stats import Interval, Moments, adjust_holm, decimals_for, format_p, mean_interval

ARMS = 4  # strong treatment, strong control, beginner treatment, beginner control
T, C, BT, BC = range(ARMS)


class StrongStatistics(PairedStatistics):
    """The strong arms' sums (as a paired point's: the sequential stopping rule looks at them), the
    beginner arms' sums, and per deal the difference of the two effects and the control arms' difference."""

    def __init__(self, n: int):
        super().__init__(n)
        self.beginner = PairedStatistics(n)
        self.gap = Moments()  # per deal: sum over focal seats of (T - C) - (BT - BC)
        self.strength = Moments()  # per deal: sum over focal seats of C - BC

    def add_arms(self, places: np.ndarray, actions: np.ndarray, stalled: np.ndarray) -> None:
        """places (deals, n, ARMS): the focal player's place; actions, stalled (deals, n, ARMS)."""
        self.add(*(places[:, :, a] for a in (T, C)), *(actions[:, :, a] for a in (T, C)),
                 *(stalled[:, :, a] for a in (T, C)))
        self.beginner.add(*(places[:, :, a] for a in (BT, BC)), *(actions[:, :, a] for a in (BT, BC)),
                          *(stalled[:, :, a] for a in (BT, BC)))
        p = places.astype(np.int64)
        self.gap.add(((p[:, :, T] - p[:, :, C]) - (p[:, :, BT] - p[:, :, BC])).sum(axis=1))
        self.strength.add((p[:, :, C] - p[:, :, BC]).sum(axis=1))


@dataclass(frozen=True)
class StrongRow:
    """One setting: the strong and the beginner contrast, their difference, the strong control's strength."""
    strong: PairedRow
    beginner: PairedRow
    gap: Interval  # strong effect minus beginner effect, mean place
    strength: Interval | None  # strong control minus beginner control (None: the opponents differ)

    @property
    def place_diff(self) -> Interval:
        return self.strong.place_diff

    @property
    def win_diff(self) -> Interval:
        return self.strong.win_diff

    @property
    def beginner_diff(self) -> Interval:
        return self.beginner.place_diff

    @property
    def deals(self) -> int:
        return self.strong.deals

    @property
    def games(self) -> int:
        return self.strong.games + self.beginner.games

    @property
    def variance_reduction(self) -> float:
        return self.strong.variance_reduction

    def csv_cells(self) -> dict:
        s, b = self.strong, self.beginner
        strength = self.strength or Interval(float("nan"))
        return {"deals": self.deals, "games": self.games, "t_place": s.treatment_place, "c_place": s.control_place,
                **interval_cells("diff", s.place_diff, half=True), "diff_p_holm": s.place_diff.p_holm,
                **interval_cells("win", s.win_diff), "win_p_holm": s.win_diff.p_holm,
                "bt_place": b.treatment_place, "bc_place": b.control_place,
                **interval_cells("b", b.place_diff, half=True), "b_p_holm": b.place_diff.p_holm,
                **interval_cells("b_win", b.win_diff), "b_win_p_holm": b.win_diff.p_holm,
                **interval_cells("gap", self.gap, half=True), "gap_p_holm": self.gap.p_holm,
                **interval_cells("strength", strength), "strength_p_holm": strength.p_holm,
                "variance_reduction": s.variance_reduction, "t_stall": s.treatment_stall.mean,
                "c_stall": s.control_stall.mean}


class StrongDesign(PairedDesign):
    name = "strong"
    csv_columns = ("setting", "field", "deals", "games", "t_place", "c_place", "diff", "diff_lo", "diff_hi",
                   "diff_half", "diff_p", "diff_p_holm", "win_diff", "win_lo", "win_hi", "win_p", "win_p_holm",
                   "bt_place", "bc_place", "b_diff", "b_lo", "b_hi", "b_half", "b_p", "b_p_holm", "b_win_diff",
                   "b_win_lo", "b_win_hi", "b_win_p", "b_win_p_holm", "gap_diff", "gap_lo", "gap_hi", "gap_half",
                   "gap_p", "gap_p_holm", "strength_diff", "strength_lo", "strength_hi", "strength_p",
                   "strength_p_holm", "variance_reduction", "t_stall", "c_stall")
    effect_words = ("Differences are treatment minus control; strong minus beginner is the strong effect minus the "
                    "beginner effect on the same deals")
    plot_panels = (("place_diff", 1, "strong play: mean place, T minus C", True),
                   ("beginner_diff", 1, "beginner: mean place, T minus C", True),
                   ("gap", 1, "strong effect minus beginner effect", True))

    # ---- play ----------------------------------------------------------------------

    def games_per_deal(self, point: Point) -> int:
        return ARMS * point.players

    def _others(self, point: Point) -> list:
        return list(dict.fromkeys(point.opponents + point.beginner_opponents))

    def seat_specs(self, point: Point) -> tuple[list, list]:
        specs = [point.treatment, point.control, point.beginner_treatment, point.beginner_control]
        labels = [f"treatment {point.treatment}", f"control {point.control}",
                  f"beginner treatment {point.beginner_treatment}", f"beginner control {point.beginner_control}"]
        others = self._others(point)
        return specs + others, labels + others

    def seating(self, point: Point) -> np.ndarray:
        """seating[focal seat, arm, seat]: the strategy index in each seat."""
        n = point.players
        index = {o: ARMS + i for i, o in enumerate(self._others(point))}
        seating = np.zeros((n, ARMS, n), dtype=np.int8)
        for focal in range(n):
            for arm in range(ARMS):
                opponents = point.opponents if arm in (T, C) else point.beginner_opponents
                seating[focal, arm, focal] = arm
                for j in range(n - 1):
                    seating[focal, arm, (focal + 1 + j) % n] = index[opponents[j % len(opponents)]]
        return seating

    def games(self, spec: Spec, point: Point, deals: np.ndarray) -> dict:
        """Game index ((d - d0) * n + focal seat) * ARMS + arm; every arm deals from deal d with game id d n + s."""
        n, m = point.players, len(deals)
        deal_ids = np.repeat(deals, ARMS * n)
        focal = np.tile(np.repeat(np.arange(n), ARMS), m)
        arm = np.tile(np.arange(ARMS), m * n)
        game_ids = deal_ids * n + focal
        if spec.streams == "independent":
            game_ids = game_ids + (arm % 2) * INDEPENDENT_OFFSET  # the control arms draw from their own streams
        seating = np.tile(self.seating(point).reshape(ARMS * n, n), (m, 1))
        return dict(game_ids=game_ids, deal_ids=deal_ids, seating=seating, decks=None)

    def new_statistics(self, spec: Spec, point: Point) -> StrongStatistics:
        return StrongStatistics(point.players)

    def add(self, stats: StrongStatistics, outputs: dict, deals: int) -> None:
        n = stats.n
        focal = np.arange(n)
        places = outputs["places"].reshape(deals, n, ARMS, n)[:, focal, :, focal].transpose(1, 0, 2)
        stats.add_arms(places, outputs["actions"].reshape(deals, n, ARMS),
                       outputs["stalled"].reshape(deals, n, ARMS))

    # ---- analysis ------------------------------------------------------------------

    def analyse(self, played) -> list[StrongRow]:
        """One row per point; every printed difference of every point forms one Holm family."""
        spec = played.spec
        rows = [StrongRow(analyse_paired(st), analyse_paired(st.beginner), mean_interval(st.gap, st.n),
                          mean_interval(st.strength, st.n) if _same_table(p) else None)
                for p, st in zip(spec.points, played.stats)]
        family = ([r.strong.place_diff for r in rows] + [r.strong.win_diff for r in rows]
                  + [r.beginner.place_diff for r in rows] + [r.beginner.win_diff for r in rows]
                  + [r.gap for r in rows] + [r.strength for r in rows])
        tested = iter(adjust_holm(family))
        parts = [[next(tested) for _ in rows] for _ in range(6)]
        return [StrongRow(replace(r.strong, place_diff=parts[0][i], win_diff=parts[1][i]),
                          replace(r.beginner, place_diff=parts[2][i], win_diff=parts[3][i]), parts[4][i], parts[5][i])
                for i, r in enumerate(rows)]

    # ---- text ----------------------------------------------------------------------

    def sentence(self, spec: Spec, point: Point, row: StrongRow) -> str:
        d = digits_for(max(row.place_diff.half, row.gap.half))
        where = f"In {game_text(point)} with {opponents_text(point.opponents)}"
        if spec.sweep_name not in ("players", ""):
            where += f" ({short_label(setting_label(point))})"
        what = f"{spec.treatment_label[:1].lower() + spec.treatment_label[1:]} instead of {spec.control_label}"
        strong = _effect_words(row.place_diff, d)
        beginner = _effect_words(row.beginner_diff, d)
        return (f"{where}, {what} {strong} the strong player's mean place: {ci_text(row.place_diff, d)}; "
                f"{spec.beginner.label} on the same deals {beginner} it: {ci_text(row.beginner_diff, d)}; "
                f"strong minus beginner: {ci_text(row.gap, d)}, {gap_verdict(row)}.")

    def sweep_headline(self, spec: Spec, rows: list[StrongRow]) -> str:
        """Per setting: the strong effect against the beginner effect, and how they differ where they do."""
        d = max(digits_for(max(r.place_diff.half, r.gap.half)) for r in rows)
        by_field = {}
        for p, r in zip(spec.points, rows):
            setting = short_label(setting_label(p))
            text = f"{_starred(r.place_diff, d)} against {_starred(r.beginner_diff, d)}"
            if r.gap.significant():
                text += f", {_gap_word(r)}"
            by_field.setdefault(p.field, []).append(f"{setting} {text}".strip())
        parts = [(f"{field}: " if field else "") + ", ".join(items) for field, items in by_field.items()]
        return (f"{spec.treatment_label} instead of {spec.control_label}, mean place at strong play against the "
                f"basic-level contrast on the same deals (* = significant; a verdict where the strong-play answer "
                f"differs significantly; Holm-adjusted over the report's {_tests(rows)} tests): " + "; ".join(parts)
                + ".")

    def main_figures(self, spec: Spec, rows: list[StrongRow]) -> CellTable:
        """Per setting: both effects and their difference, for the terminal (NAME.md has them all)."""
        d = max(digits_for(max(r.place_diff.half, r.gap.half)) for r in rows)
        columns = [("setting", "left"), ("deals", "right"), ("strong effect (95% CI)", "right"),
                   ("beginner effect (95% CI)", "right"), ("strong minus beginner (95% CI)", "right"),
                   ("Holm p", "right")]
        cells = [[short_label(p.label or "all"), f"{r.deals:,}", format_interval(r.place_diff, d),
                  format_interval(r.beginner_diff, d), format_interval(r.gap, d), format_p(r.gap.p_holm)]
                 for p, r in zip(spec.points, rows)]
        return CellTable("Mean place, treatment minus control (a negative mean place is better)", columns, cells,
                         optional=(1,))

    def size_notes(self, spec: Spec, rows: list[StrongRow]) -> list[str]:
        """The precision of strong minus beginner, and the strong player's strength where it is measured."""
        halves = [r.gap.half for r in rows]
        differ = [i for i, r in enumerate(rows) if r.gap.significant()]
        lines = [f"Strong minus beginner: the 95% CI half-width is {_span(halves)}; the strong-play answer differs "
                 f"significantly from the beginner's at {len(differ)} of {len(rows)} settings."]
        measured = [(p, r.strength) for p, r in zip(spec.points, rows) if r.strength is not None]
        if measured:
            d = max(digits_for(x.half) for _, x in measured)
            texts = list(dict.fromkeys(format_interval(x, d) for _, x in measured))
            each = (texts[0] + (" at every setting (the same control arms)" if len(measured) > 1 else "")
                    if len(texts) == 1 else
                    ", ".join(f"{short_label(setting_label(p))} {format_interval(x, d)}" for p, x in measured))
            lines.append("The strong player's strength here (its control arm's mean place minus the beginner "
                         f"control's, same deals and opponents): {each}.")
        return lines

    def setup_lines(self, spec: Spec) -> tuple[list[str], list[str]]:
        b = spec.beginner
        who = [f"- Strong treatment: `{spec.treatment}` ({spec.treatment_label})",
               f"- Strong control: `{spec.control}` ({spec.control_label})"]
        if spec.fields:
            who.append("- Fields (the opponents of the strong arms; opponent j sits j seats left of the focal "
                       "player, cycling through the list):")
            for label in spec.fields:
                p = next(p for p in spec.points if p.field == label)
                size = f"{p.games:,} games a setting" if p.games else "the spec's size"
                who.append(f"  - {label}: {', '.join(f'`{o}`' for o in p.opponents)} ({size})")
        else:
            who.append(f"- Opponents: {', '.join(f'`{o}`' for o in spec.opponents)}")
        who += [f"- Beginner contrast ({b.label}): `{b.treatment}` against `{b.control}`, opponents "
                f"{', '.join(f'`{o}`' for o in b.opponents)}"
                + (f"; the basic-level report: [{b.report}]({b.report}.md)" if b.report else "")]
        if PLAYERS_MARK in spec.treatment + spec.control:
            who.append(f"- `{PLAYERS_MARK}` in a spec is the setting's player count")
        design = ["", "Design: for each deal and each focal seat (every seat, so seat advantage cancels) four games are "
                  "played on the same cards with the same game id (so the same random draws): the strong treatment "
                  "and the strong control among the field's opponents, the beginner treatment and the beginner "
                  "control among the beginner's opponents. The strong effect is the focal player's place with the "
                  "strong treatment minus with the strong control, the beginner effect the same for the beginner "
                  "arms (negative = the treatment finishes better). Strong minus beginner is the per-deal difference "
                  "of the two effects, with a t interval over deals (a deal's seats and four arms form one cluster): "
                  "where it excludes 0 the strong-play answer differs from the beginner's. Where the field's "
                  "opponents are the beginner's, the strong player's strength is its control arm's place minus the "
                  "beginner control's on the same deals."]
        return who, design

    def table(self, spec: Spec, rows: list[StrongRow]) -> list[str]:
        d = max(digits_for(max(r.place_diff.half, r.gap.half)) for r in rows)
        lines = ["| setting | deals | strong T / C mean place | strong effect (95% CI) | Holm p | beginner effect "
                 "(95% CI) | Holm p | strong minus beginner (95% CI) | Holm p | strong win-rate effect, points "
                 "(95% CI) | Holm p | strength: strong C minus beginner C (95% CI) | variance reduction |",
                 "|---" * 13 + "|"]
        for p, r in zip(spec.points, rows):
            s = r.strong
            strength = "n/a (other opponents)" if r.strength is None else format_interval(r.strength, d)
            lines.append(f"| {p.label or 'all'} | {r.deals:,} | {s.treatment_place:.4f} / {s.control_place:.4f} | "
                         f"{format_interval(r.place_diff, d)} | {format_p(r.place_diff.p_holm)} | "
                         f"{format_interval(r.beginner_diff, d)} | {format_p(r.beginner_diff.p_holm)} | "
                         f"{format_interval(r.gap, d)} | {format_p(r.gap.p_holm)} | "
                         f"{format_points_interval(r.win_diff)} | {format_p(r.win_diff.p_holm)} | {strength} | "
                         f"{r.variance_reduction:.1f}x |")
        lines += ["", "Game length (actions, R20) of the strong arms' games that did not stall, and the stall rate:",
                  "", "| setting | mean length T / C (95% CI) | difference T - C (95% CI) | median T / C | "
                  "stall rate T / C (95% CI) |", "|---" * 5 + "|"]
        for p, r in zip(spec.points, rows):
            s = r.strong
            lines.append(f"| {p.label or 'all'} | {length_pair_text(s.treatment_length, s.control_length)} | "
                         f"{format_interval(s.length_diff, 2)} | {s.treatment_median:g} / {s.control_median:g} | "
                         f"{stall_pair_text(s.treatment_stall, s.control_stall)} |")
        return lines


def setting_label(point: Point) -> str:
    """The point's label without its field's."""
    return point.label.removesuffix(point.field).removesuffix(", ") if point.field else point.label


def _span(values: list[float]) -> str:
    lo, hi = min(values), max(values)
    return format_number(hi, 4) if lo == hi else f"{format_number(lo, 4)} to {format_number(hi, 4)} across settings"


def _same_table(point: Point) -> bool:
    return point.opponents == point.beginner_opponents


def _tests(rows: list[StrongRow]) -> int:
    return 5 * len(rows) + sum(r.strength is not None for r in rows)


def _effect_words(x: Interval, d: int) -> str:
    if not x.significant():
        return "makes no significant difference to"
    return "lowers (improves)" if x.mean < 0 else "raises (worsens)"


def _starred(x: Interval, d: int) -> str:
    return format_number(x.mean, decimals_for(x.lo, x.hi, d), True) + ("*" if x.significant() else "")


def _gap_word(row: StrongRow) -> str:
    """How the strong effect differs from the beginner's (the difference being significant)."""
    s, b = row.place_diff, row.beginner_diff
    if s.significant() != b.significant():
        return "gone at strong play" if b.significant() else "only at strong play"
    if s.significant() and (s.mean < 0) != (b.mean < 0):
        return "reversed at strong play"
    return "smaller at strong play" if abs(s.mean) < abs(b.mean) else "larger at strong play"


def gap_verdict(row: StrongRow) -> str:
    """Whether and how the strong-play answer differs from the beginner's, in words."""
    if not row.gap.significant():
        return "no significant difference from the beginner's answer"
    return f"the strong-play answer differs from the beginner's: {_gap_word(row)}"
