"""Tables in and out of memory: loading a table on first use, creating one, keeping up
with the other processes' news, and forgetting the idle.

At start the tables in play are loaded and driven on (a slow or failing database retried
with a capped back-off, never stopping the server); a keeper then catches up with news
lost on the way (several processes) and forgets tables nobody has used for a while. What
a table does once loaded goes through the door (:mod:`.door`); this only holds them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from necropolis.server.analyses import attach_hints
from necropolis.server.broker import Broker
from necropolis.server.db import Store, TableRow, storage_failed
from necropolis.server.live import Again, LiveTable
from necropolis.server.models import ClockSettings
from necropolis.server.service.door import Door
from necropolis.server.service.health import RETRY_CAP, RETRY_FIRST
from necropolis.server.service.storage import stored

if TYPE_CHECKING:
    from necropolis.server.clocks import Clocks

log = logging.getLogger("necropolis.server")

#: Seconds between looks at the database for news lost on the way (several processes).
POLL_SECONDS = 2.0
#: Seconds a table nobody watches stays in memory.
IDLE_SECONDS = 600.0


class Memory:
    """The tables this process holds in memory: in, out, and up to date."""

    def __init__(self, store: Store, broker: Broker, door: Door, clocks: Clocks) -> None:
        self.store = store
        self.broker = broker
        self.door = door
        self.clocks = clocks
        self._live: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._keeper: asyncio.Task[None] | None = None
        self._resumer: asyncio.Task[None] | None = None

    # --- life ------------------------------------------------------------------------

    async def start(self) -> None:
        """Load the tables in play (in a task of its own) and keep the memory."""
        playing = await asyncio.to_thread(self.store.playing)
        self._keeper = asyncio.create_task(self._keep(), name="keeper")
        self._resumer = asyncio.create_task(self._resume(playing), name="resume")

    def close(self) -> None:
        """Stop the keeper and every table's driver (the server is stopping)."""
        if self._keeper is not None:
            self._keeper.cancel()
        if self._resumer is not None:
            self._resumer.cancel()
        for live in self._live.values():
            if live.driver is not None:
                live.driver.cancel()

    async def _resume(self, table_ids: list[str]) -> None:
        """Load the tables in play and drive on those whose turn is chance's or a bot's;
        a table the database does not give now is tried again, with a capped back-off,
        until it loads (a slow or failing database must not stop the server starting)."""
        wait = RETRY_FIRST
        while table_ids:
            missed: list[str] = []
            for table_id in table_ids:
                try:
                    live = await self.get(table_id)
                except Exception as exc:
                    if not storage_failed(exc):
                        log.exception("table %s could not be loaded", table_id)
                        continue
                    missed.append(table_id)
                    continue
                if live is not None:
                    self.door.drive(live)
            table_ids = missed
            if missed:
                await asyncio.sleep(wait)
                wait = min(wait * 2, RETRY_CAP)

    async def _keep(self) -> None:
        """Now and then: catch up with tables whose news was lost (only when other
        processes share them), and forget tables nobody has used for a while."""
        while True:
            await asyncio.sleep(POLL_SECONDS if self.broker.shared else IDLE_SECONDS / 10)
            try:
                if self.broker.shared:
                    watched = [t for t in self._live.values() if t.connections]
                    versions = await stored(self.store.versions, [t.id for t in watched])
                    for live in watched:
                        if versions.get(live.id, 0) > live.version:
                            await self.door.catch_up(live)
                self._forget_idle()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the table keeper failed; it tries again")

    def _forget_idle(self) -> None:
        limit = time.monotonic() - IDLE_SECONDS
        for table_id, live in list(self._live.items()):
            busy = live.connections or (live.driver is not None and not live.driver.done())
            if not busy and live.touched < limit and not live.lock.locked():
                del self._live[table_id]

    # --- loading ---------------------------------------------------------------------

    def in_memory(self) -> dict[str, LiveTable]:
        """Every table in memory, by id (not to be changed)."""
        return self._live

    async def get(self, table_id: str) -> LiveTable | None:
        """The table, loaded from the database on first use (None: no such table)."""
        live = self._live.get(table_id)
        if live is not None:
            live.touched = time.monotonic()
            return live
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            found = await stored(self._read_table, table_id)
            # Replaying the record is the CPU's work, not a wait on the database: it is
            # not bounded by the storage's wait (a long match on a busy machine takes time).
            live = None if found is None else await asyncio.to_thread(LiveTable, *found)
            if live is not None:
                attach_hints(live, await stored(self.door.analyses.hints_of, table_id))
                if live.over:
                    again = await stored(self.door.lobby.again_of, table_id)
                    if again is not None:
                        live.again = Again(again[0], tuple(again[1]))
                # The clock last, and the table in memory with no wait between: the clocks'
                # watcher stops watching a timed table it does not find in memory (it takes
                # it for forgotten), and it runs at any wait.
                await self.clocks.attach(live)
                self._live[table_id] = live
            future.set_result(live)
            return live
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters get it through await
            raise
        finally:
            del self._loading[table_id]

    def loaded(self, table_id: str) -> LiveTable | None:
        """The table if this process has it in memory (never read from the database)."""
        return self._live.get(table_id)

    def _read_table(self, table_id: str) -> tuple[TableRow, list[tuple[int | None, int]]] | None:
        """A table's row and record from the database (None: no such table)."""
        row = self.store.get(table_id)
        if row is None:
            return None
        return row, self.store.actions(table_id)

    async def on_news(self, table_id: str, version: int) -> None:
        """Another process says ``table_id`` is at ``version``: catch up (and tell)."""
        live = self._live.get(table_id)
        if live is not None:
            await self.door.catch_up(live)

    # --- creating ---------------------------------------------------------------------

    async def create(
        self, row: TableRow, clock: ClockSettings | None = None, hints: bool = False
    ) -> LiveTable:
        """Store a new table (its clock, whether it gives hints), hold it, and drive it (a
        bot may begin)."""
        try:
            await stored(self.store.create, row)
        except Exception as exc:
            if storage_failed(exc):
                self.door.failed(None, exc)
            raise
        return await self.adopt(row, clock, hints)

    async def adopt(
        self, row: TableRow, clock: ClockSettings | None = None, hints: bool = False
    ) -> LiveTable:
        """Hold a new table whose row is stored already (a rematch's, written with the
        rematch itself): store its clock and whether it gives hints, and drive it."""
        live = LiveTable(row, [])
        try:
            if hints:
                await stored(self.door.analyses.allow_hints, row.id)
                live.hints = True
            # The clock last, and the table in memory with no wait between (see get).
            await self.clocks.created(live, clock)
        except Exception as exc:
            if storage_failed(exc):
                self.door.failed(None, exc)
            raise
        self._live[row.id] = live
        self.door.drive(live)
        return live
