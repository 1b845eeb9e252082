"""Tables a seat may believe it sits at: the project's determinizer turned into tables, and the rollout
that judges them.

`sampled_table` deals the cards the seat has not seen exactly as the search player does
(``idiotsim.strategies.search.sampler.sample_state``, or ``sample_deal`` at the swap): same observation,
same hand, every hidden card drawn from the seat's random stream. A swap of an earlier seat is private
(R6): in a sampled table it is basic's swap of that seat's sampled cards.
"""
from __future__ import annotations

import numpy as np

from idiotsim.engine.hidden_cards import MAX_TALON, TABLE_SIZE, copy_live_table
from idiotsim.engine.rollouts import play_round_out_basic
from idiotsim.game import observation as ob
from idiotsim.game.action_space import to_action
from idiotsim.game.basic_player import decide as basic_decide
from idiotsim.game.rules import Rules
from idiotsim.interop.stepped import CARD_CODES, PLAYING, SWAPPING, Table
from idiotsim.strategies.search.sampler import sample_deal, sample_state

_NO_PARAMS = np.zeros(0, dtype=np.float64)


def _sampled_cards(obs, hand, rng: np.ndarray) -> np.ndarray:
    """A table with the observation `obs` and the seat's `hand`, its hidden cards drawn from `rng`."""
    st = np.zeros(TABLE_SIZE, dtype=np.int64)
    sampler = sample_deal if obs[ob.DECISION] == ob.SWAP else sample_state
    if sampler(obs, hand, rng, st, np.zeros(MAX_TALON, dtype=np.int64)) < 0:
        raise RuntimeError("the determinizer found the observation inconsistent")
    return st


def sampled_table(table: Table, seat: int, rng: np.ndarray) -> Table:
    """`table` as `seat` may believe it: its observation and hand, the hidden cards dealt at random from
    `rng`; the dealer and the counts of burns and pickups, which no observation holds, are `table`'s."""
    if table.phase not in (SWAPPING, PLAYING):
        raise ValueError("only a decision can be resampled (not the deal, not the end)")
    new = table.copy()
    new.deck = []  # a sampled world was never dealt card by card
    swapping = table.phase == SWAPPING
    new.take_cards(_sampled_cards(table.observation(seat), table.hand(seat), rng),
                   0 if swapping else table.current_seat())
    new.swaps = [own if s == seat else basic_swap(new, s) for s, own in enumerate(table.swaps)]
    return new


def table_at_decision(rules: Rules, obs, hand, rng: np.ndarray) -> Table:
    """A table at the decision of `obs` that is right in what its seat knows (`obs`, `hand`), the hidden
    cards dealt at random from `rng`, every earlier seat's swap basic's (R6), the dealer R7's (it matters
    only for later rounds)."""
    n, seat = rules.players, int(obs[ob.SEAT])
    table = Table(rules)
    table.deal_deck(list(range(CARD_CODES)) * rules.decks)  # a stand-in: every card is dealt anew below
    table.deck = []
    swapping = obs[ob.DECISION] == ob.SWAP
    table.take_cards(_sampled_cards(obs, hand, rng), 0 if swapping else seat, dealer=(n - 1 + int(obs[ob.ROUND]) - 1) % n)
    if swapping:
        table.swaps = [basic_swap(table, s) for s in range(seat)]
    return table


def basic_swap(table: Table, seat: int) -> int:
    """basic's swap (docs/rules.md) of `seat`'s six cards at `table`, as an action id."""
    move = basic_decide(table.observation(seat), table.hand(seat), _NO_PARAMS, np.zeros(1, dtype=np.uint64))
    return to_action(ob.SWAP, int(move))


# ---- rollouts on the engine ------------------------------------------------------------------------

def rollout_places(table: Table, rng: np.ndarray) -> list:
    """The places of this round when basic plays it out from `table` at every seat (a table still
    swapping finishes the swap with basic's at every seat left)."""
    if table.phase == SWAPPING:
        table = table.copy()
        while table.phase == SWAPPING:
            table.apply(basic_swap(table, table.current_seat()))
    if table.phase != PLAYING:
        raise ValueError("only a table in play can be played out")
    st = np.zeros(TABLE_SIZE, dtype=np.int64)
    copy_live_table(table.state, st)  # nothing recorded
    play_round_out_basic(st, table.current_seat())
    return [int(p) for p in st[ob.PLACE: ob.PLACE + table.n]]
