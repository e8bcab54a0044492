"""The clocks' watcher, one per server process: it attaches a clock to each timed table
the process loads, wakes at the next deadline, enforces it (a bot stands in, the turn is
skipped, or the match is abandoned), stores the tables' next deadlines, and now and then
loads the tables whose stored deadline passed while nobody had them; and a person takes
their seat back from its stand-in here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from necropolis.server.clocks.clock import (
    ABANDON,
    BACK,
    SKIP,
    STANDIN,
    Clock,
    Event,
    bots_of,
    check,
    epoch,
    replay,
)
from necropolis.server.clocks.store import ClockStore
from necropolis.server.db import storage_failed
from necropolis.server.live import LiveTable
from necropolis.server.models import ClockSettings
from necropolis.server.seats import Seat

if TYPE_CHECKING:
    from necropolis.server.service import Refusal, Tables

log = logging.getLogger("necropolis.server")
# A seat's time running out is told at the level the server logs by default (warning), as
# an operator would want to see it, with which process enforced it.

#: Seconds between looks at the database for tables whose time ran out unloaded.
SCAN_SECONDS = 5.0
#: Seconds the watcher waits after a failure before it tries again.
RETRY_SECONDS = 1.0


# --- the watcher: one per server process -------------------------------------------------


class Clocks:
    """The clocks of one process's tables: it attaches a :class:`Clock` to each timed
    table it loads, keeps their deadlines stored, and enforces them."""

    def __init__(self, tables: Tables) -> None:
        # Made by the service (server/service/): its memory, door and thinker.
        self.tables = tables
        self.store = ClockStore(self.tables.store.engine)
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        #: The timed tables loaded here, by id.
        self._timed: dict[str, LiveTable] = {}
        #: Tables whose stored deadline is behind.
        self._dirty: dict[str, LiveTable] = {}
        self._next_scan = 0.0

    async def start(self) -> None:
        self._task = asyncio.create_task(self._watch(), name="clocks")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    # -- attaching --------------------------------------------------------------------

    @staticmethod
    def check(game: str, settings: ClockSettings | None) -> None:
        """Raise :class:`ClockError` for settings the game cannot be timed with."""
        if settings is not None and settings.mode != "untimed":
            check(game, settings)

    async def created(self, live: LiveTable, settings: ClockSettings | None) -> None:
        """A new table (not yet driven): store its clock's settings and start its clock.
        As with :meth:`attach`, the table is in memory before the caller next waits."""
        if settings is None or settings.mode == "untimed":
            return
        from necropolis.server.service import stored

        await stored(self.store.create, live.id, settings)
        clock = Clock(live.id, settings, live.game.num_players, epoch(live.row.created))
        clock.start(live.state, bots_of(live.row), live.waiting)
        self._adopt(live, clock)

    async def attach(self, live: LiveTable) -> None:
        """A table just loaded from the database: its clock, if it has one. The table must
        be in memory before the caller next waits: the watcher forgets a timed table that
        is not (see :meth:`_round`)."""
        from necropolis.server.service import stored

        found = await stored(self.store.read, live.id)
        if found is None:
            return
        clock = await asyncio.to_thread(
            replay, live.row, found.settings, list(live.actions), found.times, found.events
        )
        self._adopt(live, clock)

    def _adopt(self, live: LiveTable, clock: Clock) -> None:
        clock.on_change = lambda _c: self._changed(live)
        clock.stale = clock.version != live.version
        live.clock = clock
        self._timed[live.id] = live
        self._changed(live)

    def _changed(self, live: LiveTable) -> None:
        self._dirty[live.id] = live
        self._wake.set()

    # -- the watcher ----------------------------------------------------------------------

    async def _watch(self) -> None:
        while True:
            try:
                await self._round()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not storage_failed(exc):
                    log.exception("the clocks' watcher failed; it tries again")
                await asyncio.sleep(RETRY_SECONDS)

    async def _round(self) -> None:
        """Enforce every deadline that passed, store the deadlines that changed, now and
        then look in the database for tables due elsewhere; then wait for the next
        deadline, or for news."""
        self._wake.clear()
        at = time.time()
        wait = max(0.0, self._next_scan - at)
        loaded = self.tables.memory.in_memory()
        for table_id, live in list(self._timed.items()):
            clock = live.clock
            if loaded.get(table_id) is not live or not isinstance(clock, Clock) or live.over:
                # Forgotten (idle) or over: it is watched no more here.
                if loaded.get(table_id) is not live or live.over:
                    del self._timed[table_id]
                continue
            clock.follow(live)
            if clock.stale:
                await self._reread(live)
                clock = live.clock
                if not isinstance(clock, Clock):
                    continue
            seat = clock.out_of_time(at)
            if seat is not None and not live.is_bot(seat):
                if await self._enforce(live, clock, seat):
                    wait = 0.0
                # Else nothing can be enforced before the table moves on (its chance
                # outcome is still to be drawn, say): that move's news wakes the watcher.
                # Looking again at once would spin, and starve the driver that draws it.
                continue
            found = clock.next_deadline()
            if found is not None:
                wait = min(wait, max(0.0, found - at))
        await self._flush()
        if time.time() >= self._next_scan:
            self._next_scan = time.time() + SCAN_SECONDS
            if await self._scan():
                wait = 0.0
        if wait > 0 and not self._wake.is_set():
            with contextlib.suppress(TimeoutError):
                # A little after the deadline, so that it has passed when looked at.
                await asyncio.wait_for(self._wake.wait(), wait + 0.01)

    async def _flush(self) -> None:
        if not self._dirty:
            return
        dirty, self._dirty = self._dirty, {}
        found = []
        for live in dirty.values():
            clock = live.clock
            if isinstance(clock, Clock):
                deadline = None if live.over else clock.next_deadline()
                found.append((live.id, deadline, live.version))
        if found:
            from necropolis.server.service import stored

            try:
                await stored(self.store.set_deadlines, found)
            except Exception:
                for live in dirty.values():
                    self._dirty.setdefault(live.id, live)
                raise

    async def _scan(self) -> bool:
        """Load the tables whose time ran out (or whose stored deadline is behind) that
        this process does not have: their clocks are watched here from then on. True if
        it loaded one."""
        from necropolis.server.service import stored

        loaded = self.tables.memory.in_memory()
        found = False
        for table_id in await stored(self.store.due, time.time()):
            if table_id in loaded:
                continue
            live = await self.tables.memory.get(table_id)
            if live is not None:
                found = True
                self.tables.door.drive(live)
        return found

    async def _reread(self, live: LiveTable) -> None:
        """Work the clock out afresh from the database (another process changed it)."""
        async with live.lock:
            await self.attach(live)
        live.tell()

    # -- enforcing --------------------------------------------------------------------

    async def _enforce(self, live: LiveTable, clock: Clock, seat: int) -> bool:
        """Apply the clock's rule to ``seat``, out of time, through the table's door.
        False if nothing could be done yet (the seat has no decision to skip until the
        table moves on, or the table moved on meanwhile)."""
        rule = clock.settings.rule
        version = live.version
        if rule == "skip" and not live.state.legal_actions(seat):
            # Chance keeps the seat's turn running (clock.py) but gives it nothing to skip.
            return False
        log.warning(
            "clocks: table %s, seat %d out of time at version %d (rule %s)",
            live.id,
            seat,
            version,
            rule,
        )
        if rule == "skip":
            return await self._skip(live, clock, seat, version)
        from necropolis.server.service import stored

        door = self.tables.door
        kind = STANDIN if rule == "bot" else ABANDON
        # What the one transaction wrote: its event, or None when another process had
        # written one first (or the table moved on in the database).
        wrote: list[Event | None] = []

        async def write(seats: list[Seat] | None = None, _began: object = None) -> Event | None:
            event = await stored(
                self.store.time_out, live.id, version, seat, kind, seats, rule == "abandon"
            )
            wrote.append(event)
            return event

        def done(event: Event) -> None:
            clock.event(event.kind, seat, live.state, event.at)

        if rule == "bot":
            await door.stand_in(live, seat, version, clock.settings.level, write, done)
        else:
            await door.abandon(live, seat, version, write, done)
        if not wrote:
            # The table moved on meanwhile: its news wakes the watcher.
            return False
        if wrote[0] is None:
            log.warning(
                "clocks: table %s, seat %d: handled already (by another process), or moved on",
                live.id,
                seat,
            )
            await door.catch_up(live)
            await self._reread(live)
            return True
        log.warning("clocks: table %s, seat %d: enforced (%s)", live.id, seat, kind)
        return True

    async def _skip(self, live: LiveTable, clock: Clock, seat: int, version: int) -> bool:
        """Let the seat's turn go by where the rules allow it; where they make it decide,
        a bot of the table's level decides that once. False if the table moved on first."""
        state = live.state
        legal = state.legal_actions(seat)
        if not legal:
            return False
        action = state.skip_action(seat)
        if action is None or action not in legal:
            (action,) = await self.tables.thinker.think(
                live, [a for _, a in live.actions], seat, clock.settings.level, legal, most=1
            )

        async def noted() -> None:
            from necropolis.server.service import stored

            log.warning("clocks: table %s, seat %d: enforced (skip)", live.id, seat)
            try:
                event = await stored(self.store.note, live.id, version, seat, SKIP)
            except Exception as exc:
                if not storage_failed(exc):
                    raise
                event = None
            current = live.clock
            if event is not None and isinstance(current, Clock):
                current.event(SKIP, seat, live.state, event.at)

        skipped = await self.tables.door.skip(live, seat, action, version, noted)
        if not skipped and live.version != version:
            log.warning(
                "clocks: table %s, seat %d: skipped already (by another process), or moved on",
                live.id,
                seat,
            )
        return skipped

    # -- taking a seat back -------------------------------------------------------------

    async def take_back(self, live: LiveTable, seat: int) -> Refusal | None:
        """The seat's person takes it back from the bot that stood in for it."""
        from necropolis.server.service import stored

        async def write(seats: list[Seat], _began: object) -> Event | None:
            return await stored(self.store.take_back, live.id, seat, seats)

        def done(event: Event) -> None:
            clock = live.clock
            if isinstance(clock, Clock):
                clock.event(BACK, seat, live.state, event.at)

        return await self.tables.door.take_back(live, seat, write, done)
