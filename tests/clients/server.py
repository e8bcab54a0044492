"""A real ``necropolis serve`` in a subprocess, reached only over HTTP and WebSocket.

The server runs as a separate process (so a test can SIGKILL it and start it again on
the same database) and is reached as a browser reaches it.

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

Timeouts are generous (the machine may be loaded); nothing waits by sleeping.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

#: Seconds to wait for a server to start, or for a message.
START_TIMEOUT = 120.0
MESSAGE_TIMEOUT = 60.0

Message = dict[str, Any]


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
        return descendants(self.process.pid)

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
        return ws_url(self.url, table_id)


def ws_url(base_url: str, table_id: str) -> str:
    """The WebSocket address of a table on the server at ``base_url``."""
    return base_url.replace("http://", "ws://", 1).rstrip("/") + f"/ws/tables/{table_id}"


def parents() -> dict[int, int]:
    """Each running process's parent, read from ``/proc``."""
    found: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            found[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
    return found


def descendants(pid: int) -> list[int]:
    """The pids of every running process descended from ``pid``."""
    children: dict[int, list[int]] = {}
    for child, parent in parents().items():
        children.setdefault(parent, []).append(child)
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


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
