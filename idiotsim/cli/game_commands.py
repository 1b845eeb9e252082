"""Commands that play games: ``trace`` (one match, shown), ``deal`` (the decks of
a run) and ``run`` (many games into Parquet, with a placement table)."""
from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Optional

import typer

from idiotsim.game.cards import read_deck_file
from idiotsim.runs.chunks import executor_from_flags
from idiotsim.cli.app import quick_exit_when_done
from idiotsim.cli.options import (DEFAULT_SEED, ClusterOpt, GameFileOpt, GameOpt, GamesOpt, OutOpt, PlayersOpt,
                                  RevealOpt, RuleOpt, RulesFileOpt, RunSeedOpt, SeedOpt, StrategiesOpt, ThreadsOpt,
                                  WorkersOpt, check_game, check_games, check_seed, load_rules_option, load_seats,
                                  set_threads)
from idiotsim.game.trace import as_seen_by, pretty_lines, suit_symbols_ok, trace_lines
from idiotsim.errors import UserError
from idiotsim.runs.atomic_files import check_out_folder
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules

DeckOpt = Annotated[Optional[str], typer.Option(
    "--deck", metavar="FILE",
    help="Deck file: one deck string per line (R3); with rounds = k, each k lines are one match.")]


class Engine(str, Enum):
    """Game engines. Each must return a ``reference.MatchResult``-like object with ``events``."""
    reference = "reference"
    numba = "numba"


EngineOpt = Annotated[Engine, typer.Option(
    "--engine", case_sensitive=False, help="Engine that plays the games.")]


def play_match(engine: Engine, decks, rules: Rules, seats, seed: int, game: int, events: list | None = None):
    """One match on the chosen engine (a new engine is one more branch here). A game stopped by an error keeps
    its events so far in `events`: the reference engine appends each as it happens, the numba engine on error."""
    if engine == Engine.reference:
        from idiotsim.game import reference
        return reference.play_match(decks, rules, seats, seed, game,
                                    observer=None if events is None else lambda event, rnd: events.append(event))
    from idiotsim.engine.batches import trace_game
    played, _, places = trace_game(rules, seats, seed, game, decks, stopped=events)
    return SimpleNamespace(events=played, places=places)


def seed_decks(seed: int, game: int, rules: Rules) -> list:
    """The decks of game `game` under `seed`: one shuffled deck per round."""
    return [shuffled_deck(seed, game, r, rules.decks) for r in range(rules.rounds)]


def seeded_match(seed: int, game: int | None, deal: int | None, rules: Rules) -> tuple[int, int, list]:
    """``--seed S [--game I] [--deal D]``, checked: (seed, game index, the decks of the deal)."""
    run_seed = check_seed(seed)
    game_index = check_game(0 if game is None else game)
    deal_index = game_index if deal is None else check_game(deal, "--deal")
    return run_seed, game_index, seed_decks(run_seed, deal_index, rules)


def load_deck_matches(path: str, rules: Rules) -> list[list]:
    """A deck file split into matches of ``rules.rounds`` consecutive decks each."""
    decks = read_deck_file(path, rules.decks)
    rounds = rules.rounds
    if len(decks) % rounds:
        raise UserError(f"deck file {path} holds {len(decks)} deck(s), not a multiple of rounds={rounds} "
                        f"(each match takes {rounds} consecutive decks)")
    return [decks[i: i + rounds] for i in range(0, len(decks), rounds)]


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
    game_file: GameFileOpt = None,
    reveal: RevealOpt = False,
) -> None:
    """Play games and print their trace (JSON Lines, docs/trace.md).

    Give exactly one of --deck FILE (every match in the file, game index =
    match number, seed 0), --seed S [--game I] (decks shuffled from the seed)
    or --game-file FILE (a game of `idiotsim play`, replayed decision by decision;
    an unfinished one as your seat saw it, the bots' hands hidden, unless --reveal).
    """
    if reveal and game_file is None:
        raise UserError("--reveal applies only with --game-file (another game shows every card already)")
    if game_file is not None:
        given = [name for name, value in (("--deck", deck), ("--seed", seed), ("--game", game), ("--deal", deal),
                                          ("--rules", rules_file), ("--rule", rule), ("--players", players))
                 if value not in (None, [])]
        if given:
            raise UserError(f"a game file holds the whole game: drop {', '.join(given)}")
        if engine == Engine.numba:
            raise UserError("a game file replays on the reference engine: drop --engine numba")
        _trace_game_file(game_file, pretty, reveal)
        return
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
        run_seed, first_game, decks = seeded_match(seed, game, deal, rules)
        matches = [(first_game, decks)]
    else:
        run_seed = 0
        matches = list(enumerate(load_deck_matches(deck, rules)))
    symbols = suit_symbols_ok()
    for i, (game_index, decks) in enumerate(matches):
        events: list = []
        try:
            result = play_match(engine, decks, rules, seats, run_seed, game_index, events)
        except UserError:  # a strategy's illegal move or fault: the game up to it, then the error line
            result = SimpleNamespace(events=events, finished=False)
            _write_trace(result, rules, seats, run_seed, game_index, pretty and symbols, pretty, i,
                         STOPPED if pretty else None)
            raise
        _write_trace(result, rules, seats, run_seed, game_index, symbols, pretty, i)
    sys.stdout.flush()


STOPPED = "(the game stops here: the next decision is the error below)"


def _write_trace(result, rules: Rules, seats, seed: int, game: int, symbols: bool, pretty: bool, index: int,
                 last_line: str | None = None) -> None:
    """One match's trace: JSON Lines, or `pretty` for a person (a blank line before every match but the
    first), and `last_line` after it."""
    if pretty:
        lines = numbered(pretty_lines(result, rules, seats, seed, game, symbols), result.events)
        if index:
            lines.insert(0, "")
    else:
        lines = trace_lines(result.events)
    lines += [last_line] if last_line else []
    sys.stdout.write("\n".join(lines) + ("\n" if lines else ""))
    sys.stdout.flush()


def numbered(lines: list[str], events: list) -> list[str]:
    """`trace --pretty` lines with each event's line number in the JSON trace in front (the numbers
    `analyze --action L` and `review` use): the header lines and each round's `-- round R --` line
    stay unnumbered, as does the match's line after the events."""
    width = len(str(len(events)))
    first = next((i for i, line in enumerate(lines) if line.startswith(ROUND_MARK)), len(lines))
    out = lines[:first]
    event = 0
    for line in lines[first:]:
        if line.startswith(ROUND_MARK) or event == len(events):
            out.append(" " * (width + 2) + line if line.startswith(ROUND_MARK) else line)
            continue
        event += 1
        out.append(f"{event:>{width}}{line}" if line.startswith("  ") else f"{event:>{width}} {line}")
    return out


ROUND_MARK = "-- round "  # how `pretty_lines` opens a round


def _trace_game_file(path: str, pretty: bool, reveal: bool) -> None:
    """The trace of a game file (up to its last decision when the game was left unfinished: then, unless
    `reveal`, as the person's seat saw it)."""
    from idiotsim.table import gamefile
    record = gamefile.load(path)
    events, result = gamefile.replay(record)
    hidden = gamefile.hides_hands(record) and not reveal
    if hidden:
        events = as_seen_by(events, record.human_seat)
        result.events = events
    if not pretty:
        lines = trace_lines(events)
    else:
        seats = [SimpleNamespace(label=label) for label in record.seats]
        lines = numbered(pretty_lines(result, record.rules, seats, record.seed, record.game, suit_symbols_ok()),
                         events)
        if not result.finished:
            lines.append("(the game file ends here: the game was left unfinished"
                         + ("; the hands the bots kept are hidden until it is finished, --reveal shows them)"
                            if hidden else ")"))
    sys.stdout.write("\n".join(lines) + ("\n" if lines else ""))
    sys.stdout.flush()


def run(
    out: OutOpt,
    players: PlayersOpt = None,
    strategies: StrategiesOpt = "basic",
    games: Annotated[Optional[int], typer.Option("--games", "-g", metavar="G",
                                                 help="Number of games (with --decks: defaults to all).")] = None,
    seed: RunSeedOpt = DEFAULT_SEED,
    decks_file: Annotated[Optional[str], typer.Option(
        "--decks", metavar="FILE", help="Play these decks (one per line, `rounds` lines per game) in order.")] = None,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
    threads: ThreadsOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Replace results already in --out.")] = False,
    chunk_games: Annotated[Optional[int], typer.Option(
        "--chunk-games", metavar="C", help="Games per Parquet file (default 500,000; fewer with slow players).")] = None,
    cluster: ClusterOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Play games on the numba engine; one Parquet row per game; print a placement table.

    A progress bar shows the games played in a terminal (a line per file otherwise). Interrupted
    (Ctrl-C, even kill -9), the same command goes on from the files already played, to the same
    results; run again once finished, it prints the placements of the results it left.
    """
    from idiotsim.runs import runner
    rules = load_rules_option(rules_file, rule, players)
    seats = load_seats(strategies, rules)
    check_seed(seed)
    set_threads(threads)
    if chunk_games is not None and not 1 <= chunk_games <= 10_000_000:
        raise UserError(f"--chunk-games must be 1..10000000, got {chunk_games}")
    decks = None
    if decks_file is not None:
        matches = load_deck_matches(decks_file, rules)
        decks = [d for match in matches for d in match]
        games = len(matches) if games is None else games
        if games > len(matches):
            raise UserError(f"--games {games} but {decks_file} holds only {len(matches)} game(s)")
    elif games is None:
        raise UserError("give --games G (or --decks FILE)")
    check_games(games)
    chunk = runner.chunk_size(seats) if chunk_games is None else chunk_games
    key = runner.run_key(rules, [s.label for s in seats], seed, games, decks, chunk)
    runner.check_out_dir(Path(out), force, key)
    executor = executor_from_flags(cluster, workers)
    check_out_folder(out)
    again = runner.finished_run(Path(out), key) and not force
    progress = RunProgress(sys.stderr, out)
    try:
        with executor, _interrupts() as interrupted:
            result_dir = runner.run(rules, seats, seed, games, out, decks, chunk, force=force, executor=executor,
                                    warm_up=_import_seat_table, progress=progress, interrupted=interrupted)
    except runner.RunInterrupted as stop:
        if stop.done:
            print(f"interrupted: {stop.done:,} of {stop.games:,} games played, kept in {out}\n"
                  "run the same command again to go on from there (no game is played twice)", file=sys.stderr)
        else:
            print("interrupted before the first file of games was written: nothing is kept", file=sys.stderr)
        raise typer.Exit(130) from None
    if again:
        print(f"{out} already holds this run (the same command, finished): its placements", file=sys.stderr)
    print_seat_table(result_dir, rules.players)
    if cluster is None and workers is None:  # a Dask cluster's processes are left to the usual exit
        quick_exit_when_done()


class _interrupts:
    """Within: Ctrl-C is noted (and raised as KeyboardInterrupt), so that an error numba makes of it
    still reads as an interrupt; the previous handler after. Yields the question `interrupted()`."""

    def __enter__(self):
        import signal
        import threading
        self.seen = False
        self.previous = None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handler)
        return lambda: self.seen

    def _handler(self, signum, frame):
        self.seen = True
        raise KeyboardInterrupt

    def __exit__(self, *exc):
        import signal
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
        return False


class RunProgress:
    """The games played: a bar with games/s and the time left on a terminal; piped (or to a file), a
    plain line per file of games when the run writes more than one."""

    def __init__(self, stream, out):
        self.stream, self.out = stream, out
        self.terminal = stream.isatty()
        self.bar = None
        self.total = self.done = 0

    def start(self, total: int, done: int) -> None:
        self.total, self.done = total, done
        if done:
            print(f"resuming: {done:,} of {total:,} games were played before", file=self.stream)
        if not self.terminal:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        class Rate(TextColumn):
            def render(self, task):
                speed = task.finished_speed or task.speed
                return super().render(task) if speed is None else f"{speed:,.0f} games/s"

        self.bar = Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(), Rate(""),
                            TimeRemainingColumn(), console=Console(file=self.stream), transient=True)
        self.bar.start()
        self.task = self.bar.add_task("games", total=total, completed=done)

    def advance(self, games: int) -> None:
        self.done += games
        if self.bar is not None:
            self.bar.advance(self.task, games)
        elif self.done < self.total or games < self.total:
            print(f"played {self.done:,} of {self.total:,} games ({100 * self.done / self.total:.0f}%)",
                  file=self.stream, flush=True)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _import_seat_table() -> None:
    import idiotsim.cli.render  # noqa: F401 (rich: imported on the writer thread while the games play)


def print_seat_table(out_dir, players: int) -> None:
    from idiotsim.cli.render import print_placements
    from idiotsim.runs.game_results import scan, seat_table
    print_placements(seat_table(scan(out_dir), players), out_dir)


def deal(
    players: PlayersOpt = None,
    seed: RunSeedOpt = DEFAULT_SEED,
    games: GamesOpt = 1,
    first_game: Annotated[int, typer.Option("--first-game", metavar="I", help="Index of the first game.")] = 0,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
) -> None:
    """Print the decks that `run --seed S` plays, one per line (rounds lines per game)."""
    from idiotsim.runs.runner import deal_lines
    rules = load_rules_option(rules_file, rule, players)
    check_seed(seed)
    check_games(games)
    check_game(first_game, "--first-game")
    for line in deal_lines(rules, seed, games, first_game):
        sys.stdout.write(line + "\n")
