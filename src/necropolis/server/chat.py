"""The chat of a table: its storage and the cleaning of what people write.

A table's chat is kept with the table (rows keyed by the table and a running number), so
that it is there after a restart and in the replay. What a person writes is cleaned
(control and bidirectional control characters dropped, line breaks and tabs made spaces,
the ends trimmed) and is at most :data:`MAX_CHAT` characters; it is stored and sent as
text, never as markup. Chat is its own channel: nothing here reads a game's state, so it
can carry nothing of a seat's hidden information. The creator may keep spectators apart:
then the seats' chat and the spectators' chat are two rooms that do not see each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Integer,
    String,
    Table,
    func,
    insert,
    select,
)
from sqlalchemy.exc import IntegrityError

from necropolis.server.db import metadata, moment, now, table_key
from necropolis.server.live import LiveTable
from necropolis.server.models import Sent

#: The longest message, in characters, after cleaning.
MAX_CHAT = 500

table_chat = Table(
    "table_chat",
    metadata,
    table_key(),
    Column("index", Integer, primary_key=True, autoincrement=False),
    # None for a spectator.
    Column("seat", Integer, nullable=True),
    # The account's name when the seat is claimed, else the seat's name (None: a default).
    Column("name", String(40), nullable=True),
    Column("text", String(2000), nullable=False),
    moment("at"),
)

chat_settings = Table(
    "chat_settings",
    metadata,
    table_key(),
    Column("spectators_apart", Boolean, nullable=False),
)


@dataclass(frozen=True)
class Said:
    index: int
    seat: int | None
    name: str | None
    text: str
    at: datetime


class Chats:
    """Every read and write of tables' chat, on one engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, table_id: str, seat: int | None, name: str | None, text: str) -> Said:
        """Append a message (the next number; a race for it is tried again)."""
        for _ in range(20):
            with self.engine.connect() as c:
                index = int(
                    c.execute(
                        select(func.coalesce(func.max(table_chat.c.index) + 1, 0)).where(
                            table_chat.c.table_id == table_id
                        )
                    ).scalar_one()
                )
            at = now()
            try:
                with self.engine.begin() as c:
                    c.execute(
                        insert(table_chat).values(
                            table_id=table_id, index=index, seat=seat, name=name, text=text, at=at
                        )
                    )
            except IntegrityError:
                continue
            return Said(index, seat, name, text, at)
        raise RuntimeError(f"table {table_id}: no free chat number")

    def said(self, table_id: str) -> list[Said]:
        with self.engine.connect() as c:
            rows = c.execute(
                select(table_chat)
                .where(table_chat.c.table_id == table_id)
                .order_by(table_chat.c.index)
            ).all()
        return [Said(int(r._mapping["index"]), r.seat, r.name, r.text, r.at) for r in rows]

    def spectators_apart(self, table_id: str) -> bool:
        with self.engine.connect() as c:
            found = c.execute(
                select(chat_settings.c.spectators_apart).where(chat_settings.c.table_id == table_id)
            ).first()
        return bool(found[0]) if found is not None else False

    def set_spectators_apart(self, table_id: str, apart: bool) -> None:
        with self.engine.begin() as c:
            done = c.execute(
                chat_settings.update()
                .where(chat_settings.c.table_id == table_id)
                .values(spectators_apart=apart)
            )
            if done.rowcount == 0:
                c.execute(insert(chat_settings).values(table_id=table_id, spectators_apart=apart))


class ChatLine(Sent):
    """One message, as the page shows it (as text)."""

    type: Literal["chat"] = "chat"
    index: int
    #: None for a spectator.
    seat: int | None
    #: The writer's account name, or the seat's name; None: the page writes a default.
    name: str | None
    text: str
    at: datetime


def visible(said: Said | ChatLine, viewer: int | None, apart: bool) -> bool:
    """Whether a viewer (a seat, or None for a spectator) sees a message."""
    return not apart or (said.seat is None) == (viewer is None)


def deliver(live: LiveTable, line: ChatLine, apart: bool) -> None:
    """Hand ``line`` to the table's connections in this process whose room sees it."""
    for connection in list(live.connections):
        if visible(line, connection.seat, apart):
            connection.put(line)
