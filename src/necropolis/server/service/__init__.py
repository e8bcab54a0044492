"""The tables of one server process: held in memory, changed through one door, driven on
by chance and bots.

:class:`Tables` puts the parts together, each an object of its own, and is what the
routes, the clocks and the notices use:

- :attr:`Tables.door` (:mod:`.door`) is the only way a table changes. It checks the seat,
  the version and the action's legality, commits the action to the database (appending
  at the expected index; a second writer there fails), applies it to the state in
  memory, and only then does what follows every change: tell the table's connections,
  publish the news to the other processes, drive the table on. Chance outcomes, bots'
  turns, a clock's consequence, a seat's new link, its hand-over to a bot, its claim by
  an account and its guest's name go through it too. A person's decisions that reveal
  nothing wait in the seat's turn in hand (:mod:`necropolis.server.live`) and go through
  the door together, as one turn, with the decision that reveals something (or when the
  seat confirms).
- The door's :class:`~.driving.Driver` plays a table's chance and bot turns, one task per
  table, asking the bots through :attr:`Tables.thinker` (:mod:`.thinking`).
- :attr:`Tables.memory` (:mod:`.loading`) loads a table on first use, creates new ones,
  hears the other processes' news and forgets the idle.
- :attr:`Tables.health` (:mod:`.health`) knows what is wrong with the database. While it
  fails, every wait for it is bounded (:mod:`.storage`, which also holds the one writer):
  an act is refused with ``unavailable`` and its table put *in doubt* (the commit may
  have landed); the table's driver then retries with a capped back-off, catching up with
  the record first, so that play resumes by itself soon after the database returns.
- :attr:`Tables.clocks` (:mod:`necropolis.server.clocks`) enforces the timed tables'
  deadlines, through the door; :attr:`Tables.analyses` and :attr:`Tables.analysis_runner`
  (:mod:`necropolis.server.analyses`) explain finished tables behind play.
"""

from __future__ import annotations

import secrets
from typing import Any

from necropolis.server.analyses import AnalysisRunner
from necropolis.server.broker import Broker
from necropolis.server.clocks import Clocks
from necropolis.server.db import FINISHED, PLAYING, Store, TableRow, now
from necropolis.server.live import LiveTable
from necropolis.server.seats import Seat
from necropolis.server.service.door import Door, SeatsWrite
from necropolis.server.service.health import RETRY_CAP, RETRY_FIRST, Health, Refusal
from necropolis.server.service.loading import IDLE_SECONDS, POLL_SECONDS, Memory
from necropolis.server.service.storage import UNAVAILABLE, Writer, stored, trouble_text
from necropolis.server.service.thinking import Thinker


class Tables:
    """Every table this process has loaded, and the door through which they change."""

    def __init__(self, store: Store, broker: Broker, bot_workers: int) -> None:
        self.store = store
        self.broker = broker
        self.health = Health(store)
        self.thinker = Thinker(bot_workers)
        self.door = Door(store, Writer(store), broker, self.health, self.thinker)
        self.clocks = Clocks(self)
        self.memory = Memory(store, broker, self.door, self.clocks)
        #: Finished tables' analyses, made behind play (server/analyses.py).
        self.analyses = self.door.analyses
        self.analysis_runner = AnalysisRunner(self.analyses)

    async def start(self) -> None:
        self.thinker.start()
        await self.broker.start(self.memory.on_news)
        await self.clocks.start()
        await self.memory.start()

    async def close(self) -> None:
        self.door.driver.closing = True
        self.memory.close()
        await self.clocks.close()
        await self.analysis_runner.close()
        await self.broker.close()
        self.door.writer.close()
        await self.thinker.close()

    @property
    def trouble(self) -> str | None:
        """What is wrong with the storage, as last seen (None: nothing known)."""
        return self.health.trouble

    async def get(self, table_id: str) -> LiveTable | None:
        """The table, loaded on first use (None: no such table)."""
        return await self.memory.get(table_id)

    def failed(self, live: LiveTable | None, exc: BaseException) -> None:
        """The storage failed while working on ``live`` (see :meth:`Door.failed`)."""
        self.door.failed(live, exc)


def new_row(
    game: str,
    options: dict[str, Any],
    seats: list[Seat],
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
    "Door",
    "Refusal",
    "SeatsWrite",
    "Tables",
    "Writer",
    "new_row",
    "new_table_id",
    "stored",
    "trouble_text",
]
