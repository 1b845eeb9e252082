"""``idiotsim play`` (sit at the table against the bots, idiotsim.table) and ``idiotsim review``
(every decision of a seat in a recorded game, judged by the search)."""
from __future__ import annotations

import json
import secrets
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Optional

import typer

from idiotsim.cli.options import (GameOpt, PlayersOpt, RuleOpt, RulesFileOpt, SeedOpt, StrategiesOpt, check_seed,
                                  load_rules_option, load_seats)
from idiotsim.errors import UserError
from idiotsim.table.levels import bot_specs, levels_help

MAX_SEED_DRAWN = 10 ** 6  # a seed drawn for a game is short enough to type again


def play(
    seat: Annotated[int, typer.Option("--seat", metavar="S", help="Your seat (0 starts the first round, R7).")] = 0,
    players: PlayersOpt = None,
    rounds: Annotated[Optional[int], typer.Option(
        "--rounds", metavar="R", help="Rounds of the match, 1..10 (V4): places are summed, the lowest total wins.")] = None,
    seven_low: Annotated[bool, typer.Option(
        "--seven-low", help="7 is low (V1): after a 7 only a 7 or lower, a 2 or a 10.")] = False,
    lowest_starts: Annotated[bool, typer.Option(
        "--lowest-starts", help="The lowest card starts (V3): whoever holds the lowest ordinary rank opens.")] = False,
    level: Annotated[Optional[str], typer.Option(
        "--level", metavar="LEVEL", help=f"The bots' level (default hard). {levels_help()}.")] = None,
    bots: Annotated[Optional[str], typer.Option(
        "--bots", metavar="A,B,...", help="The bots by name instead, one for all or one per bot seat in seat order: "
                                          "basic,tuned-4p,search:rollouts=64 (see `idiotsim strategies`).")] = None,
    seed: SeedOpt = None,
    save: Annotated[Optional[str], typer.Option(
        "--save", metavar="FILE", help="The game file (default: idiotsim-game-<date>-<time>.json here).")] = None,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
) -> None:
    """Play Idiot against the bots: you in one seat, the bots in the others.

    Every game is saved as a game file (the deck, the seats and every decision), which
    `trace --game-file`, `analyze --game-file` and `review` replay exactly. Ctrl-C and quit save
    what has been played.
    """
    from idiotsim.cli.game_commands import seed_decks
    from idiotsim.game.trace import suit_symbols_ok
    from idiotsim.strategies.loading import load_strategy
    from idiotsim.table.screen import make_console
    from idiotsim.table.session import Seats, Session, offer_review
    rules = load_rules_option(rules_file, list(rule or ()) + _table_rules(rounds, seven_low, lowest_starts), players)
    if not 0 <= seat < rules.players:
        raise UserError(f"--seat must be 0..{rules.players - 1} at a table of {rules.players}, got {seat}")
    specs = bot_specs(level, bots, rules.players)
    specs.insert(seat, None)
    game_seed = secrets.randbelow(MAX_SEED_DRAWN) if seed is None else check_seed(seed)
    path = Path(save) if save else _default_save_path()
    console = make_console()
    if console.is_terminal:  # for the person waiting; a pipe gets only the game
        console.print("seating the bots (the first game after an install or an update compiles them: a minute or two)")
    bot_seats = [None if spec is None else load_strategy(spec) for spec in specs]
    _check_fair(bot_seats)
    labels = ["you" if s is None else s.label for s in bot_seats]
    console.print(f"seed {game_seed} ({', '.join(f'seat {i} {label}' for i, label in enumerate(labels))}); "
                  f"the game file: {path}")
    session = Session(rules, Seats(seat, bot_seats, labels), game_seed, 0, seed_decks(game_seed, 0, rules), path,
                      console, suit_symbols_ok())
    outcome = session.run()
    if outcome == "interrupted":
        raise typer.Exit(130)
    console.print(f"replay: idiotsim trace --game-file {path} --pretty; review: idiotsim review {path}")
    if outcome == "finished" and offer_review(console):
        try:
            _print_review(session.record, seat, None, 0, console)
        except KeyboardInterrupt:
            console.print(f"review interrupted (the game is saved: idiotsim review {path})")
            raise typer.Exit(130) from None


def _table_rules(rounds: int | None, seven_low: bool, lowest_starts: bool) -> list[str]:
    """The table's plain flags as rules fields (V4, V1, V3)."""
    fields = [f"rounds={rounds}"] if rounds is not None else []
    return fields + (["low_rank=7"] if seven_low else []) + (["lowest_starts=true"] if lowest_starts else [])


def _check_fair(seats) -> None:
    for s in seats:
        if s is not None and not s.strategy.fair:
            raise UserError(f"bot {s.label!r} sees hidden cards (an experiment's upper bound): it cannot sit at a table")


def _default_save_path() -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    path = Path(f"idiotsim-game-{stamp}.json")
    n = 2
    while path.exists():
        path = Path(f"idiotsim-game-{stamp}-{n}.json")
        n += 1
    return path


def review(
    game_file: Annotated[Optional[str], typer.Argument(
        metavar="[GAME_FILE]", help="A game file of `idiotsim play`; or give a game below (as for trace).")] = None,
    seat: Annotated[Optional[int], typer.Option(
        "--seat", metavar="S", help="The seat to review (default: the person's seat of a game file, else 0).")] = None,
    rollouts: Annotated[Optional[int], typer.Option(
        "--rollouts", "-k", metavar="K", help="Sampled states per decision; every move is played on each (default 10,000).")] = None,
    search_seed: Annotated[int, typer.Option("--search-seed", metavar="S", help="Seed of the sampled states.")] = 0,
    players: PlayersOpt = None,
    strategies: StrategiesOpt = "basic",
    seed: SeedOpt = None,
    game: GameOpt = None,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
    top: Annotated[Optional[int], typer.Option("--top", metavar="N", help="Show only the N costliest decisions.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of the table.")] = False,
) -> None:
    """Judge every decision one seat took in a game: the move made, the search's best move, and the
    cost in places with its 95% CI (every move played on the same sampled states), costliest first,
    with the total.

    The game is a game file, or a game of bots: --seed S [--game I] --strategies A,B,...
    """
    from idiotsim.table import review as rv
    from idiotsim.cli.analyze_command import MAX_ROLLOUTS
    k = rv.DEFAULT_ROLLOUTS if rollouts is None else rollouts
    if not 2 <= k <= MAX_ROLLOUTS:  # half the samples pick the best move, half measure the cost
        raise UserError(f"--rollouts must be 2..{MAX_ROLLOUTS:,}, got {k}")
    check_seed(search_seed, "--search-seed")
    if top is not None and top < 1:
        raise UserError(f"--top must be at least 1, got {top}")
    record = _record(game_file, players, strategies, seed, game, rules_file, rule)
    seat = (record.human_seat if record.human_seat is not None else 0) if seat is None else seat
    if not 0 <= seat < record.rules.players:
        raise UserError(f"--seat must be 0..{record.rules.players - 1}, got {seat}")
    if as_json:
        judged = rv.review(record, seat, k, search_seed)
        sys.stdout.write(json.dumps(rv.review_json(record, seat, k, search_seed, judged)) + "\n")
        return
    from idiotsim.cli.render import PipeSafeConsole
    _print_review(record, seat, top, search_seed, PipeSafeConsole(highlight=False, markup=False), k)


def _record(game_file, players, strategies, seed, game, rules_file, rule):
    from idiotsim.table import gamefile
    if game_file is not None:
        flags = [name for name, value in (("--seed", seed), ("--game", game), ("--players", players),
                                          ("--rules", rules_file), ("--rule", rule)) if value not in (None, [])]
        if flags:
            raise UserError(f"a game file holds the whole game: drop {', '.join(flags)}")
        return gamefile.load(game_file)
    if seed is None:
        raise UserError("give a game file, or a game of bots with --seed S [--game I] --strategies A,B,...")
    from idiotsim.cli.game_commands import seeded_match
    rules = load_rules_option(rules_file, rule, players)
    seats = load_seats(strategies, rules)
    run_seed, game_index, decks = seeded_match(seed, game, None, rules)
    return gamefile.record_game(rules, seats, decks, run_seed, game_index)


def _print_review(record, seat: int, top, search_seed: int, console, rollouts: int | None = None) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from idiotsim.table import review as rv
    k = rv.DEFAULT_ROLLOUTS if rollouts is None else rollouts
    started = time.perf_counter()
    with Progress(TextColumn("judging decisions"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("review", total=None)
        judged = rv.review(record, seat, k, search_seed,
                           progress=lambda done, total: bar.update(task, completed=done, total=total))
    for line in rv.summary_lines(record, seat, k, judged):
        console.print(line)
    console.print(rv.review_table(judged, top, record.rules.rounds))
    console.print(f"{len(judged)} decisions judged in {time.perf_counter() - started:.1f} s")
