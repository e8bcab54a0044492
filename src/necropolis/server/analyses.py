"""A finished table explained, once, behind the tables in play; and the hints of a table.

**Analyses.** A finished match's analysis (:mod:`necropolis.analysis.explain`) is asked for
by the page when the match ends or its replay opens, and made once: its row in
``table_analyses`` says where it stands (``queued``, ``running``, ``done`` or ``failed``,
with the moments weighed so far) and holds it when done. One worker process of this
server, started on the first analysis and run at the lowest CPU priority (``nice`` 19),
makes them one at a time, so that a bot's decision or a person's move at a table in
play always comes first: the analysis only uses what the tables leave of the machine.
Its progress reaches the row at most every :data:`PROGRESS_EVERY` seconds, so that the
other processes of a server (``--workers N``) show it too; a row that has not moved in
:data:`STALE_SECONDS` belongs to a process that is gone, and is taken over. A deeper
analysis (more worlds) may be asked for; the one before stays shown until it is done.

**Hints.** A table allows hints when its creator says so (never a rated one):
``hinted_tables`` lists them. Each hint a seat asks for is kept in ``hint_uses`` (the
seat, and the version it was asked at) and shown to every viewer, since a hint is help
that the others should know of; the hint itself (the seat's best moves, from its window
alone) goes to the seat's connection only, from a bot worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import signal
import time
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Column, Engine, Integer, String, Table, Text, insert, select, update
from sqlalchemy.exc import IntegrityError

from necropolis.server.db import aware, metadata, moment, now, table_key

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from necropolis.server.live import LiveTable

log = logging.getLogger("necropolis.server")

#: The worlds an analysis draws a moment unless more are asked for: a whole match of the
#: most players within a minute of one core (docs/analysis.md, "Cost").
DEFAULT_WORLDS = 32
#: The most worlds a deeper analysis may ask for (about eight times the default's time).
MAX_WORLDS = 256
#: Seconds between two writes of an analysis's progress to its row.
PROGRESS_EVERY = 1.0
#: Seconds after which a queued or running analysis whose row has not moved is taken
#: for lost (its process gone) and made again.
STALE_SECONDS = 120.0

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

table_analyses = Table(
    "table_analyses",
    metadata,
    table_key(),
    Column("status", String(16), nullable=False),
    Column("worlds", Integer, nullable=False),
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    # The last analysis made (kept while a deeper one is made), and its worlds.
    Column("data", JSON, nullable=True),
    Column("error", Text, nullable=True),
    moment("updated"),
)

hinted_tables = Table("hinted_tables", metadata, table_key(), moment("marked"))

hint_uses = Table(
    "hint_uses",
    metadata,
    table_key(),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    moment("at"),
)


@dataclass
class AnalysisRow:
    """Where a table's analysis stands."""

    status: str
    worlds: int
    done: int
    total: int
    data: dict[str, Any] | None
    error: str | None
    updated: datetime

    def stale(self, at: datetime) -> bool:
        return self.status in (QUEUED, RUNNING) and at - self.updated > timedelta(
            seconds=STALE_SECONDS
        )


class AnalysisStore:
    """The analyses' and the hints' rows (called in threads: every method blocks)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- analyses ----------------------------------------------------------------------

    def get(self, table_id: str) -> AnalysisRow | None:
        with self.engine.connect() as c:
            r = c.execute(
                select(table_analyses).where(table_analyses.c.table_id == table_id)
            ).first()
        if r is None:
            return None
        return AnalysisRow(r.status, r.worlds, r.done, r.total, r.data, r.error, aware(r.updated))

    def claim(self, table_id: str, worlds: int, seen: AnalysisRow | None) -> bool:
        """Queue an analysis of ``worlds`` for the table, if its row is still ``seen``
        (None: it has none): False when another process got there first."""
        at = now()
        with self.engine.begin() as c:
            if seen is None:
                try:
                    c.execute(
                        insert(table_analyses).values(
                            table_id=table_id,
                            status=QUEUED,
                            worlds=worlds,
                            done=0,
                            total=0,
                            data=None,
                            error=None,
                            updated=at,
                        )
                    )
                except IntegrityError:
                    return False
                return True
            changed = c.execute(
                update(table_analyses)
                .where(
                    table_analyses.c.table_id == table_id,
                    table_analyses.c.status == seen.status,
                    table_analyses.c.worlds == seen.worlds,
                    table_analyses.c.done == seen.done,
                )
                .values(status=QUEUED, worlds=worlds, done=0, total=0, error=None, updated=at)
            )
            return changed.rowcount == 1

    def progress(self, table_id: str, done: int, total: int) -> None:
        with self.engine.begin() as c:
            c.execute(
                update(table_analyses)
                .where(table_analyses.c.table_id == table_id)
                .values(status=RUNNING, done=done, total=total, updated=now())
            )

    def finish(self, table_id: str, data: dict[str, Any]) -> None:
        with self.engine.begin() as c:
            c.execute(
                update(table_analyses)
                .where(table_analyses.c.table_id == table_id)
                .values(status=DONE, data=data, error=None, updated=now())
            )

    def fail(self, table_id: str, error: str) -> None:
        with self.engine.begin() as c:
            c.execute(
                update(table_analyses)
                .where(table_analyses.c.table_id == table_id)
                .values(status=FAILED, error=error[:500], updated=now())
            )

    # --- hints -------------------------------------------------------------------------

    def allow_hints(self, table_id: str) -> None:
        with contextlib.suppress(IntegrityError), self.engine.begin() as c:
            c.execute(insert(hinted_tables).values(table_id=table_id, marked=now()))

    def hints_of(self, table_id: str) -> tuple[bool, list[tuple[int, int]]]:
        """Whether the table allows hints, and each hint used: ``(seat, version)``."""
        with self.engine.connect() as c:
            allowed = (
                c.execute(
                    select(hinted_tables.c.table_id).where(hinted_tables.c.table_id == table_id)
                ).first()
                is not None
            )
            used = c.execute(
                select(hint_uses.c.seat, hint_uses.c.version)
                .where(hint_uses.c.table_id == table_id)
                .order_by(hint_uses.c.number)
            ).all()
        return allowed, [(int(s), int(v)) for s, v in used]

    def note_hint(self, table_id: str, number: int, seat: int, version: int) -> bool:
        """Keep the table's hint ``number`` (counted from 0); False when another process
        kept one under that number first."""
        try:
            with self.engine.begin() as c:
                c.execute(
                    insert(hint_uses).values(
                        table_id=table_id, number=number, seat=seat, version=version, at=now()
                    )
                )
        except IntegrityError:
            return False
        return True


def attach_hints(live: LiveTable, found: tuple[bool, list[tuple[int, int]]]) -> bool:
    """Give ``live`` the hints its rows say; True when that told it something new."""
    allowed, used = found
    new = allowed != live.hints or len(used) != len(live.hints_used)
    live.hints = allowed
    live.hints_used = used
    if new:
        live.sent = None  # the state messages kept for this version no longer hold
    return new


# --- the worker ---------------------------------------------------------------------------


def _serve(conn: Connection) -> None:
    """The analysis worker's life: each request analysed, its progress told, until the
    server closes the pipe. It runs at the lowest priority, behind every table in play."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(19)
    from necropolis.analysis.explain import Depth, analyse_record
    from necropolis.engine.record import MatchRecord
    from necropolis.games import load_game

    while True:
        try:
            table_id, game, options, players, actions, worlds = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        told = _Teller(conn, table_id)

        try:
            record = MatchRecord(game, options, players, actions)
            analysis = analyse_record(record, load_game, Depth(worlds=worlds), progress=told)
            answer: tuple[str, str, Any] = ("done", table_id, analysis.to_json())
        except Exception as exc:  # told to the server, which keeps it in the row
            answer = ("failed", table_id, f"{type(exc).__name__}: {exc}")
        try:
            conn.send_bytes(pickle.dumps(answer))
        except OSError:
            return


class _Teller:
    """Tells the server an analysis's progress, at most every :data:`PROGRESS_EVERY`."""

    def __init__(self, conn: Connection, table_id: str) -> None:
        self.conn = conn
        self.table_id = table_id
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        if time.monotonic() - self.last >= PROGRESS_EVERY or done == total:
            self.last = time.monotonic()
            self.conn.send_bytes(pickle.dumps(("progress", self.table_id, (done, total))))


@dataclass
class _Job:
    table_id: str
    game: str
    options: dict[str, Any]
    players: list[str]
    actions: list[int]
    worlds: int


class AnalysisRunner:
    """The analyses of this process: a queue, and one low-priority worker that makes
    them one at a time (started on the first)."""

    def __init__(self, store: AnalysisStore) -> None:
        self.store = store
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["necropolis.analysis.explain", "necropolis.games"])
        self._queue: deque[_Job] = deque()
        self._current: _Job | None = None
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._last_write = 0.0
        self._closed = False

    def queued(self, table_id: str) -> bool:
        """Whether this process is making (or will make) the table's analysis."""
        return (self._current is not None and self._current.table_id == table_id) or any(
            job.table_id == table_id for job in self._queue
        )

    async def start(self, live: LiveTable, players: list[str], worlds: int) -> None:
        """Queue the analysis of ``live`` (its row already claimed as queued)."""
        self._queue.append(
            _Job(
                live.id,
                live.row.game,
                dict(live.row.options),
                players,
                [a for _, a in live.actions],
                worlds,
            )
        )
        await self._next()

    async def _next(self) -> None:
        if self._current is not None or not self._queue or self._closed:
            return
        job = self._current = self._queue.popleft()
        try:
            conn = await self._worker()
            conn.send_bytes(
                pickle.dumps(
                    (job.table_id, job.game, job.options, job.players, job.actions, job.worlds)
                )
            )
        except Exception as exc:
            log.exception("the analysis worker could not be reached")
            await self._ended(job, "failed", f"the analysis worker could not start: {exc}")

    async def _worker(self) -> Connection:
        if self._conn is not None and self._process is not None and self._process.is_alive():
            return self._conn
        ours, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_serve, args=(theirs,), name="necropolis-analysis", daemon=True
        )
        await asyncio.to_thread(process.start)
        theirs.close()
        self._process, self._conn = process, ours
        asyncio.get_running_loop().add_reader(ours.fileno(), self._readable)
        return ours

    def _readable(self) -> None:
        conn = self._conn
        assert conn is not None
        try:
            # The event loop may have made the pipe non-blocking, and an analysis is longer
            # than a pipe's buffer: once readable, its message is read whole (the worker
            # writes it at once).
            os.set_blocking(conn.fileno(), True)
            kind, table_id, value = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError, pickle.UnpicklingError):
            self._lost()
            return
        job = self._current
        if job is None or job.table_id != table_id:
            return
        if kind == "progress":
            done, total = value
            if time.monotonic() - self._last_write >= PROGRESS_EVERY or done == total:
                self._last_write = time.monotonic()
                self._spawn(asyncio.to_thread(self.store.progress, table_id, done, total))
            return
        self._spawn(self._ended(job, kind, value))

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        task.add_done_callback(_logged)

    async def _ended(self, job: _Job, kind: str, value: Any) -> None:
        try:
            if kind == "done":
                await asyncio.to_thread(self.store.finish, job.table_id, value)
            else:
                log.warning("the analysis of table %s failed: %s", job.table_id, value)
                await asyncio.to_thread(self.store.fail, job.table_id, str(value))
        finally:
            if self._current is job:
                self._current = None
            await self._next()

    def _lost(self) -> None:
        """The worker died: its analysis fails, and the next starts a new one."""
        self._drop()
        job = self._current
        if job is not None:
            self._spawn(self._ended(job, "failed", "the analysis worker was lost"))

    def _drop(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self._conn.fileno())
            self._conn.close()
        if self._process is not None:
            with contextlib.suppress(Exception):
                self._process.kill()
        self._conn = None
        self._process = None

    async def close(self) -> None:
        self._closed = True
        self._queue.clear()
        process = self._process
        self._drop()
        if process is not None:
            await asyncio.to_thread(process.join, 2.0)


def _logged(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("an analysis task failed", exc_info=task.exception())
