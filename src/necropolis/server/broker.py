"""What one server process tells the others: the tables' news and a few small messages.

A :class:`Bus` carries small messages between the server processes that share the
tables: a kind and a JSON object. The kinds are ``news`` ("table T is at version N",
:class:`Broker`: each process, told, reads what it missed from the database and tells its
own connections), ``turns`` and ``chat`` (:mod:`necropolis.server.notices`). Every
message is a hint: it may come late or not at all without losing an action, because the
database holds the truth and each process also looks at it now and then.

:class:`LocalBus` serves one process (there is nobody to tell); :class:`RedisBus` carries
the messages over Redis pub/sub, on a channel of the deployment's own (two deployments
sharing one Redis do not hear each other); :class:`PeerBus` carries them between the
processes of ``serve --workers N`` on one machine when there is no Redis, as datagrams
over Unix sockets in a folder they share.

Publishing never slows a table: :meth:`Bus.publish` only hands the message over. To Redis,
one task sends, each send cut short after :data:`PUBLISH_TIMEOUT`; while Redis is slow or
hung, a message waiting to be sent is replaced by a newer one of the same key (the news
of one table), and beyond :data:`OUTBOX` waiting messages the oldest are dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import secrets
import socket
import time
from abc import ABC, abstractmethod
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

log = logging.getLogger("necropolis.server")

#: What a process does with another's message of one kind: its data.
Handler = Callable[[dict[str, Any]], Awaitable[None]]
#: What a process does with news: ``(table_id, version)``.
Listener = Callable[[str, int], Awaitable[None]]

#: The channel of a deployment that names none.
CHANNEL = "necropolis:tables"
#: Seconds a publish to Redis may take before it is given up (the message is a hint).
PUBLISH_TIMEOUT = 0.5
#: Seconds a process's list of its sibling processes stays fresh (:class:`PeerBus`).
PEERS_FRESH = 1.0
#: Messages waiting to be sent or handled, at most (the oldest go first).
OUTBOX = 1000
#: The longest message, in bytes (a chat line is at most 2 KB).
MAX_MESSAGE = 16384


class Bus(ABC):
    """Publishes ``(kind, data)`` to the other processes, and hands theirs to the handler
    of their kind (registered with :meth:`on` before :meth:`start`)."""

    #: Whether other processes may exist that hear what is published (then news can be
    #: lost on the way, and each process also looks at the database now and then).
    shared: bool = False

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}
        #: This process's name on the bus (its own messages come back on Redis).
        self.sender = secrets.token_hex(8)

    def on(self, kind: str, handler: Handler) -> None:
        """Hand the other processes' messages of ``kind`` to ``handler``."""
        self._handlers[kind] = handler

    @abstractmethod
    async def start(self) -> None:
        """Begin hearing the other processes."""

    @abstractmethod
    def publish(self, kind: str, data: dict[str, Any], key: str | None = None) -> None:
        """Tell the other processes (never this one); returns at once. A message with a
        ``key`` replaces one of the same key still waiting to be sent."""

    @abstractmethod
    async def close(self) -> None: ...

    def _encode(self, kind: str, data: dict[str, Any]) -> bytes | None:
        text = json.dumps({"s": self.sender, "k": kind, "d": data}).encode()
        return text if len(text) <= MAX_MESSAGE else None

    async def _hand(self, raw: bytes | str) -> None:
        """Hand one received message to its kind's handler (not this process's own, not a
        malformed or unknown one)."""
        if len(raw) > MAX_MESSAGE:
            return
        try:
            parsed = json.loads(raw)
            sender, kind, data = parsed["s"], parsed["k"], parsed["d"]
        except (ValueError, KeyError, TypeError):
            return
        handler = self._handlers.get(kind) if isinstance(kind, str) else None
        if sender == self.sender or handler is None or not isinstance(data, dict):
            return
        try:
            await handler(data)
        except Exception:
            log.exception("could not handle a %s message from another process", kind)


class LocalBus(Bus):
    """One process: nobody else to tell."""

    async def start(self) -> None:
        return None

    def publish(self, kind: str, data: dict[str, Any], key: str | None = None) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisBus(Bus):
    """Redis pub/sub on one channel; a message is JSON ``{"s": sender, "k": kind, "d": data}``."""

    shared = True

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        import redis.asyncio as redis

        super().__init__()
        self.channel = channel
        self._redis = redis.Redis.from_url(url)
        # Publishing has a client of its own, whose every wait is short: a hung Redis
        # costs the sender at most PUBLISH_TIMEOUT per attempt, never a table.
        self._publisher = redis.Redis.from_url(
            url,
            socket_timeout=PUBLISH_TIMEOUT,
            socket_connect_timeout=PUBLISH_TIMEOUT,
            retry_on_timeout=False,
        )
        #: Messages waiting to be sent, by key (a message with none gets a key of its own).
        self._outbox: OrderedDict[str | int, bytes] = OrderedDict()
        self._unkeyed = itertools.count()
        self._waiting = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel)
        self._tasks = [
            asyncio.create_task(self._listen(pubsub), name="bus listen"),
            asyncio.create_task(self._send(), name="bus send"),
        ]

    async def _listen(self, pubsub: object) -> None:
        from redis.asyncio.client import PubSub

        assert isinstance(pubsub, PubSub)
        while True:
            try:
                message = await pubsub.get_message(timeout=5.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # a dropped connection: wait, then read on (it reconnects)
                log.warning("lost the Redis subscription; retrying", exc_info=True)
                await asyncio.sleep(1.0)
                continue
            if message is not None and message.get("type") == "message":
                await self._hand(message["data"])

    def publish(self, kind: str, data: dict[str, Any], key: str | None = None) -> None:
        encoded = self._encode(kind, data)
        if encoded is None:
            return
        slot: str | int = key if key is not None else next(self._unkeyed)
        self._outbox.pop(slot, None)
        self._outbox[slot] = encoded
        while len(self._outbox) > OUTBOX:
            self._outbox.popitem(last=False)
        self._waiting.set()

    async def _send(self) -> None:
        """Send the waiting messages in order, each send cut short if Redis is slow; a
        message that fails is dropped (the others poll the database meanwhile)."""
        while True:
            await self._waiting.wait()
            self._waiting.clear()
            while self._outbox:
                _, encoded = self._outbox.popitem(last=False)
                try:
                    async with asyncio.timeout(PUBLISH_TIMEOUT):
                        await self._publisher.publish(self.channel, encoded)
                except asyncio.CancelledError:
                    raise
                except Exception:  # only a hint; the database holds the truth
                    log.warning("could not publish to Redis", exc_info=True)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for client in (self._redis, self._publisher):
            with contextlib.suppress(Exception):
                async with asyncio.timeout(PUBLISH_TIMEOUT):
                    await client.aclose()


class PeerBus(Bus):
    """The processes of one machine, each with a Unix datagram socket ``<name>.bus`` in a
    folder they share; a datagram that cannot leave (a process restarting, a full buffer)
    is dropped, as a lost hint."""

    shared = True

    def __init__(self, folder: Path, name: str | None = None) -> None:
        super().__init__()
        self.folder = folder
        #: This process's socket: named by its process number unless told otherwise.
        self._path = folder / f"{name or os.getpid()}.bus"
        self._socket: socket.socket | None = None
        self._peers: list[str] = []
        self._peers_read = -PEERS_FRESH
        self._inbox: deque[bytes] = deque(maxlen=OUTBOX)
        self._arrived = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.setblocking(False)
        with contextlib.suppress(FileNotFoundError):
            self._path.unlink()  # a process of the same number that died without cleaning
        sock.bind(str(self._path))
        self._socket = sock
        asyncio.get_running_loop().add_reader(sock.fileno(), self._receive)
        self._task = asyncio.create_task(self._deliver(), name="bus deliver")

    def _receive(self) -> None:
        assert self._socket is not None
        while True:
            try:
                data = self._socket.recv(MAX_MESSAGE + 1)
            except (BlockingIOError, InterruptedError):
                return
            self._inbox.append(data)
            self._arrived.set()

    async def _deliver(self) -> None:
        while True:
            await self._arrived.wait()
            self._arrived.clear()
            while self._inbox:
                await self._hand(self._inbox.popleft())

    def _others(self) -> list[str]:
        """The other processes' sockets, listed again at most every :data:`PEERS_FRESH` s
        (a process that restarted binds a new one)."""
        now = time.monotonic()
        if now - self._peers_read >= PEERS_FRESH:
            mine = self._path.name
            self._peers = [str(p) for p in self.folder.glob("*.bus") if p.name != mine]
            self._peers_read = now
        return self._peers

    def publish(self, kind: str, data: dict[str, Any], key: str | None = None) -> None:
        encoded = self._encode(kind, data)
        if self._socket is None or encoded is None:
            return
        for peer in self._others():
            with contextlib.suppress(OSError):  # gone or full: the others poll meanwhile
                self._socket.sendto(encoded, peer)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._socket is not None:
            asyncio.get_running_loop().remove_reader(self._socket.fileno())
            self._socket.close()
            self._socket = None
        with contextlib.suppress(OSError):
            self._path.unlink()


def make_bus(redis_url: str | None, channel: str = CHANNEL, peers: Path | None = None) -> Bus:
    """Redis when it is named; else the machine's sibling processes when there are any
    (``peers``: their shared folder); else this process alone."""
    if redis_url:
        return RedisBus(redis_url, channel)
    return PeerBus(peers) if peers is not None else LocalBus()


class Broker:
    """The tables' news on a bus: "table T is at version N". The bus is its owner's to
    start (once every kind has its handler) and to close."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.shared = bus.shared

    async def start(self, listener: Listener) -> None:
        """Hand other processes' news to ``listener``."""

        async def heard(data: dict[str, Any]) -> None:
            table_id, version = data.get("table"), data.get("version")
            if isinstance(table_id, str) and isinstance(version, int):
                await listener(table_id, version)

        self.bus.on("news", heard)

    def publish(self, table_id: str, version: int) -> None:
        """Tell the other processes that ``table_id`` is at ``version``; returns at once."""
        self.bus.publish("news", {"table": table_id, "version": version}, key=f"news {table_id}")

    async def close(self) -> None:
        return None
