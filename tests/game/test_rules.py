"""Rule tests for the reference engine: one or more focused tests per rule id of
docs/rules.md (R1..R20, V1..V12), on hand-built decks.

Every seat plays `basic` (whose behaviour docs/rules.md defines exactly) unless a
rule concerns a decision `basic` never makes; then one seat plays `scripted`,
a tiny numba strategy that returns fixed decisions at given action counts and
plays `basic` otherwise.

Remember when reading the decks: `basic` swaps so that the 3 highest of its 6
cards by the key 3 < ... < 9 < J < Q < K < A < 2 < 10 lie face-up, so each
deck below deals every hand below its face-up cards by that key.
"""
from __future__ import annotations

import json

import numba
import numpy as np
import pytest

from helpers import (build_deck, cards_of, end_line, non_swap, out_line, pickup_line, play_line,
                     run_match, run_trace, swap_line)
from idiotsim.game.cards import RANK_OF_NAME, format_deck, parse_deck
from idiotsim.errors import IllegalMoveError, UserError
from idiotsim.game.observation import ACTIONS, DECISION, FACEUP, KNOWN, MAX_PLAYERS, NR, OBS_SIZE, ROUND, SEAT, SWAP
from idiotsim.game.reference import match_positions
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.game.moves import (CHANCE, ILLEGAL_BLIND_PICKUP, ILLEGAL_CHANCE, ILLEGAL_EMPTY_PICKUP, ILLEGAL_EXTRA, ILLEGAL_NOT_HELD, ILLEGAL_NOT_LEGAL, ILLEGAL_OPENING, ILLEGAL_REASONS, ILLEGAL_SWAP, ILLEGAL_ZERO_COUNT, PICKUP, SIG, play, swap_choice)
from idiotsim.strategies.toolkit import Strategy
from idiotsim.strategies.loading import SeatStrategy, load_strategy
from idiotsim.strategies.basic import decide as basic_decide

R = RANK_OF_NAME  # rank name -> rank id ("2" -> 0, ..., "10" -> 8, "J" -> 9, ..., "A" -> 12)
P, U, O, E = play_line, pickup_line, out_line, end_line


# ---- a tiny scripted strategy ------------------------------------------------

@numba.njit(SIG, cache=False)
def scripted_decide(obs, hand, params, rng):
    """params: triples (round, key, decision); key is -1 for the swap, else the
    number of actions already made in the round (obs[ACTIONS]). Else `basic`."""
    key = -1 if obs[DECISION] == SWAP else obs[ACTIONS]
    for i in range(0, params.shape[0] - 2, 3):
        if int(params[i]) == obs[ROUND] and int(params[i + 1]) == key:
            return int(params[i + 2])
    return basic_decide(obs, hand, params, rng)


SCRIPTED = Strategy(name="scripted", decide=scripted_decide,
                    description="tests: fixed decisions at given action counts, else basic")


def scripted(script: dict, label: str = "scripted", round_no: int = 1) -> SeatStrategy:
    flat = []
    for key, decision in script.items():
        flat += [round_no, key, decision]
    return SeatStrategy(label, SCRIPTED, np.array(flat, dtype=np.float64))


def basic():
    return load_strategy("basic")


def seats_with(players: int, seat: int, strategy: SeatStrategy) -> list:
    return [strategy if s == seat else basic() for s in range(players)]


def actor_seats(lines):
    return [json.loads(ln)["seat"] for ln in lines if '"action": "play"' in ln or '"action": "pickup"' in ln]


# ---- decks -----------------------------------------------------------------

# The walkthrough of docs/rules.md ("A short example", from the app's rules page), 3 players:
# seat 0 plays 8C; seat 1 beats it with JD JS; seat 2 has nothing above a J and plays 2H;
# seat 0 follows with 3C (drawn after the 8C); seat 1 plays 10S (drawn after the jacks).
WALKTHROUGH = build_deck([
    {"hand": "8C QC KC", "faceup": "AC AD 2C"},
    {"hand": "JD JS 4H", "faceup": "QD KD AS"},
    {"hand": "2H 4C 5C", "faceup": "10C 10D 10H"},
], talon="3C 10S 6D 7D 9D 5D")

# A whole 5-player round that ends quickly: the 7-card talon is gone after three
# plays, every hand and face-up row is three of a kind, and the blinds are dealt
# so that the round ends after 27 actions with seat 3 out first and seat 2 the Idiot.
SHOWCASE_SEATS = [
    {"blind": "4S KS 7S", "hand": "3C 3D 3H", "faceup": "KC KD KH"},
    {"blind": "5S AS 8S", "hand": "4C 4D 4H", "faceup": "AC AD AH"},
    {"blind": "9S JH JS", "hand": "5C 5D 5H", "faceup": "2H 2S JD"},
    {"blind": "10S 2C 2D", "hand": "6C 6D 6H", "faceup": "10C 10D 10H"},
    {"blind": "3S QS 6S", "hand": "7C 7D 7H", "faceup": "QC QD QH"},
]
SHOWCASE_TALON = "8C 8D 8H 9C 9D 9H JC"
SHOWCASE = build_deck(SHOWCASE_SEATS, talon=SHOWCASE_TALON)

SHOWCASE_SWAPS = [
    swap_line(0, ["K", "K", "K"], ["3", "3", "3"]),
    swap_line(1, ["A", "A", "A"], ["4", "4", "4"]),
    swap_line(2, ["J", "2", "2"], ["5", "5", "5"]),
    swap_line(3, ["10", "10", "10"], ["6", "6", "6"]),
    swap_line(4, ["Q", "Q", "Q"], ["7", "7", "7"]),
]
# The first 8 actions empty the talon (3 + 3 + 1 cards drawn) and every hand.
SHOWCASE_DRAIN = [
    P(0, "hand", "3", 3), P(1, "hand", "4", 3), P(2, "hand", "5", 3), P(3, "hand", "6", 3), P(4, "hand", "7", 3),
    P(0, "hand", "8", 3), P(1, "hand", "9", 3), P(2, "hand", "J", 1),
]
SHOWCASE_PLAYS = SHOWCASE_DRAIN + [
    P(3, "faceup", "10", 3, burn=True), P(3, "blind", "10", 1, burn=True), P(3, "blind", "2", 1),
    P(4, "faceup", "Q", 3), P(0, "faceup", "K", 3), P(1, "faceup", "A", 3), P(2, "faceup", "2", 2),
    P(3, "blind", "2", 1), O(3, 1),
    P(4, "blind", "3"), P(0, "blind", "4"), P(1, "blind", "5"), P(2, "faceup", "J"),
    P(4, "blind", "Q"), P(0, "blind", "K"), P(1, "blind", "A"),
    U(2, 21, "blind", "9"),
    P(4, "blind", "6"), O(4, 2), P(0, "blind", "7"), O(0, 3), P(1, "blind", "8"), O(1, 4),
    E([3, 4, 5, 1, 2]),
]


def two_player_deck(s0_hand, s0_faceup, s1_hand, s1_faceup, talon="5C 6C 7C 8C 9C", **kw):
    return build_deck([{"hand": s0_hand, "faceup": s0_faceup}, {"hand": s1_hand, "faceup": s1_faceup}],
                      talon=talon, **kw)


# ---- the seed walkthrough -----------------------------------------------------

def test_seed_walkthrough_eight_jacks_two_three_ten_burns_and_plays_again():
    """Seed page 000 walkthrough (R9, R10, R11, R12, R16): 8C on the pile, JD JS beat it,
    2H resets, 3C follows, 10S burns and the same player plays again.

    Seat 1 holds 4H and 6D too when it plays the 10; `basic` would play the 4,
    so seat 1 plays `scripted`, whose only scripted decision is that 10."""
    seats = seats_with(3, 1, scripted({4: play(R["10"], 1, 0)}))
    result, lines = run_match(WALKTHROUGH, strategies=seats, players=3)
    assert lines[:3] == [
        swap_line(0, ["A", "A", "2"], ["8", "Q", "K"]),
        swap_line(1, ["Q", "K", "A"], ["4", "J", "J"]),
        swap_line(2, ["10", "10", "10"], ["4", "5", "2"]),
    ]
    assert non_swap(lines)[:6] == [
        P(0, "hand", "8", 1),
        P(1, "hand", "J", 2),
        P(2, "hand", "2", 1),
        P(0, "hand", "3", 1),
        P(1, "hand", "10", 1, burn=True),
        P(1, "hand", "4", 1),  # R16.4: the same player acts again, on the empty pile
    ]
    plays = [e for e in result.events if e["action"] == "play"]
    assert [cards_of(e) for e in plays[:5]] == [["8C"], ["JD", "JS"], ["2H"], ["3C"], ["10S"]]


# ---- R1..R3: cards ------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_R1_suits_never_affect_play(seed):
    """R1: one 52-card deck; suits never affect play: relabelling the suits of a
    deck (C<->S, D<->H) gives the same trace, for basic and random seats alike."""
    assert Rules(players=4).num_cards == 52
    deck = shuffled_deck(seed, 0, 0, 1)
    assert sorted(deck.tolist()) == list(range(52))
    relabelled = (deck // 4) * 4 + (3 - deck % 4)
    for spec in ("basic", "random,basic,random,basic"):
        a = run_trace(deck, strategies=spec, players=4, seed=seed)
        b = run_trace(relabelled, strategies=spec, players=4, seed=seed)
        assert a == b


def test_R2_rank_order_three_low_ace_high():
    """R2: 3 < ... < 9 < J < Q < K < A. On a 9 an 8 may not follow but a J may;
    on a J a Q; on a Q an A; on an A nothing ordinary but an A, so K, 3 and 5 pick up."""
    deck = two_player_deck("9C QC KC", "2C 2D 10C", "8H JH AH", "2H 2S 10D", talon="3C 4C 5C")
    assert non_swap(run_trace(deck, players=2))[:5] == [
        P(0, "hand", "9"), P(1, "hand", "J"), P(0, "hand", "Q"), P(1, "hand", "A"), U(0, 4),
    ]


def test_R3_card_codes_and_deck_string():
    """R3: codes are rank then suit (10H, QS, 3C); a deck string is 52 comma-separated
    codes, top first; the engine deals from it and shows ranks in the trace."""
    deck = build_deck([{"hand": "10H QS 3C", "faceup": "4C 5C 6C"}, {}])
    codes = deck.split(",")
    assert len(codes) == 52 and codes[6 + 0] == "4C" and codes[12:15] == ["10H", "QS", "3C"]
    assert format_deck(parse_deck(deck)) == deck
    assert parse_deck(deck.lower()).tolist() == parse_deck(deck).tolist()
    lines = run_trace(deck, players=2)
    assert lines[0] == swap_line(0, ["6", "Q", "10"], ["3", "4", "5"])
    with pytest.raises(UserError):
        parse_deck(deck.replace("10H", "1H"))
    with pytest.raises(UserError):
        parse_deck(deck.replace("10H", "QS"))  # QS twice, 10H missing
    with pytest.raises(UserError):
        parse_deck(",".join(codes[:51]))


# ---- R4..R8: setup --------------------------------------------------------------

def test_R4_player_counts_and_play_to_the_left_skipping_players_out():
    """R4: 2 to 5 players with one deck; play passes to seat+1 (mod n), skipping
    players who are out (seat 3 goes out first in the showcase round and is skipped)."""
    for n in range(2, 6):
        assert Rules(players=n).decks == 1
    for bad in (1, 11):
        with pytest.raises(UserError):
            Rules(players=bad)
    lines = run_trace(SHOWCASE, players=5)
    # seat 3 acts three times in a row (burns, R16.4), goes out with its 16th action,
    # and is skipped from then on (2 -> 4).
    assert actor_seats(lines) == [0, 1, 2, 3, 4, 0, 1, 2, 3, 3, 3, 4, 0, 1, 2, 3,
                                  4, 0, 1, 2, 4, 0, 1, 2, 4, 0, 1]


def test_R5_deal_order_from_an_explicit_deck():
    """R5: seat p's blind cards are deck[3p..3p+2] (positions 0,1,2), face-up
    deck[3n+3p..], hand deck[6n+3p..]; the talon is deck[9n:], drawn from its lowest index."""
    for n, seed in ((2, 5), (4, 6), (5, 7)):
        deck = shuffled_deck(seed, 0, 0, 1)
        seen = {}

        def observer(event, rnd):
            if not seen:
                seen["blind"] = [list(p.blind) for p in rnd.players]
                seen["talon"] = list(rnd.talon)
            if event["action"] == "swap":
                seen[event["seat"]] = sorted(event["_faceup"] + event["_hand"])

        run_match(deck, players=n, observer=observer)
        d = deck.tolist()
        for p in range(n):
            assert seen["blind"][p] == d[3 * p: 3 * p + 3]
            assert seen[p] == sorted(d[3 * n + 3 * p: 3 * n + 3 * p + 3] + d[6 * n + 3 * p: 6 * n + 3 * p + 3])
        assert seen["talon"] == d[9 * n:]
    # Hand-built: face-up cards that basic keeps face-up stay exactly where dealt,
    # and blind position 0 is flipped first (3S, 4S, 5S in the showcase round).
    result, lines = run_match(SHOWCASE, players=5)
    swaps = [e for e in result.events if e["action"] == "swap"]
    assert [cards_of({"_cards": e["_faceup"]}) for e in swaps] == [
        ["KC", "KD", "KH"], ["AC", "AD", "AH"], ["2H", "2S", "JD"], ["10C", "10D", "10H"], ["QC", "QD", "QH"]]
    draws = [e for e in result.events if e["action"] == "play"][:3]
    assert [cards_of(e) for e in draws] == [["3C", "3D", "3H"], ["4C", "4D", "4H"], ["5C", "5D", "5H"]]
    assert lines[5:] == SHOWCASE_PLAYS


def test_R6_basic_swap_puts_three_highest_by_key_face_up():
    """R6 + basic: of the 6 hand and face-up cards, the 3 highest by the basic key lie face-up."""
    deck = build_deck([{"hand": "10S AS 3C", "faceup": "4C 2D JC"}, {"hand": "9H 9D 9C", "faceup": "3H 3D 3S"}])
    lines = run_trace(deck, players=2)
    assert lines[:2] == [swap_line(0, ["A", "2", "10"], ["3", "4", "J"]),
                         swap_line(1, ["9", "9", "9"], ["3", "3", "3"])]


def test_R6_swap_choice_is_the_players():
    """R6: the player decides which 3 of the 6 cards lie face-up (here the 3 lowest),
    and plays from that hand."""
    seats = seats_with(3, 0, scripted({-1: swap_choice(R["8"], R["Q"], R["K"])}))
    lines = run_trace(WALKTHROUGH, strategies=seats, players=3)
    assert lines[0] == swap_line(0, ["8", "Q", "K"], ["A", "A", "2"])
    assert non_swap(lines)[0] == P(0, "hand", "A", 2)


@numba.njit(SIG, cache=False)
def _blindfolded_swap_decide(obs, hand, params, rng):
    """Returns an invalid swap code (so the engine raises) if the swap observation
    shows anything beyond the player's own face-up row."""
    if obs[DECISION] == SWAP:
        seat = obs[SEAT]
        for s in range(MAX_PLAYERS):
            if s != seat:
                for r in range(NR):
                    if obs[FACEUP + s * NR + r] != 0:
                        return -7
        for i in range(KNOWN, OBS_SIZE):  # known hands, blinds, sizes, places, scores, pile, burned
            if obs[i] != 0:
                return -7
    return basic_decide(obs, hand, params, rng)


def test_R6_swap_sees_only_own_cards():
    """R6: in the swap phase a player sees only their own hand and face-up cards
    (no other face-up row, no blind card, no table state)."""
    blindfolded = Strategy(name="blindfolded", decide=_blindfolded_swap_decide, description="tests")
    seats = [SeatStrategy("blindfolded", blindfolded, np.zeros(0)) for _ in range(5)]
    assert run_trace(SHOWCASE, strategies=seats, players=5) == SHOWCASE_SWAPS + SHOWCASE_PLAYS


def test_R6_illegal_swap_raises():
    """R6: the face-up ranks must be among the player's six cards."""
    seats = seats_with(3, 2, scripted({-1: swap_choice(R["A"], R["A"], R["A"])}, label="probe"))
    with pytest.raises(IllegalMoveError) as err:
        run_match(WALKTHROUGH, strategies=seats, players=3, seed=4, game=9)
    msg = str(err.value)
    assert "'probe'" in msg and "seat 2" in msg and "game 9" in msg and "seed 4" in msg
    assert ILLEGAL_REASONS[ILLEGAL_SWAP] in msg


def test_R7_starter_moves_left_each_round():
    """R7: round 1 seat 0 starts (dealer n-1); round r seat (r-1) mod n starts."""
    n, rounds = 3, 5
    decks = [shuffled_deck(21, 0, r, 1) for r in range(rounds)]
    result, lines = run_match(decks, players=n)
    for r in range(1, rounds + 1):
        round_lines = [json.loads(ln) for ln in lines if json.loads(ln)["round"] == r]
        assert [e["seat"] for e in round_lines[:n]] == list(range(n))  # swap lines first, seat 0..n-1
        assert all(e["action"] == "swap" for e in round_lines[:n])
        assert round_lines[n]["seat"] == (r - 1) % n
        assert result.rounds[r - 1].places == round_lines[-1]["places"]


LOWEST_DECK = build_deck([
    {"hand": "4C 5C 6C", "faceup": "QC QD QH"},
    {"hand": "4D 5D 6D", "faceup": "KC KD KH"},
    {"hand": "3C 7C 8C", "faceup": "JC JD JH"},
    {"hand": "AC AD AH", "faceup": "2C 2D 2H"},
])


def test_R8_V3_lowest_ordinary_rank_in_hand_starts():
    """R8/V3: with lowest_starts, the player whose hand holds the lowest ordinary
    rank (seat 2, the 3C) starts; without it seat 0 (left of the dealer) starts."""
    assert non_swap(run_trace(LOWEST_DECK, players=4, lowest_starts=True))[:3] == [
        P(2, "hand", "3"), P(3, "hand", "A", 3), U(0, 4)]
    assert non_swap(run_trace(LOWEST_DECK, players=4))[0] == P(0, "hand", "4")


def test_R8_V3_ties_go_to_first_in_turn_order_from_left_of_dealer():
    """R8: seats 0 and 3 both hold a 3. Round 1 (dealer 3): seat 0 is first from
    seat 0. Round 2 (dealer 0): turn order from seat 1 is 1, 2, 3, 0, so seat 3."""
    deck = build_deck([
        {"hand": "3C 7C 8C", "faceup": "QC QD QH"},
        {"hand": "4D 5D 6D", "faceup": "KC KD KH"},
        {"hand": "4C 5C 6C", "faceup": "JC JD JH"},
        {"hand": "3D 9D 9C", "faceup": "AC AD AH"},
    ])
    lines = run_trace([deck, deck], players=4, lowest_starts=True)
    assert non_swap(lines)[0] == P(0, "hand", "3")
    round2 = [ln for ln in non_swap(lines) if ln.startswith('{"round": 2')]
    assert round2[0] == P(3, "hand", "3", round_no=2)


def test_R8_V3_no_ordinary_rank_in_any_hand_left_of_dealer_starts():
    """R8: if no hand holds an ordinary rank (all 2s and 10s, two decks), the player
    left of the dealer starts: seat 0 in round 1, seat 1 in round 2."""
    deck = build_deck([{"hand": "2C 2D 2H", "faceup": "2S 10C 10D"},
                       {"hand": "2C 2D 2H", "faceup": "2S 10H 10S"}], decks=2)
    lines = non_swap(run_trace([deck, deck], players=2, decks=2, lowest_starts=True))
    assert lines[0] == P(0, "hand", "2", 3)
    round2 = [ln for ln in lines if ln.startswith('{"round": 2')]
    assert round2[0] == P(1, "hand", "2", 3, round_no=2)


def test_R8_starter_may_play_any_legal_card():
    """R8: the lowest-rank starter is not forced to play that rank (without V12)."""
    seats = seats_with(4, 2, scripted({0: play(R["8"], 1, 0)}))
    lines = non_swap(run_trace(LOWEST_DECK, strategies=seats, players=4, lowest_starts=True))
    assert lines[0] == P(2, "hand", "8")


# ---- R9..R12: the pile --------------------------------------------------------

def test_R9_a_play_is_k_cards_of_one_rank():
    """R9: a play is k >= 1 cards of one rank (basic plays all its copies: 5C 5D)."""
    deck = two_player_deck("5C 5D 9C", "AC AD AH", "6H 7H 8H", "2H 2S 10D", talon="")
    result, lines = run_match(deck, players=2)
    assert non_swap(lines)[:2] == [P(0, "hand", "5", 2), P(1, "hand", "6")]
    assert cards_of(result.events[2]) == ["5C", "5D"]
    seats = seats_with(2, 0, scripted({0: play(R["5"], 0, 0)}, label="probe"))
    with pytest.raises(IllegalMoveError) as err:
        run_match(deck, strategies=seats, players=2, seed=3, game=1)
    assert ILLEGAL_REASONS[ILLEGAL_ZERO_COUNT] in str(err.value)


def test_R10_two_may_be_played_on_anything():
    """R10: a 2 may be played on an ace (where the 3 and 4 may not)."""
    deck = two_player_deck("AC AD AH", "10C 10D 10H", "2S 3C 4C", "2C 2D 2H")
    assert non_swap(run_trace(deck, players=2))[:3] == [
        P(0, "hand", "A", 3), P(1, "hand", "2"), P(0, "hand", "5")]


TEN_ON_ACES = two_player_deck("AC AD AH", "2C 2D 2H", "10S 3C 4C", "10C 10D 10H")


def test_R10_ten_may_be_played_on_anything():
    """R10: a 10 may be played on an ace; it burns (R12, R16) and seat 1 plays again."""
    assert non_swap(run_trace(TEN_ON_ACES, players=2))[:3] == [
        P(0, "hand", "A", 3), P(1, "hand", "10", burn=True), P(1, "hand", "3")]


def test_R11_empty_pile_equal_or_higher_rank_else_pick_up():
    """R11: an equal rank may follow (8 on 8); a lower one may not (3, 4, 5 on 8: pick
    up); on the empty pile after a pickup any rank may be played (a 7)."""
    deck = build_deck([
        {"hand": "8C QC KC", "faceup": "AC AD 2C"},
        {"hand": "8D 9D 3D", "faceup": "QD KD AS"},
        {"hand": "3H 4H 5H", "faceup": "10C 10D 10H"},
    ], talon="7C 6C 6D")
    assert non_swap(run_trace(deck, players=3))[:4] == [
        P(0, "hand", "8"), P(1, "hand", "8"), U(2, 2), P(0, "hand", "7")]


def test_R11_anything_may_follow_a_two():
    """R11: on a 2 anything may follow (the 3C in the walkthrough)."""
    lines = non_swap(run_trace(WALKTHROUGH, players=3))
    assert lines[2:4] == [P(2, "hand", "2"), P(0, "hand", "3")]


@pytest.mark.parametrize("low_rank", [None, 7, 9])
@pytest.mark.parametrize("ten_only_on_lower", [False, True])
def test_R10_R11_V1_V2_V6_compiled_legality_is_may_follow(low_rank, ten_only_on_lower):
    """The compiled legality of strategies and engine (``legal_mask``, ``rank_is_legal``) is the
    reference engine's ``may_follow`` for every pile top and rank."""
    from idiotsim.game.reference import may_follow
    from idiotsim.game.moves import legal_mask, rank_is_legal
    rules = Rules(players=4, low_rank=low_rank, ten_only_on_lower=ten_only_on_lower)
    for top in range(-1, NR):
        mask = legal_mask(top, rules.low_rank_id, ten_only_on_lower)
        for rank in range(NR):
            want = may_follow(rank, None if top < 0 else top, rules)
            assert bool(mask >> rank & 1) == want, (top, rank)
            assert rank_is_legal(rank, top, rules.low_rank_id, ten_only_on_lower) == want, (top, rank)


def test_R12_two_stays_on_the_pile_and_ten_may_follow_it():
    """R12: a 2 stays on the pile (three 2s lie there, not burned), a 10 may be played
    on it and burns the pile, so a 10 is never on top (two decks)."""
    deck = build_deck([{"hand": "2C 2D 2H", "faceup": "2S 2C 2D"},
                       {"hand": "10C 10D 10H", "faceup": "10S 10C 10D"}], decks=2)
    piles = []

    def observer(event, rnd):
        if event["action"] in ("play", "pickup"):
            piles.append([c // 4 for c in rnd.pile])

    lines = non_swap(run_trace(deck, players=2, decks=2, observer=observer))
    assert lines[:2] == [P(0, "hand", "2", 3), P(1, "hand", "10", 3, burn=True)]
    assert piles[:2] == [[R["2"]] * 3, []]
    assert json.loads(lines[2])["seat"] == 1


# ---- R13..R15: a turn -------------------------------------------------------------

def test_R13_source_hand_then_faceup_then_blind():
    """R13: cards come from the hand while it holds any, then from the face-up cards,
    then from the blind cards (showcase round: seat 3 plays hand, face-up, blind)."""
    lines = non_swap(run_trace(SHOWCASE, players=5))
    seat3 = [json.loads(ln)["from"] for ln in lines if json.loads(ln).get("seat") == 3 and "from" in ln]
    assert seat3 == ["hand", "faceup", "blind", "blind", "blind"]


def test_R13_R14_after_a_pickup_the_hand_is_played_before_the_faceup_cards():
    """R13/R14: seat 3, in its face-up phase (7S 8S 9S) with a J on the pile, picks up
    the pile; its face-up cards stay and it next plays from the hand again."""
    seats = [dict(s) for s in SHOWCASE_SEATS]
    seats[0]["blind"], seats[1]["blind"], seats[2]["blind"] = "4S KS 10C", "5S AS 10D", "10H JH JS"
    seats[3] = {"hand": "6C 6D 6H", "faceup": "7S 8S 9S", "blind": "10S 2C 2D"}
    deck = build_deck(seats, talon=SHOWCASE_TALON)
    lines = run_trace(deck, players=5)
    assert lines[3] == swap_line(3, ["7", "8", "9"], ["6", "6", "6"])
    assert non_swap(lines)[:14] == SHOWCASE_DRAIN + [
        U(3, 22),
        P(4, "faceup", "Q", 3), P(0, "faceup", "K", 3), P(1, "faceup", "A", 3), P(2, "faceup", "2", 2),
        P(3, "hand", "3", 3),
    ]


def test_R14_voluntary_pickup_and_next_player_starts_a_new_pile():
    """R14: picking up is allowed even when a play is possible (seat 1 holds JD JS on
    the 8C); the next player starts a new, empty pile (any rank: 4C)."""
    seats = seats_with(3, 1, scripted({1: PICKUP}))
    assert non_swap(run_trace(WALKTHROUGH, strategies=seats, players=3))[:3] == [
        P(0, "hand", "8"), U(1, 1), P(2, "hand", "4")]


def _illegal(deck, players, seat, script, reason, **rules):
    seats = seats_with(players, seat, scripted(script, label="probe"))
    with pytest.raises(IllegalMoveError) as err:
        run_match(deck, strategies=seats, players=players, seed=11, game=5, **rules)
    msg = str(err.value)
    assert "'probe'" in msg, msg
    assert f"seat {seat}" in msg, msg
    assert "game 5" in msg and "seed 11" in msg, msg
    assert ILLEGAL_REASONS[reason] in msg, msg
    return msg


def test_R14_pickup_of_empty_pile_is_illegal():
    """R14: with an empty pile every rank is legal, so the player must play."""
    _illegal(WALKTHROUGH, 3, 0, {0: PICKUP}, ILLEGAL_EMPTY_PICKUP)


def test_R9_R13_playing_a_rank_not_held_is_illegal():
    """R9/R13: seat 0's aces lie face-up, so while it holds a hand it cannot play an A."""
    _illegal(WALKTHROUGH, 3, 0, {0: play(R["A"], 1, 0)}, ILLEGAL_NOT_HELD)


def test_R11_playing_a_rank_not_legal_on_the_pile_is_illegal():
    """R11: seat 2 may not play its 4 on the two jacks."""
    _illegal(WALKTHROUGH, 3, 2, {2: play(R["4"], 1, 0)}, ILLEGAL_NOT_LEGAL)


def test_R15_voluntary_pickup_in_blind_phase_is_illegal():
    """R15: a blind-phase player may not pick up voluntarily (seat 4, after action 16
    of the showcase round, holds only blind cards; the pile is not empty)."""
    seats = seats_with(5, 4, scripted({16: PICKUP}, label="probe"))
    with pytest.raises(IllegalMoveError) as err:
        run_match(SHOWCASE, strategies=seats, players=5, seed=11, game=5)
    msg = str(err.value)
    assert "'probe'" in msg and "seat 4" in msg and "game 5" in msg and "seed 11" in msg


def test_R15_voluntary_pickup_in_blind_phase_reports_that_reason():
    """R15: the error names the broken rule: strategy_api defines the reason
    ILLEGAL_BLIND_PICKUP ("voluntary pickup in the blind phase") for this move."""
    _illegal(SHOWCASE, 5, 4, {16: PICKUP}, ILLEGAL_BLIND_PICKUP)


def test_R15_blind_flip_played_if_legal_else_taken_with_the_pile():
    """R15: a legal blind card is played as a one-card play; an illegal one (9S on
    an A) is taken into the hand with the pile (20 cards + the 9 = 21)."""
    lines = non_swap(run_trace(SHOWCASE, players=5))
    assert P(4, "blind", "3") in lines
    assert U(2, 21, "blind", "9") in lines


def test_R15_blind_position_is_the_players_choice():
    """R15: the player chooses which blind card to flip: seat 4 flips position 2
    (6S) first instead of position 0 (3S)."""
    seats = seats_with(5, 4, scripted({16: 2}))
    lines = non_swap(run_trace(SHOWCASE, strategies=seats, players=5))
    assert lines[16:18] == [O(3, 1), P(4, "blind", "6")]


# ---- R16..R18: after a play, outs, end ----------------------------------------------

def test_R16_burn_then_same_player_plays_again():
    """R16.2/R16.4: a 10 burns the pile and the same player acts again on the empty pile."""
    result, lines = run_match(TEN_ON_ACES, players=2)
    assert non_swap(lines)[:3] == [
        P(0, "hand", "A", 3), P(1, "hand", "10", burn=True), P(1, "hand", "3")]
    assert result.rounds[0].burns >= 1


def test_R16_four_of_a_rank_on_top_burn_across_players():
    """R16.2: the top four cards of one rank burn the pile, counting earlier plays by
    anyone: 5C 5D (seat 0), 5H (seat 1), 5S (seat 2) burns; seat 2 plays again."""
    deck = build_deck([
        {"hand": "5C 5D KC", "faceup": "AC AD AH"},
        {"hand": "5H QD KD", "faceup": "AS 2C 2D"},
        {"hand": "5S 9H JH", "faceup": "2H 2S 10C"},
    ], talon="6C 6D 7C 7D 8C")
    assert non_swap(run_trace(deck, players=3))[:4] == [
        P(0, "hand", "5", 2), P(1, "hand", "5"), P(2, "hand", "5", burn=True), P(2, "hand", "7")]


def test_R16_draw_up_to_three_while_the_talon_lasts():
    """R16.1: after a play the hand is refilled to 3 cards while the talon lasts; seat 2
    plays 5C 5D 5H with one card left in the talon and so holds one card (JC)."""
    hands = []

    def observer(event, rnd):
        if event["action"] == "play":
            hands.append((event["seat"], len(rnd.players[event["seat"]].hand), len(rnd.talon)))

    lines = non_swap(run_trace(SHOWCASE, players=5, observer=observer))
    assert hands[:4] == [(0, 3, 4), (1, 3, 1), (2, 1, 0), (3, 0, 0)]
    assert lines[7] == P(2, "hand", "J", 1)


def test_R16_out_player_never_acts_again_even_after_a_burn():
    """R16.3/R16.4: seat 3's last card is a blind 10: the pile burns, seat 3 is out
    (place 1) and the next player, not seat 3, acts on the empty pile."""
    seats = [dict(s) for s in SHOWCASE_SEATS]
    seats[3] = dict(seats[3], blind="2C 2D 10S")
    lines = non_swap(run_trace(build_deck(seats, talon=SHOWCASE_TALON), players=5))
    assert lines[8:22] == [
        P(3, "faceup", "10", 3, burn=True), P(3, "blind", "2"),
        P(4, "faceup", "Q", 3), P(0, "faceup", "K", 3), P(1, "faceup", "A", 3), P(2, "faceup", "2", 2),
        P(3, "blind", "2"),
        P(4, "blind", "3"), P(0, "blind", "4"), P(1, "blind", "5"), P(2, "faceup", "J"),
        P(3, "blind", "10", burn=True), O(3, 1),
        P(4, "blind", "Q"),
    ]


def test_R16_R17_R18_showcase_round():
    """R16.3 (out gets the next place), R17 (the unburned pile stays when seat 3 goes
    out: seat 4 plays on it and seat 2 later picks up 21 cards), R18 (the round ends
    when one player holds cards; seat 2, with no out line, is the Idiot, place 5)."""
    result, lines = run_match(SHOWCASE, players=5)
    assert lines == SHOWCASE_SWAPS + SHOWCASE_PLAYS
    assert result.rounds[0].places == [3, 4, 5, 1, 2]
    assert result.places == [3, 4, 5, 1, 2]
    assert not result.stalled


def test_R17_unburned_pile_stays_for_the_next_player():
    """R17: seat 3 goes out on 2H 2S 2D (not burned): seat 4 plays its 3 on that pile,
    which is not emptied: the pile keeps growing until seat 2 picks it up."""
    piles = []

    def observer(event, rnd):
        if event["action"] in ("out", "play"):
            piles.append((event["action"], event["seat"], len(rnd.pile)))

    run_match(SHOWCASE, players=5, observer=observer)
    i = piles.index(("out", 3, 13))
    assert piles[i + 1] == ("play", 4, 14)


# ---- R19, R20: scoring, action limit --------------------------------------------------

def test_R19_places_summed_lowest_total_wins_ties_share_better_position():
    """R19: totals are summed over rounds, the lowest total wins, equal totals share
    the better position. Round 2 deals round 1's deck with seats 0 and 1 exchanged
    and seat 1 starts (R7), so it mirrors round 1: totals 3 and 3, both first."""
    deck = shuffled_deck(8, 0, 0, 1).tolist()
    mirror = deck[3:6] + deck[0:3] + deck[9:12] + deck[6:9] + deck[15:18] + deck[12:15] + deck[18:]
    result, lines = run_match([deck, mirror], players=2)
    r1, r2 = result.rounds[0].places, result.rounds[1].places
    assert r2 == r1[::-1]
    assert result.totals == [3, 3]
    assert result.places == [1, 1]
    assert match_positions([5, 4, 9]) == [2, 1, 3]
    assert match_positions([4, 4, 2]) == [2, 2, 1]
    assert match_positions([6, 3, 6, 3]) == [3, 1, 3, 1]


def test_R20_stalled_round_places_by_fewest_cards_then_turn_order_from_starter():
    """R20: after 3 actions (limit 3) seat 2 (the V3 starter) and seats 3 and 1 hold 9
    cards, seat 0 holds 13: ties go by turn order from the starter (2, 3, 0, 1)."""
    result, lines = run_match(LOWEST_DECK, players=4, lowest_starts=True, action_limit=3)
    assert non_swap(lines) == [P(2, "hand", "3"), P(3, "hand", "A", 3), U(0, 4), E([4, 3, 1, 2], stalled=True)]
    assert result.stalled and result.rounds[0].stalled and result.rounds[0].actions == 3


def test_R20_stalled_round_keeps_places_of_players_out():
    """R20: seat 3 went out first and keeps place 1; the rest by cards held: seats 0
    and 4 hold 2 (seat 0 first from starter 0), seat 1 holds 3, seat 2 holds 4.
    No out line is written for players still in."""
    result, lines = run_match(SHOWCASE, players=5, action_limit=18)
    assert non_swap(lines)[16:] == [O(3, 1), P(4, "blind", "3"), P(0, "blind", "4"),
                                    E([2, 4, 5, 1, 3], stalled=True)]
    assert result.rounds[0].actions == 18


def test_R20_actions_count_plays_and_pickups_only():
    """R20: an action is a play or a pickup (a failed blind flip included); swaps and
    outs are not actions. The showcase round has 27 actions; a limit of 27 does not stall it."""
    result, lines = run_match(SHOWCASE, players=5, action_limit=27)
    assert result.rounds[0].actions == 27 == len(actor_seats(lines))
    assert not result.stalled and lines[-1] == E([3, 4, 5, 1, 2])
    result, lines = run_match(SHOWCASE, players=5, action_limit=26)
    assert result.stalled and json.loads(lines[-1])["stalled"] is True


# ---- variants ------------------------------------------------------------------------

def test_V1_after_a_seven_play_seven_or_lower():
    """V1: after a 7 the next play must be <= 7 (or a 2 or 10): seat 1 holding 5, 8, 9
    plays the 5 (without V1 it plays the 8)."""
    deck = two_player_deck("7C QC KC", "AC AD 2C", "5D 8D 9D", "AS 2H 2S", talon="JC 3C 4C")
    assert non_swap(run_trace(deck, players=2, low_rank=7))[:2] == [P(0, "hand", "7"), P(1, "hand", "5")]
    assert non_swap(run_trace(deck, players=2))[:2] == [P(0, "hand", "7"), P(1, "hand", "8")]


def test_V1_seven_on_seven_passes_on_and_two_clears():
    """V1: a 7 on a 7 passes the constraint on (seat 2's 8 and 9 may not follow);
    a 2 on the 7 clears it (seat 0 plays a J on the 2)."""
    deck = build_deck([
        {"hand": "7C QC KC", "faceup": "AC AD AH"},
        {"hand": "7H 8H 9H", "faceup": "AS KD KH"},
        {"hand": "8S 9S 2S", "faceup": "10C 10D 10H"},
    ], talon="JC 4C 5C 6C")
    assert non_swap(run_trace(deck, players=3, low_rank=7))[:4] == [
        P(0, "hand", "7"), P(1, "hand", "7"), P(2, "hand", "2"), P(0, "hand", "J")]


def test_V1_ten_may_follow_a_seven():
    """V1: after a 7 a 10 may still be played (seat 1's 8 and 9 may not): it burns and
    seat 1 plays again; without V1 seat 1 plays its 8."""
    deck = two_player_deck("7C 7D 7H", "2C 2D 2H", "10S 8C 9C", "10C 10D 10H", talon="3C 4C 5C 6C")
    assert non_swap(run_trace(deck, players=2, low_rank=7))[:3] == [
        P(0, "hand", "7", 3), P(1, "hand", "10", burn=True), P(1, "hand", "6")]
    assert non_swap(run_trace(deck, players=2))[:2] == [P(0, "hand", "7", 3), P(1, "hand", "8")]


V1_BLIND_DECK = build_deck([
    {"hand": "3C 3D 3H", "faceup": "AC AD AH"},
    {"hand": "4C 4D 4H", "faceup": "2C 2D 2H"},
    {"hand": "5C 5D 5H", "faceup": "7D 7H QD"},
    {"hand": "6C 6D 6H", "faceup": "10C 10D 10H", "blind": "7C JS"},
    {"hand": "8C 8D 8H", "faceup": "KC KD KH"},
], talon="9C 9D 9H JC JD JH QC")


def test_V1_binds_faceup_plays_and_blind_flips():
    """V1: the low 7 binds every source: seat 4's face-up kings may not follow seat 3's
    blind 7 (pick up), and seat 3's blind JS on seat 2's sevens is taken with the pile."""
    lines = non_swap(run_trace(V1_BLIND_DECK, players=5, low_rank=7))
    assert lines[:16] == [
        P(0, "hand", "3", 3), P(1, "hand", "4", 3), P(2, "hand", "5", 3), P(3, "hand", "6", 3),
        P(4, "hand", "8", 3), P(0, "hand", "9", 3), P(1, "hand", "J", 3), P(2, "hand", "Q"),
        P(3, "faceup", "10", 3, burn=True), P(3, "blind", "7"),
        U(4, 1),
        P(0, "faceup", "A", 3), P(1, "faceup", "2", 3), P(2, "faceup", "7", 2),
        U(3, 9, "blind", "J"),
        P(4, "hand", "7"),
    ]
    assert non_swap(run_trace(V1_BLIND_DECK, players=5))[10] == P(4, "faceup", "K", 3)


def test_V2_after_a_nine_play_nine_or_lower():
    """V2: with low_rank 9, after a 9 seat 1 plays its 8 (without V2, its J); after
    the 8 the usual order applies (seat 0 plays its Q, not its 7)."""
    deck = two_player_deck("9C QC KC", "AC AD 2C", "8D JD QD", "AS 2H 2S", talon="7C 3C 4C")
    assert non_swap(run_trace(deck, players=2, low_rank=9))[:3] == [
        P(0, "hand", "9"), P(1, "hand", "8"), P(0, "hand", "Q")]
    assert non_swap(run_trace(deck, players=2))[:2] == [P(0, "hand", "9"), P(1, "hand", "J")]


def test_V4_rounds_sum_places():
    """V4/R19: a match of 1..10 rounds (one deck each); each round ends with its own
    end line and the totals are the summed places."""
    decks = [shuffled_deck(31, 2, r, 1) for r in range(3)]
    result, lines = run_match(decks, players=4, seed=31, game=2)
    ends = [json.loads(ln) for ln in lines if '"action": "end"' in ln]
    assert [e["round"] for e in ends] == [1, 2, 3]
    assert result.totals == [sum(e["places"][s] for e in ends) for s in range(4)]
    assert result.places == match_positions(result.totals)
    for bad in (0, 11):
        with pytest.raises(UserError):
            Rules(players=4, rounds=bad)


def test_V5_chance_legal_card_is_played_from_the_talon():
    """V5: instead of picking up, seat 1 turns the talon's top card, the 10S: legal on
    the 8C, so it is played (it burns, R16) and seat 1 plays again."""
    seats = seats_with(3, 1, scripted({1: CHANCE}))
    assert non_swap(run_trace(WALKTHROUGH, strategies=seats, players=3, chance=True))[:3] == [
        P(0, "hand", "8"), P(1, "talon", "10", burn=True), P(1, "hand", "4")]


def test_V5_chance_illegal_card_is_picked_up_with_the_pile():
    """V5: the turned card (4D on the 8C) is not legal: seat 1 takes the pile and it."""
    deck = build_deck([
        {"hand": "8C QC KC", "faceup": "AC AD 2C"},
        {"hand": "JD JS 4H", "faceup": "QD KD AS"},
        {"hand": "2H 4C 5C", "faceup": "10C 10D 10H"},
    ], talon="3C 4D 6D 7D")
    seats = seats_with(3, 1, scripted({1: CHANCE}))
    assert non_swap(run_trace(deck, strategies=seats, players=3, chance=True))[:3] == [
        P(0, "hand", "8"), U(1, 2, "talon", "4"), P(2, "hand", "4")]


def test_V5_chance_only_when_allowed():
    """V5: chance only with the rule on, and only instead of a pickup (not on an empty pile)."""
    _illegal(WALKTHROUGH, 3, 1, {1: CHANCE}, ILLEGAL_CHANCE)
    _illegal(WALKTHROUGH, 3, 0, {0: CHANCE}, ILLEGAL_CHANCE, chance=True)


def test_V5_basic_never_uses_chance():
    """V5 + basic: basic never turns a talon card, so the rule does not change its games."""
    for seed in (1, 2):
        deck = shuffled_deck(seed, 0, 0, 1)
        assert run_trace(deck, players=4, chance=True) == run_trace(deck, players=4)


def test_V6_ten_not_on_jack_or_higher():
    """V6: a 10 may not be played on J, Q, K or A: seat 1 picks up the aces instead."""
    assert non_swap(run_trace(TEN_ON_ACES, players=2, ten_only_on_lower=True))[:2] == [
        P(0, "hand", "A", 3), U(1, 3)]


@pytest.mark.parametrize("top", ["5", "6", "7", "8", "9", "J", "Q", "K", "A"])
def test_V6_ten_only_on_three_to_nine(top):
    """V6: a 10 may be played on 3..9 (it burns, seat 1 plays again) but not on
    J, Q, K or A (seat 1, holding 10S 3C 4C, picks up the three cards)."""
    deck = two_player_deck(f"{top}C {top}D {top}H", "2C 2D 2H", "10S 3C 4C", "10C 10D 10H", talon="")
    lines = non_swap(run_trace(deck, players=2, ten_only_on_lower=True))
    if top in "JQKA":
        assert lines[:2] == [P(0, "hand", top, 3), U(1, 3)]
    else:
        assert lines[:3] == [P(0, "hand", top, 3), P(1, "hand", "10", burn=True), P(1, "hand", "3")]


def test_V6_binds_faceup_tens():
    """V6: seat 3's face-up 10s may not follow seat 2's JC in the showcase round, so
    seat 3 (face-up phase, no 2) takes the 22-card pile instead of burning it."""
    lines = non_swap(run_trace(SHOWCASE, players=5, ten_only_on_lower=True))
    assert lines[:9] == SHOWCASE_DRAIN + [U(3, 22)]


def test_V6_ten_on_two_allowed():
    """V6: a 10 may be played on a 2 (two decks: seat 0 holds only 2s, seat 1 only 10s)."""
    deck = build_deck([{"hand": "2C 2D 2H", "faceup": "2S 2C 2D"},
                       {"hand": "10C 10D 10H", "faceup": "10S 10C 10D"}], decks=2)
    lines = non_swap(run_trace(deck, players=2, decks=2, ten_only_on_lower=True))
    assert lines[:2] == [P(0, "hand", "2", 3), P(1, "hand", "10", 3, burn=True)]


def test_V7_two_decks_default_from_six_players():
    """V7: two decks (104 cards) are the default from 6 players on; 2..10 players may
    use them; one deck cannot serve 6 players."""
    for n in range(6, 11):
        assert Rules(players=n).decks == 2 and Rules(players=n).num_cards == 104
    assert Rules(players=3, decks=2).num_cards == 104
    with pytest.raises(UserError):
        Rules(players=6, decks=1)


def test_V7_deal_from_104_cards():
    """V7/R5: the deal from a 104-card deck, 10 players: blinds deck[3p..], talon deck[90:]."""
    deck = shuffled_deck(3, 0, 0, 2)
    assert sorted(deck.tolist()) == sorted(list(range(52)) * 2)
    seen = {}

    def observer(event, rnd):
        if not seen:
            seen["blind"] = [list(p.blind) for p in rnd.players]
            seen["talon"] = list(rnd.talon)

    result, lines = run_match(deck, players=10, observer=observer)
    d = deck.tolist()
    assert seen["blind"] == [d[3 * p: 3 * p + 3] for p in range(10)]
    assert seen["talon"] == d[90:]
    assert json.loads(lines[-1])["action"] == "end"
    assert sorted(json.loads(lines[-1])["places"]) == list(range(1, 11))


def test_V7_four_or_more_of_a_rank_burn():
    """V7: with two decks the burn fires when the top four or more cards share a rank:
    QC QD then QH QS QC (five queens) burn; seat 1 plays again."""
    deck = two_player_deck("QC QD KC", "AC AD AH", "QH QS QC", "KD KH KS", decks=2, talon="3C 4C 5C 6C 7C")
    assert non_swap(run_trace(deck, players=2, decks=2))[:3] == [
        P(0, "hand", "Q", 2), P(1, "hand", "Q", 3, burn=True), P(1, "hand", "5")]


def test_V8_idiot_deals_next_round():
    """V8: the Idiot of round 1 (seat 2 in the showcase round) deals round 2, so seat 3
    (left of seat 2) starts it; without V8 seat 1 starts (R7)."""
    decks = [SHOWCASE, shuffled_deck(40, 0, 1, 1)]
    for idiot_deals, starter in ((True, 3), (False, 1)):
        lines = run_trace(decks, players=5, idiot_deals=idiot_deals)
        round2 = [json.loads(ln) for ln in lines if ln.startswith('{"round": 2')]
        assert [e["action"] for e in round2[:5]] == ["swap"] * 5
        assert round2[5]["seat"] == starter


def test_V9_after_a_burn_the_turn_passes():
    """V9: with burn_plays_again off, after seat 1's 10 burns the pile seat 0 plays next."""
    assert non_swap(run_trace(TEN_ON_ACES, players=2, burn_plays_again=False))[:3] == [
        P(0, "hand", "A", 3), P(1, "hand", "10", burn=True), P(0, "hand", "5")]


SIXES = build_deck([
    {"hand": "6C 9C QC", "faceup": "AC AD AH"},
    {"hand": "6D 6H KD", "faceup": "AS 2C 2D"},
    {"hand": "6S 7S 8S", "faceup": "2H 2S 10C"},
], talon="3C 4C 5C 7C")


def test_V10_three_sixes_burn():
    """V10: with six_burn 3, 6C then 6D 6H on top burn the pile and seat 1 plays again;
    without it only the fourth 6 (seat 2's 6S) burns (R16.2)."""
    assert non_swap(run_trace(SIXES, players=3, six_burn=3))[:3] == [
        P(0, "hand", "6"), P(1, "hand", "6", 2, burn=True), P(1, "hand", "4")]
    assert non_swap(run_trace(SIXES, players=3))[:4] == [
        P(0, "hand", "6"), P(1, "hand", "6", 2), P(2, "hand", "6", burn=True), P(2, "hand", "7", 2)]


def test_V10_two_sixes_do_not_burn():
    """V10: two 6s on top do not burn."""
    deck = build_deck([
        {"hand": "6C 9C QC", "faceup": "AC AD AH"},
        {"hand": "6D 8H KD", "faceup": "AS 2C 2D"},
        {"hand": "6S 7S 8S", "faceup": "2H 2S 10C"},
    ], talon="3C 4C 5C 7C")
    assert non_swap(run_trace(deck, players=3, six_burn=3))[:3] == [
        P(0, "hand", "6"), P(1, "hand", "6", burn=False), P(2, "hand", "6", burn=True)]


def test_V11_faceup_cards_join_the_play_that_empties_the_hand():
    """V11: seat 2's last hand card JC (talon empty) takes its face-up JD along: one
    play of 2 jacks from the hand. Seat 2's 5s emptied the hand with a card still in
    the talon, and seat 3's 6s had no face-up 6 to add."""
    result, lines = run_match(SHOWCASE, players=5, last_hand_with_faceup=True)
    assert non_swap(lines)[:8] == SHOWCASE_DRAIN[:7] + [P(2, "hand", "J", 2)]
    plays = [e for e in result.events if e["action"] == "play"]
    assert cards_of(plays[7]) == ["JC", "JD"]


def test_V11_extra_faceup_cards_only_when_the_hand_is_emptied():
    """V11: adding face-up cards to a play that does not empty the hand (or with the
    rule off) is illegal."""
    _illegal(SHOWCASE, 5, 2, {7: play(R["J"], 1, 1)}, ILLEGAL_EXTRA)  # rule off
    _illegal(SHOWCASE, 5, 2, {2: play(R["5"], 2, 1)}, ILLEGAL_EXTRA, last_hand_with_faceup=True)


def test_V12_opening_play_must_include_lowest_rank():
    """V12: with lowest_starts, the starter's first play must be of its lowest ordinary
    rank (seat 2's 3, not its 8); basic opens with it anyway."""
    _illegal(LOWEST_DECK, 4, 2, {0: play(R["8"], 1, 0)}, ILLEGAL_OPENING, lowest_starts=True,
             opening_lowest=True)
    assert non_swap(run_trace(LOWEST_DECK, players=4, lowest_starts=True, opening_lowest=True))[0] == \
        P(2, "hand", "3")
    with pytest.raises(UserError):
        Rules(players=4, opening_lowest=True)


def test_V12_only_the_opening_play_is_bound():
    """V12: the constraint binds only the starter's first play: on the empty pile after
    seat 0's pickup (action 3), seat 1 may open with any rank."""
    seats = seats_with(4, 1, scripted({3: play(R["6"], 1, 0)}))
    lines = non_swap(run_trace(LOWEST_DECK, strategies=seats, players=4, lowest_starts=True, opening_lowest=True))
    assert lines[:4] == [P(2, "hand", "3"), P(3, "hand", "A", 3), U(0, 4), P(1, "hand", "6")]
