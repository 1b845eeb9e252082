"""``idiotsim play`` (sit at the table against the bots, idiotsim.table) and ``idiotsim review``
(every decision of a seat in a recorded game, judged by the search)."""
from __future__ import annotations

import json
import secrets
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Annotated, Optional

import typer

from idiotsim.cli.options import (DEFAULT_SEED, GameOpt, PlayersOpt, RevealOpt, RuleOpt, RulesFileOpt, SearchSeedOpt,
                                  SeedOpt, StrategiesOpt, check_flag_agrees, check_seed, command_name, load_rules_option,
                                  load_seats)
from idiotsim.errors import UserError
from idiotsim.table.levels import bot_specs, levels_help

MAX_SEED_DRAWN = 10 ** 6  # a seed drawn for a game is short enough to type again


def play(
    seat: Annotated[Optional[int], typer.Option(
        "--seat", metavar="S", help="Your seat, default 0 (seat 0 starts the first round, R7).")] = None,
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
        "--save", metavar="FILE", help="The game file, which must not exist yet (default: "
                                       "idiotsim-<date>-<time>.json here).")] = None,
    resume: Annotated[Optional[str], typer.Option(
        "--resume", metavar="FILE", help="Continue the unfinished game of this game file (left by quit or Ctrl-C), "
                                         "saving into it.")] = None,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
) -> None:
    """Play Idiot against the bots: you in one seat, the bots in the others.

    Every game is saved as a game file (the deck, the seats and every decision), which
    `trace --game-file`, `analyze --game-file` and `review` replay exactly; a game file is never
    overwritten. Ctrl-C and quit save what has been played, and `play --resume FILE` goes on from there.
    """
    from idiotsim.game.trace import suit_symbols_ok
    from idiotsim.table.screen import make_console
    from idiotsim.table.session import Seats, Session, offer_review
    console = make_console()
    if resume is not None:
        given = [name for name, value in (("--seat", seat), ("--players", players), ("--rounds", rounds),
                                          ("--seven-low", seven_low or None), ("--lowest-starts", lowest_starts or None),
                                          ("--level", level), ("--bots", bots), ("--seed", seed), ("--save", save),
                                          ("--rules", rules_file), ("--rule", rule)) if value not in (None, [])]
        if given:
            raise UserError(f"a resumed game goes on as its file says: drop {', '.join(given)}")
        record, path = _resumable(resume)
        rules, seat, labels = record.rules, record.human_seat, record.seats
        specs = [None if s == seat else label for s, label in enumerate(labels)]
        game_seed, game_index, decks, recorded = record.seed, record.game, record.decks, record.decisions
    else:
        seat = 0 if seat is None else seat
        _check_table_flags(rules_file, list(rule or ()), rounds, seven_low, lowest_starts)
        rules = load_rules_option(rules_file, list(rule or ()) + _table_rules(rounds, seven_low, lowest_starts),
                                  players)
        if not 0 <= seat < rules.players:
            raise UserError(f"--seat must be 0..{rules.players - 1} at a table of {rules.players}, got {seat}")
        specs = bot_specs(level, bots, rules.players)
        specs.insert(seat, None)
        game_seed = secrets.randbelow(MAX_SEED_DRAWN) if seed is None else check_seed(seed)
        path = _new_save_path(save)
        game_index, recorded = 0, ()
        from idiotsim.cli.game_commands import seed_decks
        decks = seed_decks(game_seed, 0, rules)
    bot_seats = _prepare(console, rules, specs)
    labels = ["you" if s is None else s.label for s in bot_seats]
    from idiotsim.table.screen import DECK_WORDS
    decks_note = DECK_WORDS.get(rules.decks, f", {rules.decks} decks")
    console.print(f"seed {game_seed}, {rules.players} players{decks_note}; {_seats_text(labels, seat)}")
    for line in command_lines(f"{'resuming' if resume is not None else 'the game file'}: ", _quoted(str(path))):
        console.print(line, soft_wrap=True)
    session = Session(rules, Seats(seat, bot_seats, labels), game_seed, game_index, decks, path, console,
                      suit_symbols_ok(), recorded, resumed=resume is not None)
    outcome = session.run()
    _print_next_steps(console, path, outcome)
    if outcome == "interrupted":
        raise typer.Exit(130)
    if outcome == "finished" and offer_review(console):
        try:
            _print_review(session.record, seat, f"{command_name()} trace --pretty --game-file {_quoted(str(path))}",
                          console)
        except KeyboardInterrupt:
            console.print(f"review interrupted (the game is saved: {command_name()} review {_quoted(str(path))})")
            raise typer.Exit(130) from None


def _seats_text(labels: list, human: int) -> str:
    """`you at seat 0, learned-fast-4p at seats 1..3`: who sits where, each bot named once."""
    groups: dict = {}
    for s, label in enumerate(labels):
        if s != human:
            groups.setdefault(label, []).append(s)
    bots = [f"{label} at seat{'s' * (len(seats) > 1)} {_seat_list(seats)}" for label, seats in groups.items()]
    return ", ".join([f"you at seat {human}"] + bots)


def _seat_list(seats: list) -> str:
    if len(seats) > 2 and seats == list(range(seats[0], seats[-1] + 1)):
        return f"{seats[0]}..{seats[-1]}"
    return ", ".join(map(str, seats))


def _print_next_steps(console, path, outcome: str) -> None:
    """What can be done with the game file now: the same lines after quit, Ctrl-C and the end. Each runs as
    printed (`command_name`), and none shows more of an unfinished game than the person's seat saw."""
    name, idiotsim = _quoted(str(path)), command_name()
    steps = ([("continue", f"{idiotsim} play --resume {name}")] if outcome != "finished" else []) + [
        ("replay", f"{idiotsim} trace --pretty --game-file {name}"), ("review", f"{idiotsim} review {name}")]
    for word, command in steps:
        for line in command_lines(f"  {word + ':':<9} ", command):
            console.print(line, soft_wrap=True)


def command_lines(lead: str, command: str, width: int = 80) -> list[str]:
    """`command` after `lead`, broken into lines of at most `width` columns with the shell's `\\` at
    each break, so that it still runs when pasted (a word longer than a line stands alone on its line)."""
    import shlex
    words = [_quoted(word) for word in shlex.split(command)]
    lines, line = [], lead + words[0]
    if len(line) > width and lead.strip():  # a long first word: on a line of its own, under the lead
        lines, line = [lead.rstrip()], "  " + words[0]
    for word in words[1:]:
        if len(line) + len(word) + 3 > width:  # " word \\"
            lines.append(line + " \\")
            line = " " * (len(lead) if len(lead) + len(word) + 2 <= width else 2) + word
        else:
            line += " " + word
    return lines + [line]


def _seat_bots(specs: list) -> list:
    from idiotsim.strategies.loading import load_strategy
    bot_seats = [None if spec is None else load_strategy(spec) for spec in specs]
    _check_fair(bot_seats)
    return bot_seats


def _resumable(path_text: str):
    """The unfinished game of a game file, checked: (record, path)."""
    from idiotsim.table import gamefile
    record = gamefile.load(path_text)
    if record.human_seat is None:
        raise UserError(f"game file {path_text} is a game of bots: no seat is yours to play")
    if record.finished:
        raise UserError(f"game file {path_text} holds a finished game: review it with {command_name()} review "
                        f"{_quoted(path_text)}")
    gamefile.replay(record)  # every recorded decision legal, before anything is played or saved
    return record, Path(path_text)


def _prepare(console, rules, specs: list) -> list:
    """The bots seated (None at the person's seat), and they and the search compiled, or loaded from
    numba's cache, before the first prompt; a terminal is told so first. Ctrl-C there ends the
    command with one line: numba may turn the interrupt into another exception, or meet it inside
    llvmlite's callback, which Python can only report as unraisable (not shown here)."""
    import signal

    from idiotsim.table.session import prepare
    if console.is_terminal:
        console.print("getting the bots and the search for hints ready: seconds (the first time after an "
                      "install or an update: about 3 minutes)")
    interrupted = []

    def on_interrupt(signum, frame):
        interrupted.append(signum)
        raise KeyboardInterrupt

    previous_hook, previous_handler = sys.unraisablehook, signal.getsignal(signal.SIGINT)
    sys.unraisablehook = lambda unraisable: None if isinstance(unraisable.exc_value, KeyboardInterrupt) \
        else previous_hook(unraisable)
    signal.signal(signal.SIGINT, on_interrupt)
    try:
        spinner = "dots" if console.encoding.lower().startswith("utf") else "line"  # "line" is ASCII
        with console.status("compiling or loading", spinner=spinner) if console.is_terminal else _nothing():
            bot_seats = _seat_bots(specs)
            prepare(rules, bot_seats)
    except UserError:
        raise
    except Exception:
        if not interrupted:
            raise
    except KeyboardInterrupt:
        interrupted.append(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous_handler)
        sys.unraisablehook = previous_hook
    if interrupted:
        console.print("interrupted before the game started: nothing was saved")
        raise typer.Exit(130)
    return bot_seats


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _table_rules(rounds: int | None, seven_low: bool, lowest_starts: bool) -> list[str]:
    """The table's plain flags as rules fields (V4, V1, V3)."""
    fields = [f"rounds={rounds}"] if rounds is not None else []
    return fields + (["low_rank=7"] if seven_low else []) + (["lowest_starts=true"] if lowest_starts else [])


def _check_table_flags(rules_file, assignments: list, rounds: int | None, seven_low: bool, lowest_starts: bool) -> None:
    """--rounds, --seven-low and --lowest-starts may not contradict the rules file or a --rule."""
    if rounds is not None:
        check_flag_agrees(rules_file, assignments, "rounds", rounds, f"--rounds {rounds}", "the number of rounds")
    if seven_low:
        check_flag_agrees(rules_file, assignments, "low_rank", 7, "--seven-low", "the low rank")
    if lowest_starts:
        check_flag_agrees(rules_file, assignments, "lowest_starts", True, "--lowest-starts", "who starts")


def _check_fair(seats) -> None:
    for s in seats:
        if s is not None and not s.strategy.fair:
            raise UserError(f"bot {s.label!r} sees hidden cards (an experiment's upper bound): it cannot sit at a table")


def _new_save_path(save: str | None) -> Path:
    """The game file to write: `--save`, which must not exist (a game file is never overwritten), or
    a new name with the local date and time in the current folder."""
    if save is not None:
        path = Path(save)
        if path.exists():
            raise UserError(f"--save {save}: the file exists, and a game file is never overwritten; choose another "
                            f"name (an unfinished game goes on with: {command_name()} play --resume {_quoted(save)})")
        if not path.parent.is_dir():
            raise UserError(f"--save {save}: the folder {path.parent} does not exist")
        return path
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = Path(f"idiotsim-{stamp}.json")
    n = 2
    while path.exists():
        path = Path(f"idiotsim-{stamp}-{n}.json")
        n += 1
    return path


def review(
    game_file: Annotated[Optional[str], typer.Argument(
        metavar="[GAME_FILE]", help="A game file of `idiotsim play`; or give a game below (as for trace).")] = None,
    seat: Annotated[Optional[int], typer.Option(
        "--seat", metavar="S", help="The seat to review (default: the person's seat of a game file, else 0).")] = None,
    rollouts: Annotated[Optional[int], typer.Option(
        "--rollouts", "-k", metavar="K", help="Sampled states per decision; every move is played on each (default 10,000).")] = None,
    search_seed: SearchSeedOpt = DEFAULT_SEED,
    players: PlayersOpt = None,
    strategies: StrategiesOpt = "basic",
    seed: SeedOpt = None,
    game: GameOpt = None,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
    top: Annotated[Optional[int], typer.Option(
        "--top", metavar="N", help="Show the N costliest decisions (default: as many as fit 24 lines).")] = None,
    show_all: Annotated[bool, typer.Option("--all", help="List every decision, in the order played.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of the table.")] = False,
    reveal: RevealOpt = False,
) -> None:
    """Judge every decision one seat took in a game, as chess sites review a game: the move made, the
    search's best move, the cost in places with its 95% CI (every move played on the same sampled
    states) and a verdict (best, close, inaccuracy, mistake, blunder). The summary counts the
    decisions that matched the best and each verdict, and gives the mean cost per decision; then the
    costliest decisions, as many as fit one screen (--all: every decision).

    The game is a game file, or a game of bots: --seed S [--game I] --strategies A,B,... Of an unfinished
    game of `idiotsim play` only your own seat's decisions, unless --reveal.
    """
    from idiotsim.table import review as rv
    from idiotsim.cli.analyze_command import MAX_ROLLOUTS
    k = rv.DEFAULT_ROLLOUTS if rollouts is None else rollouts
    if not 2 <= k <= MAX_ROLLOUTS:  # half the samples pick the best move, half measure the cost
        raise UserError(f"--rollouts must be 2..{MAX_ROLLOUTS:,}, got {k}")
    check_seed(search_seed, "--search-seed")
    if top is not None and top < 1:
        raise UserError(f"--top must be at least 1, got {top}")
    if top is not None and show_all:
        raise UserError("give at most one of --top and --all")
    if reveal and game_file is None:
        raise UserError("--reveal applies only with a game file")
    record, trace_command = _record(game_file, players, strategies, seed, game, rules_file, rule)
    seat = (record.human_seat if record.human_seat is not None else 0) if seat is None else seat
    if not 0 <= seat < record.rules.players:
        raise UserError(f"--seat must be 0..{record.rules.players - 1}, got {seat}")
    from idiotsim.table.gamefile import hides_hands
    if hides_hands(record) and seat != record.human_seat and not reveal:
        raise UserError(f"--seat {seat}: the decisions of seat {seat} ({record.seats[seat]}) show its hand, which you "
                        "cannot know in an unfinished game: add --reveal to review them anyway")
    if as_json:
        judged = rv.review(record, seat, k, search_seed)
        sys.stdout.write(json.dumps(rv.review_json(record, seat, k, search_seed, judged)) + "\n")
        return
    from idiotsim.cli.render import PipeSafeConsole
    _print_review(record, seat, trace_command, PipeSafeConsole(highlight=False, markup=False), k, search_seed,
                  top=top, show_all=show_all)


def _record(game_file, players, strategies, seed, game, rules_file, rule):
    """The game to review and the `trace --pretty` command that shows it with numbered lines."""
    from idiotsim.table import gamefile
    if game_file is not None:
        flags = [name for name, value in (("--seed", seed), ("--game", game), ("--players", players),
                                          ("--rules", rules_file), ("--rule", rule)) if value not in (None, [])]
        if flags:
            raise UserError(f"a game file holds the whole game: drop {', '.join(flags)}")
        return gamefile.load(game_file), f"{command_name()} trace --pretty --game-file {_quoted(game_file)}"
    if seed is None:
        raise UserError("give a game file, or a game of bots with --seed S [--game I] --strategies A,B,...")
    from idiotsim.cli.game_commands import seeded_match
    rules = load_rules_option(rules_file, rule, players)
    seats = load_seats(strategies, rules)
    run_seed, game_index, decks = seeded_match(seed, game, None, rules)
    flags = [f"--seed {run_seed}"] + ([f"--game {game_index}"] if game_index else []) + [
        f"--players {rules.players}", f"--strategies {_quoted(strategies)}"]
    flags += [f"--rules {_quoted(rules_file)}"] if rules_file else []
    flags += [f"--rule {_quoted(r)}" for r in rule or ()]
    return (gamefile.record_game(rules, seats, decks, run_seed, game_index),
            f"{command_name()} trace {' '.join(flags)} --pretty")


def _quoted(text: str) -> str:
    import shlex
    return shlex.quote(str(text))


def _print_review(record, seat: int, trace_command: str, console, rollouts: int | None = None, search_seed: int = 0,
                  top: int | None = None, show_all: bool = False) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.text import Text

    from idiotsim.table import review as rv
    k = rv.DEFAULT_ROLLOUTS if rollouts is None else rollouts
    started = time.perf_counter()
    with Progress(TextColumn("judging decisions"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("review", total=None)
        judged = rv.review(record, seat, k, search_seed,
                           progress=lambda done, total: bar.update(task, completed=done, total=total))
    for line, style in rv.review_lines(record, seat, k, judged, trace_command, show_all, top):
        console.print(Text(line, style=style or ""), soft_wrap=True)
    console.print(f"{len(judged)} decisions judged in {time.perf_counter() - started:.1f} s", soft_wrap=True)
