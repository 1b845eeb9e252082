"""The command line, ``idiotsim COMMAND``; ``console()`` is the console script, ``main()`` the command line
called from Python.

- ``app``: the typer app, ``main`` (one-line errors, exit code 2) and ``console``
- ``options``: options every command shares (rules, players, strategies,
  seeds, games, threads, --out, --cluster/--workers) and their checks
- ``play``: trace, run, deal; ``trace_output``: JSON Lines and --pretty
- ``tournaments``: tournament, summarize, demo
- ``report``: report (experiment specs)
- ``strategy_list``: strategies [NAME]
- ``check``: check-strategy SPEC
- ``analyze``: analyze (every move of a position, judged by search)
- ``optimize``: optimize (CMA-ES knob tuning, ``idiotsim.optimize``)
- ``learn``: learn generate | train | evaluate | loop (the learned player, ``idiotsim.learn``)
- ``sit``: play (you against the bots, ``idiotsim.table``) and review (a game's decisions, judged)
- ``render``: what run, tournament, summarize, demo and report print: tables that fit the terminal,
  plain text when piped

Help text comes from each command's docstring, one line per paragraph (``app.unwrapped_help``), so it
wraps to the terminal; option help is one string per option.

A new command is a function in one of these modules (or a new one), added to
``COMMANDS`` below as ``"module:function"``; the order of ``COMMANDS`` is the order of ``--help``.
A command's module is imported only when that command runs or shows its help (``app.LazyCommands``):
importing every module would put search, the learned player and their dependencies on the path of
`idiotsim run`.
"""
from idiotsim.cli.app import add_command, app, console, main

COMMANDS = {
    "play": "sit:play",
    "review": "sit:review",
    "trace": "play:trace",
    "run": "play:run",
    "deal": "play:deal",
    "tournament": "tournaments:tournament",
    "summarize": "tournaments:summarize",
    "demo": "tournaments:demo",
    "strategies": "strategy_list:strategies",
    "check-strategy": "check:check_strategy",
    "report": "report:report",
    "analyze": "analyze:analyze",
    "optimize": "optimize:optimize",
    "learn": "learn:learn",
}

for _name, _source in COMMANDS.items():
    add_command(_name, f"idiotsim.cli.{_source}")

__all__ = ["COMMANDS", "app", "console", "main"]
