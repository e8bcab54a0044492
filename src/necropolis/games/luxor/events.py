"""What happens in Luxor (Dorn, 2018), as its rules emit it (:mod:`necropolis.engine.events`).

The rules (:mod:`.rules`) append these while they apply an action, and only when someone
asked (a log, a table, statistics): each is the whole truth, and :meth:`seen_by` is the
only way it reaches a viewer. A seat's cards (dealt, drawn, its Horus cards) and its
scarabs' values are its own; everything on the path is public. Fields are path indices (0
the stairs, 1-41 the path, 42 the burial chamber); cards, treasures and temple fronts are
the components' kind indices.
"""

from __future__ import annotations

from dataclasses import dataclass

from necropolis.engine.events import Event, Private


@dataclass(frozen=True, slots=True)
class CardDealt(Private):
    """Setup: ``seat`` got the starting ``card``."""

    hidden = ("card",)

    seat: int
    card: int | None


@dataclass(frozen=True, slots=True)
class OsirisLaid(Event):
    """Setup: an Osiris tile of ``value`` was laid on ``field``."""

    field: int
    value: int


@dataclass(frozen=True, slots=True)
class TreasureLaid(Event):
    """Setup: a treasure tile of ``kind`` (its treasure and variant) was laid on ``field``."""

    field: int
    kind: int


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` played ``card`` from its hand's ``end`` (0 left, 1 right); ``idle``: no
    card at either end allowed a move, so it moved nothing."""

    seat: int
    card: int
    end: int
    idle: bool


@dataclass(frozen=True, slots=True)
class DieRolled(Event):
    """``seat`` rolled ``roll`` for its die card."""

    seat: int
    roll: int


@dataclass(frozen=True, slots=True)
class RollWasted(Event):
    """No adventurer of ``seat`` could move the ``roll`` it rolled: the card is spent."""

    seat: int
    roll: int


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """``seat`` moved an adventurer from ``origin`` to ``field``: ``steps`` tiles forward,
    one tile back (``steps`` -1), or, with "last to second-to-last", the rearmost one to
    the second-to-last (``steps`` 0)."""

    seat: int
    origin: int
    steps: int
    field: int


#: ``Moved.steps`` of a "+/-1" card's step back, and of "last to second-to-last".
BACK, REARMOST = -1, 0


@dataclass(frozen=True, slots=True)
class Stayed(Event):
    """With an "all forward" card, the adventurer of ``seat`` on ``origin`` could not go
    ``steps`` tiles and stayed."""

    seat: int
    origin: int
    steps: int


@dataclass(frozen=True, slots=True)
class OsirisPush(Event):
    """The Osiris tile on ``landing`` carried ``seat``'s adventurer on to ``field``."""

    seat: int
    landing: int
    field: int


@dataclass(frozen=True, slots=True)
class Tunnel(Event):
    """``seat``'s adventurer went through the tunnel on ``origin`` to the next one, on
    ``field`` (-1: none lies further on, and it stayed)."""

    seat: int
    origin: int
    field: int


@dataclass(frozen=True, slots=True)
class Woke(Event):
    """Passing Anubis ``statue`` (0-based), ``seat`` woke its adventurer sleeping there."""

    seat: int
    statue: int


@dataclass(frozen=True, slots=True)
class ChamberEntered(Event):
    """``seat``'s adventurer entered the burial chamber, handing in a key, the
    ``entries``-th to enter; it won the sarcophagus worth ``sarcophagus`` (None: none was
    left); ``last_round``: the entry that makes this round the last."""

    seat: int
    entries: int
    sarcophagus: int | None
    last_round: bool


@dataclass(frozen=True, slots=True)
class TileChosen(Event):
    """After "all forward", ``seat`` chose the action of the tile on ``field``."""

    seat: int
    field: int


@dataclass(frozen=True, slots=True)
class TreasureTaken(Event):
    """``seat`` took the treasure tile of ``kind`` on ``field``, scoring its points."""

    seat: int
    field: int
    kind: int


@dataclass(frozen=True, slots=True)
class TreasureTooFew(Event):
    """The treasure tile of ``kind`` on ``field`` needs ``need`` adventurers of ``seat``
    there: it had ``have``."""

    seat: int
    field: int
    kind: int
    need: int
    have: int


@dataclass(frozen=True, slots=True)
class TempleRevealed(Event):
    """A temple tile was turned up on ``field``: its ``front``."""

    field: int
    front: int


@dataclass(frozen=True, slots=True)
class KeyTaken(Event):
    """``seat`` took a key."""

    seat: int


@dataclass(frozen=True, slots=True)
class WildTaken(Event):
    """``seat`` took a wild treasure tile."""

    seat: int


@dataclass(frozen=True, slots=True)
class NothingLeft(Event):
    """``seat``'s tile offered something the supply had none of left."""

    seat: int


@dataclass(frozen=True, slots=True)
class ScarabTaken(Private):
    """``seat`` took a scarab, ``value`` (a kind index) its secret until the end."""

    hidden = ("value",)

    seat: int
    value: int | None


@dataclass(frozen=True, slots=True)
class HorusCardTaken(Private):
    """``seat`` took the Horus ``card`` of ``level`` eyes instead of drawing."""

    hidden = ("card",)

    seat: int
    level: int
    card: int | None


@dataclass(frozen=True, slots=True)
class CardDrawn(Private):
    """``seat`` drew ``card`` into the middle of its hand."""

    hidden = ("card",)

    seat: int
    card: int | None


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The discard pile was shuffled into a new draw pile."""


#: How a match ended: after its last round, early (a whole round without a move), or at
#: the rounds' limit.
ENDED, ENDED_EARLY, ENDED_AT_LIMIT = 0, 1, 2


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    """The match ended after ``round`` rounds, ``how``; every scarab is turned up."""

    how: int
    round: int


@dataclass(frozen=True, slots=True)
class FinalScore(Event):
    """``seat``'s final score, part by part, in the rulebook's order: treasures taken
    during play, the adventurers' places, sarcophagi, keys, sets, scarabs, and the total."""

    seat: int
    track: int
    adventurers: int
    sarcophagi: int
    keys: int
    sets: int
    scarabs: int
    total: int


#: How a winner won: alone on points, by the tiebreak (the more valuable sarcophagus), or
#: sharing the win.
ALONE, BY_TIEBREAK, SHARED = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Won(Event):
    """``seat`` won with ``points``, ``how``; ``sarcophagus`` is its most valuable one,
    which broke the tie (0: none)."""

    seat: int
    points: int
    how: int
    sarcophagus: int
