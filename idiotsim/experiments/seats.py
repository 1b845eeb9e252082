"""The seats design: one strategy in every seat, each deal played once per seat rotation.

The dealt cards are rotated (the blind, face-up and hand cards dealt to seat h go
to seat h + r), so every hand is played from every seat, the talon unchanged. The
effect is the place of a hand sitting first (seat 0, who starts by R7) minus the
same hand sitting last (seat n-1), paired by deal. Also per seat win rates and
mean places, game length and stall rate; with a ``variants`` sweep, game length
against the first variant on the same deals (paired when the deck size and player
count match, else unpaired).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from idiotsim.experiments.deals import DealDesign
from idiotsim.experiments.deal_play import DealStatistics, GameLengths, length_difference, rotated_decks
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.spec_points import Point
from idiotsim.experiments.strategy_text import value_text
from idiotsim.experiments.text import (ci_text, digits_for, estimate_cells, format_interval, format_number,
                                       format_percent, format_points_interval, format_ratio, game_text, interval_cells,
                                       length_text, place_scale_words, sentence_of, setting_case, short_label,
                                       stall_text)
from idiotsim.experiments.text import effects_text, fitting
from idiotsim.analysis.stats import ClusterSums, Interval, Moments, adjust_holm, format_p, mean_interval, welch_difference


class SeatStatistics(DealStatistics):
    """Exact sums of one seats point (n rotations of each deal)."""

    def __init__(self, n: int, compare_length: bool = False):
        self.n = n
        self.diff = Moments()  # per deal: sum over rotations of place(seat 0) - place(seat n-1)
        self.win_diff = Moments()
        self.seat_place = [Moments() for _ in range(n)]  # per deal: sum over rotations of seat k's place
        self.seat_win = [Moments() for _ in range(n)]
        self.first_game, self.last_game = Moments(), Moments()  # per game place of seat 0 / n-1
        self.length = GameLengths()
        # per deal: the first point's (actions, games) that did not stall, then this point's (same deals only)
        self.length_vs_first = ClusterSums(4) if compare_length else None

    def add(self, places: np.ndarray, actions: np.ndarray, stalled: np.ndarray) -> np.ndarray:
        """places (deals, n rotations, n seats), actions and stalled (deals, n). Returns per deal the
        (actions, games) of the games that did not stall."""
        n = self.n
        p = places.astype(np.int64)
        first, last = p[:, :, 0], p[:, :, n - 1]
        self.add_differences((first - last).sum(axis=1))
        self.win_diff.add((first == 1).sum(axis=1) - (last == 1).sum(axis=1))
        for k in range(n):
            self.seat_place[k].add(p[:, :, k].sum(axis=1))
            self.seat_win[k].add((p[:, :, k] == 1).sum(axis=1))
        self.first_game.add(first.ravel())
        self.last_game.add(last.ravel())
        return self.length.add(actions, stalled)


@dataclass(frozen=True)
class SeatsRow:
    """The analysed numbers of one seats point (differences are seat 0 minus seat n-1)."""
    players: int
    deals: int
    first_place: float
    last_place: float
    place_diff: Interval
    win_diff: Interval
    variance_reduction: float
    length: Interval  # mean length of the games that did not stall
    length_median: float
    stall: Interval  # stall rate, clustered by deal
    seat_win: tuple  # Interval per seat
    seat_place: tuple  # mean place per seat
    length_vs_first: Interval | None = None  # game length (games that did not stall) minus the first variant's
    length_paired: bool | None = None  # ... paired by deal (else Welch)

    @property
    def games(self) -> int:
        return self.deals * self.players

    def csv_cells(self) -> dict:
        cells = {"players": self.players, "deals": self.deals, "games": self.games,
                 "first_place": self.first_place, "last_place": self.last_place,
                 **interval_cells("diff", self.place_diff, half=True), **interval_cells("win", self.win_diff),
                 "first_win": self.seat_win[0].mean,
                 "first_edge": self.seat_win[0].mean - 1 / self.players,
                 "variance_reduction": self.variance_reduction, **estimate_cells("length", self.length),
                 "length_median": self.length_median, **estimate_cells("stall", self.stall),
                 "diff_p_holm": self.place_diff.p_holm, "win_p_holm": self.win_diff.p_holm}
        if self.length_vs_first is not None:
            x = self.length_vs_first
            cells.update(length_vs_base=x.mean, length_vs_base_lo=x.lo, length_vs_base_hi=x.hi,
                         length_vs_base_p=x.p, length_vs_base_p_holm=x.p_holm, length_paired=self.length_paired)
        for k, (win, place) in enumerate(zip(self.seat_win, self.seat_place)):
            cells.update({f"seat{k}_win": win.mean, f"seat{k}_win_lo": win.lo, f"seat{k}_win_hi": win.hi,
                          f"seat{k}_place": place})
        return cells


class SeatsDesign(DealDesign):
    name = "seats"
    chunk_games = 50_000  # the seats design also holds the rotated decks (up to 104 int64 a game)
    csv_columns = ("setting", "players", "deals", "games", "first_place", "last_place", "diff", "diff_lo", "diff_hi",
                   "diff_half", "diff_p", "win_diff", "win_lo", "win_hi", "win_p", "first_win", "first_edge",
                   "variance_reduction", "length", "length_lo", "length_hi", "length_median", "length_vs_base",
                   "length_vs_base_lo", "length_vs_base_hi", "length_vs_base_p", "length_vs_base_p_holm",
                   "length_paired", "stall", "stall_lo", "stall_hi", "diff_p_holm", "win_p_holm")
    effect_words = "Differences are seat 0 minus seat n-1"
    pairing_words = "the rotated deals"
    plot_panels = (("place_diff", 1, "mean place, seat 0 minus seat n-1", True),
                   ("length", 1, "mean actions, games that did not stall", False),
                   ("stall", 100, "stall rate, %", False))

    def csv_columns_for(self, spec: Spec) -> tuple:
        n_max = max(p.players for p in spec.points)
        per_seat = ("win", "win_lo", "win_hi", "place")
        return self.csv_columns + tuple(f"seat{k}_{column}" for k in range(n_max) for column in per_seat)

    # ---- play ----------------------------------------------------------------------

    def games_per_deal(self, point: Point) -> int:
        return point.players

    def seat_specs(self, point: Point) -> tuple[list, list]:
        return [point.strategy], [point.strategy]

    def games(self, spec: Spec, point: Point, deals: np.ndarray) -> dict:
        """Game index (d - d0) * n + rotation, on the deal's cards rotated by `rotation` seats."""
        n, m = point.players, len(deals)
        deal_ids = np.repeat(deals, n)
        rotations = np.tile(np.arange(n), m)
        decks = rotated_decks(point.rules, spec.seed, deal_ids, rotations)
        return dict(game_ids=deal_ids * n + rotations, deal_ids=deal_ids, seating=np.zeros((m * n, n), dtype=np.int8),
                    decks=decks)

    def new_statistics(self, spec: Spec, point: Point) -> SeatStatistics:
        return SeatStatistics(point.players, compare_length=point is not spec.points[0] and _same_deals(spec, point))

    def add(self, stats: SeatStatistics, outputs: dict, deals: int) -> np.ndarray:
        n = stats.n
        return stats.add(outputs["places"].reshape(deals, n, n), outputs["actions"].reshape(deals, n),
                         outputs["stalled"].reshape(deals, n))

    def pair_with_first(self, stats: list, added: dict) -> None:
        """Game length against the first point's on the same deals."""
        for i, (lo, hi, length) in added.items():
            if stats[i].length_vs_first is not None:
                first_lo, first_hi, first_length = added[0]
                assert (first_lo, first_hi) == (lo, hi)
                stats[i].length_vs_first.add(np.column_stack([first_length, length]))

    # ---- analysis ------------------------------------------------------------------

    def analyse(self, played) -> list[SeatsRow]:
        """One row per point; the differences of all points (mean place, win rate, game length against the
        first variant) form one Holm family."""
        stats = played.stats
        first = stats[0] if played.spec.sweep_name == "variant" else None  # length against the first variant
        rows = [analyse_seats(st, first) for st in stats]
        m = len(rows)
        tested = adjust_holm([r.place_diff for r in rows] + [r.win_diff for r in rows]
                             + [r.length_vs_first for r in rows])
        return [replace(r, place_diff=tested[i], win_diff=tested[m + i], length_vs_first=tested[2 * m + i])
                for i, r in enumerate(rows)]

    # ---- text ----------------------------------------------------------------------

    def holm_cases(self, spec: Spec, rows: list[SeatsRow]) -> tuple[list, int]:
        cases = [(setting_case(p.label, what), x) for p, r in zip(spec.points, rows)
                 for what, x in (("mean place", r.place_diff), ("win rate", r.win_diff),
                                 (f"game length against {spec.points[0].label}", r.length_vs_first))]
        return cases, sum(x is not None for _, x in cases)

    def sentence(self, spec: Spec, point: Point, row: SeatsRow) -> str:
        d = digits_for(row.place_diff.half)
        n = point.players
        diff = row.place_diff
        who = f"in {game_text(point)} of {point.strategy} players"
        if point.label and spec.sweep_name == "variant":
            who += f" ({point.label})"
        start = f"Sitting first (seat 0) rather than last (seat {n - 1})"
        if diff.significant():
            s = (f"{start} makes the same cards finish {'better' if diff.mean < 0 else 'worse'}: mean place "
                 f"{ci_text(diff, d)}")
        else:
            s = f"{start} makes no significant difference to the mean place: {ci_text(diff, d)}"
        seat0 = row.seat_win[0]
        return (f"{s}; seat 0 wins {format_percent(seat0.mean)} of games (95% CI {format_percent(seat0.lo)} to "
                f"{format_percent(seat0.hi)}) against a fair share of {format_percent(1 / n)}, {who}.")

    def plain_sentence(self, spec: Spec, rows: list[SeatsRow]) -> str:
        """The first sentence: what sitting first rather than last does to the same cards, setting by setting
        (the first series only, named, where the sweep has series)."""
        picked = [i for i, p in enumerate(spec.points) if p.series == spec.points[0].series]
        effects = [(_setting_words(spec, spec.points[i]) if len(rows) > 1 else "", rows[i].place_diff) for i in picked]
        where = f" (with {spec.points[0].series})" if spec.series_name else ""
        firsts = [f"sitting first rather than last {effects_text(effects, terse=terse)}{where}" for terse in (0, 1, 2)]
        if spec.sweep_name != "variant":
            return fitting([sentence_of("", first) for first in firsts])
        changed = [(p, r.length_vs_first) for p, r in zip(spec.points[1:], rows[1:])
                   if r.length_vs_first is not None and r.length_vs_first.significant()]
        length = f"Games last {rows[0].length.mean:.0f} actions at {spec.points[0].label}"
        if changed:
            longest, shortest = max(changed, key=lambda c: c[1].mean), min(changed, key=lambda c: c[1].mean)
            if longest[1].mean > 0:
                length += f"; {longest[0].label} makes them longest ({longest[1].mean:+.0f})"
            if shortest[1].mean < 0:
                length += f"; {shortest[0].label} shortest ({shortest[1].mean:+.0f})"
        return fitting([sentence_of("", f"{length}; {first}") for first in firsts]
                       + [sentence_of("", length) + " " + sentence_of("", firsts[0])])

    def sweep_headline(self, spec: Spec, rows: list[SeatsRow]) -> str:
        points, m = spec.points, len(rows)
        d = max(digits_for(r.place_diff.half) for r in rows)

        def cell(r: SeatsRow, label: str) -> str:
            star = "*" if r.place_diff.significant() else ""
            return f"{label} {format_number(r.place_diff.mean, d, sign=True)}{star}"

        if spec.series_name:
            groups: dict = {}
            for p, r in zip(points, rows):
                groups.setdefault(p.series, []).append(cell(r, short_label(f"{spec.sweep_name}={value_text(p.x)}")))
            body = "; ".join(f"{s}: " + ", ".join(cells) for s, cells in groups.items())
        else:
            body = "; ".join(cell(r, short_label(p.label) + ":") for p, r in zip(points, rows))
        tests = sum(x is not None for r in rows for x in (r.place_diff, r.win_diff, r.length_vs_first))
        text = (f"Mean place of the same cards in seat 0 (who starts) minus in the last seat{place_scale_words(spec)} "
                f"(* = significant, Holm-adjusted over the report's {tests} tests): {body}.")
        if spec.sweep_name == "variant":
            text = _length_headline(spec, rows) + " " + text
        return text

    def setup_lines(self, spec: Spec) -> tuple[list[str], list[str]]:
        """(lines above the common setup lines, the design paragraph below them)."""
        design = ["", "Design: each deal is played once per seat rotation: the blind, face-up and hand cards "
                  "dealt to seat h go to seat h + r (r = 0..n-1), the talon unchanged, so every hand is played "
                  "from every seat. The effect is the place of a hand in seat 0 (who starts, R7) minus the same "
                  "hand in the last seat n-1, paired by deal (a deal's n games are one cluster)."
                  + (" With `lowest_starts` (R8) the starter is chosen by the cards, so rotating the seats does "
                     "not change who starts: the difference left is the tie-break (ties go to the first seat "
                     "in turn order) and nothing else." if any(p.rules.lowest_starts for p in spec.points) else "")]
        if spec.sweep_name == "variant":
            design += ["", "Game length (actions, R20) and stall rate per variant; the length difference against "
                       f"the first variant ({spec.points[0].label}) is paired by deal where the deck and the player "
                       "count match (same shuffles), else unpaired (Welch)."]
        return [f"- Every seat plays `{spec.strategy}`"], design

    def table(self, spec: Spec, rows: list[SeatsRow]) -> list[str]:
        return _difference_table(spec, rows) + _seat_win_table(spec, rows) + _length_table(spec, rows)


def analyse_seats(st: SeatStatistics, first: SeatStatistics | None) -> SeatsRow:
    n = st.n
    place, win = mean_interval(st.diff, n), mean_interval(st.win_diff, n)
    unpaired = n * (st.first_game.var() + st.last_game.var())
    paired = st.diff.var()
    length_vs_first, length_paired = None, None
    if first is not None and first is not st:
        if st.length_vs_first is not None:
            length_vs_first, length_paired = length_difference(st.length_vs_first), True
        elif st.n == first.n:  # same players, other deals: Welch interval of the difference of means
            length_vs_first, length_paired = welch_difference(st.length.mean(), first.length.mean()), False
    return SeatsRow(
        players=n, deals=st.deals, first_place=st.first_game.mean(), last_place=st.last_game.mean(),
        place_diff=place, win_diff=win, variance_reduction=unpaired / paired if paired > 0 else float("inf"),
        length=st.length.mean(), length_median=st.length.median(), stall=st.length.stall(),
        seat_win=tuple(mean_interval(st.seat_win[k], n).as_rate() for k in range(n)),
        seat_place=tuple(mean_interval(st.seat_place[k], n).mean for k in range(n)),
        length_vs_first=length_vs_first, length_paired=length_paired)


def _length_headline(spec: Spec, rows: list[SeatsRow]) -> str:
    """Game length of each variant against the first, paired on the same deals (Holm-adjusted)."""
    base = spec.points[0].label
    changes = {"longer": [], "shorter": [], "no significant change": []}
    for p, r in zip(spec.points[1:], rows[1:]):
        x = r.length_vs_first
        if x is None:
            continue
        key = "no significant change" if not x.significant() else ("longer" if x.mean > 0 else "shorter")
        changes[key].append(f"{p.label} {format_number(x.mean, 1, sign=True)}")
    parts = [f"{k} at {', '.join(v)}" for k, v in changes.items() if v]
    stalls = [r.stall.mean for r in rows]
    return (f"Games that did not stall last {format_number(rows[0].length.mean, 1)} actions on average at {base}; "
            f"against it (actions, paired on the same deals where the deck matches): " + "; ".join(parts)
            + f". Stall rates run from {format_percent(min(stalls), 3)} to {format_percent(max(stalls), 3)} "
            "(table below).")


def _same_deals(spec: Spec, point: Point) -> bool:
    """A variant shuffles the same decks as the first one: game length pairs by deal."""
    first = spec.points[0]
    return (spec.sweep_name == "variant" and point.players == first.players
            and point.rules.num_cards == first.rules.num_cards)


def _difference_table(spec: Spec, rows: list[SeatsRow]) -> list[str]:
    d = max(digits_for(r.place_diff.half) for r in rows)
    lines = ["| setting | players | deals | seat 0 minus seat n-1, mean place (95% CI) | p | Holm p | "
             "win-rate difference, points (95% CI) | Holm p | seat 0 win rate (fair share) | variance reduction |",
             "|---" * 10 + "|"]
    for p, r in zip(spec.points, rows):
        lines.append(f"| {p.label or 'all'} | {p.players} | {r.deals:,} | {format_interval(r.place_diff, d)} | "
                     f"{format_p(r.place_diff.p)} | {format_p(r.place_diff.p_holm)} | "
                     f"{format_points_interval(r.win_diff)} | {format_p(r.win_diff.p_holm)} | "
                     f"{format_percent(r.seat_win[0].mean)} ({format_percent(1 / p.players)}) | "
                     f"{format_ratio(r.variance_reduction)} |")
    return lines


def _seat_win_table(spec: Spec, rows: list[SeatsRow]) -> list[str]:
    n_max = max(p.players for p in spec.points)
    lines = ["", "Win rate by seat (95% CI over deals):", "",
             "| setting | " + " | ".join(f"seat {k}" for k in range(n_max)) + " |", "|---" * (n_max + 1) + "|"]
    for p, r in zip(spec.points, rows):
        cells = [f"{format_percent(w.mean)} ({format_percent(w.lo)} to {format_percent(w.hi)})" for w in r.seat_win]
        cells += [""] * (n_max - len(cells))
        lines.append(f"| {p.label or 'all'} | " + " | ".join(cells) + " |")
    return lines


def _length_table(spec: Spec, rows: list[SeatsRow]) -> list[str]:
    compare = spec.sweep_name == "variant"
    lines = ["", "Game length (actions, R20) of the games that did not stall, and the stall rate:", "",
             "| setting | mean length (95% CI) | median | "
             + ("difference vs " + spec.points[0].label + " (95% CI) | p | Holm p | " if compare else "")
             + "stall rate (95% CI over deals) |", "|---" * (4 + 3 * compare) + "|"]
    for p, r in zip(spec.points, rows):
        cells = [p.label or "all", length_text(r.length), f"{r.length_median:g}"]
        if compare:
            x = r.length_vs_first
            if x is None:
                cells += ["-", "-", "-"]
            else:
                cells += [format_interval(x, 2) + ("" if r.length_paired else " unpaired"), format_p(x.p),
                          format_p(x.p_holm)]
        cells.append(stall_text(r.stall))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _setting_words(spec: Spec, point: Point) -> str:
    """A setting as a plain sentence names it: `players=3` as `3 players`, a series' point by its sweep value."""
    if spec.series_name:
        return short_label(f"{spec.sweep_name}={value_text(point.x)}")
    return point.label
