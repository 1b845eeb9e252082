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
- the strong control's strength S_d = mean_s place(C) - place(R) against a reference
  arm R (the spec's `reference`, `basic`: R in the focal seat among the strong arms'
  opponents, the same deal and draws), and the treatment's, T - R; without a reference,
  S_d = C - BC where the field's opponents are the beginner's.

Every difference the report prints (both effects' mean place and win rate, G and the
strengths at every setting) is one Holm family. The report's first sentence is a plain
one (`plain_sentence`): the first setting's strong effect beside its beginner effect, and
a warning when a control plays worse than the reference.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from idiotsim.experiments.design import CellTable
from idiotsim.experiments.paired_design import INDEPENDENT_OFFSET, PairedDesign, PairedRow, PairedStatistics, analyse_paired
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.spec_points import Point
from idiotsim.experiments.strategy_text import PLAYERS_MARK
from idiotsim.experiments.text import (PLACES, about, capitalised, ci_text, digits_for, effects_text,
                                       format_interval, format_number, format_points_interval, game_text,
                                       interval_cells, lead_words, length_pair_text, opponents_text, plain_of_bodies,
                                       sentence_of, setting_case, settings_words, short_label, stall_pair_text,
                                       subject_words, unadjusted_note, verb_of)
from idiotsim.analysis.stats import Interval, Moments, adjust_holm, decimals_for, format_p, mean_interval

@dataclass(frozen=True)
class ContrastWords:
    """How a report names its two contrasts: the strong design's levels of play (the strong player against
    the beginner, both at a table of beginners) or the experts design's tables (one strong player at a table of
    strong players against the same player at a table of beginners)."""
    strong_at: str  # where the strong contrast is asked ("at strong play")
    beginner_at: str  # where the beginner contrast is asked ("among beginners")
    strong_effect: str  # the strong contrast's effect ("strong effect")
    beginner_effect: str
    gap: str  # the strong effect minus the beginner effect ("strong minus beginner")
    gap_noun: str  # the same as a noun ("strong-minus-beginner difference")
    strong_answer: str  # "the strong-play answer"
    beginner_answer: str  # "the beginner's answer"
    beginner_short: str  # after "differs from": "the beginner's"
    strong_arm: str  # "strong" treatment, control, arms
    beginner_arm: str  # "beginner" treatment, control, arms, contrast


LEVEL_WORDS = ContrastWords("at strong play", "among beginners", "strong effect", "beginner effect",
                            "strong minus beginner", "strong-minus-beginner difference", "the strong-play answer",
                            "the beginner's answer", "the beginner's", "strong", "beginner")
TABLE_WORDS = ContrastWords("among strong players", "among beginners", "effect among strong players",
                            "effect among beginners", "strong table minus beginners' table",
                            "difference between the tables",
                            "the answer among strong players", "the answer among beginners",
                            "the answer among beginners", "strong-table", "beginners'-table")

ARMS = 4  # strong treatment, strong control, beginner treatment, beginner control
T, C, BT, BC = range(ARMS)
R = ARMS  # the reference arm, the fifth, where the spec gives one


def arms_of(point: Point) -> int:
    """The arms a point plays: T, C, BT, BC, and R where it has a reference."""
    return ARMS + (1 if point.reference else 0)


class StrongStatistics(PairedStatistics):
    """The strong arms' sums (as a paired point's: the sequential stopping rule looks at them), the
    beginner arms' sums, and per deal the difference of the two effects and the control arms' difference."""

    def __init__(self, n: int, reference: bool = False):
        super().__init__(n)
        self.reference = reference
        self.beginner = PairedStatistics(n)
        self.gap = Moments()  # per deal: sum over focal seats of (T - C) - (BT - BC)
        self.strength = Moments()  # per deal: sum over focal seats of C - R (with a reference), else C - BC
        self.treatment_strength = Moments()  # per deal: sum over focal seats of T - R (with a reference)

    def add_arms(self, places: np.ndarray, actions: np.ndarray, stalled: np.ndarray) -> None:
        """places (deals, n, ARMS): the focal player's place; actions, stalled (deals, n, ARMS)."""
        self.add(*(places[:, :, a] for a in (T, C)), *(actions[:, :, a] for a in (T, C)),
                 *(stalled[:, :, a] for a in (T, C)))
        self.beginner.add(*(places[:, :, a] for a in (BT, BC)), *(actions[:, :, a] for a in (BT, BC)),
                          *(stalled[:, :, a] for a in (BT, BC)))
        p = places.astype(np.int64)
        self.gap.add(((p[:, :, T] - p[:, :, C]) - (p[:, :, BT] - p[:, :, BC])).sum(axis=1))
        base = p[:, :, R] if self.reference else p[:, :, BC]
        self.strength.add((p[:, :, C] - base).sum(axis=1))
        if self.reference:
            self.treatment_strength.add((p[:, :, T] - base).sum(axis=1))


@dataclass(frozen=True)
class StrongRow:
    """One setting: the strong and the beginner contrast, their difference, the strong control's strength."""
    strong: PairedRow
    beginner: PairedRow
    gap: Interval  # strong effect minus beginner effect, mean place
    strength: Interval | None  # strong control minus the reference (or the beginner control; None: not measured)
    treatment_strength: Interval | None = None  # strong treatment minus the reference (None: no reference)
    reference_games: int = 0  # games of the reference arm (0: none)

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
        return self.strong.games + self.beginner.games + self.reference_games

    @property
    def variance_reduction(self) -> float:
        return self.strong.variance_reduction

    def csv_cells(self) -> dict:
        s, b = self.strong, self.beginner
        strength = self.strength or Interval(float("nan"))
        t_strength = self.treatment_strength or Interval(float("nan"))
        return {"deals": self.deals, "games": self.games, "t_place": s.treatment_place, "c_place": s.control_place,
                **interval_cells("diff", s.place_diff, half=True), "diff_p_holm": s.place_diff.p_holm,
                **interval_cells("win", s.win_diff), "win_p_holm": s.win_diff.p_holm,
                "bt_place": b.treatment_place, "bc_place": b.control_place,
                **interval_cells("b", b.place_diff, half=True), "b_p_holm": b.place_diff.p_holm,
                **interval_cells("b_win", b.win_diff), "b_win_p_holm": b.win_diff.p_holm,
                **interval_cells("gap", self.gap, half=True), "gap_p_holm": self.gap.p_holm,
                **interval_cells("strength", strength), "strength_p_holm": strength.p_holm,
                **interval_cells("t_strength", t_strength), "t_strength_p_holm": t_strength.p_holm,
                "variance_reduction": s.variance_reduction, "t_stall": s.treatment_stall.mean,
                "c_stall": s.control_stall.mean}


class StrongDesign(PairedDesign):
    name = "strong"
    words = LEVEL_WORDS
    csv_columns = ("setting", "level", "players", "field", "deals", "games", "t_place", "c_place", "diff", "diff_lo",
                   "diff_hi", "diff_half", "diff_p", "diff_p_holm", "win_diff", "win_lo", "win_hi", "win_p", "win_p_holm",
                   "bt_place", "bc_place", "b_diff", "b_lo", "b_hi", "b_half", "b_p", "b_p_holm", "b_win_diff",
                   "b_win_lo", "b_win_hi", "b_win_p", "b_win_p_holm", "gap_diff", "gap_lo", "gap_hi", "gap_half",
                   "gap_p", "gap_p_holm", "strength_diff", "strength_lo", "strength_hi", "strength_p",
                   "strength_p_holm", "t_strength_diff", "t_strength_lo", "t_strength_hi", "t_strength_p",
                   "t_strength_p_holm", "variance_reduction", "t_stall", "c_stall")
    effect_words = ("Differences are treatment minus control; strong minus beginner is the strong effect minus the "
                    "beginner effect on the same deals")
    plot_panels = (("place_diff", 1, "strong play: mean place, T minus C", True),
                   ("beginner_diff", 1, "beginner: mean place, T minus C", True),
                   ("gap", 1, "strong effect minus beginner effect", True))

    # ---- play ----------------------------------------------------------------------

    def point_cells(self, point: Point) -> dict:
        """The level of play, the table size and the field of a setting (the index's tips tables read them)."""
        return {"level": point.level, "players": point.players, "field": point.field}

    def games_per_deal(self, point: Point) -> int:
        return arms_of(point) * point.players

    def _others(self, point: Point) -> list:
        return list(dict.fromkeys(point.opponents + point.beginner_opponents))

    def seat_specs(self, point: Point) -> tuple[list, list]:
        specs = [point.treatment, point.control, point.beginner_treatment, point.beginner_control]
        labels = [f"treatment {point.treatment}", f"control {point.control}",
                  f"beginner treatment {point.beginner_treatment}", f"beginner control {point.beginner_control}"]
        if point.reference:
            specs.append(point.reference)
            labels.append(f"reference {point.reference}")
        others = self._others(point)
        return specs + others, labels + others

    def seating(self, point: Point) -> np.ndarray:
        """seating[focal seat, arm, seat]: the strategy index in each seat."""
        n, arms = point.players, arms_of(point)
        index = {o: arms + i for i, o in enumerate(self._others(point))}
        seating = np.zeros((n, arms, n), dtype=np.int8)
        for focal in range(n):
            for arm in range(arms):
                opponents = point.opponents if arm in (T, C, R) else point.beginner_opponents
                seating[focal, arm, focal] = arm
                for j in range(n - 1):
                    seating[focal, arm, (focal + 1 + j) % n] = index[opponents[j % len(opponents)]]
        return seating

    def games(self, spec: Spec, point: Point, deals: np.ndarray) -> dict:
        """Game index ((d - d0) * n + focal seat) * arms + arm; every arm deals from deal d with game id d n + s."""
        n, m, arms = point.players, len(deals), arms_of(point)
        deal_ids = np.repeat(deals, arms * n)
        focal = np.tile(np.repeat(np.arange(n), arms), m)
        arm = np.tile(np.arange(arms), m * n)
        game_ids = deal_ids * n + focal
        if spec.streams == "independent":
            game_ids = game_ids + (arm % 2) * INDEPENDENT_OFFSET  # the control arms draw from their own streams
        seating = np.tile(self.seating(point).reshape(arms * n, n), (m, 1))
        return dict(game_ids=game_ids, deal_ids=deal_ids, seating=seating, decks=None)

    def new_statistics(self, spec: Spec, point: Point) -> StrongStatistics:
        return StrongStatistics(point.players, bool(point.reference))

    def add(self, stats: StrongStatistics, outputs: dict, deals: int) -> None:
        n, arms = stats.n, ARMS + stats.reference
        focal = np.arange(n)
        places = outputs["places"].reshape(deals, n, arms, n)[:, focal, :, focal].transpose(1, 0, 2)
        stats.add_arms(places, outputs["actions"].reshape(deals, n, arms),
                       outputs["stalled"].reshape(deals, n, arms))

    # ---- analysis ------------------------------------------------------------------

    def analyse(self, played) -> list[StrongRow]:
        """One row per point; every printed difference of every point forms one Holm family."""
        spec = played.spec
        rows = [StrongRow(analyse_paired(st), analyse_paired(st.beginner), mean_interval(st.gap, st.n),
                          mean_interval(st.strength, st.n) if p.reference or _same_table(p) else None,
                          mean_interval(st.treatment_strength, st.n) if p.reference else None,
                          st.treatment_game.n if p.reference else 0)
                for p, st in zip(spec.points, played.stats)]
        family = ([r.strong.place_diff for r in rows] + [r.strong.win_diff for r in rows]
                  + [r.beginner.place_diff for r in rows] + [r.beginner.win_diff for r in rows]
                  + [r.gap for r in rows] + [r.strength for r in rows] + [r.treatment_strength for r in rows])
        tested = iter(adjust_holm(family))
        parts = [[next(tested) for _ in rows] for _ in range(7)]
        return [replace(r, strong=replace(r.strong, place_diff=parts[0][i], win_diff=parts[1][i]),
                        beginner=replace(r.beginner, place_diff=parts[2][i], win_diff=parts[3][i]), gap=parts[4][i],
                        strength=parts[5][i], treatment_strength=parts[6][i])
                for i, r in enumerate(rows)]

    # ---- text ----------------------------------------------------------------------

    def holm_cases(self, spec: Spec, rows: list[StrongRow]) -> tuple[list, int]:
        """The printed intervals of the family: both effects, their difference, the strong win-rate effect and the
        strong arms' strength."""
        w = self.words
        cases = [(setting_case(p.label, what), x) for p, r in zip(spec.points, rows)
                 for what, x in ((w.strong_effect, r.place_diff), (w.beginner_effect, r.beginner_diff),
                                 (w.gap_noun, r.gap), (f"{w.strong_arm} win-rate effect", r.win_diff),
                                 (f"{w.strong_arm} control's strength", r.strength),
                                 (f"{w.strong_arm} treatment's strength", r.treatment_strength))]
        return cases, _tests(rows)

    def plain_sentence(self, spec: Spec, rows: list[StrongRow]) -> str:
        """The report's first sentence (`plain_sentence`)."""
        return plain_sentence(spec, rows, self.words)

    def sentence(self, spec: Spec, point: Point, row: StrongRow) -> str:
        """The careful answer at one setting: both effects, their difference, the strong control's strength."""
        d = digits_for(max(row.place_diff.half, row.gap.half))
        what = f"{spec.treatment_label[:1].lower() + spec.treatment_label[1:]} instead of {spec.control_label}"
        where = f"{game_text(point)}, {opponents_text(point.opponents)}"
        if spec.sweep_name not in ("players", ""):
            where = f"{short_label(setting_label(point))}: {where}"
        w = self.words
        text = (f"{capitalised(where)}: {what} {w.strong_at} {ci_text(row.place_diff, d)}; {w.beginner_at} on the "
                f"same deals {ci_text(row.beginner_diff, d)}; {w.gap} {ci_text(row.gap, d)}, "
                f"{gap_verdict(row, w)}")
        if point.reference and row.strength is not None:
            text += (f"; the {w.strong_arm} control against `{point.reference}` in its seat "
                     f"{ci_text(row.strength, digits_for(row.strength.half))}")
        return text + "."

    def sweep_headline(self, spec: Spec, rows: list[StrongRow]) -> str:
        """Per setting: the strong effect against the beginner effect, and how they differ where they do."""
        d = max(digits_for(max(r.place_diff.half, r.gap.half)) for r in rows)
        by_field = {}
        for p, r in zip(spec.points, rows):
            setting = short_label(setting_label(p))
            text = f"{_starred(r.place_diff, d)} against {_starred(r.beginner_diff, d)}"
            if r.gap.significant():
                text += f", {_gap_word(r, self.words)}"
            by_field.setdefault(p.field, []).append(f"{setting} {text}".strip())
        parts = [(f"{field}: " if field else "") + ", ".join(items) for field, items in by_field.items()]
        w = self.words
        return (f"{spec.treatment_label} instead of {spec.control_label}, mean place {w.strong_at} against "
                f"the effect {w.beginner_at} on the same deals (* = significant, Holm-adjusted over {_tests(rows)} tests): "
                + "; ".join(parts) + ".")

    def main_figures(self, spec: Spec, rows: list[StrongRow]) -> CellTable:
        """Per setting: both effects and their difference, for the terminal (NAME.md has them all)."""
        d = max(digits_for(max(r.place_diff.half, r.gap.half)) for r in rows)
        w = self.words
        columns = [("setting", "left"), ("deals", "right"), (f"{w.strong_effect} (95% CI)", "right"),
                   (f"{w.beginner_effect} (95% CI)", "right"), (f"{w.gap} (95% CI)", "right"),
                   ("Holm p", "right")]
        cells = [[short_label(p.label or "all"), f"{r.deals:,}", format_interval(r.place_diff, d),
                  format_interval(r.beginner_diff, d), format_interval(r.gap, d), format_p(r.gap.p_holm)]
                 for p, r in zip(spec.points, rows)]
        return CellTable("Mean place, treatment minus control (a negative mean place is better)", columns, cells,
                         optional=(1,), note=unadjusted_note(*self.holm_cases(spec, rows)))

    def size_notes(self, spec: Spec, rows: list[StrongRow]) -> list[str]:
        """The precision of strong minus beginner, and the strong arms' strength where it is measured."""
        halves = [r.gap.half for r in rows]
        differ = [i for i, r in enumerate(rows) if r.gap.significant()]
        w = self.words
        lines = [f"{capitalised(w.gap)}: the 95% CI half-width is {_span(halves)}; {w.strong_answer} differs "
                 f"significantly from {w.beginner_short} at {len(differ)} of {len(rows)} settings."]
        measured = [(p, r) for p, r in zip(spec.points, rows) if r.strength is not None]
        if not measured:
            return lines
        d = max(digits_for(r.strength.half) for _, r in measured)
        if spec.reference:
            each = "; ".join(f"{short_label(p.label or 'all')}: control {format_interval(r.strength, d)}, treatment "
                             f"{format_interval(r.treatment_strength, d)}" for p, r in measured)
            lines.append(f"The {w.strong_arm} arms' strength (each arm's mean place minus `{spec.reference}`'s in the same "
                         f"seat, same deals, opponents and draws; negative = stronger): {each}.")
            weak = [(p, r) for p, r in measured if r.strength.significant() and r.strength.mean > 0]
            lines.append("The control is weaker than the reference at " + ", ".join(
                short_label(p.label or "all") for p, _ in weak) + ": see the first sentence." if weak else
                f"No control is significantly weaker than `{spec.reference}`.")
            return lines
        texts = list(dict.fromkeys(format_interval(r.strength, d) for _, r in measured))
        each = (texts[0] + (" at every setting (the same control arms)" if len(measured) > 1 else "")
                if len(texts) == 1 else
                ", ".join(f"{short_label(setting_label(p))} {format_interval(r.strength, d)}" for p, r in measured))
        lines.append(f"The {w.strong_arm} player's strength here (its control arm's mean place minus the {w.beginner_arm} "
                     f"control's, same deals and opponents): {each}.")
        return lines

    def setup_lines(self, spec: Spec) -> tuple[list[str], list[str]]:
        b, w = spec.beginner, self.words
        arm = capitalised(w.strong_arm)
        who = [f"- {arm} treatment: `{spec.treatment}` ({spec.treatment_label})",
               f"- {arm} control: `{spec.control}` ({spec.control_label})"]
        if spec.sweep_name == "variant" and any((p.treatment, p.control) != (spec.treatment, spec.control)
                                                for p in spec.points):
            who.append("- Levels (a setting's own treatment and control):")
            for p in dict((setting_label(q), q) for q in spec.points).values():
                who.append(f"  - {setting_label(p)}: `{p.treatment}` against `{p.control}`"
                           + (f" ({p.games:,} games)" if p.games and not spec.fields else ""))
        if spec.fields:
            who.append(f"- Fields (the opponents of the {w.strong_arm} arms; opponent j sits j seats left of the focal "
                       "player, cycling through the list):")
            for label in spec.fields:
                members = [p for p in spec.points if p.field == label]
                sizes = sorted({p.games for p in members})
                size = ("the spec's size" if sizes == [0] else
                        f"{sizes[0]:,} games a setting" if len(sizes) == 1 else
                        "; ".join(f"{short_label(setting_label(p))} {p.games or spec.games:,} games" for p in members))
                who.append(f"  - {label}: {', '.join(f'`{o}`' for o in members[0].opponents)} ({size})")
        else:
            who.append(f"- Opponents: {', '.join(f'`{o}`' for o in spec.opponents)}")
        who += [f"- {capitalised(w.beginner_arm)} contrast ({b.label}): `{b.treatment}` against `{b.control}`, opponents "
                f"{', '.join(f'`{o}`' for o in b.opponents)}"
                + (f"; the basic-level report: [{b.report}]({b.report}.md)" if b.report else "")]
        if spec.reference:
            who.append(f"- Reference: `{spec.reference}` in the focal seat among the {w.strong_arm} arms' opponents, on "
                       f"the same deals: each {w.strong_arm} arm's strength is its mean place minus the reference's")
        if PLAYERS_MARK in spec.treatment + spec.control + " ".join(spec.opponents):
            who.append(f"- `{PLAYERS_MARK}` in a spec is the setting's player count")
        arms = "five" if spec.reference else "four"
        s_arm, b_arm = w.strong_arm, w.beginner_arm
        design = ["", f"Design: for each deal and each focal seat (every seat, so seat advantage cancels) {arms} games "
                  f"are played on the same cards with the same game id (so the same random draws): the {s_arm} "
                  f"treatment and the {s_arm} control among the field's opponents, the {b_arm} treatment and the "
                  f"{b_arm} control among the beginner's opponents"
                  + (", and the reference among the field's opponents" if spec.reference else "")
                  + f". The {w.strong_effect} is the focal player's place with the {s_arm} treatment minus with the "
                  f"{s_arm} control, the {w.beginner_effect} the same for the {b_arm} arms (negative = the treatment "
                  f"finishes better). {capitalised(w.gap)} is the per-deal difference of the two effects, with a t "
                  f"interval over deals (a deal's seats and arms form one cluster): where it excludes 0 "
                  f"{w.strong_answer} differs from {w.beginner_short}. "
                  + (f"Each {s_arm} arm's strength is its place minus the reference's on the same deals."
                     if spec.reference else
                     f"Where the field's opponents are the beginner's, the {s_arm} player's strength is its control "
                     f"arm's place minus the {b_arm} control's on the same deals.")]
        return who, design

    def table(self, spec: Spec, rows: list[StrongRow]) -> list[str]:
        d = max(digits_for(max(r.place_diff.half, r.gap.half)) for r in rows)
        w = self.words
        versus = f"`{spec.reference}`" if spec.reference else f"{w.beginner_arm} C"
        lines = [f"| setting | deals | {w.strong_arm} T / C mean place | {w.strong_effect} (95% CI) | Holm p | "
                 f"{w.beginner_effect} (95% CI) | Holm p | {w.gap} (95% CI) | Holm p | {w.strong_arm} win-rate effect, "
                 f"points (95% CI) | Holm p | strength: {w.strong_arm} C minus {versus} (95% CI) | variance reduction |",
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
        lines += ["", f"Game length (actions, R20) of the {w.strong_arm} arms' games that did not stall, and the stall rate:",
                  "", "| setting | mean length T / C (95% CI) | difference T - C (95% CI) | median T / C | "
                  "stall rate T / C (95% CI) |", "|---" * 5 + "|"]
        for p, r in zip(spec.points, rows):
            s = r.strong
            lines.append(f"| {p.label or 'all'} | {length_pair_text(s.treatment_length, s.control_length)} | "
                         f"{format_interval(s.length_diff, 2)} | {s.treatment_median:g} / {s.control_median:g} | "
                         f"{stall_pair_text(s.treatment_stall, s.control_stall)} |")
        return lines


TABLE_CHANGES = {"larger": "it matters more", "smaller": "it matters less", "gone": "it stops mattering",
                 "only": "it matters only", "reversed": "the answer reverses"}  # _gap_word's first word, in plain words


class ExpertsDesign(StrongDesign):
    """The experts design: the strong design's arms and statistics, its two contrasts being one strong player's
    at two tables: among the field's (strong) opponents, and among the beginner's opponents (`[beginner]`, whose
    treatment and control are the same strong player's) on the same deals; their difference says whether the
    tip's answer changes when everyone at the table plays well."""
    name = "experts"
    words = TABLE_WORDS
    effect_words = ("Differences are treatment minus control; strong table minus beginners' table is the effect among "
                    "strong players minus the effect among beginners on the same deals")
    shared_panels = 2  # the effect at each table, on one scale
    plot_panels = (("place_diff", 1, "among strong players: mean place, T minus C", True),
                   ("beginner_diff", 1, "among beginners: mean place, T minus C", True),
                   ("gap", 1, "strong table minus beginners' table", True))

    def plain_sentence(self, spec: Spec, rows: list[StrongRow]) -> str:
        """The strong design's first sentence, led by where the table changes the answer (or that it does not)."""
        by_change: dict = {}
        for i in headline_points(spec):
            if rows[i].gap.significant():
                change = _gap_word(rows[i], self.words).split()[0]
                by_change.setdefault(change, []).append(short_label(setting_label(spec.points[i])))
        changed = [f"{TABLE_CHANGES[change]} {self.words.strong_at}" + (f" at {settings_words(labels, len(rows))}" if all(labels) else "")
                   for change, labels in by_change.items()]
        table = (f"The table changes this answer: {'; '.join(changed)}. " if changed else
                 "The table does not change this answer (no significant difference between the tables). ")
        return plain_sentence(spec, rows, self.words, opening=table)


def setting_label(point: Point) -> str:
    """The point's label without its field's."""
    return point.label.removesuffix(point.field).removesuffix(", ") if point.field else point.label


def headline_points(spec: Spec) -> list[int]:
    """The settings a strong report's first sentence speaks of: those of the first field (all without
    fields) that ask the same contrast as the first setting (the same player at another table size); a
    report whose settings are levels of play (another player) speaks of the first only (and of the others only
    where they disagree with it: ``other_levels``)."""
    field = spec.points[0].field
    first = _contrast(spec.points[0])
    return [i for i, p in enumerate(spec.points) if p.field == field and _contrast(p) == first]


def _contrast(p: Point) -> tuple:
    return (re.sub(rf"(?<=\D){p.players}p\b", "{players}p", p.treatment),
            re.sub(rf"(?<=\D){p.players}p\b", "{players}p", p.control))


def other_levels(spec: Spec) -> list[int]:
    """The first setting of each other level of play (another contrast on the first setting's field)."""
    field, seen = spec.points[0].field, {_contrast(spec.points[0])}
    picked = []
    for i, p in enumerate(spec.points):
        contrast = _contrast(p)
        if p.field == field and contrast not in seen:
            seen.add(contrast)
            picked.append(i)
    return picked


LEVELS_APART = 2.0  # another level's strong effect this many times the first's (or this share of it): named too


def _levels_clause(spec: Spec, rows: list, first: int) -> str:
    """' (the gated level; 0.02 at the fast level)' where another level's strong effect is not about the first
    level's (another settled sign, or more than LEVELS_APART times apart); '' where every level agrees."""
    s = rows[first].place_diff
    others = [(setting_label(spec.points[i]), rows[i].place_diff) for i in other_levels(spec)]

    def apart(x: Interval) -> bool:
        if verb_of(x) != verb_of(s):
            return True
        ratio = abs(x.mean) / max(abs(s.mean), 1e-12)
        return not 1 / LEVELS_APART <= ratio <= LEVELS_APART
    if not verb_of(s) or not any(apart(x) for _, x in others):
        return ""
    said = [f"{about(x.mean)} at the {label} level" if verb_of(x) == verb_of(s) else
            f"{'no clear difference' if not verb_of(x) else effects_text([('', x)])} at the {label} level"
            for label, x in others]
    return f" (the {setting_label(spec.points[first])} level; {', '.join(said)})"


def plain_sentence(spec: Spec, rows: list[StrongRow], words: ContrastWords = LEVEL_WORDS, opening: str = "") -> str:
    """The first sentence a player reads: the advice the strong-play answer supports, the effect among
    beginners and at strong play (e.g. "Put your 10s face-up: it gains about 0.13 places a game among
    beginners and 0.09 at strong play."), and first of all whether a control plays worse than the reference."""
    picked = headline_points(spec)
    strong = [rows[i].place_diff for i in picked]
    beginner = [rows[i].beginner_diff for i in picked]
    decider = next((x for x in strong if x.significant()), next((x for x in beginner if x.significant()), strong[0]))
    lead, it = lead_words(spec, decider)
    subject = subject_words(spec, it, lead)
    if len(picked) == 1:
        sentence = sentence_of(lead, _one_setting_body(subject, beginner[0], strong[0], words)
                               + _levels_clause(spec, rows, picked[0]))
    else:
        labels = [setting_label(spec.points[i]) for i in picked]
        subject = subject if subject == "it" else subject[:1].lower() + subject[1:]
        strong_effects, beginner_effects = list(zip(labels, strong)), list(zip(labels, beginner))
        bodies = [f"{words.strong_at}, {subject} {effects_text(strong_effects, terse=terse)}; {words.beginner_at} it "
                  f"{effects_text(beginner_effects, terse=terse)}" for terse in (0, 1, 2)]
        if not any(verb_of(x) for x in strong + beginner):
            bodies.append(f"{subject} {effects_text(strong_effects)}, {words.strong_at} or {words.beginner_at}")
        sentence = plain_of_bodies(lead, bodies)
    weak = [(spec.points[i], r.strength) for i, r in enumerate(rows)
            if spec.points[i].reference and r.strength is not None and r.strength.significant() and r.strength.mean > 0]
    if weak:
        worst = max(weak, key=lambda w: w[1].mean)
        where = "" if len(rows) == 1 else f" at {_and_labels([short_label(p.label) for p, _ in weak])}"
        return (f"Careful: the control here plays worse than `{worst[0].reference}`{where}, by about "
                f"{about(worst[1].mean)}{PLACES}. " + opening + sentence)
    return opening + sentence


def _one_setting_body(subject: str, b: Interval, s: Interval, words: ContrastWords) -> str:
    """The plain sentence's body at one setting: the effect among beginners (b) and at strong play (s)."""
    at_b, at_s = words.beginner_at, words.strong_at
    if verb_of(b) and verb_of(b) == verb_of(s):
        return f"{subject} {verb_of(s)} about {about(b.mean)}{PLACES} {at_b} and {about(s.mean)} {at_s}"
    if not verb_of(b) and not verb_of(s):
        return f"{subject} makes no clear difference {at_b} or {at_s}"
    joint = " but " if verb_of(b) and verb_of(s) else " and "
    unit = "" if verb_of(b) else PLACES  # the unit goes with the first amount
    return f"{subject} {effects_text([('', b)])} {at_b}{joint}{effects_text([('', s)], unit)} {at_s}"


def _and_labels(labels: list) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def _span(values: list[float]) -> str:
    lo, hi = min(values), max(values)
    return format_number(hi, 4) if lo == hi else f"{format_number(lo, 4)} to {format_number(hi, 4)} across settings"


def _same_table(point: Point) -> bool:
    return point.opponents == point.beginner_opponents


def _tests(rows: list[StrongRow]) -> int:
    return 5 * len(rows) + sum(r.strength is not None for r in rows) + sum(r.treatment_strength is not None
                                                                          for r in rows)


def _starred(x: Interval, d: int) -> str:
    return format_number(x.mean, decimals_for(x.lo, x.hi, d), True) + ("*" if x.significant() else "")


def _gap_word(row: StrongRow, words: ContrastWords) -> str:
    """How the strong effect differs from the beginner's (the difference being significant)."""
    s, b, at = row.place_diff, row.beginner_diff, words.strong_at
    if s.significant() != b.significant():
        return f"gone {at}" if b.significant() else f"only {at}"
    if s.significant() and (s.mean < 0) != (b.mean < 0):
        return f"reversed {at}"
    return f"smaller {at}" if abs(s.mean) < abs(b.mean) else f"larger {at}"


def gap_verdict(row: StrongRow, words: ContrastWords = LEVEL_WORDS) -> str:
    """Whether and how the strong-play answer differs from the beginner's, in words."""
    if not row.gap.significant():
        return f"no significant difference from {words.beginner_answer}"
    return f"{words.strong_answer} differs from {words.beginner_short}: {_gap_word(row, words)}"
