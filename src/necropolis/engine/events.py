"""Events: what happened when a state applied an action, said once, by the rules.

A game's rules know exactly what an action set off (a pair formed on two cells, a
sarcophagus opened and who saw its value, a die rolled, a block fallen). While they apply
it they append each happening as a typed :class:`Event` to the state's *sink*, a list
that only a caller who asked for events attaches (:meth:`State.apply_events
<necropolis.engine.protocol.State.apply_events>`). Searches, rollouts and playouts never
attach one: the rules then pay one ``is not None`` test per happening and build nothing.

An event holds the whole truth, hidden parts included. It leaves the engine only through
:meth:`Event.seen_by`, which says what one viewer may know of it (like boardgame.io's
redacted log): the same event with what the viewer may not know left out, or None when
the viewer learns nothing of it at all. Everything that tells what happened reads the
redacted events: each game's narration renders them as log entries
(:meth:`Game.tell <necropolis.engine.protocol.Game.tell>`), and the server sends them to
the page as JSON (:func:`event_data`), so that nothing works a rule out a second time.

A game defines its events as frozen slotted dataclasses subclassing :class:`Event`; the
JSON ``type`` of one is its class name in snake case (``PairScored`` → ``pair_scored``).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, ClassVar, TypeVar

E = TypeVar("E", bound="Event")


class Event:
    """Something that happened in a match: a game's frozen slotted dataclass derives from it.

    Public by default: every viewer may know all of it. An event with a hidden part
    overrides :meth:`seen_by`.
    """

    __slots__ = ()

    def seen_by(self, viewer: int | None) -> Event | None:
        """What ``viewer`` (a seat, or None for a spectator) may know of this event: the
        event itself, a copy with the hidden fields set to None, or None (nothing)."""
        return self

    def hiding(self: E, **hidden: Any) -> E:
        """A copy with the fields ``hidden`` names replaced (by None, as a rule): the form
        of this event for a viewer who may not know them."""
        return dataclasses.replace(self, **hidden)  # type: ignore[type-var]


class Private(Event):
    """An event that tells its ``seat`` more than the others: the fields its class names in
    ``hidden`` (a card drawn, a value looked at) are that seat's alone, and every other
    viewer gets the event with them set to None."""

    __slots__ = ()
    #: The fields only the event's seat may know.
    hidden: ClassVar[tuple[str, ...]] = ()
    #: The seat the event is about (a subclass's dataclass field).
    seat: int

    def seen_by(self, viewer: int | None) -> Event | None:
        if viewer == self.seat:
            return self
        return self.hiding(**dict.fromkeys(self.hidden))


_NAMES: dict[type, str] = {}


def event_type(event: Event) -> str:
    """The event's type as it travels: its class name in snake case."""
    cls = type(event)
    name = _NAMES.get(cls)
    if name is None:
        name = _NAMES[cls] = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    return name


def event_data(event: Event) -> dict[str, Any]:
    """The event as JSON-ready data: ``{"type": ..., field: value, ...}`` (tuples as
    lists). Only ever called on an event already redacted for its reader."""
    data: dict[str, Any] = {"type": event_type(event)}
    for name in _fields(type(event)):
        data[name] = _plain(getattr(event, name))
    return data


_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(cls: type) -> tuple[str, ...]:
    """The names of an event class's fields, looked up once (the server writes every
    viewer's events at every version)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def seen_by(events: list[Event], viewer: int | None) -> list[Event]:
    """``events`` as ``viewer`` may know them, those it learns nothing of left out."""
    out = []
    for event in events:
        seen = event.seen_by(viewer)
        if seen is not None:
            out.append(seen)
    return out


def events_data(events: list[Event], viewer: int | None) -> list[dict[str, Any]]:
    """``events`` as ``viewer`` may know them, as JSON-ready data (what a page is sent)."""
    return [event_data(event) for event in seen_by(events, viewer)]
