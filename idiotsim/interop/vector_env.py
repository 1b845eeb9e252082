"""Idiot as a Gymnasium vector environment: B tables of the numba engine (``engine.stepping``), stepped,
reset, observed and masked in one compiled pass, for reinforcement learning at engine speed.

    from idiotsim.interop.vector_env import IdiotVectorEnv
    envs = IdiotVectorEnv(num_envs=256, players=4)                     # self-play: every seat's decisions
    envs = IdiotVectorEnv(num_envs=256, players=4, opponent="random")  # one learning seat against `random`
    obs, infos = envs.reset(seed=7)                                     # game i at table i, deals of `run --seed 7`
    obs, rewards, terminations, truncations, infos = envs.step(actions)  # (B,) action ids

Why Gymnasium's ``VectorEnv`` and not PettingZoo's parallel API: Idiot is turn-based, one seat decides at a
time. A parallel env asks every live agent for an action at every step, so n - 1 of n would send no-ops,
and it has no batch dimension: B tables would be B Python objects with per-agent dicts, far from the
engine's speed. Here each sub-environment is one table, each step one decision at every table, and every
array is batched: the ``VectorEnv`` of pgx, EnvPool and OpenSpiel-style turn-based RL, where the acting
player is part of the observation. So:

- **Observation** (``single_observation_space``, a ``Dict``): ``observation``, int32[OBS_SIZE + 13]: the
  project observation of the seat to act (``game.observation``: public facts only, its SEAT field says
  who decides) then its 13 hand counts; ``action_mask``, int8[NUM_ACTIONS]: its legal actions over the
  fixed action space (``game.action_space``, 876 ids), the masked-env convention of PettingZoo's card
  games, RLlib and Tianshou (also given as bools by `action_masks()`, sb3-contrib's name). int32 holds
  every field (ACTIONS and ACTION_LIMIT reach 10,000,000; the rest stay below 10,000).
- **Actions**: ``single_action_space = Discrete(NUM_ACTIONS)``; ``step`` takes one id per table. An id
  outside the mask raises ValueError naming the table, the action and the legal ones, before any table
  steps (a masked policy never draws one).
- **Who acts**: ``infos["seat"]`` (B,): the seat whose decision the observation holds; ``infos["game"]``
  the game index of that table.
- **Rewards**: a match (``rules.rounds`` rounds) is the episode; place p of n is worth
  (n + 1 - 2p) / (n - 1): +1 the winner, -1 the Idiot, 0 before the end (the OpenSpiel and PettingZoo
  games' utility). ``rewards[i]`` is the reward of the seat that acted at table i (self-play) or of the
  learning seat (with ``opponent``); ``infos["rewards"]`` (B, n) holds every seat's, and
  ``infos["places"]`` (B, n) the places (R19), on the step a match ends (0 elsewhere): a self-play
  learner credits each seat's decisions with its own return. ``truncations`` are always False: R20's
  action limit is a rule that ends a round with places, a termination.
- **Autoreset: SAME_STEP** (``metadata["autoreset_mode"]``), chosen because the engine deals the next game
  in the very step a match ends (``TableBatch``'s auto-reset), so no step is spent on a dummy transition
  (NEXT_STEP would return a terminal observation with nothing to decide and ignore the next action).
  On that step ``terminations[i]`` is True, ``obs`` holds the first decision of the next game, and
  ``infos["final_obs"][i]`` the finished table as the rewarded seat sees it (its mask all zero;
  ``infos["_final_obs"]`` marks those tables), ``infos["final_game"][i]`` the game that ended (-1
  elsewhere).
- **Seeding**: ``reset(seed=S)`` deals table i game i of seed S (``options={"game": G}``: games G + i), as
  ``idiotsim run --seed S`` deals them; each table then plays games i, i + B, i + 2B, ... A ``reset()``
  without a seed goes on with each table's next game (the first one draws a seed). The same seed and
  the same actions give the same episodes, whatever else runs.
- **Opponents** (optional): ``opponent="basic"`` or ``"random"`` seats the project's `basic` or `random`
  strategy (move for move as in ``idiotsim run``, the random ones from the same per-seat streams) at
  every seat but the learner's (``seat``: 0..n-1, or ``"rotate"``: seat = game index mod n, so the
  learner sits at each seat equally often); ``step`` plays their turns inside the compiled pass until the
  learner decides again, so every step is one learner decision.
- **Buffers**: with ``copy=True`` (the default, as Gymnasium's SyncVectorEnv) every call returns new
  arrays; with ``copy=False`` the env returns its own preallocated arrays, overwritten by the next call
  (the fast path: keep what you need, write into none).
- ``render()`` (``render_mode="ansi"``): table 0 as a few lines of text.
"""
from __future__ import annotations

import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numba import njit

from idiotsim.engine.stepping import (MATCH_OVER, TableBatch, begin_next_game, observe_final, observe_table,
                                      step_table, table_game, table_legal_ids, match_places, STEP_REASONS)
from idiotsim.game import observation as ob
from idiotsim.game.action_space import NUM_ACTIONS, action_id, action_text
from idiotsim.game.basic_player import play_like_basic
from idiotsim.game.cards import RANK_NAMES
from idiotsim.game.moves import MAX_MOVES, swap_choice
from idiotsim.game.observation import MAX_PLAYERS, NR, OBS_SIZE
from idiotsim.game.rng import SEAT_STREAM, nb_below, nb_stream_key
from idiotsim.game.rules import FIELD_NAMES, Rules

VECTOR_SIZE = OBS_SIZE + NR  # the observation row: the seat's observation, then its hand
OBSERVATION_HIGH = 10_000_000  # ACTIONS and ACTION_LIMIT's bound (game.rules); every other field is far below
OPPONENTS = {None: 0, "basic": 1, "random": 2}
ROTATE = -1  # the learning seat moves with the game index
SAMPLE_STREAM = 1 << 21  # `sample_actions`' stream of the seed (game.rng; no engine or interop stream uses it)


# ---- compiled: one pass over the tables ---------------------------------------------------------

@njit(cache=True)
def random_action(st, rng, obs, hand, moves, ids):
    """The project's `random` strategy (strategies/randomplay.py), as an action id: at the swap 3 of the 6
    cards by position, uniformly; else a uniformly drawn legal id (the legal-move list is in id order)."""
    decision = st[ob.DECISION]
    if decision == ob.SWAP:
        observe_table(st, obs, hand)
        pick = nb_below(rng, 20)
        row = ob.FACEUP + obs[ob.SEAT] * NR
        n = 0
        for a in range(6):
            for b in range(a + 1, 6):
                for c in range(b + 1, 6):
                    if n == pick:
                        ranks = np.zeros(3, np.int64)
                        k, j = 0, 0
                        for r in range(NR):
                            for _ in range(hand[r] + obs[row + r]):
                                if k == a or k == b or k == c:
                                    ranks[j] = r
                                    j += 1
                                k += 1
                        return action_id(ob.SWAP, swap_choice(ranks[0], ranks[1], ranks[2]))
                    n += 1
    count = table_legal_ids(st, moves, ids)
    return ids[nb_below(rng, count)]


@njit(cache=True)
def basic_action(st, obs, hand):
    observe_table(st, obs, hand)
    return action_id(obs[ob.DECISION], play_like_basic(obs, hand))


@njit(cache=True)
def start_game(st, i, seed, learner, fixed_seat, rngs):
    """A table's new game: the learning seat (fixed, or the game index mod n) and the opponents' streams."""
    n = st[ob.PLAYERS]
    game = table_game(st)
    learner[i] = game % n if fixed_seat == ROTATE else fixed_seat
    for s in range(n):
        rngs[i, s] = nb_stream_key(seed, game, SEAT_STREAM + s)


@njit(cache=True)
def finish_match(st, i, view, stride, work, places, seat_rewards, rewards, done, final_obs, final_games):
    """Table i's match is over: its places and rewards, the finished table as seat `view` sees it, then
    its next game dealt."""
    n = st[ob.PLAYERS]
    match_places(st, places[i])
    for p in range(n):
        seat_rewards[i, p] = (n + 1 - 2 * places[i, p]) / (n - 1)
    rewards[i] = seat_rewards[i, view]
    done[i] = True
    final_games[i] = table_game(st)
    observe_final(st, view, final_obs[i, :OBS_SIZE], final_obs[i, OBS_SIZE:])
    begin_next_game(st, stride, work)


@njit(cache=True)
def opponents_play(st, i, opponent, seed, stride, learner, fixed_seat, rngs, work, draw, obs64, hand64, moves,
                   scratch, places, seat_rewards, rewards, done, final_obs, final_games):
    """The opponents' turns at table i until the learning seat decides (a match that ends on the way is
    finished and the next one dealt). Returns a step_table result < 0 on an illegal opponent move (a bug)."""
    while st[ob.SEAT] != learner[i]:
        seat = st[ob.SEAT]
        if opponent == 1:
            action = basic_action(st, obs64, hand64)
        else:
            draw[0] = rngs[i, seat]
            action = random_action(st, draw, obs64, hand64, moves, scratch)
            rngs[i, seat] = draw[0]
        result = step_table(st, action, work)
        if result < 0:
            return result
        if result == MATCH_OVER:
            finish_match(st, i, learner[i], stride, work, places, seat_rewards, rewards, done, final_obs,
                         final_games)
            start_game(st, i, seed, learner, fixed_seat, rngs)
    return 0


@njit(cache=True)
def show_decision(st, i, obs, masks, fresh, ids, counts, moves, seats, games):
    """Table i's decision into row i: the observation and hand, the mask (a `fresh` row cleared whole, a
    reused one only where the ids of last time were set), the seat and the game."""
    observe_table(st, obs[i, :OBS_SIZE], obs[i, OBS_SIZE:])
    row = masks[i]
    if fresh:
        row[:] = 0
    else:
        for k in range(counts[i]):
            row[ids[i, k]] = 0
    count = table_legal_ids(st, moves, ids[i])
    counts[i] = count
    for k in range(count):
        row[ids[i, k]] = 1
    seats[i] = st[ob.SEAT]
    games[i] = table_game(st)


@njit(cache=True)
def first_illegal(actions, ids, counts):
    """The first table whose action is not among its legal ids, -1 when every one is legal."""
    for i in range(actions.shape[0]):
        legal = False
        for k in range(counts[i]):
            if ids[i, k] == actions[i]:
                legal = True
                break
        if not legal:
            return i
    return -1


@njit(cache=True)
def step_tables(states, actions, opponent, seed, stride, learner, fixed_seat, rngs, status, obs, masks, fresh, ids,
                counts, seats, games, places, seat_rewards, rewards, done, final_obs, final_games):
    """Every table's action applied (legal, checked by `first_illegal`), each finished match's results
    written and its table's next game dealt, the opponents' turns played, and each table's next decision
    shown; status[i] < 0 (a STEP_REASONS index, negated) where the engine refused a move."""
    n = states.shape[0]
    players = places.shape[1]
    work = np.zeros(1, np.uint64)
    draw = np.zeros(1, np.uint64)
    obs64 = np.zeros(OBS_SIZE, np.int64)
    hand64 = np.zeros(NR, np.int64)
    moves = np.zeros(MAX_MOVES, np.int64)
    scratch = np.zeros(MAX_MOVES, np.int64)
    for i in range(n):
        st = states[i]
        done[i] = False
        rewards[i] = 0.0
        final_games[i] = -1
        for p in range(players):
            places[i, p] = 0
            seat_rewards[i, p] = 0.0
        acting = st[ob.SEAT]
        result = step_table(st, actions[i], work)
        status[i] = result
        if result < 0:
            continue
        if result == MATCH_OVER:
            view = learner[i] if opponent else acting
            finish_match(st, i, view, stride, work, places, seat_rewards, rewards, done, final_obs, final_games)
            if opponent:
                start_game(st, i, seed, learner, fixed_seat, rngs)
        if opponent:
            result = opponents_play(st, i, opponent, seed, stride, learner, fixed_seat, rngs, work, draw, obs64,
                                    hand64, moves, scratch, places, seat_rewards, rewards, done, final_obs,
                                    final_games)
            if result < 0:
                status[i] = result
                continue
        show_decision(st, i, obs, masks, fresh, ids, counts, moves, seats, games)


@njit(cache=True)
def settle_tables(states, opponent, seed, stride, learner, fixed_seat, rngs, status, obs, masks, ids, counts,
                  seats, games, places, seat_rewards, rewards, done, final_obs, final_games):
    """Freshly dealt tables: the opponents' first turns (with `opponent`) and every table's decision shown."""
    work = np.zeros(1, np.uint64)
    draw = np.zeros(1, np.uint64)
    obs64 = np.zeros(OBS_SIZE, np.int64)
    hand64 = np.zeros(NR, np.int64)
    moves = np.zeros(MAX_MOVES, np.int64)
    scratch = np.zeros(MAX_MOVES, np.int64)
    for i in range(states.shape[0]):
        st = states[i]
        status[i] = 0
        if opponent:
            start_game(st, i, seed, learner, fixed_seat, rngs)
            status[i] = opponents_play(st, i, opponent, seed, stride, learner, fixed_seat, rngs, work, draw, obs64,
                                       hand64, moves, scratch, places, seat_rewards, rewards, done, final_obs,
                                       final_games)
        show_decision(st, i, obs, masks, True, ids, counts, moves, seats, games)


@njit(cache=True)
def draw_legal(ids, counts, rng, out):
    """A uniformly drawn legal id of every table (its legal ids are the first counts[i] of row i)."""
    for i in range(ids.shape[0]):
        out[i] = ids[i, nb_below(rng, counts[i])]


# ---- the environment ------------------------------------------------------------------------------

class IdiotVectorEnv(VectorEnv):
    """`num_envs` tables of Idiot under `rules` (any field of docs/rules.md as a keyword), every seat's
    decisions returned (self-play), or one learning seat's against `opponent` ("basic" or "random") at
    the others. See the module docstring for the conventions."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi"]}

    def __init__(self, num_envs: int = 64, players: int = 4, opponent: str | None = None, seat: int | str = 0,
                 copy: bool = True, render_mode: str | None = None, **rules):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number >= 1, got {num_envs!r}")
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent must be one of {list(OPPONENTS)}, got {opponent!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        unknown = sorted(set(rules) - set(FIELD_NAMES))
        if unknown:
            raise ValueError(f"unknown rule {unknown[0]!r}; valid rules: {', '.join(FIELD_NAMES)}")
        self.rules = Rules(players=players, **rules)
        n = self.rules.players
        if seat == "rotate":
            fixed = ROTATE
        elif isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) and 0 <= seat < n:
            fixed = int(seat)
        else:
            raise ValueError(f"seat must be 0..{n - 1} or 'rotate', got {seat!r}")
        if opponent is None and seat != 0:
            raise ValueError("seat is the learning seat against an opponent: give opponent='basic' or 'random' "
                             "(without one every seat's decisions are returned)")
        self.num_envs = int(num_envs)
        self.players = n
        self.opponent = opponent
        self.copy = bool(copy)
        self.render_mode = render_mode
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-1, OBSERVATION_HIGH, (VECTOR_SIZE,), np.int32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)})
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        b = self.num_envs
        self._fixed_seat = fixed
        self._learner = np.full(b, max(fixed, 0), np.int64)
        self._rngs = np.zeros((b, MAX_PLAYERS), np.uint64)
        self._status = np.zeros(b, np.int64)
        self._obs = np.zeros((b, VECTOR_SIZE), np.int32)
        self._masks = np.zeros((b, NUM_ACTIONS), np.int8)
        self._ids = np.zeros((b, MAX_MOVES), np.int16)
        self._counts = np.zeros(b, np.int64)
        self._seats = np.zeros(b, np.int64)
        self._games = np.zeros(b, np.int64)
        self._places = np.zeros((b, n), np.int64)
        self._seat_rewards = np.zeros((b, n), np.float64)
        self._rewards = np.zeros(b, np.float64)
        self._done = np.zeros(b, np.bool_)
        self._final_obs = np.zeros((b, VECTOR_SIZE), np.int32)
        self._final_games = np.full(b, -1, np.int64)
        self._truncations = np.zeros(b, np.bool_)
        self._draws = np.zeros(1, np.uint64)  # `sample_actions`' stream
        self.tables: TableBatch | None = None
        self.seed: int | None = None

    # ---- reset and step ----

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Table i begins game i of `seed` (``options={"game": G}``: game G + i); without a seed each table
        goes on with its next game (the first reset draws a seed)."""
        options = dict(options or {})
        first = options.pop("game", None)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}: the only option is 'game'")
        if first is not None and (isinstance(first, bool) or not isinstance(first, (int, np.integer)) or first < 0):
            raise ValueError(f"options['game'] must be a game index >= 0, got {first!r}")
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 63:
                raise ValueError(f"seed must be an int in 0..2**63 - 1, got {seed!r}")
            self._np_random, self._np_random_seed = seeding.np_random(int(seed))
        b = self.num_envs
        if seed is None and self.tables is not None:
            games = np.arange(first, first + b) if first is not None else self.tables.game + b
            self.tables.reset(games)
        else:
            if seed is None:
                seed = int(np.random.SeedSequence().entropy % 2 ** 63)
            self.seed = int(seed)
            self._draws[0] = nb_stream_key(self.seed, 0, SAMPLE_STREAM)
            start = 0 if first is None else int(first)
            self.tables = TableBatch(self.rules, self.seed, games=np.arange(start, start + b), stride=b)
        self._done[:] = False
        self._rewards[:] = 0.0
        self._places[:] = 0
        self._seat_rewards[:] = 0.0
        self._final_games[:] = -1
        obs, masks, _ = self._outputs()
        settle_tables(self.tables.states, OPPONENTS[self.opponent], self.seed, b, self._learner, self._fixed_seat,
                      self._rngs, self._status, obs, masks, self._ids, self._counts, self._seats,
                      self._games, self._places, self._seat_rewards, self._rewards, self._done, self._final_obs,
                      self._final_games)
        self._check_status(None)
        return {"observation": obs, "action_mask": masks}, self._infos()

    def step(self, actions):
        """One decision at every table: ``actions[i]``, a legal id of table i's mask."""
        if self.tables is None:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"step needs {self.num_envs} actions, one per table, got shape {actions.shape}")
        if not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be integer action ids, got dtype {actions.dtype}")
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        bad = first_illegal(actions, self._ids, self._counts)
        if bad >= 0:
            a = int(actions[bad])
            name = f" ({action_text(a)})" if 0 <= a < NUM_ACTIONS else ""
            legal = ", ".join(f"{i} ({action_text(int(i))})" for i in self._ids[bad, :min(self._counts[bad], 8)])
            raise ValueError(f"table {bad} (game {int(self._games[bad])}, seat {int(self._seats[bad])}): action "
                             f"{a}{name} is not legal now; legal ids: {legal}{', ...' if self._counts[bad] > 8 else ''}"
                             " (no table stepped)")
        obs, masks, fresh = self._outputs()
        step_tables(self.tables.states, actions, OPPONENTS[self.opponent], self.seed, self.num_envs, self._learner,
                    self._fixed_seat, self._rngs, self._status, obs, masks, fresh, self._ids, self._counts,
                    self._seats, self._games, self._places, self._seat_rewards, self._rewards, self._done,
                    self._final_obs, self._final_games)
        self._check_status(actions)
        out = self._copy
        return ({"observation": obs, "action_mask": masks}, out(self._rewards), out(self._done),
                out(self._truncations), self._infos())

    def _check_status(self, actions) -> None:
        bad = np.flatnonzero(self._status < 0)
        if len(bad):
            i = int(bad[0])
            what = "an opponent's move" if actions is None or self.opponent else f"action {int(actions[i])}"
            raise RuntimeError(f"table {i}: the engine refused {what}: {STEP_REASONS[-int(self._status[i])]}")

    def _copy(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _outputs(self) -> tuple:
        """(observations, masks, fresh): new arrays the compiled pass fills whole (copy=True), or the env's
        own, of which it rewrites only what changed."""
        if self.copy:
            return np.empty_like(self._obs), np.empty_like(self._masks), True
        return self._obs, self._masks, False

    def _infos(self) -> dict:
        out = self._copy
        infos = {"seat": out(self._seats), "game": out(self._games), "rewards": out(self._seat_rewards),
                 "places": out(self._places), "final_game": out(self._final_games)}
        if self._done.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(self._done):
                final[i] = {"observation": self._final_obs[i].copy(), "action_mask": np.zeros(NUM_ACTIONS, np.int8)}
            infos["final_obs"] = final
            infos["_final_obs"] = self._done.copy()
        return infos

    def sample_actions(self) -> np.ndarray:
        """(B,) int64: a uniformly random legal action of every table, from the env's own stream (seeded by
        ``reset(seed=...)``): a random player's moves, or an epsilon-greedy learner's exploration, at
        compiled speed (``action_space.sample()`` draws from all 876 ids, legal or not)."""
        if self.tables is None:
            raise RuntimeError("call reset() before sample_actions()")
        out = np.empty(self.num_envs, np.int64)
        draw_legal(self._ids, self._counts, self._draws, out)
        return out

    def action_masks(self) -> np.ndarray:
        """(B, NUM_ACTIONS) bool: each table's legal actions now (sb3-contrib's name for the mask)."""
        if self.tables is None:
            raise RuntimeError("call reset() before action_masks()")
        return self.tables.legal_mask()

    # ---- text ----

    def render(self):
        """render_mode "ansi": table 0 as a few lines of text (the seat to act sees it)."""
        if self.render_mode is None:
            logger.warn("render() called without a render_mode: use IdiotVectorEnv(render_mode='ansi')")
            return None
        if self.tables is None:
            return "no table dealt yet: call reset()"
        tables = self.tables
        row = np.concatenate([tables.observation()[0], tables.hand()[0]])
        return table_text(row, tables.legal_mask()[0], int(tables.game[0]))

    def close_extras(self, **kwargs) -> None:
        self.tables = None


def ranks_text(counts) -> str:
    return " ".join(RANK_NAMES[r] for r in range(NR) for _ in range(int(counts[r]))) or "-"


def table_text(row: np.ndarray, mask: np.ndarray, game: int) -> str:
    """An observation row (observation, then hand) and its mask as a few readable lines."""
    seat, n = int(row[ob.SEAT]), int(row[ob.PLAYERS])
    decision = ("swap", "turn", "blind flip")[int(row[ob.DECISION])]
    source = ("hand", "face-up cards", "blind cards")[int(row[ob.SOURCE])]
    top = int(row[ob.PILE_TOP])
    pile = "empty" if top < 0 else f"{int(row[ob.PILE_SIZE])} cards, top {RANK_NAMES[top]} x{int(row[ob.PILE_RUN])}"
    lines = [f"game {game}, round {int(row[ob.ROUND])} of {int(row[ob.ROUNDS])}: seat {seat} to act ({decision}"
             + (f", from the {source})" if decision != "swap" else ")"),
             f"pile {pile}; talon {int(row[ob.TALON_SIZE])}; burned {int(row[ob.BURNED: ob.BURNED + NR].sum())}"]
    for s in range(n):
        place = int(row[ob.PLACE + s])
        if decision == "swap":  # R6: each seat swaps its own six cards unseen; 3 blind cards each
            dealt = ranks_text(row[ob.FACEUP + s * NR: ob.FACEUP + (s + 1) * NR])
            lines.append(f"  seat {s}: " + (f"dealt face-up {dealt}, 3 in the hand, 3 blind" if s == seat
                                             else "swaps its 6 cards unseen, 3 blind"))
            continue
        if place:
            lines.append(f"  seat {s}: out, place {place}")
            continue
        faceup = ranks_text(row[ob.FACEUP + s * NR: ob.FACEUP + (s + 1) * NR])
        lines.append(f"  seat {s}: hand {int(row[ob.HAND_SIZE + s])}, face-up {faceup}, "
                     f"blind {int(row[ob.BLIND_SIZE + s])}" + (f", score {int(row[ob.SCORE + s])}" if row[ob.ROUNDS] > 1 else ""))
    lines.append(f"seat {seat}'s hand: {ranks_text(row[OBS_SIZE:])}")
    legal = [action_text(int(a)) for a in np.flatnonzero(mask)]
    lines.append(f"legal ({len(legal)}): " + ", ".join(legal[:6]) + (", ..." if len(legal) > 6 else ""))
    return "\n".join(lines)
