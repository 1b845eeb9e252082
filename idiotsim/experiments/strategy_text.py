"""How the reports write a strategy spec: knobs set in it, its player count filled in, a face-up row, a value."""
from __future__ import annotations

PLAYERS_MARK = "{players}"  # in a paired strategy spec: the point's player count (learned-fast-{players}p)


def _split_spec(spec: str) -> tuple[str, list]:
    """A strategy spec as (head, [(knob, value text), ...]); head keeps a file path."""
    if ".py:" in spec:
        path, _, rest = spec.partition(".py:")
        name, _, knobs = rest.partition(":")
        head = f"{path}.py:{name}"
    else:
        head, _, knobs = spec.partition(":")
    items = []
    for item in filter(None, (s.strip() for s in knobs.split(","))):
        k, _, v = item.partition("=")
        items.append((k.strip(), v.strip()))
    return head, items


def _fmt_knob(value) -> str:
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return f"{value:g}" if isinstance(value, float) else str(value)


def with_knobs(spec: str, knobs: dict) -> str:
    """The spec with knobs set (replacing a value given in it), e.g. heuristic:burn_min=4; its constraints
    (``+up=10``, idiotsim.strategies.constraints) stay at its end."""
    from idiotsim.strategies.constraints import split_constraints
    spec, constraints = split_constraints(spec)
    head, items = _split_spec(spec)
    items = [(k, v) for k, v in items if k not in knobs] + [(k, _fmt_knob(v)) for k, v in knobs.items()]
    return head + (":" + ",".join(f"{k}={v}" for k, v in items) if items else "") + (
        "+" + constraints if constraints else "")


def row_ranks(row: str) -> tuple:
    """The rank ids of a face-up row written "10-10-Q" (three ranks, any order), ascending (a chart's rows)."""
    from idiotsim.game.cards import RANK_OF_NAME
    names = row.split("-")
    if len(names) != 3 or any(n not in RANK_OF_NAME for n in names):
        raise ValueError(f"a face-up row is three ranks like 10-10-Q, got {row!r}")
    return tuple(sorted(RANK_OF_NAME[n] for n in names))


def row_text(ranks) -> str:
    """A row as a chart writes it: its ranks in card order 2, 3, ..., 10, J, Q, K, A (10-10-Q, 2-10-A, K-K-A)."""
    from idiotsim.game.cards import RANK_NAMES
    return "-".join(RANK_NAMES[r] for r in sorted(ranks))


def at_players(spec: str, players: int) -> str:
    return spec.replace(PLAYERS_MARK, str(players))


def value_text(value) -> str:
    """A rule or knob value as a spec writes it: `true`, `none`, `7`."""
    if isinstance(value, bool):
        return str(value).lower()
    if value is None:
        return "none"
    return str(value)
