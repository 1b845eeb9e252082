"""The observation a strategy receives: one flat int64 array of public facts.

Layout (offsets are module constants; a strategy reads e.g. ``obs[PILE_TOP]``
or ``obs[FACEUP + seat * 13 + rank]``). Everything here is known to every
player at the table; the deciding player's own hand goes alongside as a
separate 13-count array. Blind cards, other players' unseen hand cards and
the talon order are never in it (RULES.md R6, R15).

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

During the swap (R6) a player sees only their own cards: the per-seat
sections hold only the deciding seat's face-up row.
"""
from __future__ import annotations

MAX_PLAYERS = 10
NR = 13

SWAP, TURN, BLIND = 0, 1, 2
SRC_HAND, SRC_FACEUP, SRC_BLIND = 0, 1, 2
SOURCE_NAMES = ("hand", "faceup", "blind")

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
OBS_SIZE = BURNED + NR

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
    """FNV-1a over an observation and a hand (the numba engine logs the same), for equality tests."""
    mask = (1 << 64) - 1
    h = 1469598103934665603
    for x in list(obs) + list(hand):
        h = ((h ^ ((int(x) + 7) & mask)) * 1099511628211) & mask
    return h
