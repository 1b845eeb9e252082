"""Writing reports: each spec through its design's protocol into NAME.md, NAME.csv and its plots."""
from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from idiotsim.runs.chunks import Executor
from idiotsim.errors import UserError
from idiotsim.experiments.chart_design import ChartDesign
from idiotsim.experiments.design import Design
from idiotsim.experiments.disagreement import DisagreementDesign
from idiotsim.experiments.index import index_markdown
from idiotsim.experiments.leaderboard import LeaderboardDesign
from idiotsim.experiments.paired_design import LadderDesign, PairedDesign
from idiotsim.experiments.report_markdown import ANSWER_MARK, plain_of
from idiotsim.experiments.seats import SeatsDesign
from idiotsim.experiments.spec import Spec, load_spec, spec_paths
from idiotsim.experiments.strong import ExpertsDesign, StrongDesign
from idiotsim.runs.atomic_files import make_folder, write_atomic

DESIGNS: dict[str, Design] = {d.name: d for d in (PairedDesign(), LadderDesign(), StrongDesign(), ExpertsDesign(),
                                                  SeatsDesign(), LeaderboardDesign(), DisagreementDesign(), ChartDesign())}
CHECK_FOLDER = "check"  # reports/check/NAME.*: the reduced-size results CI compares (a spec's check_games)


@dataclass(frozen=True)
class Written:
    spec: Spec
    answer: str
    files: list
    games: int
    summary: object = None  # a leaderboard's idiotsim.analysis.tournament_summary.Summary
    table: object = None  # the main figures of a deal design (idiotsim.experiments.design.CellTable)
    plain: str = ""  # the report's plain first sentence


def write_report(spec: Spec, out_dir=None, games: int | None = None, quick: bool = False,
                 precision: float | None = None, executor: Executor | None = None) -> Written:
    """Play `spec` and write NAME.md, NAME.csv and its plots into out_dir (default: the spec's folder); at its
    full size a spec with `check_games` also writes its reduced-size result into out_dir/check/."""
    out = make_folder(Path(out_dir) if out_dir is not None else Path(spec.path).parent)
    written = _write(spec, out, games, quick, precision, executor)
    if spec.check_games and games is None and not quick and precision is None:
        check = write_check(spec, out, executor)
        written = replace(written, files=written.files + check.files)
    return written


def write_check(spec: Spec, out_dir, executor: Executor | None = None) -> Written:
    """The spec's reduced-size result (`check_games` a setting) in out_dir/check/."""
    return _write(spec, make_folder(Path(out_dir) / CHECK_FOLDER), spec.check_games, False, None, executor,
                  reduced=True)


def _write(spec: Spec, out: Path, games, quick, precision, executor, reduced: bool = False) -> Written:
    design = DESIGNS[spec.design]
    played = design.play(spec, out, games=games, precision=precision, quick=quick, executor=executor)
    if reduced:
        played.reduced = True
    report = design.render(played, design.analyse(played), out)
    md = write_atomic(out / f"{spec.name}.md", report.markdown)
    csv = write_atomic(out / f"{spec.name}.csv", report.csv)
    return Written(spec, report.answer, [md, csv, *report.files], report.games, report.summary, report.table,
                   report.plain)


def _load_all(folder) -> list[Spec]:
    specs = [load_spec(p) for p in spec_paths(folder)]
    if not specs:
        raise UserError(f"{folder} holds no experiment spec (*.toml)")
    return specs


def write_all(folder, out_dir=None, games=None, quick=False, precision=None, log=None,
              executor: Executor | None = None) -> list[Written]:
    """Regenerate every spec in `folder` and the index README.md."""
    written = []
    for spec in _load_all(folder):
        w = write_report(spec, out_dir if out_dir is not None else folder, games, quick, precision, executor)
        written.append(w)
        if log:
            log(w)
    out = Path(out_dir) if out_dir is not None else Path(folder)
    write_atomic(out / "README.md", index_markdown(written))
    return written


def write_reduced(specs: list[Spec], folder, log=None, executor: Executor | None = None) -> list[Written]:
    """The reduced-size results (check/NAME.*, each spec's `check_games`) of `specs`, written as their full-size
    run writes them, and the index README.md of `folder` rewritten from its committed reports: what a change that
    alters how reports render commits without running them at full size (`idiotsim report --reduced`)."""
    folder = Path(folder)
    written = []
    for spec in specs:
        if not spec.check_games:
            raise UserError(f"{spec.path} has no check_games: it is checked at its full size (regenerate it)")
        w = write_check(spec, folder, executor)
        written.append(w)
        if log:
            log(w)
    write_atomic(folder / "README.md", index_markdown([committed_written(folder, s) for s in _load_all(folder)]))
    return written


# Reports in reports/ made by other commands (see the index, "Reports made by other commands"): not
# regenerated by `report --all`, so not checked by it.
MADE_ELSEWHERE = ("tuned", "search_vs_ismcts", "learned", "learned_frontier", "learned_gate")  # pages (and folders) made by other commands


def check_all(folder, log=None, executor: Executor | None = None) -> list[str]:
    """Regenerate every spec in `folder` into a temporary folder and compare the outputs byte by byte with the
    committed ones; the relative paths that differ, are missing or are extra. A spec with `check_games` is
    regenerated at that reduced size and compared with check/NAME.*; its full-size files must be there, and
    the index is written from them (their answer and size)."""
    folder = Path(folder)
    specs = _load_all(folder)
    with tempfile.TemporaryDirectory(prefix="idiotsim-check-") as tmp:
        tmp = Path(tmp)
        written, full_size, full_size_folders = [], set(), []
        for spec in specs:
            if spec.check_games:
                w = write_check(spec, tmp, executor)
                files = DESIGNS[spec.design].full_size_files
                full_size |= {spec.name + suffix for suffix in files}
                full_size_folders += [spec.name + suffix[:suffix.index("/") + 1] for suffix in files if "/" in suffix]
                written.append(committed_written(folder, spec))
            else:
                w = write_report(spec, tmp, executor=executor)
                written.append(w)
            if log:
                log(w)
        write_atomic(tmp / "README.md", index_markdown(written))
        fresh = _outputs(tmp)
        committed = {path for path in _outputs(folder) if Path(path).parts[0].split(".")[0] not in MADE_ELSEWHERE}
        missing = sorted(path for path in full_size if path not in committed)
        compared = {path for path in committed - full_size if not path.startswith(tuple(full_size_folders))}
        return sorted(missing + [path for path in fresh | compared
                                 if path not in fresh or path not in compared
                                 or (tmp / path).read_bytes() != (folder / path).read_bytes()])


def committed_written(folder: Path, spec: Spec) -> Written:
    """A committed full-size report as the index sees it: the answer lines of NAME.md (the careful and the
    plain one), the games of NAME.csv."""
    answer, games, plain = "(the full-size report is missing)", 0, ""
    md, csv_path = folder / f"{spec.name}.md", folder / f"{spec.name}.csv"
    if md.is_file():
        text = md.read_text()
        lines = [line for line in text.splitlines() if line.startswith(ANSWER_MARK)]
        answer = lines[0][len(ANSWER_MARK):] if lines else answer
        plain = plain_of(text)
    if csv_path.is_file():
        games = DESIGNS[spec.design].committed_games(spec, csv_path)
    return Written(spec, answer, [md, csv_path], games, plain=plain)


def _outputs(folder: Path) -> set[str]:
    """The report files under `folder` (every file but the specs and hidden ones), as relative paths."""
    return {str(p.relative_to(folder)) for p in folder.rglob("*")
            if p.is_file() and p.suffix != ".toml" and not any(part.startswith(".") for part in p.relative_to(folder).parts)}
