"""The engine's trace recording: events as docs/trace.md describes them and a checksum of every observation
handed out, written after ``STATE_SIZE`` in the state when RECORD is on (``trace --engine numba`` and the
equality tests against the reference engine compare them), and their decoding into the trace's dicts. Every
compiled function returns at once when RECORD is off."""
from __future__ import annotations

import numpy as np

from idiotsim.engine.state_layout import (EV_END, EV_OUT, EV_PICKUP, EV_PLAY, EV_SWAP, EV_WIDTH, LOG_CAP, N_EVENTS, N_OBS,
                                          RECORD, TRACE, TRACE_CAP)
from idiotsim.game import observation as ob
from idiotsim.game.cards import BASIC_KEY, RANK_NAMES
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


def _swap_ranks(code: int) -> list:
    return [RANK_NAMES[code // 169], RANK_NAMES[code // 13 % 13], RANK_NAMES[code % 13]]


def event_dict(row, n: int) -> dict:
    """A recorded event as the docs/trace.md trace dict."""
    kind, rnd, seat = int(row[0]), int(row[1]), int(row[2])
    if kind == EV_SWAP:
        return {"round": rnd, "seat": seat, "action": "swap", "faceup": _swap_ranks(int(row[3])),
                "hand": _swap_ranks(int(row[4]))}
    if kind == EV_PLAY:
        return {"round": rnd, "seat": seat, "action": "play", "from": ob.SOURCE_NAMES[row[3]],
                "rank": RANK_NAMES[row[4]], "count": int(row[5]), "burn": bool(row[6])}
    if kind == EV_PICKUP:
        event = {"round": rnd, "seat": seat, "action": "pickup"}
        if row[3] >= 0:
            event.update({"from": ob.SOURCE_NAMES[row[3]], "rank": RANK_NAMES[row[4]]})
        event["cards"] = int(row[5])
        return event
    if kind == EV_OUT:
        return {"round": rnd, "seat": seat, "action": "out", "place": int(row[3])}
    return {"round": rnd, "action": "end", "places": [int(p) for p in row[3: 3 + n]], "stalled": bool(seat)}
