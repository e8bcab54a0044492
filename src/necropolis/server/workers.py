"""Several table-server processes on one port: ``necropolis serve --workers N``.

The parent binds the socket and hands it to uvicorn's supervisor, which starts N server
processes that all accept on it and starts a new one when one dies. uvicorn spawns its
processes, so each builds its own app from the settings the parent left in the
environment (:func:`app_from_environment`). The processes share the tables through the
database, as any several-process deployment does, and tell each other what moved over
Redis when one is named, else over Unix sockets in a folder the parent made for them
(:class:`~necropolis.server.broker.PeerBus`). What stays per process is listed in
``docs/protocol.md`` (connection and rate limits, presence).
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from necropolis.server.app import Settings, create_app
from necropolis.server.mail import MailSettings

#: The environment variable through which the parent hands its settings to each process.
SETTINGS_VARIABLE = "NECROPOLIS_SERVE_SETTINGS"
#: Settings that are paths.
_PATHS = ("static_dir", "peers_dir")


def default_workers() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1


def app_from_environment() -> FastAPI:
    """The app of one server process, built from the parent's settings (uvicorn's factory)."""
    raw: dict[str, Any] = json.loads(os.environ[SETTINGS_VARIABLE])
    for name in _PATHS:
        if raw.get(name) is not None:
            raw[name] = Path(raw[name])
    if raw.get("mail") is not None:
        raw["mail"] = MailSettings(**raw["mail"])
    return create_app(Settings(**raw))


def _encoded(settings: Settings) -> str:
    fields = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings)}
    fields.pop("on_ready")  # callables stay in the parent: it announces readiness itself
    if fields.get("mail") is not None:
        fields["mail"] = dataclasses.asdict(fields["mail"])
    for name in _PATHS:
        if fields[name] is not None:
            fields[name] = str(fields[name])
    return json.dumps(fields)


def _announce_when_served(url: str, ready: Callable[[], None], stop: threading.Event) -> None:
    """Call ``ready`` once a process answers ``url`` (its health, even "storage down")."""
    while not stop.is_set():
        try:
            with urllib.request.urlopen(url, timeout=2):
                pass
        except urllib.error.HTTPError:
            pass  # an answer all the same (503: the storage is away, the server is up)
        except OSError:
            time.sleep(0.1)
            continue
        ready()
        return


def run(settings: Settings, sock: socket.socket, workers: int, options: dict[str, Any]) -> None:
    """Serve on ``sock`` with ``workers`` processes until SIGINT or SIGTERM."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    with tempfile.TemporaryDirectory(prefix="necropolis-peers-") as folder:
        if not settings.redis_url:
            settings.peers_dir = Path(folder)
        os.environ[SETTINGS_VARIABLE] = _encoded(settings)
        config = uvicorn.Config(
            "necropolis.server.workers:app_from_environment",
            factory=True,
            workers=workers,
            **options,
        )
        host, port = sock.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        stop = threading.Event()
        for ready in settings.on_ready:
            threading.Thread(
                target=_announce_when_served,
                args=(f"http://{shown}:{port}/api/health", ready, stop),
                daemon=True,
            ).start()
        try:
            Multiprocess(config, sockets=[sock]).run()
        finally:
            stop.set()
