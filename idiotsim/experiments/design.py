"""The protocol every experiment design follows, and what a design hands back to be written."""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from idiotsim.runs.chunks import Executor
from idiotsim.experiments.spec import Spec


@dataclass(frozen=True)
class Rendered:
    """A design's report: NAME.md and NAME.csv text, the careful one-line answer, the other files it wrote,
    for the terminal (``idiotsim.cli.render``) the tournament summary behind a leaderboard or the main
    figures as a `CellTable`, and the plain first sentence."""
    markdown: str
    csv: str
    answer: str
    games: int
    files: list = field(default_factory=list)
    summary: object = None  # idiotsim.analysis.tournament_summary.Summary
    table: CellTable | None = None
    plain: str = ""  # the report's first sentence: the answer a player reads in five seconds


@dataclass(frozen=True)
class CellTable:
    """A table as formatted cells: its title, (header, justify) per column, the rows of cells, the
    columns a narrow terminal may leave out, and a note printed under it ("" for none)."""
    title: str
    columns: list
    rows: list
    optional: tuple = ()
    note: str = ""


class Design(Protocol):
    """Play a spec (planning its chunks and submitting them through ``idiotsim.runs.chunks``), analyse, render."""
    name: str
    full_size_files: tuple  # NAME + each: what a committed full-size report holds (the check requires them)

    def play(self, spec: Spec, out_dir: Path, games: int | None, precision: float | None, quick: bool,
             executor: Executor | None):
        """Play the spec's games (`out_dir`: where the report goes; a design may keep files there)."""

    def analyse(self, played):
        """The numbers of the report."""

    def render(self, played, analysis, out_dir: Path) -> Rendered:
        """The report's text; files beyond NAME.md and NAME.csv (plots) are written into `out_dir`."""

    def committed_games(self, spec: Spec, csv_path: Path) -> int:
        """The games a committed report's NAME.csv says it played (the index's size column)."""


def csv_games(csv_path: Path) -> int:
    """The sum of a report CSV's `games` column."""
    with Path(csv_path).open(newline="") as f:
        return sum(int(row["games"]) for row in csv.DictReader(f) if row.get("games", "").isdigit())
