"""`basic`: the deterministic reference strategy of docs/rules.md, exactly (its decisions: ``idiotsim.game.basic_player``,
where both engines play it inline)."""
from idiotsim.game.basic_player import decide
from idiotsim.strategies.toolkit import Strategy

STRATEGY = Strategy(
    name="basic",
    decide=decide,
    description="the docs/rules.md reference: best 3 face-up; lowest legal rank, all copies; 2s, then 10s; never picks up by choice",
    looks_at=("own cards", "pile top"),
)
