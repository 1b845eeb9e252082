"""``idiotsim learn generate | train | evaluate | loop | page``: the learned player (``idiotsim.learn``) and its
page (``idiotsim.experiments.learned_page``), one sub-command per job, each with its own options."""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from idiotsim.cli.app import command_group, sub_command
from idiotsim.cli.options import DEFAULT_SEED, ClusterOpt, RunSeedOpt, WorkersOpt, check_seed
from idiotsim.errors import UserError
from idiotsim.runs.atomic_files import check_out_folder
from idiotsim.runs.chunks import executor_from_flags

KINDS = {"linear": 0, "mlp": 1, "mlp2": 2}
MEMORY_KINDS = {"full": 0, "none": 1, "specials": 2}  # strategies.learned.model.MEMORY_* (not imported: startup)

# The defaults of the options two sub-commands share: generate and loop label positions, train and loop fit,
# evaluate and loop evaluate.
PLAYERS = 4
GAMES = 1000
COLLECTORS = "basic,search:rollouts=16"
TURN_SHARE, SWAP_SHARE = 0.5, 0.25
KIND, HIDDEN, HIDDEN2, EPOCHS, LR_DECAY, MEMORY = "mlp", 32, 16, 40, 1.0, "full"
DEALS = 5000

learn = command_group("Distil the search into a learned player: label positions with the search (generate), fit a "
                      "model to them (train), measure players against basic (evaluate), or all of it as expert "
                      "iterations (loop); page writes the learned player's report page.")


def search_rollouts() -> int:
    """The search's default K (its `rollouts` knob), read only when --rollouts is left out: the search's
    modules are not imported for --help."""
    from idiotsim.strategies.search.search_knobs import DEFAULT_ROLLOUTS
    return DEFAULT_ROLLOUTS


PlayersOpt = Annotated[int, typer.Option("--players", "-n", metavar="N", help="Players per table, 2..10.")]
GamesOpt = Annotated[int, typer.Option("--games", "-g", metavar="G", help="Games whose positions are labelled.")]
CollectorsOpt = Annotated[str, typer.Option(
    "--collectors", metavar="A,B,...",
    help="Strategies whose games give the positions (one seat each, basic elsewhere), comma-separated as "
         "everywhere (the earlier ';' still reads).")]
RolloutsOpt = Annotated[int, typer.Option(
    "--rollouts", metavar="K", default_factory=search_rollouts, show_default="the search's K",
    help="The teacher's K: sampled states per decision.")]
TurnShareOpt = Annotated[float, typer.Option("--turn-share", metavar="P",
                                             help="Share of the turns with more than one move labelled.")]
SwapShareOpt = Annotated[float, typer.Option("--swap-share", metavar="P", help="Share of the swaps labelled.")]
KindOpt = Annotated[str, typer.Option("--kind", metavar="KIND", help="mlp, mlp2 (two hidden layers) or linear.")]
HiddenOpt = Annotated[int, typer.Option("--hidden", metavar="H", help="MLP hidden units (mlp2: the first layer's).")]
Hidden2Opt = Annotated[int, typer.Option("--hidden2", metavar="H2", help="mlp2: the second hidden layer's units.")]
EpochsOpt = Annotated[int, typer.Option("--epochs", metavar="E", help="At most E epochs.")]
LrDecayOpt = Annotated[float, typer.Option("--lr-decay", metavar="F", help="The learning rate's factor from one "
                                                                          "epoch to the next (1: constant).")]
MemoryOpt = Annotated[str, typer.Option(
    "--memory", metavar="KIND",
    help="What the model's inputs remember of the cards that left play: full; none (a player who does not "
         "remember: the pile's top run, no burned or known cards); specials (none, but the burned 2s and 10s). "
         "The model plays on the same inputs.")]
DealsOpt = Annotated[int, typer.Option("--deals", metavar="D", help="Evaluation deals, fresh, each played at "
                                                                    "every seat.")]


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


def _at_least(*checks: tuple[str, int, int]) -> None:
    for name, value, low in checks:
        if value < low:
            raise UserError(f"{name} must be at least {low}, got {value}")


def _check_players(players: int) -> None:
    if not 2 <= players <= 10:
        raise UserError(f"--players must be 2..10, got {players}")


def _check_labelling(players: int, seed: int, games: int, rollouts: int, turn_share: float,
                     swap_share: float) -> None:
    """The options of generate and loop that say which positions are labelled and how."""
    _check_players(players)
    check_seed(seed)
    _at_least(("--games", games, 1), ("--rollouts", rollouts, 2))
    for name, value in (("--turn-share", turn_share), ("--swap-share", swap_share)):
        if not 0 <= value <= 1:
            raise UserError(f"{name} must be between 0 and 1, got {value}")


def _train_config(kind: str, hidden: int, hidden2: int, epochs: int, lr_decay: float, memory: str, seed: int):
    """The options of train and loop that say how a model is fitted."""
    from idiotsim.learn.train import TrainConfig
    from idiotsim.strategies.learned.model import MAX_HIDDEN
    if kind not in KINDS:
        raise UserError(f"--kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if memory not in MEMORY_KINDS:
        raise UserError(f"--memory must be one of {', '.join(MEMORY_KINDS)}, got {memory!r}")
    check_seed(seed)
    _at_least(("--hidden", hidden, 1), ("--hidden2", hidden2, 1), ("--epochs", epochs, 1))
    if kind == "mlp2" and hidden + hidden2 > MAX_HIDDEN:
        raise UserError(f"--hidden {hidden} and --hidden2 {hidden2} make {hidden + hidden2} hidden units; the player "
                        f"plays at most {MAX_HIDDEN}")
    if hidden > MAX_HIDDEN:
        raise UserError(f"--hidden {hidden}: the player plays at most {MAX_HIDDEN} hidden units")
    if not 0 < lr_decay <= 1:
        raise UserError(f"--lr-decay must be in (0, 1], got {lr_decay}")
    return TrainConfig(kind=KINDS[kind], hidden=hidden, hidden2=hidden2 if kind == "mlp2" else 0, seed=seed,
                       epochs=epochs, lr_decay=lr_decay, memory=MEMORY_KINDS[memory])


@sub_command(learn, "generate")
def generate(
    *,
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR",
                                     help="Data folder (resumed when rerun with the same options).")],
    players: PlayersOpt = PLAYERS,
    seed: RunSeedOpt = DEFAULT_SEED,
    games: GamesOpt = GAMES,
    collectors: CollectorsOpt = COLLECTORS,
    field: Annotated[str, typer.Option("--field", metavar="SPEC", help="The other seats' strategy (\"\": the "
                                                                       "collector at every seat).")] = "basic",
    rollouts: RolloutsOpt,
    turn_share: TurnShareOpt = TURN_SHARE,
    swap_share: SwapShareOpt = SWAP_SHARE,
    force: Annotated[bool, typer.Option("--force", help="Replace data of another configuration.")] = False,
    cluster: ClusterOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Label positions: play games of the collectors and score every legal move of the sampled positions with
    the search (the teacher)."""
    from idiotsim.learn.generate import GenerateConfig, generate as generate_data
    _check_labelling(players, seed, games, rollouts, turn_share, swap_share)
    check_out_folder(out)
    config = GenerateConfig(players=players, seed=seed, games=games, collectors=collector_specs(collectors),
                            field=field, teacher_rollouts=rollouts, turn_share=turn_share, swap_share=swap_share)
    bar = PositionBar(sys.stderr.isatty())
    with executor_from_flags(cluster, workers) as executor:
        try:
            generate_data(config, out, executor, progress=bar, force=force)
        finally:
            bar.stop()
    _say(f"labelled positions written to {out}")


@sub_command(learn, "train")
def train(
    data: Annotated[str, typer.Option("--data", metavar="DIR,...",
                                      help="Data folders of `idiotsim learn generate`, comma-separated.")],
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR", help="Model folder: model.npz and train.json.")],
    margin: Annotated[float, typer.Option("--margin", metavar="M", help="Added to basic's move's score.")] = 0.0,
    kind: KindOpt = KIND,
    hidden: HiddenOpt = HIDDEN,
    hidden2: Hidden2Opt = HIDDEN2,
    epochs: EpochsOpt = EPOCHS,
    lr_decay: LrDecayOpt = LR_DECAY,
    memory: MemoryOpt = MEMORY,
    seed: RunSeedOpt = DEFAULT_SEED,
) -> None:
    """Fit a model to labelled positions: a learned player, OUT/model.npz, and its held-out figures."""
    from idiotsim.learn.fitting import train_model
    config = _train_config(kind, hidden, hidden2, epochs, lr_decay, memory, seed)
    folders = [Path(d) for d in data.split(",") if d.strip()]
    if not folders:
        raise UserError("--data needs at least one folder of idiotsim learn generate")
    check_out_folder(out)
    summary = train_model(folders, out, config, log=_say, margin=margin)
    held = summary["held_out"]
    sys.stdout.write(f"{summary['kind']} model on {summary['train_positions']:,} positions: held-out gain per "
                     f"decision {held['gain']:+.4f} +/- {held['gain_half']:.4f}, picks the teacher's best move "
                     f"{held['agreement']:.1%} (basic {summary['basic_held_out']['agreement']:.1%})\n"
                     f"model.npz and train.json written to {out}\n")


@sub_command(learn, "evaluate")
def evaluate(
    strategies: Annotated[str, typer.Option("--strategies", "-s", metavar="A,B,...",
                                            help="The players: specs or model.npz files.")],
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR", help="Folder of evaluate.md.")],
    players: PlayersOpt = PLAYERS,
    deals: DealsOpt = DEALS,
) -> None:
    """Measure players against basic: each at every seat of the same fresh deals, basic elsewhere, its mean
    place minus basic's in the same seat (OUT/evaluate.md)."""
    from idiotsim.learn.evaluate import strengths
    from idiotsim.runs.atomic_files import make_folder, write_atomic
    from idiotsim.strategies.loading import split_specs
    _check_players(players)
    _at_least(("--deals", deals, 2))
    if not strategies.strip():
        raise UserError("--strategies needs at least one player (specs or model.npz files)")
    check_out_folder(out)
    start = time.perf_counter()
    rows = strengths(split_specs(strategies), players, deals)
    lines = [f"{deals:,} deals x {players} seats, basic elsewhere; mean place minus basic in the same seat "
             "(95% CI, Holm-adjusted)", "", "| player | vs basic | games/s, one seat |", "|---|---|---|"]
    for s in rows:
        x = s.vs_basic
        lines.append(f"| `{s.spec}` | {x.mean:+.4f} [{x.lo:+.4f}, {x.hi:+.4f}] | {s.games_per_second:,.0f} |")
    text = "\n".join(lines) + "\n"
    make_folder(Path(out))
    write_atomic(Path(out) / "evaluate.md", text)
    sys.stdout.write(text + f"\nevaluate.md written to {out} ({time.perf_counter() - start:.0f} s)\n")


@sub_command(learn, "loop")
def loop(
    *,
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR",
                                     help="Loop folder (resumed when rerun with the same options).")],
    players: PlayersOpt = PLAYERS,
    seed: RunSeedOpt = DEFAULT_SEED,
    iterations: Annotated[int, typer.Option("--iterations", metavar="I", help="Expert iterations.")] = 2,
    games: Annotated[int, typer.Option("--games", "-g", metavar="G",
                                       help="Games whose positions are labelled, per iteration.")] = GAMES,
    collectors: CollectorsOpt = COLLECTORS,
    rollouts: RolloutsOpt,
    turn_share: TurnShareOpt = TURN_SHARE,
    swap_share: SwapShareOpt = SWAP_SHARE,
    kind: KindOpt = KIND,
    hidden: HiddenOpt = HIDDEN,
    hidden2: Hidden2Opt = HIDDEN2,
    epochs: EpochsOpt = EPOCHS,
    lr_decay: LrDecayOpt = LR_DECAY,
    memory: MemoryOpt = MEMORY,
    deals: DealsOpt = DEALS,
    tuning_deals: Annotated[int, typer.Option("--tuning-deals", metavar="D",
                                              help="Deals each margin is tried on.")] = 2000,
    cluster: ClusterOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """The whole pipeline as expert iterations: label, train, tune the margin, evaluate; each iteration's
    student joins the collectors of the next (OUT/learn.md, its plots and OUT/model.npz)."""
    from idiotsim.learn.loop import LoopConfig, run_loop
    _check_labelling(players, seed, games, rollouts, turn_share, swap_share)
    train_config = _train_config(kind, hidden, hidden2, epochs, lr_decay, memory, seed)
    _at_least(("--deals", deals, 2), ("--tuning-deals", tuning_deals, 2), ("--iterations", iterations, 1))
    check_out_folder(out)
    config = LoopConfig(players=players, seed=seed, iterations=iterations, games=games,
                        collectors=collector_specs(collectors), rollouts=rollouts, turn_share=turn_share,
                        swap_share=swap_share, train=train_config, deals=deals, tuning_deals=tuning_deals)
    with executor_from_flags(cluster, workers) as executor:
        run_loop(config, out, executor, log=_say)
    sys.stdout.write((Path(out) / "learn.md").read_text())


@sub_command(learn, "page")
def page(
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR",
                                     help="The reports folder: its CSVs are read.")],
) -> None:
    """Write the learned player's page, OUT/learned.md and OUT/learned_frontier.png, from the CSVs in OUT
    (`idiotsim learn page --out reports`)."""
    from idiotsim.experiments.learned_page import write_learned_page
    check_out_folder(out)
    written = write_learned_page(Path(out))
    _say(f"{' and '.join(str(p) for p in written)} written from the CSVs in {out}")
