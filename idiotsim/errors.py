"""Errors a user can cause. The CLI prints them as one line and exits with code 2."""


class UserError(Exception):
    """Bad user input: a flag, rules file, deck, strategy name or strategy move."""


class IllegalMoveError(UserError):
    """A strategy returned a move the rules do not allow."""


class RecordEnds(Exception):
    """A replayed game record (a game file of ``idiotsim play``) has no more decisions: the game was
    left unfinished there. Replays catch it and keep the game so far."""
