"""The project's search against OpenSpiel's ISMCTS (issue 20): each rotated over the seats of the same
deals with basic in the other seats, paired with basic in that seat on the same deal (4 players).

    .venv/bin/python benchmarks/search_vs_ismcts.py calibrate --deals 6            # time a decision
    .venv/bin/python benchmarks/search_vs_ismcts.py run --simulations 8,80 --deals 500 --out /tmp/svi
    .venv/bin/python benchmarks/search_vs_ismcts.py report --out /tmp/svi --page reports/search_vs_ismcts.md

`calibrate` plays the same games with `search` (the default, K = 128) and with ISMCTS at a probe
number of simulations in one process, deal by deal in turn, and prints the seconds a decision of
each (timed inside the decision only) and the simulations that give ISMCTS the search's time per
decision. `run` plays every subject on every seat of each deal (resumable: a folder per subject, a
file per chunk of deals); `report` writes the page. ISMCTS seats play on the reference engine (a
Python strategy), the search and basic on the numba engine; the decks, the seats' random streams
and so every basic move are the same on both engines.
"""
from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from idiotsim.game.rules import Rules
from idiotsim.engine.batches import play_seated
from idiotsim.analysis.stats import t95
from idiotsim.strategies.loading import SeatStrategy, load_strategy
from idiotsim.strategies.toolkit import Strategy
from idiotsim.game.moves import compiled

SEARCH = "search"
UCT_C = 2.0
CHUNK_DEALS = 10


def ismcts_spec(simulations: int) -> str:
    return f"openspiel:ismcts:simulations={simulations},uct_c={UCT_C:g},final=0"


def seatings(players: int, deals: np.ndarray) -> tuple:
    """Game ids, deal ids and seating (strategy 1 at seat s, strategy 0 elsewhere) of every (deal, seat)."""
    games = (deals[:, None] * players + np.arange(players)[None, :]).ravel()
    seating = np.zeros((len(games), players), np.int8)
    seating[np.arange(len(games)), games % players] = 1
    return games, games // players, seating


def subject_places(rules: Rules, seed: int, spec: str, deals: np.ndarray) -> np.ndarray:
    """The subject's place on each (deal, seat): shape (deals, players)."""
    games, deal_ids, seating = seatings(rules.players, deals)
    strategies = [load_strategy("basic"), load_strategy(spec)]
    places = play_seated(rules, strategies, seed, games, deal_ids, seating)["places"]
    return places[np.arange(len(games)), games % rules.players].reshape(len(deals), rules.players).astype(np.int64)


def basic_places(rules: Rules, seed: int, deals: np.ndarray) -> np.ndarray:
    """Every seat's place with basic in every seat, (deals, players)."""
    games, deal_ids, seating = seatings(rules.players, deals)
    places = play_seated(rules, [load_strategy("basic")] * 2, seed, games, deal_ids, seating)["places"]
    return places[np.arange(len(games)), games % rules.players].reshape(len(deals), rules.players).astype(np.int64)


# ---- calibrate ------------------------------------------------------------------------------------

class Timed:
    """A strategy's decision function that counts its decisions and the seconds spent in them."""

    def __init__(self, seat: SeatStrategy):
        decide = seat.strategy.decide
        self.function = compiled(decide) if hasattr(decide, "signatures") else decide.py_func
        self.seconds, self.decisions = 0.0, 0
        strategy = Strategy(name=seat.strategy.name, decide=SimpleNamespace(py_func=self), description="timed")
        self.seat = SeatStrategy(seat.label, strategy, seat.params)

    def __call__(self, obs, hand, params, rng):
        start = time.perf_counter()
        move = self.function(obs, hand, params, rng)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return move


def calibrate(args) -> None:
    rules = Rules(players=args.players)
    subjects = {SEARCH: Timed(load_strategy(SEARCH)), "ismcts": Timed(load_strategy(ismcts_spec(args.probe)))}
    basic = load_strategy("basic")
    for d in range(args.deals):  # deal by deal in turn: the machine's load falls on both alike
        for timed in subjects.values():
            games, deal_ids, seating = seatings(rules.players, np.array([args.seed_deal + d]))
            play_seated(rules, [basic, timed.seat], args.seed, games, deal_ids, seating)
    per_decision = {name: t.seconds / t.decisions for name, t in subjects.items()}
    per_simulation = per_decision["ismcts"] / args.probe
    result = {"search_seconds_per_decision": per_decision[SEARCH], "search_decisions": subjects[SEARCH].decisions,
              "ismcts_probe_simulations": args.probe, "ismcts_seconds_per_decision": per_decision["ismcts"],
              "ismcts_decisions": subjects["ismcts"].decisions, "ismcts_seconds_per_simulation": per_simulation,
              "equal_time_simulations": per_decision[SEARCH] / per_simulation}
    print(json.dumps(result, indent=2))
    if args.save:
        Path(args.save).write_text(json.dumps(result, indent=2) + "\n")


# ---- run and report --------------------------------------------------------------------------------

def subjects_of(simulations) -> dict:
    return {"basic": None, SEARCH: SEARCH, **{f"ismcts-{s}": ismcts_spec(s) for s in simulations}}


def run(args) -> None:
    rules = Rules(players=args.players)
    sims = [int(s) for s in args.simulations.split(",")]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "config.json").write_text(json.dumps({"players": args.players, "seed": args.seed,
                                                      "deals": args.deals, "simulations": sims}) + "\n")
    for name, spec in subjects_of(sims).items():
        folder = args.out / name
        folder.mkdir(exist_ok=True)
        for start in range(0, args.deals, CHUNK_DEALS):
            path = folder / f"deals-{start:06d}.npy"
            if path.exists():
                continue
            deals = np.arange(start, min(args.deals, start + CHUNK_DEALS))
            t0 = time.perf_counter()
            places = basic_places(rules, args.seed, deals) if spec is None else subject_places(rules, args.seed, spec,
                                                                                                 deals)
            tmp = path.with_suffix(".tmp.npy")
            np.save(tmp, places)
            tmp.rename(path)
            print(f"{name} deals {start}..{deals[-1]}: {time.perf_counter() - t0:.1f} s", flush=True)


def load_places(folder: Path) -> np.ndarray:
    return np.concatenate([np.load(p) for p in sorted(folder.glob("deals-*.npy")) if ".tmp" not in p.name])


def paired(a: np.ndarray, b: np.ndarray) -> tuple:
    """Mean of a - b over deals (each deal: the mean over its seats) with a 95% t half-width."""
    per_deal = (a - b).mean(axis=1)
    d = len(per_deal)
    return float(per_deal.mean()), float(t95(d - 1) * per_deal.std(ddof=1) / math.sqrt(d)), d


def report(args) -> None:
    config = json.loads((args.out / "config.json").read_text())
    calibration = json.loads(Path(args.calibration).read_text())
    names = list(subjects_of(config["simulations"]))
    places = {name: load_places(args.out / name) for name in names}
    deals = min(len(p) for p in places.values())
    places = {name: p[:deals] for name, p in places.items()}
    rows = []
    for name in names[1:]:
        mean, half, _ = paired(places[name], places["basic"])
        wins = float((places[name] == 1).mean())
        rows.append(f"| {name} | {places[name].mean():.3f} | {mean:+.3f} +/- {half:.3f} | {wins:.3f} |")
    versus = []
    for name in names[2:]:
        mean, half, _ = paired(places[SEARCH], places[name])
        versus.append(f"| search - {name} | {mean:+.3f} +/- {half:.3f} |")
    for folder in args.extra:  # a further ISMCTS budget on fewer deals (its own basic and search rows)
        more = json.loads((folder / "config.json").read_text())
        extra = {name: load_places(folder / name) for name in subjects_of(more["simulations"])}
        n = min(len(p) for p in extra.values())
        extra = {name: p[:n] for name, p in extra.items()}
        for name in list(extra)[2:]:
            mean, half, _ = paired(extra[name], extra["basic"])
            rows.append(f"| {name} ({n} deals) | {extra[name].mean():.3f} | {mean:+.3f} +/- {half:.3f} | "
                        f"{float((extra[name] == 1).mean()):.3f} |")
            mean, half, _ = paired(extra[SEARCH], extra[name])
            versus.append(f"| search - {name} (the same {n} deals) | {mean:+.3f} +/- {half:.3f} |")
    page = PAGE.format(deals=deals, players=config["players"], seed=config["seed"], rows="\n".join(rows),
                       versus="\n".join(versus), uct=UCT_C, sims=", ".join(map(str, config["simulations"])),
                       calibration=json.dumps(calibration, indent=2), load=args.load,
                       search_ms=1000 * calibration["search_seconds_per_decision"],
                       sim_ms=1000 * calibration["ismcts_seconds_per_simulation"],
                       equal=calibration["equal_time_simulations"], answer=args.answer, notes=args.notes)
    Path(args.page).write_text(page)
    print(page)


PAGE = """# The project's search against OpenSpiel's ISMCTS

**Question.** Is the project's determinized search (`search`, the default: K = 128 sampled states a
decision, sequential halving, basic rollouts on the numba engine) stronger than OpenSpiel's
information-set MCTS at the same time per decision, and against ISMCTS given 10 times that time?

**Answer.** {answer}

## Design

{players} players, {deals} deals (seed {seed}, the tournament's shuffles). Every subject sits in each
seat of each deal in turn with `basic` in the other seats; its place is paired with `basic`'s place
in the same seat of the same deal (basic in every seat), and the difference averaged over the
seats of a deal; the 95% CIs are t intervals over deals. The subjects' random streams are the
seats' streams of each game, the same for every subject. {notes}

| subject | mean place | place - basic's in the same seat | win rate |
|---|---|---|---|
{rows}

Paired directly on the same deals and seats (negative: the search finishes ahead):

| difference of mean place | 95% CI |
|---|---|
{versus}

## ISMCTS's configuration, and why

- OpenSpiel 2.0.2's Python `ISMCTSBot` (`open_spiel.python.algorithms.ismcts`) on the `idiot` game of
  `idiotsim.interop`, information sets keyed by the information-state string (the seat's
  observation and hand), unlimited world samples: every simulation resamples the hidden cards
  with `resample_from_infostate`, which is the search player's own determinizer.
- Leaf evaluation: one rollout of `basic` at every seat to the end of the round on the numba engine,
  each seat's place mapped to its utility (+1 first .. -1 the Idiot). It is the search's own rollout
  policy and engine, so the two differ in how they spend their rollouts: a tree over
  information sets against flat, equal sampling of every move. OpenSpiel's random-rollout
  evaluator would play a Python random game (hundreds of actions) per leaf and be weaker and slower.
- UCT constant c = {uct}: OpenSpiel's examples use 2 with returns in [-1, 1]; the places' utilities
  lie there. Final policy: the most visited move (`MAX_VISIT_COUNT`, the default, the robust child
  of Cowling, Powley and Whitehouse), ties drawn at random.
- Simulations: {sims}. Calibrated in one process (`calibrate`, load average {load}): the search
  spent {search_ms:.2f} ms a decision and ISMCTS {sim_ms:.2f} ms a simulation, so equal time is about
  {equal:.1f} simulations; the first figure is that, the second 10 times it. (ISMCTS's first
  simulation only evaluates the root, so 2 is the least that chooses a move.)

```json
{calibration}
```

Made by `benchmarks/search_vs_ismcts.py`: `calibrate --deals 4 --probe 20 --save
reports/search_vs_ismcts/calibration.json`, `run --simulations 2,21 --deals 500`, `run --simulations
200 --deals 20` (another folder, given to `report --extra`), then `report` with the answer and the
notes as arguments (NUMBA_NUM_THREADS=1, nice). It is not among the reports
`idiotsim report --all` regenerates, being an hour of Python-speed play (one thread).
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    cal = commands.add_parser("calibrate")
    cal.add_argument("--deals", type=int, default=6)
    cal.add_argument("--probe", type=int, default=20, help="ISMCTS simulations timed")
    cal.add_argument("--seed-deal", type=int, default=100_000, help="first deal (outside the run's deals)")
    cal.add_argument("--save")
    for sub in (cal, commands.add_parser("run"), commands.add_parser("report")):
        sub.add_argument("--players", type=int, default=4)
        sub.add_argument("--seed", type=int, default=2020)
    commands.choices["run"].add_argument("--simulations", required=True, help="ISMCTS simulations, comma list")
    commands.choices["run"].add_argument("--deals", type=int, default=500)
    for sub in (commands.choices["run"], commands.choices["report"]):
        sub.add_argument("--out", type=Path, required=True)
    rep = commands.choices["report"]
    rep.add_argument("--page", required=True)
    rep.add_argument("--calibration", required=True)
    rep.add_argument("--load", default="?")
    rep.add_argument("--answer", default="(see the tables)")
    rep.add_argument("--extra", type=Path, nargs="*", default=[], help="run folders of further budgets")
    rep.add_argument("--notes", default="", help="a paragraph under the design")
    args = parser.parse_args()
    {"calibrate": calibrate, "run": run, "report": report}[args.command](args)


if __name__ == "__main__":
    main()
