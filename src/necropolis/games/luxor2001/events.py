"""What happens in Luxor (Baars, 2001), as its rules emit it (:mod:`necropolis.engine.events`).

The rules (:mod:`.rules`) append these while they apply an action, and only when someone
asked (a log, a table, statistics): each is the whole truth, and :meth:`seen_by` is the
only way it reaches a viewer. A seat's hand card, its pharaoh card and a sarcophagus's
value are private; everything else on the wall and at the pillars is public. Animals,
pillars and cards are the components' indices, cells the wall's (``row * 8 + shaft``).
"""

from __future__ import annotations

from dataclasses import dataclass

from necropolis.engine.events import Event, Private


@dataclass(frozen=True, slots=True)
class PharaohDealt(Private):
    """Setup: ``seat`` got the pharaoh card of ``animal`` (secret until the end)."""

    hidden = ("animal",)

    seat: int
    animal: int | None


@dataclass(frozen=True, slots=True)
class CardDealt(Private):
    """Setup: ``seat`` got the hieroglyph ``card`` into its hand."""

    hidden = ("card",)

    seat: int
    card: int | None


@dataclass(frozen=True, slots=True)
class CardDrawn(Private):
    """``seat`` drew the hieroglyph ``card``."""

    hidden = ("card",)

    seat: int
    card: int | None


@dataclass(frozen=True, slots=True)
class NoCardDrawn(Event):
    """The draw pile was empty: ``seat``'s turn passed without a draw."""

    seat: int


@dataclass(frozen=True, slots=True)
class BackShown(Event):
    """Curse variant: the second pile's top card shows its back (0 hieroglyph, 1 curse)."""

    back: int


@dataclass(frozen=True, slots=True)
class CardInserted(Event):
    """``seat`` inserted ``card`` into ``shaft``; it fell to card place ``level`` (from the
    bottom, so its cells are ``bottom`` and ``bottom + 8``) and formed ``pairs`` pairs."""

    seat: int
    card: int
    shaft: int
    level: int
    bottom: int
    pairs: int


@dataclass(frozen=True, slots=True)
class PairFormed(Event):
    """The card just inserted formed a pair of ``animal`` on ``cells``, looking the same
    way (``same``) or different ways. One per pair, in the order the rule finds them."""

    animal: int
    same: bool
    cells: tuple[int, int]


@dataclass(frozen=True, slots=True)
class PairScored(Event):
    """``seat`` scores its pair of ``animal`` on ``cells`` now."""

    seat: int
    animal: int
    same: bool
    cells: tuple[int, int]


@dataclass(frozen=True, slots=True)
class PairsWaiting(Event):
    """Scoring stopped for the mover to choose which pair scores next: the pairs left,
    each ``(animal, same, cell, cell)``."""

    seat: int
    pairs: tuple[tuple[int, bool, int, int], ...]


@dataclass(frozen=True, slots=True)
class ResearcherPlaced(Event):
    """``seat`` put a researcher at ``animal``'s pillar: from its supply (``source`` -1)
    or moved from the pillar ``source``; ``displaced`` is the seat whose researcher went
    home from there (-1: none)."""

    seat: int
    animal: int
    source: int
    displaced: int


@dataclass(frozen=True, slots=True)
class ResearchersKept(Event):
    """With none in supply, ``seat`` left every researcher where it stood, for the pair
    of ``animal``."""

    seat: int
    animal: int


@dataclass(frozen=True, slots=True)
class PairLapsed(Event):
    """The pair of ``animal`` gave nothing (researchers kept, its pillar free)."""

    animal: int


@dataclass(frozen=True, slots=True)
class ScarabPlaced(Event):
    """``seat``'s pair put a scarab at ``animal``'s pillar, which now has ``scarabs``."""

    seat: int
    animal: int
    scarabs: int


#: Why a pair gave no scarab, in the order the rule checks.
SCARAB_LIMIT, SCARABS_FULL, SLAB_EMPTY = 0, 1, 2


@dataclass(frozen=True, slots=True)
class ScarabWithheld(Event):
    """A pair gave no scarab at ``animal``'s pillar, for ``reason`` (two this insertion
    already, three there already, none left on the slab)."""

    animal: int
    reason: int


@dataclass(frozen=True, slots=True)
class SarcophagusUnsealed(Event):
    """``animal``'s pillar has three scarabs: its top sarcophagus (of ``eyes``) goes to
    ``seat``, whose researcher stands there; its value is drawn next."""

    seat: int
    animal: int
    eyes: int


@dataclass(frozen=True, slots=True)
class SarcophagusOpened(Private):
    """``seat`` won the top sarcophagus of ``animal``'s pillar, ``value`` (a value index)
    of ``eyes``, and looked at it; the pillar's scarabs went back to the slab."""

    hidden = ("value",)

    seat: int
    animal: int
    eyes: int
    value: int | None


@dataclass(frozen=True, slots=True)
class CurseRevealed(Event):
    """Curse variant: ``seat``, about to draw, turned up the curse card ``curse``."""

    seat: int
    curse: int


#: What became of a curse card turned up.
CURSE_WINDOW, CURSE_HARMLESS, CURSE_NO_VICTIM = 0, 1, 2


@dataclass(frozen=True, slots=True)
class CurseJudged(Event):
    """The curse card's fate: its animals side by side (the race opens), nowhere side by
    side, or nobody but the drawer ``drawer`` holds a sarcophagus."""

    drawer: int
    outcome: int


@dataclass(frozen=True, slots=True)
class CursePassed(Event):
    """``seat`` passed in the race for the curse."""

    seat: int


@dataclass(frozen=True, slots=True)
class CurseLapsed(Event):
    """Every seat passed: the curse card left the game."""


@dataclass(frozen=True, slots=True)
class CurseClaimed(Event):
    """``seat`` claimed the curse, naming ``victim``."""

    seat: int
    victim: int


@dataclass(frozen=True, slots=True)
class SarcophagusGiven(Event):
    """The cursed ``seat`` gave ``drawer`` a sarcophagus of ``eyes``, ``value`` (a value
    index), which the seats in the bitmask ``seen`` had looked at before. Its value is
    known to the giver, the receiver, and every seat that looked at it once."""

    seat: int
    drawer: int
    eyes: int
    value: int | None
    seen: int

    def seen_by(self, viewer: int | None) -> SarcophagusGiven:
        knows = viewer in (self.seat, self.drawer) or (
            viewer is not None and bool(self.seen >> viewer & 1)
        )
        return self if knows else self.hiding(value=None)


@dataclass(frozen=True, slots=True)
class FinalMovesBegin(Event):
    """The wall is full: from ``first`` on, each seat may move scarabs between its pillars."""

    first: int


@dataclass(frozen=True, slots=True)
class ScarabMoved(Event):
    """A final move: ``seat`` moved a scarab from ``source``'s pillar to ``animal``'s."""

    seat: int
    source: int
    animal: int


@dataclass(frozen=True, slots=True)
class StoppedMoving(Event):
    """``seat`` stopped its final scarab moves."""

    seat: int


@dataclass(frozen=True, slots=True)
class NoScarabMoves(Event):
    """``seat`` had no final move (``further``: no further one, after some) and is done."""

    seat: int
    further: bool


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    """The match is over; every hidden thing is turned up."""


@dataclass(frozen=True, slots=True)
class SarcophagiShown(Event):
    """At the end, ``seat`` turned up its sarcophagi: their ``values`` (value indices)."""

    seat: int
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PharaohShown(Event):
    """At the end, ``seat`` showed its pharaoh card of ``animal``; ``bonus`` if it holds
    that pillar with a researcher."""

    seat: int
    animal: int
    bonus: bool


@dataclass(frozen=True, slots=True)
class FinalScore(Event):
    """``seat`` scored ``points`` with ``sarcophagi`` sarcophagi."""

    seat: int
    points: int
    sarcophagi: int


@dataclass(frozen=True, slots=True)
class MatchWon(Event):
    """``seat`` won the match (``shared``: with others tied)."""

    seat: int
    shared: bool
