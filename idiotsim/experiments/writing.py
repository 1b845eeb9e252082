"""Writing reports: each spec through its design's protocol into NAME.md, NAME.csv and its plots."""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from idiotsim.chunks import Executor
from idiotsim.errors import UserError
from idiotsim.experiments.design import Design
from idiotsim.experiments.index import index_markdown
from idiotsim.experiments.leaderboard import LeaderboardDesign
from idiotsim.experiments.paired import PairedDesign
from idiotsim.experiments.seats import SeatsDesign
from idiotsim.experiments.spec import Spec, load_spec, spec_paths
from idiotsim.files import make_folder, write_atomic

DESIGNS: dict[str, Design] = {d.name: d for d in (PairedDesign(), SeatsDesign(), LeaderboardDesign())}


@dataclass(frozen=True)
class Written:
    spec: Spec
    answer: str
    files: list
    games: int


def write_report(spec: Spec, out_dir=None, games: int | None = None, quick: bool = False,
                 precision: float | None = None, executor: Executor | None = None) -> Written:
    """Play `spec` and write NAME.md, NAME.csv and its plots into out_dir (default: the spec's folder)."""
    out = make_folder(Path(out_dir) if out_dir is not None else Path(spec.path).parent)
    design = DESIGNS[spec.design]
    played = design.play(spec, out, games=games, precision=precision, quick=quick, executor=executor)
    report = design.render(played, design.analyse(played), out)
    md = write_atomic(out / f"{spec.name}.md", report.markdown)
    csv = write_atomic(out / f"{spec.name}.csv", report.csv)
    return Written(spec, report.answer, [md, csv, *report.files], report.games)


def write_all(folder, out_dir=None, games=None, quick=False, precision=None, log=None,
              executor: Executor | None = None) -> list[Written]:
    """Regenerate every spec in `folder` and the index README.md."""
    specs = [load_spec(p) for p in spec_paths(folder)]
    if not specs:
        raise UserError(f"{folder} holds no experiment spec (*.toml)")
    written = []
    for spec in specs:
        w = write_report(spec, out_dir if out_dir is not None else folder, games, quick, precision, executor)
        written.append(w)
        if log:
            log(w)
    out = Path(out_dir) if out_dir is not None else Path(folder)
    write_atomic(out / "README.md", index_markdown(written))
    return written


def check_all(folder, log=None, executor: Executor | None = None) -> list[str]:
    """Regenerate every spec in `folder` at its full size into a temporary folder and compare the outputs
    byte by byte with the committed ones; the relative paths that differ, are missing or are extra."""
    folder = Path(folder)
    with tempfile.TemporaryDirectory(prefix="idiotsim-check-") as tmp:
        write_all(folder, tmp, log=log, executor=executor)
        fresh = _outputs(Path(tmp))
        committed = _outputs(folder)
        return sorted(path for path in fresh | committed
                      if path not in fresh or path not in committed
                      or (Path(tmp) / path).read_bytes() != (folder / path).read_bytes())


def _outputs(folder: Path) -> set[str]:
    """The report files under `folder` (every file but the specs and hidden ones), as relative paths."""
    return {str(p.relative_to(folder)) for p in folder.rglob("*")
            if p.is_file() and p.suffix != ".toml" and not any(part.startswith(".") for part in p.relative_to(folder).parts)}
