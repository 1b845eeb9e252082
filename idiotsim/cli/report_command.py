"""``idiotsim report``: experiment specs in, Markdown/CSV/PNG reports out."""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from idiotsim.runs.chunks import executor_from_flags
from idiotsim.cli.options import ClusterOpt, ThreadsOpt, WorkersOpt, set_threads
from idiotsim.errors import UserError
from idiotsim.runs.atomic_files import check_out_folder


def report(
    specs: Annotated[Optional[list[str]], typer.Argument(
        metavar="SPEC.toml", help="Experiment specs to play (see reports/README.md).")] = None,
    all_specs: Annotated[bool, typer.Option(
        "--all", help="Regenerate every spec in --specs-dir and rewrite its README.md index.")] = False,
    games: Annotated[Optional[int], typer.Option(
        "--games", "-g", metavar="G", help="Games per setting, overriding the specs' size.")] = None,
    quick: Annotated[bool, typer.Option(
        "--quick",
        help="A small fixed size for a fast check (4,000 games a setting, fewer with costly seats such as "
             "search; one tournament block; a few games of basic self-play for where_basic_loses).")] = False,
    out: Annotated[Optional[str], typer.Option(
        "--out", "-o", metavar="DIR", help="Write the reports here instead of next to the specs.")] = None,
    precision: Annotated[Optional[float], typer.Option(
        "--precision", metavar="H",
        help="Sequential mode: play growing batches until the 95% CI half-width of the mean place difference "
             "is <= H at every setting and enough deals differ (see reports/README.md; the size is the "
             "maximum).")] = None,
    check: Annotated[bool, typer.Option(
        "--check", help="With --all: regenerate every report into a temporary folder (at its check_games if "
                        "the spec has one, else at full size), compare byte by byte with the committed files, "
                        "list the differing ones and exit 1 on a difference.")] = False,
    reduced: Annotated[bool, typer.Option(
        "--reduced", help="Write only the reduced-size results CI compares (check/NAME.*, each spec's check_games) "
                          "of the SPECs (or of --all), as a full-size run writes them, and rewrite the folder's "
                          "README.md index from its committed reports.")] = False,
    specs_dir: Annotated[str, typer.Option(
        "--specs-dir", metavar="DIR", help="Folder of the specs for --all.")] = "reports",
    threads: ThreadsOpt = None,
    cluster: ClusterOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Play experiment specs and write their reports (NAME.md, NAME.csv, NAME.png)."""
    from idiotsim import experiments

    if check and not all_specs:
        raise UserError("--check compares a regeneration of every report: give it with --all")
    if check and (games is not None or quick or out is not None or precision is not None):
        raise UserError("--check regenerates the reports as committed: give it without --games, --quick, --out "
                        "and --precision")
    if all_specs == bool(specs):
        raise UserError("give SPEC.toml file(s) or --all "
                        f"({'both were given' if all_specs else 'neither was given'})")
    if quick and games is not None:
        raise UserError("give at most one of --games and --quick")
    if games is not None and not 1 <= games <= experiments.MAX_GAMES:
        raise UserError(f"--games must be 1..{experiments.MAX_GAMES}, got {games}")
    if precision is not None and not 0 < precision < 10:
        raise UserError(f"--precision must be a mean-place half-width between 0 and 10, got {precision}")
    if reduced and (check or games is not None or quick or out is not None or precision is not None):
        raise UserError("--reduced writes the reports' reduced-size results beside them: give it without --check, "
                        "--games, --quick, --out and --precision")
    set_threads(threads)
    if out is not None:
        check_out_folder(out)
    with executor_from_flags(cluster, workers) as executor:
        if check:
            _check_reports(specs_dir, executor)
        elif reduced:
            _write_reduced(specs, all_specs, specs_dir, executor)
        else:
            _write_reports(specs, all_specs, games, quick, out, precision, specs_dir, executor)


def _check_reports(specs_dir, executor) -> None:
    from idiotsim import experiments
    folder = Path(specs_dir)
    if not folder.is_dir():
        raise UserError(f"--specs-dir {folder} is not a folder")
    started = time.perf_counter()
    differing = experiments.check_all(folder, executor=executor)
    seconds = time.perf_counter() - started
    if differing:
        print(f"{len(differing)} report files in {folder} differ from a regeneration ({seconds:.1f} s); "
              f"run `idiotsim report --all` and commit:")
        for path in differing:
            print(f"  {folder / path}")
        raise typer.Exit(1)
    print(f"every report in {folder} matches its regeneration ({seconds:.1f} s)")


def _write_reduced(specs, all_specs, specs_dir, executor) -> None:
    from idiotsim import experiments
    started = time.perf_counter()
    if all_specs:
        folder = Path(specs_dir)
        if not folder.is_dir():
            raise UserError(f"--specs-dir {folder} is not a folder")
        loaded = [s for s in (experiments.load_spec(p) for p in experiments.spec_paths(folder)) if s.check_games]
    else:
        loaded = [experiments.load_spec(s) for s in specs]
        folders = {Path(s.path).parent for s in loaded}
        if len(folders) != 1:
            raise UserError("--reduced rewrites one folder's index: give specs of one folder")
        folder = folders.pop()

    def log(report) -> None:
        print(f"{report.files[0]}: {report.games:,} games", file=sys.stderr)

    experiments.write_reduced(loaded, folder, log=log, executor=executor)
    print(f"{len(loaded)} reduced-size results and {folder / 'README.md'} written in "
          f"{time.perf_counter() - started:.1f} s", file=sys.stderr)


def _write_reports(specs, all_specs, games, quick, out, precision, specs_dir, executor) -> None:
    from idiotsim import experiments
    from idiotsim.cli.render import print_report
    started = time.perf_counter()
    last = [started]

    def log(report) -> None:
        now = time.perf_counter()
        print(f"{report.files[0]}: {report.games:,} games, {now - last[0]:.1f} s", file=sys.stderr)
        print_report(report)
        last[0] = now

    if all_specs:
        folder = Path(specs_dir)
        if not folder.is_dir():
            raise UserError(f"--specs-dir {folder} is not a folder")
        written = experiments.write_all(folder, out, games, quick, precision, log=log, executor=executor)
        index = Path(out if out is not None else folder) / "README.md"
        print(f"{len(written)} reports and {index} written in {time.perf_counter() - started:.1f} s",
              file=sys.stderr)
        return
    loaded = [experiments.load_spec(s) for s in specs]  # validate all before playing any
    for spec in loaded:
        log(experiments.write_report(spec, out, games, quick, precision, executor=executor))
