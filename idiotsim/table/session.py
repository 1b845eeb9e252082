"""One game at the table: the person's seat among bots on the reference engine, every decision
recorded into the game file (saved before each of the person's prompts, at the end, on ``quit``
and on Ctrl-C), the standings between rounds (V4). A resumed game (``play --resume``) first replays
the decisions of its file, the bots deciding again so that their random streams move on as in the
game played, and goes on from there.

The person's seat is a strategy-like seat: the engine hands it the observation and its own hand
counts, as it hands any strategy, and the session adds only what that seat may see with suits
(its own cards, the face-up rows, the pile) from the live round (``seat_view``).

Why the reference engine and not the numba engine's stepping API (``engine.stepping``), which the
OpenSpiel and PettingZoo adapters step: a person sees every card with its suit, and only the reference
engine keeps suits (the numba engine counts ranks, R1: suits never matter). At a person's pace the
engine's speed buys nothing, and the two engines are tested equal decision by decision. The hints
and the review judge positions on the numba engine (``analysis``).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from rich.prompt import Prompt
from rich.text import Text

from idiotsim.analysis.stats import decimals_for
from idiotsim.game import observation as ob
from idiotsim.errors import LeaveGame, UserError
from idiotsim.table import gamefile
from idiotsim.table.answers import Answer, move_list, parse
from idiotsim.table.screen import SCREEN_WIDTH, CardStyle, PublicLog, SeatView, place_word, screen

HINT_ROLLOUTS = 2_000  # sampled states of a hint: a fraction of a second
HINT_ROWS = 4  # the best moves a hint shows (hint all: every move), so that the board stays on a 24-line screen
HELP_TEXT = ("Answer with a number of the list, or type the move: 3 7s (three 7s), 7s or 7 (every 7 you hold), "
             "the cards as shown (7H 7S, or 7♥ 7♠: suits never matter, R1), 2 7s +1 (with one face-up 7, V11), "
             "pickup, chance; at the swap the three face-up cards or ranks (K A 2). "
             "hint: the search's best moves (hint all: every move); quit: save and leave.")


class Quit(LeaveGame):
    """The person typed quit (or closed the input)."""


@dataclass
class Seats:
    """Who sits where: the person's seat, the bots' seat strategies (None at the person's seat) and
    the labels the screen and the game file use."""
    human: int
    bots: list
    labels: list


class Session:
    """A game of ``idiotsim play`` (``run`` plays it to the end, a quit or an interrupt)."""

    def __init__(self, rules, seats: Seats, seed: int, game: int, decks, save_path, console, symbols: bool,
                 recorded=(), resumed: bool = False):
        self.rules = rules
        self.seats = seats
        self.console = console
        self.style = CardStyle(symbols)
        self.save_path = save_path
        self.record = gamefile.GameRecord(rules, [gamefile.HUMAN_LABEL if s == seats.human else label
                                                  for s, label in enumerate(seats.labels)],
                                          seats.human, seed, game, [np.asarray(d) for d in decks])
        self.log = PublicLog([self.log_name(s) for s in range(rules.players)])
        self.round = None
        self.pending = {s: deque(move for who, move in recorded if who == s) for s in range(rules.players)}
        self.replaying = len(recorded)  # recorded decisions not yet replayed (play --resume)
        self.saved_once = resumed  # a resumed game's file is its own

    def screen_name(self, seat: int) -> str:
        return f"you (seat {seat})" if seat == self.seats.human else f"seat {seat} {self.seats.labels[seat]}"

    def names(self) -> list[str]:
        return [self.screen_name(s) for s in range(self.rules.players)]

    def log_name(self, seat: int) -> str:
        """A seat in the moves' log: short, so that a move fits a line (the seat rows show the bots' names)."""
        return "you" if seat == self.seats.human else f"seat {seat}"

    def save(self) -> None:
        """Save the game so far; never over a file that is not this game's, nor, while a resumed game
        replays its file, over the file's longer record."""
        if self.replaying:
            return
        if not self.saved_once and Path(self.save_path).exists():
            raise UserError(f"{self.save_path} appeared while the game started: a game file is never overwritten")
        gamefile.save(self.record, self.save_path)
        self.saved_once = True

    # ---- the game ----------------------------------------------------------------------------

    def run(self) -> str:
        """Play; returns "finished", "quit" or "interrupted" (the game file is saved in every case)."""
        from idiotsim.game.reference import play_match
        from idiotsim.strategies.loading import SeatStrategy
        from idiotsim.strategies.toolkit import Strategy
        human = SeatStrategy(gamefile.HUMAN_LABEL, Strategy(gamefile.HUMAN_LABEL, SimpleNamespace(py_func=self.decide),
                                                            "the person at the table"), np.zeros(0))
        seats = [human if s == self.seats.human else bot for s, bot in enumerate(self.seats.bots)]
        seats = [self.resumed(s, seat) for s, seat in enumerate(seats)]
        self.save()
        try:
            result = play_match(self.record.decks, self.rules, gamefile.recording_seats(seats, self.record),
                                self.record.seed, self.record.game, observer=self.observe)
        except KeyboardInterrupt:
            self.save()
            self.console.print(f"\ninterrupted: the game so far is saved in {self.save_path}")
            return "interrupted"
        except (Quit, EOFError):  # EOFError: the input closed at a round's end
            self.save()
            self.console.print(f"\nleft the table: the game so far is saved in {self.save_path}")
            return "quit"
        except UserError:  # a bot's illegal move: keep the game up to it, then the one error line
            self.save()
            raise
        self.record.places = list(result.places)
        self.save()
        self.show_end(result)
        return "finished"

    def resumed(self, seat: int, seat_strategy):
        """`seat_strategy`, answering with the seat's recorded moves first (a resumed game): a bot still
        decides each of them, so that its random stream moves on as in the game played."""
        from idiotsim.strategies.loading import SeatStrategy
        from idiotsim.strategies.toolkit import Strategy
        queue, inner = self.pending[seat], seat_strategy.decide.py_func
        if not queue:
            return seat_strategy

        def decide(obs, hand, params, rng):
            if not queue:
                return inner(obs, hand, params, rng)
            if seat != self.seats.human:
                inner(obs, hand, params, rng)
            self.replaying -= 1
            return queue.popleft()

        strategy = Strategy(name=seat_strategy.label, decide=SimpleNamespace(py_func=decide),
                            description=seat_strategy.strategy.description)
        return SeatStrategy(seat_strategy.label, strategy, seat_strategy.params)

    def observe(self, event, rnd) -> None:
        self.round = rnd
        self.log.add(event, self.style)
        if event["action"] == "end" and event["round"] < self.rules.rounds and not self.replaying:
            self.show_round_end(event)

    def show_round_end(self, event) -> None:
        self.show_recent()
        places = event["places"]
        totals = [score + place for score, place in zip(self.round.scores, places)]
        self.console.print(Text(f"round {event['round']} of {self.rules.rounds} over", style="bold"))
        for s in sorted(range(self.rules.players), key=places.__getitem__):
            self.console.print(f"  {place_word(places[s])}: {self.screen_name(s)}   match total {totals[s]}")
        Prompt.ask(f"press Enter for round {event['round'] + 1}", console=self.console, default="",
                   show_default=False)

    def show_recent(self) -> None:
        for line in self.log.recent():
            shown = Text("  ").append(line)
            shown.truncate(SCREEN_WIDTH, overflow="ellipsis")
            self.console.print(shown)
        self.log.unseen = 0

    def show_end(self, result) -> None:
        self.show_recent()
        n = self.rules.players
        self.console.print(Text("game over" + (f" after {self.rules.rounds} rounds" if self.rules.rounds > 1 else ""),
                                style="bold"))
        for s in sorted(range(n), key=result.places.__getitem__):
            total = f"   total {result.totals[s]}" if self.rules.rounds > 1 else ""
            idiot = "  (the Idiot)" if result.places[s] == n else ""
            self.console.print(f"  {place_word(result.places[s])}: {self.screen_name(s)}{total}{idiot}")
        self.console.print(f"game saved in {self.save_path}")

    # ---- the person's decisions --------------------------------------------------------------

    def seat_view(self, obs) -> tuple[SeatView, list]:
        """What the seat sees, and the cards its moves come from (its source row, R13; at the swap
        its 6 cards). Only the seat's own cards, the face-up rows and the pile are read with suits."""
        seat, n = int(obs[ob.SEAT]), self.rules.players
        round_no = int(obs[ob.ROUND])
        if obs[ob.DECISION] == ob.SWAP:  # R6: the seat's own six cards as dealt (R5)
            deck = [int(c) for c in self.record.decks[round_no - 1]]
            hand = deck[6 * n + 3 * seat: 6 * n + 3 * seat + 3]
            faceup = [deck[3 * n + 3 * seat: 3 * n + 3 * seat + 3] if s == seat else [] for s in range(n)]
            view = SeatView(obs, self.names(), hand, faceup, [], round_no, self.rules.rounds, self.rules.decks)
            return view, hand + faceup[seat]
        me = self.round.players[seat]
        view = SeatView(obs, self.names(), list(me.hand), [list(p.faceup) for p in self.round.players],
                        list(self.round.pile), round_no, self.rules.rounds, self.rules.decks)
        return view, list(me.hand) if obs[ob.SOURCE] == ob.SRC_HAND else list(me.faceup)

    def decide(self, obs, hand, params, rng) -> int:
        view, cards = self.seat_view(obs)
        moves = move_list(int(obs[ob.DECISION]), cards, obs, hand, self.rules, self.style.text,
                          faceup=view.faceup[view.seat])
        self.save()
        self.draw(view, moves)
        while True:
            question = f"your move (1-{len(moves)}, hint, help, quit)" if len(moves) > 1 else "your move (1, hint, quit)"
            answer = parse(self.ask(question), int(obs[ob.DECISION]), moves, hand, cards, self.style.text)
            if answer.move is not None:
                return answer.move
            self.answer_command(answer, obs, hand, moves)

    def ask(self, question: str) -> str:
        try:
            return Prompt.ask(question, console=self.console)
        except EOFError:  # the input closed: the person has left
            raise Quit from None

    def draw(self, view: SeatView, moves) -> None:
        if self.console.is_terminal:
            self.console.clear()
        self.console.print(screen(view, self.log, moves, self.style, self.console.width))
        self.log.unseen = 0

    def answer_command(self, answer: Answer, obs, hand, moves) -> None:
        if answer.command == "quit":
            raise Quit
        if answer.command == "help":
            self.console.print(HELP_TEXT)
        elif answer.command in ("hint", "hint all"):
            self.hint(obs, hand, moves, every=answer.command == "hint all")
        else:
            self.console.print(Text(answer.error, style="yellow"))

    def hint(self, obs, hand, moves, every: bool = False) -> None:
        """The search's judgement of the listed moves (``idiotsim analyze``, compact): the best
        HINT_ROWS, or `every` move (``hint all``)."""
        from idiotsim.analysis import position_analysis as an
        from idiotsim.analysis.positions import Position
        if obs[ob.DECISION] == ob.BLIND:
            self.console.print("hint: a blind card is flipped unseen (R15): every choice is alike")
            return
        position = Position(self.rules, obs.copy(), hand.copy())
        result = an.analysis(position, HINT_ROLLOUTS, None, seed=0)
        label = {m.code: f"{i}) {m.label}" for i, m in enumerate(moves, 1)}
        rows = sorted(zip(result["moves"], result["rows"]), key=lambda mr: mr[1].mean_place)
        shown = rows if every or len(rows) <= HINT_ROWS + 1 else rows[:HINT_ROWS]
        names = [label.get(int(move), str(int(move))) for move, _ in shown]
        width = max(map(len, names))
        self.console.print(f"hint: mean place over {HINT_ROLLOUTS:,} sampled states, and places behind the best "
                           "(95% CI)")
        for name, (move, row) in zip(names, shown):
            d = decimals_for(row.diff_lo, row.diff_hi, 2)  # more where a bound that excludes 0 would print as 0
            behind = "best" if row.best else f"{_places(row.diff, d)} behind ({_places(row.diff_lo, d)} to " \
                                             f"{_places(row.diff_hi, d)})"
            self.console.print(f"  {name:<{width}}  {row.mean_place:.2f}  {behind}")
        if len(shown) < len(rows):
            rest = [row.diff for _, row in rows[len(shown):]]
            self.console.print(f"  ... {len(rest)} more moves, {_places(min(rest))} to {_places(max(rest))} "
                               "behind (hint all: every move)")


def _places(x: float, decimals: int = 2) -> str:
    """A place difference, never -0.00."""
    text = f"{x:.{decimals}f}"
    return text.lstrip("-") if float(text) == 0 else text


def prepare(rules, bots) -> None:
    """Compile, or load from numba's cache, what the table runs, before the first prompt: each bot's
    decisions (a swap and a turn of a game of basic), the legal moves and the search that a hint and
    the review use. After an install or an update the search compiles first (minutes); else all of
    it loads in a few seconds."""
    from idiotsim.analysis.position_analysis import analysis, replay_decisions
    from idiotsim.analysis.positions import Position
    from idiotsim.game.rng import new_state, shuffled_deck
    from idiotsim.strategies.loading import load_strategies
    decks = [shuffled_deck(0, 0, r, rules.decks) for r in range(rules.rounds)]
    _, decisions = replay_decisions(rules, load_strategies("basic", rules.players), decks, 0, 0)
    swap = decisions[0]
    turn = next(d for d in decisions if d.obs[ob.DECISION] == ob.TURN)
    for bot in {b.label: b for b in bots if b is not None}.values():
        for decision in (swap, turn):
            bot.decide.py_func(decision.obs.copy(), decision.hand.copy(), bot.params, new_state(0, 0, 0))
    analysis(Position(rules, turn.obs.copy(), turn.hand.copy()), 2, None, seed=0)


def offer_review(console) -> bool:
    """Ask whether to review the game now: y or yes; anything else, or a closed input, is no."""
    try:
        answer = Prompt.ask("review your decisions now? (y/N)", console=console, default="", show_default=False)
    except (EOFError, KeyboardInterrupt):
        return False
    return answer.strip().lower() in ("y", "yes")
