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

from dataclasses import dataclass

import numpy as np

from idiotsim.experiments.deals import DealDesign
from idiotsim.experiments.play import DealStatistics, rotated_decks
from idiotsim.experiments.spec import Point, Spec, value_text
from idiotsim.experiments.text import (digits_for, format_interval, format_number, format_p_value, format_percent,
                                       format_points_interval, format_ratio, game_text, interval_cells, level_text,
                                       short_label)
from idiotsim.stats import Interval, Moments, mean_interval, welch_difference, wilson


class SeatStatistics(DealStatistics):
    """Exact sums of one seats point (n rotations of each deal)."""

    def __init__(self, n: int, compare_length: bool = False):
        self.n = n
        self.diff = Moments()  # per deal: sum over rotations of place(seat 0) - place(seat n-1)
        self.win_diff = Moments()
        self.seat_place = [Moments() for _ in range(n)]  # per deal: sum over rotations of seat k's place
        self.seat_win = [Moments() for _ in range(n)]
        self.first_game, self.last_game = Moments(), Moments()  # per game place of seat 0 / n-1
        self.length = Moments()  # per deal: sum of actions over rotations
        self.stalls = Moments()  # per deal: stalled games
        # per deal: length minus the first point's on the same deal (same deck size and players only)
        self.length_vs_first = Moments() if compare_length else None

    def add(self, places: np.ndarray, actions: np.ndarray, stalled: np.ndarray) -> np.ndarray:
        """places (deals, n rotations, n seats), actions and stalled (deals, n). Returns per-deal length."""
        n = self.n
        p = places.astype(np.int64)
        first, last = p[:, :, 0], p[:, :, n - 1]
        self.diff.add((first - last).sum(axis=1))
        self.win_diff.add((first == 1).sum(axis=1) - (last == 1).sum(axis=1))
        for k in range(n):
            self.seat_place[k].add(p[:, :, k].sum(axis=1))
            self.seat_win[k].add((p[:, :, k] == 1).sum(axis=1))
        self.first_game.add(first.ravel())
        self.last_game.add(last.ravel())
        length = actions.astype(np.int64).sum(axis=1)
        self.length.add(length)
        self.stalls.add(stalled.astype(np.int64).sum(axis=1))
        return length


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
    length: Interval
    stall: Interval  # stall rate with its Wilson interval
    seat_win: tuple  # Interval per seat
    seat_place: tuple  # mean place per seat
    length_vs_first: Interval | None = None  # game length minus the first variant's
    length_paired: bool | None = None  # ... paired by deal (else Welch)
    alpha: float | None = None  # sequential mode: the level of the intervals

    @property
    def games(self) -> int:
        return self.deals * self.players

    def csv_cells(self) -> dict:
        cells = {"players": self.players, "deals": self.deals, "games": self.games,
                 "first_place": self.first_place, "last_place": self.last_place,
                 **interval_cells("diff", self.place_diff, half=True), **interval_cells("win", self.win_diff),
                 "first_win": self.seat_win[0].mean,
                 "first_edge": self.seat_win[0].mean - 1 / self.players,
                 "variance_reduction": self.variance_reduction, "length": self.length.mean,
                 "length_lo": self.length.lo, "length_hi": self.length.hi,
                 "stall": self.stall.mean, "stall_lo": self.stall.lo, "stall_hi": self.stall.hi}
        if self.length_vs_first is not None:
            x = self.length_vs_first
            cells.update(length_vs_base=x.mean, length_vs_base_lo=x.lo, length_vs_base_hi=x.hi,
                         length_vs_base_p=x.p, length_paired=self.length_paired)
        for k, (win, place) in enumerate(zip(self.seat_win, self.seat_place)):
            cells.update({f"seat{k}_win": win.mean, f"seat{k}_win_lo": win.lo, f"seat{k}_win_hi": win.hi,
                          f"seat{k}_place": place})
        return cells


class SeatsDesign(DealDesign):
    name = "seats"
    chunk_games = 50_000  # the seats design also holds the rotated decks (up to 104 int64 a game)
    csv_columns = ("setting", "players", "deals", "games", "first_place", "last_place", "diff", "diff_lo", "diff_hi",
                   "diff_half", "diff_p", "win_diff", "win_lo", "win_hi", "win_p", "first_win", "first_edge",
                   "variance_reduction", "length", "length_lo", "length_hi", "length_vs_base", "length_vs_base_lo",
                   "length_vs_base_hi", "length_vs_base_p", "length_paired", "stall", "stall_lo", "stall_hi")
    effect_words = "Differences are seat 0 minus seat n-1"
    pairing_words = "the rotated deals"
    plot_panels = (("place_diff", 1, "mean place, seat 0 minus seat n-1", True),
                   ("length", 1, "mean actions per game", False),
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
                stats[i].length_vs_first.add(length - first_length)

    # ---- analysis ------------------------------------------------------------------

    def analyse(self, played) -> list[SeatsRow]:
        stats = played.stats
        first = stats[0] if played.spec.sweep_name == "variant" else None  # length against the first variant
        return [analyse_seats(st, first, played.alpha, played.looks) for st in stats]

    # ---- text ----------------------------------------------------------------------

    def sentence(self, spec: Spec, point: Point, row: SeatsRow) -> str:
        d = digits_for(row.place_diff.half)
        n = point.players
        diff, level = row.place_diff, level_text(row.alpha)
        who = f"in {game_text(point)} of {point.strategy} players"
        if point.label and spec.sweep_name == "variant":
            who += f" ({point.label})"
        if diff.excludes_zero():
            verb = "better" if diff.mean < 0 else "worse"
            a, b = sorted((abs(diff.lo), abs(diff.hi)))
            s = (f"Sitting first (seat 0) rather than last (seat {n - 1}) makes the same cards finish "
                 f"{format_number(abs(diff.mean), d)} places {verb} on average ({level} {format_number(a, d)} to "
                 f"{format_number(b, d)})")
        else:
            s = (f"Sitting first (seat 0) rather than last (seat {n - 1}) makes no significant difference to the "
                 f"mean place: {format_number(diff.mean, d, sign=True)} ({level} "
                 f"{format_number(diff.lo, d, sign=True)} to {format_number(diff.hi, d, sign=True)})")
        seat0 = row.seat_win[0]
        return (f"{s}; seat 0 wins {format_percent(seat0.mean)} of games ({level} {format_percent(seat0.lo)} to "
                f"{format_percent(seat0.hi)}) against a fair share of {format_percent(1 / n)}, {who}.")

    def sweep_headline(self, spec: Spec, rows: list[SeatsRow]) -> str:
        points, m = spec.points, len(rows)
        d = max(digits_for(r.place_diff.half) for r in rows)
        level = level_text(rows[0].alpha)

        def cell(r: SeatsRow, label: str) -> str:
            star = "*" if r.place_diff.excludes_zero() else ""
            return f"{label} {format_number(r.place_diff.mean, d, sign=True)}{star}"

        if spec.series_name:
            groups: dict = {}
            for p, r in zip(points, rows):
                groups.setdefault(p.series, []).append(cell(r, short_label(f"{spec.sweep_name}={value_text(p.x)}")))
            body = "; ".join(f"{s}: " + ", ".join(cells) for s, cells in groups.items())
        else:
            body = "; ".join(cell(r, short_label(p.label) + ":") for p, r in zip(points, rows))
        text = (f"Mean place of the same cards in seat 0 (who starts) minus in the last seat (* = {level} excludes 0): "
                f"{body}.")
        if spec.sweep_name == "variant":
            longest = max(range(m), key=lambda i: (rows[i].length.mean, -i))
            shortest = min(range(m), key=lambda i: (rows[i].length.mean, i))
            stall = max(range(m), key=lambda i: (rows[i].stall.mean, -i))
            text = (f"Game length ranges from {rows[shortest].length.mean:.1f} actions ({points[shortest].label}) to "
                    f"{rows[longest].length.mean:.1f} ({points[longest].label}); the highest stall rate is "
                    f"{format_percent(rows[stall].stall.mean, 3)} ({points[stall].label}). " + text)
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


def analyse_seats(st: SeatStatistics, first: SeatStatistics | None, alpha: float | None = None,
                  looks: int = 1) -> SeatsRow:
    n = st.n
    place, win = mean_interval(st.diff, n, alpha), mean_interval(st.win_diff, n, alpha)
    if alpha is not None:
        place, win = (x.with_p(min(1.0, x.p * 2 ** looks)) for x in (place, win))
    games = st.length.n * n
    unpaired = n * (st.first_game.var() + st.last_game.var())
    paired = st.diff.var()
    length = mean_interval(st.length, n, alpha)
    stall_lo, stall_hi = wilson(st.stalls.s1, games)
    length_vs_first, length_paired = None, None
    if first is not None and first is not st:
        if st.length_vs_first is not None:
            length_vs_first, length_paired = mean_interval(st.length_vs_first, n, alpha), True
        elif st.n == first.n:  # same players, other deals: Welch interval of the difference of means
            length_vs_first = welch_difference(mean_interval(st.length, n), mean_interval(first.length, n), alpha)
            length_paired = False
    return SeatsRow(
        players=n, deals=st.deals, first_place=st.first_game.mean(), last_place=st.last_game.mean(),
        place_diff=place, win_diff=win, variance_reduction=unpaired / paired if paired > 0 else float("inf"),
        length=length, stall=Interval(st.stalls.s1 / games, stall_lo, stall_hi),
        seat_win=tuple(mean_interval(st.seat_win[k], n, alpha) for k in range(n)),
        seat_place=tuple(mean_interval(st.seat_place[k], n, alpha).mean for k in range(n)),
        length_vs_first=length_vs_first, length_paired=length_paired, alpha=alpha)


def _same_deals(spec: Spec, point: Point) -> bool:
    """A variant shuffles the same decks as the first one: game length pairs by deal."""
    first = spec.points[0]
    return (spec.sweep_name == "variant" and point.players == first.players
            and point.rules.num_cards == first.rules.num_cards)


def _difference_table(spec: Spec, rows: list[SeatsRow]) -> list[str]:
    d = max(digits_for(r.place_diff.half) for r in rows)
    lines = ["| setting | players | deals | seat 0 minus seat n-1, mean place (95% CI) | p | "
             "win-rate difference, points (95% CI) | seat 0 win rate (fair share) | variance reduction |",
             "|---" * 8 + "|"]
    for p, r in zip(spec.points, rows):
        lines.append(f"| {p.label or 'all'} | {p.players} | {r.deals:,} | {format_interval(r.place_diff, d)} | "
                     f"{format_p_value(r.place_diff.p)} | {format_points_interval(r.win_diff)} | "
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
    lines = ["", "Game length and stalls:", "", "| setting | mean actions per game (95% CI) | "
             + ("difference vs " + spec.points[0].label + " (95% CI) | p | " if compare else "")
             + "stall rate (Wilson 95% CI) |", "|---" * (3 + 2 * compare) + "|"]
    for p, r in zip(spec.points, rows):
        cells = [p.label or "all", f"{r.length.mean:.2f} ({r.length.lo:.2f} to {r.length.hi:.2f})"]
        if compare:
            x = r.length_vs_first
            if x is None:
                cells += ["-", "-"]
            else:
                cells += [f"{x.mean:+.2f} ({x.lo:+.2f} to {x.hi:+.2f}){'' if r.length_paired else ' unpaired'}",
                          format_p_value(x.p)]
        stall = r.stall
        cells.append(f"{format_percent(stall.mean, 4)} ({format_percent(stall.lo, 4)} to "
                     f"{format_percent(stall.hi, 4)})")
        lines.append("| " + " | ".join(cells) + " |")
    return lines
