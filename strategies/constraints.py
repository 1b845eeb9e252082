"""Tips as constraints on any player: which of a decision's legal moves a player may make.

A tip is a restriction of the legal moves ("10s go face-up", "never pick up by choice", "burn as soon as
the pile holds 8 cards", "one card a play while the talon lasts"). A constraint narrows the legal-move
list (``idiotsim.game.moves``, the one home of legality) and the player chooses among what is left, as
strong as it can be within it. A spec names it after a strategy, each constraint after a ``+``::

    learned-search-4p+up=10            10s face-up
    search:rollouts=16+pickup=never    no voluntary pickup
    my_strategy.py:MINE+copies=1+burn=8

The constraints (docs/strategies.md, "Constraints", has the full table):

- ``up=R[/R...]``: as many cards of these ranks as the six cards at the swap (R6) hold, up to 3, lie face-up.
- ``hand=R[/R...]``: cards of these ranks stay in the hand: face-up only as many as the hand's 3 cannot hold.
- ``pickup=never``: no voluntary pickup (R14) nor V5 chance while a play is legal.
  ``pickup=must:N[:R]``: in the hand phase a pile of 1..N cards, every one a 2 or an ordinary rank >= R
  (default K), must be picked up; otherwise as the player likes. ``pickup=may:N[:R]``: a voluntary pickup
  (or chance) only of such a pile.
- ``burn=never|N|may:N|must:N``: a burning play (a 10, or a play that leaves four of a kind on top, R16.2,
  V7, V10) may be made by choice only once the pile holds `may` cards (below, only when no other play is
  legal: saved), and must be made, when one is legal, once the pile holds `must` cards; ``N`` is both
  (burn from N cards on, save below), ``never`` neither. ``tens=...`` is the same for plays of 10s only.
- ``copies=N``: while the talon lasts a play from the hand holds at most N cards.

At a turn the rules apply in the order pickup, copies, burn; a rule that would leave no move is not
applied at that decision (a later rule yields to an earlier one), so a constrained player always has a
move: where the rules force one (a pickup with nothing playable, a burn when only a 10 is legal), it
is allowed. The blind flip (R15) is never constrained.

How a constrained player decides (``constrained_move``, ``constrain_list``):

- the search (``search``, ``learned-search-Np``) judges only the allowed moves of its own seat, its
  rollouts unconstrained `basic`; the gated player gates among them; the learned player scores only them
  (these families read the block themselves: ``Strategy.reads_constraints``);
- every other strategy (``basic``, ``heuristic``, ..., a user's file) decides as it likes, and a move
  the constraints do not allow is replaced by the allowed move nearest it (`replacement`): at a turn the
  allowed play of the same rank with the most cards up to the ones it chose (else the fewest above),
  else `basic`'s choice among the allowed (every copy of the lowest ordinary rank, then 2s, then 10s,
  then a pickup, then chance); at the swap the allowed choice sharing the most cards with its choice,
  then the one `basic`'s key ranks highest. An illegal move is passed on unchanged (the engine reports it).

The numbers travel in ``params`` (like knobs), so one compiled function serves every combination: a block of
``CONSTRAINT_SIZE`` numbers (`Constraints.block`) right after the strategy's knobs (for a family that reads it
itself, its weights follow the block; for a wrapped strategy with weights, the block follows them). A block of
zeros constrains nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from idiotsim.engine.memory import stack_ints
from idiotsim.errors import UserError
from idiotsim.game.cards import BASIC_KEY, BASIC_ORDER, KING, ORDINARY_RANKS, RANK_NAMES, RANK_OF_NAME, TEN
from idiotsim.game.moves import (MAX_MOVES, PICKUP, list_swap_moves, list_turn_moves, play_burns, play_cards,
                                 put_first, sorted_swap)
from idiotsim.game.observation import (DECISION, FACEUP, NR, PILE_COUNTS, PILE_SIZE, SEAT, SOURCE, SRC_HAND, SWAP,
                                       TALON_SIZE, TURN)
from idiotsim.jit import kernel

# ---- the block in params ------------------------------------------------------------------------------------

CONSTRAINT_SIZE = 12  # numbers in a block (the last two are spare)
(ACTIVE, UP, IN_HAND, PICKUP_RULE, PICKUP_MAX, PICKUP_RANK, BURN_KIND, BURN_MAY, BURN_MUST, COPIES) = range(10)
PICKUP_FREE, PICKUP_NEVER, PICKUP_MAY, PICKUP_MUST = 0, 1, 2, 3  # values at PICKUP_RULE
BURN_OFF, BURN_TENS, BURN_ANY = 0, 1, 2  # values at BURN_KIND: which plays the burn rule is about
NO_PILE = 1000  # a pile size no pile reaches: a threshold that is never met
BASIC_RANKS = BASIC_ORDER  # `basic`'s order of ranks to play: the ordinary ranks low to high, then 2, then 10
SWAP_KEY_BASE = NR * NR * NR  # `_swap_replacement`: shared cards weigh more than any key triple

NAMES = ("up", "hand", "pickup", "burn", "tens", "copies")  # the constraints a spec may give, in canonical order


# ---- the rules, as filters of a legal-move list (numba) ------------------------------------------------------

@kernel
def pile_is_strong(obs, min_rank):
    """Every card in the pile is a 2 or an ordinary rank >= min_rank (a 10 never stays on it)."""
    for r in range(1, NR):
        if obs[PILE_COUNTS + r] > 0 and r < min_rank:
            return False
    return True


@kernel(inline="always")
def _plays(moves, n):
    """How many of moves[:n] are plays (not PICKUP or CHANCE)."""
    plays = 0
    for i in range(n):
        plays += moves[i] >= 0
    return plays


@kernel
def _pickup_rule(obs, c, at, moves, n):
    """PICKUP_RULE: only the pickup (must), or no pickup and no chance while a play is legal (never, and may
    where the pile is not one the rule takes)."""
    rule = c[at + PICKUP_RULE]
    if rule == PICKUP_FREE:
        return n
    pile = obs[PILE_SIZE]
    takes = obs[SOURCE] == SRC_HAND and 0 < pile <= c[at + PICKUP_MAX] and pile_is_strong(obs, c[at + PICKUP_RANK])
    only_pickup = rule == PICKUP_MUST and takes
    if not only_pickup and (rule == PICKUP_MUST or (rule == PICKUP_MAY and takes)):
        return n
    if not only_pickup and _plays(moves, n) == 0:
        return n  # nothing playable: the rules force the pickup (or chance)
    kept = 0
    for i in range(n):
        move = moves[i]
        if (move == PICKUP) if only_pickup else move >= 0:
            moves[kept] = move
            kept += 1
    return kept if kept > 0 else n


@kernel
def _copies_rule(obs, c, at, moves, n):
    """COPIES: while the talon lasts, no play from the hand of more cards than the cap."""
    cap = c[at + COPIES]
    if cap <= 0 or obs[TALON_SIZE] == 0 or obs[SOURCE] != SRC_HAND:
        return n
    kept = 0
    for i in range(n):
        move = moves[i]
        if move < 0 or play_cards(move) <= cap:
            moves[kept] = move
            kept += 1
    return kept if kept > 0 else n


@kernel(inline="always")
def _burning(obs, kind, move):
    """Is `move` a play the burn rule is about: a 10 (BURN_TENS), or any play that burns (BURN_ANY)?"""
    if move < 0:
        return False
    if kind == BURN_TENS:
        return move & 15 == TEN
    return play_burns(obs, move)


@kernel
def _burn_rule(obs, c, at, moves, n):
    """BURN_KIND: only burning plays once the pile holds BURN_MUST cards (when one is legal); no burning play
    below BURN_MAY cards while another play is legal (the 10 saved)."""
    kind = c[at + BURN_KIND]
    if kind == BURN_OFF:
        return n
    burning = 0
    other_plays = 0
    for i in range(n):
        if _burning(obs, kind, moves[i]):
            burning += 1
        elif moves[i] >= 0:
            other_plays += 1
    pile = obs[PILE_SIZE]
    if burning > 0 and pile > 0 and pile >= c[at + BURN_MUST]:
        keep_burning = True
    elif burning > 0 and other_plays > 0 and pile < c[at + BURN_MAY]:
        keep_burning = False
    else:
        return n
    kept = 0
    for i in range(n):
        move = moves[i]
        if _burning(obs, kind, move) == keep_burning:
            moves[kept] = move
            kept += 1
    return kept


@kernel
def allowed_turn_moves(obs, hand, c, at, moves, n):
    """The moves of a TURN's legal-move list moves[:n] (``game.moves.list_turn_moves``) that the constraint
    block c[at:at + CONSTRAINT_SIZE] allows, kept in their order at the front; returns how many (n when the
    block is off). The rules in order: pickup, copies, burn; one that would leave no move is not applied."""
    if c[at + ACTIVE] == 0:
        return n
    n = _pickup_rule(obs, c, at, moves, n)
    n = _copies_rule(obs, c, at, moves, n)
    return _burn_rule(obs, c, at, moves, n)


@kernel(inline="always")
def _count_in(mask, r1, r2, r3):
    return (mask >> r1 & 1) + (mask >> r2 & 1) + (mask >> r3 & 1)


@kernel
def allowed_swap_moves(obs, hand, c, at, moves, n):
    """The choices of a SWAP's list moves[:n] (``game.moves.list_swap_moves``) that the block allows (UP: as
    many of those ranks face-up as the six cards hold, up to 3; IN_HAND: as few of those face-up as the hand's
    3 places allow), kept in their order at the front; returns how many (n when the block is off)."""
    up = int(c[at + UP])
    keep = int(c[at + IN_HAND])
    if c[at + ACTIVE] == 0 or (up == 0 and keep == 0):
        return n
    row = FACEUP + obs[SEAT] * NR
    up_held = 0
    keep_held = 0
    for r in range(NR):
        held = hand[r] + obs[row + r]
        up_held += held * (up >> r & 1)
        keep_held += held * (keep >> r & 1)
    need_up = min(3, up_held)
    need_keep = max(0, keep_held - 3)
    kept = 0
    for i in range(n):
        choice = moves[i]
        r1, r2, r3 = choice % NR, choice // NR % NR, choice // (NR * NR)
        if _count_in(up, r1, r2, r3) == need_up and _count_in(keep, r1, r2, r3) == need_keep:
            moves[kept] = choice
            kept += 1
    return kept if kept > 0 else n


@kernel
def allowed_moves(obs, hand, c, at, moves, n):
    """`allowed_swap_moves` at the swap, else `allowed_turn_moves`."""
    if obs[DECISION] == SWAP:
        return allowed_swap_moves(obs, hand, c, at, moves, n)
    return allowed_turn_moves(obs, hand, c, at, moves, n)


# ---- the allowed move nearest a move (numba) -----------------------------------------------------------------

@kernel
def _turn_replacement(moves, n, move):
    """Of the allowed turn moves moves[:n], the one standing in for `move`: the play of the same rank with the
    most cards up to `move`'s, else with the fewest above; else `basic`'s order (every copy of the lowest
    ordinary rank, 2s, 10s); else PICKUP; else CHANCE."""
    if move >= 0:
        below, below_cards, above, above_cards = -1, -1, -1, 1000
        for i in range(n):
            m = moves[i]
            if m >= 0 and m & 15 == move & 15:
                cards = play_cards(m)
                if cards <= play_cards(move):
                    if cards > below_cards:
                        below, below_cards = m, cards
                elif cards < above_cards:
                    above, above_cards = m, cards
        if below >= 0:
            return below
        if above >= 0:
            return above
    for r in BASIC_RANKS:
        best, best_cards = -1, -1
        for i in range(n):
            m = moves[i]
            if m >= 0 and m & 15 == r and play_cards(m) > best_cards:
                best, best_cards = m, play_cards(m)
        if best >= 0:
            return best
    for i in range(n):
        if moves[i] == PICKUP:
            return PICKUP
    return moves[0]


@kernel(inline="always")
def _key_triple(r1, r2, r3):
    """The three ranks' places in `basic`'s key, highest first, as one number (a higher number: a choice
    `basic`'s key ranks higher)."""
    a, b, c = BASIC_KEY[r1], BASIC_KEY[r2], BASIC_KEY[r3]
    if a < b:
        a, b = b, a
    if b < c:
        b, c = c, b
    if a < b:
        a, b = b, a
    return (a * NR + b) * NR + c


@kernel(inline="always")
def _shared(x1, x2, x3, y1, y2, y3):
    """How many cards two swap choices (rank triples) have in common."""
    shared = 0
    u1 = u2 = u3 = False
    for x in (x1, x2, x3):
        if not u1 and x == y1:
            u1 = True
            shared += 1
        elif not u2 and x == y2:
            u2 = True
            shared += 1
        elif not u3 and x == y3:
            u3 = True
            shared += 1
    return shared


@kernel
def _swap_replacement(moves, n, choice):
    """Of the allowed swap choices moves[:n], the one sharing the most cards with `choice`, then the one
    `basic`'s key ranks highest."""
    c1, c2, c3 = choice % NR, choice // NR % NR, choice // (NR * NR)
    best, best_score = moves[0], -1
    for i in range(n):
        m = moves[i]
        r1, r2, r3 = m % NR, m // NR % NR, m // (NR * NR)
        score = _shared(c1, c2, c3, r1, r2, r3) * SWAP_KEY_BASE + _key_triple(r1, r2, r3)
        if score > best_score:
            best, best_score = m, score
    return best


@kernel
def replacement(obs, moves, n, move):
    """The allowed move (of moves[:n], a decision's allowed moves) that stands in for `move` when the
    constraints do not allow it: `_swap_replacement` at the swap, `_turn_replacement` at a turn."""
    if obs[DECISION] == SWAP:
        return _swap_replacement(moves, n, move)
    return _turn_replacement(moves, n, move)


@kernel(inline="always")
def _contains(moves, n, move):
    for i in range(n):
        if moves[i] == move:
            return True
    return False


@kernel
def constrain_list(obs, hand, c, at, moves, n):
    """A SWAP's or TURN's legal-move list moves[:n] narrowed to what the block c[at:] allows, its first move
    (a player's anchor: `basic`'s move, which keeps the search's ties) replaced by its `replacement` when the
    constraints drop it; returns how many are left (n, the list untouched, when the block is off)."""
    if c[at + ACTIVE] == 0 or n == 0:
        return n
    first = moves[0]
    n = allowed_moves(obs, hand, c, at, moves, n)
    if moves[0] != first:
        n = put_first(moves, n, replacement(obs, moves, n, first))
    return n


@kernel
def constrained_move(obs, hand, c, at, move):
    """`move` (a strategy's decision) if the block c[at:] allows it or it is illegal (the engine reports
    that), else its `replacement` among the allowed moves. The blind flip is never constrained."""
    decision = obs[DECISION]
    if c[at + ACTIVE] == 0 or (decision != SWAP and decision != TURN):
        return move
    moves = stack_ints(MAX_MOVES)
    if decision == SWAP:
        n = list_swap_moves(obs, hand, moves)
        probe = sorted_swap(move)
    else:
        n = list_turn_moves(obs, hand, moves)
        probe = move
    if not _contains(moves, n, probe):
        return move
    n = allowed_moves(obs, hand, c, at, moves, n)
    if _contains(moves, n, probe):
        return move
    return replacement(obs, moves, n, probe)


# ---- the constraints in Python: parse, print, describe -------------------------------------------------------

@dataclass(frozen=True)
class Constraints:
    """A set of constraints (the module docstring's). Ranks are rank ids (``idiotsim.game.cards``); a
    threshold of None is never met."""
    up: tuple = ()  # ranks face-up
    hand: tuple = ()  # ranks kept in hand
    pickup: str = "free"  # "free", "never", "may", "must"
    pickup_max: int = 0  # may/must: piles of 1..pickup_max cards
    pickup_rank: int = KING  # may/must: every card a 2 or an ordinary rank >= this
    burn_kind: str = ""  # "", "tens" (plays of 10s) or "burn" (every burning play)
    burn_may: int | None = 0  # a burning play by choice from this many cards on (None: never)
    burn_must: int | None = None  # a burning play required from this many cards on (None: never)
    copies: int = 0  # at most this many cards a play from the hand while the talon lasts (0: no cap)

    def __bool__(self) -> bool:
        return self != Constraints()

    def block(self) -> np.ndarray:
        """The numbers a constrained strategy's ``params`` carry (zeros: no constraint)."""
        block = np.zeros(CONSTRAINT_SIZE, np.float64)
        if not self:
            return block
        block[ACTIVE] = 1
        block[UP] = sum(1 << r for r in set(self.up))
        block[IN_HAND] = sum(1 << r for r in set(self.hand))
        block[PICKUP_RULE] = ("free", "never", "may", "must").index(self.pickup)
        block[PICKUP_MAX] = self.pickup_max
        block[PICKUP_RANK] = self.pickup_rank
        block[BURN_KIND] = ("", "tens", "burn").index(self.burn_kind)
        block[BURN_MAY] = NO_PILE if self.burn_may is None else self.burn_may
        block[BURN_MUST] = NO_PILE if self.burn_must is None else self.burn_must
        block[COPIES] = self.copies
        return block

    def items(self) -> list[str]:
        """The constraints as spec items (``up=10``, ``burn=never``), in canonical order."""
        items = []
        if self.up:
            items.append("up=" + "/".join(RANK_NAMES[r] for r in self.up))
        if self.hand:
            items.append("hand=" + "/".join(RANK_NAMES[r] for r in self.hand))
        if self.pickup == "never":
            items.append("pickup=never")
        elif self.pickup != "free":
            rank = "" if self.pickup_rank == KING else f":{RANK_NAMES[self.pickup_rank]}"
            items.append(f"pickup={self.pickup}:{self.pickup_max}{rank}")
        if self.burn_kind:
            items.append(f"{self.burn_kind}={_threshold_text(self.burn_may, self.burn_must)}")
        if self.copies:
            items.append(f"copies={self.copies}")
        return items

    def text(self) -> str:
        """The spec suffix: ``+up=10+burn=never`` ("" for none)."""
        return "".join("+" + item for item in self.items())

    def words(self) -> str:
        """The constraints in plain words, for reports and listings."""
        parts = []
        if self.up:
            parts.append(f"{_ranks_words(self.up)} face-up")
        if self.hand:
            parts.append(f"{_ranks_words(self.hand)} kept in hand")
        pile = f"piles of 1 to {self.pickup_max} cards of {RANK_NAMES[self.pickup_rank]} or higher and 2s"
        if self.pickup == "never":
            parts.append("never picks up by choice")
        elif self.pickup == "must":
            parts.append(f"picks up {pile}")
        elif self.pickup == "may":
            parts.append(f"picks up by choice only {pile}")
        if self.burn_kind:
            tens = self.burn_kind == "tens"
            what = "burns with a 10" if tens else "burns the pile (a 10 or four of a kind)"
            may, must = self.burn_may, self.burn_must
            if may is None and must is None:
                parts.append("saves its 10s: no 10 while another play is legal" if tens else
                             "never burns while another play is legal")
            elif may == must:
                parts.append(f"{what} once the pile holds {must} cards, saves it below")
            elif must is not None:
                parts.append(f"{what} once the pile holds {must} cards")
            else:
                parts.append(f"{what} by choice only from {may} cards on")
        if self.copies:
            parts.append(f"plays at most {self.copies} card{'s' if self.copies > 1 else ''} a play while the "
                         "talon lasts")
        return "; ".join(parts)


def _threshold_text(may: int | None, must: int | None) -> str:
    if may is None and must is None:
        return "never"
    if may == must:
        return str(must)
    if must is not None:
        return f"must:{must}"
    return f"may:{may}"


def _ranks_words(ranks) -> str:
    names = [RANK_NAMES[r] + "s" for r in ranks]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


ITEM = re.compile(r"([a-z_]+)=(.*)")
MAX_PILE = 104  # cards in two decks: a larger threshold is never met


def split_constraints(spec: str) -> tuple[str, str]:
    """(the strategy spec, the constraint suffix) of ``spec``: the suffix is the trailing ``+name=value``
    items (``learned-search-4p+up=10`` -> ``("learned-search-4p", "up=10")``; "" when there are none)."""
    parts = spec.split("+")
    i = len(parts)
    while i > 1 and (ITEM.fullmatch(parts[i - 1].strip()) or parts[i - 1].strip() in NAMES):
        i -= 1
    return "+".join(parts[:i]).strip(), "+".join(p.strip() for p in parts[i:])


def parse_constraints(text: str, spec: str | None = None) -> Constraints:
    """Constraints from ``up=10+burn=never`` (a spec's suffix without its first ``+``); a mistake is a
    UserError of one line naming the item (and `spec`)."""
    where = f" in {spec!r}" if spec else ""
    values: dict = {}
    for item in text.split("+") if text.strip() else []:
        match = ITEM.fullmatch(item.strip())
        if match is None:
            raise UserError(f"constraint {item!r}{where} is not NAME=VALUE; constraints: {', '.join(NAMES)}")
        name, value = match.group(1), match.group(2).strip()
        if name not in NAMES:
            raise UserError(f"unknown constraint {name!r}{where}; constraints: {', '.join(NAMES)} (knobs go before "
                            "them: NAME:knob=v+up=10)")
        if name in values:
            raise UserError(f"constraint {name!r} is given twice{where}")
        values[name] = value
    if "burn" in values and "tens" in values:
        raise UserError(f"give burn= or tens=, not both{where}")
    fields: dict = {}
    for name in ("up", "hand"):
        if name in values:
            fields[name] = _ranks(values[name], name, where)
    both = set(fields.get("up", ())) & set(fields.get("hand", ()))
    if both:
        raise UserError(f"rank {RANK_NAMES[min(both)]} cannot be both face-up (up=) and kept in hand (hand=){where}")
    if "pickup" in values:
        fields.update(_pickup(values["pickup"], where))
    for kind in ("burn", "tens"):
        if kind in values:
            may, must = _burn(values[kind], kind, where)
            fields.update(burn_kind=kind, burn_may=may, burn_must=must)
    if "copies" in values:
        fields["copies"] = _number(values["copies"], "copies", 1, 8, where)
    return Constraints(**fields)


def _ranks(text: str, name: str, where: str) -> tuple:
    ranks = set()
    for word in text.split("/"):
        rank = RANK_OF_NAME.get(word.strip().upper())
        if rank is None:
            raise UserError(f"constraint {name}={text}{where}: {word.strip()!r} is not a rank (2..10, J, Q, K, A; "
                            "several as 10/2)")
        ranks.add(rank)
    return tuple(sorted(ranks))


def _number(text: str, name: str, low: int, high: int, where: str) -> int:
    if not re.fullmatch(r"\d+", text.strip()) or not low <= int(text) <= high:
        raise UserError(f"constraint {name}={text}{where}: needs a whole number {low}..{high}")
    return int(text)


def _pickup(text: str, where: str) -> dict:
    if text == "never":
        return dict(pickup="never")
    parts = text.split(":")
    if parts[0] not in ("may", "must") or len(parts) not in (2, 3):
        raise UserError(f"constraint pickup={text}{where}: takes never, must:N[:R] or may:N[:R]")
    fields = dict(pickup=parts[0], pickup_max=_number(parts[1], "pickup", 1, MAX_PILE, where))
    if len(parts) == 3:
        rank = RANK_OF_NAME.get(parts[2].strip().upper())
        if rank not in ORDINARY_RANKS:
            raise UserError(f"constraint pickup={text}{where}: {parts[2]!r} is not an ordinary rank (3..9, J, Q, K, A)")
        fields["pickup_rank"] = rank
    return fields


def _burn(text: str, name: str, where: str) -> tuple:
    """(may, must) of a burn value: never, N, may:N, must:N."""
    if text == "never":
        return None, None
    how, _, pile = text.rpartition(":")
    if how not in ("", "may", "must") or not re.fullmatch(r"\d+", pile.strip()):
        raise UserError(f"constraint {name}={text}{where}: takes never, N, may:N or must:N")
    n = _number(pile, name, 1, MAX_PILE, where)
    return {"": (n, n), "may": (n, None), "must": (0, n)}[how]
