"""`basic`: the deterministic reference strategy of docs/rules.md, exactly."""
from idiotsim.toolkit import Strategy, play_like_basic, strategy_function


@strategy_function
def decide(obs, hand, params, rng):
    return play_like_basic(obs, hand)


STRATEGY = Strategy(
    name="basic",
    decide=decide,
    description="the docs/rules.md reference: best 3 face-up; lowest legal rank, all copies; 2s, then 10s; never picks up by choice",
    looks_at=("own cards", "pile top"),
)
