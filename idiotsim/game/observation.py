"""The observation a strategy receives: one flat int64 array of public facts.

Layout (offsets are module constants; a strategy reads e.g. ``obs[PILE_TOP]``
or ``obs[FACEUP + seat * 13 + rank]``). Everything here is known to every
player at the table; the deciding player's own hand goes alongside as a
separate 13-count array. Blind cards, other players' unseen hand cards and
the talon order are never in it (docs/rules.md R6, R15).

Header (scalars)
  DECISION     SWAP, TURN or BLIND
  SEAT         the deciding seat
  PLAYERS      number of seats in play
  ROUND        1-based round of the match
  SOURCE       SRC_HAND, SRC_FACEUP or SRC_BLIND (R13) for TURN / BLIND
  PILE_TOP     rank on top of the pile, -1 when empty
  PILE_RUN     how many cards of PILE_TOP lie on top in a row (R16.2)
  PILE_SIZE    cards in the pile
  TALON_SIZE   cards left in the talon
  MUST_PLAY    V12: the rank the play must be of, -1 when free
  CAN_PICKUP   1 when the player may pick up the pile now (R14)
  CAN_CHANCE   1 when the player may turn the talon's top card now (V5)
  STARTER      seat that started this round
  ACTIONS      actions so far in this round (R20)
  LEGAL        bit r set when rank r may be played on the pile now (R10, R11,
               V1/V2, V6; V12's MUST_PLAY aside): ``obs[LEGAL] >> r & 1``
  rules:       LOW_RANK (rank id or -1), TEN_ONLY_ON_LOWER, SIX_BURN,
               LAST_HAND_WITH_FACEUP, BURN_PLAYS_AGAIN, CHANCE_RULE, DECKS,
               LOWEST_STARTS, OPENING_LOWEST, ROUNDS, IDIOT_DEALS, ACTION_LIMIT
Per seat (MAX_PLAYERS rows; rows past PLAYERS stay 0)
  FACEUP       face-up counts, 13 per seat
  KNOWN        cards publicly known to be in that seat's hand (picked up
               from the pile or shown by a failed flip), 13 per seat
  BLIND_PRESENT  1 per remaining blind position, 3 per seat
  HAND_SIZE, FACEUP_SIZE, BLIND_SIZE, PLACE (0 = still in), SCORE (match
  total of places from earlier rounds)
Per rank
  PILE_COUNTS  cards of each rank in the pile
  BURNED       cards of each rank burned this round
Per seat, appended (what the table saw of each seat's last pickup, docs/rules.md "Pickup facts")
  PICKUP_LEGAL the LEGAL mask the seat faced at its last pickup by R14 (the PICKUP action, not a
               failed blind or chance card) this round; 0 before its first (LEGAL is never 0)
  PICKUP_FREE  how many of its hand cards that are not KNOWN may be of a rank in PICKUP_LEGAL had it
               held none then: 0 at that pickup, + every card it has drawn since (R16.1), - every
               card of such a rank it has played from the hand beyond its KNOWN copies (not below 0)
Per seat, appended (what the table can tell a seat's hand lacks had it played like `basic`,
docs/rules.md "Play facts")
  LACKS        ranks of which the seat's hand cards that are not KNOWN held none at its last fact:
               at the swap (R6) the ranks `basic` lays face-up before its lowest face-up card, at a
               play from the hand the ranks it plays before the rank played, and that rank (it plays
               every copy), at a pickup by R14 the LEGAL mask; joined with the earlier mask while
               LACKS_FREE is 0, else in its place; 0 during the swap
  LACKS_FREE   as PICKUP_FREE, for LACKS: 0 at each fact, + every card drawn since, - every card of a
               rank in LACKS played from the hand beyond its KNOWN copies (not below 0)

During the swap (R6) a player sees only their own cards: the per-seat
sections hold only the deciding seat's face-up row.

Strategies read the fields through the named accessors at the end of this
module (``pile_top(obs)``, ``hand_size(obs, seat)``, ...): each compiles inline
to the one load it names, so they cost nothing at run time.
"""
from __future__ import annotations

import numpy as np

from idiotsim.game.cards import NUM_RANKS as NR
from idiotsim.jit import kernel
from idiotsim.game.rules import MAX_PLAYERS

SWAP, TURN, BLIND = 0, 1, 2
SRC_HAND, SRC_FACEUP, SRC_BLIND = 0, 1, 2
SOURCE_NAMES = ("hand", "faceup", "blind", "talon")  # the trace's "from"; the talon is V5's chance card

(DECISION, SEAT, PLAYERS, ROUND, SOURCE, PILE_TOP, PILE_RUN, PILE_SIZE, TALON_SIZE,
 MUST_PLAY, CAN_PICKUP, CAN_CHANCE, STARTER, ACTIONS,
 LOW_RANK, TEN_ONLY_ON_LOWER, SIX_BURN, LAST_HAND_WITH_FACEUP, BURN_PLAYS_AGAIN,
 CHANCE_RULE, DECKS, LOWEST_STARTS, OPENING_LOWEST, ROUNDS, IDIOT_DEALS,
 ACTION_LIMIT, LEGAL) = range(27)
ALL_RANKS = (1 << NR) - 1  # LEGAL on an empty pile
HEADER_SIZE = 32
FACEUP = HEADER_SIZE
KNOWN = FACEUP + MAX_PLAYERS * NR
BLIND_PRESENT = KNOWN + MAX_PLAYERS * NR
HAND_SIZE = BLIND_PRESENT + MAX_PLAYERS * 3
FACEUP_SIZE = HAND_SIZE + MAX_PLAYERS
BLIND_SIZE = FACEUP_SIZE + MAX_PLAYERS
PLACE = BLIND_SIZE + MAX_PLAYERS
SCORE = PLACE + MAX_PLAYERS
PILE_COUNTS = SCORE + MAX_PLAYERS
BURNED = PILE_COUNTS + NR
PICKUP_LEGAL = BURNED + NR
PICKUP_FREE = PICKUP_LEGAL + MAX_PLAYERS
LACKS = PICKUP_FREE + MAX_PLAYERS
LACKS_FREE = LACKS + MAX_PLAYERS
OBS_SIZE = LACKS_FREE + MAX_PLAYERS

RULE_OFFSETS = {
    "low_rank": LOW_RANK, "ten_only_on_lower": TEN_ONLY_ON_LOWER, "six_burn": SIX_BURN,
    "last_hand_with_faceup": LAST_HAND_WITH_FACEUP, "burn_plays_again": BURN_PLAYS_AGAIN,
    "chance": CHANCE_RULE, "decks": DECKS, "lowest_starts": LOWEST_STARTS,
    "opening_lowest": OPENING_LOWEST, "rounds": ROUNDS, "idiot_deals": IDIOT_DEALS,
    "action_limit": ACTION_LIMIT,
}


def rules_to_header(rules, obs) -> None:
    """Write the rules fields into an observation array."""
    obs[PLAYERS] = rules.players
    for name, off in RULE_OFFSETS.items():
        obs[off] = rules.low_rank_id if name == "low_rank" else int(getattr(rules, name))


def checksum(obs, hand) -> int:
    """FNV-1a over an observation and a hand, for the equality tests: the definition, in plain Python.
    Both engines log its compiled form, `obs_checksum`, for every observation they hand a strategy."""
    mask = (1 << 64) - 1
    h = 1469598103934665603
    for x in list(obs) + list(hand):
        h = ((h ^ ((int(x) + 7) & mask)) * 1099511628211) & mask
    return h


@kernel
def obs_checksum(obs, hand):
    """`checksum` compiled, of int64 arrays (a uint64)."""
    h = np.uint64(1469598103934665603)
    for i in range(obs.shape[0]):
        h = (h ^ np.uint64(obs[i] + 7)) * np.uint64(1099511628211)
    for i in range(hand.shape[0]):
        h = (h ^ np.uint64(hand[i] + 7)) * np.uint64(1099511628211)
    return h


# ---- named accessors (inlined: free at run time) ----------------------------

@kernel(inline="always")
def decision(obs):
    """SWAP, TURN or BLIND."""
    return obs[DECISION]


@kernel(inline="always")
def my_seat(obs):
    """The deciding seat."""
    return obs[SEAT]


@kernel(inline="always")
def player_count(obs):
    return obs[PLAYERS]


@kernel(inline="always")
def source(obs):
    """SRC_HAND, SRC_FACEUP or SRC_BLIND (R13): where the player's cards come from now."""
    return obs[SOURCE]


@kernel(inline="always")
def pile_top(obs):
    """The rank on top of the pile, -1 when it is empty."""
    return obs[PILE_TOP]


@kernel(inline="always")
def pile_run(obs):
    """How many cards of the top rank lie on top in a row (R16.2)."""
    return obs[PILE_RUN]


@kernel(inline="always")
def pile_size(obs):
    return obs[PILE_SIZE]


@kernel(inline="always")
def pile_count(obs, rank):
    """Cards of `rank` in the pile."""
    return obs[PILE_COUNTS + rank]


@kernel(inline="always")
def burned_count(obs, rank):
    """Cards of `rank` burned this round."""
    return obs[BURNED + rank]


@kernel(inline="always")
def legal_ranks(obs):
    """The ranks that may be played on the pile now, as a bit mask (V12's MUST_PLAY aside)."""
    return obs[LEGAL]


@kernel(inline="always")
def talon_size(obs):
    return obs[TALON_SIZE]


@kernel(inline="always")
def must_play(obs):
    """V12: the rank the opening play must be of, -1 when the play is free."""
    return obs[MUST_PLAY]


@kernel(inline="always")
def can_pick_up(obs):
    return obs[CAN_PICKUP] != 0


@kernel(inline="always")
def can_chance(obs):
    """V5: may the player turn the talon's top card now?"""
    return obs[CAN_CHANCE] != 0


@kernel(inline="always")
def deck_count(obs):
    """Decks in play (V7): each rank has 4 * deck_count(obs) cards."""
    return obs[DECKS]


@kernel(inline="always")
def hand_size(obs, seat):
    return obs[HAND_SIZE + seat]


@kernel(inline="always")
def faceup_size(obs, seat):
    return obs[FACEUP_SIZE + seat]


@kernel(inline="always")
def blind_size(obs, seat):
    return obs[BLIND_SIZE + seat]


@kernel(inline="always")
def cards_held(obs, seat):
    """Hand, face-up and blind cards of `seat`: 0 once it is out."""
    return obs[HAND_SIZE + seat] + obs[FACEUP_SIZE + seat] + obs[BLIND_SIZE + seat]


@kernel(inline="always")
def faceup_count(obs, seat, rank):
    """Face-up cards of `rank` in front of `seat`."""
    return obs[FACEUP + seat * NR + rank]


@kernel(inline="always")
def known_count(obs, seat, rank):
    """Cards of `rank` publicly known to be in `seat`'s hand (picked up in sight)."""
    return obs[KNOWN + seat * NR + rank]


@kernel(inline="always")
def blind_present(obs, seat, position):
    """Does blind position 0, 1 or 2 of `seat` still hold a card?"""
    return obs[BLIND_PRESENT + seat * 3 + position] != 0


@kernel(inline="always")
def is_in(obs, seat):
    """Is `seat` still in the round (no place yet)?"""
    return obs[PLACE + seat] == 0


@kernel(inline="always")
def unknown_in_hand(obs, seat):
    """Cards in `seat`'s hand that are not publicly KNOWN (unseen by the others)."""
    unknown = obs[HAND_SIZE + seat]
    for r in range(NR):
        unknown -= obs[KNOWN + seat * NR + r]
    return unknown


@kernel(inline="always")
def pickup_legal(obs, seat):
    """The LEGAL mask `seat` faced at its last pickup by R14 this round; 0 before its first."""
    return obs[PICKUP_LEGAL + seat]


@kernel(inline="always")
def pickup_free(obs, seat):
    """How many of `seat`'s unknown hand cards may be of a rank in pickup_legal(obs, seat) had it
    held none at that pickup (cards drawn since, less such cards played from the unknown part)."""
    return obs[PICKUP_FREE + seat]


@kernel(inline="always")
def lacks(obs, seat):
    """The ranks of which `seat`'s unknown hand cards held none at its last play fact, had it played
    like `basic` (docs/rules.md "Play facts"); 0 during the swap."""
    return obs[LACKS + seat]


@kernel(inline="always")
def lacks_free(obs, seat):
    """How many of `seat`'s unknown hand cards may be of a rank in lacks(obs, seat) (cards drawn since
    that fact, less such cards played from the unknown part)."""
    return obs[LACKS_FREE + seat]
