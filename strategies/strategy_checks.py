"""The generic checks every strategy must pass (``idiotsim check-strategy``).

``check_strategy(spec)`` seats the strategy with `basic` and `random` and runs:

- legal moves: ``games`` games in every rules variant (the defaults, V1..V12
  one at a time, all of them at once), spread over 2..10 players, on the numba
  engine, without an illegal move;
- deterministic replay: the games of each variant's first cell, played again
  in other chunks, give identical results;
- identical decisions in both engines: ``sample`` games per variant traced on
  the reference and the numba engine give the same events and the same
  observation checksums (the strategy's Python function against its compiled one);
- speed (information, never a failure): self-play games/s in one thread,
  relative to `basic` measured alongside.

An illegal move fails the first check with the engine's one-line message (it
names the game and the seed) and the ``idiotsim trace`` command that replays it.
The shipped strategies' tests run the same checks (tests/strategies/test_strategies.py).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np

from idiotsim.errors import IllegalMoveError, UserError
from idiotsim.game.reference import play_match
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import MAX_PLAYERS, Rules
from idiotsim.engine.batches import play_games, trace_game
from idiotsim.strategies.loading import load_strategy

CHECK_SEED = 20_240_923
PLAYER_COUNTS = range(2, MAX_PLAYERS + 1)
VARIANTS = {
    "default": {},
    "V1 low_rank=7": {"low_rank": 7},
    "V2 low_rank=9": {"low_rank": 9},
    "V3 lowest_starts": {"lowest_starts": True},
    "V4 rounds=3": {"rounds": 3},
    "V5 chance": {"chance": True},
    "V6 ten_only_on_lower": {"ten_only_on_lower": True},
    "V7 decks=2": {"decks": 2},
    "V8 idiot_deals": {"idiot_deals": True, "rounds": 2},
    "V9 burn_plays_again=false": {"burn_plays_again": False},
    "V10 six_burn=3": {"six_burn": 3},
    "V11 last_hand_with_faceup": {"last_hand_with_faceup": True},
    "V12 opening_lowest": {"lowest_starts": True, "opening_lowest": True},
    "all variants": {"low_rank": 7, "lowest_starts": True, "opening_lowest": True, "rounds": 2, "chance": True,
                     "ten_only_on_lower": True, "idiot_deals": True, "burn_plays_again": False, "six_burn": 3,
                     "last_hand_with_faceup": True},
}
GAME_STRIDE = 10_000_000  # game ids of one (variant, players) cell: a block of their own
SPEED_SECONDS = 0.5  # CPU time each speed measurement plays for


@dataclass(frozen=True)
class CheckResult:
    name: str
    status: str  # "ok", "FAIL", "info" (never fails) or "skipped"
    detail: str  # one line
    measures: tuple = ()  # (name, value) pairs, e.g. ("stalled", 0.001), for tests and tools


@dataclass(frozen=True)
class CheckReport:
    spec: str
    results: tuple

    @property
    def ok(self) -> bool:
        return all(r.status != "FAIL" for r in self.results)

    def failures(self) -> list:
        return [r for r in self.results if r.status == "FAIL"]

    def render(self) -> str:
        """A table, one row per check, then the verdict line."""
        width = max(len(r.name) for r in self.results)
        lines = [f"check-strategy {self.spec}", f"{'check':<{width}}  {'result':<7}  detail"]
        lines += [f"{r.name:<{width}}  {r.status:<7}  {r.detail}" for r in self.results]
        failed = self.failures()
        if failed:
            lines.append(f"verdict: FAIL ({', '.join(r.name for r in failed)})")
        else:
            lines.append("verdict: PASS")
        return "\n".join(lines)


def check_strategy(spec: str, games: int = 2_000, sample: int = 3, speed: bool = True,
                   command: str = "idiotsim") -> CheckReport:
    """Run the checks on a strategy spec (``name[:knobs]`` or ``path/file.py:NAME[:knobs]``).

    ``games``: games per rules variant for the legality check, spread over 2..10
    players; ``sample``: games per variant traced on both engines; ``speed``:
    measure games/s against `basic`; ``command``: how the replay commands a failure names start (`idiotsim`).
    A spec that does not load, or games < 1, raises UserError."""
    if games < 1:
        raise UserError(f"check-strategy needs --games >= 1, got {games}")
    if sample < 1:
        raise ValueError(f"sample must be >= 1, got {sample}")
    seat = load_strategy(spec)
    cells = [(name, n) for name in VARIANTS for n in PLAYER_COUNTS]
    legal = check_legal(spec, seat, cells, games, command)
    if legal.status != "ok":
        later = ("deterministic replay", "same decisions in both engines", "speed vs basic")
        return CheckReport(spec, (legal, *(CheckResult(n, "skipped", "needs legal moves first") for n in later)))
    results = [
        legal,
        check_replay(seat, games, command),
        check_engines(seat, sample, command),
        check_speed(seat) if speed else CheckResult("speed vs basic", "skipped", "not asked for"),
    ]
    return CheckReport(spec, tuple(results))


# ---- the table the strategy plays at ---------------------------------------------

def cell_rules(variant: str, players: int) -> Rules:
    return Rules(players=players, **VARIANTS[variant])


def table(seat, players: int) -> list:
    """The strategy at seats 0, 2, 4, ...; `basic` and (from 4 players) `random` in between."""
    basic, rnd = load_strategy("basic"), load_strategy("random")
    return [seat if p % 2 == 0 else (rnd if p % 4 == 3 else basic) for p in range(players)]


def first_game(variant: str, players: int) -> int:
    return (list(VARIANTS).index(variant) * len(PLAYER_COUNTS) + players) * GAME_STRIDE


def games_per_cell(games: int) -> int:
    return max(1, -(-games // len(PLAYER_COUNTS)))


def replay_command(rules: Rules, seats, game: int, pretty: bool = True, command: str = "idiotsim") -> str:
    """The `idiotsim trace` command of one game of the checks (`pretty`: for a person, numbered lines)."""
    defaults = Rules(players=rules.players).as_dict()
    changed = {k: v for k, v in rules.as_dict().items() if v != defaults[k]}
    flags = "".join(f" --rule {k}={str(v).lower()}" for k, v in changed.items())
    specs = ",".join(s.label for s in seats)
    return (f"{command} trace --players {rules.players}{flags} --seed {CHECK_SEED} --game {game} --strategies {specs}"
            + " --pretty" * pretty)


# ---- the checks ---------------------------------------------------------------------

def check_legal(spec: str, seat, cells, games: int, command: str = "idiotsim") -> CheckResult:
    name = "legal moves"
    per_cell = games_per_cell(games)
    stalled = total = 0
    for variant, n in cells:
        rules = cell_rules(variant, n)
        seats = table(seat, n)
        start = first_game(variant, n)
        try:
            result = play_games(rules, seats, CHECK_SEED, start, per_cell)
        except IllegalMoveError as e:
            game = illegal_game(seats, rules, start, per_cell)
            return CheckResult(name, "FAIL", f"{variant}, {n} players: {e}; replay: "
                                             f"{replay_command(rules, seats, game, command=command)}")
        if not places_are_valid(result["places"], rules):
            return CheckResult(name, "FAIL", f"{variant}, {n} players: places outside 1..{n} (an engine fault)")
        stalled += int(result["stalled"].sum())
        total += per_cell
    return CheckResult(name, "ok", f"{total:,} games: {len(VARIANTS)} rules variants x {len(PLAYER_COUNTS)} player "
                                   f"counts (2..{MAX_PLAYERS}), with basic and random; "
                                   f"{stalled / total:.1%} stalled at R20's action limit",
                       (("games", total), ("stalled", stalled / total)))


def places_are_valid(places: np.ndarray, rules: Rules) -> bool:
    """Places in 1..n; one round ranks the players 1..n exactly (R18)."""
    n = rules.players
    if places.min() < 1 or places.max() > n:
        return False
    return rules.rounds > 1 or bool((np.sort(places, axis=1) == np.arange(1, n + 1)).all())


def illegal_game(seats, rules: Rules, start: int, count: int) -> int:
    """The first game of a batch with an illegal move (the engine's error names it; this finds it again)."""
    for game in range(start, start + count):
        try:
            play_games(rules, seats, CHECK_SEED, game, 1)
        except IllegalMoveError:
            return game
    return start


def outcome_bytes(result: dict) -> bytes:
    return b"".join(np.ascontiguousarray(result[k]).tobytes() for k in sorted(result))


def check_replay(seat, games: int, command: str = "idiotsim") -> CheckResult:
    name = "deterministic replay"
    per_cell = games_per_cell(games)
    for variant in VARIANTS:
        n = PLAYER_COUNTS[(list(VARIANTS).index(variant)) % len(PLAYER_COUNTS)]
        rules, seats, start = cell_rules(variant, n), table(seat, n), first_game(variant, n)
        first = play_games(rules, seats, CHECK_SEED, start, per_cell)
        again = play_games(rules, seats, CHECK_SEED, start, per_cell, block=7)  # other chunks, other threads
        if outcome_bytes(first) != outcome_bytes(again):
            differ = np.flatnonzero((first["places"] != again["places"]).any(axis=1) |
                                    (first["actions"] != again["actions"]))
            game = start + int(differ[0]) if len(differ) else start
            replay = replay_command(rules, seats, game, command=command)
            return CheckResult(name, "FAIL", f"{variant}, {n} players: game {game} (seed {CHECK_SEED}) has another "
                                             f"result when played again; replay: {replay}")
    return CheckResult(name, "ok", f"{len(VARIANTS)} x {per_cell:,} games played again in other chunks: identical")


def public(events) -> list:
    return [{k: v for k, v in e.items() if not k.startswith("_")} for e in events]


def engines_differ(rules: Rules, seats, game: int) -> str | None:
    """None when both engines play `game` alike, else what differs."""
    decks = [shuffled_deck(CHECK_SEED, game, r, rules.decks) for r in range(rules.rounds)]
    observations: list = []
    try:
        reference = play_match(decks, rules, seats, CHECK_SEED, game, obs_log=observations)
    except UserError as e:  # a strategy's Python function may fail where its compiled one does not
        return f"the reference engine (the strategy's Python function) fails: {e}"
    events, checksums, places = trace_game(rules, seats, CHECK_SEED, game)
    if public(reference.events) != events:
        return "the traces differ"
    if observations != checksums:
        return "the observations differ"
    if reference.places != places:
        return "the places differ"
    return None


def check_engines(seat, sample: int, command: str = "idiotsim") -> CheckResult:
    name = "same decisions in both engines"
    if not seat.strategy.fair:
        return CheckResult(name, "skipped", "not a fair player: it reads hidden cards, on the numba engine only")
    for variant in VARIANTS:
        for i in range(sample):
            n = PLAYER_COUNTS[(i + list(VARIANTS).index(variant)) % len(PLAYER_COUNTS)]
            rules, seats, game = cell_rules(variant, n), table(seat, n), first_game(variant, n) + i
            problem = engines_differ(rules, seats, game)
            if problem:
                return CheckResult(name, "FAIL", f"{variant}, {n} players, game {game} (seed {CHECK_SEED}): {problem} "
                                                 "(the Python function decides otherwise than the compiled one); "
                                                 f"compare: {replay_command(rules, seats, game, False, command)} "
                                                 "[--engine numba]")
    return CheckResult(name, "ok", f"{len(VARIANTS) * sample} games traced on the reference and the numba engine: "
                                   "the same events and observations")


def games_per_second(seats, rules: Rules) -> float:
    """Self-play games/s in one thread, by CPU time (fair to a busy machine)."""
    play_games(rules, seats, 1, 0, 16)  # compiled or loaded from the cache outside the timing
    played, start, batch = 0, time.process_time(), 256
    while time.process_time() - start < SPEED_SECONDS:
        play_games(rules, seats, 1, played, batch, block=batch)
        played += batch
    return played / (time.process_time() - start)


def check_speed(seat) -> CheckResult:
    rules = Rules(players=4)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        basic = games_per_second([load_strategy("basic")] * 4, rules)
        mine = games_per_second([seat] * 4, rules)
    finally:
        numba.set_num_threads(threads)
    return CheckResult("speed vs basic", "info", f"{mine:,.0f} games/s, {mine / basic:.2f}x basic "
                                                 "(4 players, self-play, default rules, 1 thread)",
                       (("games_per_second", mine), ("ratio_to_basic", mine / basic)))
