"""The command line: ``idiotsim trace``, ``idiotsim strategies``, and the shared
option helpers later commands (run, deal, tournament, ...) reuse.

Every user mistake (a ``UserError`` from the library, or a usage error from
typer/click) ends the program with ONE line on stderr, ``error: <message>``,
and exit code 2 -- never a traceback. ``main()`` is the console script.

Adding a command: declare its options with the ``*Opt`` aliases below, then
turn them into library objects with ``load_rules_option``, ``load_seats``,
``check_seed`` / ``check_game`` and ``load_deck_matches`` / ``seed_decks``.
"""
from __future__ import annotations

import json
import sys
from enum import Enum
from types import SimpleNamespace
from typing import Annotated, Iterable, Optional

import typer

try:  # typer 0.2x ships its own copy of click and no longer depends on it
    from typer._click import exceptions as _click_exc
except ImportError:  # pragma: no cover - older typer runs on click itself
    from click import exceptions as _click_exc

from idiotsim.cards import BASIC_KEY, card_name, card_pretty, card_rank, read_deck_file
from idiotsim.errors import UserError
from idiotsim.rules import FIELD_NAMES, Rules, load_rules
from idiotsim.rng import shuffled_deck

SEED_MAX = 2 ** 63 - 1  # seeds and game indices feed int64 counters (idiotsim.rng)

app = typer.Typer(
    name="idiotsim",
    help="Monte Carlo simulator of the card game Idiot (Palace, Shed, Karma). Rules: RULES.md.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


# ---- errors ----------------------------------------------------------------

def _one_line(message: str) -> str:
    return " ".join(line.strip() for line in str(message).strip().splitlines() if line.strip())


def _fail(message: str) -> None:
    print(f"error: {_one_line(message)}", file=sys.stderr)
    sys.exit(2)


def _command_path(error, argv) -> str:
    """`idiotsim COMMAND` for a usage error's help hint (some parser errors carry no context)."""
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        return ctx.command_path
    names = {c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands}
    args = sys.argv[1:] if argv is None else argv
    command = next((a for a in args if not a.startswith("-")), None)
    return f"idiotsim {command}" if command in names else "idiotsim"


_NO_ARGS = getattr(_click_exc, "NoArgsIsHelpError", ())  # click >= 8.2


def main(argv: list[str] | None = None) -> None:
    """Run the app; a user error becomes one ``error: ...`` line and exit code 2."""
    try:
        rv = app(args=argv, prog_name="idiotsim", standalone_mode=False)
    except UserError as e:
        _fail(str(e))
    except _NO_ARGS as e:  # bare `idiotsim`: show the help (typer may have printed it already)
        if e.format_message().strip():
            print(e.format_message(), file=sys.stderr)
        sys.exit(2)
    except _click_exc.UsageError as e:
        _fail(f"{e.format_message()} (see '{_command_path(e, argv)} --help')")
    except _click_exc.ClickException as e:
        _fail(e.format_message())
    except (typer.Abort, getattr(_click_exc, "Abort", typer.Abort)):
        _fail("aborted")
    sys.exit(rv if isinstance(rv, int) else 0)


# ---- shared options --------------------------------------------------------
# Reuse these in every command so flags read and fail the same way everywhere.

PlayersOpt = Annotated[Optional[int], typer.Option(
    "--players", "-n", metavar="N", help="Number of players (2..10); overrides the rules file and --rule.")]
RulesFileOpt = Annotated[Optional[str], typer.Option(
    "--rules", metavar="FILE.toml", help="Rules config file (TOML): the rules fields, at top level or in a rules table.")]
RuleOpt = Annotated[Optional[list[str]], typer.Option(
    "--rule", metavar="NAME=VALUE",
    help=f"Set one rules field (repeatable), after --rules. Fields: {', '.join(FIELD_NAMES)}.")]
StrategiesOpt = Annotated[str, typer.Option(
    "--strategies", "-s", metavar="A,B,...",
    help="One strategy per seat, comma-separated; one name means every seat. "
         "name[:knob=v,...] or path/file.py:name. See `idiotsim strategies`.")]
SeedOpt = Annotated[Optional[int], typer.Option(
    "--seed", metavar="S", help=f"Run seed, 0..{SEED_MAX}.")]
GameOpt = Annotated[Optional[int], typer.Option(
    "--game", metavar="I", help="Game index under --seed (default 0).")]
DeckOpt = Annotated[Optional[str], typer.Option(
    "--deck", metavar="FILE",
    help="Deck file: one deck string per line (R3); with rounds = k, each k lines are one match.")]


class Engine(str, Enum):
    """Game engines. Each must return a ``reference.MatchResult``-like object with ``events``."""
    reference = "reference"
    numba = "numba"


EngineOpt = Annotated[Engine, typer.Option(
    "--engine", case_sensitive=False, help="Engine that plays the games.")]


def play_match(engine: Engine, decks, rules: Rules, seats, seed: int, game: int):
    """One match on the chosen engine (a new engine is one more branch here)."""
    if engine == Engine.reference:
        from idiotsim import reference
        return reference.play_match(decks, rules, seats, seed, game)
    from idiotsim.simulate import trace_game
    events, _, places = trace_game(rules, seats, seed, game, decks)
    return SimpleNamespace(events=events, places=places)


def load_rules_option(rules_file: str | None, rule: Iterable[str] | None, players: int | None) -> Rules:
    """Rules from ``--rules FILE``, then ``--rule NAME=VALUE`` (in order), then ``--players``."""
    return load_rules(rules_file, list(rule or ()), players=players)


def load_seats(text: str, rules: Rules) -> list:
    """``--strategies`` for ``rules.players`` seats (one name means every seat)."""
    from idiotsim.strategy_api import load_strategies
    return load_strategies(text, rules.players)


def check_seed(value: int, option: str = "--seed") -> int:
    if not 0 <= value <= SEED_MAX:
        raise UserError(f"{option} must be an integer 0..{SEED_MAX} (2**63-1), got {value}")
    return value


def check_game(value: int, option: str = "--game") -> int:
    if not 0 <= value <= SEED_MAX:
        raise UserError(f"{option} must be a game index 0..{SEED_MAX}, got {value}")
    return value


def seed_decks(seed: int, game: int, rules: Rules) -> list:
    """The decks of game `game` under `seed`: one shuffled deck per round."""
    return [shuffled_deck(seed, game, r, rules.decks) for r in range(rules.rounds)]


def load_deck_matches(path: str, rules: Rules) -> list[list]:
    """A deck file split into matches of ``rules.rounds`` consecutive decks each."""
    decks = read_deck_file(path, rules.decks)
    k = rules.rounds
    if len(decks) % k:
        raise UserError(f"deck file {path} holds {len(decks)} deck(s), not a multiple of rounds={k} "
                        f"(each match takes {k} consecutive decks)")
    return [decks[i: i + k] for i in range(0, len(decks), k)]


def public_event(event: dict) -> dict:
    """A trace event without its private (``_``) keys: exactly the RULES.md trace format."""
    return {k: v for k, v in event.items() if not k.startswith("_")}


def trace_lines(events: Iterable[dict]) -> list[str]:
    return [json.dumps(public_event(e)) for e in events]


# ---- trace -----------------------------------------------------------------

@app.command()
def trace(
    players: PlayersOpt = None,
    strategies: StrategiesOpt = "basic",
    deck: DeckOpt = None,
    seed: SeedOpt = None,
    game: GameOpt = None,
    deal: Annotated[Optional[int], typer.Option(
        "--deal", metavar="D", help="Deal (shuffle stream) under --seed, when it differs from the game: "
                                    "a tournament row's `deal` column (default: the game index).")] = None,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
    pretty: Annotated[bool, typer.Option("--pretty", help="Show the game for a person instead of JSON Lines.")] = False,
    engine: EngineOpt = Engine.reference,
) -> None:
    """Play games and print their trace (JSON Lines, RULES.md "Trace format").

    Give exactly one of --deck FILE (every match in the file, game index =
    match number, seed 0) or --seed S [--game I] (decks shuffled from the seed).
    """
    if (deck is None) == (seed is None):
        raise UserError("give exactly one of --deck FILE and --seed S "
                        f"({'both were given' if deck is not None else 'neither was given'})")
    if deal is not None and seed is None:
        raise UserError("--deal applies only with --seed")
    if game is not None and seed is None:
        raise UserError("--game applies only with --seed (with --deck the game index is the match number)")
    if pretty and engine == Engine.numba:
        raise UserError("--pretty shows suits, which only the reference engine keeps: drop --engine numba")
    rules = load_rules_option(rules_file, rule, players)
    seats = load_seats(strategies, rules)
    if seed is not None:
        run_seed = check_seed(seed)
        first_game = check_game(0 if game is None else game)
        deal_index = first_game if deal is None else check_game(deal, "--deal")
        matches = [(first_game, seed_decks(run_seed, deal_index, rules))]
    else:
        run_seed = 0
        matches = list(enumerate(load_deck_matches(deck, rules)))
    symbols = _suit_symbols_ok()
    for i, (g, decks) in enumerate(matches):
        result = play_match(engine, decks, rules, seats, run_seed, g)
        if pretty:
            lines = pretty_lines(result, rules, seats, run_seed, g, symbols)
            if i:
                lines.insert(0, "")
        else:
            lines = trace_lines(result.events)
        sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()


# ---- run and deal ------------------------------------------------------------

GamesOpt = Annotated[int, typer.Option("--games", "-g", metavar="G", help="Number of games to play.")]
OutOpt = Annotated[str, typer.Option("--out", "-o", metavar="DIR", help="Results folder (Parquet, one file per chunk).")]
ThreadsOpt = Annotated[Optional[int], typer.Option(
    "--threads", metavar="T", help="Engine threads (default: all cores, or NUMBA_NUM_THREADS).")]
ClusterOpt = Annotated[Optional[str], typer.Option(
    "--cluster", metavar="tcp://HOST:8786", help="Run the chunks on this Dask scheduler (needs idiotsim[dask]).")]
WorkersOpt = Annotated[Optional[int], typer.Option(
    "--workers", metavar="N", help="Run the chunks on a local Dask cluster of N worker processes.")]


def set_threads(threads: int | None) -> None:
    if threads is None:
        return
    import numba
    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise UserError(f"--threads must be 1..{numba.config.NUMBA_NUM_THREADS}, got {threads}")
    numba.set_num_threads(threads)


def check_games(games: int) -> int:
    if not 1 <= games <= 10 ** 12:
        raise UserError(f"--games must be 1..10**12, got {games}")
    return games


@app.command()
def run(
    out: OutOpt,
    players: PlayersOpt = None,
    strategies: StrategiesOpt = "basic",
    games: Annotated[Optional[int], typer.Option("--games", "-g", metavar="G",
                                                 help="Number of games (with --decks: defaults to all).")] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Run seed (decks and stochastic strategies).")] = 0,
    decks_file: Annotated[Optional[str], typer.Option(
        "--decks", metavar="FILE", help="Play these decks (one per line, `rounds` lines per game) in order.")] = None,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
    threads: ThreadsOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Replace results already in --out.")] = False,
    cluster: ClusterOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Play games on the numba engine; one Parquet row per game; print a placement table."""
    from pathlib import Path

    from idiotsim import runner
    rules = load_rules_option(rules_file, rule, players)
    seats = load_seats(strategies, rules)
    check_seed(seed)
    set_threads(threads)
    runner.check_out_dir(Path(out), force)
    decks = None
    if decks_file is not None:
        decks = read_deck_file(decks_file, rules.decks)
        available = len(decks) // rules.rounds
        if len(decks) % rules.rounds:
            raise UserError(f"deck file {decks_file} holds {len(decks)} deck(s), not a multiple of "
                            f"rounds={rules.rounds}")
        games = available if games is None else games
        if games > available:
            raise UserError(f"--games {games} but {decks_file} holds only {available} game(s)")
    elif games is None:
        raise UserError("give --games G (or --decks FILE)")
    check_games(games)
    from idiotsim.chunks import executor_from_flags
    with executor_from_flags(cluster, workers) as executor:
        result_dir = runner.run(rules, seats, seed, games, out, decks, force=force, executor=executor)
    print_seat_table(result_dir, rules.players)


def print_seat_table(out_dir, players: int) -> None:
    from rich.console import Console
    from rich.table import Table

    from idiotsim.results import scan, seat_table
    frame = seat_table(scan(out_dir), players)
    table = Table(title=f"placements ({frame['games'][0]:,} games, results in {out_dir})")
    for column in ("seat", "strategy", "mean place", "win rate", "Idiot rate"):
        table.add_column(column, justify="left" if column == "strategy" else "right")
    for row in frame.iter_rows(named=True):
        table.add_row(str(row["seat"]), row["strategy"], f"{row['mean_place']:.4f}",
                      f"{row['win_rate']:.2%}", f"{row['idiot_rate']:.2%}")
    console = Console()
    console.print(table)
    console.print(f"stall rate: {frame['stall_rate'][0]:.4%}")


@app.command()
def deal(
    players: PlayersOpt = None,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Run seed.")] = 0,
    games: GamesOpt = 1,
    first_game: Annotated[int, typer.Option("--first-game", metavar="I", help="Index of the first game.")] = 0,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
) -> None:
    """Print the decks that `run --seed S` plays, one per line (rounds lines per game)."""
    from idiotsim.runner import deal_lines
    rules = load_rules_option(rules_file, rule, players)
    check_seed(seed)
    check_games(games)
    check_game(first_game, "--first-game")
    for line in deal_lines(rules, seed, games, first_game):
        sys.stdout.write(line + "\n")


# ---- tournaments ---------------------------------------------------------------

class ProgressBar:
    """A rich progress bar with games/s and time left, on a terminal only."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.bar = None

    def start(self, total: int, done: int) -> None:
        if not self.enabled:
            return
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn)

        class Rate(TextColumn):
            def render(self, task):
                speed = task.finished_speed or task.speed
                return super().render(task) if speed is None else f"{speed:,.0f} games/s"

        self.bar = Progress(TextColumn("[bold]playing"), BarColumn(), MofNCompleteColumn(), Rate(""),
                            TimeRemainingColumn(), transient=False)
        self.bar.start()
        self.task = self.bar.add_task("games", total=total, completed=done)

    def advance(self, games: int) -> None:
        if self.bar:
            self.bar.advance(self.task, games)

    def stop(self) -> None:
        if self.bar:
            self.bar.stop()


def report_tournament(out_dir) -> None:
    """Summarize a tournament folder: Markdown, CSV and plots into it, the table to stdout."""
    from idiotsim.plots import write_plots
    from idiotsim.summary import summarize, to_markdown, write_summary
    summary = summarize(out_dir)
    write_summary(summary, out_dir)
    write_plots(summary, out_dir)
    sys.stdout.write(to_markdown(summary, f"Tournament {out_dir}"))
    sys.stdout.write(f"\nsummary.md, CSV tables and plots written to {out_dir}\n")


@app.command()
def tournament(
    out: OutOpt,
    strategies: Annotated[str, typer.Option("--strategies", "-s", metavar="A,B,...",
                                            help="Strategies to compare (specs as in `run`).")],
    players: Annotated[int, typer.Option("--players", "-n", metavar="N", help="Players per table.")] = 4,
    games: Annotated[int, typer.Option("--games", "-g", metavar="G",
                                       help="Games to play (rounded up to whole blocks).")] = 100_000,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Run seed.")] = 0,
    field: Annotated[Optional[str], typer.Option(
        "--field", metavar="F,...", help="Field mode: each strategy plays against these (e.g. basic).")] = None,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
    threads: ThreadsOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Replace a tournament with another configuration.")] = False,
    independent: Annotated[bool, typer.Option(
        "--independent-deals", help="Give every game its own deal (no duplicate deals; for comparison).")] = False,
    chunk_games: Annotated[int, typer.Option("--chunk-games", metavar="C",
                                             help="Games per Parquet chunk.")] = 500_000,
    cluster: ClusterOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """A fair tournament: rotated duplicate deals, Parquet results, summary, plots. Resumes if interrupted."""
    from pathlib import Path

    from idiotsim.strategy_api import split_specs
    from idiotsim.tournament import TournamentConfig, Tournament, run_tournament
    rules = load_rules_option(rules_file, rule, players)
    check_seed(seed)
    check_games(games)
    set_threads(threads)
    if not 1_000 <= chunk_games <= 10_000_000:
        raise UserError(f"--chunk-games must be 1000..10000000, got {chunk_games}")
    rules_fields = {k: v for k, v in rules.as_dict().items() if k != "players"}
    config = TournamentConfig(strategies=tuple(split_specs(strategies)), players=rules.players, games=games,
                              seed=seed, rules=rules_fields, field=tuple(split_specs(field)) if field else (),
                              duplicate=not independent, chunk_games=chunk_games)
    Tournament(config)  # validates strategies and lineups before touching --out
    progress = ProgressBar(sys.stderr.isatty())
    from idiotsim.chunks import executor_from_flags
    with executor_from_flags(cluster, workers) as executor:
        run_tournament(config, Path(out), force=force, progress=progress, executor=executor)
    report_tournament(out)


@app.command()
def summarize(out: Annotated[str, typer.Argument(metavar="DIR", help="A tournament results folder.")]) -> None:
    """Summarize a tournament folder (tables and plots written into it)."""
    report_tournament(out)


DEMO_STRATEGIES = "basic,random"


@app.command()
def demo(out: Annotated[str, typer.Option("--out", metavar="DIR", help="Results folder.")] = "results/demo",
         games: Annotated[int, typer.Option("--games", metavar="G")] = 1_000_000) -> None:
    """The main job: a tournament of the shipped strategies, with its table and plots."""
    from pathlib import Path

    from idiotsim.strategy_api import registry
    from idiotsim.tournament import MANIFEST
    names = ",".join(sorted(registry()))
    # Replace an earlier demo (its strategies may have changed), never an unrelated folder.
    tournament(out=out, strategies=names, players=4, games=games, seed=2026, field=None, rules_file=None,
               rule=None, threads=None, force=(Path(out) / MANIFEST).exists(), independent=False,
               chunk_games=500_000, cluster=None, workers=None)


# ---- pretty trace ------------------------------------------------------------

PLACE_WORDS = {1: "1st", 2: "2nd", 3: "3rd"}
SOURCE_WORDS = {"hand": "hand", "faceup": "face-up", "blind": "blind", "talon": "talon"}
PILE_SHOWN = 10  # the top cards of the pile shown after a play
PILE_COLUMN = 42


def _place(p: int) -> str:
    return PLACE_WORDS.get(p, f"{p}th")


def _suit_symbols_ok() -> bool:
    """Suit symbols if stdout can encode them, else letter suits (``10H``)."""
    try:
        "\u2660\u2663\u2665\u2666\u2026".encode(sys.stdout.encoding or "ascii")
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def _cards_key(card: int):
    return (BASIC_KEY[card_rank(card)], card)


def pretty_lines(result, rules: Rules, seats, seed: int, game: int, symbols: bool = True) -> list[str]:
    """A match for a person: one line per event, the pile after each play, places."""
    show = card_pretty if symbols else card_name
    ellipsis = "\u2026" if symbols else "..."

    def cards(cs, sort=False) -> str:
        return " ".join(show(c) for c in (sorted(cs, key=_cards_key) if sort else cs))

    def pile_text(pile) -> str:
        if not pile:
            return "pile: empty"
        shown = cards(pile[-PILE_SHOWN:])
        return f"pile ({len(pile)}): " + (f"{ellipsis} {shown}" if len(pile) > PILE_SHOWN else shown)

    n = rules.players
    changed = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.as_dict().items()
               if k != "players" and v != getattr(Rules(players=n), k)]
    lines = [f"== game {game}, seed {seed}: {n} players, {rules.decks} deck{'s' if rules.decks > 1 else ''}"
             + (f", {rules.rounds} rounds" if rules.rounds > 1 else "")
             + (f"; rules: {', '.join(changed)}" if changed else "") + " =="]
    lines.append("seats: " + ", ".join(f"{p} {s.label}" for p, s in enumerate(seats)))
    width = len(str(n - 1))
    pile: list = []
    current_round = None
    for e in result.events:
        if e["round"] != current_round:
            current_round = e["round"]
            pile = []
            lines.append(f"-- round {current_round} --")
        if e["action"] == "end":
            order = sorted(range(n), key=lambda p: e["places"][p])
            ranking = ", ".join(f"{_place(e['places'][p])} seat {p}" for p in order)
            lines.append(f"round {current_round} over{' (STALLED at the action limit)' if e['stalled'] else ''}: "
                         f"{ranking}{'' if e['stalled'] else ' (the Idiot)'}")
            continue
        who = f"  seat {e['seat']:>{width}}  "
        action = e["action"]
        if action == "swap":
            lines.append(f"{who}face-up {cards(e['_faceup'], True)} | hand {cards(e['_hand'], True)}")
        elif action == "play":
            played = e["_cards"]
            source = e["from"]
            if source == "blind":
                text = f"flips {cards(played)} (blind), plays it"
            elif source == "talon":
                text = f"turns {cards(played)} (talon), plays it"
            else:
                text = f"plays {cards(played)} from {SOURCE_WORDS[source]}"
            pile = pile + list(played)
            if e["burn"]:
                text += f", burns {len(pile)} card{'s' if len(pile) > 1 else ''}"
                pile = []
            lines.append(f"{who}{text:<{PILE_COLUMN}} {pile_text(pile)}")
        elif action == "pickup":
            taken = e["_cards"]
            if "from" in e:  # a failed blind flip (R15) or chance card (V5): the last card taken
                flip = "flips" if e["from"] == "blind" else "turns"
                text = f"{flip} {show(taken[-1])} ({e['from']}), fails: picks up {e['cards']}"
            else:
                text = f"picks up {e['cards']} card{'s' if e['cards'] > 1 else ''}"
            lines.append(f"{who}{text:<{PILE_COLUMN}} took: {cards(taken, True)}")
            pile = []
        elif action == "out":
            lines.append(f"{who}is OUT: {_place(e['place'])} place")
        else:  # pragma: no cover - a new event kind shows raw
            lines.append(f"{who}{json.dumps(public_event(e))}")
    if rules.rounds > 1:
        lines.append("match: " + ", ".join(
            f"seat {p} total {result.totals[p]} ({_place(result.places[p])})" for p in range(n)))
    return lines


# ---- strategies --------------------------------------------------------------

@app.command("strategies")
def strategies_command() -> None:
    """List the registered strategies, their knobs and presets."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from idiotsim.strategy_api import registry

    table = Table(title="idiotsim strategies", show_lines=False)
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("description")
    table.add_column("sto-\nchastic", justify="center")
    table.add_column("counts\ncards", justify="center")
    table.add_column("knobs: default (range)")
    for name, s in sorted(registry().items()):
        description = s.description
        preset = s.presets.get(name) if name != s.name else None
        if preset is not None:
            values = ", ".join(f"{k}={v:g}" for k, v in preset.items())
            description = f"preset of {s.name}: {values}"
        knobs = "\n".join(  # one knob a line
            f"{k.name}: {k.default:g} ({k.low:g}..{k.high:g}{'' if k.integer else ', real'})" for k in s.knobs
        ) or "-"
        table.add_row(escape(name), escape(description), "yes" if s.stochastic else "no",
                      "yes" if s.counts_cards else "no", escape(knobs))
    Console().print(table)


from idiotsim.report_cli import register as _register_report  # noqa: E402

_register_report(app)


if __name__ == "__main__":  # pragma: no cover
    main()
