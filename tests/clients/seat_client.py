"""An asyncio client of the table protocol (docs/protocol.md) for crowds of connections.

What a browser does, without the page: create a table over HTTP, open one WebSocket per
seat, say hello with the last version seen, keep every ``state`` message, act at the
current version, with a callback on each state (so that thousands of them run in one
process). The resilience tests, ``scripts/bench_table.py`` and ``scripts/wire.py`` drive
the server through it, so they see exactly what a person's page would see.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from tests.clients.log import PageLog
from tests.clients.seats import hello_message
from tests.clients.server import Message, ws_url


async def create_table(
    http: httpx.AsyncClient,
    game: str,
    seats: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
) -> Message:
    """POST /api/tables; the answer holds the table id and each person seat's token. An
    answer ``unavailable`` (503: the database did not take the write in time, as under a
    crowd creating hundreds of tables at once) is asked again a moment later, as the
    server says, a few times."""
    for _ in range(10):
        response = await http.post(
            "/api/tables", json={"game": game, "options": options or {}, "seats": seats}
        )
        if response.status_code != 503:
            break
        await asyncio.sleep(0.5)
    if response.status_code != 200 and response.status_code != 201:
        raise RuntimeError(f"creating a table failed: {response.status_code} {response.text}")
    answer: Message = response.json()
    return answer


class SeatClient:
    """One WebSocket connection of a seat (or a spectator) at a table.

    Every ``state`` is kept in ``states``; ``log`` is the seat's log as the client builds
    it from what each state brings (as the page does), each action index's entries:
    every index from ``log_from`` on (a first state brings only the newest entries;
    :meth:`earlier` asks for older ones a page at a time). ``on_state`` is called with
    each state as it arrives, before anyone waiting is woken.
    """

    def __init__(
        self,
        base_url: str,
        table_id: str,
        token: str,
        version: int | None = None,
        on_state: Callable[[SeatClient, Message], None] | None = None,
        undo: bool = False,
    ) -> None:
        self.base_url = base_url
        #: Whether the client keeps a turn in hand, as the web page does (its ``hello``
        #: says ``undo``): the server then holds the decisions that reveal nothing.
        self.undo = undo
        self.table_id = table_id
        self.token = token
        #: The last version this client saw (None: none yet).
        self.version = version
        self.on_state = on_state
        self.states: list[Message] = []
        self.others: list[Message] = []
        self._log = PageLog()
        self.closed = asyncio.Event()
        self._changed = asyncio.Event()
        self._socket: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None

    @property
    def state(self) -> Message | None:
        return self.states[-1] if self.states else None

    @property
    def log(self) -> dict[int, list[Message]]:
        """The log entries held, by action index (the client's own: it may be cleared)."""
        return self._log.by_index

    @property
    def log_from(self) -> int | None:
        """The index from which ``log`` holds every entry (None: no state yet)."""
        return self._log.log_from

    async def connect(self, timeout: float = 30) -> Message:
        """Open the connection, say hello, and return the first state."""
        self._socket = await websockets.connect(
            ws_url(self.base_url, self.table_id),
            open_timeout=timeout,
            max_size=2**24,
            ping_interval=None,
        )
        await self._socket.send(json.dumps(hello_message(self.token, self.version, self.undo)))
        self.closed.clear()
        self._reader = asyncio.create_task(self._read())
        return await self.wait_for(lambda s: True, timeout=timeout, fresh=True)

    async def _read(self) -> None:
        assert self._socket is not None
        try:
            async for raw in self._socket:
                message: Message = json.loads(raw)
                if message.get("type") == "state":
                    self._take(message)
                else:
                    if message.get("type") == "log":
                        self._log.take_page(message)
                    self.others.append(message)
                self._changed.set()
        except (websockets.ConnectionClosed, OSError):
            pass
        finally:
            self.closed.set()
            self._changed.set()

    def _take(self, state: Message) -> None:
        self.states.append(state)
        self._log.take_state(state, self.version)
        self.version = int(state["version"])
        if self.on_state is not None:
            self.on_state(self, state)

    async def wait_for(
        self, predicate: Callable[[Message], bool], timeout: float = 30, fresh: bool = False
    ) -> Message:
        """The first state (the current one unless ``fresh``) that satisfies ``predicate``."""
        seen = len(self.states) if fresh else max(len(self.states) - 1, 0)
        deadline = time.monotonic() + timeout
        while True:
            for state in self.states[seen:]:
                if predicate(state):
                    return state
            seen = len(self.states)
            if self.closed.is_set():
                raise ConnectionError(
                    f"connection to table {self.table_id} closed; other messages: {self.others}"
                )
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(
                    f"no awaited state at table {self.table_id} within {timeout} s "
                    f"(last version {self.version})"
                )
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    async def act(self, action: int, version: int | None = None, pending: int = 0) -> None:
        """Send ``act`` at ``version`` (by default the last version seen), with the turn in
        hand's ``pending`` decisions as the client saw them."""
        assert self._socket is not None
        at = self.version if version is None else version
        message: Message = {"type": "act", "action": action, "version": at}
        if pending:
            message["pending"] = pending
        await self._socket.send(json.dumps(message))

    async def earlier(self, until: int = 0, timeout: float = 60) -> dict[int, list[Message]]:
        """Ask for pages of older entries until ``log`` holds every index from ``until``
        (0: the whole log). A ``rate_limited`` refusal (pages asked quickly, beside the
        seat's other messages) is asked again a second later."""
        assert self._socket is not None
        while self.log_from is not None and self.log_from > until:
            before, seen = self.log_from, len(self.others)
            await self._socket.send(json.dumps({"type": "log", "before": before}))
            deadline = time.monotonic() + timeout
            while not any(
                (m.get("type") == "log" and m["before"] == before)
                or m.get("code") == "rate_limited"
                for m in self.others[seen:]
            ):
                if self.closed.is_set() or time.monotonic() > deadline:
                    raise ConnectionError(f"no page of the log before {before}: {self.others}")
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), 1.0)
            if self.log_from == before:
                await asyncio.sleep(1.0)  # refused for the rate: ask again
        return self.log

    async def send_raw(self, text: str) -> None:
        assert self._socket is not None
        await self._socket.send(text)

    async def close(self) -> None:
        if self._socket is not None:
            with contextlib.suppress(Exception):
                await self._socket.close()
        if self._reader is not None:
            with contextlib.suppress(BaseException):
                await self._reader
        self._socket = None
        self._reader = None
