"""Waiting on the database from the event loop: bounded calls, and the one writer.

:func:`stored` runs a call to the database in a worker thread and bounds the wait for it
(a frozen database enforces none of its own timeouts); :class:`Writer` commits this
process's actions in batches, each caller waiting a bounded time. :data:`UNAVAILABLE` and
:func:`trouble_text` are what a client and the health check are told while it fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from necropolis.server.db import (
    STORAGE_WAIT,
    Append,
    StorageUnavailableError,
    Store,
    VersionConflictError,
)

P = ParamSpec("P")
T = TypeVar("T")

UNAVAILABLE = "The table cannot reach its storage just now: try again in a moment."


async def stored(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``function(*args)`` (a call to the database) in a worker thread, waited for at most
    :data:`STORAGE_WAIT` seconds. A frozen database is not bounded by its own timeouts
    (nothing answers to enforce them), so the wait is bounded here too; the thread may go
    on until the database answers, and what it then does is caught up with later."""
    try:
        # (asyncio.timeout rather than wait_for: the call is awaited in this task, not
        # wrapped in a task of its own; on timeout the wait is cancelled all the same.)
        async with asyncio.timeout(STORAGE_WAIT):
            return await asyncio.to_thread(function, *args, **kwargs)
    except TimeoutError:
        raise StorageUnavailableError(
            f"The database did not answer within {STORAGE_WAIT:g} seconds."
        ) from None


def trouble_text(exc: BaseException) -> str:
    """What is wrong with the storage, in a sentence without SQL or internals."""
    if isinstance(exc, StorageUnavailableError):
        return str(exc)
    return "The database cannot be reached, or it refuses to write."


class Writer:
    """The one writer of actions in this process: commits go to the database one batch at
    a time, and actions that arrive while a batch is committing go together in the next.

    Each commit waits for its sync to disk, which costs about the same for one action as
    for a hundred; one writer also keeps this process's commits from queueing for SQLite's
    write lock in several threads. Every action is still committed before it is told.

    Each caller waits at most :data:`STORAGE_WAIT` seconds: a commit stuck in a frozen
    database makes the actions behind it fail (:class:`StorageUnavailableError`) rather
    than wait with it. An action given up on before its batch began is never written; one
    whose batch was under way may still land, which the caller must treat as unknown.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        # One thread of its own: the batches go one after another, through the store's
        # one kept connection, from a thread whose caches stay warm. It is fed through a
        # queue and answers through the event loop's call_soon_threadsafe, without an
        # executor's futures, whose locks and callbacks cost more CPU per batch than
        # the batch's own Python. A daemon: a database that never answers must not keep
        # the process from ending.
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._waiting: list[tuple[list[Append], asyncio.Future[bool]]] = []
        self._task: asyncio.Task[None] | None = None
        #: The batch being committed now, in the writer's thread.
        self._flight: asyncio.Future[list[bool]] | None = None

    async def append(self, *turn: Append) -> None:
        """Commit ``turn`` (one table's consecutive actions) whole or not at all; raises
        :class:`VersionConflictError` if one of its indices is taken."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((list(turn), done))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._write(), name="writer")
        try:
            # On timeout this cancels ``done``: a batch not yet begun leaves it out.
            async with asyncio.timeout(STORAGE_WAIT):
                committed = await done
        except TimeoutError:
            raise StorageUnavailableError(
                f"The database did not commit within {STORAGE_WAIT:g} seconds."
            ) from None
        if not committed:
            raise VersionConflictError(turn[0].table_id)

    def close(self) -> None:
        """Let the writer's thread end once its batch is done (the server is stopping)."""
        self._closed = True
        if self._thread is not None:
            self._jobs.put(None)

    def _submit(self, turns: list[list[Append]]) -> asyncio.Future[list[bool]]:
        """Commit ``turns`` (:meth:`Store.append_turns`) in the writer's thread; the future
        has its result or exception once the thread is done with them."""
        if self._closed:
            raise RuntimeError("the writer is closed")
        loop = asyncio.get_running_loop()
        flight: asyncio.Future[list[bool]] = loop.create_future()
        if self._thread is None:
            self._thread = threading.Thread(
                target=_run_jobs, args=(self.store, self._jobs), name="writer", daemon=True
            )
            self._thread.start()
        self._jobs.put((turns, loop, flight))
        return flight

    async def settled(self) -> None:
        """Wait (at most :data:`STORAGE_WAIT` seconds) until no batch is being committed:
        after that, whatever an earlier batch wrote is in the record for a reader."""
        flight = self._flight
        if flight is None or flight.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(flight), STORAGE_WAIT)
        except TimeoutError:
            raise StorageUnavailableError(
                f"The database did not commit within {STORAGE_WAIT:g} seconds."
            ) from None
        except Exception:
            return  # the batch failed: it wrote nothing

    async def _write(self) -> None:
        while self._waiting:
            batch = [(a, done) for a, done in self._waiting if not done.done()]
            self._waiting = []
            if not batch:
                continue
            try:
                self._flight = self._submit([t for t, _ in batch])
                results = await self._flight
            except Exception as exc:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            for (_, done), result in zip(batch, results, strict=True):
                if not done.done():
                    done.set_result(result)


#: A batch for the writer's thread: the turns, and the loop and future that await them.
_Job = tuple[list[list[Append]], asyncio.AbstractEventLoop, "asyncio.Future[list[bool]]"]


def _run_jobs(store: Store, jobs: queue.SimpleQueue[_Job | None]) -> None:
    """The writer's thread: commit each batch in turn and hand its answer to its loop,
    until told to stop (None)."""
    while True:
        job = jobs.get()
        if job is None:
            return
        turns, loop, flight = job
        try:
            result = store.append_turns(turns)
        except BaseException as exc:
            outcome: tuple[list[bool] | None, BaseException | None] = (None, exc)
        else:
            outcome = (result, None)
        # The loop may be gone (the server stopped meanwhile): nobody is waiting then.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(_settle, flight, *outcome)


def _settle(
    flight: asyncio.Future[list[bool]], result: list[bool] | None, exc: BaseException | None
) -> None:
    """Give ``flight`` its answer, unless its waiter gave up on it (cancelled)."""
    if flight.done():
        return
    if exc is not None:
        flight.set_exception(exc)
    else:
        assert result is not None
        flight.set_result(result)
