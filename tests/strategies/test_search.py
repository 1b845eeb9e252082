"""The search player (issue 13): determinization, rollouts, the move lists, and the player itself.

Positions come from games of the reference engine (``idiotsim.analysis.replayed_states.decision_positions``), so the engine
states built here are checked against the executable spec, not against the engine they feed.

- Rollouts: from the true state of a game of `basic` players, `engine.play_on` with `basic` gives
  every seat the place it got in the game as played (R16.3, R18, R20); whole cycles skipped by
  Brent's check give the same place as playing them out to the action limit (R20).
- Determinization (`sampler.sample_state`): every sample is a legal state (card conservation, R1/V7;
  every size as observed; KNOWN cards in their hands); the true hidden cards are exactly the pool
  the sample is dealt from, so the true state is a possible sample; samples are uniform (chi-square
  on small endgames); a sample depends only on what the seat has seen.
- Moves: every legal move (R9-R15, V5, V11, V12), `basic`'s first.
- The player: both engines give the same trace and observations with `search` seated, in every
  variant of the engine equality tests; it beats `basic` by a wide margin at small K.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from test_engine_equality import VARIANTS, compare_game

from idiotsim.engine import state_layout as layout
from idiotsim.engine.hidden_cards import TABLE_SIZE, table_of_observation
from idiotsim.game import observation as ob
from idiotsim.strategies.search import pimc as search
from idiotsim.game.basic_player import list_moves_basic_first
from idiotsim.strategies.search import sampler
from idiotsim.strategies.search import search_knobs
from idiotsim.analysis.replayed_states import decision_positions
from idiotsim.errors import UserError
from idiotsim.game.observation import NR
from idiotsim.game.reference import legal_ranks
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_games, play_seated, trace_game
from idiotsim.strategies.search import PERFECT_INFO, STRATEGY
from idiotsim.game.moves import CHANCE, PICKUP, play
from idiotsim.strategies.loading import SeatStrategy, load_strategies, load_strategy

FAMILY_FILE = Path(__file__).resolve().parents[2] / "strategies" / "search" / "__init__.py"
SEED = 4242
# Rules the position tests sample from: the default, the variants that change what is hidden or
# what may be played, and two decks with many players (V7).
POSITION_RULES = [
    Rules(players=4),
    Rules(players=2),
    Rules(players=3, chance=True),
    Rules(players=5, last_hand_with_faceup=True, low_rank=7),
    Rules(players=4, lowest_starts=True, opening_lowest=True, ten_only_on_lower=True),
    Rules(players=7, decks=2),
]


def positions(rules: Rules, games: range, spec: str = "basic") -> list:
    found = []
    for g in games:
        found += decision_positions(rules, spec, SEED, g)
    return found


def rules_id(rules: Rules) -> str:
    changed = [k for k, v in rules.as_dict().items() if k != "players" and v != getattr(Rules(players=2), k)]
    return f"{rules.players}p-" + ("-".join(changed) or "default")


@pytest.fixture(scope="module", params=POSITION_RULES, ids=rules_id)
def rules_positions(request):
    """Every 3rd decision of 6 games of `basic` with one `random` seat (it picks up by choice and so
    makes KNOWN cards and long hands)."""
    rules = request.param
    spec = ",".join("random" if s == 1 else "basic" for s in range(rules.players))
    return rules, positions(rules, range(6), spec)[::3]


# ---- rollouts ------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [Rules(players=4), Rules(players=3, burn_plays_again=False, six_burn=3),
                                   Rules(players=6, decks=2, chance=True)], ids=["4p", "3p-V9-V10", "6p-V7-V5"])
def test_rollout_from_the_true_state_ends_as_the_game_did(rules):
    """R16.3/R18: `play_on` with `basic` everywhere from any decision of an all-`basic` game."""
    failures = []
    for g in range(12):
        for pos in decision_positions(rules, "basic", SEED, g)[::4]:
            for searcher in range(rules.players):
                if pos["obs"][ob.PLACE + searcher]:
                    continue
                place = search.rollout_place(pos["state"].copy(), pos["seat"], searcher, search_knobs.POLICY_BASIC, True)
                if place != pos["places"][searcher]:
                    failures.append((g, pos["obs"][ob.ACTIONS], searcher, place, pos["places"][searcher]))
    assert not failures, failures[:5]


def stalled_position(rules: Rules):
    """A decision some actions into the first all-`basic` game that stalls (R20), and that game."""
    result = play_games(rules, [SeatStrategy("basic", *_basic())] * rules.players, SEED, 0, 2000)
    game = int(np.flatnonzero(result["stalled"])[0])
    return decision_positions(rules, "basic", SEED, game)[10]


def _basic():
    from idiotsim.strategies.basic import STRATEGY as BASIC
    return BASIC, BASIC.params()


def test_skipped_cycles_give_the_place_of_playing_to_the_action_limit():
    """R20: a stalled game of `basic` (V1 makes them common: 0.7% of 4-player games); the rollout
    that skips whole cycles skips most actions and gives every seat the place of the one that plays
    every action, which is the game's place."""
    rules = Rules(players=4, low_rank=7, action_limit=3000)
    pos = stalled_position(rules)
    stalled_seats = 0
    for searcher in range(rules.players):
        skipping, playing = pos["state"].copy(), pos["state"].copy()
        place = search.rollout_place(skipping, pos["seat"], searcher, search_knobs.POLICY_BASIC, True)
        assert place == search.rollout_place(playing, pos["seat"], searcher, search_knobs.POLICY_BASIC, False)
        assert place == pos["places"][searcher]
        assert playing[layout.SKIPPED] == 0
        if playing[ob.ACTIONS] == rules.action_limit:  # still in at the stall (not out before it)
            stalled_seats += 1
            assert skipping[ob.ACTIONS] == rules.action_limit
            assert skipping[layout.SKIPPED] > rules.action_limit // 2
    assert stalled_seats >= 2


# ---- determinization -------------------------------------------------------------------------

def sample(obs, hand, seed: int) -> np.ndarray:
    st = np.zeros(layout.STATE_SIZE, np.int64)
    pool = np.zeros(layout.MAX_CARDS, np.int64)
    assert sampler.sample_state(obs, hand, np.array([seed], np.uint64), st, pool) == 0
    return st


def hands(st, n):
    return st[layout.HANDS: layout.HANDS + n * NR].reshape(n, NR)


def hidden_cards(st, seat: int) -> Counter:
    """The cards of a state `seat` cannot see: the other hands less their KNOWN cards, every blind
    card, the talon from its read position."""
    n = st[ob.PLAYERS]
    known = st[ob.KNOWN: ob.KNOWN + n * NR].reshape(n, NR)
    cards = Counter()
    for s in range(n):
        if s != seat:
            cards.update({r: int(c) for r, c in enumerate(hands(st, n)[s] - known[s]) if c})
    cards.update(int(r) for r in st[layout.BLIND: layout.BLIND + 3 * n] if r >= 0)
    cards.update(int(r) for r in st[layout.TALON + st[layout.TALON_POS]: layout.TALON + st[layout.TALON_LEN]])
    return +cards


def check_legal_state(st, obs, hand):
    """R1/V7 conservation, every size as observed, the seat's own hand, KNOWN cards in their hands."""
    n, decks = obs[ob.PLAYERS], obs[ob.DECKS]
    per_rank = (hands(st, n).sum(axis=0) + st[ob.FACEUP: ob.FACEUP + n * NR].reshape(n, NR).sum(axis=0)
                + st[ob.PILE_COUNTS: ob.PILE_COUNTS + NR] + st[ob.BURNED: ob.BURNED + NR])
    for r in st[layout.BLIND: layout.BLIND + 3 * n]:
        if r >= 0:
            per_rank[r] += 1
    for r in st[layout.TALON: layout.TALON + st[layout.TALON_LEN]]:
        per_rank[r] += 1
    assert per_rank.tolist() == [4 * decks] * NR
    assert (hands(st, n).sum(axis=1) == obs[ob.HAND_SIZE: ob.HAND_SIZE + n]).all()
    assert ((st[layout.BLIND: layout.BLIND + 3 * n] >= 0) == (obs[ob.BLIND_PRESENT: ob.BLIND_PRESENT + 3 * n] == 1)).all()
    assert st[layout.TALON_LEN] - st[layout.TALON_POS] == obs[ob.TALON_SIZE]
    assert (hands(st, n)[obs[ob.SEAT]] == hand).all()
    assert (hands(st, n) >= st[ob.KNOWN: ob.KNOWN + n * NR].reshape(n, NR)).all()
    assert (st[: ob.OBS_SIZE] == obs).all()
    assert st[layout.PLAYERS_IN] == (obs[ob.PLACE: ob.PLACE + n] == 0).sum()


def test_samples_are_legal_states_and_the_true_state_is_one_of_them(rules_positions):
    rules, found = rules_positions
    assert len(found) > 20
    for pos in found:
        obs, hand, seat = pos["obs"], pos["hand"], pos["seat"]
        check_legal_state(pos["state"], obs, hand)  # the helper itself, on the truth
        pool = np.zeros(layout.MAX_CARDS, np.int64)
        m = search.hidden_pool(obs, hand, pool)
        assert Counter(pool[:m].tolist()) == hidden_cards(pos["state"], seat)
        for k in range(3):
            st = sample(obs, hand, 1000 * k + pos["obs"][ob.ACTIONS])
            check_legal_state(st, obs, hand)
            assert hidden_cards(st, seat) == hidden_cards(pos["state"], seat)


@pytest.mark.parametrize("players, decks", [(2, 1), (4, 1), (5, 1), (8, 2)])
def test_sampled_deals_are_deals_that_keep_the_seats_own_six_cards(players, decks):
    """R5/R6 at the swap: every seat 3 hand + 3 face-up cards (the searcher's own 6 as dealt), 3 blind
    cards each, the rest in the talon, every card 4 * decks times (R1, V7)."""
    from idiotsim.game.rng import shuffled_deck
    for game in range(5):
        deck = shuffled_deck(SEED, game, 0, decks) >> 2
        seat = game % players
        obs = np.zeros(ob.OBS_SIZE, np.int64)
        obs[ob.DECISION], obs[ob.SEAT], obs[ob.PLAYERS], obs[ob.DECKS] = ob.SWAP, seat, players, decks
        obs[ob.TALON_SIZE] = 52 * decks - 9 * players
        obs[ob.FACEUP + seat * NR: ob.FACEUP + seat * NR + NR] = np.bincount(
            deck[3 * players + 3 * seat: 3 * players + 3 * seat + 3], minlength=NR)
        hand = np.bincount(deck[6 * players + 3 * seat: 6 * players + 3 * seat + 3], minlength=NR).astype(np.int64)
        st = np.zeros(layout.STATE_SIZE, np.int64)
        assert sampler.sample_deal(obs, hand, np.array([game], np.uint64), st, np.zeros(layout.MAX_CARDS, np.int64)) == 0
        hand_rows = hands(st, players)
        faceup_rows = st[layout.SWAP_FACEUP: layout.SWAP_FACEUP + players * NR].reshape(players, NR)
        assert (hand_rows.sum(axis=1) == 3).all() and (faceup_rows.sum(axis=1) == 3).all()
        assert (hand_rows[seat] == hand).all()
        assert (faceup_rows[seat] == obs[ob.FACEUP + seat * NR: ob.FACEUP + seat * NR + NR]).all()
        blind = st[layout.BLIND: layout.BLIND + 3 * players]
        talon = st[layout.TALON: layout.TALON + st[layout.TALON_LEN]]
        assert (blind >= 0).all() and len(talon) == obs[ob.TALON_SIZE]
        per_rank = hand_rows.sum(axis=0) + faceup_rows.sum(axis=0) + np.bincount(
            np.concatenate([blind, talon]), minlength=NR)
        assert per_rank.tolist() == [4 * decks] * NR


def with_hidden_cards_moved(st, seat: int, rng) -> np.ndarray:
    """Another true state that looks the same to `seat`: its hidden cards (see `hidden_cards`)
    permuted among their places."""
    other = st.copy()
    n = st[ob.PLAYERS]
    cards = [r for r, c in hidden_cards(st, seat).items() for _ in range(c)]
    rng.shuffle(cards)
    known = st[ob.KNOWN: ob.KNOWN + n * NR].reshape(n, NR)
    it = iter(cards)
    for s in range(n):
        if s != seat:
            row = known[s].copy()
            for _ in range(st[ob.HAND_SIZE + s] - known[s].sum()):
                row[next(it)] += 1
            other[layout.HANDS + s * NR: layout.HANDS + s * NR + NR] = row
    for i in range(3 * n):
        if st[layout.BLIND + i] >= 0:
            other[layout.BLIND + i] = next(it)
    for i in range(st[layout.TALON_POS], st[layout.TALON_LEN]):
        other[layout.TALON + i] = next(it)
    return other


def test_a_sample_and_a_decision_depend_only_on_what_the_seat_has_seen(rules_positions):
    """Two true states that look the same to the seat: identical samples and identical search
    decisions for the same random stream (the decision reads the state through the observation, as
    in the engine). The perfect-information player, which reads the truth, tells them apart."""
    rules, found = rules_positions
    rng = np.random.default_rng(7)
    fair = STRATEGY.params({"rollouts": 2})
    perfect_differs = 0
    for pos in found[::2]:
        truth = pos["state"]
        other = with_hidden_cards_moved(truth, pos["seat"], rng)
        check_legal_state(other, pos["obs"], pos["hand"])
        seed = int(pos["obs"][ob.ACTIONS])
        assert (sample(truth[: ob.OBS_SIZE], pos["hand"], seed)
                == sample(other[: ob.OBS_SIZE], pos["hand"], seed)).all()
        moves, streams = [], []
        for st in (truth, other):
            stream = np.array([seed], np.uint64)
            moves.append(STRATEGY.decide(st[: ob.OBS_SIZE], pos["hand"].copy(), fair, stream))
            streams.append(int(stream[0]))
        assert moves[0] == moves[1] and streams[0] == streams[1]
        perfect = [PERFECT_INFO.decide(st[: ob.OBS_SIZE], pos["hand"].copy(), fair, np.zeros(1, np.uint64))
                   for st in (truth, other)]
        perfect_differs += perfect[0] != perfect[1]
    assert perfect_differs > 0 or rules.players == 2


def arrangement(st, seat: int) -> tuple:
    """Where the hidden cards of a sample lie: the other hands, the blind positions, the talon."""
    n = st[ob.PLAYERS]
    return (tuple(hands(st, n)[s].tobytes() for s in range(n) if s != seat),
            tuple(st[layout.BLIND: layout.BLIND + 3 * n]), tuple(st[layout.TALON: layout.TALON + st[layout.TALON_LEN]]))


def exact_arrangements(pos) -> Counter:
    """The probability (times m!) of every arrangement under a uniform shuffle of the pool: deal
    each ordering of the pool as `sample_state` deals it."""
    obs, hand, seat = pos["obs"], pos["hand"], pos["seat"]
    pool = np.zeros(layout.MAX_CARDS, np.int64)
    m = search.hidden_pool(obs, hand, pool)
    counts = Counter()
    st = sample(obs, hand, 0)
    for order in itertools.permutations(range(m)):
        cards = iter(pool[list(order)])
        dealt = st.copy()
        for s in range(obs[ob.PLAYERS]):
            if s != seat:
                row = obs[ob.KNOWN + s * NR: ob.KNOWN + s * NR + NR].copy()
                for _ in range(obs[ob.HAND_SIZE + s] - row.sum()):
                    row[next(cards)] += 1
                dealt[layout.HANDS + s * NR: layout.HANDS + s * NR + NR] = row
        for i in range(3 * obs[ob.PLAYERS]):
            if obs[ob.BLIND_PRESENT + i]:
                dealt[layout.BLIND + i] = next(cards)
        for i in range(obs[ob.TALON_SIZE]):
            dealt[layout.TALON + i] = next(cards)
        counts[arrangement(dealt, seat)] += 1
    return counts


def chi_square_p_above(stat: float, df: int) -> float:
    """An upper-tail p-value of the chi-square distribution (Wilson-Hilferty)."""
    z = ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def test_samples_are_uniform_on_small_endgames():
    """Endgames with 5..7 hidden cards in at least 4 arrangements: 12,000 samples each against the
    exact arrangement probabilities; a chi-square test at 0.1% per endgame."""
    endgames = []
    for g in range(40):
        for pos in decision_positions(Rules(players=3), "basic", SEED, g):
            m = search.hidden_pool(pos["obs"], pos["hand"], np.zeros(layout.MAX_CARDS, np.int64))
            if 5 <= m <= 7:
                exact = exact_arrangements(pos)
                if len(exact) >= 4:
                    endgames.append((pos, exact))
                    break
        if len(endgames) == 3:
            break
    assert len(endgames) == 3
    for pos, exact in endgames:
        total = sum(exact.values())
        draws = 12_000
        seen = Counter(arrangement(sample(pos["obs"], pos["hand"], 77 + k), pos["seat"]) for k in range(draws))
        assert set(seen) <= set(exact)
        stat = sum((seen[a] - draws * w / total) ** 2 / (draws * w / total) for a, w in exact.items())
        assert chi_square_p_above(stat, len(exact) - 1) > 1e-3, (stat, len(exact))


# ---- moves -----------------------------------------------------------------------------------

def expected_turn_moves(pos, rules: Rules) -> set:
    """R9-R15, V5, V11, V12 written out: every (rank, count, extra), pickup, chance."""
    obs, hand, seat = pos["obs"], pos["hand"], pos["seat"]
    faceup = obs[ob.FACEUP + seat * NR: ob.FACEUP + seat * NR + NR]
    source = hand if hand.sum() else faceup
    legal = legal_ranks(None if obs[ob.PILE_TOP] < 0 else int(obs[ob.PILE_TOP]), rules)
    moves = set()
    for r in range(NR):
        if not legal >> r & 1 or (obs[ob.MUST_PLAY] >= 0 and r != obs[ob.MUST_PLAY]):
            continue
        for c in range(1, source[r] + 1):
            empties = hand.sum() > 0 and c == hand.sum() and obs[ob.TALON_SIZE] == 0
            extras = faceup[r] if rules.last_hand_with_faceup and empties else 0
            moves |= {play(r, c, e) for e in range(extras + 1)}
    if obs[ob.PILE_SIZE]:
        moves.add(PICKUP)
        if rules.chance and hand.sum() and obs[ob.TALON_SIZE]:
            moves.add(CHANCE)
    return moves


def test_turn_moves_are_every_legal_move_with_basic_first(rules_positions):
    rules, found = rules_positions
    from idiotsim.strategies.basic import decide as basic_decide
    moves = np.zeros(search.MAX_MOVES, np.int64)
    rng = np.zeros(1, np.uint64)
    several = 0
    for pos in found:
        if pos["obs"][ob.DECISION] != ob.TURN:
            continue
        n = search.list_search_moves(pos["obs"], pos["hand"], STRATEGY.params(), moves)
        listed = moves[:n].tolist()
        assert len(set(listed)) == n
        assert set(listed) == expected_turn_moves(pos, rules)
        assert listed[0] == basic_decide(pos["obs"], pos["hand"], np.zeros(1), rng)
        several += n > 1
    assert several > 5


def test_the_tens_knob_narrows_the_turn_moves_by_its_rule(rules_positions):
    """tens=1 (burn by rule): where a 10 may be played (R11, V6, V12) on a non-empty pile, the moves are
    exactly the 10 plays (every count, V11 extras), basic's count first; tens=2 (save it, basic's rule):
    no 10 while a play of another rank is legal, every other move kept. Elsewhere both list every move."""
    from idiotsim.game.cards import TEN
    rules, found = rules_positions
    moves = np.zeros(search.MAX_MOVES, np.int64)
    rng = np.zeros(1, np.uint64)
    narrowed = [0, 0, 0]
    for pos in found:
        obs, hand = pos["obs"], pos["hand"]
        if obs[ob.DECISION] != ob.TURN:
            continue
        every = expected_turn_moves(pos, rules)
        tens = {m for m in every if m >= 0 and m & 15 == TEN}
        others = {m for m in every if m >= 0 and m & 15 != TEN}
        for knob in (1, 2):
            n = search.list_search_moves(obs, hand, STRATEGY.params({"tens": knob}), moves)
            listed = moves[:n].tolist()
            assert len(set(listed)) == n
            if knob == 1 and tens and obs[ob.PILE_SIZE] > 0:
                assert set(listed) == tens
                held = max(m >> 4 & 15 for m in tens if m >> 8 == 0)
                assert listed[0] & 0xFF == TEN | held << 4  # basic plays every copy
                narrowed[1] += n < len(every)
            elif knob == 2 and tens and others:
                assert set(listed) == every - tens
                narrowed[2] += 1
            else:
                assert set(listed) == every
    assert narrowed[1] > 0 and narrowed[2] > 0, narrowed


def test_swap_moves_are_the_distinct_choices_of_three_of_six():
    moves = np.zeros(search.MAX_MOVES, np.int64)
    obs = np.zeros(ob.OBS_SIZE, np.int64)
    obs[ob.DECISION], obs[ob.PLAYERS], obs[ob.DECKS] = ob.SWAP, 4, 1
    for hand_ranks, faceup_ranks, distinct in [((1, 2, 3), (4, 5, 6), 20), ((1, 1, 3), (3, 5, 5), 7),
                                               ((0, 0, 0), (0, 8, 8), 3)]:
        hand = np.bincount(hand_ranks, minlength=NR).astype(np.int64)
        obs[ob.FACEUP: ob.FACEUP + NR] = np.bincount(faceup_ranks, minlength=NR)
        n = list_moves_basic_first(obs, hand, moves)
        six = sorted(hand_ranks + faceup_ranks)
        expected = {tuple(sorted(c)) for c in itertools.combinations(six, 3)}
        assert n == distinct == len(expected)
        assert {(m % NR, m // NR % NR, m // NR // NR) for m in moves[:n]} == expected


@pytest.mark.parametrize("objective, sums, wins, best", [
    (search_knobs.MEAN_PLACE, [20, 18, 18, 25], [3, 2, 5, 9], 1),  # lowest sum; the earlier of a tie
    (search_knobs.MEAN_PLACE, [18, 18, 19, 30], [0, 9, 9, 9], 0),  # basic's move (0) keeps a tie
    (search_knobs.WINS, [20, 18, 30, 19], [3, 5, 6, 6], 3),        # most wins, then the lowest sum
    (search_knobs.WINS, [20, 18, 30, 19], [7, 5, 6, 6], 0),
])
def test_the_best_move_by_each_objective(objective, sums, wins, best):
    work = np.zeros(search.WORK_SIZE, np.int64)
    work[search.PLACE_SUMS: search.PLACE_SUMS + 4] = sums
    work[search.WIN_COUNTS: search.WIN_COUNTS + 4] = wins
    assert search.best_move(work, 4, objective) == best


# ---- the player ------------------------------------------------------------------------------

def search_spec(n: int, game: int, knobs: str) -> str:
    """`search` at one seat (moving with the game), `basic` or `random` elsewhere."""
    at = game % n
    other = "random" if game % 5 == 4 else "basic"
    return ",".join(f"{FAMILY_FILE}:SEARCH:{knobs}" if s == at else other for s in range(n))


@pytest.mark.parametrize("case, fields, players", [pytest.param(c, f, p, id=c) for c, f, p, _ in VARIANTS])
def test_both_engines_play_search_alike(case, fields, players):
    """Trace and observation equality (tests/engine/test_engine_equality.py) with `search` seated, K = 3;
    the swap searched in every other game, the rollout policy (basic, counter, tuned everywhere, tuned
    at the searcher's seat), the budget allocation (every move, sequential halving), the 10s (searched,
    burned by rule, saved by rule) and the belief (uniform, pickup facts, play facts) varying with the game and the variant, so every value meets every
    variant's rules."""
    failures = []
    cycle = len(players)
    shift = [c for c, _, _, _ in VARIANTS].index(case)
    for g in range(2 * cycle):
        n = players[g % cycle]
        knobs = (f"rollouts=3,swap={g % 2},policy={(g + shift) % 4},objective={int(g % 4 == 3)},"
                 f"halving={(g + shift) // 2 % 2},tens={(g + 2 * shift) % 3},belief={(g + shift) // 3 % 3}")
        msg = compare_game(case, Rules(players=n, **fields), search_spec(n, g, knobs), SEED, g,
                           hand_decks=bool(g % 2))
        if msg:
            failures.append(msg)
    assert not failures, "\n".join(failures[:3])


def test_unrecorded_games_keep_the_facts_the_search_reads():
    """A seat that is not `basic` is handed observations, so a batch (not recorded) keeps the facts
    (layout.NO_OBSERVER is 0): the search with the play-fact belief plays the same games there as in a
    recorded game (trace_game), which keeps every fact; with the facts left out its samples, and
    then some of its moves, would differ."""
    rules = Rules(players=4)
    seats = load_strategies(f"{FAMILY_FILE}:SEARCH:rollouts=3,belief=2,basic,basic,basic", 4)
    games = np.arange(12)
    batch = play_seated(rules, seats, SEED, games, games, np.tile(np.arange(4, dtype=np.int8), (12, 1)))["places"]
    for g in games:
        assert list(batch[g]) == trace_game(rules, seats, SEED, int(g))[2]


def rotated_mean_place_gain(rules: Rules, player: SeatStrategy, deals: int) -> tuple:
    """The player against `basic` at the other seats, rotated over every seat of the same deals:
    its mean place minus `basic`'s in the same seat on the same deal, and the standard error."""
    n = rules.players
    basic = SeatStrategy("basic", *_basic())
    ids = np.repeat(np.arange(deals), n)
    seating = np.zeros((deals * n, n), np.int8)
    for i in range(deals * n):
        seating[i, i % n] = 1
    with_player = play_seated(rules, [basic, player], SEED, ids, ids, seating)["places"]
    alone = play_games(rules, [basic] * n, SEED, 0, deals)["places"]
    seat = np.arange(deals * n) % n
    diff = (with_player[np.arange(deals * n), seat] - alone[ids, seat]).reshape(deals, n).mean(axis=1)
    return diff.mean(), diff.std(ddof=1) / math.sqrt(deals)


def test_search_beats_basic_at_small_k():
    """Issue 13 reference: -0.27 places at K = 32; here K = 16 on 60 deals (240 games): a gain of
    more than 0.08 places, about 3 standard errors below the expected gain."""
    gain, se = rotated_mean_place_gain(Rules(players=4), SeatStrategy("search", STRATEGY,
                                                                      STRATEGY.params({"rollouts": 16})), 60)
    assert gain < -0.08, (gain, se)


def test_perfect_information_is_far_ahead_and_refuses_the_reference_engine():
    gain, se = rotated_mean_place_gain(Rules(players=4), SeatStrategy("perfect", PERFECT_INFO,
                                                                      PERFECT_INFO.params()), 40)
    assert gain < -0.5, (gain, se)
    assert "NOT A FAIR PLAYER" in PERFECT_INFO.description
    seats = [SeatStrategy("perfect", PERFECT_INFO, PERFECT_INFO.params())] + [SeatStrategy("basic", *_basic())] * 3
    with pytest.raises(UserError, match="numba engine"):
        from idiotsim.game.reference import play_match
        from idiotsim.game.rng import shuffled_deck
        play_match([shuffled_deck(1, 0, 0, 1)], Rules(players=4), seats, 1, 0)
    events, _, _ = trace_game(Rules(players=4), seats, 1, 0)
    assert events[-1]["action"] == "end"


def test_the_table_of_an_observation_is_the_table_it_heads():
    """What search-perfect-info reads: the table behind the observation, the same memory (not a copy)."""
    state = decision_positions(Rules(players=4), "basic", 7, 0)[5]["state"].copy()
    table = table_of_observation(state[:ob.OBS_SIZE])
    assert table.shape == (TABLE_SIZE,) and np.array_equal(table, state)
    table[TABLE_SIZE - 1] += 1
    assert state[TABLE_SIZE - 1] == table[TABLE_SIZE - 1]


def test_the_family_file_loads_as_the_package_module():
    """strategies/search/__init__.py given by path is the registered family, not a second copy of the module:
    a second copy would share numba's cache entries and break a later process's import."""
    assert load_strategy(f"{FAMILY_FILE}:SEARCH").strategy is load_strategy("search").strategy


def test_every_caller_shares_one_compiled_search():
    """The search's functions are compiled once for the fair player, the perfect-information player,
    `analyze`'s place matrix and calls from Python: a literal True or False for `perfect` is a type of
    its own to numba, and each such type compiled the whole search again (about a minute each, cold).
    Functions loaded from numba's cache leave their callees uncompiled, so this bites on a cold cache:
    the cache is keyed by every source file, so the first run of every change, as in CI, is cold."""
    rules = Rules(players=4)
    basics = [SeatStrategy("basic", *_basic())] * 3
    for player in (STRATEGY, PERFECT_INFO):
        play_games(rules, [SeatStrategy(player.name, player, player.params({"rollouts": 2}))] + basics, 5, 0, 1)
    position = next(p for p in positions(rules, range(1)) if p["obs"][ob.DECISION] == ob.TURN)
    obs, hand = position["obs"], position["hand"]
    search.search_decision(obs, hand, STRATEGY.params({"rollouts": 2}), np.zeros(1, np.uint64), obs, False)
    moves = np.zeros(search.MAX_MOVES, np.int64)
    n = search.list_search_moves(obs, hand, STRATEGY.params(), moves)
    assert search.place_matrix(obs, hand, np.zeros(1, np.uint64), moves[:n].copy(), 2, search_knobs.POLICY_BASIC,
                               np.zeros((2, n), np.int64)) == 0
    assert len(search.search_decision.signatures) == 1, search.search_decision.signatures
    for function in (search.halve_moves, search.judge_moves, search.judge_sample, search.determinize):
        assert len(function.signatures) <= 1, (function.__name__, function.signatures)
