#!/usr/bin/env python3
"""Set up and run idiotsim with nothing but Python 3.11.

    python3 dev.py demo   # create .venv, install, play the strength ladder (random to the search)
    python3 dev.py play   # create .venv, install, sit at the table against the bots (idiotsim play ARGS,
                          # e.g. --level expert, or --resume FILE to go on with an unfinished game)
    python3 dev.py COMMAND ARGS  # any other idiotsim command (trace, review, run, ...)
    python3 dev.py test   # create .venv, install with test extras, run the whole test suite (2 workers),
                          # which includes the check that every committed report matches its
                          # regeneration (tests/experiments/test_shipped_reports.py)
    python3 dev.py test ARGS  # pytest ARGS instead (e.g. one file)

Every command but test runs in the folder it is started from, wherever that is: the files it writes (a
game file, results/demo/) land there, and the paths it is given are read from there. The commands idiotsim
prints for what to do next name this script (``IDIOTSIM_COMMAND``), so that they run as printed without
.venv/bin on the PATH. The virtual environment is (re)installed whenever pyproject.toml changes.
"""
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed"


def ensure_venv() -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"idiotsim needs Python 3.11 or newer, this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not (BIN / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run(pip + ["-e", f"{ROOT}[test,dask,openspiel,pettingzoo]"], check=True)
    STAMP.write_text(wanted)


def this_script() -> str:
    """How to run this script again from any folder: the Python that runs it (by name when that name finds
    it on the PATH) and the script's absolute path."""
    python = Path(sys.executable)
    found = shutil.which(python.name)
    runner = python.name if found and Path(found).resolve() == python.resolve() else str(python)
    return f"{shlex.quote(runner)} {shlex.quote(str(ROOT / 'dev.py'))}"


def idiotsim(args: list[str]) -> int:
    """`idiotsim ARGS` in the current folder, its printed commands naming this script."""
    env = dict(os.environ, IDIOTSIM_COMMAND=this_script())
    child = subprocess.Popen([str(BIN / "idiotsim"), *args], env=env)
    while True:
        try:
            return child.wait()
        except KeyboardInterrupt:  # Ctrl-C reaches the command too: a game saves its file, a run its chunks
            continue


def test(args: list[str]) -> int:
    return subprocess.run([str(BIN / "python"), "-m", "pytest", "-n", "2", "-q", *args], cwd=ROOT).returncode


USAGE = "usage: python3 dev.py demo | play [play args] | test [pytest args] | COMMAND [args] (any idiotsim command)"

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(USAGE)
    ensure_venv()
    sys.exit(test(sys.argv[2:]) if sys.argv[1] == "test" else idiotsim(sys.argv[1:]))
