"""Idiot as an OpenSpiel game (``pyspiel.load_game("idiot", {"players": 4, ...})``), played by the
project's engine through a ``Table`` (``interop.stepped``).

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
- Observations (``IdiotObserver``) honour OpenSpiel's ``IIGObservationType``: the public part is the
  project's observation of the seat (``idiotsim.game.observation``: everything public, never a hidden
  card; at the swap, R6, no face-up row, since a player swaps knowing only its own six cards); the
  private part of a seat is its face-up row at the swap, its hand and its swap once chosen;
  ``private_info`` NONE, SINGLE_PLAYER or ALL_PLAYERS gives no seat's, the observing seat's or every
  seat's private part.
- Information state: what the seat knows now (the observation of SINGLE_PLAYER), as a compact key.
  It is NOT perfect recall: it summarises the history (the pile, the burned cards, the cards known to
  be in each hand) instead of transcribing it, as the search player sees the game, because Idiot's
  histories are unbounded (R20 allows 10,000 actions a round) and a tensor must have one size. Two
  histories that leave the seat the same knowledge share an information state (docs/interop.md).
- ``resample_from_infostate`` deals the unseen cards with the project's determinizer
  (``idiotsim.interop.worlds``), so OpenSpiel's ISMCTS samples worlds as the search player does.
"""
from __future__ import annotations

import numpy as np
import pyspiel

from idiotsim.game import observation as ob
from idiotsim.game.cards import NUM_RANKS, RANK_NAMES
from idiotsim.game import action_space as act
from idiotsim.interop.stepped import CARD_CODES, DEALING, OVER, PLAYING, SWAPPING, Table, place_utility
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
        return IdiotObserver(self.rules.players, iig_obs_type)


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
        return self.table.legal_actions()

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
        self.table.apply(int(action))

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
    """Observations of a seat as OpenSpiel asks for them (``pyspiel.IIGObservationType``).

    The tensor's pieces, in order (``dict``, each a view of ``tensor``):

    - ``observation`` (public_info): the project's observation of the seat, ``OBS_SIZE`` numbers; at the
      swap (R6) it holds the face-up rows of the seats whose private part is included, and no other;
    - ``faceup`` (without public_info, with a private part): the face-up row at the swap of each
      included seat (13 each; zeros once the swap is over and the rows are public);
    - ``hand``: the 13 rank counts of each included seat's hand;
    - ``swapped``: each included seat's swap while the others still choose (1 + its action id, else 0).

    The included seats are none (PrivateInfoType.NONE), the observing seat (SINGLE_PLAYER: the default
    observation is `Table.vector`, 452 numbers) or every seat (ALL_PLAYERS). While the cards are dealt
    and once the match is over every number is 0. The strings hold the same in words; the information
    state's (``perfect_recall``, see the module) is a compact key of the default observation."""

    def __init__(self, players: int, iig_obs_type=None):
        kind = iig_obs_type if iig_obs_type is not None else pyspiel.IIGObservationType(perfect_recall=False)
        self.n = players
        self.public = bool(kind.public_info)
        self.key = bool(kind.perfect_recall)
        private = kind.private_info
        self.all_seats = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        self.own_seat = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        rows = players if self.all_seats else 1 if self.own_seat else 0
        pieces = [("observation", (ob.OBS_SIZE,))] if self.public else []
        if rows and not self.public:
            pieces.append(("faceup", (rows, NUM_RANKS)))
        if rows:
            pieces += [("hand", (rows, NUM_RANKS)), ("swapped", (rows,))]
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict, offset = {}, 0
        for name, shape in pieces:
            count = int(np.prod(shape))
            self.dict[name] = self.tensor[offset: offset + count].reshape(shape)
            offset += count
        if self.own_seat and self.public:  # the default observation: the shapes of `Table.vector`
            self.dict["hand"] = self.dict["hand"].reshape(NUM_RANKS)
            self.dict["swapped"] = self.dict["swapped"].reshape(1)

    def seats(self, player: int) -> list:
        """The seats whose private part the observation of `player` includes."""
        return list(range(self.n)) if self.all_seats else [player] if self.own_seat else []

    def set_from(self, state, player):
        self.tensor[:] = 0
        table = state.table
        if table.phase not in (SWAPPING, PLAYING):
            return
        seats = self.seats(player)
        if self.public:
            self.dict["observation"][:] = public_observation(table, player, seats)
        elif seats and table.phase == SWAPPING:
            self.dict["faceup"].reshape(len(seats), NUM_RANKS)[:] = [faceup_row(table, s) for s in seats]
        if seats:
            self.dict["hand"].reshape(len(seats), NUM_RANKS)[:] = [table.hand(s) for s in seats]
            self.dict["swapped"].reshape(len(seats))[:] = [swap_number(table, s) for s in seats]

    def string_from(self, state, player):
        table = state.table
        if table.phase == DEALING:
            return f"round {table.round_no} dealing; totals {[int(t) for t in table.totals]}"
        if table.phase == OVER:
            return f"over; places {[int(p) for p in table.places()]}"
        if self.key and self.public and self.own_seat:
            return info_key(table, player)
        return info_text(table, player, self.public, self.seats(player))


def faceup_row(table: Table, seat: int) -> np.ndarray:
    """`seat`'s face-up row as its own observation shows it (at the swap, private: R6)."""
    return table.observation(seat)[ob.FACEUP + seat * NUM_RANKS: ob.FACEUP + (seat + 1) * NUM_RANKS]


def swap_number(table: Table, seat: int) -> int:
    """1 + the action id of `seat`'s swap while the others still choose theirs, else 0 (`Table.vector`)."""
    swap = table.own_swap(seat)
    return 0 if swap is None else 1 + swap


def public_observation(table: Table, player: int, seats) -> np.ndarray:
    """`player`'s observation with, at the swap, the face-up rows of exactly `seats` (R6: each row is its
    seat's private knowledge until the swaps are made)."""
    obs = table.observation(player).copy()
    if table.phase == SWAPPING:
        obs[ob.FACEUP: ob.FACEUP + table.n * NUM_RANKS] = 0
        for s in seats:
            obs[ob.FACEUP + s * NUM_RANKS: ob.FACEUP + (s + 1) * NUM_RANKS] = faceup_row(table, s)
    return obs


def info_key(table: Table, seat: int) -> str:
    """What `seat` knows now, compactly: the observation and the hand (and at the swap its own
    choice once made) as hex bytes."""
    obs, hand = table.observation(seat), table.hand(seat)
    swapped = table.own_swap(seat)
    return (f"seat {seat} {('swap', 'turn', 'blind')[int(obs[ob.DECISION])]} {-1 if swapped is None else swapped} "
            + np.concatenate([obs, hand]).astype(np.int16).tobytes().hex())


def _ranks(rank_counts) -> str:
    return " ".join(RANK_NAMES[r] for r in range(NUM_RANKS) for _ in range(int(rank_counts[r]))) or "-"


def info_text(table: Table, seat: int, public: bool = True, seats=None) -> str:
    """What `seat` knows now, in words (plain numbers): the public facts of its observation (`public`), then
    the private part of each of `seats` (default: its own), as `IdiotObserver` holds them."""
    seats = [seat] if seats is None else list(seats)
    obs = [int(x) for x in public_observation(table, seat, seats)]
    n = table.n
    parts = []
    if public:
        decision = ("swap", "turn", "blind")[obs[ob.DECISION]]
        parts.append(f"seat {seat} {decision} round {obs[ob.ROUND]} actions {obs[ob.ACTIONS]} starter "
                     f"{obs[ob.STARTER]} must {obs[ob.MUST_PLAY]} scores {obs[ob.SCORE: ob.SCORE + n]}")
        if table.phase != SWAPPING:
            top = obs[ob.PILE_TOP]
            parts.append(f"pile {obs[ob.PILE_SIZE]} top {RANK_NAMES[top] if top >= 0 else '-'}x{obs[ob.PILE_RUN]}: "
                         f"{_ranks(obs[ob.PILE_COUNTS:])} burned {_ranks(obs[ob.BURNED:])} talon {obs[ob.TALON_SIZE]}")
            for s in range(n):
                row = s * NUM_RANKS
                blind = "".join(str(b) for b in obs[ob.BLIND_PRESENT + 3 * s: ob.BLIND_PRESENT + 3 * s + 3])
                parts.append(f"seat {s}: place {obs[ob.PLACE + s]} hand {obs[ob.HAND_SIZE + s]} known "
                             f"{_ranks(obs[ob.KNOWN + row:])} face-up {_ranks(obs[ob.FACEUP + row:])} blind {blind}")
    for s in seats:
        own = "own" if s == seat and len(seats) == 1 else f"seat {s}"
        if table.phase == SWAPPING:
            parts.append(f"{own} face-up {_ranks(faceup_row(table, s))} hand {_ranks(table.hand(s))}")
            if table.own_swap(s) is not None:
                parts.append(f"{own} " + act.action_text(table.own_swap(s)))
        else:
            parts.append(f"{own} hand {_ranks(table.hand(s))}")
    return " | ".join(parts)


pyspiel.register_game(GAME_TYPE, IdiotGame)
