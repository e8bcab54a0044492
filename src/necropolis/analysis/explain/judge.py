"""The judge: a seat's chance to win in a world, the one thing the analysis asks a game.

The explanation of a match and the hints weigh positions by a chance to win, and that
chance comes from one place: a :class:`Judge`, asked about a batch of worlds (whole
states drawn from one seat's window, or such worlds a few actions on) for one seat. Until
a game has a learned judgement of its own, :class:`EstimateJudge` answers with the
game's :meth:`~necropolis.engine.protocol.State.estimate_returns`, the guess that the
``hard`` level's search backs up when it cuts its rollouts short; :func:`judge_for` picks
the judge of a game, so that a better one replaces it without a change anywhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from necropolis.engine.protocol import Game, State


class Judge(Protocol):
    """Each world's chance that ``seat`` wins, as a number from 0 to 1.

    A world is a determinization drawn from ``seat``'s window (or one a few actions on),
    so a judge may read the whole of it: it holds nothing the seat could not have
    guessed. A shared win counts as its share; in a game that nobody may win the chances
    of the seats may add up to less than 1.
    """

    #: A short name for reports (``"estimate"``, ``"learned v3"``).
    name: str

    def chances(self, worlds: Sequence[State], seat: int) -> list[float]: ...


class EstimateJudge:
    """The game's own estimate of the returns (a finished world: its true returns)."""

    name = "estimate"

    def chances(self, worlds: Sequence[State], seat: int) -> list[float]:
        return [world.estimate_returns()[seat] for world in worlds]


def judge_for(game: Game) -> Judge:
    """The judge of ``game``'s positions: its learned judgement once it has one, until
    then its estimate."""
    return EstimateJudge()
