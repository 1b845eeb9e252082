"""learn.md of `idiotsim learn loop`: the learning curve (strength against data size and iteration), the
offline figures of every model, the agreement with the teacher by decision type, and the plots."""
from __future__ import annotations

from pathlib import Path

from idiotsim.runs.atomic_files import write_atomic

CURVE_PLOT = "learning_curve.png"


def _label(row: dict) -> str:
    return f"iteration {row['iteration']}" + ("" if row["share"] == 100 else f", {row['share']}% of its games")


def _strength_text(s: dict) -> str:
    return f"{s['mean']:+.4f} [{s['lo']:+.4f}, {s['hi']:+.4f}]"


def learn_markdown(rows: list, config) -> str:
    lines = [
        f"# Learned player: expert iteration at {config.players} players", "",
        f"Teacher: the plain search (`halving=0`), every legal move on the same K = {config.rollouts} sampled "
        "states, basic rollouts. Each iteration labels the positions of "
        f"{config.games:,} games (share {config.turn_share:g} of the turns with more than one move, "
        f"{config.swap_share:g} of the swaps); iteration 1's come from {', '.join(config.collectors)} (each at one "
        "seat, basic at the others), later ones also from the previous iteration's model (DAgger); each model "
        "is trained on every iteration's data so far.", "",
        f"Strength: the model at every seat of {config.deals:,} fresh deals in turn, basic at the others, minus "
        "basic in the same seat of the same deal (mean place, negative = better; 95% CI over deals). Offline: on "
        "the held-out games' positions, the teacher's mean place after the model's move minus after basic's "
        "(gain per decision, at margin 0), and how often the model picks the teacher's best move. The margin is "
        "added to basic's move's score, chosen among a few values on tuning deals of another seed.", "",
        "## Learning curve", "",
        "| model | training positions | margin | vs basic (games) | games/s, one seat | gain per decision (held out) | "
        "picks the teacher's best | differs from basic |",
        "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        held = row["train"]["held_out"]
        lines.append(f"| {_label(row)} | {row['train']['train_positions']:,} | {row['train'].get('margin', 0):g} | "
                     f"{_strength_text(row['strength'])} | "
                     f"{row['strength']['games_per_second']:,.0f} | {held['gain']:+.4f} +/- {held['gain_half']:.4f} | "
                     f"{held['agreement']:.1%} | {held['differs_from_basic']:.1%} |")
    basic = rows[-1]["train"]["basic_held_out"]
    lines += ["", f"Basic itself picks the teacher's best move at {basic['agreement']:.1%} of the held-out "
                  "positions of the last model.", "",
              "## Agreement with the teacher by decision type", "",
              "Held-out positions of the last model, by the kind of the teacher's best move against basic's "
              "(the where_basic_loses categories):", "",
              "| teacher's best move | positions | model picks it | basic picks it | model's gain per decision |",
              "|---|---|---|---|---|"]
    model_kinds = rows[-1]["train"]["held_out"]["by_kind"]
    for kind, figures in model_kinds.items():
        lines.append(f"| {kind} | {figures['positions']:,} | {figures['agreement']:.1%} | "
                     f"{basic['by_kind'][kind]['agreement']:.1%} | {figures['gain']:+.4f} |")
    lines += ["", f"![learning curve]({CURVE_PLOT})", ""]
    return "\n".join(lines)


def write_learn_report(rows: list, config, out: Path) -> None:
    from idiotsim.analysis.figures import plt, save_png  # the project's headless matplotlib
    fig, ax = plt.subplots(figsize=(6, 3.5))
    xs = [row["train"]["train_positions"] for row in rows]
    ys = [row["strength"]["mean"] for row in rows]
    errors = [[y - row["strength"]["lo"] for y, row in zip(ys, rows)], [row["strength"]["hi"] - y for y, row in zip(ys, rows)]]
    ax.errorbar(xs, ys, yerr=errors, fmt="o")
    for x, y, row in zip(xs, ys, rows):
        ax.annotate(_label(row), (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("training positions")
    ax.set_ylabel("mean place minus basic's (lower is better)")
    ax.set_title(f"learned player, {config.players} players")
    save_png(fig, out / CURVE_PLOT)
    write_atomic(out / "learn.md", learn_markdown(rows, config))
