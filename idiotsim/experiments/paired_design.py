"""The paired design: treatment against control on the same deals, seats and random draws.

For each deal d and each focal seat s (all n seats, so seat advantage cancels) the
game is played twice: the treatment in seat s, then the control in seat s, the
opponents filling the other seats in the same order (``opponents[j]`` sits j+1
seats left of the focal seat, cycling through the list). Both games of a pair
deal from the (seed, d) shuffle and use game id ``d * n + s``, so every
strategy's random draws come from the same (seed, game, seat) streams
(``streams = "independent"`` gives the control game its own streams; used for
A/A checks). The outcome is the focal player's place; the unit of analysis is
the deal (its n seats and 2 arms are one cluster): D_d = mean over s of
place(treatment) - place(control).

The variance reduction is the variance of the unpaired difference (treatment and
control games on independent deals with independent random draws: per-game place
variances added, over n games per arm) divided by the variance of the paired
difference.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from idiotsim.experiments.deals import DealDesign
from idiotsim.experiments.deal_play import DealStatistics, GameLengths, length_difference
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.spec_points import Point
from idiotsim.experiments.text import (ci_text, digits_for, estimate_cells, format_interval, format_number,
                                       format_percent, format_points_interval, format_ratio, game_text, interval_cells,
                                       length_pair_text, opponents_text, place_scale_words, setting_case,
                                       short_label, stall_pair_text)
from idiotsim.experiments.text import (PLACES, about, effects_text, lead_words, plain_of_bodies, subject_words,
                                       verb_of)
from idiotsim.analysis.stats import ClusterSums, Interval, Moments, adjust_holm, decimals_for, format_p, mean_interval

INDEPENDENT_OFFSET = 1 << 40  # control-arm game ids with streams = "independent"
TREATMENT, CONTROL = 0, 1  # the arms, as strategy indices of the seating matrix


class PairedStatistics(DealStatistics):
    """Exact sums of one paired point; per deal, each is a sum over the deal's n focal seats."""

    def __init__(self, n: int):
        self.n = n
        self.diff = Moments()  # per deal: place(T) - place(C)
        self.treatment_game, self.control_game = Moments(), Moments()  # per game: place
        self.win_diff, self.treatment_wins, self.control_wins = Moments(), Moments(), Moments()  # per deal
        self.idiot_diff, self.treatment_idiots, self.control_idiots = Moments(), Moments(), Moments()
        self.treatment_length, self.control_length = GameLengths(), GameLengths()
        self.length_pairs = ClusterSums(4)  # per deal: control (actions, games), treatment (actions, games)

    def add(self, treatment_place, control_place, treatment_actions, control_actions, treatment_stalled,
            control_stalled) -> None:
        """Arrays (deals, n) of the focal player's place, the actions and the stalled flags per arm."""
        n = self.n
        pt = treatment_place.astype(np.int64)
        pc = control_place.astype(np.int64)
        self.add_differences((pt - pc).sum(axis=1))
        self.treatment_game.add(pt.ravel())
        self.control_game.add(pc.ravel())
        wt, wc = (pt == 1).sum(axis=1), (pc == 1).sum(axis=1)
        self.win_diff.add(wt - wc)
        self.treatment_wins.add(wt)
        self.control_wins.add(wc)
        it, ic = (pt == n).sum(axis=1), (pc == n).sum(axis=1)
        self.idiot_diff.add(it - ic)
        self.treatment_idiots.add(it)
        self.control_idiots.add(ic)
        treatment = self.treatment_length.add(treatment_actions, treatment_stalled)
        control = self.control_length.add(control_actions, control_stalled)
        self.length_pairs.add(np.column_stack([control, treatment]))


@dataclass(frozen=True)
class PairedRow:
    """The analysed numbers of one paired point (differences are treatment minus control)."""
    deals: int
    seat_games: int  # games per arm
    treatment_place: float
    control_place: float
    place_diff: Interval
    treatment_win: float
    control_win: float
    win_diff: Interval
    treatment_idiot: float
    control_idiot: float
    idiot_diff: Interval
    variance_reduction: float
    treatment_length: Interval  # mean length of the games that did not stall
    control_length: Interval
    length_diff: Interval
    treatment_median: float  # median length of the games that did not stall
    control_median: float
    treatment_stall: Interval
    control_stall: Interval

    @property
    def games(self) -> int:
        return 2 * self.seat_games

    def csv_cells(self) -> dict:
        return {"deals": self.deals, "games": self.games, "t_place": self.treatment_place,
                "c_place": self.control_place, **interval_cells("diff", self.place_diff, half=True),
                "t_win": self.treatment_win, "c_win": self.control_win, **interval_cells("win", self.win_diff),
                "t_idiot": self.treatment_idiot, "c_idiot": self.control_idiot,
                **interval_cells("idiot", self.idiot_diff), "variance_reduction": self.variance_reduction,
                **estimate_cells("t_length", self.treatment_length), "t_median": self.treatment_median,
                **estimate_cells("c_length", self.control_length), "c_median": self.control_median,
                **interval_cells("length", self.length_diff), **estimate_cells("t_stall", self.treatment_stall),
                **estimate_cells("c_stall", self.control_stall), "diff_p_holm": self.place_diff.p_holm,
                "win_p_holm": self.win_diff.p_holm}


class PairedDesign(DealDesign):
    name = "paired"
    chunk_games = 200_000
    csv_columns = ("setting", "deals", "games", "t_place", "c_place", "diff", "diff_lo", "diff_hi", "diff_half",
                   "diff_p", "t_win", "c_win", "win_diff", "win_lo", "win_hi", "win_p", "t_idiot", "c_idiot",
                   "idiot_diff", "idiot_lo", "idiot_hi", "idiot_p", "variance_reduction", "t_length", "t_length_lo",
                   "t_length_hi", "t_median", "c_length", "c_length_lo", "c_length_hi", "c_median", "length_diff",
                   "length_lo", "length_hi", "length_p", "t_stall", "t_stall_lo", "t_stall_hi", "c_stall",
                   "c_stall_lo", "c_stall_hi", "diff_p_holm", "win_p_holm")
    effect_words = "Differences are treatment minus control"
    pairing_words = "the same deals"
    shared_panels = 0  # the first shared_panels panels of the plot share one y scale (0: each its own)
    plot_panels = (("place_diff", 1, "mean place, treatment minus control", True),
                   ("win_diff", 100, "win rate difference, points", True))

    # ---- play ----------------------------------------------------------------------

    def games_per_deal(self, point: Point) -> int:
        return 2 * point.players

    def seat_specs(self, point: Point) -> tuple[list, list]:
        opponents = list(dict.fromkeys(point.opponents))
        specs = [point.treatment, point.control] + opponents
        labels = [f"treatment {point.treatment}", f"control {point.control}"] + opponents  # for error messages
        return specs, labels

    def seating(self, point: Point) -> np.ndarray:
        """seating[focal seat, arm, seat]: the strategy index in each seat."""
        n = point.players
        index = {o: 2 + i for i, o in enumerate(dict.fromkeys(point.opponents))}
        seating = np.zeros((n, 2, n), dtype=np.int8)
        for focal in range(n):
            for arm in (TREATMENT, CONTROL):
                seating[focal, arm, focal] = arm
                for j in range(n - 1):
                    seating[focal, arm, (focal + 1 + j) % n] = index[point.opponents[j % len(point.opponents)]]
        return seating

    def games(self, spec: Spec, point: Point, deals: np.ndarray) -> dict:
        """Game index ((d - d0) * n + focal seat) * 2 + arm."""
        n, m = point.players, len(deals)
        deal_ids = np.repeat(deals, 2 * n)
        focal = np.tile(np.repeat(np.arange(n), 2), m)
        arm = np.tile(np.arange(2), m * n)
        game_ids = deal_ids * n + focal
        if spec.streams == "independent":
            game_ids = game_ids + arm * INDEPENDENT_OFFSET
        seating = np.tile(self.seating(point).reshape(2 * n, n), (m, 1))
        return dict(game_ids=game_ids, deal_ids=deal_ids, seating=seating, decks=None)

    def new_statistics(self, spec: Spec, point: Point) -> PairedStatistics:
        return PairedStatistics(point.players)

    def add(self, stats: PairedStatistics, outputs: dict, deals: int) -> None:
        n = stats.n
        focal = np.arange(n)
        places = outputs["places"].reshape(deals, n, 2, n)
        actions = outputs["actions"].reshape(deals, n, 2)
        stalled = outputs["stalled"].reshape(deals, n, 2)
        stats.add(places[:, focal, TREATMENT, focal], places[:, focal, CONTROL, focal], actions[:, :, TREATMENT],
                  actions[:, :, CONTROL], stalled[:, :, TREATMENT], stalled[:, :, CONTROL])

    # ---- analysis ------------------------------------------------------------------

    def analyse(self, played) -> list[PairedRow]:
        """One row per point; the mean-place and win-rate differences of all points form one Holm family."""
        rows = [analyse_paired(st) for st in played.stats]
        m = len(rows)
        tested = adjust_holm([r.place_diff for r in rows] + [r.win_diff for r in rows])
        return [replace(r, place_diff=tested[i], win_diff=tested[m + i]) for i, r in enumerate(rows)]

    # ---- text ----------------------------------------------------------------------

    def holm_cases(self, spec: Spec, rows: list[PairedRow]) -> tuple[list, int]:
        cases = [(setting_case(p.label, what), x) for p, r in zip(spec.points, rows)
                 for what, x in (("mean place", r.place_diff), ("win rate", r.win_diff))]
        return cases, 2 * len(rows)

    def sentence(self, spec: Spec, point: Point, row: PairedRow) -> str:
        d = digits_for(row.place_diff.half)
        what = f"{spec.treatment_label} instead of {spec.control_label}"
        if point.label and spec.sweep_name not in ("players", "variant"):
            what = f"At {point.label}, {what[:1].lower() + what[1:]}"
        where = f"in {game_text(point)} with {opponents_text(point.opponents)}"
        if point.label and spec.sweep_name == "variant":
            where += f" ({point.label})"
        diff = row.place_diff
        if diff.significant():
            verb = "lowers (improves)" if diff.mean < 0 else "raises (worsens)"
            place = f"{verb} your mean place: {ci_text(diff, d)}"
        else:
            place = f"makes no significant difference to your mean place: {ci_text(diff, d)}"
        win = row.win_diff
        if win.significant():
            w = f"{'raises' if win.mean > 0 else 'lowers'} your win rate: {ci_text(win, 2, 100)} points"
        else:
            w = f"makes no significant difference to your win rate: {ci_text(win, 2, 100)} points"
        return f"{what} {place}, and {w}, {where}."

    def plain_sentence(self, spec: Spec, rows: list[PairedRow]) -> str:
        """The first sentence: the advice every settled setting supports (the spec's `advice` or
        `advice_against`), then what the treatment does at each setting, e.g. "Put your 10s face-up: it
        gains about 0.05 to 0.13 places a game at 2, 3, 4 and 5 players."."""
        diffs = [r.place_diff for r in rows]
        effects = [(p.label if len(rows) > 1 else "", x) for p, x in zip(spec.points, diffs)]
        settled = [x for x in diffs if verb_of(x)]
        agree = len({verb_of(x) for x in settled}) == 1  # every settled setting says the same
        lead, it = lead_words(spec, settled[0]) if settled and agree else ("", False)
        bodies = [f"{subject_words(spec, it, lead, bare)} {effects_text(effects, terse=terse)}"
                  for bare, terse in ((False, 0), (False, 1), (False, 2), (True, 2))]
        return plain_of_bodies(lead, bodies)

    def sweep_headline(self, spec: Spec, rows: list[PairedRow]) -> str:
        points, m = spec.points, len(rows)
        diffs = [r.place_diff for r in rows]
        better = [i for i, x in enumerate(diffs) if x.significant() and x.mean < 0]
        worse = [i for i, x in enumerate(diffs) if x.significant() and x.mean > 0]
        subject = f"{spec.treatment_label} instead of {spec.control_label}"
        words = _sweep_words(spec)
        tried = ", ".join(short_label(p.label) for p in points) if m <= 6 else f"{m} settings"
        adjusted = f"Holm-adjusted over the report's {2 * m} tests"
        scale = place_scale_words(spec)
        if len(better) == m or len(worse) == m:
            verb = "lowers (improves)" if better else "raises (worsens)"
            d = max(decimals_for(x.lo, x.hi, digits_for(x.half)) for x in diffs)
            low, high = min(abs(x.mean) for x in diffs), max(abs(x.mean) for x in diffs)
            return (f"{subject} {verb} your mean place at every {words} tried ({tried}), by "
                    f"{format_number(low, d)} to {format_number(high, d)} places{scale} (significant at "
                    f"{'both' if m == 2 else f'all {m}'}, {adjusted}); {opponents_text(spec.opponents)}.")
        parts = []
        for label, members in (("lowers (improves) it", better), ("raises (worsens) it", worse)):
            if members:
                parts.append(f"{label} at {_settings_text(points, members, m)}")
        level = [i for i in range(m) if i not in better and i not in worse]
        if level:
            parts.append(f"makes no significant difference at {_settings_text(points, level, m)}")
        return (f"{subject}, effect on your mean place{scale}: " + "; ".join(parts)
                + f" ({adjusted}); {opponents_text(spec.opponents)}.")

    def setup_lines(self, spec: Spec) -> tuple[list[str], list[str]]:
        """(lines above the common setup lines, the design paragraph below them)."""
        who = [f"- Treatment: `{spec.treatment}` ({spec.treatment_label})",
               f"- Control: `{spec.control}` ({spec.control_label})",
               f"- Opponents: {', '.join(f'`{o}`' for o in spec.opponents)} (opponent j sits j seats left "
               f"of the focal player, cycling through the list)"]
        streams = ("Both games use the same game id, so the opponents' random draws match."
                   if spec.streams == "shared" else
                   "The control game draws its strategies' randomness from its own streams (streams = "
                   "\"independent\").")
        design = ["", "Design: for each deal and each focal seat (every seat, so seat advantage cancels) the game "
                  "is played twice on the same cards with the same opponents: once with the treatment in the focal "
                  "seat, once with the control. " + streams
                  + " The effect is the focal player's place with the treatment minus with the control "
                  "(negative = the treatment finishes better); a deal's seats and both arms form one cluster, "
                  "and intervals are t intervals over deals."]
        return who, design

    def table(self, spec: Spec, rows: list[PairedRow]) -> list[str]:
        d = max(digits_for(r.place_diff.half) for r in rows)
        lines = ["| setting | deals | treatment mean place | control mean place | difference (95% CI) | p | Holm p | "
                 "win rate T / C | win-rate difference, points (95% CI) | p | Holm p | Idiot-rate difference, points | "
                 "variance reduction |", "|---" * 13 + "|"]
        for p, r in zip(spec.points, rows):
            lines.append(f"| {p.label or 'all'} | {r.deals:,} | {r.treatment_place:.4f} | {r.control_place:.4f} | "
                         f"{format_interval(r.place_diff, d)} | {format_p(r.place_diff.p)} | "
                         f"{format_p(r.place_diff.p_holm)} | "
                         f"{format_percent(r.treatment_win)} / {format_percent(r.control_win)} | "
                         f"{format_points_interval(r.win_diff)} | {format_p(r.win_diff.p)} | "
                         f"{format_p(r.win_diff.p_holm)} | "
                         f"{format_points_interval(r.idiot_diff)} | {format_ratio(r.variance_reduction)} |")
        lines += ["", "Game length (actions, R20) of the games that did not stall, and the stall rate:", "",
                  "| setting | mean length T / C (95% CI) | difference T - C (95% CI) | median T / C | "
                  "stall rate T / C (95% CI) |", "|---" * 5 + "|"]
        for p, r in zip(spec.points, rows):
            lines.append(f"| {p.label or 'all'} | {length_pair_text(r.treatment_length, r.control_length)} | "
                         f"{format_interval(r.length_diff, 2)} | {r.treatment_median:g} / {r.control_median:g} | "
                         f"{stall_pair_text(r.treatment_stall, r.control_stall)} |")
        return lines


def analyse_paired(st: PairedStatistics) -> PairedRow:
    n = st.n
    place, win, idiot = (mean_interval(m, n) for m in (st.diff, st.win_diff, st.idiot_diff))
    games = st.treatment_game.n
    unpaired = n * (st.treatment_game.var() + st.control_game.var())  # per-deal-sum scale: n games per arm
    paired = st.diff.var()
    t_len, c_len = st.treatment_length, st.control_length
    return PairedRow(
        deals=st.deals, seat_games=games,
        treatment_place=st.treatment_game.mean(), control_place=st.control_game.mean(), place_diff=place,
        treatment_win=st.treatment_wins.s1 / games, control_win=st.control_wins.s1 / games, win_diff=win,
        treatment_idiot=st.treatment_idiots.s1 / games, control_idiot=st.control_idiots.s1 / games,
        idiot_diff=idiot, variance_reduction=unpaired / paired if paired > 0 else float("inf"),
        treatment_length=t_len.mean(), control_length=c_len.mean(), length_diff=length_difference(st.length_pairs),
        treatment_median=t_len.median(), control_median=c_len.median(), treatment_stall=t_len.stall(),
        control_stall=c_len.stall())


def _settings_text(points, members: list[int], m: int) -> str:
    if m > 6 and len(members) > 3:
        return f"{len(members)} of {m}"
    return f"{len(members)} of {m} (" + ", ".join(short_label(points[i].label) for i in members) + ")"


def _sweep_words(spec: Spec) -> str:
    if spec.sweep_name == "players" and not spec.series_name:
        return "player count"
    if spec.sweep_name == "variant":
        return "variant"
    return "setting"



class LadderDesign(PairedDesign):
    """The ladder design: the paired design with a yardstick player as the control and one player a variant as
    the treatment (each in the focal seat among the same opponents, on the same deals), read as a ranking: who
    beats the yardstick at that table and who finishes behind it, and by how much."""
    name = "ladder"
    plot_panels = (("place_diff", 1, "mean place minus {control}'s", True),
                   ("win_diff", 100, "win rate minus {control}'s, points", True))

    def plain_sentence(self, spec: Spec, rows: list[PairedRow]) -> str:
        """E.g. "Among learned-search-4p opponents, nobody beats the gated player: learned-fast-4p finishes about
        0.04 places a game behind it, chart about 0.18 and basic about 0.23." (the unit once, at its first amount)."""
        ranked = sorted(zip(spec.points, rows), key=lambda pr: pr[1].place_diff.mean)
        settled = [(p.label, r.place_diff) for p, r in ranked if r.place_diff.significant()]
        ahead = [(label, x) for label, x in settled if x.mean < 0]
        behind = [(label, x) for label, x in settled if x.mean > 0]
        level = [p.label for p, r in ranked if not r.place_diff.significant()]
        clauses = []
        if ahead:
            clauses.append(_amounts(ahead, f"beats {spec.control_label} by about {{}}{PLACES}", "by about {}"))
        if behind:
            unit = "" if ahead else PLACES
            clauses.append(_amounts(behind, f"finishes about {{}}{unit} behind it", "about {}"))
        if level:
            clauses.append(_and(level) + (" is" if len(level) == 1 else " are") + " level with it")
        where = f"Among {opponents_text(spec.points[0].opponents)}"  # at the setting's player count
        head = f"{where}: " if ahead else f"{where}, nobody beats {spec.control_label}: "
        return head + "; ".join(clauses) + "."


def _amounts(labelled: list, first: str, rest: str) -> str:
    """'a finishes about 0.04 places a game behind it, b about 0.10 and c about 0.18'."""
    return _and([f"{label} {(first if i == 0 else rest).format(about(x.mean))}" for i, (label, x) in enumerate(labelled)])


def _and(items: list) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
