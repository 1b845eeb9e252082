"""``idiotsim analyze``: every legal move of one position, judged by search (idiotsim.analysis.position_analysis)."""
from __future__ import annotations

import json
import sys
from typing import Annotated, Optional

import typer

from idiotsim.cli.options import (DEFAULT_SEED, GameFileOpt, GameOpt, PlayersOpt, RevealOpt, RuleOpt, RulesFileOpt,
                                  SearchSeedOpt, SeedOpt, StrategiesOpt, check_seed, load_rules_option, load_seats)
from idiotsim.cli.game_commands import DeckOpt, load_deck_matches, seeded_match
from idiotsim.errors import UserError

DEFAULT_ROLLOUTS = 1_000
MAX_ROLLOUTS = 1_000_000
TABLE_COLUMNS = ("move", "mean place [95% CI]", "win rate [95% CI]", "minus best [95% CI, paired]", "chosen by")


def analyze(
    position_file: Annotated[Optional[str], typer.Argument(
        metavar="POSITION.toml", help="A hand-entered position (README: analyze); or give a game below.")] = None,
    players: PlayersOpt = None,
    strategies: StrategiesOpt = "basic",
    seed: SeedOpt = None,
    game: GameOpt = None,
    deal: Annotated[Optional[int], typer.Option(
        "--deal", metavar="D", help="Deal (shuffle stream) under --seed: a tournament row's `deal` column.")] = None,
    deck: DeckOpt = None,
    action: Annotated[Optional[int], typer.Option(
        "--action", metavar="L", help="The decision on line L (from 1) of the game's `idiotsim trace`.")] = None,
    rules_file: RulesFileOpt = None,
    rule: RuleOpt = None,
    rollouts: Annotated[Optional[int], typer.Option(
        "--rollouts", "-k", metavar="K", help=f"Sampled states; every move is played on each (default {DEFAULT_ROLLOUTS:,}).")] = None,
    precision: Annotated[Optional[float], typer.Option(
        "--precision", metavar="H", help="Play in batches until the best move is separated from every other, "
                                         "or every paired CI half-width is <= H (at most 100,000 states).")] = None,
    search_seed: SearchSeedOpt = DEFAULT_SEED,
    save_position: Annotated[Optional[str], typer.Option(
        "--save-position", metavar="FILE.toml", help="Also write the position as a position file (to edit, then analyze).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of the table.")] = False,
    game_file: GameFileOpt = None,
    reveal: RevealOpt = False,
) -> None:
    """Judge every legal move of a position: mean place and win rate of each (95% CIs), and its
    paired difference to the best move on the same sampled states.

    The position is the decision on trace line --action of a game (--seed S [--game I] [--deal D]
    or --deck FILE, played by --strategies; or --game-file FILE of `idiotsim play`), or a position file.
    In an unfinished game of `idiotsim play` only your own decisions, unless --reveal.
    """
    from idiotsim.analysis import position_analysis as an
    if rollouts is not None and precision is not None:
        raise UserError("give at most one of --rollouts and --precision")
    if rollouts is not None and not 1 <= rollouts <= MAX_ROLLOUTS:
        raise UserError(f"--rollouts must be 1..{MAX_ROLLOUTS:,}, got {rollouts}")
    if precision is not None and not precision > 0:
        raise UserError(f"--precision must be a positive half-width (in places), got {precision}")
    check_seed(search_seed, "--search-seed")
    if reveal and game_file is None:
        raise UserError("--reveal applies only with --game-file")
    if game_file is not None:
        position = _game_file_position(game_file, position_file, action, reveal, seed, game, deal, deck, rules_file,
                                       rule, players)
    else:
        position = _position(position_file, players, strategies, seed, game, deal, deck, action, rules_file, rule)
    if save_position is not None:
        _write_position(save_position, an.position_toml(position))
    result = an.analysis(position, rollouts or DEFAULT_ROLLOUTS, precision, search_seed)
    if as_json:
        sys.stdout.write(json.dumps(an.analysis_json(position, result)) + "\n")
        return
    _print_table(position, result)


def _position(position_file, players, strategies, seed, game, deal, deck, action, rules_file, rule):
    from idiotsim.analysis import position_analysis as an
    game_flags = [name for name, value in (("--seed", seed), ("--game", game), ("--deal", deal), ("--deck", deck),
                                           ("--action", action), ("--rules", rules_file), ("--rule", rule),
                                           ("--players", players)) if value]
    if position_file is not None:
        if game_flags:
            raise UserError(f"a position file holds the whole position: drop {', '.join(game_flags)}")
        return an.position_from_file(position_file)
    if (deck is None) == (seed is None):
        raise UserError("give a position file, or a game: exactly one of --deck FILE and --seed S "
                        f"({'both were given' if deck is not None else 'neither was given'})")
    if action is None:
        raise UserError("give --action L: the trace line of the decision to analyze")
    if (game is not None or deal is not None) and seed is None:
        raise UserError("--game and --deal apply only with --seed")
    rules = load_rules_option(rules_file, rule, players)
    seats = load_seats(strategies, rules)
    if seed is not None:
        run_seed, game_index, decks = seeded_match(seed, game, deal, rules)
    else:  # the first match of the deck file, played as game 0 with seed 0 (as trace plays it)
        run_seed, game_index, decks = 0, 0, load_deck_matches(deck, rules)[0]
    return an.position_from_game(rules, seats, decks, run_seed, game_index, action)


def _game_file_position(game_file, position_file, action, reveal, *game_flags):
    """The decision on trace line --action of a game file's replay (its own seats, decks and rules); in an
    unfinished game of a person only a decision of the person's seat, unless `reveal`: another seat's
    position shows that seat's hand."""
    from idiotsim.analysis import position_analysis as an
    from idiotsim.table import gamefile
    names = ("--seed", "--game", "--deal", "--deck", "--rules", "--rule", "--players")
    given = [name for name, value in zip(names, game_flags) if value not in (None, [])]
    if position_file is not None:
        given.insert(0, "the position file")
    if given:
        raise UserError(f"a game file holds the whole game: drop {', '.join(given)}")
    if action is None:
        raise UserError("give --action L: the trace line of the decision to analyze")
    record = gamefile.load(game_file)
    position = an.position_from_game(record.rules, gamefile.replay_seats(record), record.decks, record.seed,
                                     record.game, action)
    if gamefile.hides_hands(record) and not reveal and position.seat != record.human_seat:
        raise UserError(f"--action {action}: trace line {action} is a decision of seat {position.seat} "
                        f"({record.seats[position.seat]}), whose hand you cannot know in an unfinished game: "
                        "add --reveal to analyze it anyway")
    return position


def _write_position(path: str, text: str) -> None:
    try:
        with open(path, "x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        raise UserError(f"--save-position {path}: the file exists already") from None
    except OSError as e:
        raise UserError(f"--save-position {path}: {e.strerror}") from None


def _print_table(position, result) -> None:
    """The position, then the table as plain aligned text (as wide as its cells, for pipes too)."""
    from idiotsim.analysis import position_analysis as an
    from idiotsim.game.trace import suit_symbols_ok
    k = result["places"].shape[0]
    lines = an.position_lines(position, symbols=suit_symbols_ok())
    lines.append(f"{len(result['moves'])} legal moves, each played on the same {k:,} sampled states "
                 "(rollouts: basic at every seat); paired: the move's places minus the best move's")
    rows = [list(TABLE_COLUMNS)] + an.table_rows(position, result)
    widths = [max(len(row[c]) for row in rows) for c in range(len(TABLE_COLUMNS))]
    for row in rows:
        lines.append("  ".join(cell.ljust(w) if c in (0, len(widths) - 1) else cell.rjust(w)
                               for c, (cell, w) in enumerate(zip(row, widths))).rstrip())
    sys.stdout.write("\n".join(lines) + "\n")
