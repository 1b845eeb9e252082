"""What the person's seat sees at a decision, and how it is drawn with rich (80 x 24 is enough).

A ``SeatView`` holds only what the seat may know (docs/rules.md R6, R15): the observation (counts
of everything public: hand, face-up, blind and known cards of every seat, the pile, the talon,
the burned cards), its own cards with their suits, the face-up rows and the pile with suits (they
lie open on the table), the burned cards as the log saw them burn, and a log of the moves made in
sight. It is built by the session from those and nothing else; the renderer never sees the
hidden state. Colour comes from rich, which leaves it out for ``NO_COLOR`` and for a pipe.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from idiotsim.game import observation as ob
from idiotsim.game.cards import BASIC_KEY, NUM_RANKS, RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS, card_rank
from idiotsim.game.trace import PLACE_WORDS

SCREEN_WIDTH, SCREEN_HEIGHT = 80, 24  # what the table is laid out for (a wider terminal gets 80 columns)
LOG_LINES = 5  # moves shown since the seat's last decision: a 5-seat screen fits 24 lines
RED_SUITS = (1, 2)  # diamonds, hearts
DECISION_WORDS = {ob.SWAP: "choose 3 cards to lie face-up (R6)", ob.TURN: "your turn",
                  ob.BLIND: "your turn: flip a blind card (R15)"}
YOU_VERBS = {"lays": "lay", "plays": "play", "flips": "flip", "takes": "take", "picks up": "pick up", "is": "are"}
NAME_WIDTH = 24  # a seat's name on the screen: longer bot specs end in an ellipsis (the game file has them whole)
DECK_WORDS = {1: "", 2: ", two decks (V7)"}


def place_word(place: int) -> str:
    return PLACE_WORDS.get(place, f"{place}th")


class CardStyle:
    """How card codes are written: suit symbols where the terminal encodes them, else letters."""

    def __init__(self, symbols: bool):
        self.suits = SUIT_SYMBOLS if symbols else SUIT_NAMES

    def text(self, card: int) -> str:
        return RANK_NAMES[card_rank(card)] + self.suits[card % 4]

    def cards(self, cards, sort: bool = True) -> Text:
        """Cards as rich text, red suits in red (dropped without colour)."""
        out = Text()
        for i, card in enumerate(sorted(cards, key=hand_order) if sort else cards):
            if i:
                out.append(" ")
            out.append(self.text(card), style="red" if card % 4 in RED_SUITS else "")
        return out or Text("-")


def hand_order(card: int):
    """A hand as it is held: basic's key (3 ... A 2 10), then suit."""
    return BASIC_KEY[card_rank(card)], card


def rank_counts_text(counts) -> str:
    """Cards of unknown suit by rank: ``7x4 10 J x2`` (basic's order)."""
    ranks = sorted((r for r in range(len(counts)) if counts[r]), key=lambda r: BASIC_KEY[r])
    return " ".join(RANK_NAMES[r] + (f"x{counts[r]}" if counts[r] > 1 else "") for r in ranks) or "-"


@dataclass
class PublicLog:
    """The moves made in sight of every seat, from the trace events: what each seat played, took
    or laid face-up, burns, places (the pile's size is followed to say how much burned)."""
    labels: list
    lines: list = field(default_factory=list)
    pile: int = 0
    unseen: int = 0  # lines since the person's last look

    def add(self, event: dict, style: CardStyle) -> None:
        line = self.describe(event, style)
        if line is not None:
            self.lines.append(line)
            self.unseen += 1

    def who(self, seat: int) -> str:
        return self.labels[seat]

    def does(self, seat: int, verb: str) -> str:
        """`seat 2 plays`, `you play`: the seat's name and the verb agreeing with it."""
        name = self.who(seat)
        return f"{name} {YOU_VERBS.get(verb, verb) if name == 'you' else verb}"

    def describe(self, event: dict, style: CardStyle):
        action = event["action"]
        if action == "swap":
            self.pile = 0  # a new round
            return Text(f"{self.does(event['seat'], 'lays')} face-up: ").append(style.cards(event["_faceup"]))
        if action == "play":
            return self._play(event, style)
        if action == "pickup":
            taken = event["_cards"]
            self.pile = 0
            seat = event["seat"]
            if "from" in event:
                text = Text(f"{self.does(seat, 'flips')} ").append(style.cards(taken[-1:]))
                return text.append(f" ({event['from']}) and {self.does(seat, 'takes').split()[-1]} the pile "
                                   f"({len(taken)} cards)")
            return Text(f"{self.does(seat, 'picks up')} {len(taken)}: ").append(style.cards(taken))
        if action == "out":
            return Text(f"{self.does(event['seat'], 'is')} out: {place_word(event['place'])} place", style="bold")
        if action == "end":
            return Text(f"round {event['round']} over" + (" (stalled, R20)" if event["stalled"] else ""), style="bold")
        return None

    def _play(self, event: dict, style: CardStyle) -> Text:
        played = event["_cards"]
        source = {"faceup": " from face-up", "blind": " (blind flip)", "talon": " (chance card)"}.get(event["from"], "")
        text = Text(f"{self.does(event['seat'], 'plays')} ").append(style.cards(played, sort=False)).append(source)
        self.pile += len(played)
        if event["burn"]:
            text.append(f": BURNS {self.pile} card{'s' * (self.pile > 1)}", style="bold yellow")
            self.pile = 0
        return text

    def recent(self, room: int = LOG_LINES + 1) -> list:
        """The lines since the person's last decision, oldest first: at most `room` lines, one of
        them saying how many earlier moves are left out, and at most LOG_LINES moves."""
        shown = min(max(self.unseen, 1), LOG_LINES, len(self.lines), max(1, room))
        if self.unseen > shown and shown == room and shown > 1:
            shown -= 1  # the line that counts the moves left out
        skipped = self.unseen - shown
        lines = self.lines[len(self.lines) - shown:] if shown else []
        return ([Text(f"... {skipped} earlier move{'s' * (skipped > 1)}", style="dim")] if skipped > 0 else []) + lines


@dataclass
class SeatView:
    """Everything the deciding seat may know (see the module docstring)."""
    obs: object
    labels: list
    hand: list  # own card codes
    faceup: list  # every seat's face-up card codes (open on the table)
    pile: list  # the pile's card codes, bottom first (played in sight)
    round_no: int
    rounds: int
    decks: int = 1

    @property
    def seat(self) -> int:
        return int(self.obs[ob.SEAT])


def seat_rows(view: SeatView, style: CardStyle) -> Table:
    """One line per seat: name, hand count, face-up cards, blind count, match total (V4) and the
    cards known to be in the hand (the one column that may wrap)."""
    obs, n = view.obs, int(view.obs[ob.PLAYERS])
    match = view.rounds > 1
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, max_width=NAME_WIDTH, overflow="ellipsis")
    for _ in range(4 if match else 3):
        grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    swap = obs[ob.DECISION] == ob.SWAP
    for s in range(n):
        name = Text(("> " if s == view.seat else "  ") + view.labels[s], style="bold" if s == view.seat else "")
        total = [f"total {obs[ob.SCORE + s]}"] if match else []
        if obs[ob.PLACE + s]:
            grid.add_row(name, f"out: {place_word(int(obs[ob.PLACE + s]))}", "", "", *total, "")
            continue
        if swap and s != view.seat:
            grid.add_row(name, "hand 3", "up ?", "blind 3", *total, Text("choosing face-up cards", style="dim"))
            continue
        hand = f"hand {len(view.hand) if s == view.seat else obs[ob.HAND_SIZE + s]}"
        known = obs[ob.KNOWN + s * NUM_RANKS: ob.KNOWN + (s + 1) * NUM_RANKS]
        known_text = Text(f"known {rank_counts_text(known)}", style="dim") if s != view.seat and known.sum() else ""
        blind = 3 if swap else int(obs[ob.BLIND_SIZE + s])
        grid.add_row(name, hand, Text("up ").append(style.cards(view.faceup[s])), f"blind {blind}", *total, known_text)
    return grid


def pile_line(view: SeatView, style: CardStyle, shown: int = 9) -> Text:
    obs = view.obs
    if not view.pile:
        text = Text("pile: empty")
    else:
        top_first = list(reversed(view.pile))
        text = Text(f"pile {len(view.pile)}, top first: ").append(style.cards(top_first[:shown], sort=False))
        if len(top_first) > shown:
            text.append(" ...")
        if obs[ob.PILE_RUN] > 1:  # R16.2: four of a rank on top burn
            text.append(f"  run {RANK_NAMES[int(obs[ob.PILE_TOP])]} x{obs[ob.PILE_RUN]}", style="dim")
        if obs[ob.LOW_RANK] >= 0 and card_rank(view.pile[-1]) == obs[ob.LOW_RANK]:
            text.append(f"  ({RANK_NAMES[int(obs[ob.LOW_RANK])]} is low: play it or lower)", style="bold")
    return text


def talon_line(view: SeatView) -> Text:
    obs = view.obs
    burned = obs[ob.BURNED: ob.BURNED + NUM_RANKS]
    text = Text(f"talon {obs[ob.TALON_SIZE]}   burned {burned.sum()}")
    if burned.sum():
        text.append(f": {rank_counts_text(burned)}", style="dim")
    return text


def move_grid(moves, width: int) -> Table:
    """The legal moves, numbered from 1 down the columns, in as many columns as fit the width."""
    labels = [f"{i}) {m.label}" for i, m in enumerate(moves, 1)]
    columns = max([c for c in range(1, len(labels) + 1) if _grid_width(labels, c) <= width] or [1])
    rows = -(-len(labels) // columns)
    grid = Table.grid(padding=(0, GRID_GAP))
    for _ in range(columns):
        grid.add_column(no_wrap=True)
    for r in range(rows):
        grid.add_row(*[labels[c * rows + r] if c * rows + r < len(labels) else "" for c in range(columns)])
    return grid


GRID_GAP = 2


def _grid_width(labels: list[str], columns: int) -> int:
    """The width of the labels laid out down `columns` columns, each as wide as its widest label."""
    rows = -(-len(labels) // columns)
    widths = [max(len(label) for label in labels[c * rows: (c + 1) * rows]) for c in range(-(-len(labels) // rows))]
    return sum(widths) + GRID_GAP * (len(widths) - 1)


def screen(view: SeatView, log: PublicLog, moves, style: CardStyle, width: int, height: int = SCREEN_HEIGHT
           ) -> Group:
    """The whole screen at a decision: the moves since the last one take the lines the rest leaves of
    `height` (the prompt's line kept), at most LOG_LINES and at least one."""
    obs = view.obs
    width = min(width, SCREEN_WIDTH)
    title = Text(f"round {view.round_no} of {view.rounds}" if view.rounds > 1 else "Idiot", style="bold")
    decks = DECK_WORDS.get(view.decks, f", {view.decks} decks")
    title.append(f"  |  {int(obs[ob.PLAYERS])} players{decks}  |  {DECISION_WORDS[int(obs[ob.DECISION])]}")
    head = [title, seat_rows(view, style)]
    if obs[ob.DECISION] != ob.SWAP:
        head += [pile_line(view, style), talon_line(view), Text("last moves:", style="dim")]
    mine = Text("your hand: ", style="bold").append(style.cards(view.hand))
    if obs[ob.DECISION] == ob.SWAP:
        mine.append("   face-up now: ").append(style.cards(view.faceup[view.seat]))
    tail = [mine, move_grid(moves, width)]
    if obs[ob.DECISION] == ob.SWAP:
        return Group(*head, *tail)
    room = height - 1 - rendered_lines(Group(*head, *tail), width)
    moves_since = [Text("  ").append(line) for line in log.recent(room)]
    for line in moves_since:  # one line each: a long pickup's cards end in an ellipsis (the seat rows count them)
        line.truncate(width, overflow="ellipsis")
    return Group(*head, *moves_since, *tail)



def rendered_lines(renderable, width: int) -> int:
    """How many lines `renderable` takes at `width` columns."""
    import io
    console = Console(file=io.StringIO(), width=width, color_system=None, highlight=False, markup=False)
    console.print(renderable)
    return console.file.getvalue().count("\n")


def make_console() -> Console:
    """A console for the table: colour and the terminal's size where there is one, at most SCREEN_WIDTH
    columns, so that every message wraps as the screen does; rich honours NO_COLOR and writes plain text
    to a pipe. No markup: labels and paths are printed as they are."""
    console = Console(highlight=False, markup=False, soft_wrap=False)
    console.width = min(console.width, SCREEN_WIDTH)
    return console
