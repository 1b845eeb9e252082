"""Tables a seat may believe it sits at: the project's determinizer turned into reference-engine
tables, and a table turned into a numba-engine state for rollouts.

`sampled_table` deals the cards the seat has not seen exactly as the search player does
(``idiotsim.strategies.search.pimc.sample_state``, or ``sample_deal`` at the swap): same observation, same hand,
every hidden card drawn from the seat's random stream. Suits never matter (R1), so a sampled table
gives each rank's cards the lowest free codes. A swap of an earlier seat is private (R6): in a
sampled table it is basic's swap of that seat's sampled cards.
"""
from __future__ import annotations

import numpy as np

from idiotsim.engine.hidden_cards import (MAX_TALON, TABLE_SIZE, compose_table, hidden_cards, places_settled)
from idiotsim.engine.rollouts import play_round_out_basic
from idiotsim.game import observation as ob
from idiotsim.game.cards import NUM_RANKS
from idiotsim.interop.stepped import PLAYING, SWAPPING, Table
from idiotsim.game.reference import Round
from idiotsim.strategies.search.sampler import sample_deal, sample_state
from idiotsim.game.basic_player import decide as basic_decide

NR = NUM_RANKS
_NO_PARAMS = np.zeros(0, dtype=np.float64)


class CardCodes:
    """Card codes by rank, lowest first, each handed out once (R1: suits never matter)."""

    def __init__(self, decks: int):
        self.free = [sorted([4 * r + s for s in range(4)] * decks, reverse=True) for r in range(NR)]

    def take(self, rank: int) -> int:
        return self.free[rank].pop()

    def many(self, rank_counts) -> list:
        return [self.take(r) for r in range(NR) for _ in range(int(rank_counts[r]))]


def sampled_table(table: Table, seat: int, rng: np.ndarray, obs=None, hand=None) -> Table:
    """A table with `seat`'s observation and hand (at `table`, or `obs` and `hand` when given: then
    `table` supplies only what a seat's observation leaves out, the dealer and the counts of burns
    and pickups) and the hidden cards dealt at random from `rng`."""
    if table.phase not in (SWAPPING, PLAYING):
        raise ValueError("only a decision can be resampled (not the deal, not the end)")
    if obs is None:
        obs, hand = table.observation(seat), table.hand(seat)
    st = np.zeros(TABLE_SIZE, dtype=np.int64)
    pool = np.zeros(MAX_TALON, dtype=np.int64)
    sampler = sample_deal if table.phase == SWAPPING else sample_state
    if sampler(obs, hand, rng, st, pool) < 0:
        raise RuntimeError("the determinizer found the observation inconsistent")
    if table.phase == SWAPPING:
        return _sampled_swap(table, seat, st)
    return _sampled_play(table, st)


def _sampled_play(table: Table, st: np.ndarray) -> Table:
    """`table` with the cards of the sampled engine state `st` (its public part is the observation)."""
    new = table.copy()
    rnd = new.round
    codes = CardCodes(table.rules.decks)
    rnd.starter, rnd.must_play, rnd.actions = int(st[ob.STARTER]), int(st[ob.MUST_PLAY]), int(st[ob.ACTIONS])
    rnd.next_place = places_settled(st)[0]
    rnd.burned = st[ob.BURNED: ob.BURNED + NR].copy()
    hands, _, blinds, talon = hidden_cards(st)
    for s, player in enumerate(rnd.players):
        player.place = int(st[ob.PLACE + s])
        player.known = st[ob.KNOWN + s * NR: ob.KNOWN + (s + 1) * NR].copy()
        player.hand = codes.many(hands[s])
        player.faceup = codes.many(st[ob.FACEUP + s * NR: ob.FACEUP + (s + 1) * NR])
        player.blind = [None if rank < 0 else codes.take(rank) for rank in blinds[s]]
    rnd.pile = _pile(st, codes)
    rnd.talon = [codes.take(rank) for rank in talon]
    return new


def _pile(st: np.ndarray, codes: CardCodes) -> list:
    """A pile (bottom first) with the observation's counts, top rank and run (R16.2): the run on top,
    other cards of the top rank at the bottom, where they cannot lengthen the run."""
    pile_counts = st[ob.PILE_COUNTS: ob.PILE_COUNTS + NR].copy()
    if st[ob.PILE_SIZE] == 0:
        return []
    top, run = int(st[ob.PILE_TOP]), int(st[ob.PILE_RUN])
    pile_counts[top] -= run
    below = [codes.take(top) for _ in range(int(pile_counts[top]))]
    pile_counts[top] = 0
    return below + codes.many(pile_counts) + [codes.take(top) for _ in range(run)]


def _sampled_swap(table: Table, seat: int, st: np.ndarray) -> Table:
    """A table at the swap dealt as `sample_deal` left `st`: the seat keeps its own six cards (their
    codes too), and every earlier seat's swap is basic's (R6: swaps are private)."""
    rules, n = table.rules, table.n
    own = table.round.players[seat]
    codes = CardCodes(rules.decks)
    for card in own.hand + own.faceup:
        codes.free[card // 4].remove(card)
    deck = [0] * rules.num_cards
    hands, dealt_faceup, blinds, talon = hidden_cards(st)
    for s in range(n):
        if s == seat:
            hand, faceup = list(own.hand), list(own.faceup)
        else:
            hand, faceup = codes.many(hands[s]), codes.many(dealt_faceup[s])
        deck[3 * n + 3 * s: 3 * n + 3 * s + 3] = faceup
        deck[6 * n + 3 * s: 6 * n + 3 * s + 3] = hand
        deck[3 * s: 3 * s + 3] = [codes.take(rank) for rank in blinds[s]]
    deck[9 * n:] = [codes.take(rank) for rank in talon]
    new = table.copy()
    new.round = Round(rules, deck, [new.script] * n, list(table.round.rngs), table.round_no, table.dealer,
                      list(table.totals), 0, 0, new.events.append)
    new.deck = list(deck)
    new.swaps = [s_move if s == seat else basic_swap(new, s) for s, s_move in enumerate(table.swaps)]
    return new


def basic_swap(table: Table, seat: int) -> int:
    """basic's swap (docs/rules.md) of `seat`'s six cards at `table`."""
    return int(basic_decide(table.round.swap_observation(table.round.players[seat]), table.hand(seat), _NO_PARAMS,
                            np.zeros(1, dtype=np.uint64)))


# ---- rollouts on the numba engine ----------------------------------------------------------------

def engine_state(table: Table) -> tuple[np.ndarray, int]:
    """The numba-engine table of a table in play (``engine.hidden_cards``) and the seat to act.
    A table still swapping finishes the swap with basic's at every seat left."""
    if table.phase == SWAPPING:
        table = table.copy()
        while table.phase == SWAPPING:
            table.apply(basic_swap(table, table.current_seat()))
    if table.phase != PLAYING:
        raise ValueError("only a table in play has an engine state")
    seat = table.current_seat()
    rnd = table.round
    blinds = [[-1 if c is None else c // 4 for c in player.blind] for player in rnd.players]
    st = compose_table(table.observation(seat), [table.hand(s) for s in range(table.n)], blinds,
                       [c // 4 for c in rnd.talon])
    return st, seat


def rollout_places(table: Table, rng: np.ndarray) -> list:
    """The places of this round when basic plays it out from `table` at every seat (numba engine)."""
    st, seat = engine_state(table)
    play_round_out_basic(st, seat)
    return [int(p) for p in st[ob.PLACE: ob.PLACE + table.n]]
