"""Search benchmark (issue 13, item 5): rollouts/s and decisions/s, one thread, against the engine.

    .venv/bin/python benchmarks/search.py            # 4 players, K = 32 and 128
    .venv/bin/python benchmarks/search.py --quick    # fewer positions and repeats

Positions are the TURN decisions of games of `basic` (reference engine, every 2nd decision).
- engine: full games/s of 4 `basic` players (`play_games`, one thread), in the same process;
- rollouts/s: from those positions, a sampled state (`sample_state`, with the play-fact belief, the
  search's default, with the pickup-fact one and with the uniform one) copied and played on by `basic` to the end of the
  deciding seat's round (what a search does per move and sample), and the same from the true state
  without sampling; the ratio to the engine's full games/s;
- what sets the two apart: rollouts from one sampled state per position replayed as the true states
  are (the positions in turn, the sampling outside the timing), and the samples alone. Measured
  (issue 19): the replayed samples are no faster than fresh ones and the samples alone cost a sixth
  of a sampled rollout, while the true states' rollouts, as long in actions (41.8 against 42.6), run
  faster: consecutive positions are decisions of one game, so their true rollouts replay the same
  ending, whose branches the CPU's predictor has learned. The true-state row flatters;
- the search's inner loop (`search.judge_sample` with `basic` rollouts): at each position, fresh samples,
  and on each every move the search lists played and rolled out, sampling included: rollouts/s on the
  compact layout (`engine.basic_rounds.basic_moves`, what the search runs) and by the engine's general loop
  (`engine.rollouts.act` and `engine.rollouts.play_on_basic`) in the same process, and their ratio (the race against the
  C the compact rounds were ported from: benchmarks/rollout_race.py);
- decisions/s: `search` decisions at positions with more than one legal move, K = 32 and 128, and the
  rollouts they play per second (sampling included, a sample serving every move) against the engine's
  games/s: issue 19's "rollouts in the time of one full game" of a whole search (2.36 when it was filed).
Times are the process's CPU time (one thread: a loaded machine's waits for a core do not count).
Figures are printed, never asserted: the targets are in issue 13 (>= 600 decisions/s at K = 128) and
issue 19 (rollouts from sampled states >= 3.0x the engine's games/s; >= 2,200 decisions/s at K = 128).
"""
from __future__ import annotations

import argparse
import time

import numba
import numpy as np
from numba import njit

from idiotsim.game import observation as ob
from idiotsim.strategies.search import pimc as search
from idiotsim.strategies.search import search_knobs
from idiotsim.engine import basic_rounds
from idiotsim.engine import rollouts as engine_rollouts
from idiotsim.engine.hidden_cards import copy_live_table
from idiotsim.engine.memory import data_pointer
from idiotsim.analysis.replayed_states import decision_positions
from idiotsim.game.rules import Rules
from idiotsim.strategies.search.sampler import BASIC_MODEL, BASIC_PLAYS, UNIFORM
from idiotsim.strategies.search.pimc import POLICY_PARAMS
from rollout_work import decision_pool, new_work, seat_views
from idiotsim.engine.batches import play_games
from idiotsim.strategies.search import STRATEGY
from idiotsim.strategies.loading import load_strategies


TRUTH = -1  # `_rollouts` from the true states
REPLAYED = -2  # `_rollouts` from one sampled state per position (play-fact belief), replayed as the truth is
SAMPLES_ONLY = -3  # `_rollouts` without rollouts: the samples alone (play-fact belief)


@njit(cache=True)
def _rollouts(states, repeats, belief):
    """Rollouts from each state, `repeats` times: each from a fresh sample of the seat's view with
    `belief` (idiotsim.strategies.search.sampler; the hidden pool and plan built once per state, as a search builds them
    once per decision; its K samples are drawn in a row there too), or from the truth (belief TRUTH)."""
    _, (sample, roll, pool, snap, hidden, plan) = new_work()
    rng = np.zeros(1, np.uint64)
    scratch = np.zeros(1, np.uint64)
    params = POLICY_PARAMS.copy()
    places = 0
    if belief == TRUTH or belief == REPLAYED:  # the positions in turn: one position's rollouts in a
        starts = states.copy()                  # row would replay one game
        if belief == REPLAYED:
            for i in range(states.shape[0]):
                seat, obs, hand = seat_views(states[i])
                m = decision_pool(obs, hand, hidden, plan, BASIC_PLAYS)
                search.sample_state_from(obs, hand, rng, starts[i], pool, hidden, m, BASIC_PLAYS, plan)
        for _ in range(repeats):
            for i in range(starts.shape[0]):
                copy_live_table(starts[i], roll)
                seat = states[i, ob.SEAT]
                places += search.rollout(roll, seat, seat, search_knobs.POLICY_BASIC, params, scratch, snap,
                                         search.skips_cycles(search_knobs.POLICY_BASIC))
        return places
    for i in range(states.shape[0]):
        seat, obs, hand = seat_views(states[i])
        sampled_belief = BASIC_PLAYS if belief == SAMPLES_ONLY else belief
        m = decision_pool(obs, hand, hidden, plan, sampled_belief)  # once per position, as a search does per decision
        for _ in range(repeats):
            places += search.sample_state_from(obs, hand, rng, sample, pool, hidden, m, sampled_belief, plan)
            if belief != SAMPLES_ONLY:
                copy_live_table(sample, roll)
                places += search.rollout(roll, seat, seat, search_knobs.POLICY_BASIC, params, scratch, snap,
                                         search.skips_cycles(search_knobs.POLICY_BASIC))
    return places


@njit
def _general_moves(sample, roll, seat, moves, n, places):
    """`basic_moves` by the engine's general loop: each move on a copy of the sample, then `play_on_basic`."""
    for i in range(n):
        roll[:] = sample
        nxt = engine_rollouts.act(roll, seat, moves[i])
        places[i] = engine_rollouts.play_on_basic(roll, nxt, seat)


@njit
def judge_loop(states, repeats, params, compact):
    """The search's inner loop: each position's pool and plan once, then `repeats` fresh samples (play-fact
    belief), each judging every listed move, on the compact layout or by the general loop. Returns (places
    summed, rollouts)."""
    _, (sample, roll, pool, snap, hidden, plan) = new_work()
    rng = np.zeros(1, np.uint64)
    moves = np.zeros(search.MAX_MOVES, np.int64)
    places = np.zeros(search.MAX_MOVES, np.int64)
    total, rollouts = 0, 0
    for i in range(states.shape[0]):
        seat, obs, hand = seat_views(states[i])
        n = search.list_search_moves(obs, hand, params, moves)
        m = decision_pool(obs, hand, hidden, plan, BASIC_PLAYS)
        for _ in range(repeats):
            search.sample_state_from(obs, hand, rng, sample, pool, hidden, m, BASIC_PLAYS, plan)
            if compact:
                basic_rounds.basic_moves(data_pointer(sample), seat, data_pointer(moves), n, data_pointer(places))
            else:
                _general_moves(sample, roll, seat, moves, n, places)
            total += places[:n].sum()
            rollouts += n
    return total, rollouts


def inner_loop_rates(states: np.ndarray, repeats: int) -> dict:
    """Rollouts/s of the search's inner loop on the compact layout and by the general loop, alternating."""
    params = STRATEGY.params({})
    contenders = {"compact": True, "general loop": False}
    results = {name: judge_loop(states[:2], 1, params, compact) for name, compact in contenders.items()}
    best = dict.fromkeys(contenders, 0.0)
    for _ in range(3):
        for name, compact in contenders.items():
            start = time.process_time()
            results[name] = judge_loop(states, repeats, params, compact)
            best[name] = max(best[name], results[name][1] / (time.process_time() - start))
    assert len(set(results.values())) == 1, results  # the same places from the same samples
    return best


def positions(players: int, games: int) -> list:
    found = []
    for g in range(games):
        found += [p for p in decision_positions(Rules(players=players), "basic", 7, g)
                  if p["obs"][ob.DECISION] == ob.TURN][::2]
    return found


def engine_rate(players: int, games: int) -> float:
    seats = load_strategies("basic", players)
    play_games(Rules(players=players), seats, 1, 0, 1000)
    best = 0.0
    for _ in range(3):
        start = time.process_time()
        play_games(Rules(players=players), seats, 1, 0, games)
        best = max(best, games / (time.process_time() - start))
    return best


def rollout_rate(states: np.ndarray, belief: int, repeats: int) -> float:
    _rollouts(states[:2], 1, belief)
    best = 0.0
    for _ in range(3):
        start = time.process_time()
        _rollouts(states, repeats, belief)
        best = max(best, repeats * len(states) / (time.process_time() - start))
    return best


def decision_rate(found: list, k: int, seconds: float) -> tuple:
    """Searched decisions/s (positions with more than one move) and the mean number of moves."""
    params = STRATEGY.params({"rollouts": k})
    moves = np.zeros(search.MAX_MOVES, np.int64)
    searched = []
    for p in found:
        n = search.list_search_moves(p["obs"], p["hand"], params, moves)
        if n > 1:
            searched.append((p, n))
    STRATEGY.decide(searched[0][0]["obs"], searched[0][0]["hand"], params, np.zeros(1, np.uint64))
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        p, _ = searched[done % len(searched)]
        STRATEGY.decide(p["obs"], p["hand"], params, np.array([done], np.uint64))
        done += 1
    return done / (time.process_time() - start), np.mean([n for _, n in searched])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    numba.set_num_threads(1)
    found = positions(args.players, 20 if args.quick else 60)
    states = np.stack([p["state"] for p in found])
    games = engine_rate(args.players, 50_000 if args.quick else 200_000)
    print(f"{args.players} players, one thread, {len(found)} positions (TURN decisions of basic games); "
          "basic rollouts on the compact layout (engine.basic_rounds)")
    print(f"engine, full games of basic:         {games:>12,.0f} games/s")
    repeats = 20 if args.quick else 100
    for belief, label in ((BASIC_PLAYS, "rollouts from sampled states, play-fact belief (the default)"),
                          (BASIC_MODEL, "rollouts from sampled states, pickup-fact belief"),
                          (UNIFORM, "rollouts from sampled states, uniform belief"),
                          (TRUTH, "rollouts from the true states"),
                          (REPLAYED, "rollouts from one sampled state per position, replayed"),
                          (SAMPLES_ONLY, "samples alone, play-fact belief (no rollout)")):
        rate = rollout_rate(states, belief, repeats)
        unit = "samples/s " if belief == SAMPLES_ONLY else "rollouts/s"
        print(f"{label + ':':<64} {rate:>12,.0f} {unit}  ({rate / games:.2f}x the engine's games/s)")
    inner = inner_loop_rates(states, repeats // 4)
    for name, rate in inner.items():
        print(f"{'the search inner loop, ' + name + ' (sampling included):':<64} {rate:>12,.0f} rollouts/s  "
              f"({rate / games:.2f}x the engine's games/s)")
    print(f"{'the search inner loop, compact against the general loop, same process:':<64} "
          f"{inner['compact'] / inner['general loop']:>12.2f}x")
    seconds = 5 if args.quick else 20
    for k in (32, 128):
        rate, moves = decision_rate(found, k, seconds)
        print(decision_line(k, rate, moves, games))


def decision_line(k: int, rate: float, moves: float, games: float) -> str:
    rollouts = rate * k * moves  # the budget: K rollouts per move
    return (f"search decisions, K = {k:<4}  {rate:>12,.0f} decisions/s  "
            f"({moves:.1f} moves per searched decision, {rollouts:,.0f} rollouts/s, "
            f"{rollouts / games:.2f}x the engine's games/s)")


if __name__ == "__main__":
    main()
