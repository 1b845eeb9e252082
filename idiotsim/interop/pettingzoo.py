"""Idiot as a PettingZoo AEC environment, played by the project's engine (an ``interop.stepped.Table``).

    from idiotsim.interop.pettingzoo import env
    e = env(players=4, low_rank=7)          # any rules field of docs/rules.md
    e.reset(seed=7)                          # the deal of `idiotsim trace --seed 7 --game 0`

- Agents ``player_0`` .. ``player_{n-1}`` are the seats. The observation of an agent is a dict:
  ``observation`` (int64: the project's observation of the seat, idiotsim.game.observation, then its
  13 hand counts, then its swap once chosen, 1 + the swap's action id, else 0) and
  ``action_mask`` (int8 over the fixed action space of idiotsim.game.action_space; all zero for an
  agent that is not to act).
- ``reset(seed=S)`` deals the decks of game 0 of seed S as ``idiotsim trace --seed S --game 0``
  does (splitmix64 streams, idiotsim.game.rng); each later reset without a seed plays the next game
  (1, 2, ...) of the same seed, and ``options={"game": I}`` picks game I.
- Rewards: at the end, place p of n is worth (n + 1 - 2p) / (n - 1), as in the OpenSpiel game. In a
  one-round game an agent is terminated (and then removed) as it goes out, with its reward; in a
  match of several rounds (V4) every agent is terminated when the match ends (its position is
  settled only then).
- ``render()`` shows the game as ``idiotsim trace --pretty`` does, cards by rank (the engine keeps no
  suits, R1): with ``render_mode="ansi"`` it returns
  the events so far; with ``"human"`` every ``reset`` and ``step`` prints the lines of what happened
  since the last print (the header and the swaps, then each play), never the whole trace again.
- ``env()`` wraps ``raw_env`` as PettingZoo's classic card games do (leduc_holdem, texas_holdem, hanabi):
  ``TerminateIllegalWrapper`` (an illegal action ends the game for every agent, the offender's reward
  -1, the Idiot's utility), ``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``; ``raw_env`` pickles
  (``EzPickle``) and raises ValueError on an illegal action.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from idiotsim.game import action_space as act
from idiotsim.interop.stepped import DEALING, OVER, PLAYING, SWAPPING, VECTOR_SIZE, Table, place_utility
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules

OBSERVATION_HIGH = 10_000_000  # the largest value of any field (ACTION_LIMIT's bound, idiotsim.game.rules)
ILLEGAL_REWARD = -1.0  # what an illegal action earns under `env()`: the Idiot's utility, the worst place


def env(players: int = 4, render_mode: str | None = None, **rules):
    """The environment wrapped as PettingZoo's classic card games are (pettingzoo.classic: leduc_holdem,
    texas_holdem, hanabi): an illegal action ends the game, then bounds and call order are checked."""
    from pettingzoo.utils import wrappers
    wrapped = raw_env(players=players, render_mode=render_mode, **rules)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    metadata = {"render_modes": ["human", "ansi"], "name": "idiot_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, players: int = 4, render_mode: str | None = None, **rules):
        EzPickle.__init__(self, players=players, render_mode=render_mode, **rules)
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.rules = Rules(players=players, **rules)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        box = spaces.Box(-1, OBSERVATION_HIGH, (VECTOR_SIZE,), np.int64)
        mask = spaces.Box(0, 1, (act.NUM_ACTIONS,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(act.NUM_ACTIONS) for a in self.possible_agents}
        self.seed, self.game = None, -1

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ---- the episode ---------------------------------------------------------

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.seed, self.game = int(seed), 0
        elif self.seed is None:
            self.seed, self.game = int(np.random.SeedSequence().entropy % 2 ** 63), 0
        else:
            self.game += 1
        if options and "game" in options:
            self.game = int(options["game"])
        self.table = Table(self.rules)
        self._deal()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._last = {a: np.zeros(VECTOR_SIZE, np.int64) for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.current_seat()]
        self._printed = 0  # lines of this game's pretty trace printed so far (render_mode "human")
        if self.render_mode == "human":
            self.render()

    def _deal(self) -> None:
        """The next round's deck of this game (`idiotsim trace --seed S --game I`)."""
        deck = shuffled_deck(self.seed, self.game, self.table.round_no - 1, self.rules.decks)
        self.table.deal_deck(deck)

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        table = self.table
        if table.phase in (SWAPPING, PLAYING):  # kept for an agent that is out once the match is over
            self._last[agent] = table.vector(seat)
        mask = np.zeros(act.NUM_ACTIONS, np.int8)
        if agent == self.agent_selection and table.current_seat() == seat and not self.terminations[agent]:
            mask[table.legal_actions()] = 1
        return {"observation": self._last[agent].copy(), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        if int(action) not in table.legal_actions():
            raise ValueError(f"{agent}: action {action} ({act.action_text(int(action))}) is not legal now")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        table.apply(int(action))
        if table.phase == DEALING:
            self._deal()
        self._settle()
        if table.phase != OVER:
            self.agent_selection = self.possible_agents[table.current_seat()]
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _settle(self) -> None:
        """Terminate every agent whose place is settled, with its reward."""
        table, n = self.table, self.rules.players
        if table.phase == OVER:
            settled = dict(enumerate(table.places()))
        elif self.rules.rounds == 1:
            settled = table.settled()
        else:
            settled = {}
        for seat, place in settled.items():
            agent = self.possible_agents[seat]
            if agent in self.terminations and not self.terminations[agent]:
                self.terminations[agent] = True
                self.rewards[agent] = place_utility(place, n)

    def render(self):
        """"ansi": the game so far as text; "human": print the lines since the last print."""
        if self.render_mode is None:
            logger.warn("render() called without a render_mode: use env(render_mode='ansi' or 'human')")
            return None
        lines = self._pretty_lines()
        if self.render_mode == "ansi":
            return "\n".join(lines)
        if self.rules.rounds > 1 and not self.table.over:
            lines = lines[:-1]  # the match line is written once the match is over
        if len(lines) > self._printed:
            print("\n".join(lines[self._printed:]))
        self._printed = len(lines)
        return None

    def _pretty_lines(self) -> list:
        from idiotsim.game.trace import pretty_lines
        result = SimpleNamespace(events=self.table.events, totals=self.table.totals, places=self.table.places())
        seats = [SimpleNamespace(label=a) for a in self.possible_agents]
        return pretty_lines(result, self.rules, seats, self.seed, self.game)

    def close(self):
        pass
