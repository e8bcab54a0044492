"""Telling every server process that a table has moved on.

A broker carries one kind of news: "table T is at version N". Each process, told, reads
what it missed from the database and tells its own connections; so the news may be late
or lost without losing an action. :class:`LocalBroker` serves one process (the default);
:class:`RedisBroker` carries the news between processes over Redis pub/sub.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable

log = logging.getLogger("necropolis.server")

#: What a process does with news: ``(table_id, version)``.
Listener = Callable[[str, int], Awaitable[None]]

CHANNEL = "necropolis:tables"


class Broker(ABC):
    """Publishes "table T is at version N" and hands news from other processes to one
    listener."""

    #: Whether other processes may change the tables (then news can be lost on the way,
    #: and the server also looks at the database now and then).
    shared: bool = False

    @abstractmethod
    async def start(self, listener: Listener) -> None:
        """Begin delivering other processes' news to ``listener``."""

    @abstractmethod
    async def publish(self, table_id: str, version: int) -> None:
        """Tell the other processes (never this one) that ``table_id`` is at ``version``."""

    @abstractmethod
    async def close(self) -> None: ...


class LocalBroker(Broker):
    """One process: it already told its own connections, so there is nobody to tell."""

    async def start(self, listener: Listener) -> None:
        return None

    async def publish(self, table_id: str, version: int) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisBroker(Broker):
    """Redis pub/sub on one channel; each message is ``"<sender> <table> <version>"``."""

    shared = True

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self._redis = redis.Redis.from_url(url)
        self._sender = secrets.token_hex(8)
        self._task: asyncio.Task[None] | None = None

    async def start(self, listener: Listener) -> None:
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(CHANNEL)
        self._task = asyncio.create_task(self._listen(pubsub, listener))

    async def _listen(self, pubsub: object, listener: Listener) -> None:
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
            if message is None or message.get("type") != "message":
                continue
            data = message["data"]
            text = data.decode() if isinstance(data, bytes) else str(data)
            parts = text.split()
            if len(parts) != 3 or parts[0] == self._sender or not parts[2].isdigit():
                continue
            try:
                await listener(parts[1], int(parts[2]))
            except Exception:
                log.exception("could not catch up with table %s", parts[1])

    async def publish(self, table_id: str, version: int) -> None:
        try:
            await self._redis.publish(CHANNEL, f"{self._sender} {table_id} {version}")
        except Exception:  # the news is only a hint; the database holds the truth
            log.warning("could not publish to Redis", exc_info=True)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._redis.aclose()


def make_broker(redis_url: str | None) -> Broker:
    return RedisBroker(redis_url) if redis_url else LocalBroker()
