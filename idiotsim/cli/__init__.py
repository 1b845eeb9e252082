"""The command line, ``idiotsim COMMAND``; ``console()`` is the console script, ``main()`` the command line
called from Python.

- ``app``: the typer app, ``main`` (one-line errors, exit code 2) and ``console``
- ``options``: options every command shares (rules, players, strategies,
  seeds, games, threads, --out, --cluster/--workers) and their checks
- ``game_commands``: trace, run, deal (the trace's lines: ``idiotsim.game.trace``)
- ``tournament_commands``: tournament, summarize, demo
- ``report_command``: report (experiment specs)
- ``strategy_commands``: strategies [NAME]
- ``check_command``: check-strategy SPEC
- ``analyze_command``: analyze (every move of a position, judged by search)
- ``optimize_command``: optimize (CMA-ES knob tuning, ``idiotsim.optimize``)
- ``learn_commands``: learn generate | train | evaluate | loop | page, sub-commands of one group (the learned
  player, ``idiotsim.learn``)
- ``table_commands``: play (you against the bots, ``idiotsim.table``) and review (a game's decisions, judged)
- ``render``: what run, tournament, summarize, demo and report print: tables that fit the terminal,
  plain text when piped

Help text comes from each command's docstring, one line per paragraph (``app.unwrapped_help``), so it
wraps to the terminal; option help is one string per option.

A new command is a function in one of these modules (or a new one), added to
``COMMANDS`` below as ``"module:function"``; the order of ``COMMANDS`` is the order of ``--help``. A command of
sub-commands is an ``app.command_group`` with its functions added by ``app.sub_command``, listed as
``"module:group"``.
A command's module is imported only when that command runs or shows its help (``app.LazyCommands``):
importing every module would put search, the learned player and their dependencies on the path of
`idiotsim run`.
"""
from idiotsim.cli.app import add_command, app, console, main

COMMANDS = {
    "play": "table_commands:play",
    "review": "table_commands:review",
    "trace": "game_commands:trace",
    "run": "game_commands:run",
    "deal": "game_commands:deal",
    "tournament": "tournament_commands:tournament",
    "summarize": "tournament_commands:summarize",
    "demo": "tournament_commands:demo",
    "strategies": "strategy_commands:strategies",
    "check-strategy": "check_command:check_strategy",
    "report": "report_command:report",
    "analyze": "analyze_command:analyze",
    "optimize": "optimize_command:optimize",
    "learn": "learn_commands:learn",
}

for _name, _source in COMMANDS.items():
    add_command(_name, f"idiotsim.cli.{_source}")

__all__ = ["COMMANDS", "app", "console", "main"]
