"""The README and docs/ say only what exists: every repository path they name is in the repository, every
`idiotsim.x.y` they name imports, every `idiotsim` command in their code blocks parses with its flags (as
the command line reads it, without running it), every command they name in the text is a command, and
every `python3 dev.py X` is one dev.py runs."""
from __future__ import annotations

import importlib
import re
import shlex
from pathlib import Path

import typer

from helpers import command_paths
from idiotsim.cli import app

try:  # typer 0.2x ships its own copy of click
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - older typer runs on click itself
    from click import exceptions as click_errors

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A path whose first part is one of these is a file or folder of the repository (results/, runs/, my_strategy.py
# are what a reader creates)
REPOSITORY_TOPS = ("idiotsim", "strategies", "tests", "docs", "reports", "benchmarks", ".ci", "dev.py",
                   "pyproject.toml", "README.md")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z_]*(\.\w+)?$|[<>*{}\[\]]")  # reports/NAME.toml, strategies/<family>.py
CODE_SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCED = re.compile(r"```[^\n]*\n(.*?)```", re.S)


def doc_texts():
    return [(path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")) for path in DOCS]


def exists(path: Path) -> bool:
    """The path, or a report named by its stem (`reports/burn_search` for burn_search.md, .toml, ...)."""
    return path.exists() or any(path.parent.glob(path.name + ".*"))


def named_paths(name: str, text: str):
    """(as written, the path it names) of every repository path in code spans and links of one doc."""
    here = (ROOT / name).parent
    for link in LINK.findall(text):
        if not link.startswith(("http", "#", "mailto:")):
            yield link, here / link.split("#")[0]
    for span in CODE_SPAN.findall(text):
        for word in re.split(r"[\s,;()=]+", span):
            word = word.strip(".:'\"")
            if word.split("/")[0] in REPOSITORY_TOPS and ("/" in word or word in REPOSITORY_TOPS):
                path = word.split(":")[0]
                if not any(PLACEHOLDER.search(part) for part in path.split("/")):
                    yield word, ROOT / path


def test_every_repository_path_the_docs_name_exists():
    missing = sorted({f"{name}: {written}" for name, text in doc_texts() for written, path in named_paths(name, text)
                      if not exists(path)})
    assert missing == []


def test_the_docs_name_real_paths_for_the_toolkit():
    """The toolkit lives in strategies/toolkit.py, installed as idiotsim.strategies: there is no
    idiotsim/strategies/ folder in the source tree."""
    for name, text in doc_texts():
        assert "idiotsim/strategies/" not in text, name
    assert "`strategies/toolkit.py`" in dict(doc_texts())["docs/strategies.md"]


def imports(dotted: str) -> bool:
    """Does `idiotsim.a.b.c` name a module, or an attribute of the longest module it starts with?"""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attribute in parts[i:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def test_every_module_and_name_the_docs_give_imports():
    named = {(name, dotted) for name, text in doc_texts() for span in CODE_SPAN.findall(text)
             for dotted in re.findall(r"\bidiotsim(?:\.\w+)+", span)}
    assert sorted(f"{name}: {dotted}" for name, dotted in named if not imports(dotted)) == []


def block_commands(text: str) -> list[str]:
    """The `idiotsim ...` command lines of the code blocks, continuation lines joined, without a trailing
    comment, a shell redirection, or optional parts in brackets."""
    commands = []
    for block in FENCED.findall(text):
        for line in re.sub(r"\\\n\s*", " ", block).splitlines():
            line = line.strip()
            if line.startswith("idiotsim "):
                line = re.split(r"\s#\s|\s[>|]\s", line)[0]
                commands.append(re.sub(r"\s\[[^\]]*\]", "", line).strip())
    return commands


def parse_error(command: str) -> str | None:
    """None when `command` parses as the command line would read it (sub-command, flags and their values),
    else the parser's message. Nothing is run."""
    group = typer.main.get_command(app)
    context = group.context_class(group, info_name="idiotsim")
    try:
        name, found, rest = group.resolve_command(context, shlex.split(command)[1:])
        while hasattr(found, "resolve_command"):  # a command of sub-commands
            name, found, rest = found.resolve_command(found.context_class(found), rest)
        found.make_context(name, list(rest), parent=context)
    except click_errors.ClickException as e:
        return e.format_message()
    return None


def test_every_command_in_the_docs_code_blocks_parses():
    commands = [(name, command) for name, text in doc_texts() for command in block_commands(text)]
    assert len(commands) > 30
    assert [f"{name}: {command}: {error}" for name, command in commands
            if (error := parse_error(command)) is not None] == []


def test_every_command_named_in_the_text_is_a_command():
    known = {" ".join(path) for path in command_paths()}
    named = {(name, match) for name, text in doc_texts() for span in CODE_SPAN.findall(text)
             for match in re.findall(r"^idiotsim ([a-z][a-z-]*)", span.strip())}
    assert sorted(f"{name}: idiotsim {word}" for name, word in named if word not in known) == []
    dev_words = {word for _, text in doc_texts() for word in re.findall(r"python3 dev\.py (\w[\w-]*)", text)}
    assert dev_words and dev_words <= known | {"test"}, dev_words


def test_a_stale_path_a_missing_name_and_a_bad_flag_are_found(tmp_path):
    """The checks themselves fail on what they are for."""
    text = "see `idiotsim/native/rollout.c` and [x](nowhere.md)\n```\nidiotsim run --no-such-flag\n```\n"
    assert [written for written, path in named_paths("README.md", text) if not exists(path)] == [
        "nowhere.md", "idiotsim/native/rollout.c"]
    assert not imports("idiotsim.strategies.search.pimc.sample_state")
    assert "No such option" in parse_error(block_commands(text)[0])
    assert parse_error("idiotsim deal --players 4 --seed 7 --games 1000") is None
