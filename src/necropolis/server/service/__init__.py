"""The tables of one server process: loading them, the one door, chance and bots.

:meth:`Tables.act` is the only way a table changes. It checks the seat, the version and
the action's legality, commits the action to the database (appending at the expected
index; a second writer there fails), applies it to the state in memory, and only then
tells the table's connections and the other processes. Chance outcomes and bots' moves
go through the same door. A person's decisions that reveal nothing wait in the seat's
turn in hand (see :mod:`necropolis.server.live`) and go through the door together, as one
turn committed in one transaction, with the decision that reveals something (or when the
seat confirms); :meth:`Tables.undo` takes them back before that. After every change, a
table whose turn belongs to chance or a bot is driven on by one task per table.

When the database fails (down, frozen, its disk full), every wait for it is bounded: an
act is refused with ``unavailable`` and its table marked *in doubt* (the commit may have
landed after all); the table's driver then retries with a capped back-off, catching up
with the record first, so that play resumes by itself soon after the database returns.

The parts, one module each: :mod:`.storage` (bounded waits, the one writer), :mod:`.base`
(the shared state, the storage's trouble), :mod:`.loading` (tables in and out of memory),
:mod:`.door` (act, undo, commit), :mod:`.driving` (chance and bots); :class:`Tables`
puts them together, and is what the routes use.
"""

from __future__ import annotations

import secrets
from typing import Any

from necropolis.server.db import FINISHED, PLAYING, TableRow, now
from necropolis.server.service.base import RETRY_CAP, RETRY_FIRST, Refusal
from necropolis.server.service.driving import Driving
from necropolis.server.service.loading import IDLE_SECONDS, POLL_SECONDS
from necropolis.server.service.storage import UNAVAILABLE, Writer, stored, trouble_text


class Tables(Driving):
    """Every table this process has loaded, and the door through which they change."""


def new_row(
    game: str,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    creator_hash: str,
    spectator_hash: str,
    table_id: str,
) -> TableRow:
    at = now()
    return TableRow(
        id=table_id,
        game=game,
        options=options,
        seats=seats,
        seed=secrets.token_hex(16),
        status=PLAYING,
        version=0,
        creator_hash=creator_hash,
        spectator_hash=spectator_hash,
        created=at,
        updated=at,
    )


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


__all__ = [
    "FINISHED",
    "IDLE_SECONDS",
    "POLL_SECONDS",
    "RETRY_CAP",
    "RETRY_FIRST",
    "UNAVAILABLE",
    "Refusal",
    "Tables",
    "Writer",
    "new_row",
    "new_table_id",
    "stored",
    "trouble_text",
]
