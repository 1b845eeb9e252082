"""`basic`: the deterministic reference strategy of docs/rules.md, exactly (its decisions: ``idiotsim.game.basic_player``,
where both engines play it inline)."""
from idiotsim.game.basic_player import decide
from idiotsim.strategies.constraints import constrained_move
from idiotsim.strategies.toolkit import Strategy, strategy_function


@strategy_function
def decide_constrained(obs, hand, params, rng):
    """`basic` under the constraint block at params[0:] (it has no knobs): its move, or the nearest allowed one."""
    return constrained_move(obs, hand, params, 0, decide(obs, hand, params, rng))


STRATEGY = Strategy(
    name="basic",
    decide=decide,
    description="the docs/rules.md reference: best 3 face-up; lowest legal rank, all copies; 2s, then 10s; never picks up by choice",
    looks_at=("own cards", "pile top"),
    constrained_decide=decide_constrained,
)
