"""docs/interop.md against the code: every Python example run, its printed lines equal to the page's, and
every size the page gives (actions, tensors, observations of each IIGObservationType) equal to the code's."""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import idiotsim.interop.openspiel  # noqa: F401 - registers the game
from idiotsim.game.observation import OBS_SIZE
from idiotsim.game.rules import Rules
from idiotsim.game import action_space as act
from idiotsim.interop.stepped import VECTOR_SIZE

DOC = Path(__file__).resolve().parents[2] / "docs" / "interop.md"
TEXT = DOC.read_text()


def blocks() -> list[tuple[str, str]]:
    """(language, code) of every fenced block, in order."""
    return re.findall(r"^```(\w*)\n(.*?)^```", TEXT, flags=re.S | re.M)


def test_every_python_example_prints_what_the_page_says(monkeypatch, tmp_path):
    """The examples run in one namespace, in order (the second uses the first's `game`); a `text` block right
    after an example is what it prints, exactly."""
    monkeypatch.chdir(tmp_path)
    found = blocks()
    namespace: dict = {}
    checked = 0
    for i, (language, code) in enumerate(found):
        if language != "python":
            continue
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"{DOC.name} example {i}", "exec"), namespace)
        if i + 1 < len(found) and found[i + 1][0] == "text":
            assert printed.getvalue() == found[i + 1][1], f"example {i}"
            checked += 1
    assert checked == 4


def sizes_stated(pattern: str) -> list[int]:
    return [int(x.replace(",", "")) for x in re.findall(pattern, TEXT)]


def test_the_action_space_figures_are_the_codes():
    assert sizes_stated(r"([\d,]+) ids") == [act.NUM_ACTIONS]
    assert sizes_stated(r"([\d,]+) swaps") == [len(act.SWAPS)]
    assert sizes_stated(r"([\d,]+) plays \(") == [act.PICKUP_ACTION - act.PLAY_BASE]
    assert sizes_stated(r"allows ([\d,]+) plays") == [Rules().action_limit]
    assert sizes_stated(r'"observation": int64\[(\d+)\]') == [VECTOR_SIZE]
    assert sizes_stated(r'"action_mask": int8\[(\d+)\]') == [act.NUM_ACTIONS]
    assert f"`observation`, int32 ({OBS_SIZE} + 13:" in TEXT  # the vector environment's row


OBSERVATION_TYPES = {
    "default": pyspiel.IIGObservationType(perfect_recall=False),
    "`private_info=NONE`": pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE),
    "`public_info=False`": pyspiel.IIGObservationType(perfect_recall=False, public_info=False),
    "`private_info=ALL_PLAYERS`": pyspiel.IIGObservationType(perfect_recall=False,
                                                             private_info=pyspiel.PrivateInfoType.ALL_PLAYERS),
}


def figure(text: str, players: int) -> int:
    """A size as the page writes it, at n players: `438 + 14 n`, `n x 13`, `1`."""
    expression = re.sub(r"(\d)\s+n", r"\1*n", text.strip()).replace(" x ", "*").replace("n", str(players))
    assert re.fullmatch(r"[\d+* ]+", expression), text
    return eval(expression)


@pytest.mark.parametrize("players", [2, 4, 7])
def test_the_observation_table_gives_each_types_tensor(players):
    """Each row of the page's table: the tensor's size (`438 + 14 n` read at n players) and its pieces."""
    game = pyspiel.load_game("idiot", {"players": players})
    rows = re.findall(r"^  \| (.+?) \| (.+?) \| (.+?) \|$", TEXT, flags=re.M)[1:]  # past the header
    assert len(rows) == len(OBSERVATION_TYPES)
    for kind, size, pieces in rows:
        name = next(k for k in OBSERVATION_TYPES if kind.startswith(k))
        observation = make_observation(game, OBSERVATION_TYPES[name])
        assert observation.tensor.size == figure(size, players), kind
        stated = dict(re.findall(r"`(\w+)` ([\dnx ]+?)(?: \(|,|$)", pieces))
        assert set(stated) == set(observation.dict), kind
        for piece, shape in stated.items():
            assert observation.dict[piece].size == figure(shape, players), piece
    assert game.observation_tensor_size() == VECTOR_SIZE == OBS_SIZE + 14
    assert f"the same {VECTOR_SIZE} numbers" in TEXT
