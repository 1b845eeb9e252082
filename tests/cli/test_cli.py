"""The command line (idiotsim.cli): `trace`, `strategies`, --help, --out folders,
the documents the CLI points to, and one-line user errors.

Most tests call ``cli.main(argv)`` in-process (it always ends with SystemExit);
a few run the installed console script to check the real entry point.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from helpers import cli_user_error, command_paths, run_cli
from idiotsim.game import reference
from idiotsim.strategies import loading as strategy_api
from idiotsim.game.cards import card_pretty, format_deck
from idiotsim.cli import game_commands as play
from idiotsim.game import trace as trace_output
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import FIELD_NAMES, load_rules

# docs/trace.md: the keys of each event kind, in order.
KEY_ORDER = {
    "swap": ["round", "seat", "action", "faceup", "hand"],
    "play": ["round", "seat", "action", "from", "rank", "count", "burn"],
    "pickup": ["round", "seat", "action", "cards"],
    "pickup_from": ["round", "seat", "action", "from", "rank", "cards"],
    "out": ["round", "seat", "action", "place"],
    "end": ["round", "action", "places", "stalled"],
}
SORTED_DECK = format_deck(range(52))  # 2C,2D,2H,2S,3C,... (R3)
SUITS = "\u2663\u2666\u2665\u2660"


def ok(capsys, *args) -> str:
    """Success with nothing at all on stderr."""
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert err == ""
    return out


user_error = cli_user_error


def write_decks(tmp_path, decks, name="decks.txt") -> Path:
    path = tmp_path / name
    path.write_text("".join((d if isinstance(d, str) else format_deck(d)) + "\n" for d in decks))
    return path


def library_trace(decks, players, strategies, seed=0, game=0, **rules) -> str:
    r = load_rules(None, [f"{k}={v}" for k, v in rules.items()], players=players)
    seats = strategy_api.load_strategies(strategies, players)
    result = reference.play_match(decks, r, seats, seed, game)
    return "".join(json.dumps({k: v for k, v in e.items() if not k.startswith("_")}) + "\n"
                   for e in result.events)


def kind(event: dict) -> str:
    return "pickup_from" if event["action"] == "pickup" and "from" in event else event["action"]


# ---- trace format --------------------------------------------------------

def test_trace_literal_lines_from_a_known_deck(capsys, tmp_path):
    # R5 with 2 players and the sorted deck: seat 0 face-up 3H 3S 4C, hand 5C 5D 5H;
    # seat 1 face-up 4D 4H 4S, hand 5S 6C 6D; the talon starts 6H 6S 7C.
    # basic swaps the 3 highest by its key face-up, then seat 0 (R7) plays both 3s,
    # seat 1 its three 4s, and seat 0's 4C makes four 4s on top: a burn (R16.2).
    deck = write_decks(tmp_path, [SORTED_DECK])
    out = ok(capsys, "trace", "--players", 2, "--strategies", "basic", "--deck", deck)
    assert out.splitlines()[:5] == [
        '{"round": 1, "seat": 0, "action": "swap", "faceup": ["5", "5", "5"], "hand": ["3", "3", "4"]}',
        '{"round": 1, "seat": 1, "action": "swap", "faceup": ["5", "6", "6"], "hand": ["4", "4", "4"]}',
        '{"round": 1, "seat": 0, "action": "play", "from": "hand", "rank": "3", "count": 2, "burn": false}',
        '{"round": 1, "seat": 1, "action": "play", "from": "hand", "rank": "4", "count": 3, "burn": false}',
        '{"round": 1, "seat": 0, "action": "play", "from": "hand", "rank": "4", "count": 1, "burn": true}',
    ]
    assert re.fullmatch(r'\{"round": 1, "action": "end", "places": \[[12], [12]\], "stalled": false\}',
                        out.splitlines()[-1])
    assert out.endswith("}\n")


def test_trace_is_the_documented_format_byte_for_byte(capsys):
    seen = set()
    for seed in range(6):
        out = ok(capsys, "trace", "--players", 4, "--strategies", "random,basic,random,basic",
                 "--seed", seed, "--rule", "chance=true")
        for line in out.splitlines():
            event = json.loads(line)
            # json.dumps defaults: ", " and ": " separators, no private "_" keys, no extra spaces.
            assert json.dumps(event) == line
            assert list(event) == KEY_ORDER[kind(event)], line
            seen.add(kind(event))
            if kind(event) == "pickup_from":
                assert event["from"] in ("blind", "talon")
        assert out == library_trace([shuffled_deck(seed, 0, 0, 1)], 4, "random,basic,random,basic",
                                    seed=seed, chance="true")
    assert seen == set(KEY_ORDER)


def test_swap_lines_come_first_and_end_line_last(capsys):
    out = ok(capsys, "trace", "--players", 5, "--seed", 9)
    events = [json.loads(line) for line in out.splitlines()]
    assert [(e["action"], e["seat"]) for e in events[:5]] == [("swap", s) for s in range(5)]
    assert events[-1]["action"] == "end"
    assert sorted(events[-1]["places"]) == [1, 2, 3, 4, 5]


def test_one_name_means_every_seat(capsys):
    for name in ("basic", "random"):
        one = ok(capsys, "trace", "--players", 3, "--strategies", name, "--seed", 4)
        three = ok(capsys, "trace", "--players", 3, "--strategies", f"{name},{name},{name}", "--seed", 4)
        assert one == three


def test_strategies_default_to_basic(capsys):
    assert ok(capsys, "trace", "--seed", 2) == ok(capsys, "trace", "--seed", 2, "--strategies", "basic")


# ---- decks: file and seed -----------------------------------------------

def test_deck_file_with_several_decks(capsys, tmp_path):
    decks = [shuffled_deck(11, i, 0, 1) for i in range(3)]
    path = write_decks(tmp_path, decks)
    out = ok(capsys, "trace", "--players", 3, "--strategies", "random,basic,random", "--deck", path)
    # Match i is game i under seed 0; traces follow each other.
    expected = "".join(library_trace([d], 3, "random,basic,random", seed=0, game=i) for i, d in enumerate(decks))
    assert out == expected
    assert out.count('"action": "end"') == 3
    # With basic only, each match is the same as that deck alone.
    alone = "".join(ok(capsys, "trace", "--players", 3, "--deck", write_decks(tmp_path, [d], f"d{i}.txt"))
                    for i, d in enumerate(decks))
    assert ok(capsys, "trace", "--players", 3, "--deck", path) == alone


def test_deck_file_blank_lines_and_two_decks(capsys, tmp_path):
    decks = [shuffled_deck(5, i, 0, 2) for i in range(2)]
    path = tmp_path / "two.txt"
    path.write_text("\n" + format_deck(decks[0]) + "\n\n" + format_deck(decks[1]) + "\n\n")
    out = ok(capsys, "trace", "--players", 6, "--deck", path)  # 6 players: 2 decks by default (V7)
    assert out == library_trace([decks[0]], 6, "basic", game=0) + library_trace([decks[1]], 6, "basic", game=1)


def test_deck_file_rounds_group_consecutive_decks(capsys, tmp_path):
    decks = [shuffled_deck(3, i, 0, 1) for i in range(4)]
    path = write_decks(tmp_path, decks)
    out = ok(capsys, "trace", "--players", 3, "--deck", path, "--rule", "rounds=2")
    ends = [json.loads(line) for line in out.splitlines() if '"end"' in line]
    assert [e["round"] for e in ends] == [1, 2, 1, 2]
    assert out == (library_trace(decks[:2], 3, "basic", game=0, rounds=2)
                   + library_trace(decks[2:], 3, "basic", game=1, rounds=2))


def test_seed_and_game_are_deterministic(capsys):
    args = ["trace", "--players", 4, "--strategies", "random", "--seed", 123]
    first = ok(capsys, *args)
    assert ok(capsys, *args) == first
    assert ok(capsys, *args, "--game", 0) == first
    other = ok(capsys, *args, "--game", 1)
    assert other != first
    assert ok(capsys, *args, "--game", 1) == other
    assert ok(capsys, "trace", "--players", 4, "--strategies", "random", "--seed", 124) != first


def test_seed_decks_are_the_rng_shuffles(capsys, tmp_path):
    # --seed S --game I plays shuffled_deck(S, I, round, decks) for each round.
    out = ok(capsys, "trace", "--players", 3, "--strategies", "random", "--seed", 77, "--game", 5,
             "--rule", "rounds=3")
    decks = [shuffled_deck(77, 5, r, 1) for r in range(3)]
    assert out == library_trace(decks, 3, "random", seed=77, game=5, rounds=3)
    # With the deterministic basic, the same decks from a file give the same game.
    path = write_decks(tmp_path, decks)
    assert (ok(capsys, "trace", "--players", 3, "--seed", 77, "--game", 5, "--rule", "rounds=3")
            == ok(capsys, "trace", "--players", 3, "--deck", path, "--rule", "rounds=3"))


def test_largest_seed_is_accepted(capsys):
    out = ok(capsys, "trace", "--players", 2, "--seed", 2 ** 63 - 1, "--game", 2 ** 63 - 1)
    assert out.splitlines()[-1].startswith('{"round": 1, "action": "end"')


def test_rules_file_then_rule_then_players(capsys, tmp_path):
    toml = tmp_path / "r.toml"
    toml.write_text("[rules]\nplayers = 3\nrounds = 2\n")

    def seats(*extra):
        out = ok(capsys, "trace", "--seed", 1, "--rules", toml, *extra)
        return len([line for line in out.splitlines() if '"swap"' in line]) // 2  # two rounds

    assert seats() == 3
    assert seats("--rule", "players=5") == 5
    assert seats("--rule", "players=5", "--players", 5) == 5  # --players may repeat what the rules say
    top_level = tmp_path / "flat.toml"
    top_level.write_text("players = 2\n")
    assert ok(capsys, "trace", "--seed", 1, "--rules", top_level).count('"swap"') == 2


def test_engine_option(capsys):
    assert ok(capsys, "trace", "--seed", 3, "--engine", "reference") == ok(capsys, "trace", "--seed", 3)


# ---- pretty ----------------------------------------------------------------

def test_pretty_shows_suits_pile_burns_outs_and_places(capsys, tmp_path):
    deck = write_decks(tmp_path, [SORTED_DECK])
    out = ok(capsys, "trace", "--players", 2, "--deck", deck, "--pretty")
    lines = out.splitlines()
    assert not any(line.startswith("{") for line in lines)
    assert any(s in out for s in SUITS)
    assert "seat 0  face-up 5\u2663 5\u2666 5\u2665 | hand 3\u2665 3\u2660 4\u2663" in out
    play = [line for line in lines if "plays 3\u2665 3\u2660 from hand" in line]
    assert play and play[0].endswith("pile (2): 3\u2665 3\u2660")
    nxt = [line for line in lines if "plays 4\u2666 4\u2665 4\u2660 from hand" in line]
    assert nxt and nxt[0].endswith("pile (5): 3\u2665 3\u2660 4\u2666 4\u2665 4\u2660")
    burn = [line for line in lines if "plays 4\u2663 from hand" in line]
    assert burn and "burns 6 cards" in burn[0] and burn[0].endswith("pile: empty")
    assert re.search(r"seat \d  is OUT: 1st place", out)
    assert re.search(r"round 1 over: 1st seat \d, 2nd seat \d \(the Idiot\)", out)


def test_pretty_stalled_round(capsys):
    out = ok(capsys, "trace", "--seed", 1, "--rule", "action_limit=20", "--pretty")
    assert "round 1 over (STALLED at the action limit): 1st seat" in out
    assert "Idiot" not in out
    assert ok(capsys, "trace", "--seed", 1, "--rule", "action_limit=20").endswith('"stalled": true}\n')


def test_pretty_pile_follows_the_events(capsys):
    """The pile shown after each play, replayed here from the events, card by card."""
    args = ["--players", 3, "--strategies", "random", "--seed", 8, "--rule", "chance=true"]
    out = ok(capsys, "trace", *args, "--pretty")
    result = reference.play_match([shuffled_deck(8, 0, 0, 1)], load_rules(None, ["chance=true"], players=3),
                                  strategy_api.load_strategies("random", 3), 8, 0)
    expected, pile, longest = [], [], 0
    for e in result.events:
        if e["action"] == "play":
            pile = [] if e["burn"] else pile + e["_cards"]
            longest = max(longest, len(pile))
            shown = " ".join(card_pretty(c) for c in pile[-trace_output.PILE_SHOWN:])
            expected.append("pile: empty" if not pile else
                            f"pile ({len(pile)}): " + ("\u2026 " if len(pile) > trace_output.PILE_SHOWN else "") + shown)
        elif e["action"] == "pickup":
            pile = []
    shown = [re.search(r"(pile: empty|pile \(\d+\): .+)$", line).group(1) for line in out.splitlines()
             if " plays " in line or ", plays it" in line]
    assert shown == expected
    assert longest > trace_output.PILE_SHOWN  # the "…" branch was exercised
    assert out.count("took: ") == sum(e["action"] == "pickup" for e in result.events)


def test_pretty_several_matches_and_rounds(capsys, tmp_path):
    path = write_decks(tmp_path, [shuffled_deck(1, i, 0, 1) for i in range(4)])
    out = ok(capsys, "trace", "--players", 3, "--deck", path, "--rule", "rounds=2", "--pretty")
    assert out.count("== game ") == 2
    assert "== game 1, seed 0: 3 players, 1 deck, 2 rounds; rules: rounds=2 ==" in out
    assert out.count("-- round 2 --") == 2
    assert out.count("match: seat 0 total") == 2


def test_pretty_without_suit_symbols(capsys):
    lines = trace_output.pretty_lines(
        reference.play_match([shuffled_deck(1, 0, 0, 1)], load_rules(players=2),
                             strategy_api.load_strategies("basic", 2)),
        load_rules(players=2), strategy_api.load_strategies("basic", 2), 0, 0, symbols=False)
    text = "\n".join(lines)
    assert not any(s in text for s in SUITS)
    assert re.search(r"face-up (\d+|[JQKA])[CDHS] ", text)


# ---- strategies ----------------------------------------------------------

def listing_rows(out: str) -> dict:
    """`idiotsim strategies`: {name: (family, what it does)} from the rows under the header."""
    lines = out.split("\n\n")[0].splitlines()
    assert lines[0].split() == ["name", "family", "what", "it", "does"]
    return {line.split()[0]: (line.split()[1], " ".join(line.split()[2:])) for line in lines[1:]}


def test_strategies_lists_one_line_each_within_80_columns(capsys):
    out = ok(capsys, "strategies")  # stdout is not a terminal here: 80 columns
    assert max(len(line) for line in out.splitlines()) <= 80
    rows = listing_rows(out)
    from idiotsim.strategies.registry import STRATEGIES
    assert list(rows)[:3] == ["basic", "random", "heuristic"]  # families first, each followed by its presets
    assert set(rows) == set(STRATEGIES)
    assert rows["basic"][0] == "basic" and rows["counter"][0] == "counter"
    assert rows["burn-early"][1].startswith("burn_min=1: ")  # a preset: the knobs it changes, then its summary
    assert rows["blocker"][1].startswith("block=1, block_cards=3: ")
    assert "idiotsim strategies NAME" in out


@pytest.fixture
def greedy_registry(monkeypatch):
    """A registry of one knobbed family with a preset (markup-like text included)."""
    greedy = strategy_api.Strategy(
        name="greedy", decide=None, description="a test family [beta]", stochastic=True, counts_cards=True,
        knobs=(strategy_api.Knob("depth", 2, 0, 5, "look-ahead"),
               strategy_api.Knob("risk", 0.5, 0, 1, "how much risk, " + "in many words " * 12, integer=False)),
        presets={"greedy-deep": {"depth": 5}})
    monkeypatch.setattr(strategy_api, "registry", lambda: {"greedy": greedy, "greedy-deep": greedy})


def test_strategies_listing_shows_presets_by_their_knobs(capsys, greedy_registry):
    rows = listing_rows(ok(capsys, "strategies"))
    assert rows == {"greedy": ("greedy", "a test family [beta]"), "greedy-deep": ("greedy", "depth=5")}


def test_strategies_name_gives_the_knob_table(capsys, greedy_registry):
    out = ok(capsys, "strategies", "greedy")
    assert out.startswith("greedy: a test family [beta]\n")
    assert "stochastic: yes; counts cards: yes" in out and "presets: greedy-deep" in out
    assert re.search(r"^knob +default +range +meaning$", out, re.M)
    assert re.search(r"^depth +2 +0\.\.5 +look-ahead$", out, re.M)
    assert re.search(r"^risk +0\.5 +0\.\.1 real +how much risk, in many words", out, re.M)
    assert max(len(line) for line in out.splitlines()) <= 80  # long meanings wrap under their column
    preset = ok(capsys, "strategies", "greedy-deep")
    assert preset.startswith("greedy-deep: greedy with depth=5. greedy: a test family [beta]")
    assert re.search(r"^depth +5\* +0\.\.5 +look-ahead$", preset, re.M)
    assert re.search(r"^risk +0\.5 +0\.\.1 real", preset, re.M)


def test_strategies_name_of_the_library(capsys):
    assert "knobs: none" in ok(capsys, "strategies", "basic")
    out = ok(capsys, "strategies", "pickup-small")
    assert re.search(r"^pickup_max +3\* +0\.\.52 ", out, re.M)
    assert re.search(r"^burn_min +104 +0\.\.104 ", out, re.M)


def test_strategies_name_of_a_strategy_file(capsys, tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(
        "from idiotsim.strategy_api import Knob, Strategy, strategy_function\n"
        "@strategy_function\n"
        "def decide(obs, hand, params, rng):\n"
        "    return -1\n"
        "MINE = Strategy(name='mine', decide=decide, description='always picks up',\n"
        "                knobs=(Knob('patience', 3, 0, 9, 'turns to wait'),))\n")
    out = ok(capsys, "strategies", f"{path}:MINE")
    assert out.startswith("mine: always picks up\n")
    assert re.search(r"^patience +3 +0\.\.9 +turns to wait$", out, re.M)
    assert "does not exist" in user_error(capsys, "strategies", f"{tmp_path}/nope.py:MINE")


def test_strategies_unknown_name(capsys):
    line = user_error(capsys, "strategies", "nosuch")
    assert "unknown strategy 'nosuch'" in line and "basic" in line and "blocker" in line


# ---- --help ----------------------------------------------------------------

@pytest.mark.parametrize("command", [[]] + [list(path) for path in command_paths()], ids=" ".join)
def test_help_fits_80_columns_without_type_noise_on_flags(capsys, monkeypatch, command):
    monkeypatch.setenv("COLUMNS", "80")
    out = ok(capsys, *command, "--help")
    assert "<bool>" not in out
    assert max(len(line) for line in out.splitlines()) <= 80
    if command in (["run"], ["tournament"], ["report"]):
        assert "[dask]" in out  # not read as rich markup


def test_help_points_to_the_rules_document(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert "docs/rules.md" in ok(capsys, "--help")
    assert "docs/rules.md" in ok(capsys, "trace", "--help")
    assert "docs/trace.md" in ok(capsys, "trace", "--help")


# ---- the documents ------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
RULE_IDS = [f"R{i}" for i in range(1, 21)] + [f"V{i}" for i in range(1, 13)]
# Files that must cite docs/rules.md, never the rules' old home outside the project.
# (At the merge of issue 11 this becomes the whole tree.)
CITING_FILES = sorted(str(p.relative_to(ROOT)) for folder in ("idiotsim", "strategies", "tests", "docs", "reports",
                                                                 "benchmarks")
                      for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md", ".toml")) + ["README.md"]


def test_rules_document_defines_every_rule_id():
    text = (ROOT / "docs" / "rules.md").read_text()
    for rule in RULE_IDS[:20]:
        assert f"- **{rule}.** " in text, rule
    for variant in RULE_IDS[20:]:
        assert re.search(rf"^\| {variant} \| `\w+ = ", text, re.M), variant
    assert "**Decision:**" in text


@pytest.mark.parametrize("name", CITING_FILES)
def test_no_reference_to_rules_outside_the_project(name):
    text = (ROOT / name).read_text()
    for old_home in ("../" + "shared", "/work/" + "shared", "seeds/" + "0", "RULES" + ".md"):  # split: not in here
        assert old_home not in text


def test_trace_document_lists_the_keys_of_every_event():
    text = (ROOT / "docs" / "trace.md").read_text()
    for kind_name, keys in KEY_ORDER.items():
        assert " | " + ", ".join(f"`{k}`" for k in keys) + " | " in text, kind_name


def test_trace_document_example_is_a_real_trace(capsys):
    text = (ROOT / "docs" / "trace.md").read_text()
    shown = re.findall(r"^ *(\d+) (\{.*\})$", text, re.M)
    lines = ok(capsys, "trace", "--players", 4, "--seed", 1).splitlines()
    assert len(shown) >= 10
    assert all(lines[int(number) - 1] == line for number, line in shown)


def test_trace_document_pretty_example_is_a_real_pretty_trace(capsys):
    """docs/trace.md's --pretty excerpt is lines of the command it names, numbered as its JSON trace's lines."""
    text = (ROOT / "docs" / "trace.md").read_text()
    shown = re.findall(r"^( *\d+  seat \d .*)$", text, re.M)
    pretty = ok(capsys, "trace", "--players", 4, "--seed", 7, "--game", 3, "--pretty").splitlines()
    trace = ok(capsys, "trace", "--players", 4, "--seed", 7, "--game", 3).splitlines()
    assert len(shown) >= 3 and all(line in pretty for line in shown)
    for line in shown:
        number = int(line.split()[0])
        event = json.loads(trace[number - 1])
        assert f"seat {event['seat']} " in line and event["action"] in ("play", "pickup", "swap")


# ---- --out that cannot be created ------------------------------------------

OUT_COMMANDS = {
    "run": ["run", "--games", 10],
    "tournament": ["tournament", "--strategies", "basic,random", "--games", 1000],
    "report": ["report", str(Path(__file__).resolve().parents[2] / "reports" / "pickup.toml"), "--quick"],
}


@pytest.mark.parametrize("command", OUT_COMMANDS)
def test_out_under_a_folder_that_cannot_be_created(capsys, command):
    line = user_error(capsys, *OUT_COMMANDS[command], "--out", "/proc/x/y")
    assert line == "error: cannot create the --out folder /proc/x/y: No such file or directory (/proc/x)"


@pytest.mark.parametrize("command", OUT_COMMANDS)
def test_out_folder_that_cannot_be_written(capsys, command):
    line = user_error(capsys, *OUT_COMMANDS[command], "--out", "/proc")
    assert line.startswith("error: cannot write into the --out folder /proc: ")


@pytest.mark.parametrize("command", OUT_COMMANDS)
def test_out_that_fails_deep_down_leaves_nothing(capsys, tmp_path, command):
    out = tmp_path / "new" / "deeper" / ("x" * 300)  # the parents can be made, the last name cannot
    line = user_error(capsys, *OUT_COMMANDS[command], "--out", out)
    assert "cannot create the --out folder" in line and "File name too long" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", OUT_COMMANDS)
def test_out_that_is_a_file(capsys, tmp_path, command):
    path = tmp_path / "file"
    path.write_text("x")
    assert user_error(capsys, *OUT_COMMANDS[command], "--out", path) == f"error: --out {path} exists and is not a folder"


# ---- user errors: one line, exit code 2 ------------------------------------

def test_bad_deck_strings(capsys, tmp_path):
    cards = SORTED_DECK.split(",")
    cases = {
        "short.txt": (",".join(cards[:51]), r"a deck has 52 or 104 cards, this one has 51"),
        "code.txt": (",".join(cards[:51] + ["1X"]), r"unknown card code '1X'"),
        "dup.txt": (",".join(cards[:51] + ["2C"]), r"card 2C appears 2 time"),
        "trailing.txt": (SORTED_DECK + ",", r"unknown card code ''"),
    }
    for name, (text, message) in cases.items():
        path = write_decks(tmp_path, [text], name)
        line = user_error(capsys, "trace", "--players", 2, "--deck", path)
        assert re.search(message, line), line
        assert f"{path} line 1" in line


def test_three_copies_in_a_two_deck_game(capsys, tmp_path):
    cards = SORTED_DECK.split(",") * 2
    cards[-1] = "2C"  # 2C three times, AS once
    path = write_decks(tmp_path, [",".join(cards)])
    line = user_error(capsys, "trace", "--players", 6, "--deck", path)
    assert "card 2C appears 3 time(s) in a 2-deck game" in line


def test_deck_count_not_matching_rules(capsys, tmp_path):
    one = write_decks(tmp_path, [SORTED_DECK], "one.txt")
    assert "the rules ask for 2 deck(s)" in user_error(capsys, "trace", "--players", 6, "--deck", one)
    assert "the rules ask for 2 deck(s)" in user_error(capsys, "trace", "--deck", one, "--rule", "decks=2")
    two = write_decks(tmp_path, [",".join([SORTED_DECK] * 2)], "two.txt")
    assert "the rules ask for 1 deck(s)" in user_error(capsys, "trace", "--players", 4, "--deck", two)
    three = write_decks(tmp_path, [SORTED_DECK] * 3, "three.txt")
    line = user_error(capsys, "trace", "--deck", three, "--rule", "rounds=2")
    assert "holds 3 deck(s), not a multiple of rounds=2" in line


def test_missing_and_empty_deck_file(capsys, tmp_path):
    line = user_error(capsys, "trace", "--deck", tmp_path / "nope.txt")
    assert "cannot read deck file" in line and "nope.txt" in line
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    assert "holds no deck" in user_error(capsys, "trace", "--deck", empty)


def test_bad_strategies(capsys):
    line = user_error(capsys, "trace", "--seed", 1, "--strategies", "basic,nosuch,basic,basic")
    assert "unknown strategy 'nosuch'" in line and "basic" in line and "random" in line
    assert "4 players need 1 or 4 strategies, got 2" in user_error(
        capsys, "trace", "--seed", 1, "--strategies", "basic,random")
    assert "3 players need 1 or 3 strategies, got 4" in user_error(
        capsys, "trace", "--seed", 1, "--players", 3, "--strategies", "basic,basic,basic,basic")
    assert "empty strategy name" in user_error(capsys, "trace", "--seed", 1, "--strategies", "basic,,basic")
    assert "has no knob 'depth'" in user_error(capsys, "trace", "--seed", 1, "--strategies", "basic:depth=1")
    assert "does not exist" in user_error(capsys, "trace", "--seed", 1, "--strategies", "nowhere.py:mine")


@pytest.mark.parametrize("engine", ["reference", "numba"])
def test_illegal_move_from_a_strategy_file(capsys, tmp_path, engine):
    path = tmp_path / "bad_strategy.py"
    path.write_text(
        "from numba import njit\n"
        "from idiotsim.strategy_api import SIG, Strategy\n"
        "@njit(SIG)\n"
        "def decide(obs, hand, params, rng):\n"
        "    return -1\n"
        "BAD = Strategy(name='bad', decide=decide, description='always picks up')\n")
    code, out, err = run_cli(capsys, "trace", "--seed", 1, "--players", 2, "--strategies", f"basic,{path}:BAD",
                             "--engine", engine)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "made an illegal move" in err and "seat 1" in err
    assert [json.loads(line)["action"] for line in out.splitlines()] == ["swap"]  # the game up to seat 1's swap


def test_illegal_move_late_in_a_game_traces_the_same_on_both_engines(capsys, tmp_path):
    """A strategy that plays like basic until the talon is gone, then picks up an empty pile or worse: each
    engine prints the same game up to that move, then one error line."""
    path = tmp_path / "late.py"
    path.write_text(
        "from numba import njit\n"
        "from idiotsim.strategy_api import SIG, TURN, Strategy, decision, play_like_basic, talon_size\n"
        "@njit(SIG)\n"
        "def decide(obs, hand, params, rng):\n"
        "    if decision(obs) == TURN and talon_size(obs) == 0:\n"
        "        return 99\n"
        "    return play_like_basic(obs, hand)\n"
        "LATE = Strategy(name='late', decide=decide, description='basic, then an illegal move')\n")
    outputs = []
    for engine in ("reference", "numba"):
        code, out, err = run_cli(capsys, "trace", "--seed", 3, "--players", 3, "--strategies", f"{path}:LATE",
                                 "--engine", engine)
        assert code == 2 and err.count("\n") == 1 and "made an illegal move" in err
        outputs.append((out, err))
    assert outputs[0] == outputs[1]
    assert len(outputs[0][0].splitlines()) > 20  # the game so far: the swap, then the talon's plays


def test_strategy_file_errors(capsys, tmp_path):
    plain = tmp_path / "plain.py"
    plain.write_text("from idiotsim.strategy_api import Strategy\n"
                     "def decide(obs, hand, params, rng):\n    return 0\n"
                     "PLAIN = Strategy(name='plain', decide=decide, description='not compiled')\n")
    line = user_error(capsys, "trace", "--seed", 1, "--players", 2, "--strategies", f"basic,{plain}:PLAIN")
    assert "must be compiled with @strategy_function" in line
    assert "defines no Strategy named 'NOPE'" in user_error(
        capsys, "trace", "--seed", 1, "--strategies", f"{plain}:NOPE")
    broken = tmp_path / "broken.py"
    broken.write_text("def oops(:\n")
    assert "cannot load strategy file" in user_error(capsys, "trace", "--seed", 1, "--strategies", f"{broken}:X")


def test_unknown_rule_lists_valid_names(capsys):
    line = user_error(capsys, "trace", "--seed", 1, "--rule", "jokers=2")
    assert "unknown rule 'jokers'" in line
    assert all(name in line for name in FIELD_NAMES)
    line = user_error(capsys, "trace", "--seed", 1, "--rule", "lowest_starts")
    assert "NAME=VALUE" in line and all(name in line for name in FIELD_NAMES)


@pytest.mark.parametrize("assignment, message", [
    ("lowest_starts=maybe", "rule lowest_starts takes true or false, got 'maybe'"),
    ("players=four", "rule players takes an integer, got 'four'"),
    ("low_rank=8", "low_rank must be none, 7 or 9, got 8"),
    ("low_rank=seven", "rule low_rank takes none, 7 or 9"),
    ("rounds=0", "rounds must be 1..10, got 0"),
    ("decks=3", "decks must be 1 or 2, got 3"),
    ("six_burn=2", "six_burn must be 0 (off) or 3"),
    ("opening_lowest=true", "opening_lowest (V12) applies only with lowest_starts (V3)"),
    ("action_limit=0", "action_limit must be 1..10000000"),
])
def test_bad_rule_values(capsys, assignment, message):
    assert message in user_error(capsys, "trace", "--seed", 1, "--rule", assignment)


@pytest.mark.parametrize("text, message", [
    ("players = \n", "is not valid TOML"),
    ("[rules\nplayers = 3\n", "is not valid TOML"),
    ("[rules]\njokers = 2\n", "unknown rule 'jokers'"),
    ("[rules]\nrounds = 11\n", "rounds must be 1..10, got 11"),
    ("[rules]\nplayers = 3.5\n", "players must be an integer, got 3.5"),
    ("[rules]\nchance = 1\n", "chance must be true or false, got 1"),
    ("[rules]\nplayers = \"four\"\n", "rule players takes an integer"),
    ("rules = 5\n", "[rules] must be a table"),
])
def test_bad_rules_file(capsys, tmp_path, text, message):
    path = tmp_path / "rules.toml"
    path.write_text(text)
    assert message in user_error(capsys, "trace", "--seed", 1, "--rules", path)


def test_missing_rules_file(capsys, tmp_path):
    assert "cannot read rules file" in user_error(capsys, "trace", "--seed", 1, "--rules", tmp_path / "x.toml")


@pytest.mark.parametrize("players", [0, 1, 11, -3])
def test_players_out_of_range(capsys, players):
    assert f"players must be 2..10, got {players}" in user_error(capsys, "trace", "--seed", 1, "--players", players)


def test_too_many_players_for_one_deck(capsys):
    assert "use decks=2" in user_error(capsys, "trace", "--seed", 1, "--players", 6, "--rule", "decks=1")


def test_deck_and_seed_exactly_one(capsys, tmp_path):
    path = write_decks(tmp_path, [SORTED_DECK])
    assert "neither was given" in user_error(capsys, "trace")
    assert "both were given" in user_error(capsys, "trace", "--deck", path, "--seed", 1)
    assert "--game applies only with --seed" in user_error(capsys, "trace", "--deck", path, "--game", 1)


@pytest.mark.parametrize("args, message", [
    (["--seed", -1], "--seed must be an integer 0..9223372036854775807"),
    (["--seed", 2 ** 63], "--seed must be an integer 0..9223372036854775807"),
    (["--seed", "abc"], "Invalid value for '--seed'"),
    (["--seed", "1.5"], "Invalid value for '--seed'"),
    (["--seed", 1, "--game", -2], "--game must be a game index 0..9223372036854775807, got -2"),
    (["--seed", 1, "--game", 2 ** 63], "--game must be a game index"),
])
def test_bad_seed_and_game(capsys, args, message):
    assert message in user_error(capsys, "trace", *args)


@pytest.mark.parametrize("args, message", [
    (["trace", "--seed", 1, "--engine", "warp"], "Invalid value for '--engine'"),
    (["trace", "--seed", 1, "--bogus"], "No such option: --bogus"),
    (["trace", "--seed"], "requires an argument"),
    (["trace", "--seed", 1, "--players", "x"], "Invalid value for '--players'"),
    (["frobnicate"], "No such command 'frobnicate'"),
    (["strategies", "basic", "extra"], "Got unexpected extra argument"),
])
def test_usage_errors_are_one_line(capsys, args, message):
    line = user_error(capsys, *args)
    assert message in line
    assert f"(see 'idiotsim {args[0]} --help')" in line or args[0] == "frobnicate"


def test_an_undecodable_argument_is_one_line_and_writes_nothing(capsys, tmp_path):
    out = tmp_path / "x\udcff"  # how Python keeps the byte 0xff of a command line it cannot decode
    line = user_error(capsys, "run", "--games", 100, "--out", out)
    assert line.endswith("x\\xff' is not valid UTF-8 text")
    assert not list(tmp_path.iterdir())


def test_help_exits_zero(capsys):
    code, out, _ = run_cli(capsys, "trace", "--help")
    assert code == 0 and "--strategies" in out and "--pretty" in out


def test_bare_command_shows_help_with_code_2(capsys):
    code, out, err = run_cli(capsys)
    assert code == 2
    assert "trace" in out + err and "Traceback" not in err


# ---- the installed console script ----------------------------------------

def _script() -> list[str]:
    exe = Path(sys.executable).with_name("idiotsim")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "idiotsim.cli"]


def test_console_script_trace_and_error(capsys):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    args = ["trace", "--players", "3", "--strategies", "basic,random,basic", "--seed", "42"]
    done = subprocess.run(_script() + args, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ok(capsys, *args)
    bad = subprocess.run(_script() + ["trace", "--seed", "1", "--rule", "jokers=1"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.startswith("error: unknown rule 'jokers'") and bad.stderr.count("\n") == 1


def test_a_reader_that_stops_reading_ends_the_table_not_the_run(tmp_path):
    """`idiotsim run | head -1`: standard output is a pipe nobody reads. The run still writes every
    result, prints no traceback and exits 0 (rich's own reaction, exit 1 mid-command, made the exit code
    depend on whether the table fit the pipe's buffer)."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the first line: every write fails
    out = tmp_path / "run"
    try:
        done = subprocess.run(_script() + ["run", "--games", "2000", "--seed", "3", "--out", str(out)],
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert pl.read_parquet(next(out.glob("*.parquet"))).height == 2000


def test_public_event_drops_private_keys():
    event = {"round": 1, "seat": 0, "action": "play", "_cards": [1], "from": "hand"}
    assert trace_output.public_event(event) == {"round": 1, "seat": 0, "action": "play", "from": "hand"}
    assert np.array_equal(play.seed_decks(3, 4, load_rules(rounds=2))[1], shuffled_deck(3, 4, 1, 1))


def test_an_exception_raised_by_ctrl_c_ends_as_an_interrupt(monkeypatch, capsys):
    """numba's dispatcher can turn the KeyboardInterrupt of a Ctrl-C into a TypeError (seen in
    test_interrupted_run_resumes_to_the_uninterrupted_result): it must still end as 'aborted', exit 2."""
    import importlib
    import signal

    app_module = importlib.import_module("idiotsim.cli.app")  # the module: idiotsim.cli.app is also the Typer app
    play_module = importlib.import_module("idiotsim.cli.game_commands")

    def interrupted_inside_numba(*args, **kwargs):
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            raise TypeError("_get_wrapper_address() missing 1 required positional argument: 'sig'") from None

    monkeypatch.setattr(play_module, "seeded_match", interrupted_inside_numba)
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(SystemExit) as exit_info:
        app_module.main(["trace", "--players", "4", "--seed", "7", "--game", "3"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.strip() == "error: aborted"
    assert signal.getsignal(signal.SIGINT) is before
    with pytest.raises(TypeError):  # without a Ctrl-C the same error is a bug, shown as it is
        monkeypatch.setattr(play_module, "seeded_match", lambda *a, **k: (_ for _ in ()).throw(TypeError("bug")))
        app_module.main(["trace", "--players", "4", "--seed", "7", "--game", "3"])
