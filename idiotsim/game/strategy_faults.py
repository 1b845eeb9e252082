"""What went wrong in a strategy's own code, said as its author needs it: the cause, and the file and line.

Three kinds of fault, each named for what it is rather than by its effect on the game:

- ``compile_error``: numba's error when a decision function does not compile (a ``NameError``, a typing
  error, an array created without reference counting, ``return None``) as one ``error:`` line with the
  cause, and detail lines with the place in the user's file and, where one helps, what to do instead;
- ``exception_fault``: an exception the strategy's Python function raised in the reference engine (an
  out-of-range read such as ``hand[20]`` is an ``IndexError`` there), with the line that raised it;
- ``return_fault``: a decision that returned something that is not a move code (``1.5``, ``None``), with
  its ``return`` line.

The compiled function cannot fail in any of the last two ways (numba truncates a float to an int and
reads past an array unchecked), so a fault of the numba engine is found by playing the game again on the
reference engine (``idiotsim.engine.batches``).
"""
from __future__ import annotations

import inspect
import linecache
import os
import re
import sys
import sysconfig
import textwrap
import traceback
from pathlib import Path

import numpy as np

from idiotsim.errors import StrategyFault, UserError

MOVE_CODES = ("decide must return an int move code: play(rank, count, extra), PICKUP or CHANCE at a turn, "
              "swap_choice(a, b, c) at the swap, a blind position 0..2 in the blind phase (docs/strategies.md)")
ALLOCATION_HINT = ("use scalars, tuples and module-level constant arrays, or @strategy_function(allocates=True) "
                   "(docs/strategies.md, \"Compiled code: the rules of thumb\")")
DETAIL_WIDTH = 80  # a hint under the error line wraps to a terminal's width
_PLACE = re.compile(r'File "([^"]+)", line (\d+)|\bat (/\S+) \((\d+)\)')
_NOT_A_MOVE = re.compile(r"No conversion from (.+?) to int64 for '\$[^']*return")
_NAME_ERROR = re.compile(r"NameError: name '(\w+)' is not defined")
_BOUND_ERROR = re.compile(r'due to "(\w+Error: [^"]+)"')
_ALLOCATES = ("NRT required but not enabled", "Only accept returning of array passed into the function")


# ---- places in a user's file -----------------------------------------------------------------

def _library_roots() -> list[Path]:
    """Folders of code that is not the strategy's: idiotsim's package, Python's own and installed libraries."""
    paths = sysconfig.get_paths()
    roots = {Path(__file__).resolve().parents[1]}
    roots |= {Path(paths[key]).resolve() for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    return sorted(roots)


def _resolved(path: str) -> Path:
    return Path(path) if os.path.isabs(path) else Path.cwd() / path


def is_users_file(path: str) -> bool:
    """Is `path` a file of the strategy's author (not idiotsim's, numba's, numpy's or Python's)?"""
    if path.startswith("<"):
        return False
    resolved = _resolved(path).resolve()
    return resolved.is_file() and not any(resolved.is_relative_to(root) for root in _library_roots())


def shown_path(path: str) -> str:
    """A path as the user would type it here: relative below the current folder, else absolute."""
    resolved = _resolved(path).resolve()
    return str(resolved.relative_to(Path.cwd().resolve())) if resolved.is_relative_to(Path.cwd().resolve()) \
        else str(resolved)


def place_text(path: str, line: int) -> str:
    """``my_strategy.py, line 7: return 1.5``: the place and its source line."""
    source = linecache.getline(str(_resolved(path)), line).strip()
    return f"{shown_path(path)}, line {line}" + (f": {source}" if source else "")


def _places_in(text: str) -> list[tuple[str, int]]:
    """The places in the user's files a numba error names, innermost first, each once."""
    places = []
    for match in _PLACE.finditer(text):
        path, line = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        place = (str(_resolved(path).resolve()), int(line))
        if is_users_file(path) and place not in places:
            places.append(place)
    return places


def _lines_naming(py_func, name: str) -> list[tuple[str, int]]:
    """Where the function, else its file, uses `name` (numba's NameError names no line)."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    path = inspect.getsourcefile(py_func)
    lines, first = inspect.getsourcelines(py_func)
    found = [(path, first + i) for i, line in enumerate(lines) if word.search(line.split("#")[0])]
    if not found:
        found = [(path, i) for i, line in enumerate(linecache.getlines(path), 1) if word.search(line.split("#")[0])]
    return found[:1]


def _definition(py_func) -> tuple[str, int]:
    """The file and the ``def`` line of `py_func` (below its decorators)."""
    lines, first = inspect.getsourcelines(py_func)
    at = next((i for i, line in enumerate(lines) if line.lstrip().startswith("def ")), 0)
    return inspect.getsourcefile(py_func), first + at


# ---- numba's compile errors ---------------------------------------------------------------------

def _numba_cause(text: str) -> str:
    """The first line of numba's error that says something, with its signature line when it has one."""
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith(("Failed in ", "During: "))]
    if not lines:
        return "numba gave no reason"
    cause = lines[0]
    if len(lines) > 1 and lines[1].startswith(">>>"):
        cause += " " + lines[1]
    bound = _BOUND_ERROR.search(cause)
    return bound.group(1) if bound else cause


def compile_error(error: Exception, py_func, label: str, failing: str = "does not compile") -> UserError:
    """A UserError for numba's `error` compiling the strategy `label` (its decision function `py_func`):
    the cause in the message, the place in the user's file (and the call that led there) as details."""
    text = str(error).strip() or type(error).__name__
    cause, hint = _numba_cause(text), None
    if any(marker in text for marker in _ALLOCATES):
        cause, hint = "it creates an array or a list, which a @strategy_function may not do", ALLOCATION_HINT
    elif (returned := _NOT_A_MOVE.search(text)) is not None:
        cause, hint = f"decide returns {returned.group(1).replace('none', 'None')}, not a move code", MOVE_CODES
    places = _places_in(text)
    if not places and (name := _NAME_ERROR.search(text)) is not None:
        places = _lines_naming(py_func, name.group(1))
    if places:
        details = [f"  {place_text(*places[0])}"]
        if places[-1] != places[0]:
            details.append(f"  called from {place_text(*places[-1])}")
    else:
        details = [f"  in {place_text(*_definition(py_func))}"]
    if hint:
        details += textwrap.wrap(hint, DETAIL_WIDTH, initial_indent="  ", subsequent_indent="  ",
                                 break_on_hyphens=False)
    return UserError(f"strategy {label!r} {failing}: {cause}", details)


# ---- faults at run time -------------------------------------------------------------------------

def _who(label: str, seat: int, game: int, seed: int) -> str:
    return f"strategy {label!r} at seat {seat} in game {game} (seed {seed})"


def exception_fault(error: Exception, label: str, seat: int, game: int, seed: int) -> StrategyFault:
    """The exception `error` that a strategy's decision raised, with the line of the user's file that raised it."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if is_users_file(f.filename)]
    first_line = (str(error).strip().splitlines() or [""])[0]
    cause = f"{type(error).__name__}: {first_line}" if first_line else type(error).__name__
    place = f" ({place_text(frames[-1].filename, frames[-1].lineno)})" if frames else ""
    return StrategyFault(f"{_who(label, seat, game, seed)} failed: {cause}{place}")


def is_move_code(value) -> bool:
    """An int (Python's or numpy's), as a decision must return; a bool or a float is not one."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def return_fault(value, py_func, args, label: str, seat: int, game: int, seed: int) -> StrategyFault:
    """A decision that returned `value`, not a move code: what it returned, where, and what it must return.
    The line is found by deciding once more on copies of `args` (the game stops here anyway)."""
    kind = "None" if value is None else f"a {type(value).__name__}"
    line = _return_line(py_func, args)
    where = f", {place_text(inspect.getsourcefile(py_func), line)}" if line else ""
    shown = "None" if value is None else repr(value)
    return StrategyFault(f"{_who(label, seat, game, seed)} returned {shown} ({kind}{where}): {MOVE_CODES}")


def _return_line(py_func, args) -> int | None:
    """The line of `py_func`'s own ``return`` when it decides on `args` (None where it cannot be found)."""
    code = getattr(py_func, "__code__", None)
    if code is None or not is_users_file(code.co_filename):
        return None
    found = []

    def profile(frame, event, arg):
        if event == "return" and frame.f_code is code:
            found.append(frame.f_lineno)

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        py_func(*[a.copy() if hasattr(a, "copy") else a for a in args])
    except Exception:  # noqa: BLE001 - the value is what is being reported, not this second call
        return None
    finally:
        sys.setprofile(previous)
    return found[-1] if found else None
