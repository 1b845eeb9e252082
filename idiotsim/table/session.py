"""One game at the table: the person's seat among bots on the reference engine, every decision
recorded into the game file (saved before each of the person's prompts, at the end, on ``quit``
and on Ctrl-C), the standings between rounds (V4).

The person's seat is a strategy-like seat: the engine hands it the observation and its own hand
counts, as it hands any strategy, and the session adds only what that seat may see with suits
(its own cards, the face-up rows, the pile) from the live round (``seat_view``).
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
from rich.prompt import Prompt
from rich.text import Text

from idiotsim.game import observation as ob
from idiotsim.errors import UserError
from idiotsim.table import gamefile
from idiotsim.table.answers import Answer, move_list, parse
from idiotsim.table.screen import CardStyle, PublicLog, SeatView, place_word, screen

HINT_ROLLOUTS = 2_000  # sampled states of a hint: a fraction of a second
HELP_TEXT = ("Answer with a number of the list (a number alone is always the list's), or type the move: "
             "3 7s (three 7s), 7s or 7 (every 7 you hold), "
             "2 7s +1 (with one face-up 7, V11), pickup, chance; at the swap the three face-up ranks (K A 2). "
             "hint: the search's judgement of every move; quit: save and leave.")


class Quit(Exception):
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

    def __init__(self, rules, seats: Seats, seed: int, game: int, decks, save_path, console, symbols: bool):
        self.rules = rules
        self.seats = seats
        self.console = console
        self.style = CardStyle(symbols)
        self.save_path = save_path
        self.record = gamefile.GameRecord(rules, [gamefile.HUMAN_LABEL if s == seats.human else label
                                                  for s, label in enumerate(seats.labels)],
                                          seats.human, seed, game, [np.asarray(d) for d in decks])
        self.log = PublicLog([self.screen_name(s) for s in range(rules.players)])
        self.round = None

    def screen_name(self, seat: int) -> str:
        return f"you (seat {seat})" if seat == self.seats.human else f"seat {seat} {self.seats.labels[seat]}"

    def save(self) -> None:
        gamefile.save(self.record, self.save_path)

    # ---- the game ----------------------------------------------------------------------------

    def run(self) -> str:
        """Play; returns "finished", "quit" or "interrupted" (the game file is saved in every case)."""
        from idiotsim.game.reference import play_match
        from idiotsim.strategies.loading import SeatStrategy
        from idiotsim.strategies.toolkit import Strategy
        human = SeatStrategy(gamefile.HUMAN_LABEL, Strategy(gamefile.HUMAN_LABEL, SimpleNamespace(py_func=self.decide),
                                                            "the person at the table"), np.zeros(0))
        seats = [human if s == self.seats.human else bot for s, bot in enumerate(self.seats.bots)]
        self.save()
        try:
            result = play_match(self.record.decks, self.rules, gamefile.recording_seats(seats, self.record),
                                self.record.seed, self.record.game, observer=self.observe)
        except KeyboardInterrupt:
            self.save()
            self.console.print(f"\ninterrupted: the game so far is saved in {self.save_path}")
            return "interrupted"
        except (Quit, EOFError):
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

    def observe(self, event, rnd) -> None:
        self.round = rnd
        self.log.add(event, self.style)
        if event["action"] == "end" and event["round"] < self.rules.rounds:
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
            self.console.print(Text("  ").append(line))
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
            view = SeatView(obs, self.log.labels, hand, faceup, [], round_no, self.rules.rounds)
            return view, hand + faceup[seat]
        me = self.round.players[seat]
        view = SeatView(obs, self.log.labels, list(me.hand), [list(p.faceup) for p in self.round.players],
                        list(self.round.pile), round_no, self.rules.rounds)
        return view, list(me.hand) if obs[ob.SOURCE] == ob.SRC_HAND else list(me.faceup)

    def decide(self, obs, hand, params, rng) -> int:
        view, cards = self.seat_view(obs)
        moves = move_list(int(obs[ob.DECISION]), cards, obs, hand, self.rules, self.style.text,
                          faceup=view.faceup[view.seat])
        self.save()
        self.draw(view, moves)
        while True:
            question = f"your move (1-{len(moves)}, hint, help, quit)" if len(moves) > 1 else "your move (1, hint, quit)"
            answer = parse(Prompt.ask(question, console=self.console), int(obs[ob.DECISION]), moves, hand)
            if answer.move is not None:
                return answer.move
            self.answer_command(answer, obs, hand, moves)

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
        elif answer.command == "hint":
            self.hint(obs, hand, moves)
        else:
            self.console.print(Text(answer.error, style="yellow"))

    def hint(self, obs, hand, moves) -> None:
        """The search's judgement of every listed move (``idiotsim analyze``, compact)."""
        from idiotsim.analysis import position_analysis as an
        from idiotsim.analysis.positions import Position
        if obs[ob.DECISION] == ob.BLIND:
            self.console.print("hint: a blind card is flipped unseen (R15): every choice is alike")
            return
        position = Position(self.rules, obs.copy(), hand.copy())
        result = an.analysis(position, HINT_ROLLOUTS, None, seed=0)
        label = {m.code: f"{i}) {m.label}" for i, m in enumerate(moves, 1)}
        rows = sorted(zip(result["moves"], result["rows"]), key=lambda mr: mr[1].mean_place)
        self.console.print(f"hint: each move played on the same {HINT_ROLLOUTS:,} sampled states "
                           "(mean place; places lost against the best, 95% CI)")
        for move, row in rows:
            cost = "best" if row.best else f"+{row.diff:.2f} [{row.diff_lo:+.2f}, {row.diff_hi:+.2f}]"
            self.console.print(f"  {label.get(int(move), int(move))}: {row.mean_place:.2f}  {cost}")


def offer_review(console) -> bool:
    """Ask whether to review the game now: y or yes; anything else, or a closed input, is no."""
    try:
        answer = Prompt.ask("review your decisions now? (y/N)", console=console, default="", show_default=False)
    except (EOFError, KeyboardInterrupt):
        return False
    return answer.strip().lower() in ("y", "yes")
