"""What the deal designs (paired, seats) share: the protocol's play, analyse and render steps."""
from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path

import numpy as np

from idiotsim.runs.chunks import Executor
from idiotsim.errors import UserError
from idiotsim.experiments.design import Rendered, csv_games
from idiotsim.experiments.deal_play import Played, play_deals, point_cost
from idiotsim.experiments.report_plots import plot
from idiotsim.experiments.report_markdown import csv_text, headline, main_figures, markdown
from idiotsim.experiments.spec import Spec
from idiotsim.experiments.spec_points import Point

QUICK_GAMES = 4_000  # games per point with --quick, at the cost of basic (fewer for costly seats: quick_games)


def quick_games(spec: Spec) -> int:
    """The --quick size of a point: QUICK_GAMES games of basic's cost, so a spec with search seats
    (thousands of games of basic a game) checks in seconds too (at least 2 deals a point, `deals_for`)."""
    return max(1, int(QUICK_GAMES / max(1.0, max(point_cost(p) for p in spec.points))))


class DealDesign(ABC):
    """A design that plays every point on deals 0, 1, 2, ... and keeps exact per-deal sums.

    A subclass says how a point's deals become games (`games_per_deal`, `seat_specs`,
    `games`), how the outputs enter its statistics (`new_statistics`, `add`,
    `pair_with_first`), how they are analysed (`analyse`) and its parts of the report
    (`sentence`, `sweep_headline`, `setup_lines`, `table`, the class attributes)."""
    name: str
    chunk_games: int  # games per play_seated call: memory stays flat
    csv_columns: tuple
    effect_words: str  # "Differences are ... minus ..."
    pairing_words: str  # what the pairing is on
    plot_panels: tuple  # (row attribute, scale, y label, draw the zero line) per panel
    full_size_files = (".md", ".csv", ".png")

    # ---- the protocol ----------------------------------------------------------------

    def play(self, spec: Spec, out_dir: Path, games: int | None = None, precision: float | None = None,
             quick: bool = False, executor: Executor | None = None) -> Played:
        """Play each point's size (or `games`, or the --quick size, for every point); `precision`: sequential mode."""
        size = quick_games(spec) if quick and games is None else games
        if precision is not None and not 0 < precision < 10:
            raise UserError(f"--precision must be a positive mean-place half-width below 10, got {precision}")
        return play_deals(self, spec, size, precision, quick, executor)

    def committed_games(self, spec: Spec, csv_path: Path) -> int:
        return csv_games(csv_path)

    @abstractmethod
    def analyse(self, played: Played) -> list:
        """One typed row per point."""

    def render(self, played: Played, rows: list, out_dir: Path) -> Rendered:
        """The report's Markdown, CSV and answer; the plot NAME.png into `out_dir`."""
        spec = played.spec
        png = plot(self, spec, rows, Path(out_dir) / f"{spec.name}.png")
        return Rendered(markdown(self, played, rows, png.name), csv_text(self, spec, rows), headline(self, spec, rows),
                        sum(r.games for r in rows), [png], table=self.main_figures(spec, rows),
                        plain=self.plain_sentence(spec, rows))

    # ---- play ------------------------------------------------------------------------

    @abstractmethod
    def games_per_deal(self, point: Point) -> int:
        """Games in one deal's cluster (its seats, arms or rotations)."""

    @abstractmethod
    def seat_specs(self, point: Point) -> tuple[list, list]:
        """(strategy specs, labels) of the strategies the seating matrix indexes."""

    @abstractmethod
    def games(self, spec: Spec, point: Point, deals: np.ndarray) -> dict:
        """game_ids, deal_ids, seating and decks (None: dealt from the seed) of these deals' games."""

    @abstractmethod
    def new_statistics(self, spec: Spec, point: Point):
        """Empty exact sums for one point (a ``DealStatistics``)."""

    @abstractmethod
    def add(self, stats, outputs: dict, deals: int):
        """Add a chunk's outputs (`deals` deals, in deal order); return what `pair_with_first` needs."""

    def pair_with_first(self, stats: list, added: dict) -> None:
        """After a chunk: per-deal comparisons with the first point ({point index: (lo, hi, add()'s value)})."""

    # ---- report ----------------------------------------------------------------------

    def csv_columns_for(self, spec: Spec) -> tuple:
        return self.csv_columns

    def point_cells(self, point: Point) -> dict:
        """CSV cells that describe a setting beyond its label (none by default)."""
        return {}

    def main_figures(self, spec: Spec, rows: list):
        """The terminal's table of the report's main figures (a ``CellTable``)."""
        return main_figures(self, spec, rows)

    @abstractmethod
    def holm_cases(self, spec: Spec, rows: list) -> tuple[list, int]:
        """([(name, Interval)] of the Holm-tested intervals the report prints, the size of its Holm family):
        for ``text.unadjusted_note``."""

    @abstractmethod
    def plain_sentence(self, spec: Spec, rows: list) -> str:
        """The report's first sentence: the answer a player reads in five seconds."""

    def size_notes(self, spec: Spec, rows: list) -> list[str]:
        """The design's own lines under the Size heading (after the precision of the mean place difference)."""
        return []
