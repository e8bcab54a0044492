"""The tables of one server process: loading them, the one door, chance and bots.

:meth:`Tables.act` is the only way a table changes. It checks the seat, the version and
the action's legality, commits the action to the database (appending at the expected
index; a second writer there fails), applies it to the state in memory, and only then
tells the table's connections and the other processes. Chance outcomes and bots' moves
go through the same door. After every change, a table whose turn belongs to chance or a
bot is driven on by one task per table.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from necropolis.engine.protocol import CHANCE, sample_chance
from necropolis.server import bots
from necropolis.server.broker import Broker
from necropolis.server.db import (
    FINISHED,
    PLAYING,
    Append,
    Store,
    TableRow,
    VersionConflictError,
    now,
)
from necropolis.server.live import LiveTable

log = logging.getLogger("necropolis.server")

#: Seconds between looks at the database for news lost on the way (several processes).
POLL_SECONDS = 2.0
#: Seconds a table nobody watches stays in memory.
IDLE_SECONDS = 600.0


@dataclass(frozen=True)
class Refusal:
    """Why the door turned an action away (a protocol ``refused`` code and a sentence)."""

    code: str
    message: str


class Writer:
    """The one writer of actions in this process: commits go to the database one batch at
    a time, and actions that arrive while a batch is committing go together in the next.

    Each commit waits for its sync to disk, which costs about the same for one action as
    for a hundred; one writer also keeps this process's commits from queueing for SQLite's
    write lock in several threads. Every action is still committed before it is told.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._waiting: list[tuple[Append, asyncio.Future[bool]]] = []
        self._task: asyncio.Task[None] | None = None

    async def append(self, append: Append) -> None:
        """Commit ``append``; raises :class:`VersionConflictError` if its index is taken."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((append, done))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._write(), name="writer")
        if not await done:
            raise VersionConflictError(append.table_id)

    async def _write(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                results = await asyncio.to_thread(self.store.append_many, [a for a, _ in batch])
            except Exception as exc:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            for (_, done), result in zip(batch, results, strict=True):
                if not done.done():
                    done.set_result(result)


class Tables:
    """Every table this process has loaded, and the door through which they change."""

    def __init__(self, store: Store, broker: Broker, bot_workers: int) -> None:
        self.store = store
        self.writer = Writer(store)
        self.broker = broker
        self.bot_workers = bot_workers
        self._pool: ProcessPoolExecutor | None = None
        self._live: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._closing = False
        self._keeper: asyncio.Task[None] | None = None

    # --- life ------------------------------------------------------------------------

    async def start(self) -> None:
        self._pool = bots.make_pool(self.bot_workers)
        await self.broker.start(self.on_news)
        for table_id in await asyncio.to_thread(self.store.playing):
            live = await self.get(table_id)
            if live is not None:
                self.drive(live)
        self._keeper = asyncio.create_task(self._keep(), name="keeper")

    async def _keep(self) -> None:
        """Now and then: catch up with tables whose news was lost (only when other
        processes share them), and forget tables nobody has used for a while."""
        while True:
            await asyncio.sleep(POLL_SECONDS if self.broker.shared else IDLE_SECONDS / 10)
            try:
                if self.broker.shared:
                    watched = [t for t in self._live.values() if t.connections]
                    stored = await asyncio.to_thread(self.store.versions, [t.id for t in watched])
                    for live in watched:
                        if stored.get(live.id, 0) > live.version and await self.catch_up(live):
                            live.tell()
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

    async def close(self) -> None:
        self._closing = True
        if self._keeper is not None:
            self._keeper.cancel()
        for live in self._live.values():
            if live.driver is not None:
                live.driver.cancel()
        await self.broker.close()
        if self._pool is not None:
            # Waiting lets the workers end in order (a decision takes at most a second).
            await asyncio.to_thread(self._pool.shutdown, True, cancel_futures=True)

    # --- loading ---------------------------------------------------------------------

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
            live = await asyncio.to_thread(self._load, table_id)
            if live is not None:
                self._live[table_id] = live
            future.set_result(live)
            return live
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters get it through await
            raise
        finally:
            del self._loading[table_id]

    def _load(self, table_id: str) -> LiveTable | None:
        row = self.store.get(table_id)
        if row is None:
            return None
        return LiveTable(row, self.store.actions(table_id))

    async def catch_up(self, live: LiveTable) -> bool:
        """Read what other processes committed; True if the table changed."""
        async with live.lock:
            row, missed = await asyncio.to_thread(self._read_since, live.id, live.version)
            changed = row is not None and row.seats != live.row.seats
            if row is not None:
                live.row.seats = row.seats
            for seat, action in missed:
                live.apply(seat, action)
        return changed or bool(missed)

    def _read_since(
        self, table_id: str, version: int
    ) -> tuple[TableRow | None, list[tuple[int | None, int]]]:
        return self.store.get(table_id), self.store.actions(table_id, version)

    async def on_news(self, table_id: str, version: int) -> None:
        """Another process says ``table_id`` is at ``version``: catch up and tell."""
        live = self._live.get(table_id)
        if live is None:
            return
        if await self.catch_up(live):
            live.tell()

    # --- the door --------------------------------------------------------------------

    async def act(
        self, live: LiveTable, seat: int, action: int, version: int, *, bot: bool = False
    ) -> Refusal | None:
        """Play ``action`` for ``seat`` if ``version`` is current and the action is legal.

        ``bot`` is True when a bot of this process plays the seat; otherwise the caller
        proved with a token that it holds the seat. None means committed and told.
        """
        async with live.lock:
            state = live.state
            if state.is_terminal():
                return Refusal("finished", "This match is over.")
            if live.is_bot(seat) != bot:
                return Refusal("seat_taken_by_bot", "A bot plays this seat now.")
            if version != live.version:
                return Refusal(
                    "stale_version",
                    f"The table is at version {live.version}, not {version}: see the new state.",
                )
            if seat not in state.acting_seats():
                return Refusal("not_your_turn", "It is not your turn.")
            if action not in state.legal_actions(seat):
                return Refusal("illegal_action", f"Action {action} is not one of your choices.")
            refused = await self._commit(live, seat, action)
        if refused is None:
            await self._told(live)
        return refused

    async def _commit(self, live: LiveTable, seat: int | None, action: int) -> Refusal | None:
        """Append at the table's version, then apply; the caller holds the lock."""
        index = live.version
        after = live.state.clone()
        after.apply_action(action)
        finished = after.is_terminal()
        try:
            await self.writer.append(Append(live.id, index, seat, action, finished))
        except VersionConflictError:
            # Another process got there first: take its actions, then refuse.
            missed = await asyncio.to_thread(self.store.actions, live.id, live.version)
            for s, a in missed:
                live.apply(s, a)
            live.tell()
            return Refusal(
                "stale_version", f"The table moved on to version {live.version}: see the new state."
            )
        live.apply(seat, action, after)
        live.row.version = live.version
        live.row.updated = now()
        return None

    async def _told(self, live: LiveTable) -> None:
        live.tell()
        await self.broker.publish(live.id, live.version)
        self.drive(live)

    # --- chance and bots -------------------------------------------------------------

    def drive(self, live: LiveTable) -> None:
        """Make sure a task plays the table's chance and bot turns, if it has any."""
        if self._closing or live.state.is_terminal():
            return
        if live.driver is not None and not live.driver.done():
            return
        live.driver = asyncio.create_task(self._drive(live), name=f"drive {live.id}")

    async def _drive(self, live: LiveTable) -> None:
        try:
            while True:
                async with live.lock:
                    state = live.state
                    if state.is_terminal():
                        return
                    if state.current_player() == CHANCE:
                        version = live.version
                        rng = random.Random(f"{live.row.seed}:{version}")
                        action = sample_chance(state, rng)
                        refused = await self._commit(live, None, action)
                        if refused is None:
                            live.tell()
                            await self.broker.publish(live.id, live.version)
                        continue
                    seats = [s for s in state.acting_seats() if live.is_bot(s)]
                    if not seats:
                        return
                    seat = seats[0]
                    version = live.version
                    actions = [a for _, a in live.actions]
                    level = str(live.row.seats[seat].get("level") or "easy")
                    legal = state.legal_actions(seat)
                action = await self._think(live, actions, seat, level, legal)
                refused = await self.act(live, seat, action, version, bot=True)
                if refused is not None and refused.code != "stale_version":
                    # A bot that answers with a move it may not play must not stall the
                    # table: play one of its legal moves instead.
                    log.error("table %s: the bot's move was refused (%s)", live.id, refused.code)
                    fallback = legal[random.randrange(len(legal))]
                    await self.act(live, seat, fallback, version, bot=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: driving chance and bots failed", live.id)

    async def _think(
        self, live: LiveTable, actions: list[int], seat: int, level: str, legal: list[int]
    ) -> int:
        loop = asyncio.get_running_loop()
        for _attempt in range(2):
            pool = self._pool
            if pool is None:
                break
            try:
                return await loop.run_in_executor(
                    pool,
                    bots.decide,
                    live.game.id,
                    dict(live.game.options),
                    actions,
                    seat,
                    level,
                    live.id,
                )
            except BrokenProcessPool:
                log.warning("the bot pool broke; starting a new one")
                self._pool = bots.make_pool(self.bot_workers)
            except Exception:
                log.exception("table %s: the %s bot failed; it plays a random move", live.id, level)
                break
        return legal[random.randrange(len(legal))]

    # --- seats -----------------------------------------------------------------------

    async def hand_to_bot(self, live: LiveTable, seat: int, level: str) -> None:
        """The person seat ``seat`` is played by a bot of ``level`` from now on."""
        async with live.lock:
            seats = [dict(s) for s in live.row.seats]
            seats[seat].update(type="bot", level=level, token_hash=None)
            await asyncio.to_thread(self.store.set_seats, live.id, seats)
            live.row.seats = seats
        await self._told(live)

    # --- creating ---------------------------------------------------------------------

    async def create(self, row: TableRow) -> LiveTable:
        await asyncio.to_thread(self.store.create, row)
        live = LiveTable(row, [])
        self._live[row.id] = live
        self.drive(live)
        return live


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


__all__ = ["FINISHED", "Refusal", "Tables", "new_row", "new_table_id"]
