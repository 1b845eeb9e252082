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

from idiotsim.engine import transitions
from idiotsim.engine import state_layout as layout
from idiotsim.engine.memory import data_pointer
from idiotsim.game import observation as ob
from idiotsim.game.cards import NUM_RANKS
from idiotsim.interop.stepped import PLAYING, SWAPPING, Table
from idiotsim.game.reference import Round
from idiotsim.strategies.search.sampler import sample_deal, sample_state
from idiotsim.game.basic_player import decide as basic_decide
from numba import njit

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
    st = np.zeros(layout.STATE_SIZE, dtype=np.int64)
    pool = np.zeros(layout.MAX_CARDS, dtype=np.int64)
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
    rnd.next_place = int(st[layout.NEXT_PLACE])
    rnd.burned = st[ob.BURNED: ob.BURNED + NR].copy()
    for s, player in enumerate(rnd.players):
        player.place = int(st[ob.PLACE + s])
        player.known = st[ob.KNOWN + s * NR: ob.KNOWN + (s + 1) * NR].copy()
        player.hand = codes.many(st[layout.HANDS + s * NR: layout.HANDS + (s + 1) * NR])
        player.faceup = codes.many(st[ob.FACEUP + s * NR: ob.FACEUP + (s + 1) * NR])
        player.blind = [None if st[layout.BLIND + 3 * s + i] < 0 else codes.take(int(st[layout.BLIND + 3 * s + i]))
                        for i in range(3)]
    rnd.pile = _pile(st, codes)
    rnd.talon = [codes.take(int(st[layout.TALON + i])) for i in range(int(st[layout.TALON_LEN]))]
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
    for s in range(n):
        if s == seat:
            hand, faceup = list(own.hand), list(own.faceup)
        else:
            hand = codes.many(st[layout.HANDS + s * NR: layout.HANDS + (s + 1) * NR])
            faceup = codes.many(st[layout.SWAP_FACEUP + s * NR: layout.SWAP_FACEUP + (s + 1) * NR])
        deck[3 * n + 3 * s: 3 * n + 3 * s + 3] = faceup
        deck[6 * n + 3 * s: 6 * n + 3 * s + 3] = hand
        deck[3 * s: 3 * s + 3] = [codes.take(int(st[layout.BLIND + 3 * s + i])) for i in range(3)]
    deck[9 * n:] = [codes.take(int(st[layout.TALON + i])) for i in range(int(st[layout.TALON_LEN]))]
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
    """The numba-engine state of a table in play (``idiotsim.engine.state_layout``) and the seat to act.
    A table still swapping finishes the swap with basic's at every seat left."""
    if table.phase == SWAPPING:
        table = table.copy()
        while table.phase == SWAPPING:
            table.apply(basic_swap(table, table.current_seat()))
    if table.phase != PLAYING:
        raise ValueError("only a table in play has an engine state")
    seat = table.current_seat()
    rnd = table.round
    st = np.zeros(layout.STATE_SIZE, dtype=np.int64)
    st[:ob.OBS_SIZE] = table.observation(seat)
    for s, player in enumerate(rnd.players):
        st[layout.HANDS + s * NR: layout.HANDS + (s + 1) * NR] = table.hand(s)
        st[layout.BLIND + 3 * s: layout.BLIND + 3 * s + 3] = [-1 if c is None else c // 4 for c in player.blind]
    st[layout.TALON: layout.TALON + len(rnd.talon)] = [c // 4 for c in rnd.talon]
    st[layout.TALON_POS], st[layout.TALON_LEN] = 0, len(rnd.talon)
    st[layout.NEXT_PLACE], st[layout.PLAYERS_IN] = rnd.next_place, rnd.players_in()
    return st, seat


@njit(cache=True)
def play_round_out(st, seat, rng):
    """The round in `st` played on from `seat` by basic at every seat to its end (R18, R20): the
    places are then in st[PLACE:]. Returns 0, or -1 on an illegal move (never, for basic)."""
    sp = data_pointer(st)
    n = st[ob.PLAYERS]
    params = np.zeros(0, np.float64)
    while st[layout.PLAYERS_IN] > 1 and st[ob.ACTIONS] < st[ob.ACTION_LIMIT]:
        transitions.show_turn(sp, seat)
        hand = st[layout.HANDS + seat * NR: layout.HANDS + seat * NR + NR]
        seat = transitions.apply_action(sp, seat, basic_decide(st[:ob.OBS_SIZE], hand, params, rng), n)
        if seat < 0:
            return -1
    transitions.final_places(sp, n, st[ob.STARTER])
    return 0


def rollout_places(table: Table, rng: np.ndarray) -> list:
    """The places of this round when basic plays it out from `table` at every seat (numba engine)."""
    st, seat = engine_state(table)
    if play_round_out(st, seat, rng) < 0:
        raise RuntimeError("basic made an illegal move in a rollout")
    return [int(p) for p in st[ob.PLACE: ob.PLACE + table.n]]

