"""``idiotsim learn generate | train | evaluate | loop | page``: the learned player (``idiotsim.learn``) and its
page (``idiotsim.experiments.learned_page``)."""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from idiotsim.runs.chunks import executor_from_flags
from idiotsim.cli.options import DEFAULT_SEED, ClusterOpt, RunSeedOpt, WorkersOpt, check_seed
from idiotsim.errors import UserError
from idiotsim.runs.atomic_files import check_out_folder

ACTIONS = ("generate", "train", "evaluate", "loop", "page")
KINDS = {"linear": 0, "mlp": 1}
MEMORY_KINDS = {"full": 0, "none": 1, "specials": 2}  # strategies.learned.model.MEMORY_* (not imported: startup)


class PositionBar:
    """A rich progress bar over data chunks with labelled positions/s, on a terminal only."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.bar = None

    def start(self, total: int, done: int) -> None:
        from idiotsim.learn.generate import PositionRate
        self.rate = PositionRate()
        if not self.enabled:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        self.bar = Progress(TextColumn("[bold]labelling"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("chunks  {task.fields[rate]}"), TimeRemainingColumn())
        self.bar.start()
        self.task = self.bar.add_task("chunks", total=total, completed=done, rate="")

    def advance(self, path) -> None:
        rate = self.rate.add(path)
        if self.bar:
            self.bar.update(self.task, advance=1, rate=f"{rate:,.0f} positions/s")

    def stop(self) -> None:
        if self.bar:
            self.bar.stop()


def collector_specs(text: str) -> tuple:
    """`--collectors`: strategy specs separated by commas like every list of specs (`split_specs`: a spec's
    knobs keep their commas), or by the ';' of earlier versions, which model files' recorded commands hold."""
    from idiotsim.strategies.loading import split_specs
    if not text.strip():
        raise UserError("--collectors needs at least one strategy (e.g. basic,search:rollouts=16)")
    parts = [part for part in text.split(";") if part.strip()]
    return tuple(spec for part in parts for spec in split_specs(part))


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")


def learn(
    action: Annotated[str, typer.Argument(metavar="ACTION", help="generate | train | evaluate | loop | page")],
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR",
                                     help="Output folder (data, model, evaluation or loop; resumed when rerun); "
                                          "page: the reports folder.")],
    players: Annotated[int, typer.Option("--players", "-n", metavar="N", help="Players per table.")] = 4,
    seed: RunSeedOpt = DEFAULT_SEED,
    games: Annotated[int, typer.Option("--games", "-g", metavar="G",
                                       help="generate/loop: games whose positions are labelled (per iteration).")] = 1000,
    collectors: Annotated[str, typer.Option("--collectors", metavar="A,B,...",
                                            help="generate/loop: strategies whose games give the positions (one seat "
                                                 "each, basic elsewhere), comma-separated as everywhere (the "
                                                 "earlier ';' still reads).")]
    = "basic,search:rollouts=16",
    rollouts: Annotated[int, typer.Option("--rollouts", metavar="K", help="The teacher's sampled states.")] = 128,
    turn_share: Annotated[float, typer.Option("--turn-share", metavar="P",
                                              help="Share of the turns with more than one move labelled.")] = 0.5,
    swap_share: Annotated[float, typer.Option("--swap-share", metavar="P", help="Share of the swaps labelled.")]
    = 0.25,
    field: Annotated[str, typer.Option("--field", metavar="SPEC", help="generate: the other seats' strategy "
                                                                      "(\"\": the collector at every seat).")]
    = "basic",
    data: Annotated[Optional[str], typer.Option("--data", metavar="DIR,...", help="train: data folders.")] = None,
    margin: Annotated[float, typer.Option("--margin", metavar="M", help="train: added to basic's move's score.")]
    = 0.0,
    kind: Annotated[str, typer.Option("--kind", metavar="KIND", help="train/loop: mlp or linear.")] = "mlp",
    hidden: Annotated[int, typer.Option("--hidden", metavar="H", help="train/loop: MLP hidden units.")] = 32,
    epochs: Annotated[int, typer.Option("--epochs", metavar="E", help="train/loop: at most E epochs.")] = 40,
    lr_decay: Annotated[float, typer.Option("--lr-decay", metavar="F",
                                            help="train/loop: the learning rate's factor from one epoch to the "
                                                 "next (1: constant).")] = 1.0,
    memory: Annotated[str, typer.Option("--memory", metavar="KIND",
                                        help="train/loop: what the model's inputs remember of the cards that left "
                                             "play: full; none (a player who does not remember: the pile's top "
                                             "run, no burned or known cards); specials (none, but the burned 2s "
                                             "and 10s). The model plays on the same inputs.")]
    = "full",
    strategies: Annotated[Optional[str], typer.Option("--strategies", "-s", metavar="A,B,...",
                                                      help="evaluate: the players (specs or model.npz files).")]
    = None,
    deals: Annotated[int, typer.Option("--deals", metavar="D", help="evaluate/loop: fresh deals, each at every "
                                                                    "seat.")] = 5000,
    tuning_deals: Annotated[int, typer.Option("--tuning-deals", metavar="D",
                                              help="loop: deals each margin is tried on.")] = 2000,
    iterations: Annotated[int, typer.Option("--iterations", metavar="I", help="loop: expert iterations.")] = 2,
    force: Annotated[bool, typer.Option("--force", help="generate: replace data of another configuration.")] = False,
    cluster: ClusterOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Distil the search into a learned player: label positions, train, evaluate, or the whole loop.

    page writes the learned player's page, OUT/learned.md and OUT/learned_frontier.png, from the CSVs in OUT
    (`idiotsim learn page --out reports`)."""
    from idiotsim.learn.train import TrainConfig
    if action not in ACTIONS:
        raise UserError(f"learn ACTION must be one of {', '.join(ACTIONS)}, got {action!r}")
    if kind not in KINDS:
        raise UserError(f"--kind must be one of {', '.join(KINDS)}, got {kind!r}")
    check_seed(seed)
    for name, value, low in (("--games", games, 1), ("--rollouts", rollouts, 2), ("--deals", deals, 2), ("--tuning-deals", tuning_deals, 2),
                             ("--iterations", iterations, 1), ("--hidden", hidden, 1), ("--epochs", epochs, 1)):
        if value < low:
            raise UserError(f"{name} must be at least {low}, got {value}")
    if not 0 < lr_decay <= 1:
        raise UserError(f"--lr-decay must be in (0, 1], got {lr_decay}")
    for name, value in (("--turn-share", turn_share), ("--swap-share", swap_share)):
        if not 0 <= value <= 1:
            raise UserError(f"{name} must be between 0 and 1, got {value}")
    if not 2 <= players <= 10:
        raise UserError(f"--players must be 2..10, got {players}")
    check_out_folder(out)
    if action == "page":
        from idiotsim.experiments.learned_page import write_learned_page
        written = write_learned_page(Path(out))
        _say(f"{' and '.join(str(p) for p in written)} written from the CSVs in {out}")
        return
    if memory not in MEMORY_KINDS:
        raise UserError(f"--memory must be one of {', '.join(MEMORY_KINDS)}, got {memory!r}")
    train = TrainConfig(kind=KINDS[kind], hidden=hidden, seed=seed, epochs=epochs, lr_decay=lr_decay,
                        memory=MEMORY_KINDS[memory])
    specs = collector_specs(collectors)
    if action == "generate":
        from idiotsim.learn.generate import GenerateConfig, generate
        config = GenerateConfig(players=players, seed=seed, games=games, collectors=specs, field=field,
                                teacher_rollouts=rollouts, turn_share=turn_share, swap_share=swap_share)
        bar = PositionBar(sys.stderr.isatty())
        with executor_from_flags(cluster, workers) as executor:
            try:
                generate(config, out, executor, progress=bar, force=force)
            finally:
                bar.stop()
        _say(f"labelled positions written to {out}")
    elif action == "train":
        from idiotsim.learn.fitting import train_model
        if not data:
            raise UserError("learn train needs --data DIR[,DIR...] (folders of idiotsim learn generate)")
        summary = train_model([Path(d) for d in data.split(",")], out, train, log=_say, margin=margin)
        held = summary["held_out"]
        sys.stdout.write(f"{summary['kind']} model on {summary['train_positions']:,} positions: held-out gain per "
                         f"decision {held['gain']:+.4f} +/- {held['gain_half']:.4f}, picks the teacher's best move "
                         f"{held['agreement']:.1%} (basic {summary['basic_held_out']['agreement']:.1%})\n"
                         f"model.npz and train.json written to {out}\n")
    elif action == "evaluate":
        _evaluate(strategies, players, deals, Path(out))
    else:
        from idiotsim.learn.loop import LoopConfig, run_loop
        config = LoopConfig(players=players, seed=seed, iterations=iterations, games=games, collectors=specs,
                            rollouts=rollouts, turn_share=turn_share, swap_share=swap_share, train=train, deals=deals,
                            tuning_deals=tuning_deals)
        with executor_from_flags(cluster, workers) as executor:
            run_loop(config, out, executor, log=_say)
        sys.stdout.write((Path(out) / "learn.md").read_text())


def _evaluate(strategies: str | None, players: int, deals: int, out: Path) -> None:
    from idiotsim.runs.atomic_files import make_folder, write_atomic
    from idiotsim.learn.evaluate import strengths
    from idiotsim.strategies.loading import split_specs
    if not strategies:
        raise UserError("learn evaluate needs --strategies A,B,... (specs or model.npz files)")
    start = time.perf_counter()
    rows = strengths(split_specs(strategies), players, deals)
    lines = [f"{deals:,} deals x {players} seats, basic elsewhere; mean place minus basic in the same seat "
             "(95% CI, Holm-adjusted)", "", "| player | vs basic | games/s, one seat |", "|---|---|---|"]
    for s in rows:
        x = s.vs_basic
        lines.append(f"| `{s.spec}` | {x.mean:+.4f} [{x.lo:+.4f}, {x.hi:+.4f}] | {s.games_per_second:,.0f} |")
    text = "\n".join(lines) + "\n"
    make_folder(out)
    write_atomic(out / "evaluate.md", text)
    sys.stdout.write(text + f"\nevaluate.md written to {out} ({time.perf_counter() - start:.0f} s)\n")
