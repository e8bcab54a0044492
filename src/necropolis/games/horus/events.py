"""What happens in The Pyramid of Horus, as its rules emit it (:mod:`necropolis.engine.events`).

The rules (:mod:`.rules`, :mod:`.actions` and :mod:`.effects`) append these while they
apply an action, and only when someone asked (a log, a table, statistics): each is the
whole truth, and :meth:`seen_by` is the only way it reaches a viewer. A card put in a Bag
or discarded face down shows only its back to the others; a sarcophagus read with
Linguistics and a block looked at with Udjat or Clairvoyance are their reader's alone;
under total secrecy a card drawn is its finder's alone (a mummy's or a block's wound, and
an idol, are public as the pile on their back shows them). Cards are card types, squares
and blocks the board's indices (a block's number is its index + 1), dice their index in
the five's order.

Every decision emits a :class:`Decided` event first: the log tells what followed it as
that seat's doing.
"""

from __future__ import annotations

from dataclasses import dataclass

from necropolis.engine.events import Event, Private


@dataclass(frozen=True, slots=True)
class Decided(Event):
    """A decision of ``seat`` (what it decided follows, as the events below)."""

    seat: int


# --- decisions ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AdventurerChosen(Event):
    """``seat`` chose ``adventurer`` and entered at ``entrance`` (0 west, 1 east)."""

    seat: int
    adventurer: int
    entrance: int


@dataclass(frozen=True, slots=True)
class Healed(Event):
    """``seat`` used the equipment ``kit`` to discard the ``wound``."""

    seat: int
    kit: int
    wound: int


@dataclass(frozen=True, slots=True)
class PutInBag(Private):
    """``seat`` put ``card`` (of the deck ``origin``) in a Bag, face down."""

    hidden = ("card",)

    seat: int
    card: int | None
    origin: int


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """``seat`` discarded ``card`` (of the deck ``origin``), from a Bag (``from_bag``) or
    from the cards in front of it; a card kept face down (``face_down``) shows the others
    its back only."""

    seat: int
    card: int | None
    origin: int
    from_bag: bool
    face_down: bool

    def seen_by(self, viewer: int | None) -> Discarded:
        return self if viewer == self.seat or not self.face_down else self.hiding(card=None)


@dataclass(frozen=True, slots=True)
class LevelSet(Event):
    """``seat`` settled on wound and load ``level`` (with its Stamina, ``stamina``)."""

    seat: int
    level: int
    stamina: bool


@dataclass(frozen=True, slots=True)
class Jumped(Event):
    """``seat`` jumped from ``square`` in ``direction`` to ``to``, with Dodge or not."""

    seat: int
    square: int
    direction: int
    to: int
    dodge: bool


@dataclass(frozen=True, slots=True)
class Reacted(Event):
    """``seat`` (playing ``adventurer``) drew ``card`` and threw it away with its ability
    (``used``), or kept it."""

    seat: int
    adventurer: int
    card: int
    used: bool


@dataclass(frozen=True, slots=True)
class BlockDecided(Event):
    """``seat``, having looked at a block, set it aside to fall this round (``kept``) or
    put it back (another is set aside unseen)."""

    seat: int
    kept: bool


#: How a seat went on with a lock: stopped, forced it with a Crowbar, used Lockpicking.
LOCK_STOPPED, LOCK_CROWBAR, LOCK_LOCKPICKING = 0, 1, 2


@dataclass(frozen=True, slots=True)
class LockTool(Event):
    """``seat`` stopped picking the lock, or opened it with a tool (``how``)."""

    seat: int
    how: int


@dataclass(frozen=True, slots=True)
class Rerolled(Event):
    """``seat`` rerolled the lock dice in the bitmask ``dice``."""

    seat: int
    dice: int


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """``seat`` ended its turn, with ``actions`` unused."""

    seat: int
    actions: int


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """``seat`` moved from ``square`` in ``direction`` to ``to``."""

    seat: int
    square: int
    direction: int
    to: int


@dataclass(frozen=True, slots=True)
class Searched(Event):
    """``seat`` searched the area of ``square``."""

    seat: int
    square: int


@dataclass(frozen=True, slots=True)
class Left(Event):
    """``seat`` left the pyramid with ``cards`` cards."""

    seat: int
    cards: int


@dataclass(frozen=True, slots=True)
class Opened(Event):
    """``seat`` opened the sarcophagus ``sarcophagus`` (its card is drawn or shown next)."""

    seat: int
    sarcophagus: int


@dataclass(frozen=True, slots=True)
class TakeChosen(Event):
    """``seat`` takes the card of the open ``sarcophagus`` (it reaches the hand after any
    card discarded to make room)."""

    seat: int
    sarcophagus: int


@dataclass(frozen=True, slots=True)
class LinguisticsUsed(Event):
    """``seat`` used Linguistics to read the ``sarcophagus`` in secret."""

    seat: int
    sarcophagus: int


@dataclass(frozen=True, slots=True)
class LockBegun(Event):
    """``seat`` began to pick the lock of ``god``'s alcove."""

    seat: int
    god: int


@dataclass(frozen=True, slots=True)
class Shot(Event):
    """``seat`` shot the ``mummy`` (``owner``: the seat it was, -1 for the game's own)."""

    seat: int
    mummy: int
    owner: int


@dataclass(frozen=True, slots=True)
class BlockLookedAt(Event):
    """``seat`` looked at the next stone block with an Udjat (``udjat``) or Clairvoyance."""

    seat: int
    udjat: bool


# --- chance -----------------------------------------------------------------------------

#: Which five dice a die belongs to.
ACTION_DICE, MUMMY_DICE, LOCK_DICE = 0, 1, 2


@dataclass(frozen=True, slots=True)
class DieRolled(Event):
    """Die ``die`` of the ``dice`` (action, mummy or lock dice) showed ``value``."""

    dice: int
    die: int
    value: int


@dataclass(frozen=True, slots=True)
class CardFound(Event):
    """``seat`` drew ``card`` from the deck ``origin``; under total secrecy (``secret``) it
    is laid face down, seen by its finder alone."""

    seat: int
    card: int | None
    origin: int
    secret: bool

    def seen_by(self, viewer: int | None) -> CardFound:
        return self if viewer == self.seat or not self.secret else self.hiding(card=None)


@dataclass(frozen=True, slots=True)
class BlockChecked(Private):
    """``seat`` looked at stone block ``block``."""

    hidden = ("block",)

    seat: int
    block: int | None


@dataclass(frozen=True, slots=True)
class ChestRolled(Event):
    """``seat`` rolled ``value`` for a chest."""

    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class SarcophagusRevealed(Event):
    """The open ``sarcophagus`` shows ``card``."""

    sarcophagus: int
    card: int


@dataclass(frozen=True, slots=True)
class SarcophagusRead(Event):
    """``seat`` read, with Linguistics, that the ``sarcophagus`` holds ``card``: the
    reader's alone."""

    seat: int
    sarcophagus: int
    card: int

    def seen_by(self, viewer: int | None) -> SarcophagusRead | None:
        return self if viewer == self.seat else None


@dataclass(frozen=True, slots=True)
class TreasureTaken(Event):
    """``seat`` took ``card`` from the ``sarcophagus``; it reaches its hand."""

    seat: int
    sarcophagus: int
    card: int


# --- what follows -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MummiesWalk(Event):
    """The mummy dice gave each mummy ``steps`` steps."""

    steps: int


@dataclass(frozen=True, slots=True)
class MummyWalked(Event):
    """The ``mummy`` (``owner``: the seat it was, -1 for the game's own) walked along its
    ``section`` through ``squares``, or got up (``rose``: it lay shot, and walks not)."""

    mummy: int
    owner: int
    section: int
    squares: tuple[int, ...]
    rose: bool


@dataclass(frozen=True, slots=True)
class MummyTouch(Event):
    """The ``mummy`` (``owner`` as above) touched ``seat``, which it may wound."""

    seat: int
    mummy: int
    owner: int


@dataclass(frozen=True, slots=True)
class CardGained(Event):
    """``card`` reached ``seat``'s cards: an idol, a wound, a card found or taken; a
    card drawn under total secrecy (``secret``) is its holder's alone. ``here``: the
    mummies (and the seats they were) standing on its square as it came, for a mummy's
    wound."""

    seat: int
    card: int
    secret: bool
    here: tuple[tuple[int, int], ...]

    def seen_by(self, viewer: int | None) -> CardGained | None:
        return self if viewer == self.seat or not self.secret else None


@dataclass(frozen=True, slots=True)
class LockOpened(Event):
    """``seat`` opened the lock of ``god``'s alcove: the idol goes to it."""

    seat: int
    god: int


@dataclass(frozen=True, slots=True)
class LockHeld(Event):
    """The lock of ``god``'s alcove held: ``seat`` has no action left to roll again."""

    seat: int
    god: int


@dataclass(frozen=True, slots=True)
class BecameMummy(Event):
    """``seat`` had twelve wounds when a mummy touched it, and rose as a mummy."""

    seat: int


@dataclass(frozen=True, slots=True)
class HorusTrap(Event):
    """Taking the Horus Idol set off the trap: a block falls now."""


@dataclass(frozen=True, slots=True)
class BlockFell(Event):
    """Stone block ``block`` fell on its square."""

    block: int


@dataclass(frozen=True, slots=True)
class Crushed(Event):
    """The falling block crushed ``seat``: there was nowhere to jump."""

    seat: int


@dataclass(frozen=True, slots=True)
class Sealed(Event):
    """The fallen blocks sealed ``seat`` in the pyramid."""

    seat: int


@dataclass(frozen=True, slots=True)
class ActionsCounted(Event):
    """The action dice gave ``seat`` ``actions`` at wound and load ``level``; the dice of
    the idols it holds (``cursed``: their gods) gave it nothing."""

    seat: int
    actions: int
    level: int
    cursed: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundBegan(Event):
    """Round ``round`` began with ``keeper`` as the Dice Keeper."""

    round: int
    keeper: int


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game is over: each seat's ``status`` (an adventurer's fate) and ``points``, and
    who won (none: the pyramid did)."""

    status: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
