"""The learned player's model: one flat float64 vector (the `learned` family's weight block, after its
knobs in ``params``), its file format, and the numba scorer that reads it.

Layout of the vector (offsets from its start):

    [FORMAT, kind, hidden, STATE_FEATURES, MOVE_FEATURES, SWAP_FEATURES, memory, hidden2]   the header (HEADER
        values; hidden2 is the second layer's width of an MLP2, 0 for the other kinds)
    swap head: SWAP_FEATURES weights (a linear score of each distinct face-up choice, R6)
    kind LINEAR: A (STATE_FEATURES x MOVE_FEATURES, row-major), w (MOVE_FEATURES):
        score(move) = m . (w + s A)                       (s: state part, m: move part)
    kind MLP: Ws (STATE_FEATURES x hidden), Wm (MOVE_FEATURES x hidden), b (hidden), v (hidden), w (MOVE_FEATURES):
        score(move) = v . relu(s Ws + m Wm + b) + m . w   (s Ws + b is computed once per decision)
    kind MLP2: Ws, Wm, b as MLP's, W2 (hidden x hidden2), b2 (hidden2), v (hidden2), w (MOVE_FEATURES):
        score(move) = v . relu(relu(s Ws + m Wm + b) W2 + b2) + m . w

`memory` is a property of the model, not of a knob: what the inputs it was fitted on remember of the cards that
have left play, and so the inputs the player computes for it (``features``' `counting`): MEMORY_FULL (0, every
model before issue 44: everything the table has seen), MEMORY_NONE (1: what a player who does not remember can
know) or MEMORY_SPECIALS (2: no memory but the burned 2s and 10s).

A model file is an ``.npz`` with ``model`` (the vector) and ``meta`` (a JSON text: how it was trained);
``load_model`` checks the format, the feature layout and the numbers, and reports any problem as one
UserError line.
"""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np

from idiotsim.game.cards import BASIC_KEY
from idiotsim.errors import UserError
from idiotsim.jit import kernel
from idiotsim.strategies.learned.features import FULL, MOVE_FEATURES, NONE, SPECIALS, STATE_FEATURES, SWAP_FEATURES
from idiotsim.game.observation import NR

FORMAT = 1.0  # the layout version; a file of another version is refused
LINEAR, MLP, MLP2 = 0, 1, 2
KIND_NAMES = {LINEAR: "linear", MLP: "mlp", MLP2: "mlp2"}
H_FORMAT, H_KIND, H_HIDDEN, H_STATE, H_MOVE, H_SWAP, H_MEMORY, H_HIDDEN2 = range(8)
MEMORY_FULL, MEMORY_NONE, MEMORY_SPECIALS = 0, 1, 2  # values at H_MEMORY
MEMORY_NAMES = {MEMORY_FULL: "full", MEMORY_NONE: "none", MEMORY_SPECIALS: "burned 2s and 10s"}
COUNTING_OF_MEMORY = (FULL, NONE, SPECIALS)  # the features' `counting` argument for each H_MEMORY value
HEADER = 8
MAX_HIDDEN = 1024  # the player's hidden-layer buffers live in its stack frame (idiotsim.engine.memory)
SWAP_HEAD = HEADER


def body_size(kind: int, hidden: int, hidden2: int = 0) -> int:
    if kind == LINEAR:
        return STATE_FEATURES * MOVE_FEATURES + MOVE_FEATURES
    if kind == MLP2:
        return (STATE_FEATURES + MOVE_FEATURES + 1) * hidden + (hidden + 2) * hidden2 + MOVE_FEATURES
    return (STATE_FEATURES + MOVE_FEATURES + 2) * hidden + MOVE_FEATURES


def model_size(kind: int, hidden: int, hidden2: int = 0) -> int:
    return HEADER + SWAP_FEATURES + body_size(kind, hidden, hidden2)


def basic_swap_head() -> np.ndarray:
    """Swap weights that choose basic's swap: the face-up cards' places in basic's key."""
    head = np.zeros(SWAP_FEATURES)
    head[:NR] = 3 * BASIC_KEY / (NR - 1)
    return head


def pack(kind: int, hidden: int, body: np.ndarray, swap_head: np.ndarray | None = None,
         memory: int = MEMORY_FULL, hidden2: int = 0) -> np.ndarray:
    """The model vector of a body (LINEAR: A.ravel(), w; MLP: Ws.ravel(), Wm.ravel(), b, v, w; MLP2: Ws.ravel(),
    Wm.ravel(), b, W2.ravel(), b2, v, w); `memory`: the inputs it was fitted on (H_MEMORY)."""
    header = np.zeros(HEADER)
    header[[H_FORMAT, H_KIND, H_HIDDEN, H_STATE, H_MOVE, H_SWAP, H_MEMORY, H_HIDDEN2]] = (
        FORMAT, kind, hidden, STATE_FEATURES, MOVE_FEATURES, SWAP_FEATURES, memory, hidden2 if kind == MLP2 else 0)
    head = basic_swap_head() if swap_head is None else np.asarray(swap_head, np.float64)
    vector = np.concatenate([header, head, np.asarray(body, np.float64)])
    if len(vector) != model_size(kind, hidden, hidden2):
        raise ValueError(f"a {KIND_NAMES[kind]} body of hidden {hidden} needs {body_size(kind, hidden, hidden2)} "
                         "numbers")
    return vector


def memory_of(vector: np.ndarray) -> int:
    """What the inputs the model was fitted on remember (H_MEMORY: MEMORY_FULL, MEMORY_NONE, MEMORY_SPECIALS)."""
    return int(vector[H_MEMORY])


def with_basic_margin(vector: np.ndarray, margin: float) -> np.ndarray:
    """The model with `margin` added to basic's move's score (the move part's M_BASIC weight, the last block
    of either kind): it leaves basic's move only for a move it scores higher by more than the margin."""
    from idiotsim.strategies.learned.features import M_BASIC
    out = np.array(vector, np.float64)
    out[len(out) - MOVE_FEATURES + M_BASIC] += margin
    return out


def basic_model() -> np.ndarray:
    """A linear model that prefers basic's move (the move part's M_BASIC) and basic's swap."""
    from idiotsim.strategies.learned.features import M_BASIC
    body = np.zeros(body_size(LINEAR, 0))
    body[STATE_FEATURES * MOVE_FEATURES + M_BASIC] = 1.0
    return pack(LINEAR, 0, body)


def write_model_file(path, vector: np.ndarray, meta: dict) -> None:
    """A model file at `path` (the format `load_model` reads): the same vector and meta give the same bytes.
    ``idiotsim.learn.train.save_model`` writes one atomically."""
    check_vector(vector, str(path))
    text = json.dumps(meta, indent=1, sort_keys=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:  # fixed dates: same bytes every time
        for name, data in (("model.npy", _npy_bytes(vector)), ("meta.json", text.encode())):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


def _npy_bytes(vector: np.ndarray) -> bytes:
    import io
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(vector, np.float64), allow_pickle=False)
    return buffer.getvalue()


def load_model(path) -> tuple[np.ndarray, dict]:
    """(vector, meta) of a model file; a missing, corrupt or incompatible file is a UserError."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"learned model file {path} does not exist")
    try:
        with zipfile.ZipFile(path) as z:
            import io
            vector = np.load(io.BytesIO(z.read("model.npy")), allow_pickle=False)
            meta = json.loads(z.read("meta.json").decode())
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, UnicodeDecodeError) as e:
        raise UserError(f"learned model file {path} is corrupt: {type(e).__name__}: {e}") from None
    check_vector(vector, str(path))
    return vector.astype(np.float64), meta


def check_vector(vector: np.ndarray, where: str) -> None:
    v = np.asarray(vector)
    if v.ndim != 1 or len(v) < HEADER or v.dtype.kind != "f":
        raise UserError(f"learned model {where}: not a model vector")
    if v[H_FORMAT] != FORMAT:
        raise UserError(f"learned model {where}: format {v[H_FORMAT]:g}, this version reads format {FORMAT:g}")
    kind, hidden = int(v[H_KIND]), int(v[H_HIDDEN])
    if kind not in KIND_NAMES or (v[H_STATE], v[H_MOVE], v[H_SWAP]) != (STATE_FEATURES, MOVE_FEATURES, SWAP_FEATURES):
        raise UserError(f"learned model {where}: made for another feature layout (kind {kind}, features "
                        f"{v[H_STATE]:g}/{v[H_MOVE]:g}/{v[H_SWAP]:g}; this version has "
                        f"{STATE_FEATURES}/{MOVE_FEATURES}/{SWAP_FEATURES})")
    hidden2 = int(v[H_HIDDEN2])
    if v[H_MEMORY] not in MEMORY_NAMES or (kind != MLP2 and hidden2 != 0):
        raise UserError(f"learned model {where}: its header's memory kind is {v[H_MEMORY]:g} and its last value "
                        f"{v[H_HIDDEN2]:g}; this version reads a memory kind of "
                        + ", ".join(f"{k} ({name})" for k, name in MEMORY_NAMES.items())
                        + " and a last value of 0 (the second layer's width for an mlp2)")
    if kind in (MLP, MLP2) and not 1 <= hidden <= MAX_HIDDEN:
        raise UserError(f"learned model {where}: {hidden} hidden units, this version plays 1 to {MAX_HIDDEN}")
    if kind == MLP2 and not 1 <= hidden2 <= MAX_HIDDEN - hidden:
        raise UserError(f"learned model {where}: {hidden2} units in the second layer, this version plays 1 to "
                        f"{MAX_HIDDEN - hidden} after a first layer of {hidden}")
    if len(v) != model_size(kind, hidden, hidden2):
        raise UserError(f"learned model {where}: {len(v)} numbers, a {KIND_NAMES[kind]} model of hidden {hidden} "
                        f"has {model_size(kind, hidden, hidden2)}")
    if not np.all(np.isfinite(v)):
        raise UserError(f"learned model {where}: holds numbers that are not finite")


# ---- scoring (numba) ---------------------------------------------------------------------------

@kernel(inline="always")
def input_counting(params, counting_at, model_at):
    """The `counting` argument of the feature functions for the model at params[model_at:]: the inputs it was
    fitted on (H_MEMORY), whatever the `counting` knob at params[counting_at] says, for a model fitted with
    less than full memory; for a full-memory model the knob (0 there: an ablation of a model fitted with
    memory, not a player who does not remember)."""
    memory = int(params[model_at + H_MEMORY])
    if memory == MEMORY_NONE:
        return NONE
    if memory == MEMORY_SPECIALS:
        return SPECIALS
    return int(params[counting_at])


@kernel
def state_part(model, at, n, idx, val, pre):
    """Once per decision, from the state part's non-zero inputs (idx, val)[:n] (`state_inputs`, in
    increasing index order): for an MLP, pre[:hidden] = s Ws + b; for a linear model, pre[:MOVE_FEATURES]
    = w + s A. `at`: the model's offset in params. The products are added input by input in index
    order, so the floats are those of the full sum: a zero input adds nothing."""
    kind = int(model[at + H_KIND])
    body = at + HEADER + SWAP_FEATURES
    if kind == LINEAR:
        width = MOVE_FEATURES
        first = body + STATE_FEATURES * MOVE_FEATURES
    else:
        width = int(model[at + H_HIDDEN])
        first = body + (STATE_FEATURES + MOVE_FEATURES) * width
    for k in range(width):
        pre[k] = model[first + k]
    for i in range(n):
        x = val[i]
        row = body + idx[i] * width
        for k in range(width):
            pre[k] += x * model[row + k]


@kernel
def move_score(model, at, pre, n, idx, val, h):
    """The score of one move from its move part's non-zero inputs (idx, val)[:n] (`move_inputs`, in
    increasing index order; pre: `state_part`'s; h: hidden-size scratch)."""
    kind = int(model[at + H_KIND])
    score = 0.0
    if kind == LINEAR:
        for i in range(n):
            score += val[i] * pre[idx[i]]
        return score
    hidden = int(model[at + H_HIDDEN])
    hidden2 = int(model[at + H_HIDDEN2]) if kind == MLP2 else 0
    wm = at + HEADER + SWAP_FEATURES + STATE_FEATURES * hidden
    v = wm + MOVE_FEATURES * hidden + hidden  # MLP2: W2, then b2, then v
    w = v + (hidden + 2) * hidden2 if kind == MLP2 else v + hidden
    for k in range(hidden):
        h[k] = pre[k]
    for i in range(n):
        x = val[i]
        score += x * model[w + idx[i]]
        row = wm + idx[i] * hidden
        for k in range(hidden):
            h[k] += x * model[row + k]
    if kind != MLP2:
        for k in range(hidden):
            if h[k] > 0.0:
                score += h[k] * model[v + k]
        return score
    b2 = v + hidden * hidden2
    for j in range(hidden2):  # the second layer's sums in h[hidden:], from the first layer's active units
        h[hidden + j] = model[b2 + j]
    for k in range(hidden):
        if h[k] > 0.0:
            x = h[k]
            row = v + k * hidden2
            for j in range(hidden2):
                h[hidden + j] += x * model[row + j]
    for j in range(hidden2):
        if h[hidden + j] > 0.0:
            score += h[hidden + j] * model[b2 + hidden2 + j]
    return score


@kernel
def swap_score(model, at, f):
    """The swap head's score of one choice (f: its `swap_features`)."""
    score = 0.0
    for k in range(SWAP_FEATURES):
        score += model[at + SWAP_HEAD + k] * f[k]
    return score
