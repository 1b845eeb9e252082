"""`python3 dev.py` works from the user's folder: `dev.py play` started elsewhere saves its game file there
(not in the repository), every next step it prints runs as printed from there (through dev.py: the
virtual environment's `idiotsim` is not on the PATH), and `dev.py play --resume FILE` resumes a game file
of that folder."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parent.parent
PROMPT = "your move"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def environment() -> dict:
    """The user's shell: the virtual environment's bin folder not on the PATH."""
    bin_folder = str(Path(sys.executable).parent)
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p != bin_folder)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "IDIOTSIM_COMMAND")}
    return dict(env, PATH=path, NO_COLOR="1", LANG="C.UTF-8", LC_ALL="C.UTF-8", PYTHONIOENCODING="utf-8")


def shell(command: str, folder: Path) -> pexpect.spawn:
    return pexpect.spawn("/bin/sh", ["-c", command], cwd=str(folder), env=environment(), encoding="utf-8",
                         dimensions=(24, 80), timeout=300)


def quit_at_the_first_prompt(child: pexpect.spawn) -> str:
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return ANSI.sub("", child.before).replace("\r", "")


def next_steps(output: str) -> dict:
    """The printed next steps, each a command as a shell reads it (lines ending in a backslash go on)."""
    joined = re.sub(r" \\\n\s*", " ", output)
    return dict(re.findall(r"^\s+(continue|replay|review):\s+(.+)$", joined, re.M))


def test_dev_play_from_another_folder_saves_there_and_its_next_steps_run_as_printed(tmp_path):
    python = shutil.which("python3", path=environment()["PATH"]) or sys.executable
    in_repository = set(ROOT.glob("idiotsim-*.json"))
    child = shell(f"{python} {ROOT / 'dev.py'} play --players 2 --bots basic --seed 3", tmp_path)
    child.expect(PROMPT)
    child.sendline("1")  # the swap: the game file records a decision
    output = quit_at_the_first_prompt(child)
    saved = list(tmp_path.glob("idiotsim-*.json"))
    assert len(saved) == 1 and set(ROOT.glob("idiotsim-*.json")) == in_repository
    steps = next_steps(output)
    assert set(steps) == {"continue", "replay", "review"}
    for step in steps.values():
        assert re.match(rf"\S*python3?\S* {re.escape(str(ROOT / 'dev.py'))} ", step), step
    assert steps["continue"].endswith(f"play --resume {saved[0].name}")

    replay = subprocess.run(["/bin/sh", "-c", steps["replay"]], cwd=tmp_path, env=environment(), capture_output=True,
                            text=True, timeout=300)
    assert replay.returncode == 0, replay.stderr
    assert "hand ? ? ?" in replay.stdout  # an unfinished game, as the person's seat saw it
    review = subprocess.run(["/bin/sh", "-c", steps["review"]], cwd=tmp_path, env=environment(), capture_output=True,
                            text=True, timeout=300)
    assert review.returncode == 0 and "review of seat 0 (you)" in review.stdout, review.stderr
    resumed = shell(steps["continue"], tmp_path)
    resumed.expect(f"resuming: {saved[0].name}")
    quit_at_the_first_prompt(resumed)
