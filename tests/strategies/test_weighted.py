"""The `weighted` move scorer (strategies/weighted.py).

- Legal in every rules variant for the defaults and for random weight vectors
  (random weights pick up voluntarily, take chances, split copies, keep 2s
  and 10s face-up or in hand): play_games raises IllegalMoveError otherwise.
- Both engines make identical decisions with random weights (traces and the
  checksums of every observation), in every variant.
- With the default weights it plays exactly like `basic`.
- Deterministic, and the weights are read at run time: another vector changes
  play without recompiling.
- Features do what the docs say, checked decision by decision on recorded
  reference games.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from idiotsim.game import observation as ob
from idiotsim.game.reference import play_match
from idiotsim.game.rng import shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_games, trace_game
from idiotsim.game.moves import CHANCE, PICKUP
from idiotsim.strategies.loading import SeatStrategy, load_strategy
from idiotsim.strategies import weighted
from test_strategies import VARIANTS, Recorder

SEED = 4_242
TWO, TEN = 0, 8


def with_weights(params: np.ndarray, label: str = "weighted") -> SeatStrategy:
    return SeatStrategy(label, weighted.WEIGHTED, np.asarray(params, dtype=np.float64))


def random_weights(seed: int, bias_high: float | None = None) -> np.ndarray:
    """Uniform over the knob ranges (pickups and chances happen, scores are far from basic's);
    `bias_high` caps the pickup and chance biases (fewer voluntary pickups: shorter games)."""
    rng = np.random.default_rng(seed)
    return np.array([rng.uniform(k.low, k.high if bias_high is None or k.name not in ("pickup", "chance")
                                 else bias_high) for k in weighted.KNOBS])


def seats_for(me: SeatStrategy, players: int) -> list:
    basic, rnd = load_strategy("basic"), load_strategy("random")
    return [me if p % 2 == 0 else (rnd if p % 4 == 3 else basic) for p in range(players)]


def weighted_with(knobs: dict) -> SeatStrategy:
    """The family from its module (loading it by file spec too would give the same file a second
    module name, and numba's cache would then hold code referring to a module it cannot import)."""
    return with_weights(weighted.WEIGHTED.params(knobs))


def test_knob_metadata():
    names = [k.name for k in weighted.KNOBS]
    params = weighted_with({"pickup": 1.5, "strength": -0.25}).params
    assert params[names.index("pickup")] == 1.5 and params[names.index("strength")] == -0.25
    assert 15 <= len(names) <= 30 and len(set(names)) == len(names)
    assert all(not k.integer and k.low <= k.default <= k.high for k in weighted.KNOBS)
    assert sorted(n for group in weighted.GROUPS.values() for n in group) == sorted(names)


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_in_every_variant_with_random_weights(variant):
    rules = Rules(**VARIANTS[variant])
    for k, params in enumerate([weighted.WEIGHTED.params(), random_weights(1), random_weights(2)]):
        seats = seats_for(with_weights(params), rules.players)
        result = play_games(rules, seats, SEED, 0, 600)
        places = result["places"]
        assert places.min() >= 1 and places.max() <= rules.players, (variant, k)


@pytest.mark.parametrize("variant", VARIANTS)
def test_both_engines_make_identical_decisions(variant):
    rules = Rules(**VARIANTS[variant])
    for game in range(2 // rules.rounds or 1):  # a match of k rounds plays k games' decisions
        me, basic = with_weights(random_weights(100 + game, bias_high=-2)), load_strategy("basic")
        seats = [me if p % 2 == 0 else basic for p in range(rules.players)]
        decks = [shuffled_deck(SEED, game, r, rules.decks) for r in range(rules.rounds)]
        obs_log: list = []
        ref = play_match(decks, rules, seats, SEED, game, obs_log=obs_log)
        events, checksums, places = trace_game(rules, seats, SEED, game)
        public = [{k: v for k, v in e.items() if not k.startswith("_")} for e in ref.events]
        assert public == events, (variant, game)
        assert obs_log == checksums, (variant, game)
        assert ref.places == places


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "V5 chance"] + ["V5 chance"])
def test_defaults_play_exactly_like_basic(variant):
    rules = Rules(**VARIANTS[variant])
    basic_seats = seats_for(load_strategy("basic"), rules.players)
    weighted_seats = seats_for(weighted_with({}), rules.players)
    expected = play_games(rules, basic_seats, SEED, 0, 3_000)
    got = play_games(rules, weighted_seats, SEED, 0, 3_000)
    for key in expected:
        assert np.array_equal(got[key], expected[key]), key
    for g in range(5):
        assert trace_game(rules, weighted_seats, SEED, g)[0] == trace_game(rules, basic_seats, SEED, g)[0]


def test_deterministic_and_weights_change_play_without_recompiling():
    rules = Rules(players=4)
    params = random_weights(7)
    first = play_games(rules, seats_for(with_weights(params), 4), SEED, 0, 500)
    again = play_games(rules, seats_for(with_weights(params.copy()), 4), SEED, 0, 500)
    assert all(np.array_equal(first[k], again[k]) for k in first)
    signatures = len(weighted.decide.signatures)
    other = play_games(rules, seats_for(with_weights(random_weights(8)), 4), SEED, 0, 500)
    assert not np.array_equal(first["places"], other["places"])
    assert len(weighted.decide.signatures) == signatures == 1


# ---- features, decision by decision ------------------------------------------------

def record(knobs: dict, rules: Rules | None = None, games: int = 40) -> list:
    rules = rules or Rules(players=4)
    me = weighted_with(knobs)
    recorder = Recorder(me.strategy.decide)
    wrapped = SeatStrategy(me.label, dataclasses.replace(me.strategy, decide=recorder), me.params)
    seats = [wrapped if p % 2 == 0 else load_strategy("basic") for p in range(rules.players)]
    for game in range(games):
        play_match([shuffled_deck(SEED, game, r, rules.decks) for r in range(rules.rounds)], rules, seats, SEED, game)
    return recorder.log


def turns(log) -> list:
    return [(o, h, a) for o, h, a in log if o[ob.DECISION] == ob.TURN and o[ob.MUST_PLAY] < 0]


def held(obs, hand, rank) -> int:
    if obs[ob.SOURCE] == ob.SRC_HAND:
        return int(hand[rank])
    return int(obs[ob.FACEUP + obs[ob.SEAT] * 13 + rank])


def playable(obs, hand) -> list:
    return [r for r in range(13) if held(obs, hand, r) and (obs[ob.LEGAL] >> r) & 1]


def test_pickup_bias_makes_voluntary_pickups_and_defaults_never_do():
    voluntary = [a for o, h, a in turns(record({"pickup": 2})) if a == PICKUP]
    assert voluntary  # a positive bias beats every play
    for o, h, a in turns(record({})):
        assert a != PICKUP or not playable(o, h)


def test_positive_kept_weight_plays_single_copies():
    plays = [(o, h, a) for o, h, a in turns(record({"kept": 1})) if a >= 0]
    multi = [(o, h, a) for o, h, a in plays if held(o, h, a & 15) >= 2]
    assert multi and all((a >> 4) & 15 == 1 for o, h, a in multi)


def test_swap_weights_choose_what_lies_face_up():
    def specials_faceup(log) -> list:
        """Per swap: (2s and 10s among the six cards, 2s and 10s laid face-up)."""
        rows = []
        for o, h, a in log:
            if o[ob.DECISION] == ob.SWAP:
                six = h + o[ob.FACEUP + o[ob.SEAT] * 13: ob.FACEUP + o[ob.SEAT] * 13 + 13]
                up = [a // 169, a // 13 % 13, a % 13]
                rows.append((int(six[TWO] + six[TEN]), sum(r in (TWO, TEN) for r in up)))
        return rows
    kept = specials_faceup(record({"up_two": -3, "up_ten": -3}))
    assert all(up == max(0, specials - 3) for specials, up in kept)  # face-up only when 4+ are held
    shown = specials_faceup(record({}))
    assert all(up == min(3, specials) for specials, up in shown)
    assert any(specials > 0 for specials, _ in shown)


def test_chance_weight_takes_v5_chances():
    rules = Rules(players=4, chance=True)
    taken = [a for o, h, a in turns(record({"chance": 4}, rules, games=20)) if a == CHANCE]
    assert taken
    assert all(a != CHANCE for o, h, a in turns(record({}, rules, games=20)))


def test_burn_weight_burns_whenever_a_burn_is_legal():
    def burns(obs, hand, action) -> bool:
        rank, count = action & 15, (action >> 4) & 15
        run = count + (obs[ob.PILE_RUN] if obs[ob.PILE_TOP] == rank else 0)
        return rank == TEN or run >= 4
    decisions = [(o, h, a) for o, h, a in turns(record({"burn": 3}))
                 if TEN in playable(o, h) or any(burns(o, h, r | held(o, h, r) << 4) for r in playable(o, h))]
    assert len(decisions) > 20
    assert all(a >= 0 and burns(o, h, a) for o, h, a in decisions)
    plain = [(o, h, a) for o, h, a in turns(record({})) if TEN in playable(o, h) and len(playable(o, h)) > 1]
    assert any(not burns(o, h, a) for o, h, a in plain)  # the defaults keep a 10 while another rank is legal


TUNED = [f"tuned-{players}p" for players in (2, 3, 4, 5)]


@pytest.mark.parametrize("name", TUNED)
def test_tuned_presets_load_and_differ_from_the_defaults(name):
    """Each shipped tuned preset is a weight vector of `weighted` in range, with a summary naming its
    table size; it plays differently from the defaults (= basic). Legality: test_strategies' generic checks."""
    tuned, defaults = load_strategy(name), load_strategy("weighted")
    assert tuned.strategy is defaults.strategy
    moved = [k.name for k, a, b in zip(tuned.strategy.knobs, tuned.params, defaults.params) if a != b]
    assert len(moved) >= 5
    assert all(k.low <= v <= k.high for k, v in zip(tuned.strategy.knobs, tuned.params))
    assert name[len("tuned-"):-1] + " players" in tuned.strategy.presets[name].summary
    rules = Rules(players=int(name[len("tuned-")]))
    a = play_games(rules, [tuned] + [load_strategy("basic")] * (rules.players - 1), 5, 0, 200)
    b = play_games(rules, [defaults] + [load_strategy("basic")] * (rules.players - 1), 5, 0, 200)
    assert not np.array_equal(a["places"], b["places"])
