"""The seats the chart's swap cells play: scanning deals for six cards that hold a face-up row, or for
basic's row laying a rank face-up (numba), and the rotated seats of the other cells."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from idiotsim.game.cards import BASIC_KEY
from idiotsim.game.observation import NR
from idiotsim.game.rng import nb_shuffled_deck
from idiotsim.game.rules import Rules

SWAP_FIRST_DEAL = 2_000_000  # the deals scanned for the swap rows' and ranks' seats
SCAN_BLOCK = 20_000  # deals scanned at a time
MAX_SCAN = 400  # at most this many deals scanned per instance wanted


@njit(cache=True)
def _six_cards(seed, first_deal, deals, n, n_cards, out):
    """out[d, s, r]: the rank-r cards among seat s's face-up and hand cards as dealt (R5) in deal first_deal + d."""
    deck = np.zeros(n_cards, np.int64)
    state = np.zeros(1, np.uint64)
    for d in range(deals):
        nb_shuffled_deck(seed, first_deal + d, 0, deck, state)
        for s in range(n):
            for j in range(3):
                out[d, s, deck[3 * n + 3 * s + j] // 4] += 1
                out[d, s, deck[6 * n + 3 * s + j] // 4] += 1


def six_cards(rules: Rules, seed: int, first_deal: int, deals: int) -> np.ndarray:
    out = np.zeros((deals, rules.players, NR), np.int64)
    _six_cards(seed, first_deal, deals, rules.players, rules.num_cards, out)
    return out


def basic_rows(counts: np.ndarray) -> np.ndarray:
    """basic's face-up row (R6: the three best of the six cards by its key) as rank counts, for counts (..., NR)."""
    order = np.argsort(-BASIC_KEY, kind="stable")  # ranks, best first
    left = np.full(counts.shape[:-1], 3, np.int64)
    row = np.zeros_like(counts)
    for r in order:
        take = np.minimum(counts[..., r], left)
        row[..., r] = take
        left -= take
    return row


def row_counts(ranks) -> np.ndarray:
    return np.bincount(np.asarray(ranks), minlength=NR)


@dataclass(frozen=True)
class Seats:
    """Instances: (deal, seat) pairs of one range, in order."""
    deal: np.ndarray
    seat: np.ndarray

    def __len__(self):
        return len(self.deal)


def find_seats(rules: Rules, seed: int, rows, keep_ranks, wanted: int) -> tuple[dict, dict, dict]:
    """For each row (rank tuple), the first `wanted` seats of the swap range whose six cards hold exactly its ranks;
    for each rank kept in hand, the first `wanted` seats whose basic row lays it face-up; and per row, whether
    basic's row is that row at each seat. Scans blocks of deals until each has its seats, or MAX_SCAN per seat."""
    found_rows = {row: ([], [], []) for row in rows}
    found_keep = {r: ([], []) for r in keep_ranks}
    targets = {row: row_counts(row) for row in rows}
    scanned = 0
    limit = max(SCAN_BLOCK, MAX_SCAN * wanted)
    while scanned < limit and (any(len(v[0]) < wanted for v in found_rows.values())
                               or any(len(v[0]) < wanted for v in found_keep.values())):
        block = min(SCAN_BLOCK, limit - scanned)
        counts = six_cards(rules, seed, SWAP_FIRST_DEAL + scanned, block)
        basic = basic_rows(counts)
        for row, target in targets.items():
            deals, seats, same = found_rows[row]
            need = wanted - len(deals)
            if need <= 0:
                continue
            present = target > 0
            hit = np.all(counts[..., present] == target[present], axis=-1)
            d, s = np.nonzero(hit)
            d, s = d[:need], s[:need]
            deals += (d + SWAP_FIRST_DEAL + scanned).tolist()
            seats += s.tolist()
            same += np.all(basic[d, s] == target, axis=-1).tolist()
        for r, (deals, seats) in found_keep.items():
            need = wanted - len(deals)
            if need <= 0:
                continue
            d, s = np.nonzero(basic[..., r] > 0)
            deals += (d[:need] + SWAP_FIRST_DEAL + scanned).tolist()
            seats += s[:need].tolist()
        scanned += block
    rows_out = {row: Seats(np.array(v[0], np.int64), np.array(v[1], np.int64)) for row, v in found_rows.items()}
    same_out = {row: np.array(v[2], bool) for row, v in found_rows.items()}
    keep_out = {r: Seats(np.array(v[0], np.int64), np.array(v[1], np.int64)) for r, v in found_keep.items()}
    return rows_out, keep_out, same_out


def rotated(first_deal: int, deals: int, n: int) -> Seats:
    ids = np.arange(first_deal, first_deal + deals, dtype=np.int64)
    return Seats(np.repeat(ids, n), np.tile(np.arange(n, dtype=np.int64), deals))
