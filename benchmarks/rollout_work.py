"""What the rollout benchmarks (search.py, belief.py, instructions.py) set up alike: one search work
array cut into the sections a decision uses, and a stored state's seat views."""
from __future__ import annotations

import numpy as np
from numba import njit

from idiotsim.engine import state_layout as layout
from idiotsim.game import observation as ob
from idiotsim.strategies.search import pimc as search


@njit(cache=True)
def work_sections(work):
    """(sample, roll, pool, snap, hidden, plan): the sections of a search work array (idiotsim.strategies.search.pimc's layout)."""
    return (work[search.SAMPLE:search.ROLL], work[search.ROLL:search.POOL], work[search.POOL:search.SNAP],
            work[search.SNAP:search.MOVES], work[search.HIDDEN:search.HIDDEN_BUILT],
            work[search.PLAN:search.WORK_SIZE])


@njit(cache=True)
def decision_pool(obs, hand, hidden, plan, belief):
    """What a search builds once per decision before its samples: the hidden pool in `hidden` (its
    size returned) and the belief's plan of it in `plan`."""
    m = search.hidden_pool(obs, hand, hidden)
    search.plan_samples(obs, hidden, m, belief, plan)
    return m


@njit(cache=True)
def new_work():
    """A zeroed search work array and its sections, as `work_sections` gives them."""
    work = np.zeros(search.WORK_SIZE, np.int64)
    return work, work_sections(work)


@njit(cache=True)
def seat_views(st):
    """(seat, obs, hand) of a stored state: the deciding seat, its observation and its own hand."""
    seat = st[ob.SEAT]
    return seat, st[:ob.OBS_SIZE], st[layout.HANDS + seat * ob.NR: layout.HANDS + seat * ob.NR + ob.NR]
