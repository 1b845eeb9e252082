"""The engine's state: one int64 array ``st``, its sections and scalars by offset (the offsets' one home).

- ``st[:OBS_SIZE]``: the public observation (``idiotsim.game.observation``), kept up to date incrementally
  and handed to strategies as it stands;
- ``HANDS``: hand counts by seat and rank; a strategy gets only its own row;
- ``SWAP_FACEUP``: face-up counts while the swap (R6) is still open;
- ``BLIND``: blind ranks, 3 per seat, -1 once flipped; never shown;
- ``TALON`` (ranks) with ``TALON_POS`` / ``TALON_LEN``; ``DECK``: the card codes dealt;
- the game scalars (next place, counters, error, event count) and the seat map: each seat's strategy, and
  whether it is `basic`, whose decision the engine plays inline (SEAT_BASIC);
- the match fields of a table stepped from outside (``stepping``);
- when recording, trace events and observation checksums follow ``STATE_SIZE``.
"""
from numba import types

from idiotsim.game import observation as ob
from idiotsim.game.moves import SIG
from idiotsim.game.observation import MAX_PLAYERS, NR, OBS_SIZE

MAX_STRATEGIES = 32  # distinct strategies one batch can seat
STRATEGY_TUPLE = types.UniTuple(types.FunctionType(SIG), MAX_STRATEGIES)
MAX_CARDS = 104

HANDS = OBS_SIZE                          # + seat * NR + rank
SWAP_FACEUP = HANDS + MAX_PLAYERS * NR    # + seat * NR + rank
BLIND = SWAP_FACEUP + MAX_PLAYERS * NR    # + seat * 3 + position
TALON = BLIND + MAX_PLAYERS * 3           # + index
DECK = TALON + MAX_CARDS                  # + index
GAME = DECK + MAX_CARDS
# game scalars, zeroed at the start of every match
(TALON_POS, TALON_LEN, NEXT_PLACE, PLAYERS_IN, BURNS, PICKUPS, TOTAL_ACTIONS, STALLED, ERROR, ERROR_SEAT,
 N_EVENTS, N_OBS) = range(GAME, GAME + 12)
# set by the caller: recording switch and capacities, and the strategy tuple index of each seat
RECORD, TRACE_CAP, LOG_CAP = range(GAME + 12, GAME + 15)
SKIPPED = GAME + 15  # actions `play_on` skipped as whole cycles (search rollouts only)
# 1 when no observation is handed out (every seat plays `basic` inline, no recording): the facts that
# only an observation shows and no play depends on (PICKUP_LEGAL, PICKUP_FREE, LACKS, LACKS_FREE) are
# then not kept (a measurable share of an all-`basic` game: benchmarks/engine.py)
NO_OBSERVER = GAME + 16
SEAT_STRATEGY = GAME + 17
# 1 at a seat whose strategy is `basic`: the engine plays its decision inline (`_basic_turn`, or
# `play_like_basic`, the same choices) instead of calling it through the strategy table, which passes
# four arrays as 28 words
SEAT_BASIC = SEAT_STRATEGY + MAX_PLAYERS
# a match stepped from outside (``stepping``): its phase, the dealer of the round in play, the
# (seed, game, deal) indices its decks and next game come from, and 1 when the caller deals its decks
MATCH = SEAT_BASIC + MAX_PLAYERS
MATCH_PHASE, MATCH_DEALER, MATCH_SEED, MATCH_GAME, MATCH_DEAL, MATCH_DECKS_GIVEN = range(MATCH, MATCH + 6)
STATE_SIZE = MATCH + 6
TRACE = STATE_SIZE  # recording: TRACE_CAP events of EV_WIDTH, then LOG_CAP observation checksums

# trace event records: [kind, round, seat, ...]
EV_SWAP, EV_PLAY, EV_PICKUP, EV_OUT, EV_END = range(5)
EV_WIDTH = 16
SRC_TALON = 3

# Brent's cycle check starts this many actions into a rollout: shorter rollouts never cycle in
# practice, and the check costs a few comparisons per action.
CYCLE_WATCH_FROM = 64
# The position compared by the cycle check: everything that decides the rest of the round except
# the action count (R20): see `_same_position`.
POSITION_SIZE = 1 + (ob.TALON_SIZE + 1 - ob.PILE_TOP) + 2 * NR + MAX_PLAYERS * (3 * NR + 4)
