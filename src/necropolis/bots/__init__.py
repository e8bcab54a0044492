"""Bots: players that decide from a seat's window (view, legal actions, resampling).

Bots never see a state in play, only a :class:`~necropolis.engine.seat.SeatWindow`. The
registry maps the names used on the command line to factories.
"""

from __future__ import annotations

from collections.abc import Callable

from necropolis.bots.random_bot import RandomBot
from necropolis.engine.driver import Player

BOTS: dict[str, Callable[[], Player]] = {
    "random": RandomBot,
}


def make_bot(name: str) -> Player:
    """A new bot by its command-line name."""
    try:
        return BOTS[name]()
    except KeyError:
        known = ", ".join(sorted(BOTS))
        raise ValueError(f"no bot called {name!r}; the bots are: {known}") from None


__all__ = ["BOTS", "RandomBot", "make_bot"]
