"""Errors a user can cause. The CLI prints them as one line and exits with code 2."""


class UserError(Exception):
    """Bad user input: a flag, rules file, deck, strategy name or strategy move.

    ``details``: lines the CLI prints under the one ``error:`` line, for an error whose cause lies in a
    user's own file (a strategy that does not compile: the place in the file). The message alone still
    says what is wrong."""

    def __init__(self, message: str, details=()):
        super().__init__(message)
        self.details = tuple(details)


class IllegalMoveError(UserError):
    """A strategy returned a move the rules do not allow."""


class StrategyFault(IllegalMoveError):
    """A strategy's decision failed in its own code: it raised an exception, or returned something that is
    not a move code (the message names the cause and the place in the strategy's file)."""


class LeaveGame(Exception):
    """Raised by a seat's decision to stop the game on purpose (a recorded game that ends, a person who
    quits): never a fault of the strategy's code."""


class RecordEnds(LeaveGame):
    """A replayed game record (a game file of ``idiotsim play``) has no more decisions: the game was
    left unfinished there. Replays catch it and keep the game so far."""
