"""``idiotsim check-strategy SPEC``: the generic checks every strategy must pass."""
from __future__ import annotations

from typing import Annotated

import typer

from idiotsim.errors import UserError

CHECK_GAMES = 2_000


def check_strategy(
    spec: Annotated[str, typer.Argument(
        metavar="SPEC", help="A strategy: NAME[:knob=v,...] or path/file.py:NAME[:knob=v,...], optionally "
                         "+constraints (NAME+up=10+pickup=never).")],
    games: Annotated[int, typer.Option(
        "--games", "-g", metavar="G",
        help="Games per rules variant for the legality check, spread over 2..10 players.")] = CHECK_GAMES,
) -> None:
    """Check a strategy: legal in every rules variant and player count, deterministic on replay,
    identical decisions in both engines; its speed against basic. Prints a table and a verdict;
    a failed check ends with one error line and exit code 2."""
    from idiotsim.cli.options import command_name
    from idiotsim.strategies.strategy_checks import check_strategy as run_checks
    report = run_checks(spec, games=games, command=command_name())
    print(report.render(), flush=True)
    if not report.ok:
        first = report.failures()[0]
        raise UserError(f"{spec} fails check-strategy: {first.name}: {first.detail}")
