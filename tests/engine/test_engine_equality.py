"""The numba engine against the reference engine, game by game: the core test of the project.

The reference engine (``idiotsim.game.reference``) is docs/rules.md as plain Python; the
numba engine (``idiotsim.engine.drivers``, through ``idiotsim.engine.batches``) must play
exactly the same game from the same deck:

- Trace equality: on decks from ``rng.shuffled_deck``, ``batches.trace_game``
  returns the reference trace (events without their private ``_`` keys,
  compared as ``json.dumps`` lines, docs/trace.md) and the same list
  of observation checksums (every observation and hand handed to a strategy,
  ``obs_log`` of ``reference.play_match``), so the two engines show strategies
  the same table at every decision. Each variant of docs/rules.md alone (V1..V12),
  the default rules, a small action limit (R20 stalls) and all variants
  combined; player counts cycle 2..5 (2..10 with two decks, V7); the seats mix
  ``basic`` and ``random``. The numba engine shuffles its own decks from
  (seed, game) in half of the games and is handed the reference's decks in
  the other half.
- Outcome equality: ``batches.play_games`` batches (the parallel path of
  ``idiotsim run``) against the reference ``MatchResult`` (places, actions,
  burns, pickups, stalled), see ``test_outcomes_equal_reference``.

Speed. The observation checksum's definition (``observation.checksum``, an
FNV-1a loop in Python) would cost 4/5 of a reference game; both engines log
its compiled form (``observation.obs_checksum``), after
``test_compiled_checksum_is_the_observation_checksum`` and
``test_trace_equality_with_the_python_checksum`` (games of every variant with
the reference logging the Python definition) show they compute the same
numbers. Games with
two or more ``random`` seats cost 5-10x more in the reference engine (random
players pick up voluntarily and make long games), so most games seat at most
one ``random`` player; 3 games in 64 seat two, alternate them or are all random.

Coverage: >= 2,000 decks for each variant alone and for each player count
2..5, and >= 1,200 for each of 6..10 (the two-deck tables of V7, a case of
their own: a game there costs 10-16 ms on the two engines and holds about three
times the decisions of a 4-player game). The outcome test plays every
(variant, players, seats) group once, 4,096 games: its own concern is the
batch path (blocks, per-game streams, the result arrays), which any game
exercises; the rare table states are the trace test's.

On a mismatch a test reports every differing game (up to a few per case) with
variant, players, seats, seed, game and the first differing trace line.
"""
from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from idiotsim.game import observation as ob
from idiotsim.game import reference
from idiotsim.game.reference import play_match
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_games, trace_game
from idiotsim.strategies.loading import load_strategies

SEED = 8_675_309

# (id, rules fields, player counts cycled, decks checked). A game of `rounds` rounds plays
# `rounds` decks (R19, V4), so the multi-round cases play decks / rounds games.
VARIANTS = [
    ("default", {}, range(2, 6), 2000),
    ("V1_low_rank_7", {"low_rank": 7}, range(2, 6), 2000),
    ("V2_low_rank_9", {"low_rank": 9}, range(2, 6), 2000),
    ("V3_lowest_starts", {"lowest_starts": True}, range(2, 6), 2000),
    ("V4_rounds_3", {"rounds": 3}, range(2, 6), 2004),
    ("V5_chance", {"chance": True}, range(2, 6), 2000),
    ("V6_ten_only_on_lower", {"ten_only_on_lower": True}, range(2, 6), 2000),
    ("V7_decks_2", {"decks": 2}, range(2, 11), 2007),
    ("V7_decks_2_players_6_to_10", {"decks": 2}, range(6, 11), 5000),
    ("V8_idiot_deals_rounds_2", {"idiot_deals": True, "rounds": 2}, range(2, 6), 2000),
    ("V9_burn_plays_again_false", {"burn_plays_again": False}, range(2, 6), 2000),
    ("V10_six_burn_3", {"six_burn": 3}, range(2, 6), 2000),
    ("V11_last_hand_with_faceup", {"last_hand_with_faceup": True}, range(2, 6), 2000),
    ("V12_lowest_starts_opening_lowest", {"lowest_starts": True, "opening_lowest": True}, range(2, 6), 2000),
    # Not docs/rules.md variants, but cheap and worth it: R20 stalls, and every variant at once.
    ("R20_action_limit_40", {"action_limit": 40}, range(2, 6), 500),
    ("all_variants", {"low_rank": 7, "lowest_starts": True, "opening_lowest": True, "rounds": 2, "chance": True,
                      "ten_only_on_lower": True, "idiot_deals": True, "burn_plays_again": False, "six_burn": 3,
                      "last_hand_with_faceup": True}, range(2, 6), 1000),
]
SHARD_COST = 500  # about this many round-games per test case, so pytest-xdist workers share the work


def case_games(fields: dict, decks: int) -> int:
    rounds = fields.get("rounds", 1)
    return -(-decks // rounds)


def seat_spec(k: int, n: int) -> str:
    """The strategies of game `k` of a case (k counts games with the same player count).

    Per 64 games: 32 all `basic`, 29 with one `random` seat (which seat varies),
    one alternating `basic,random,...`, one with `random` at the first and last
    seat, and one all `random`.
    """
    slot = k % 64
    if slot == 63:
        return "random"
    if slot == 31:
        return ",".join("basic" if s % 2 == 0 else "random" for s in range(n))
    if slot == 15 and n > 2:
        return ",".join("random" if s in (0, n - 1) else "basic" for s in range(n))
    if slot % 2:
        r = (k // 64 + slot // 2) % n
        return ",".join("random" if s == r else "basic" for s in range(n))
    return "basic"


# ---- one game -------------------------------------------------------------

_SEATS: dict = {}


def seats_for(spec: str, n: int):
    key = (spec, n)
    if key not in _SEATS:
        _SEATS[key] = load_strategies(spec, n)
    return _SEATS[key]


def public(events) -> list:
    return [{k: v for k, v in e.items() if not k.startswith("_")} for e in events]


def first_difference(a: list, b: list):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b)) if len(a) != len(b) else None


def compare_game(case: str, rules: Rules, spec: str, seed: int, game: int, hand_decks: bool) -> str | None:
    """Play one game on both engines; None when they agree, else a report of the first difference."""
    seats = seats_for(spec, rules.players)
    decks = [shuffled_deck(seed, game, r, rules.decks) for r in range(rules.rounds)]
    where = (f"case {case}: rules {rules.as_dict()}, players {rules.players}, seats {spec!r}, "
             f"seed {seed}, game {game}, decks {'given' if hand_decks else 'shuffled by the numba engine'}")
    ref_obs: list = []
    ref = play_match(decks, rules, seats, seed, game, obs_log=ref_obs)
    events, nb_obs, places = trace_game(rules, seats, seed, game, decks if hand_decks else None)
    ref_events = public(ref.events)
    if json.dumps(ref_events) != json.dumps(events):
        ref_lines = [json.dumps(e) for e in ref_events]
        nb_lines = [json.dumps(e) for e in events]
        i = first_difference(ref_lines, nb_lines)
        return (f"{where}: traces differ at line {i + 1} (of {len(ref_lines)} reference, {len(nb_lines)} numba):\n"
                f"  reference: {ref_lines[i] if i < len(ref_lines) else '<end of trace>'}\n"
                f"  numba:     {nb_lines[i] if i < len(nb_lines) else '<end of trace>'}")
    if ref_obs != nb_obs:
        i = first_difference(ref_obs, nb_obs)
        return (f"{where}: same trace, but observation checksums differ at decision {i + 1} "
                f"(of {len(ref_obs)} reference, {len(nb_obs)} numba)")
    if places != ref.places:
        return f"{where}: match places differ: reference {ref.places}, numba {places}"
    return None


def check_games(case: str, fields: dict, players: range, seed: int, games: range, max_reports: int = 5) -> Counter:
    """Compare `games`; fails listing the first differing games. Returns the games per player count."""
    failures, per_count = [], Counter()
    cycle = len(players)
    for g in games:
        n = players[g % cycle]
        rules = Rules(players=n, **fields)
        msg = compare_game(case, rules, seat_spec(g // cycle, n), seed, g, hand_decks=bool(g // cycle % 2))
        per_count[n] += 1
        if msg:
            failures.append(msg)
            if len(failures) >= max_reports:
                break
    assert not failures, f"{len(failures)} game(s) differ (stopped after {max_reports}):\n" + "\n".join(failures)
    return per_count


def shards(variants) -> list:
    params = []
    for index, (case, fields, players, decks) in enumerate(variants):
        games = case_games(fields, decks)
        # two-deck games with many players cost about twice as much
        per_shard = SHARD_COST // fields.get("rounds", 1) // (2 if fields.get("decks") == 2 else 1)
        n_shards = -(-games // per_shard)
        bounds = [games * k // n_shards for k in range(n_shards + 1)]
        for start, stop in zip(bounds, bounds[1:]):
            params.append(pytest.param(case, fields, players, SEED + 1000 * index, start, stop,
                                       id=f"{case}-games{start}-{stop - 1}"))
    return params


# ---- the plan -------------------------------------------------------------

def test_plan_covers_every_variant_and_player_count():
    """>= 2,000 decks for every docs/rules.md variant alone and for every player count 2..5, >= 1,200 for 6..10."""
    per_count = Counter()
    for case, fields, players, decks in VARIANTS:
        games = case_games(fields, decks)
        assert games * fields.get("rounds", 1) >= decks
        if not case.startswith(("R20", "all_")):
            assert decks >= 2000, case
        for g in range(games):
            per_count[players[g % len(players)]] += fields.get("rounds", 1)
    assert {f for _, fields, _, _ in VARIANTS for f in fields} >= {
        "low_rank", "lowest_starts", "rounds", "chance", "ten_only_on_lower", "decks", "idiot_deals",
        "burn_plays_again", "six_burn", "last_hand_with_faceup", "opening_lowest"}
    for n in range(2, 11):
        assert per_count[n] >= (2000 if n <= 5 else 1200), (n, per_count[n])
    specs = Counter(seat_spec(k, 4) for k in range(64))
    assert specs["basic"] and specs["random"] and len(specs) >= 6


def test_compiled_checksum_is_the_observation_checksum():
    rng = np.random.default_rng(1)
    for _ in range(200):
        obs = rng.integers(-1, 60, size=ob.OBS_SIZE, dtype=np.int64)
        hand = rng.integers(0, 9, size=13, dtype=np.int64)
        assert reference.logged_checksum(obs, hand) == ob.checksum(obs, hand)


@pytest.mark.parametrize("n", [1, 2, 3, 52, 104, 2**31 + 1, 2**32 - 5])
def test_numba_draws_are_the_python_draws(n):
    """rng.nb_below (with its division-free fast path) draws what rng.below draws; the
    large n reject about half of the raw draws, so the rejection loop is exercised too."""
    from idiotsim.game.rng import below, nb_below, nb_below_from, new_state
    python_state, numba_state = new_state(SEED, n, 3), new_state(SEED, n, 3)
    python = [below(python_state, n) for _ in range(400)]
    compiled = [nb_below(numba_state, n) for _ in range(400)]
    assert compiled == python and python_state[0] == numba_state[0]
    assert all(0 <= x < n for x in python)
    state, local = new_state(SEED, n, 3)[0], []
    for _ in range(400):  # the sampler's shuffle draws with the state in a local (rng.nb_below_from)
        state, x = nb_below_from(np.uint64(state), n)
        local.append(int(x))
    assert local == python and state == python_state[0]


# ---- trace equality ---------------------------------------------------------

@pytest.mark.parametrize("case, fields, players, seed, start, stop", shards(VARIANTS))
def test_trace_equality(case, fields, players, seed, start, stop):
    check_games(case, fields, players, seed, range(start, stop))


@pytest.mark.parametrize("case, fields, players, decks", [pytest.param(*v, id=v[0]) for v in VARIANTS])
def test_trace_equality_with_the_python_checksum(case, fields, players, decks, monkeypatch):
    """A few games of each variant with the reference engine logging the checksum's Python definition."""
    monkeypatch.setattr(reference, "logged_checksum", ob.checksum)
    n_games = 2 * len(players) * 3
    check_games(case, fields, players, SEED + 7, range(n_games))


# ---- outcome equality ---------------------------------------------------------

# 4,096 games in 128 groups of 32: every (variant, players, seats) combination (124) at least once,
# so a divergence of the batch path that touches one game in 1,000 is found with probability 98%.
# Rarer table states are the trace test's concern (about 32,500 decks above, through the same rules
# code); what only this test sees is the batch path itself (parallel blocks, per-game streams, the
# result arrays), which a fault breaks in many games at once. The reference engine takes about 3 ms
# of CPU per game in this mix (more with a `random` seat or two decks).
OUTCOME_GAMES = 4_096
OUTCOME_BLOCK = 32  # games per play_games call (two parallel blocks): one (variant, players, seats) group
OUTCOME_PARALLEL_BLOCK = 16
OUTCOME_SHARDS = 8
OUTCOME_VARIANTS = [fields for _, fields, _, _ in VARIANTS if "rounds" not in fields]


OUTCOME_COMBOS = [(fields, n, mixed) for mixed in (False, True) for fields in OUTCOME_VARIANTS
                  for n in (range(2, 11) if fields.get("decks") == 2 else range(2, 6))]


def outcome_group(j: int):
    """The rules and strategies of outcome group j: every (variant, players, seats) in turn."""
    fields, n, mixed = OUTCOME_COMBOS[j % len(OUTCOME_COMBOS)]
    if mixed:  # one random seat, moving around the table
        r = (j // len(OUTCOME_COMBOS) + j) % n
        spec = ",".join("random" if s == r else "basic" for s in range(n))
    else:
        spec = "basic"
    return Rules(players=n, **fields), spec


def test_outcome_groups_cover_every_combination():
    groups = [outcome_group(j) for j in range(OUTCOME_GAMES // OUTCOME_BLOCK)]
    assert len(groups) >= len(OUTCOME_COMBOS)
    assert {(r.as_dict()["players"], spec == "basic") for r, spec in groups} >= {
        (n, b) for n in range(2, 11) for b in (True, False)}


@pytest.mark.long(3)
@pytest.mark.parametrize("shard", range(OUTCOME_SHARDS))
def test_outcomes_equal_reference(shard):
    """``play_games`` against the reference ``MatchResult`` on OUTCOME_GAMES (4,096) games in all.

    Groups of OUTCOME_BLOCK consecutive games share rules (the one-round variants
    in turn, default rules included) and seats (all `basic`, or one `random`
    seat); each group is one ``play_games`` batch, played in parallel blocks.
    """
    groups = OUTCOME_GAMES // OUTCOME_BLOCK
    failures = []
    seed = SEED + 99
    for j in range(shard, groups, OUTCOME_SHARDS):
        rules, spec = outcome_group(j)
        seats = seats_for(spec, rules.players)
        first = j * OUTCOME_BLOCK
        batch = play_games(rules, seats, seed, first, OUTCOME_BLOCK, block=OUTCOME_PARALLEL_BLOCK)
        for i in range(OUTCOME_BLOCK):
            g = first + i
            ref = play_match([shuffled_deck(seed, g, 0, rules.decks)], rules, seats, seed, g)
            got = (batch["places"][i].tolist(), int(batch["actions"][i]), int(batch["burns"][i]),
                   int(batch["pickups"][i]), bool(batch["stalled"][i]))
            want = (ref.places, ref.actions, ref.burns, ref.pickups, ref.stalled)
            if got != want:
                failures.append(f"rules {rules.as_dict()}, seats {spec!r}, seed {seed}, game {g}: "
                                f"numba (places, actions, burns, pickups, stalled) {got} != reference {want}")
                if len(failures) >= 5:
                    break
        if len(failures) >= 5:
            break
    assert not failures, "\n".join(failures)
