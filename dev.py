#!/usr/bin/env python3
"""Set up and run idiotsim with nothing but Python 3.11.

    python3 dev.py demo   # create .venv, install, play the strength ladder (random to the search)
    python3 dev.py play   # create .venv, install, sit at the table against the bots (idiotsim play ARGS,
                          # e.g. --level expert, or --resume FILE to go on with an unfinished game)
    python3 dev.py test   # create .venv, install with test extras, run the whole test suite (2 workers),
                          # which includes the check that every committed report matches its
                          # regeneration (tests/experiments/test_shipped_reports.py)
    python3 dev.py test ARGS  # pytest ARGS instead (e.g. one file)

The virtual environment is (re)installed whenever pyproject.toml changes.
"""
import hashlib
import os
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


def run(args: list[str]) -> int:
    return subprocess.run(args, cwd=ROOT).returncode


def demo() -> int:
    return run([str(BIN / "idiotsim"), "demo"])


def play() -> int:
    child = subprocess.Popen([str(BIN / "idiotsim"), "play"] + sys.argv[2:], cwd=ROOT)
    while True:
        try:
            return child.wait()
        except KeyboardInterrupt:  # Ctrl-C reaches the game too: it saves the game file and ends
            continue


def test() -> int:
    return run([str(BIN / "python"), "-m", "pytest", "-n", "2", "-q"] + sys.argv[2:])


COMMANDS = {"demo": demo, "play": play, "test": test}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit("usage: python3 dev.py demo | play [play args] | test [pytest args]")
    ensure_venv()
    sys.exit(COMMANDS[sys.argv[1]]())
