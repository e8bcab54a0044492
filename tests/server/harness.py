"""A real ``necropolis serve`` in a subprocess, and clients that talk to it over sockets.

The server runs as a separate process (so a test can SIGKILL it and start it again on
the same database) and is reached only over HTTP and WebSocket, as a browser would.

The whole API:

``start_server(db_url, *, redis_url=None, bot_workers=1, port=0, timeout=120, env=None)
-> Server``
    starts ``necropolis serve --port 0 --db DB_URL [--redis URL]`` (with ``env`` added to
    its environment) and returns once it printed its address and ``/api/health``
    answers. ``running_server(...)`` is the same as a context manager that stops it at
    the end.
``Server``
    ``.url`` (``http://127.0.0.1:PORT``), ``.port``, ``.process``; ``.kill()`` (SIGKILL,
    waits), ``.stop()`` (SIGTERM, waits), ``.restart()`` (kills if running, starts again
    with the same arguments and port; returns self), ``.output()`` (what it wrote to
    stderr), ``.descendants()`` (pids of the processes it started);
    ``.get(path, token=None)`` and ``.post(path, body=None, token=None)`` (an
    ``httpx.Response``; the token goes in ``Authorization: Bearer``);
    ``.create_table(game, seats, options=None, creator_token=None) -> dict`` (the
    answer of ``POST /api/tables``; ``seats`` like ``["me", "link", "bot:easy"]``);
    ``.ws_url(table_id)``.
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

Timeouts are generous (the machine may be loaded); nothing waits by sleeping.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.sync.client import connect as sync_connect

#: Seconds to wait for a server to start, or for a message.
START_TIMEOUT = 120.0
MESSAGE_TIMEOUT = 60.0

Message = dict[str, Any]
StatePredicate = Callable[[Message], bool]


class Server:
    """A ``necropolis serve`` subprocess."""

    def __init__(self, args: list[str], timeout: float, env: dict[str, str]) -> None:
        self._args = args
        self._env = env
        self._timeout = timeout
        self._log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (kept open for the process)
            prefix="necropolis-serve-", suffix=".log", delete=False
        )
        self.port = 0
        self.url = ""
        self.process: subprocess.Popen[str] | None = None
        self._start()

    def _start(self) -> None:
        args = list(self._args)
        args[args.index("--port") + 1] = str(self.port)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "necropolis.cli.main", "serve", *args],
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **self._env},
        )
        line = _read_line(self.process, self._timeout)
        prefix = "necropolis table at "
        if not line.startswith(prefix):
            self.kill()
            raise RuntimeError(f"the server did not start: {line!r}\n{self.output()}")
        self.url = line[len(prefix) :].strip()
        self.port = int(self.url.rsplit(":", 1)[1])
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                if httpx.get(f"{self.url}/api/health", timeout=10).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"the server never answered /api/health\n{self.output()}")
            time.sleep(0.05)

    def descendants(self) -> list[int]:
        """The pids of every process the server started (bot workers, fork server…)."""
        assert self.process is not None
        children: dict[int, list[int]] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
        found: list[int] = []
        todo = [self.process.pid]
        while todo:
            for child in children.get(todo.pop(), []):
                found.append(child)
                todo.append(child)
        return found

    def output(self) -> str:
        return Path(self._log.name).read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: the process ends at once, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM: uvicorn shuts down in order."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self) -> Server:
        """Kill if running, then start again with the same arguments on the same port."""
        self.kill()
        self._start()
        return self

    # --- HTTP ------------------------------------------------------------------------

    def get(self, path: str, token: str | None = None) -> httpx.Response:
        return httpx.get(self.url + path, headers=_auth(token), timeout=MESSAGE_TIMEOUT)

    def post(self, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
        return httpx.post(self.url + path, json=body, headers=_auth(token), timeout=MESSAGE_TIMEOUT)

    def create_table(
        self,
        game: str,
        seats: list[str],
        options: dict[str, Any] | None = None,
        creator_token: str | None = None,
    ) -> dict[str, Any]:
        """Create a table; a seat is ``me``, ``link``, ``hotseat`` or ``bot:LEVEL``."""
        body: dict[str, Any] = {"game": game, "options": options or {}, "seats": []}
        for seat in seats:
            kind, _, level = seat.partition(":")
            body["seats"].append({"type": kind, **({"level": level} if level else {})})
        if creator_token is not None:
            body["creator_token"] = creator_token
        response = self.post("/api/tables", body)
        if response.status_code != 200:
            raise AssertionError(f"create_table failed: {response.status_code} {response.text}")
        created: dict[str, Any] = response.json()
        return created

    def ws_url(self, table_id: str) -> str:
        return self.url.replace("http://", "ws://", 1) + f"/ws/tables/{table_id}"


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token is not None else {}


def _read_line(process: subprocess.Popen[str], timeout: float) -> str:
    """The first line the process prints, or '' if it prints none in time."""
    found: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        found.append(process.stdout.readline())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    return found[0] if found else ""


def start_server(
    db_url: str,
    *,
    redis_url: str | None = None,
    workers: int = 1,
    bot_workers: int = 1,
    port: int = 0,
    timeout: float = START_TIMEOUT,
    env: dict[str, str] | None = None,
) -> Server:
    """Start ``necropolis serve`` on ``db_url`` and wait until it answers."""
    args = ["--port", str(port), "--db", db_url, "--bot-workers", str(bot_workers)]
    args += ["--workers", str(workers)]
    if redis_url is not None:
        args += ["--redis", redis_url]
    return Server(args, timeout, env or {})


@contextmanager
def running_server(db_url: str, **kwargs: Any) -> Iterator[Server]:
    server = start_server(db_url, **kwargs)
    try:
        yield server
    finally:
        server.stop()


# --- WebSocket clients -------------------------------------------------------------------


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
        self.log: list[Message] = []
        #: The index from which ``log`` holds every entry (None: no state yet).
        self.log_from: int | None = None

    def _take(self, text: str | bytes) -> Message:
        message: Message = json.loads(text)
        self.received.append(message)
        self.sizes.append(len(text.encode() if isinstance(text, str) else text))
        if message.get("type") == "state":
            known = self.state.get("version", 0)
            start = int(message.get("log_from", 0))
            if self.log_from is None or start > known:
                # A first state, or one so far ahead that what was known is cut off.
                self.log, self.log_from = [], start
            self.state = message
            self.log = [e for e in self.log if e["index"] < start] + message["log"]
        elif message.get("type") == "log" and message["before"] == self.log_from:
            self.log = message["log"] + self.log
            self.log_from = int(message["log_from"])
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


def _hello(token: str, version: int | None, undo: bool = False) -> str:
    message: dict[str, Any] = {"type": "hello", "token": token, "version": version}
    if undo:
        message["undo"] = True
    return json.dumps(message)


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
