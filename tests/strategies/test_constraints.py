"""Tips as constraints on any player (issue 44 item 1; idiotsim.strategies.constraints).

- The spec syntax: constraints after a `+`, printed back canonically; every mistake is one UserError line
  (one `error:` line and exit 2 on the command line).
- The filters, against a plain-Python statement of each rule, on positions of real games in several rules
  variants (swaps and turns): the allowed moves are the legal moves the rule leaves, in their order, never
  none; where the rules force a move (a pickup with nothing playable, a 10 when nothing else is), it stays.
- The nearest allowed move (`constrained_move`): an allowed move and an illegal one pass unchanged, any other
  is replaced by an allowed one (the same rank's largest count first).
- Constraints that say what a `heuristic` knob does play exactly like it, in every rules variant: `basic` with
  10s or 2s kept in hand, burning with a 10 from the first card, one copy at a time, small strong piles
  picked up; and the learned player's constraints exactly like its override knobs.
- Every decision of a constrained player is allowed: the search (its swap modes too), the gated player, the
  learned player, a wrapped family and a user's file, on positions of several variants.
- Constrained players pass the generic checks (check-strategy), a user's file included.
- The block's place in params: after the knobs, zeros when unconstrained (so every unconstrained player,
  and every shipped report, is unchanged: tests/experiments/test_shipped_reports.py).
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from helpers import cli_user_error
from idiotsim.engine.batches import play_games
from idiotsim.errors import UserError
from idiotsim.game import observation as ob
from idiotsim.game.cards import KING, RANK_OF_NAME, SIX, TEN, TWO
from idiotsim.game.moves import MAX_MOVES, PICKUP, list_moves, play_cards, sorted_swap
from idiotsim.game.reference import play_match
from idiotsim.game.rng import new_state, shuffled_deck
from idiotsim.game.rules import Rules
from idiotsim.strategies import constraints as cs
from idiotsim.strategies.constraints import Constraints, parse_constraints, split_constraints
from idiotsim.strategies.learned import LEARNED
from idiotsim.strategies.learned.learned_knobs import CONSTRAINTS_AT as LEARNED_CONSTRAINTS_AT
from idiotsim.strategies.learned.learned_knobs import MODEL_AT
from idiotsim.strategies.loading import SeatStrategy, load_strategies, load_strategy, split_specs
from idiotsim.strategies.search import STRATEGY as SEARCH
from idiotsim.strategies.search import search_knobs
from idiotsim.strategies.strategy_checks import VARIANTS, check_strategy
from idiotsim.strategies.toolkit import Strategy

SEED = 4401
CONSTRAINTS = ["up=10", "hand=2", "up=10/2", "hand=10/2+up=A", "pickup=never", "pickup=must:3", "pickup=may:4:Q",
               "copies=1", "copies=2", "tens=never", "tens=1", "tens=8", "burn=never", "burn=5", "burn=may:6",
               "burn=must:3", "tens=never+pickup=never+copies=1", "pickup=must:3+burn=1+copies=1+hand=10"]
RULES = [Rules(players=4), Rules(players=2), Rules(players=3, chance=True),
         Rules(players=5, last_hand_with_faceup=True, low_rank=7), Rules(players=4, six_burn=3, lowest_starts=True,
                                                                         opening_lowest=True),
         Rules(players=6)]


def rules_id(rules: Rules) -> str:
    return f"{rules.players}p" + ("-variant" if rules != Rules(players=rules.players) else "")


def positions(rules: Rules, spec: str, game: int) -> list:
    """Every swap and turn of a game of the reference engine, as dicts of ``obs`` and ``hand``."""
    found = []

    def recorder(seat):
        def decide(obs, hand, params, rng):
            if obs[ob.DECISION] in (ob.SWAP, ob.TURN):
                found.append(dict(obs=obs.copy(), hand=hand.copy()))
            return seat.decide.py_func(obs, hand, params, rng)
        return SeatStrategy(seat.label, Strategy(name=seat.label, decide=SimpleNamespace(py_func=decide),
                                                 description=""), seat.params)
    decks = [shuffled_deck(SEED, game, r, rules.decks) for r in range(rules.rounds)]
    play_match(decks, rules, [recorder(s) for s in load_strategies(spec, rules.players)], SEED, game)
    return found


@pytest.fixture(scope="module", params=RULES, ids=rules_id)
def rules_positions(request):
    """The swaps and every 3rd turn of 4 games: `random` at seat 1 (voluntary pickups, odd counts), the
    learned player at seat 0, basic elsewhere."""
    rules = request.param
    spec = ",".join(["learned-fast-4p", "random"] + ["basic"] * (rules.players - 2))
    found = [p for g in range(4) for p in positions(rules, spec, g)]
    return rules, [p for p in found if p["obs"][ob.DECISION] == ob.SWAP] + \
        [p for p in found if p["obs"][ob.DECISION] == ob.TURN][::3]


# ---- the syntax ----------------------------------------------------------------------------------------------

def test_a_spec_ends_in_its_constraints_and_prints_them_back():
    assert split_constraints("learned-search-4p+up=10+pickup=never") == ("learned-search-4p", "up=10+pickup=never")
    assert split_constraints("heuristic:burn_min=6") == ("heuristic:burn_min=6", "")
    assert split_constraints("my+file.py:X:k=1+copies=2") == ("my+file.py:X:k=1", "copies=2")
    c = parse_constraints("up=2/10+hand=a+pickup=must:3+tens=never+copies=1")
    assert c == Constraints(up=(TWO, TEN), hand=(12,), pickup="must", pickup_max=3, pickup_rank=KING, burn_kind="tens",
                            burn_may=None, burn_must=None, copies=1)
    assert c.text() == "+up=2/10+hand=A+pickup=must:3+tens=never+copies=1"
    for text in CONSTRAINTS:
        assert parse_constraints(parse_constraints(text).text()[1:]) == parse_constraints(text)
    assert parse_constraints("burn=5") == Constraints(burn_kind="burn", burn_may=5, burn_must=5)
    assert parse_constraints("burn=may:6") == Constraints(burn_kind="burn", burn_may=6, burn_must=None)
    assert parse_constraints("burn=must:3") == Constraints(burn_kind="burn", burn_may=0, burn_must=3)
    assert parse_constraints("pickup=may:4:Q").pickup_rank == RANK_OF_NAME["Q"]
    assert parse_constraints("tens=8").words() == "burns with a 10 once the pile holds 8 cards, saves it below"
    assert not Constraints() and not Constraints().block().any()
    assert split_specs("basic,learned-search-4p+up=10,heuristic:burn_min=6,pickup_max=2") == [
        "basic", "learned-search-4p+up=10", "heuristic:burn_min=6,pickup_max=2"]
    seats = load_strategies("learned-fast-4p+copies=1,basic", 2)
    assert seats[0].constraints == Constraints(copies=1) and seats[0].label == "learned-fast-4p+copies=1"


@pytest.mark.parametrize("spec, words", [
    ("basic+up=11", "'11' is not a rank"), ("basic+upp=10", "unknown constraint 'upp'"),
    ("basic+burn=soon", "takes never"), ("basic+up=10+hand=10", "both face-up"),
    ("basic+burn=1+tens=2", "not both"), ("basic+copies=0", "1..8"), ("basic+pickup=must", "takes never"),
    ("basic+pickup=must:3:10", "not an ordinary rank"), ("basic+up=10+up=2", "given twice"),
    ("basic+up", "NAME=VALUE"), ("basic+tens=200", "1..104"), ("nope+up=10", "unknown strategy"),
    ("basic+burn_min=5", "unknown constraint 'burn_min'")])
def test_a_bad_constraint_is_one_line(spec, words):
    with pytest.raises(UserError, match=words) as e:
        load_strategy(spec)
    assert "\n" not in str(e.value)


def test_a_bad_constraint_on_the_command_line_is_one_error_line_and_exit_2(capsys, tmp_path):
    line = cli_user_error(capsys, "run", "--players", "4", "--games", "10", "--out", tmp_path / "r",
                          "--strategies", "learned-fast-4p+pickup=sometimes,basic,basic,basic")
    assert "pickup=sometimes" in line
    assert not (tmp_path / "r").exists()


# ---- the rules, stated plainly, against the filters -----------------------------------------------------------

def burning(obs, move: int, kind: str) -> bool:
    """R16.2, V7, V10: does the play burn (kind 'burn'), or is it a 10 (kind 'tens')?"""
    rank = move & 15
    if kind == "tens" or rank == TEN:
        return rank == TEN
    run = play_cards(move) + (obs[ob.PILE_RUN] if obs[ob.PILE_TOP] == rank else 0)
    return run >= 4 or (obs[ob.SIX_BURN] > 0 and rank == SIX and run >= obs[ob.SIX_BURN])


def rule_swaps(obs, hand, c: Constraints, legal: list) -> list:
    six = hand + obs[ob.FACEUP + obs[ob.SEAT] * 13: ob.FACEUP + obs[ob.SEAT] * 13 + 13]
    up_held, keep_held = sum(six[r] for r in c.up), sum(six[r] for r in c.hand)

    def ok(choice):
        ranks = [choice % 13, choice // 13 % 13, choice // 169]
        return (sum(r in c.up for r in ranks) == min(3, up_held)
                and sum(r in c.hand for r in ranks) == max(0, keep_held - 3))
    return [m for m in legal if ok(m)]


def rule_turns(obs, c: Constraints, legal: list) -> list:
    moves = list(legal)
    plays = [m for m in moves if m >= 0]
    pile = int(obs[ob.PILE_SIZE])
    strong = all(obs[ob.PILE_COUNTS + r] == 0 or r >= c.pickup_rank for r in range(1, 13))
    takes = obs[ob.SOURCE] == ob.SRC_HAND and 0 < pile <= c.pickup_max and strong
    if c.pickup == "must" and takes:
        moves = [PICKUP]
    elif (c.pickup == "never" or (c.pickup == "may" and not takes)) and plays:
        moves = plays
    if c.copies and obs[ob.TALON_SIZE] > 0 and obs[ob.SOURCE] == ob.SRC_HAND:
        moves = [m for m in moves if m < 0 or play_cards(m) <= c.copies]
    if c.burn_kind:
        burns = [m for m in moves if m >= 0 and burning(obs, m, c.burn_kind)]
        others = [m for m in moves if m >= 0 and not burning(obs, m, c.burn_kind)]
        must = c.burn_must if c.burn_must is not None else cs.NO_PILE
        may = c.burn_may if c.burn_may is not None else cs.NO_PILE
        if burns and 0 < pile and pile >= must:
            moves = burns
        elif burns and others and pile < may:
            moves = [m for m in moves if m not in burns]
    return moves


def legal_list(pos) -> list:
    moves = np.zeros(MAX_MOVES, np.int64)
    return moves[:list_moves(pos["obs"], pos["hand"], moves)].tolist()


def allowed_list(pos, c: Constraints) -> list:
    moves = np.zeros(MAX_MOVES, np.int64)
    n = list_moves(pos["obs"], pos["hand"], moves)
    return moves[:cs.allowed_moves(pos["obs"], pos["hand"], c.block(), 0, moves, n)].tolist()


def test_the_filters_leave_the_moves_each_rule_allows(rules_positions):
    rules, found = rules_positions
    assert len(found) > 30
    changed = {text: 0 for text in CONSTRAINTS}
    for pos in found:
        obs, hand = pos["obs"], pos["hand"]
        legal = legal_list(pos)
        for text in CONSTRAINTS:
            c = parse_constraints(text)
            allowed = allowed_list(pos, c)
            expected = rule_swaps(obs, hand, c, legal) if obs[ob.DECISION] == ob.SWAP else rule_turns(obs, c, legal)
            assert allowed == expected, (text, legal, allowed)
            assert allowed and all(m in legal for m in allowed)
            changed[text] += allowed != legal
            if not any(m >= 0 for m in legal) and obs[ob.DECISION] == ob.TURN:
                assert allowed == legal  # nothing playable: the rules force the pickup, whatever the constraint
    assert all(changed[t] for t in ("up=10/2", "hand=2", "copies=1", "pickup=never", "tens=never")), changed


def test_the_rules_forced_moves_stay_allowed(rules_positions):
    """A pickup when nothing is playable; a 10 (or a burning play) when no other play is; a burning play
    required only where one is legal."""
    _, found = rules_positions
    for pos in (p for p in found if p["obs"][ob.DECISION] == ob.TURN):
        legal = legal_list(pos)
        plays = [m for m in legal if m >= 0]
        never = allowed_list(pos, parse_constraints("pickup=never+tens=never"))
        if not plays:
            assert never == legal
        elif all(m & 15 == TEN for m in plays):
            assert [m for m in never if m >= 0] == plays


# ---- the nearest allowed move -------------------------------------------------------------------------------

def test_a_move_not_allowed_is_replaced_by_the_nearest_allowed_one(rules_positions):
    _, found = rules_positions
    replaced = 0
    for pos in found:
        obs, hand = pos["obs"], pos["hand"]
        legal = legal_list(pos)
        for text in CONSTRAINTS:
            c = parse_constraints(text)
            block = c.block()
            allowed = allowed_list(pos, c)
            for move in legal:
                out = int(cs.constrained_move(obs, hand, block, 0, move))
                if move in allowed:
                    assert out == move
                    continue
                replaced += 1
                assert (sorted_swap(out) if obs[ob.DECISION] == ob.SWAP else out) in allowed
                if obs[ob.DECISION] == ob.TURN and move >= 0:
                    same = [m for m in allowed if m >= 0 and m & 15 == move & 15 and play_cards(m) <= play_cards(move)]
                    if same:
                        assert out == max(same, key=play_cards)
            assert cs.constrained_move(obs, hand, block, 0, -77) == -77  # illegal: for the engine to report
    assert replaced > 100


# ---- constraints that say what a knob does play like it -------------------------------------------------------

EQUIVALENT = [("basic+hand=10", "heuristic:swap=2"), ("basic+hand=2", "heuristic:swap=3"),
              ("basic+tens=1", "heuristic:burn_min=1"), ("basic+copies=1", "heuristic:max_copies=1"),
              ("basic+pickup=must:3", "heuristic:pickup_max=3"), ("basic+up=10+tens=never+pickup=never", "basic")]


@pytest.mark.parametrize("constrained, knob", EQUIVALENT)
def test_basic_under_a_constraint_plays_exactly_like_the_heuristic_knob(constrained, knob):
    for variant, rules_fields in VARIANTS.items():
        for players in (2, 4, 5):
            rules = Rules(players=players, **rules_fields)
            games = [play_games(rules, load_strategies(",".join([spec, "random"] + ["basic"] * (players - 2)), players),
                                SEED, 0, 150) for spec in (constrained, knob)]
            assert np.array_equal(games[0]["places"], games[1]["places"]), (variant, players)
            assert np.array_equal(games[0]["actions"], games[1]["actions"]), (variant, players)


@pytest.mark.parametrize("constrained, knob", [("learned-fast-4p+copies=1", "learned-fast-4p:max_copies=1"),
                                               ("learned-fast-4p+tens=never", "learned-fast-4p:save_tens=1"),
                                               ("learned-fast-4p+pickup=must:3", "learned-fast-4p:pickup_max=3")])
def test_the_learned_player_under_a_constraint_plays_like_its_override_knob(constrained, knob):
    for rules in (Rules(players=4), Rules(players=3, chance=True)):
        games = [play_games(rules, [load_strategy(spec)] + [load_strategy("basic")] * (rules.players - 1), SEED, 0,
                            800) for spec in (constrained, knob)]
        assert np.array_equal(games[0]["places"], games[1]["places"])
        assert np.array_equal(games[0]["actions"], games[1]["actions"])


# ---- every constrained decision is allowed --------------------------------------------------------------------

USER_FILE = '''
from idiotsim.strategy_api import TURN, PICKUP, Strategy, decision, pile_size, play_like_basic, strategy_function


@strategy_function
def decide(obs, hand, params, rng):
    if decision(obs) == TURN and pile_size(obs) > 0 and pile_size(obs) <= 2:
        return PICKUP
    return play_like_basic(obs, hand)


TAKER = Strategy(name="taker", decide=decide, description="picks up piles of 1 or 2 cards, else basic")
'''

PLAYERS = ["search:rollouts=2", "search:rollouts=2,swap=1", "search:rollouts=2,swap=2", "learned-search-4p",
           "search:rollouts=2,swap=3,gate=0.02,top=2", "learned-fast-4p", "learned-4p:swap=3", "heuristic",
           "random", "counter", "weighted", "USER"]


@pytest.fixture(scope="module")
def user_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("user") / "taker.py"
    path.write_text(USER_FILE)
    return f"{path}:TAKER"


@pytest.mark.parametrize("player", PLAYERS)
def test_every_decision_of_a_constrained_player_is_allowed(rules_positions, player, user_file):
    rules, found = rules_positions
    spec = user_file if player == "USER" else player
    checked = differs = 0
    for text in ("up=10/2+pickup=never+copies=1", "hand=10+tens=8+pickup=must:2", "hand=2+burn=never"):
        constrained = load_strategy(f"{spec}+{text}")
        free = load_strategy(spec)
        c = parse_constraints(text)
        for i, pos in enumerate(found[::2] if "search" in player else found):
            obs, hand = pos["obs"].copy(), pos["hand"].copy()
            move = int(constrained.decide(obs, hand, constrained.params, new_state(SEED, i, 0)))
            probe = sorted_swap(move) if obs[ob.DECISION] == ob.SWAP else move
            assert probe in allowed_list(pos, c), (text, i)
            differs += move != int(free.decide(obs.copy(), hand.copy(), free.params, new_state(SEED, i, 0)))
            checked += 1
    assert checked > 40 and differs > 0


def test_the_search_judges_only_the_allowed_moves():
    """With one allowed move the search plays it without drawing a sample: its stream is untouched."""
    rules = Rules(players=4)
    found = [p for g in range(3) for p in positions(rules, "basic", g)]
    seat = load_strategy("search:rollouts=8+pickup=must:3+copies=1")
    forced = 0
    for pos in found:
        allowed = allowed_list(pos, seat.constraints)
        if len(legal_list(pos)) > 1 and len(allowed) == 1:
            stream = new_state(SEED, 0, 0)
            before = stream.copy()
            assert seat.decide(pos["obs"].copy(), pos["hand"].copy(), seat.params, stream) == allowed[0]
            assert np.array_equal(stream, before)
            forced += 1
    assert forced > 0


# ---- the generic checks ---------------------------------------------------------------------------------------

@pytest.mark.long(60)
@pytest.mark.parametrize("spec", ["search:rollouts=2+hand=10+pickup=never+copies=1",
                                  "learned-fast-4p+up=2+burn=4+pickup=must:3", "basic+tens=never+copies=2",
                                  "USER+hand=2+burn=may:5"])
def test_constrained_players_pass_the_generic_checks(spec, user_file):
    spec = spec.replace("USER", user_file)
    games = 150 if "search" in spec else 600
    report = check_strategy(spec, games=games, sample=1, speed=False)
    assert report.ok, report.render()
    assert report.results[2].status == "ok", report.results[2]


# ---- the block in params --------------------------------------------------------------------------------------

def test_the_block_lies_after_the_knobs_zeros_when_unconstrained():
    assert search_knobs.CONSTRAINTS_AT == len(SEARCH.knobs) and LEARNED_CONSTRAINTS_AT == len(LEARNED.knobs)
    assert MODEL_AT == LEARNED_CONSTRAINTS_AT + cs.CONSTRAINT_SIZE
    for spec, at in (("learned-search-4p", search_knobs.CONSTRAINTS_AT), ("learned-fast-4p", LEARNED_CONSTRAINTS_AT)):
        free, bound = load_strategy(spec), load_strategy(spec + "+up=10+copies=1")
        assert not free.params[at:at + cs.CONSTRAINT_SIZE].any()
        assert np.array_equal(bound.params[at:at + cs.CONSTRAINT_SIZE], parse_constraints("up=10+copies=1").block())
        assert bound.strategy is free.strategy and len(bound.params) == len(free.params)
        assert np.array_equal(np.delete(bound.params, np.s_[at:at + cs.CONSTRAINT_SIZE]),
                              np.delete(free.params, np.s_[at:at + cs.CONSTRAINT_SIZE]))
    heuristic = load_strategy("heuristic:burn_min=6+tens=never")
    assert heuristic.params[:len(heuristic.strategy.knobs)].tolist() == load_strategy("heuristic:burn_min=6").params.tolist()
    assert heuristic.strategy.decide is load_strategy("heuristic").strategy.constrained_decide
    assert load_strategy("basic+copies=1").params.tolist() == parse_constraints("copies=1").block().tolist()
