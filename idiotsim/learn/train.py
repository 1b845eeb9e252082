"""Fitting a model to the search's move values, in numpy (deterministic: the same data and seed give
the same model bytes).

The loss fits each move's value relative to its position: with y = -(mean place of the move - the
position's mean over its moves) and the model's scores centred the same way, the squared error per
move, averaged within a position and then over positions (each position weighs the same, whatever
its number of moves). Adam on minibatches of positions; after each epoch the model is judged on the
held-out games (``dataset.held_out_games``) and the epoch with the best held-out loss is kept (early
stopping after `patience` epochs without improvement). With `lr_decay` below 1 the learning rate
falls geometrically from epoch to epoch, which lets a long fit settle instead of wandering at its
first rate.

Kinds (``model``): LINEAR, score = m . (w + s A) (every state input interacts with every move input);
MLP, score = v . relu(s Ws + m Wm + b) + m . w; MLP2, a second hidden layer of `hidden2` units between
the first and v (score = v . relu(relu(s Ws + m Wm + b) W2 + b2) + m . w). The swap head (linear on the
swap features) is fitted by the same loss on the swap positions, when the data holds any.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from idiotsim.learn.dataset import Positions, move_rows
from idiotsim.strategies.learned.features import M_BASIC, MOVE_FEATURES, STATE_FEATURES, SWAP_FEATURES
from idiotsim.runs.atomic_files import write_atomic
from idiotsim.strategies.learned.model import LINEAR, MEMORY_FULL, MLP, MLP2, basic_swap_head, pack, write_model_file


@dataclass(frozen=True)
class TrainConfig:
    kind: int = MLP
    hidden: int = 32
    hidden2: int = 0  # the second layer's units (MLP2 only, at least 1 there)
    seed: int = 1
    epochs: int = 40
    patience: int = 6
    batch: int = 256  # positions per step
    learning_rate: float = 0.003
    l2: float = 1e-5
    lr_decay: float = 1.0  # the learning rate is multiplied by this after each epoch (1: constant)
    memory: int = MEMORY_FULL  # the inputs fitted on: model.MEMORY_FULL, MEMORY_NONE (a no-memory model), ..._SPECIALS


def targets(place: np.ndarray, move_pos: np.ndarray) -> np.ndarray:
    """-(place - the position's mean place): a better move has a larger target."""
    return -(place - np.repeat(_segment_mean(place, move_pos), np.diff(move_pos)))


def _segment_mean(values: np.ndarray, move_pos: np.ndarray) -> np.ndarray:
    return np.add.reduceat(values, move_pos[:-1], axis=0) / np.diff(move_pos).reshape((-1,) + (1,) * (values.ndim - 1))


class Net:
    """A model's arrays and their forward and backward passes on a batch of positions."""

    def __init__(self, kind: int, hidden: int, rng: np.random.Generator, n_state: int = STATE_FEATURES,
                 n_move: int = MOVE_FEATURES, hidden2: int = 0):
        self.kind, self.hidden, self.hidden2 = kind, hidden, hidden2 if kind == MLP2 else 0
        self.n_state, self.n_move = n_state, n_move
        w = np.zeros(n_move)
        if n_move == MOVE_FEATURES:
            w[M_BASIC] = 0.05  # start at basic's choice: a small bias for basic's move
        if kind == LINEAR:
            self.arrays = {"A": np.zeros((n_state, n_move)), "w": w}
        else:
            last = self.hidden2 or hidden  # the width v reads: an MLP2's second layer goes between the first and v
            self.arrays = {"Ws": rng.normal(0, 1 / np.sqrt(n_state), (n_state, hidden)),
                           "Wm": rng.normal(0, 1 / np.sqrt(n_move), (n_move, hidden)),
                           "b": np.zeros(hidden), "v": rng.normal(0, 0.1 / np.sqrt(last), last), "w": w}
        if kind == MLP2:
            self.arrays["W2"] = rng.normal(0, np.sqrt(2 / hidden), (hidden, hidden2))
            self.arrays["b2"] = np.zeros(hidden2)

    def body(self) -> np.ndarray:
        a = self.arrays
        if self.kind == LINEAR:
            return np.concatenate([a["A"].ravel(), a["w"]])
        second = [a["W2"].ravel(), a["b2"]] if self.kind == MLP2 else []
        return np.concatenate([a["Ws"].ravel(), a["Wm"].ravel(), a["b"], *second, a["v"], a["w"]])

    def scores(self, s: np.ndarray, m: np.ndarray, owner: np.ndarray):
        """Every move's score, and what the backward pass needs."""
        a = self.arrays
        if self.kind == LINEAR:
            u = s @ a["A"]  # per position
            return np.einsum("ij,ij->i", m, u[owner] + a["w"]), (u,)
        z = (s @ a["Ws"] + a["b"])[owner] + m @ a["Wm"]
        h = np.maximum(z, 0.0)
        if self.kind != MLP2:
            return h @ a["v"] + m @ a["w"], (h,)
        h2 = np.maximum(h @ a["W2"] + a["b2"], 0.0)
        return h2 @ a["v"] + m @ a["w"], (h, h2)

    def gradients(self, s, m, owner, move_pos, cache, d) -> dict:
        """The gradient of the loss from d = dloss/dscore per move."""
        a = self.arrays
        if self.kind == LINEAR:
            g = np.add.reduceat(d[:, None] * m, move_pos[:-1], axis=0)  # per position: sum_j d_j m_j
            return {"A": s.T @ g, "w": m.T @ d}
        if self.kind == MLP2:
            h, h2 = cache
            dh2 = np.outer(d, a["v"]) * (h2 > 0)
            dh = (dh2 @ a["W2"].T) * (h > 0)
            second = {"W2": h.T @ dh2, "b2": dh2.sum(axis=0), "v": h2.T @ d}
        else:
            (h,) = cache
            dh = np.outer(d, a["v"]) * (h > 0)
            second = {"v": h.T @ d}
        dpre = np.add.reduceat(dh, move_pos[:-1], axis=0)
        return {"Ws": s.T @ dpre, "Wm": m.T @ dh, "b": dpre.sum(axis=0), "w": m.T @ d, **second}


def loss_and_slope(score: np.ndarray, y: np.ndarray, move_pos: np.ndarray):
    """(loss, dloss/dscore): centred squared error, per position averaged over its moves, then over positions."""
    sizes = np.diff(move_pos)
    residual = score - np.repeat(_segment_mean(score, move_pos), sizes) - y
    per_move_weight = np.repeat(1.0 / sizes, sizes) / len(sizes)
    loss = float(np.sum(per_move_weight * residual ** 2))
    slope = 2 * per_move_weight * (residual - np.repeat(_segment_mean(residual, move_pos), sizes))
    return loss, slope


def _batch(data: Positions, idx: np.ndarray, swap: bool):
    rows = move_rows(data.move_pos, idx)
    sizes = np.diff(data.move_pos)[idx]
    move_pos = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    owner = np.repeat(np.arange(len(idx)), sizes)
    s = np.zeros((len(idx), 0)) if swap else data.state_x[idx]
    return s, data.move_x[rows], owner, move_pos, targets(data.place[rows], move_pos)


def _batch_loss(net: Net, batch) -> float:
    s, m, owner, move_pos, y = batch
    score, _ = net.scores(s, m, owner)
    return loss_and_slope(score, y, move_pos)[0]


def fit(train: Positions, held: Positions, config: TrainConfig, swap: bool = False, log=None) -> tuple[Net, list]:
    """The net with the best held-out loss, and the curve [(epoch, train loss, held-out loss)]."""
    rng = np.random.default_rng(config.seed)
    if swap:
        net = Net(LINEAR, 0, rng, n_state=0, n_move=SWAP_FEATURES)
        net.arrays = {"A": np.zeros((0, SWAP_FEATURES)), "w": basic_swap_head()}
    else:
        net = Net(config.kind, config.hidden, rng, hidden2=config.hidden2)
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in net.arrays.items()}
    whole_train = _batch(train, np.arange(len(train)), swap)  # the epochs' loss figures, gathered once
    whole_held = _batch(held, np.arange(len(held)), swap)
    best = (_batch_loss(net, whole_held), {k: v.copy() for k, v in net.arrays.items()}, 0)
    curve = [(0, _batch_loss(net, whole_train), best[0])]
    step = 0
    for epoch in range(1, config.epochs + 1):
        rate = config.learning_rate * config.lr_decay ** (epoch - 1)
        order = rng.permutation(len(train))
        for start in range(0, len(order), config.batch):
            s, m, owner, move_pos, y = _batch(train, order[start:start + config.batch], swap)
            score, cache = net.scores(s, m, owner)
            _, d = loss_and_slope(score, y, move_pos)
            grads = net.gradients(s, m, owner, move_pos, cache, d)
            step += 1
            for k, g in grads.items():
                g = g + config.l2 * net.arrays[k]
                m1, m2 = moments[k]
                m1 *= 0.9
                m1 += 0.1 * g
                m2 *= 0.999
                m2 += 0.001 * g * g
                net.arrays[k] -= rate * (m1 / (1 - 0.9 ** step)) / (
                    np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
        held_loss = _batch_loss(net, whole_held)
        curve.append((epoch, _batch_loss(net, whole_train), held_loss))
        if log:
            log(f"epoch {epoch}: train {curve[-1][1]:.5f}, held-out {held_loss:.5f}")
        if held_loss < best[0]:
            best = (held_loss, {k: v.copy() for k, v in net.arrays.items()}, epoch)
        elif epoch - best[2] >= config.patience:
            break
    net.arrays = best[1]
    return net, curve


def model_vector(turn: Net, swap: Net | None, memory: int = MEMORY_FULL) -> np.ndarray:
    head = swap.arrays["w"] if swap is not None else None
    return pack(turn.kind, turn.hidden if turn.kind != LINEAR else 0, turn.body(), head, memory=memory,
                hidden2=turn.hidden2)


def choices(net: Net, data: Positions) -> np.ndarray:
    """The index (within its position) of the move the net scores best, the earlier on ties."""
    s, m, owner, move_pos, _ = _batch(data, np.arange(len(data)), len(data.state_x) == 0)
    score, _ = net.scores(s, m, owner)
    return np.array([int(np.argmax(score[a:b])) for a, b in zip(move_pos[:-1], move_pos[1:])], np.int64)


def save_model(path, vector: np.ndarray, meta: dict) -> Path:
    """Write a model file atomically (``strategies.learned.model.write_model_file``)."""
    return write_atomic(Path(path), lambda tmp: write_model_file(tmp, vector, meta))
