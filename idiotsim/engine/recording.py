"""The engine's trace recording: events as docs/trace.md describes them and a checksum of every observation
handed out, written after ``STATE_SIZE`` in the state when RECORD is on (``trace --engine numba`` and the
equality tests against the reference engine compare them). Every function returns at once when RECORD is off."""
from __future__ import annotations

import numpy as np

from idiotsim.engine.state_layout import EV_END, EV_WIDTH, LOG_CAP, N_EVENTS, N_OBS, RECORD, TRACE, TRACE_CAP
from idiotsim.game import observation as ob
from idiotsim.game.cards import BASIC_KEY
from idiotsim.game.observation import NR
from idiotsim.jit import kernel


@kernel
def record_event(sp, kind, rnd, seat, a, b, c, d):
    if sp[RECORD] == 0:
        return
    i = sp[N_EVENTS]
    if i >= sp[TRACE_CAP]:
        return
    at = TRACE + i * EV_WIDTH
    sp[at] = kind
    sp[at + 1] = rnd
    sp[at + 2] = seat
    sp[at + 3] = a
    sp[at + 4] = b
    sp[at + 5] = c
    sp[at + 6] = d
    sp[N_EVENTS] = i + 1


@kernel
def record_observation(sp, obs, hand):
    k = sp[N_OBS]
    if k < sp[LOG_CAP]:
        sp[TRACE + sp[TRACE_CAP] * EV_WIDTH + k] = np.int64(ob.obs_checksum(obs, hand))
        sp[N_OBS] = k + 1



@kernel
def swap_event_code(sp, row):
    """The 3 ranks counted at sp[row:row + 13] sorted by the `basic` key, encoded as r0 * 169 + r1 * 13 + r2."""
    code = 0
    for key in range(NR):
        for r in range(NR):
            if BASIC_KEY[r] == key:
                for _ in range(sp[row + r]):
                    code = code * NR + r
    return code



@kernel
def record_round_end(sp, rnd, stalled, n):
    """The round's end event: whether it stalled (R20) and every seat's place."""
    if sp[RECORD] == 0 or sp[N_EVENTS] >= sp[TRACE_CAP]:
        return
    at = TRACE + sp[N_EVENTS] * EV_WIDTH
    sp[at] = EV_END
    sp[at + 1] = rnd
    sp[at + 2] = 1 if stalled else 0
    for p in range(n):
        sp[at + 3 + p] = sp[ob.PLACE + p]
    sp[N_EVENTS] += 1
