"""The learned player's model: one flat float64 vector (the `learned` family's weight block, after its
knobs in ``params``), its file format, and the numba scorer that reads it.

Layout of the vector (offsets from its start):

    [FORMAT, kind, hidden, STATE_FEATURES, MOVE_FEATURES, SWAP_FEATURES, 0, 0]   the header (HEADER values)
    swap head: SWAP_FEATURES weights (a linear score of each distinct face-up choice, R6)
    kind LINEAR: A (STATE_FEATURES x MOVE_FEATURES, row-major), w (MOVE_FEATURES):
        score(move) = m . (w + s A)                       (s: state part, m: move part)
    kind MLP: Ws (STATE_FEATURES x hidden), Wm (MOVE_FEATURES x hidden), b (hidden), v (hidden), w (MOVE_FEATURES):
        score(move) = v . relu(s Ws + m Wm + b) + m . w   (s Ws + b is computed once per decision)

A model file is an ``.npz`` with ``model`` (the vector) and ``meta`` (a JSON text: how it was trained);
``load_model`` checks the format, the feature layout and the numbers, and reports any problem as one
UserError line.
"""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np

from idiotsim.cards import BASIC_KEY
from idiotsim.errors import UserError
from idiotsim.jit import kernel
from idiotsim.learn.features import MOVE_FEATURES, STATE_FEATURES, SWAP_FEATURES
from idiotsim.observation import NR

FORMAT = 1.0  # the layout version; a file of another version is refused
LINEAR, MLP = 0, 1
KIND_NAMES = {LINEAR: "linear", MLP: "mlp"}
H_FORMAT, H_KIND, H_HIDDEN, H_STATE, H_MOVE, H_SWAP = range(6)
HEADER = 8
MAX_HIDDEN = 1024  # the player's hidden-layer buffers live in its stack frame (idiotsim.learn.scratch)
SWAP_HEAD = HEADER


def body_size(kind: int, hidden: int) -> int:
    if kind == LINEAR:
        return STATE_FEATURES * MOVE_FEATURES + MOVE_FEATURES
    return (STATE_FEATURES + MOVE_FEATURES + 2) * hidden + MOVE_FEATURES


def model_size(kind: int, hidden: int) -> int:
    return HEADER + SWAP_FEATURES + body_size(kind, hidden)


def basic_swap_head() -> np.ndarray:
    """Swap weights that choose basic's swap: the face-up cards' places in basic's key."""
    head = np.zeros(SWAP_FEATURES)
    head[:NR] = 3 * BASIC_KEY / (NR - 1)
    return head


def pack(kind: int, hidden: int, body: np.ndarray, swap_head: np.ndarray | None = None) -> np.ndarray:
    """The model vector of a body (LINEAR: A.ravel(), w; MLP: Ws.ravel(), Wm.ravel(), b, v, w)."""
    header = np.zeros(HEADER)
    header[[H_FORMAT, H_KIND, H_HIDDEN, H_STATE, H_MOVE, H_SWAP]] = (FORMAT, kind, hidden, STATE_FEATURES,
                                                                     MOVE_FEATURES, SWAP_FEATURES)
    head = basic_swap_head() if swap_head is None else np.asarray(swap_head, np.float64)
    vector = np.concatenate([header, head, np.asarray(body, np.float64)])
    if len(vector) != model_size(kind, hidden):
        raise ValueError(f"a {KIND_NAMES[kind]} body of hidden {hidden} needs {body_size(kind, hidden)} numbers")
    return vector


def with_basic_margin(vector: np.ndarray, margin: float) -> np.ndarray:
    """The model with `margin` added to basic's move's score (the move part's M_BASIC weight, the last block
    of either kind): it leaves basic's move only for a move it scores higher by more than the margin."""
    from idiotsim.learn.features import M_BASIC
    out = np.array(vector, np.float64)
    out[len(out) - MOVE_FEATURES + M_BASIC] += margin
    return out


def basic_model() -> np.ndarray:
    """A linear model that prefers basic's move (the move part's M_BASIC) and basic's swap."""
    from idiotsim.learn.features import M_BASIC
    body = np.zeros(body_size(LINEAR, 0))
    body[STATE_FEATURES * MOVE_FEATURES + M_BASIC] = 1.0
    return pack(LINEAR, 0, body)


def save_model(path, vector: np.ndarray, meta: dict) -> Path:
    """Write a model file (atomically); the same vector and meta give the same bytes."""
    from idiotsim.files import write_atomic
    check_vector(vector, str(path))
    text = json.dumps(meta, indent=1, sort_keys=True)

    def write(tmp: Path) -> None:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:  # fixed dates: same bytes every time
            for name, data in (("model.npy", _npy_bytes(vector)), ("meta.json", text.encode())):
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, data)
    return write_atomic(Path(path), write)


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
    if kind == MLP and not 1 <= hidden <= MAX_HIDDEN:
        raise UserError(f"learned model {where}: {hidden} hidden units, this version plays 1 to {MAX_HIDDEN}")
    if len(v) != model_size(kind, hidden):
        raise UserError(f"learned model {where}: {len(v)} numbers, a {KIND_NAMES[kind]} model of hidden {hidden} "
                        f"has {model_size(kind, hidden)}")
    if not np.all(np.isfinite(v)):
        raise UserError(f"learned model {where}: holds numbers that are not finite")


# ---- scoring (numba) ---------------------------------------------------------------------------

BLOCK = 8  # first-layer units summed side by side in registers (8 floats: one cache line of a row)


@kernel(inline="always")
def _block(model, rows, width, k, n, idx, val, start, s0):
    """Units k..k+BLOCK-1 of a first layer: start[s0 + k + u] plus the products of the non-zero inputs
    (idx, val)[:n] with their rows (input j's row at rows + j * width), input by input in order. Each
    unit's float operations are the plain loop's; only BLOCK units run side by side."""
    a0, a1, a2, a3 = start[s0 + k], start[s0 + k + 1], start[s0 + k + 2], start[s0 + k + 3]
    a4, a5, a6, a7 = start[s0 + k + 4], start[s0 + k + 5], start[s0 + k + 6], start[s0 + k + 7]
    for i in range(n):
        x = val[i]
        r = rows + idx[i] * width + k
        a0 += x * model[r]
        a1 += x * model[r + 1]
        a2 += x * model[r + 2]
        a3 += x * model[r + 3]
        a4 += x * model[r + 4]
        a5 += x * model[r + 5]
        a6 += x * model[r + 6]
        a7 += x * model[r + 7]
    return a0, a1, a2, a3, a4, a5, a6, a7


@kernel(inline="always")
def _unit(model, rows, width, k, n, idx, val, start, s0):
    """Unit k alone (one after the last whole BLOCK)."""
    a = start[s0 + k]
    for i in range(n):
        a += val[i] * model[rows + idx[i] * width + k]
    return a


@kernel
def state_part(model, at, n, idx, val, pre):
    """Once per decision, from the state part's non-zero inputs (idx, val)[:n] (`state_inputs`, in
    increasing index order): for an MLP, pre[:hidden] = s Ws + b; for a linear model, pre[:MOVE_FEATURES]
    = w + s A. `at`: the model's offset in params. The products are added input by input in index
    order, so the floats are those of the full sum: a zero input adds nothing."""
    body = at + HEADER + SWAP_FEATURES
    if int(model[at + H_KIND]) == LINEAR:
        width = MOVE_FEATURES
        bias = body + STATE_FEATURES * MOVE_FEATURES
    else:
        width = int(model[at + H_HIDDEN])
        bias = body + (STATE_FEATURES + MOVE_FEATURES) * width
    k = 0
    while k + BLOCK <= width:
        pre[k], pre[k + 1], pre[k + 2], pre[k + 3], pre[k + 4], pre[k + 5], pre[k + 6], pre[k + 7] = _block(
            model, body, width, k, n, idx, val, model, bias)
        k += BLOCK
    while k < width:
        pre[k] = _unit(model, body, width, k, n, idx, val, model, bias)
        k += 1


@kernel(inline="always")
def _relu_term(score, a, weight):
    return score + a * weight if a > 0.0 else score


@kernel
def move_score(model, at, pre, n, idx, val):
    """The score of one move from its move part's non-zero inputs (idx, val)[:n] (`move_inputs`, in
    increasing index order; pre: `state_part`'s): the move inputs' linear terms in input order, then
    the hidden units' in unit order, as the plain loops add them."""
    kind = int(model[at + H_KIND])
    score = 0.0
    if kind == LINEAR:
        for i in range(n):
            score += val[i] * pre[idx[i]]
        return score
    hidden = int(model[at + H_HIDDEN])
    wm = at + HEADER + SWAP_FEATURES + STATE_FEATURES * hidden
    v = wm + MOVE_FEATURES * hidden + hidden
    w = v + hidden
    for i in range(n):
        score += val[i] * model[w + idx[i]]
    k = 0
    while k + BLOCK <= hidden:
        a0, a1, a2, a3, a4, a5, a6, a7 = _block(model, wm, hidden, k, n, idx, val, pre, 0)
        score = _relu_term(score, a0, model[v + k])
        score = _relu_term(score, a1, model[v + k + 1])
        score = _relu_term(score, a2, model[v + k + 2])
        score = _relu_term(score, a3, model[v + k + 3])
        score = _relu_term(score, a4, model[v + k + 4])
        score = _relu_term(score, a5, model[v + k + 5])
        score = _relu_term(score, a6, model[v + k + 6])
        score = _relu_term(score, a7, model[v + k + 7])
        k += BLOCK
    while k < hidden:
        score = _relu_term(score, _unit(model, wm, hidden, k, n, idx, val, pre, 0), model[v + k])
        k += 1
    return score


@kernel
def swap_score(model, at, f):
    """The swap head's score of one choice (f: its `swap_features`)."""
    score = 0.0
    for k in range(SWAP_FEATURES):
        score += model[at + SWAP_HEAD + k] * f[k]
    return score
