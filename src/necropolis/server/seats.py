"""A table's seat as a typed value: who sits there, how they are known, and whose name it
shows.

A :class:`Seat` is what the table's row stores for each seat (as JSON, :meth:`Seat.to_json`):
its number, its type (the creator's own ``me``, a friend's ``link``, a ``hotseat`` of the
creator's device, or a ``bot``), the name given to it (by the creator at set-up, or by the
guest who sits there), a bot's level, the hash of the token that opens it and the
generation of its link, whether a bot stands in for its person (a clock ran out), and the
name of the account that holds it. Seats never change in place: a change is a new seat
(:func:`dataclasses.replace`) in a new list, which the table's one door stores
(:mod:`necropolis.server.service.door`). A person seat may be *waiting*: nobody sits
there yet (open to anyone in the lobby, kept for a player invited by name, or for a
player of the match before who has not yet accepted to play again), and the match does
not begin until every seat is taken.

The name a seat shows is the account's when an account holds it, else the one given,
else none: a client then writes its own default in its reader's language ("Player 2";
for a bot, its level: "Hard bot"). One place for the rule, so that the state message, the
summaries, the chat and the record agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

from necropolis.bots.levels import Level

SeatType = Literal["me", "link", "hotseat", "bot"]
PERSON_TYPES: tuple[SeatType, ...] = ("me", "link", "hotseat")


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a table, as stored."""

    #: Its number, from 0.
    seat: int
    #: ``me`` (the creator's own), ``link`` (a friend's), ``hotseat`` (another person at
    #: the creator's device) or ``bot``.
    type: SeatType
    #: The name given to it (at set-up, or by the guest who sits there), if any.
    name: str | None = None
    #: A bot's level (a bot seat's, or a stand-in's); None for a person.
    level: Level | None = None
    #: The SHA-256 of the token that opens it (None for a bot's seat).
    token_hash: str | None = None
    #: How many new links it was given (its token's role is ``seat:N`` at 0, else ``seat:N:G``).
    link: int = 0
    #: A person's seat whose time ran out, played by a bot of ``level`` until they take
    #: it back (server/clocks/).
    standin: bool = False
    #: The name of the account that holds it (see server/accounts.py), if one does.
    account: str | None = None
    #: Nobody sits here yet: the match waits for its person (a seat open to anyone in
    #: the lobby, a player invited by name, a seat of a rematch not yet accepted).
    waiting: bool = False
    #: Anyone may take the seat from the lobby (the table is listed while one is open).
    open: bool = False
    #: Its token was made for the person who took it (from the lobby, or a rematch), not
    #: derived from the creator's token: the creator is never shown it.
    own_token: bool = False

    @property
    def person(self) -> bool:
        """Whether a person sits here (a bot may stand in for them for now)."""
        return self.type != "bot"

    @property
    def bot(self) -> bool:
        """Whether a bot plays the seat now: a bot's seat, or a person's that a bot stands
        in for."""
        return self.type == "bot" or self.standin

    @property
    def shown_name(self) -> str | None:
        """The name the seat shows: its account's, else the one given, else None."""
        return self.account or self.name or None

    def to_json(self) -> dict[str, Any]:
        """The seat as the table's row stores it (the keys a seat always had, the others
        only when they say something)."""
        data: dict[str, Any] = {
            "seat": self.seat,
            "type": self.type,
            "name": self.name,
            "level": None if self.level is None else str(self.level),
            "token_hash": self.token_hash,
        }
        if self.link:
            data["link"] = self.link
        if self.standin:
            data["standin"] = True
        if self.account is not None:
            data["account"] = self.account
        for flag in ("waiting", "open", "own_token"):
            if getattr(self, flag):
                data[flag] = True
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seat:
        level = data.get("level")
        return cls(
            seat=int(data["seat"]),
            type=cast(SeatType, data["type"]),
            name=data.get("name") or None,
            level=None if level is None else Level(level),
            token_hash=data.get("token_hash"),
            link=int(data.get("link") or 0),
            standin=bool(data.get("standin")),
            account=data.get("account") or None,
            waiting=bool(data.get("waiting")),
            open=bool(data.get("open")),
            own_token=bool(data.get("own_token")),
        )


def changed(seats: Sequence[Seat], seat: int, **changes: Any) -> list[Seat]:
    """A new list of ``seats`` in which seat number ``seat`` has ``changes``."""
    out = list(seats)
    out[seat] = replace(out[seat], **changes)
    return out


def seats_json(seats: Sequence[Seat]) -> list[dict[str, Any]]:
    """The seats as the table's row stores them."""
    return [s.to_json() for s in seats]


def seats_of(data: Sequence[Mapping[str, Any]]) -> list[Seat]:
    """The stored seats of a table's row."""
    return [Seat.from_json(s) for s in data]
