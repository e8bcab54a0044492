"""WebSocket clients of one seat (or a spectator) at a table, as the tests use them.

``Seat`` (asyncio, the ``websockets`` library)
    ``await Seat.connect(server, table_id, token, version=None)`` sends ``hello`` and waits
    for the first ``state``. It keeps ``.state`` (the last ``state`` message), ``.log``
    (the log entries it holds, oldest first: every one from ``.log_from`` on; a first
    state brings only the newest), ``.received`` (every message) and ``.sizes`` (the bytes
    of each one's text); ``await .earlier(until=0)``
    asks for older pages until it holds every entry from ``until``. ``await
    .recv(timeout)`` the next message; ``await .until(pred, timeout)`` reads until a
    ``state`` for which ``pred(state)`` holds and returns it; ``await .act(action,
    version=None)`` sends ``act`` at the last state's version (or the one given);
    ``await .send(obj_or_text)``; ``await .close()``.
``SyncSeat``
    the same with blocking calls (``websockets.sync``), for tests that are not async
    (its ``connect`` also takes ``cookie``: an account's session, sent from the page's origin);
    ``.undo()`` and ``.commit()`` send ``undo`` and ``commit`` for the turn in hand the
    last state showed. Both ``connect`` take ``undo=True`` to keep turns in hand (the
    hello's ``undo``); ``act`` sends the last state's ``pending`` with its version.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import websockets
from websockets.sync.client import connect as sync_connect

from tests.clients.log import PageLog
from tests.clients.server import MESSAGE_TIMEOUT, Message, Server

StatePredicate = Callable[[Message], bool]


class _Record:
    """What a client has received: every message, the last state, the log.

    ``log`` holds every entry whose index is ``log_from`` or more, as a page keeps it: a
    first state brings the newest entries, later ones what is new, and a ``log`` answer
    (asked for with ``earlier``) the page before ``log_from``."""

    def __init__(self) -> None:
        self.received: list[Message] = []
        #: The bytes of each received message's text, in order.
        self.sizes: list[int] = []
        self.state: Message = {}
        self._log = PageLog()

    @property
    def log(self) -> list[Message]:
        """The log entries held, oldest first."""
        return self._log.entries

    @property
    def log_from(self) -> int | None:
        """The index from which ``log`` holds every entry (None: no state yet)."""
        return self._log.log_from

    def _take(self, text: str | bytes) -> Message:
        message: Message = json.loads(text)
        self.received.append(message)
        self.sizes.append(len(text.encode() if isinstance(text, str) else text))
        if message.get("type") == "state":
            self._log.take_state(message, self.state.get("version"))
            self.state = message
        elif message.get("type") == "log":
            self._log.take_page(message)
        return message

    def _log_request(self) -> str:
        return json.dumps({"type": "log", "before": self.log_from})

    @staticmethod
    def _paged(message: Message, before: int) -> bool | None:
        """True: the page before ``before`` came; False: refused for the rate (ask again
        a second later); None: something else."""
        if message.get("type") == "log" and message["before"] == before:
            return True
        if message.get("type") == "refused" and message["code"] == "rate_limited":
            return False
        return None

    def _act_message(self, action: int, version: int | None) -> str:
        message: dict[str, Any] = {
            "type": "act",
            "action": action,
            "version": self.state["version"] if version is None else version,
        }
        # Only with a turn in hand: a server from before undo refuses a field it lacks.
        if self.state.get("pending"):
            message["pending"] = self.state["pending"]
        return json.dumps(message)

    def _turn_message(self, kind: str) -> str:
        """``undo`` or ``commit`` of the turn in hand the last state showed."""
        return json.dumps(
            {"type": kind, "version": self.state["version"], "pending": self.state["pending"]}
        )


def hello_message(token: str, version: int | None, undo: bool = False) -> Message:
    """The ``hello`` a client opens with: its token, the last version it saw, and whether
    it keeps a turn in hand (said only when it does, as the web page does)."""
    message: Message = {"type": "hello", "token": token, "version": version}
    if undo:
        message["undo"] = True
    return message


def _hello(token: str, version: int | None, undo: bool = False) -> str:
    return json.dumps(hello_message(token, version, undo))


class Seat(_Record):
    """An asyncio WebSocket client of one seat (or a spectator)."""

    def __init__(self, socket: Any) -> None:
        super().__init__()
        self.socket = socket

    @classmethod
    async def connect(
        cls,
        server: Server,
        table_id: str,
        token: str,
        version: int | None = None,
        undo: bool = False,
    ) -> Seat:
        socket = await websockets.connect(server.ws_url(table_id), open_timeout=MESSAGE_TIMEOUT)
        seat = cls(socket)
        await socket.send(_hello(token, version, undo))
        first = await seat.recv()
        if first.get("type") != "state":
            raise AssertionError(f"hello was answered with {first}")
        return seat

    async def recv(self, timeout: float = MESSAGE_TIMEOUT) -> Message:
        import asyncio

        text = await asyncio.wait_for(self.socket.recv(), timeout)
        return self._take(text)

    async def until(self, pred: StatePredicate, timeout: float = MESSAGE_TIMEOUT) -> Message:
        import asyncio

        if self.state and pred(self.state):
            return self.state
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            message = await self.recv(max(left, 0.001))
            if message.get("type") == "state" and pred(message):
                return message

    async def act(self, action: int, version: int | None = None) -> None:
        await self.socket.send(self._act_message(action, version))

    async def earlier(self, until: int = 0) -> list[Message]:
        """Ask for pages of older entries until the log holds every one from ``until``
        (0: the whole log); a ``rate_limited`` refusal is asked again a second later."""
        import asyncio

        while self.log_from is not None and self.log_from > until:
            before = self.log_from
            await self.socket.send(self._log_request())
            while (paged := self._paged(await self.recv(), before)) is None:
                pass
            if not paged:
                await asyncio.sleep(1.0)
        return self.log

    async def play(self, choose: Callable[[Message], int], timeout: float = 600.0) -> Message:
        """Act whenever this seat may, with ``choose(state)``, until the match is over;
        returns the last state. A ``rate_limited`` refusal is retried a moment later."""
        import asyncio

        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        acted = -1
        while True:
            state = await self.until(
                lambda s, acted=acted: (
                    s["status"] == "finished" or (bool(s["actions"]) and s["version"] != acted)
                ),
                max(deadline - loop.time(), 0.001),
            )
            if state["status"] == "finished":
                return state
            acted = state["version"]
            action = choose(state)
            while True:
                await self.act(action, acted)
                answer = await self._answer(acted, max(deadline - loop.time(), 0.001))
                if answer.get("code") != "rate_limited":
                    break
                await asyncio.sleep(0.2)  # back off: the server asked for it

    async def _answer(self, version: int, timeout: float) -> Message:
        """The server's answer to an act at ``version``: its refusal, or the newer state
        whose step ``version + 1`` is this seat's (the act committed).

        A newer state in which another seat took that step (a race lost) is not the
        answer: the act is refused after it, and that refusal must be read here. Taken
        for the answer, it left the refusal to be read as the answer to the next act, and
        a ``rate_limited`` refusal of that act then went unanswered: the client waited
        for ever at a version where it was its turn.
        """
        import asyncio

        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            message = await self.recv(max(deadline - loop.time(), 0.001))
            if message.get("type") == "refused":
                return message
            if message.get("type") == "state" and message["version"] > version:
                # (a state without that step, too far ahead to carry it, is taken as is)
                by = {step["version"]: step["by"] for step in message.get("steps") or []}
                if by.get(version + 1, message["seat"]) == message["seat"]:
                    return message

    async def send(self, message: Any) -> None:
        await self.socket.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def close(self) -> None:
        await self.socket.close()


class SyncSeat(_Record):
    """A blocking WebSocket client of one seat (or a spectator)."""

    def __init__(self, socket: Any) -> None:
        super().__init__()
        self.socket = socket

    @classmethod
    def connect(
        cls,
        server: Server,
        table_id: str,
        token: str,
        version: int | None = None,
        undo: bool = False,
        cookie: str | None = None,
    ) -> SyncSeat:
        # A signed-in page: its session cookie, from the page's own origin.
        headers = {"Origin": server.url, "Cookie": f"necropolis_session={cookie}"}
        socket = sync_connect(
            server.ws_url(table_id),
            open_timeout=MESSAGE_TIMEOUT,
            legacy=True,
            additional_headers=headers if cookie is not None else None,
        )
        seat = cls(socket)
        socket.send(_hello(token, version, undo))
        first = seat.recv()
        if first.get("type") != "state":
            raise AssertionError(f"hello was answered with {first}")
        return seat

    def recv(self, timeout: float = MESSAGE_TIMEOUT) -> Message:
        return self._take(self.socket.recv(timeout))

    def until(self, pred: StatePredicate, timeout: float = MESSAGE_TIMEOUT) -> Message:
        if self.state and pred(self.state):
            return self.state
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(deadline - time.monotonic(), 0.001))
            if message.get("type") == "state" and pred(message):
                return message

    def act(self, action: int, version: int | None = None) -> None:
        self.socket.send(self._act_message(action, version))

    def earlier(self, until: int = 0) -> list[Message]:
        """As :meth:`Seat.earlier`, blocking."""
        while self.log_from is not None and self.log_from > until:
            before = self.log_from
            self.socket.send(self._log_request())
            while (paged := self._paged(self.recv(), before)) is None:
                pass
            if not paged:
                time.sleep(1.0)
        return self.log

    def undo(self) -> None:
        self.socket.send(self._turn_message("undo"))

    def commit(self) -> None:
        self.socket.send(self._turn_message("commit"))

    def send(self, message: Any) -> None:
        self.socket.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def close(self) -> None:
        self.socket.close()
