"""The pickup and play facts of the observation and the search's basic-model beliefs (issue 19).

- Pickup facts (observation PICKUP_LEGAL, PICKUP_FREE; docs/rules.md "Pickup facts") and play facts
  (LACKS, LACKS_FREE; "Play facts"): both engines keep them (the observation checksums of
  tests/engine/test_engine_equality.py cover every field in every variant); here, in games of `basic` (which
  never picks up by choice, R14, plays every copy of the rank it plays first, and lays its best cards
  face-up, R6) every seat's true hand meets its facts: of its cards that are not KNOWN, at most
  PICKUP_FREE are of a rank in PICKUP_LEGAL, and at most LACKS_FREE of a rank in LACKS.
- The beliefs (`sampler.sample_state` with BASIC_MODEL, the pickup facts, and BASIC_PLAYS, the play
  facts), each: every sample is a legal state that meets every
  opponent's fact, and the truth meets them too (it is a possible sample); samples are uniform over the
  arrangements that meet the facts (chi-square on small endgames, with one natural fact and with two
  facts, which takes the rejection step); with no binding fact the sample is the uniform belief's on
  the same stream; facts that cannot hold (opponents that pick up by choice) are dropped, and facts
  that cannot hold together fall back to the uniform belief, so the sampler never fails.
- Honesty: two true states that agree on everything public and on the seat's own hand give the same
  search decisions for the same stream, with either belief (the search never reads a hidden card).
- No memory (NO_MEMORY, the search's `belief=3`: a player who does not count): every sample is a legal
  state with every size as observed and the pile's top run kept, the pile below it holds no 10, nothing
  KNOWN and no fact; burned 10s come back into play; the cards are spread as a shuffle spreads them; and
  two observations that differ only in what has left play (burned cards, the pile below its top run,
  KNOWN cards, the facts) give the same samples and the same search decisions.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from idiotsim.engine import state_layout as layout
from idiotsim.game import observation as ob
from idiotsim.strategies.search import sampler, pimc as search
from idiotsim.game.observation import NR
from idiotsim.analysis.replayed_states import decision_positions
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_seated
from idiotsim.strategies.search import STRATEGY
from idiotsim.strategies.loading import load_strategies
from test_search import (arrangement, check_legal_state, chi_square_p_above, exact_arrangements, hands,
                         hidden_cards, with_hidden_cards_moved)

SEED = 4242
# The default game, V1 with V6 (masks that are not upper sets of the R2 order), V5 (chance pickups and
# the draws after a chance card) with V11, and two decks (V7).
FACT_RULES = [
    Rules(players=4),
    Rules(players=3, low_rank=7, ten_only_on_lower=True),
    Rules(players=4, chance=True, last_hand_with_faceup=True),
    Rules(players=6, decks=2),
]


def positions(rules: Rules, games: range, spec: str = "basic") -> list:
    found = []
    for g in games:
        found += decision_positions(rules, spec, SEED, g)
    return found


def unknown_rows(st, n) -> np.ndarray:
    return hands(st, n) - st[ob.KNOWN: ob.KNOWN + n * NR].reshape(n, NR)


BELIEFS = [sampler.BASIC_MODEL, sampler.BASIC_PLAYS]


def meets_fact(st, obs, s: int, belief: int) -> bool:
    """Does seat s's hand in `st` meet the fact in `obs` that `belief` reads?"""
    mask_at, free_at = sampler.fact_offsets(belief)
    mask = obs[mask_at + s]
    unknown = unknown_rows(st, obs[ob.PLAYERS])[s]
    return sum(int(unknown[r]) for r in range(NR) if mask >> r & 1) <= obs[free_at + s]


def believed_sample(obs, hand, seed: int, belief: int) -> np.ndarray:
    st = np.zeros(layout.STATE_SIZE, np.int64)
    pool = np.zeros(layout.MAX_CARDS, np.int64)
    assert sampler.sample_state(obs, hand, np.array([seed], np.uint64), st, pool, belief) == 0
    return st


def uniform_sample(obs, hand, seed: int) -> np.ndarray:
    st = np.zeros(layout.STATE_SIZE, np.int64)
    assert sampler.sample_state(obs, hand, np.array([seed], np.uint64), st, np.zeros(layout.MAX_CARDS, np.int64)) == 0
    return st


def binding_seats(obs, belief: int) -> list:
    return [s for s in range(obs[ob.PLAYERS]) if sampler._binding(obs, s, *sampler.fact_offsets(belief))]


@pytest.fixture(scope="module", params=FACT_RULES, ids=lambda r: f"{r.players}p-{r.decks}d-{r.low_rank}-{r.chance}")
def fact_positions(request):
    rules = request.param
    return rules, positions(rules, range(4 if rules.players < 6 else 2))


@pytest.mark.parametrize("belief", BELIEFS)
def test_basic_players_meet_their_facts_and_so_do_the_believed_samples(fact_positions, belief):
    """The truth meets every fact (so it is a possible sample); every sample is a legal state that
    meets every opponent's fact; many positions have a binding fact (the play facts, set at every
    play, bind at most positions)."""
    rules, found = fact_positions
    bound = 0
    for pos in found:
        obs, hand, seat, truth = pos["obs"], pos["hand"], pos["seat"], pos["state"]
        assert all(meets_fact(truth, obs, s, belief) for s in range(rules.players))
        bound += bool(binding_seats(obs, belief))
        for k in range(2):
            st = believed_sample(obs, hand, 31 * k + int(obs[ob.ACTIONS]), belief)
            check_legal_state(st, obs, hand)
            assert hidden_cards(st, seat) == hidden_cards(truth, seat)
            assert all(meets_fact(st, obs, s, belief) for s in range(rules.players) if s != seat)
    assert bound >= len(found) // (5 if belief == sampler.BASIC_MODEL else 2), (bound, len(found))


@pytest.mark.parametrize("belief", BELIEFS)
def test_without_a_binding_fact_the_belief_is_the_uniform_sample(belief):
    found = [p for p in positions(Rules(players=4), range(2)) if not binding_seats(p["obs"], belief)]
    assert len(found) > 20
    for pos in found:
        seed = int(pos["obs"][ob.ACTIONS])
        assert (believed_sample(pos["obs"], pos["hand"], seed, belief)
                == uniform_sample(pos["obs"], pos["hand"], seed)).all()


def believed_arrangements(pos, belief: int) -> Counter:
    """The exact probabilities (times a constant) of the arrangements that meet every opponent's fact."""
    obs, seat = pos["obs"], pos["seat"]
    st = uniform_sample(obs, pos["hand"], 0)
    kept = Counter()
    for (others, blind, talon), weight in exact_arrangements(pos).items():
        rows = iter(others)
        for s in range(obs[ob.PLAYERS]):
            if s != seat:
                st[layout.HANDS + s * NR: layout.HANDS + s * NR + NR] = np.frombuffer(next(rows), np.int64)
        if all(meets_fact(st, obs, s, belief) for s in range(obs[ob.PLAYERS]) if s != seat):
            kept[(others, blind, talon)] = weight
    return kept


def with_facts(pos, facts, belief: int) -> dict:
    """The position with the facts `belief` reads (seat, mask, free) written into its observation."""
    obs = pos["obs"].copy()
    mask_at, free_at = sampler.fact_offsets(belief)
    for s, mask, free in facts:
        obs[mask_at + s], obs[free_at + s] = mask, free
    return dict(pos, obs=obs)


def without_known_cards(pos, seats) -> dict:
    """The position with the KNOWN cards of `seats` taken for unknown ones (still a consistent view)."""
    obs = pos["obs"].copy()
    for s in seats:
        obs[ob.KNOWN + s * NR: ob.KNOWN + s * NR + NR] = 0
    return dict(pos, obs=obs)


def small_endgames(belief: int) -> list:
    """Two 3-player endgames of `basic` with 5..7 hidden cards: one with a natural binding fact, and one
    with both opponents' hands unknown and a fact each (one rank of the pool, none free; both bind,
    so the rejection step runs), each with at least 4 arrangements that meet the facts and some that
    do not."""
    natural = two = None
    for g in range(60):
        for pos in decision_positions(Rules(players=3), "basic", SEED, g):
            obs = pos["obs"]
            m = sampler.hidden_pool(obs, pos["hand"], np.zeros(layout.MAX_CARDS, np.int64))
            if natural is None and 5 <= m <= 7 and binding_seats(obs, belief) and _informative(pos, belief):
                natural = pos
            others = [s for s in range(3) if s != pos["seat"] and obs[ob.HAND_SIZE + s] > 0]
            known = sum(int(obs[ob.HAND_SIZE + s]) - ob.unknown_in_hand(obs, s) for s in others)
            if two is None and len(others) == 2 and 5 <= m + known <= 7:
                unknown = without_known_cards(pos, others)
                pool = np.zeros(layout.MAX_CARDS, np.int64)
                ranks = sorted(set(pool[:sampler.hidden_pool(unknown["obs"], pos["hand"], pool)].tolist()))
                candidate = with_facts(unknown, [(s, 1 << ranks[i % len(ranks)], 0) for i, s in enumerate(others)],
                                       belief)
                if len(binding_seats(candidate["obs"], belief)) == 2 and _informative(candidate, belief):
                    two = candidate
        if natural is not None and two is not None:
            return [natural, two]
    raise AssertionError("no endgames found")


def _informative(pos, belief: int) -> bool:
    return 4 <= len(believed_arrangements(pos, belief)) < len(exact_arrangements(pos))


@pytest.mark.parametrize("belief", BELIEFS)
def test_believed_samples_are_uniform_over_the_arrangements_that_meet_the_facts(belief):
    """12,000 samples of each endgame against the exact probabilities of the arrangements that meet
    the facts (some excluded: the facts bind); chi-square at 0.1%."""
    for pos in small_endgames(belief):
        exact = believed_arrangements(pos, belief)
        total = sum(exact.values())
        draws = 12_000
        seen = Counter(arrangement(believed_sample(pos["obs"], pos["hand"], 5 + k, belief), pos["seat"])
                       for k in range(draws))
        assert set(seen) <= set(exact)
        stat = sum((seen[a] - draws * w / total) ** 2 / (draws * w / total) for a, w in exact.items())
        assert chi_square_p_above(stat, len(exact) - 1) > 1e-3, (stat, len(exact))


@pytest.mark.parametrize("belief", BELIEFS)
def test_facts_that_cannot_hold_are_dropped_and_the_sampler_never_fails(belief):
    """Opponents that pick up by choice (heuristic pickup_max=3, R14) break the model: their true
    hands miss some facts, and every sample is still a legal state (each fact the pool cannot meet is
    dropped). Facts that can each hold but not together (two opponents that may hold no card of a
    rank while the pool holds only that rank) fall back to the uniform belief."""
    rules = Rules(players=4)
    found = positions(rules, range(3), "heuristic:pickup_max=3")
    broken = 0
    for pos in found:
        obs, hand, truth = pos["obs"], pos["hand"], pos["state"]
        broken += not all(meets_fact(truth, obs, s, belief) for s in range(rules.players))
        check_legal_state(believed_sample(obs, hand, int(obs[ob.ACTIONS]), belief), obs, hand)
    assert broken > 0
    for pos in found:
        obs = pos["obs"]
        pool = np.zeros(layout.MAX_CARDS, np.int64)
        m = sampler.hidden_pool(obs, pos["hand"], pool)
        others = [s for s in range(4) if s != pos["seat"] and ob.unknown_in_hand(obs, s) > 0]
        counts = np.bincount(pool[:m], minlength=NR)
        if len(others) < 2 or obs[ob.TALON_SIZE] > 0:
            continue
        # each opponent may hold at most `free` cards outside the most common rank r (mask: every other
        # rank), so together they need more cards of r than the pool holds
        r = int(counts.argmax())
        need = [ob.unknown_in_hand(obs, s) for s in others]
        if counts[r] < max(need) or counts[r] >= sum(need):
            continue
        every_other = ob.ALL_RANKS & ~(1 << r)
        pos = with_facts(pos, [(s, every_other, 0) for s in others], belief)
        st = believed_sample(pos["obs"], pos["hand"], 9, belief)
        check_legal_state(st, pos["obs"], pos["hand"])
        offsets = sampler.fact_offsets(belief)
        plan = np.zeros(sampler.PLAN_SIZE, np.int64)
        believed = sampler.plan_samples(pos["obs"], pool, m, belief, plan)
        assert believed == sum(1 << s for s in others)  # every fact can hold alone
        assert sampler._deal_believed_hands(pos["obs"], np.array([9], np.uint64), st.copy(), pool, m, plan,
                                            *offsets) == 0
        return
    raise AssertionError("no position for two facts that cannot hold together")


@pytest.mark.parametrize("belief", [sampler.UNIFORM] + BELIEFS + [sampler.NO_MEMORY])
def test_honesty_the_search_never_reads_a_hidden_card(belief):
    """Two true states that agree on everything public and on the seat's own hand (the hidden cards
    permuted among their places, facts or not) give the same decisions and leave the same stream."""
    rng = np.random.default_rng(3)
    params = STRATEGY.params({"rollouts": 4, "belief": belief})
    checked = 0
    for pos in positions(Rules(players=4), range(2)):
        if pos["obs"][ob.DECISION] != ob.TURN or (belief in BELIEFS and not binding_seats(pos["obs"], belief)):
            continue
        truth = pos["state"]
        other = with_hidden_cards_moved(truth, pos["seat"], rng)
        assert (other[: ob.OBS_SIZE] == truth[: ob.OBS_SIZE]).all()
        if (other == truth).all():  # too few hidden cards to tell apart
            continue
        results = []
        for st in (truth, other):
            stream = np.array([int(pos["obs"][ob.ACTIONS])], np.uint64)
            results.append((STRATEGY.decide(st[: ob.OBS_SIZE], pos["hand"].copy(), params, stream), int(stream[0])))
        assert results[0] == results[1]
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("belief", BELIEFS + [sampler.NO_MEMORY])
def test_the_belief_search_plays_legal_games_against_model_breakers(belief):
    """The search with the belief on the numba engine against opponents that pick up by choice: every
    game ends without an illegal move (NO_STATE would be one)."""
    rules = Rules(players=4)
    seats = load_strategies(f"search:rollouts=4,belief={belief},heuristic:pickup_max=3", 2)
    ids = np.arange(8)
    seating = np.ones((8, 4), np.int8)  # the search rotated over the seats, the model breakers elsewhere
    seating[np.arange(8), np.arange(8) % 4] = 0
    result = play_seated(rules, seats, SEED, ids, ids, seating)
    assert (np.sort(result["places"], axis=1) == np.arange(1, 5)).all()


@pytest.mark.parametrize("belief", [sampler.UNIFORM] + BELIEFS + [sampler.NO_MEMORY])
def test_a_decisions_samples_share_one_pool_and_plan_and_are_sample_states(belief):
    """The search builds a decision's hidden pool and the belief's plan once (search.determinize) and
    draws its K samples from them: the same states, in order, as K calls of `sample_state` that each
    build both, on one stream."""
    checked = 0
    for pos in positions(Rules(players=4), range(3)):
        obs, hand = pos["obs"], pos["hand"]
        if obs[ob.DECISION] != ob.TURN or (belief in BELIEFS and not binding_seats(obs, belief)):
            continue
        work = np.zeros(search.WORK_SIZE, np.int64)
        work[search.BELIEF] = belief
        shared, alone = np.array([11], np.uint64), np.array([11], np.uint64)
        for _ in range(4):
            st = np.zeros(layout.STATE_SIZE, np.int64)
            assert search.determinize(obs, hand, shared, st, work, obs, False) == 0
            expected = np.zeros(layout.STATE_SIZE, np.int64)
            assert sampler.sample_state(obs, hand, alone, expected, np.zeros(layout.MAX_CARDS, np.int64), belief) == 0
            assert np.array_equal(st, expected) and shared[0] == alone[0]
        checked += 1
    assert checked >= 10


# ---- no memory (the search's belief=3) ---------------------------------------------------------------------------

def forgetting_sample(obs, hand, seed: int) -> np.ndarray:
    return believed_sample(obs, hand, seed, sampler.NO_MEMORY)


def pile_row(st) -> np.ndarray:
    return st[ob.PILE_COUNTS: ob.PILE_COUNTS + NR]


def test_no_memory_samples_are_legal_states_that_remember_nothing_that_left_play(fact_positions):
    rules, found = fact_positions
    turns = [p for p in found if p["obs"][ob.DECISION] == ob.TURN]
    tens_back = 0
    for i, pos in enumerate(turns):
        obs, hand = pos["obs"], pos["hand"]
        n, decks = obs[ob.PLAYERS], obs[ob.DECKS]
        for k in range(2):
            st = forgetting_sample(obs, hand, 100 * i + k)
            per_rank = hands(st, n).sum(axis=0) + st[ob.FACEUP: ob.FACEUP + n * NR].reshape(n, NR).sum(axis=0) \
                + pile_row(st) + st[ob.BURNED: ob.BURNED + NR]
            for r in st[layout.BLIND: layout.BLIND + 3 * n]:
                per_rank[r] += r >= 0
            for r in st[layout.TALON: layout.TALON + st[layout.TALON_LEN]]:
                per_rank[r] += 1
            assert per_rank.tolist() == [4 * decks] * NR
            assert (hands(st, n).sum(axis=1) == obs[ob.HAND_SIZE: ob.HAND_SIZE + n]).all()
            assert (hands(st, n)[pos["seat"]] == hand).all()
            assert ((st[layout.BLIND: layout.BLIND + 3 * n] >= 0) ==
                    (obs[ob.BLIND_PRESENT: ob.BLIND_PRESENT + 3 * n] == 1)).all()
            assert st[layout.TALON_LEN] - st[layout.TALON_POS] == obs[ob.TALON_SIZE]
            assert pile_row(st).sum() == obs[ob.PILE_SIZE] and pile_row(st)[8] == 0  # no 10 in a pile (R12)
            if obs[ob.PILE_TOP] >= 0:
                assert pile_row(st)[obs[ob.PILE_TOP]] >= obs[ob.PILE_RUN]
            assert st[ob.BURNED: ob.BURNED + NR].sum() == obs[ob.BURNED: ob.BURNED + NR].sum()
            for start in (ob.KNOWN,):
                assert not st[start: start + n * NR].any()
            for start in (ob.PICKUP_LEGAL, ob.PICKUP_FREE, ob.LACKS, ob.LACKS_FREE):
                assert not st[start: start + n].any()
            faceup_tens = st[ob.FACEUP + 8: ob.FACEUP + n * NR: NR].sum()
            not_burned = 4 * decks - obs[ob.BURNED + 8] - hand[8] - faceup_tens  # 10s that truly are in play
            tens_back += hidden_cards(st, pos["seat"])[8] > not_burned
    assert tens_back > 0


def with_memory_changed(obs, rng) -> np.ndarray:
    """`obs` with everything a non-counter forgets changed: the burned cards, the pile below its top run,
    the KNOWN cards and the facts (sizes and what is in sight kept)."""
    other = obs.copy()
    n = obs[ob.PLAYERS]
    for start, size in ((ob.BURNED, NR), (ob.PILE_COUNTS, NR)):
        total = obs[start: start + size].sum() - (obs[ob.PILE_RUN] if start == ob.PILE_COUNTS and
                                                 obs[ob.PILE_TOP] >= 0 else 0)
        row = np.bincount(rng.integers(0, NR, total), minlength=NR)
        if start == ob.PILE_COUNTS and obs[ob.PILE_TOP] >= 0:
            row[obs[ob.PILE_TOP]] += obs[ob.PILE_RUN]
        other[start: start + size] = row
    other[ob.KNOWN: ob.KNOWN + n * NR] = rng.integers(0, 2, n * NR)
    for start in (ob.PICKUP_LEGAL, ob.PICKUP_FREE, ob.LACKS, ob.LACKS_FREE):
        other[start: start + n] = rng.integers(0, 50, n)
    return other


def test_no_memory_uses_only_what_is_in_sight_now():
    """Observations that differ only in what has left play: the same samples and the same decisions."""
    rng = np.random.default_rng(7)
    params = STRATEGY.params({"rollouts": 4, "belief": sampler.NO_MEMORY})
    samples = decisions = 0
    for pos in positions(Rules(players=4), range(2)):
        obs, hand = pos["obs"], pos["hand"]
        if obs[ob.DECISION] != ob.TURN or obs[ob.BURNED: ob.BURNED + NR].sum() + obs[ob.PILE_SIZE] == 0:
            continue
        other = with_memory_changed(obs, rng)
        a, b = forgetting_sample(obs, hand, 5), forgetting_sample(other, hand, 5)
        mine = np.r_[0:ob.OBS_SIZE]  # the observation part holds each one's own header: compare the rest
        assert np.array_equal(np.delete(a, mine), np.delete(b, mine))
        for field, size in ((ob.PILE_COUNTS, 2 * NR), (ob.KNOWN, 4 * NR), (ob.PICKUP_LEGAL, 4 * 4)):
            assert np.array_equal(a[field: field + size], b[field: field + size])
        samples += 1
        if samples % 3 == 0:
            results = []
            for o in (obs, other):
                stream = np.array([int(obs[ob.ACTIONS])], np.uint64)
                results.append((STRATEGY.decide(o.copy(), hand.copy(), params, stream), int(stream[0])))
            assert results[0] == results[1]
            decisions += 1
    assert samples >= 20 and decisions >= 5


def test_no_memory_spreads_the_cards_out_of_sight_as_a_shuffle_does():
    """Where the pile holds only its top run, every card out of sight is dealt as a shuffle deals it: the
    expected count of each rank in an opponent's hand is its hand size x the rank's share of those cards."""
    for pos in positions(Rules(players=4), range(4)):
        obs, hand = pos["obs"], pos["hand"]
        if (obs[ob.DECISION] == ob.TURN and obs[ob.PILE_SIZE] == obs[ob.PILE_RUN] and obs[ob.TALON_SIZE] == 0
                and obs[ob.BURNED: ob.BURNED + NR].sum() >= 12):
            break
    else:
        raise AssertionError("no position with burned cards and a pile of its top run only")
    pool = np.zeros(layout.MAX_CARDS, np.int64)
    m = sampler.visible_pool(obs, hand, pool)
    share = np.bincount(pool[:m], minlength=NR) / m
    seat = (pos["seat"] + 1) % 4
    size = obs[ob.HAND_SIZE + seat]
    draws = 4000
    counts = np.array([hands(forgetting_sample(obs, hand, 9000 + k), 4)[seat] for k in range(draws)])
    mean, sd = counts.mean(axis=0), counts.std(axis=0) + 1e-9
    z = (mean - size * share) / (sd / np.sqrt(draws))
    assert np.abs(z).max() < 4.5, z  # 13 ranks: a 4.5 sigma miss has probability about 1e-4
