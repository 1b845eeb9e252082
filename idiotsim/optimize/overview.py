"""One page over several optimisation folders (``reports/tuned.md``), generated from their outputs:

    python -m idiotsim.optimize.overview reports/tuned.md reports/tuned/2p reports/tuned/heuristic-2p ...

Per family (the tuned strategy's) and player count: the held-out paired difference of the best to
`basic` (Holm-adjusted 95% CI), how many comparators it beats, the shipped preset that plays it (if
any), the knobs and groups whose reset to the start costs most, and the command that regenerates the
folder. A bad argument is one ``error:`` line and exit code 2; the page is written atomically.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from idiotsim.errors import UserError
from idiotsim.runs.atomic_files import write_atomic
from idiotsim.optimize.config import CONTROL, OptimizeConfig
from idiotsim.optimize.optimize_markdown import command_line
from idiotsim.strategies.loading import load_strategy

TOP_DECISIONS = 5
NOT_SHIPPED = "none"
SMALL_GAIN = 0.05  # places a game: below it a tuned policy's gain is called "a little" (the chart gains 0.08)


@dataclass
class Run:
    """One optimisation folder and what the page needs of it."""
    folder: Path
    config: OptimizeConfig
    family: str
    validation: pl.DataFrame
    sensitivity: pl.DataFrame | None
    shipped_as: str


def folder_config(folder: Path) -> OptimizeConfig:
    data = json.loads((folder / "optimize.json").read_text())
    data.pop("version", None)
    return OptimizeConfig(**{**data, "field": tuple(data["field"]), "knobs": tuple(data["knobs"])})


def shipped_preset(folder: Path) -> str:
    """The name of the shipped preset of the same family that plays exactly the folder's best.toml."""
    best = load_strategy(str(folder / "best.toml"))
    names = [name for name in best.strategy.presets
             if np.array_equal(load_strategy(name).params, best.params)]
    return ", ".join(f"`{name}`" for name in names) or NOT_SHIPPED


def read_run(folder) -> Run:
    folder = Path(folder)
    missing = [name for name in ("optimize.json", "best.toml", "validation.csv") if not (folder / name).exists()]
    if missing:
        raise UserError(f"{folder} is not a finished optimisation with validation: no {missing[0]}")
    config = folder_config(folder)
    sensitivity = folder / "sensitivity.csv"
    return Run(folder, config, load_strategy(config.strategy).strategy.name, pl.read_csv(folder / "validation.csv"),
               pl.read_csv(sensitivity) if sensitivity.exists() else None, shipped_preset(folder))


def control_row(validation: pl.DataFrame) -> dict:
    """The validation row of `basic` (a row may name several identical comparators: ``a = b``)."""
    for row in validation.iter_rows(named=True):
        if CONTROL in row["comparator"].split(" = "):
            return row
    raise ValueError(f"no {CONTROL} row in the validation table")


def ci(value: float, lo: float, hi: float) -> str:
    return f"{value:+.4f} [{lo:+.4f}, {hi:+.4f}]"


def advantage_line(run: Run, page: Path) -> str:
    basic = control_row(run.validation)
    others = run.validation.filter(pl.col("comparator") != basic["comparator"])
    beaten = others.filter(pl.col("significant") & (pl.col("diff") < 0)).height
    link = os.path.relpath(run.folder / "optimize.md", page.parent)
    return (f"| `{run.family}` | {run.config.players} | [{run.folder}]({link}) | {basic['games']:,} | "
            f"{basic['best_place']:.4f} | {basic['comparator_place']:.4f} | "
            f"{ci(basic['diff'], basic['diff_lo'], basic['diff_hi'])} | {beaten} of {others.height} | "
            f"{run.shipped_as} |")


def lead_line(runs: list) -> str:
    """The answer first: the largest gain over `basic` a tuned simple policy reaches, and the range of them."""
    gains = [(-control_row(r.validation)["diff"], r) for r in runs]
    best, run = max(gains, key=lambda g: g[0])
    lo, hi = min(g for g, _ in gains), best
    spread = (f"; the {len(runs)} tuned runs gain {lo:.3f} to {hi:.3f}" if len(runs) > 1 else "")
    if best <= 0:
        return f"No tuned policy here beats `basic` on held-out deals (the best: {best:+.3f} places a game)."
    degree = "only a little better" if best < SMALL_GAIN else "better"
    return (f"A tuned simple policy plays {degree} than `basic`: at best {best:.3f} places a game "
            f"(`{run.family}`, {run.config.players} players){spread}, on held-out deals.")


def decisions_line(run: Run) -> str:
    where = f"- `{run.family}`, {run.config.players} players ({run.folder})"
    if run.sensitivity is None:
        return f"{where}: no sensitivity table (the best is the start)."
    inert = (pl.col("cost_lo") == 0) & (pl.col("cost_hi") == 0)  # the reset changed no decision of any game
    rows = run.sensitivity.filter(~inert).sort("cost", descending=True).head(TOP_DECISIONS)
    cells = [f"`{r['name']}` ({r['kind']}) {ci(r['cost'], r['cost_lo'], r['cost_hi'])}"
             for r in rows.iter_rows(named=True)]
    unchanged = [f"`{r['name']}`" + (f" ({r['kind']})" if r["kind"] != "knob" else "")
                 for r in run.sensitivity.filter(inert).iter_rows(named=True)]
    tail = f" (no game changed: {', '.join(unchanged)})" if unchanged else ""
    return f"{where}: " + ("; ".join(cells) or "no reset changed a game") + tail + "."


def rivals_line(run: Run, runs: list) -> str | None:
    """The best against the presets shipped from the other runs at its table size, from its own validation."""
    rivals = {name.strip("`") for other in runs if other is not run and other.config.players == run.config.players
              for name in other.shipped_as.split(", ") if name != NOT_SHIPPED}
    cells = [f"vs {row['comparator']} {ci(row['diff'], row['diff_lo'], row['diff_hi'])}"
             for row in run.validation.iter_rows(named=True) if rivals & set(row["comparator"].split(" = "))]
    if not cells:
        return None
    return f"- `{run.family}`, {run.config.players} players ({run.folder}): " + "; ".join(cells) + "."


def overview_markdown(folders: list, page: Path) -> str:
    """The page `page` (links are relative to it) over the optimisation `folders`."""
    runs = sorted((read_run(f) for f in folders), key=lambda r: (r.family, r.config.players, str(r.folder)))
    lines = ["# Tuned presets: how much better than basic can a simple policy play?", "", lead_line(runs), "",
             "Generated by `python -m idiotsim.optimize.overview` from the `idiotsim optimize` folders below "
             "(each holds its `optimize.md` with the convergence plot, the knob trajectories, the full "
             "validation and sensitivity tables).", "",
             "## Advantage over basic on held-out deals", "",
             "The best knob vector of each family at the focal seat against `basic` in the other seats, paired on "
             "deals never used in the search: mean place of the best minus that of basic (negative = better), "
             "95% CI Holm-adjusted over the comparators (the start, basic and every shipped preset). `beats` counts "
             "the comparators the best beats with a CI that excludes 0; `shipped as` names the preset that plays "
             f"the folder's `best.toml` ({NOT_SHIPPED}: not shipped).", "",
             "| family | players | folder | games | best place | basic place | difference (95% CI, Holm) | beats "
             "| shipped as |",
             "|---|---|---|---|---|---|---|---|---|"]
    lines += [advantage_line(run, page) for run in runs]
    lines += ["", "## Which decisions matter most", "",
              f"The {TOP_DECISIONS} costliest resets per run: the best with one knob (or group of knobs) reset to "
              "its start value (for `weighted`: the default, basic's play; for `heuristic`: basic's setting), "
              "mean place of the reset minus the best (positive = the tuned value helps), 95% CI (not adjusted). "
              "Resets that changed no decision in any game are named apart: those knobs moved on a plateau.",
              ""]
    lines += [decisions_line(run) for run in runs]
    rivals = [line for line in (rivals_line(run, runs) for run in runs) if line]
    if rivals:
        lines += ["", "## Against the other tuned presets of the same table size", "",
                  "From each run's validation table (the same held-out deals and Holm adjustment as above): mean "
                  "place of the run's best minus the preset (negative = the run's best places better).", ""]
        lines += rivals
    lines += ["", "## Regenerate", "", "```"]
    lines += [command_line(run.config, str(run.folder)) for run in runs]
    lines += [f"python -m idiotsim.optimize.overview {page} {' '.join(str(f) for f in folders)}", "```", ""]
    return "\n".join(lines)


def main(argv: list | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    try:
        if len(args) < 2:
            raise UserError("usage: python -m idiotsim.optimize.overview PAGE.md FOLDER [FOLDER ...]")
        out, *folders = args
        write_atomic(Path(out), overview_markdown(folders, Path(out)))
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: cannot write {args[0]}: {e.strerror or e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
