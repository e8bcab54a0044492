"""The exceptions that necropolis raises on purpose.

Every error a user can provoke (an illegal move, a bad game option, a broken match file)
has its own class here, all under :class:`NecropolisError`, so callers can tell a rule
refusing a move from a bug in the program.
"""

from __future__ import annotations


class NecropolisError(Exception):
    """The root of every error necropolis raises on purpose."""


class IllegalActionError(NecropolisError, ValueError):
    """An action that is not legal in the state it was applied to.

    The state is left exactly as it was before the attempt.
    """

    def __init__(self, action: int, message: str | None = None) -> None:
        self.action = action
        super().__init__(message or f"action {action} is not legal here")


class UnknownGameError(NecropolisError, KeyError):
    """A game id that no installed game package provides."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown game"


class OptionError(NecropolisError, ValueError):
    """A game option that does not exist or has a value the game cannot take."""


class MatchRecordError(NecropolisError, ValueError):
    """A match record that cannot be read or does not replay."""


class HiddenHistoryError(NecropolisError, LookupError):
    """The history of a determinization, which it does not carry.

    A world made by :meth:`~necropolis.engine.protocol.State.resample` knows how many
    actions led to it but not which: the true ones would rebuild the hidden cards its seat
    may not see, and no other list of actions is known to lead to it.
    """
