"""The typer app and ``main()``: every user mistake ends as ONE line on stderr.

A ``UserError`` from the library, or a usage error from typer/click, ends the
program with ``error: <message>`` and exit code 2 -- never a traceback. An error whose cause lies in a
user's own file (a strategy that does not compile) adds its detail lines: the place in the file.
"""
from __future__ import annotations

import atexit
import gc
import importlib
import inspect
import os
import signal
import sys
import threading
from collections.abc import MutableMapping

import typer
from typer.core import TyperCommand, TyperGroup

try:  # typer 0.2x ships its own copy of click and no longer depends on it
    from typer._click import exceptions as _click_exc
except ImportError:  # pragma: no cover - older typer runs on click itself
    from click import exceptions as _click_exc

from idiotsim.cli.coercion import spare_validators
from idiotsim.errors import StrategyFault, UserError


def _hide_flag_types(params: list) -> list:
    # typer's rich help prints a flag's type (`<bool>`) although a flag takes no value.
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
        if _is_argument(param):
            if param.metavar:  # the usage line adds the brackets of an optional argument
                param.metavar = param.metavar.strip("[]")
            param.display_type_rich = _no_type  # and `<str>` beside an argument's name says nothing
    return spare_validators(params)


def _no_type(ctx=None):
    return None


def _is_argument(param) -> bool:
    return getattr(param, "param_type_name", "") == "argument"


def usage_name(param) -> str:
    """An argument in a usage line as command lines write it: `DIR` (required), `[GAME_FILE]` (optional),
    `[SPEC.toml]...` (any number). typer 0.2x writes a required one `{DIR}`, and an optional metavar that
    carried its own brackets `[[GAME_FILE]]`."""
    name = (param.metavar or param.name.upper()).strip("[]{}")
    if not param.required:
        name = f"[{name}]"
    return name + ("..." if param.nargs != 1 else "")


class Command(TyperCommand):
    def get_params(self, ctx):
        return _hide_flag_types(super().get_params(ctx))

    def collect_usage_pieces(self, ctx):
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            pieces += [usage_name(param)] if _is_argument(param) else param.get_usage_pieces(ctx)
        return pieces

    def invoke(self, ctx):
        _end_of_start_up()
        return super().invoke(ctx)


class Group(TyperGroup):
    def get_params(self, ctx):
        return _hide_flag_types(super().get_params(ctx))


SOURCES: dict[str, str] = {}  # command name -> "module:function", in the order of --help (add_command)


class LazyCommands(MutableMapping):
    """The group's commands: every name in ``SOURCES`` is listed, but a command's module is imported only
    when the command is looked up (run, or its help shown), so `idiotsim run` imports only what it runs."""

    def __init__(self):
        self.built: dict = {}

    def __getitem__(self, name: str):
        if name not in self.built:
            if name not in SOURCES:
                raise KeyError(name)
            self.built[name] = _build_command(name, SOURCES[name])
        return self.built[name]

    def __setitem__(self, name: str, command) -> None:
        self.built[name] = command

    def __delitem__(self, name: str) -> None:
        del self.built[name]

    def __iter__(self):
        return iter([*SOURCES, *(name for name in self.built if name not in SOURCES)])

    def __len__(self) -> int:
        return len(set(SOURCES) | set(self.built))

    def __contains__(self, name) -> bool:
        return name in SOURCES or name in self.built


class LazyGroup(Group):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.commands = LazyCommands()


app = typer.Typer(
    name="idiotsim",
    cls=LazyGroup,
    help="Monte Carlo simulator of the card game Idiot (Palace, Shed, Karma). Rules: docs/rules.md.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def unwrapped_help(docstring: str | None) -> str:
    """A docstring as help text: each paragraph on one line, so the help wraps to the terminal's width
    (typer's rich help keeps a docstring's line breaks, which break sentences mid-line)."""
    paragraphs = inspect.cleandoc(docstring or "").split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs if p.strip())


@app.callback()
def _no_options() -> None:
    """The commands are the group's only content (the callback makes typer build a group of none)."""


def add_command(name: str, source: str) -> None:
    """Add the command `name` run by the function of `source`, ``"package.module:function"``, or the
    sub-commands of the ``command_group`` of ``"package.module:group"`` (imported on first use)."""
    SOURCES[name] = source


def command_group(help: str) -> typer.Typer:
    """A command of sub-commands (``idiotsim learn generate``), each added with ``sub_command``; bare, it
    shows its help."""
    return typer.Typer(cls=Group, help=unwrapped_help(help), no_args_is_help=True, add_completion=False,
                       pretty_exceptions_enable=False)


def sub_command(group: typer.Typer, name: str):
    """Decorator: the function becomes the sub-command `name` of `group`, its help its docstring as every
    command's."""
    def register(function):
        group.command(name, cls=Command, help=unwrapped_help(function.__doc__))(function)
        return function
    return register


def _build_command(name: str, source: str):
    """The click command of `source`, built exactly as typer builds a group's registered command or
    sub-app."""
    module, _, attribute = source.partition(":")
    function = getattr(importlib.import_module(module), attribute)
    if isinstance(function, typer.Typer):
        group = typer.main.get_group(function)
        group.name = name
        return group
    holder = typer.Typer()
    holder.command(name, cls=Command, help=unwrapped_help(function.__doc__))(function)
    return typer.main.get_command_from_info(holder.registered_commands[0],
                                            pretty_exceptions_short=app.pretty_exceptions_short,
                                            rich_markup_mode=app.rich_markup_mode)


def _one_line(message: str) -> str:
    return " ".join(line.strip() for line in str(message).strip().splitlines() if line.strip())


def _fail(message: str, details=()) -> None:
    """The error line, then any detail lines of the error as they are (a place in a user's file)."""
    print("\n".join([f"error: {_one_line(message)}", *details]), file=sys.stderr)
    sys.exit(2)


def _command_path(error, argv) -> str:
    """`idiotsim COMMAND` for a usage error's help hint (some parser errors carry no context)."""
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        return ctx.command_path
    args = sys.argv[1:] if argv is None else argv
    command = next((a for a in args if not a.startswith("-")), None)
    return f"idiotsim {command}" if command in SOURCES else "idiotsim"


_NO_ARGS = getattr(_click_exc, "NoArgsIsHelpError", ())  # click >= 8.2


class _Interrupt:
    """Whether Ctrl-C (SIGINT) arrived during this command: numba's dispatcher can turn the
    KeyboardInterrupt raised inside it into another exception (a TypeError from its type
    resolution), which must still end as an interrupt, not as a traceback."""
    seen = False

    @classmethod
    def handler(cls, signum, frame):
        cls.seen = True
        raise KeyboardInterrupt


def _catch_interrupts():
    """Install the SIGINT handler (main thread only); returns the previous one, or None."""
    if threading.current_thread() is not threading.main_thread():
        return None
    _Interrupt.seen = False
    return signal.signal(signal.SIGINT, _Interrupt.handler)


_START_UP = {"collector_paused": False, "quick_exit": False}


def console() -> None:
    """The console script: ``main`` with Python's cyclic garbage collector paused while the command's
    modules import (numba's among them) and its options are read. Those objects live until the program
    ends, so the collector would only scan them again and again (a share of the start-up's CPU that
    benchmarks/run.py measures); when the command starts they are frozen out of every later collection, the
    one at exit included, and the collector runs as usual. A command that succeeded after `quick_exit_when_done` ends
    without the interpreter's teardown (``_quick_exit``)."""
    gc.disable()
    _START_UP["collector_paused"] = True
    _START_UP["quick_exit"] = False
    try:
        main()
    except SystemExit as done:
        if done.code in (None, 0) and _START_UP["quick_exit"]:
            _quick_exit()
        raise
    finally:  # a command that never started (a usage error, --help)
        _end_of_start_up()


def quick_exit_when_done() -> None:
    """Called by a command whose every output is written (files closed and renamed into place) and that
    started no process or thread still running: if it then succeeds, the console script ends at once."""
    _START_UP["quick_exit"] = True


def _quick_exit() -> None:
    """Exit code 0 without tearing the interpreter down: numba's, llvmlite's and polars' modules take
    time to unload (benchmarks/run.py measures it), and nothing is left to save. Standard output and error are flushed
    and the exit handlers run first; if a flush fails (a closed pipe), the usual exit reports it."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_exit_handlers is None:  # pragma: no cover - not CPython
        return
    run_exit_handlers()
    os._exit(0)


def _end_of_start_up() -> None:
    if _START_UP["collector_paused"]:
        _START_UP["collector_paused"] = False
        gc.freeze()
        gc.enable()


def _check_text(args) -> None:
    """Every argument must be text: Python keeps an undecodable byte of the command line as a lone
    surrogate, which no file, table or Parquet path can hold (polars fails deep inside on it)."""
    for arg in args:
        try:
            str(arg).encode("utf-8")
        except UnicodeEncodeError:
            shown = os.fsencode(arg).decode("utf-8", "backslashreplace")
            raise UserError(f"argument '{shown}' is not valid UTF-8 text") from None


def main(argv: list[str] | None = None) -> None:
    """Run the app; a user error becomes one ``error: ...`` line and exit code 2."""
    previous = _catch_interrupts()
    try:
        _check_text(sys.argv[1:] if argv is None else argv)
        result = app(args=argv, prog_name="idiotsim", standalone_mode=False)
    except UserError as e:
        if _Interrupt.seen and isinstance(e, StrategyFault):  # numba made another exception of Ctrl-C in a decision
            _fail("aborted")
        _fail(str(e), e.details)
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
    except BrokenPipeError:  # a plain print to a reader that has gone: end quietly, not with a traceback
        from idiotsim.cli.render import silence_stdout
        silence_stdout()
        sys.exit(1)
    except Exception:
        if _Interrupt.seen:
            _fail("aborted")
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    sys.exit(result if isinstance(result, int) else 0)
