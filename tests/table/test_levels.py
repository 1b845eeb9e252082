"""The levels' strengths have one source, ``idiotsim.table.levels.LEVELS``: the README's level table is
written from it (``levels_markdown``), ``play --help`` shows every level's headline, and every figure
of it is the one the shipped reports' CSV files (or docs/strategies.md, for the search at K = 128)
hold, rounded as written."""
from __future__ import annotations

import csv
import re
from pathlib import Path

from helpers import run_cli
from idiotsim.table.levels import LEVELS, level_figures, levels_help, levels_markdown

ROOT = Path(__file__).resolve().parents[2]


def readme_level_table() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("| `--level` | bot | measured strength |")
    end = text.index("\n\n", start)
    return text[start:end + 1]


def test_the_readme_level_table_is_written_from_levels():
    assert readme_level_table() == levels_markdown(), "regenerate it: idiotsim.table.levels.levels_markdown()"


def test_play_help_shows_every_level_headline(capsys):
    code, out, err = run_cli(capsys, "play", "--help")
    assert code == 0, err
    shown = " ".join(out.replace("\u2502", " ").split())
    for name, level in LEVELS.items():
        headline = " ".join(level.headline.replace("`", "").split())
        assert f"{name}: " in shown and headline in shown, (name, headline)
    assert " ".join(levels_help().split())[:60] in shown


def rows(name: str) -> list[dict]:
    with open(ROOT / "reports" / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def places(*values) -> list[str]:
    """Mean places or differences as LEVELS writes them: 3 decimals, no sign."""
    return [f"{abs(float(v)):.3f}" for v in values]


def test_every_level_figure_is_the_reports_figure():
    board = {row["strategy"]: row for row in rows("leaderboard.csv")}
    learned = next(row for row in rows("learned.csv") if row["players"] == "4" and row["player"] == "learned-fast-4p")
    search32 = next(row for row in rows("search_strength.csv") if row["setting"] == "players=4, rollouts=32")
    strategies_doc = (ROOT / "docs" / "strategies.md").read_text(encoding="utf-8")
    k128 = re.search(r"\| play facts \(`belief=2`, the default\) \|.*?\*\*-(\d\.\d+) \+/- (\d\.\d+)\*\*", strategies_doc)
    search128 = [float(k128.group(1)), float(k128.group(1)) - float(k128.group(2)),
                 float(k128.group(1)) + float(k128.group(2))]
    expected = {
        "easy": places(*(board["high-early"][k] for k in ("mean_place", "mean_place_lo", "mean_place_hi")),
                       *(board["basic"][k] for k in ("mean_place", "mean_place_lo", "mean_place_hi"))),
        "medium": places(board["basic"]["mean_place"]),
        "hard": places(learned["vs_basic"], learned["hi"], learned["lo"], learned["vs_tuned"], learned["vs_tuned_hi"],
                       learned["vs_tuned_lo"], board["tuned-4p"]["mean_place"], board["tuned-4p"]["mean_place_lo"],
                       board["tuned-4p"]["mean_place_hi"]),
        "expert": places(*search128, search32["diff"], search32["diff_hi"], search32["diff_lo"]),
    }
    assert board["tuned-4p"]["rank"] == "2" and board["chart"]["rank"] == "1"  # "second (after `chart`)"
    for name, level in LEVELS.items():
        written = re.findall(r"\d+\.\d+", level.headline + " " + level.detail)
        assert written == expected[name], name
    assert level_figures() == {x for figures in expected.values() for x in figures}


def test_the_expert_level_names_the_k_the_search_plays():
    from idiotsim.strategies.search.search_knobs import DEFAULT_ROLLOUTS
    assert LEVELS["expert"].spec == "search" and f"(K = {DEFAULT_ROLLOUTS})" in LEVELS["expert"].bot
