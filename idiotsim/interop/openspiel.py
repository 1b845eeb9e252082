"""Idiot as an OpenSpiel game (``pyspiel.load_game("idiot", {"players": 4, ...})``), played by the
project's reference engine through a ``Table``.

- Parameters: ``players`` and every rules field of docs/rules.md (V1..V12, ``action_limit``);
  ``low_rank`` takes 0 for off, ``decks`` 0 for automatic, as in the rules config.
- Type: sequential, explicit stochastic chance, imperfect information, general sum, terminal rewards.
- Chance: the deal, one node per card from the top of the deck (R3, R5): outcome = card code
  (``idiotsim.game.cards``), probability = copies left / cards left; a project deck string is the
  sequence of chance actions of its round, and a match of k rounds (V4) deals k decks.
- Returns: place p of n (the match position, R19) is worth (n + 1 - 2p) / (n - 1): the winner +1,
  the Idiot -1, evenly between. One round sums to 0; in a match of several rounds tied totals
  share the better position (R19), so the sum may be positive: general sum.
- Game length: at most rounds x (players + action_limit) decisions (the swaps, then R20's limit on
  plays and pickups), and rounds x cards chance nodes.
- Information state and observation: the project's observation of the seat
  (``idiotsim.game.observation``: everything public, never a hidden card) with its own hand, and at
  the swap its own choice once made. It summarises what the seat may know at this point (the
  search player decides from it too); it is not a transcript of the history, so both strings
  are the same.
- ``resample_from_infostate`` deals the unseen cards with the project's determinizer
  (``idiotsim.interop.worlds``), so OpenSpiel's ISMCTS samples worlds as the search player does.
"""
from __future__ import annotations

import numpy as np
import pyspiel

from idiotsim.game import observation as ob
from idiotsim.game.cards import NUM_RANKS, RANK_NAMES
from idiotsim.interop import actions as act
from idiotsim.interop.stepped import CARD_CODES, DEALING, OVER, SWAPPING, VECTOR_SIZE, Table, place_utility
from idiotsim.interop.worlds import sampled_table
from idiotsim.game.rng import new_state, next_u64
from idiotsim.game.rules import FIELD_NAMES, MAX_PLAYERS, Rules

GAME_NAME = "idiot"
RESAMPLE_STREAM = 1 << 20  # the default stream of a state's resampling (idiotsim.game.rng)
_DEFAULTS = Rules()
PARAMETERS = {name: (0 if getattr(_DEFAULTS, name) is None else getattr(_DEFAULTS, name)) for name in FIELD_NAMES}
PARAMETERS["decks"] = 0  # automatic (V7)

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Idiot (Palace, Shithead) by idiotsim",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def rules_from_params(params: dict) -> Rules:
    """The Rules of OpenSpiel game parameters (every field optional)."""
    values = {**PARAMETERS, **params}
    values["low_rank"] = values["low_rank"] or None
    return Rules(**{name: values[name] for name in FIELD_NAMES})


class IdiotGame(pyspiel.Game):
    def __init__(self, params=None):
        self.rules = rules_from_params(dict(params or {}))
        r = self.rules
        info = pyspiel.GameInfo(
            num_distinct_actions=act.NUM_ACTIONS,
            max_chance_outcomes=CARD_CODES,
            num_players=r.players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=r.rounds * (r.players + r.action_limit),
        )
        super().__init__(GAME_TYPE, info, {**PARAMETERS, **dict(params or {})})

    def new_initial_state(self):
        return IdiotState(self)

    def max_chance_nodes_in_history(self):
        return self.rules.rounds * self.rules.num_cards

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"the idiot observer takes no parameters, got {params}")
        return IdiotObserver(readable=not (iig_obs_type and iig_obs_type.perfect_recall))


class IdiotState(pyspiel.State):
    """A state of the game: a reference-engine `Table` (``self.table``)."""

    def __init__(self, game):
        super().__init__(game)
        self.table = Table(game.rules)
        self.resample_rng = new_state(0, 0, RESAMPLE_STREAM)

    def current_player(self):
        if self.table.phase == DEALING:
            return pyspiel.PlayerId.CHANCE
        if self.table.phase == OVER:
            return pyspiel.PlayerId.TERMINAL
        return self.table.current_seat()

    def _legal_actions(self, player):
        decision = self.table.decision()
        return sorted(act.to_action(decision, move) for move in self.table.legal_moves())

    def chance_outcomes(self):
        left = self.table.cards_left()
        total = int(left.sum())
        return [(int(card), int(k) / total) for card, k in enumerate(left) if k]

    def _apply_action(self, action):
        if self.table.phase == DEALING:
            self.table.deal(int(action))
            return
        if self.table.phase == SWAPPING and action not in self._legal_actions(self.table.current_seat()):
            raise ValueError(f"illegal swap action {action} ({act.action_text(action)})")
        self.table.apply(act.to_move(int(action)))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return act.deal_text(action)
        return act.action_text(action)

    def is_terminal(self):
        return self.table.phase == OVER

    def returns(self):
        n = self.table.n
        if self.table.phase != OVER:
            return [0.0] * n
        return [place_utility(p, n) for p in self.table.places()]

    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state `player_id` cannot tell from this one: its observation and hand, the unseen cards
        dealt by the project's determinizer from this state's resampling stream, which advances at
        each call. `probability_sampler` is not drawn from (OpenSpiel's ISMCTS makes a new one, seeded
        anew, for every call): a search's worlds come from the seat's stream and replay exactly."""
        key = next_u64(self.resample_rng)
        state = IdiotState(self.get_game())
        state.table = sampled_table(self.table, player_id, np.array([key], dtype=np.uint64))
        state.resample_rng = np.array([next_u64(np.array([key], dtype=np.uint64))], dtype=np.uint64)
        return state

    def __str__(self):
        return info_text(self.table, self.table.current_seat()) if self.table.current_seat() >= 0 else (
            f"round {self.table.round_no}: {len(self.table.deck)} cards dealt" if self.table.phase == DEALING
            else f"over: places {self.table.places()}")


class IdiotObserver:
    """Observations and information states as tensors and strings: the information state's string
    is compact (a search keys its nodes by it), the observation's in words; both hold the same.
    The tensor is `Table.vector`: the observation, the hand, the own swap once chosen."""

    def __init__(self, readable: bool):
        self.readable = readable
        self.tensor = np.zeros(VECTOR_SIZE, np.float32)
        self.dict = {"observation": self.tensor[:ob.OBS_SIZE], "hand": self.tensor[ob.OBS_SIZE:-1],
                     "swapped": self.tensor[-1:]}

    def set_from(self, state, player):
        self.tensor[:] = state.table.vector(player)

    def string_from(self, state, player):
        table = state.table
        if table.phase == DEALING:
            return f"round {table.round_no} dealing; totals {table.totals}"
        if table.phase == OVER:
            return f"over; places {table.places()}"
        return info_text(table, player) if self.readable else info_key(table, player)


def info_key(table: Table, seat: int) -> str:
    """What `seat` knows now, compactly: the observation and the hand (and at the swap its own
    choice once made) as hex bytes."""
    obs, hand = table.observation(seat), table.hand(seat)
    swapped = table.own_swap(seat)
    return (f"seat {seat} {('swap', 'turn', 'blind')[int(obs[ob.DECISION])]} {-1 if swapped is None else swapped} "
            + np.concatenate([obs, hand]).astype(np.int16).tobytes().hex())


def _ranks(rank_counts) -> str:
    return " ".join(RANK_NAMES[r] for r in range(NUM_RANKS) for _ in range(int(rank_counts[r]))) or "-"


def info_text(table: Table, seat: int) -> str:
    """What `seat` knows now, in words: the observation's facts and its own hand."""
    obs, hand = table.observation(seat), table.hand(seat)
    n = table.n
    decision = ("swap", "turn", "blind")[int(obs[ob.DECISION])]
    lines = [f"seat {seat} {decision} round {obs[ob.ROUND]} actions {obs[ob.ACTIONS]} starter {obs[ob.STARTER]} "
             f"must {obs[ob.MUST_PLAY]} scores {list(obs[ob.SCORE: ob.SCORE + n])}"]
    if table.phase == SWAPPING:
        lines.append(f"face-up {_ranks(obs[ob.FACEUP + seat * NUM_RANKS:])} hand {_ranks(hand)}")
        if table.own_swap(seat) is not None:
            lines.append(act.action_text(act.to_action(ob.SWAP, table.own_swap(seat))))
        return " | ".join(lines)
    top = int(obs[ob.PILE_TOP])
    lines.append(f"pile {obs[ob.PILE_SIZE]} top {RANK_NAMES[top] if top >= 0 else '-'}x{obs[ob.PILE_RUN]}: "
                 f"{_ranks(obs[ob.PILE_COUNTS:])} burned {_ranks(obs[ob.BURNED:])} talon {obs[ob.TALON_SIZE]}")
    for s in range(n):
        row = s * NUM_RANKS
        blind = "".join(str(int(b)) for b in obs[ob.BLIND_PRESENT + 3 * s: ob.BLIND_PRESENT + 3 * s + 3])
        lines.append(f"seat {s}: place {obs[ob.PLACE + s]} hand {obs[ob.HAND_SIZE + s]} known "
                     f"{_ranks(obs[ob.KNOWN + row:])} face-up {_ranks(obs[ob.FACEUP + row:])} blind {blind}")
    lines.append(f"own hand {_ranks(hand)}")
    return " | ".join(lines)


pyspiel.register_game(GAME_TYPE, IdiotGame)
