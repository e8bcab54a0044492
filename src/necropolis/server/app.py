"""The ASGI application: settings, lifespan, middleware, and the routers put together.

:func:`create_app` builds a FastAPI application from :class:`Settings`; its lifespan
migrates the database, loads the tables in play (driving on any whose turn belongs to
chance or a bot) and starts the broker. The routes live in :mod:`necropolis.server.routes`,
one router per resource, and reach the service through ``app.state``. Every error leaves
as ``{"error": {"code", "message"}}`` with a plain sentence, never a traceback or SQL
(:mod:`necropolis.server.errors`); while the database fails, requests that need it answer
503 ``unavailable`` and the WebSocket refuses with ``unavailable``, keeping the connection
open.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware

from necropolis.server import db
from necropolis.server.broker import CHANNEL, make_bus
from necropolis.server.collector import keep_collecting
from necropolis.server.errors import add_handlers
from necropolis.server.mail import MailSettings
from necropolis.server.middleware import BodyLimit
from necropolis.server.models import PROTOCOL
from necropolis.server.notices import Notices
from necropolis.server.routes import (
    accounts,
    analysis,
    chat,
    clocks,
    front,
    games,
    lobby,
    notices,
    ratings,
    socket,
    tables,
)
from necropolis.server.routes.front import STATIC
from necropolis.server.service import Tables

#: Responses smaller than this travel as they are: gzip's framing would eat the gain.
GZIP_MINIMUM = 500


@dataclass
class Settings:
    """How to run: the database, the broker, the bot pool, the address (for messages)."""

    db_url: str
    redis_url: str | None = None
    #: The Redis channel of this deployment's news (one per deployment sharing a Redis).
    redis_channel: str = CHANNEL
    bot_workers: int = 2
    host: str = "127.0.0.1"
    port: int = 8000
    #: The built front-end (``index.html`` and its assets).
    static_dir: Path = STATIC
    #: Open WebSocket connections allowed per table (in this process) and per client
    #: address (all tables; behind a proxy, the address it forwards); 0: no limit.
    max_table_connections: int = 100
    max_address_connections: int = 200
    #: The SMTP server that mails players whose turn waited (None: no mail).
    mail: MailSettings | None = None
    #: Called once the server is ready (the CLI prints its address).
    on_ready: list[Any] = field(default_factory=list)
    #: The folder in which the processes of ``serve --workers N`` find each other when
    #: there is no Redis (:class:`~necropolis.server.broker.PeerBus`).
    peers_dir: Path | None = None


def create_app(settings: Settings) -> FastAPI:
    """The table server as an ASGI application."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(db.upgrade, settings.db_url)
        engine = db.make_engine(settings.db_url)
        # One bus to the other processes (when there are any) carries the tables' news,
        # the turns and the chat; each registers its kind, then the bus starts hearing.
        bus = make_bus(settings.redis_url, settings.redis_channel, settings.peers_dir)
        # Your-turn notices hear of every table this process moves on through the broker.
        told = Notices(settings, bus)
        service = Tables(db.Store(engine), told.broker(), settings.bot_workers)
        await service.start()
        app.state.tables = service
        await told.start(service)
        app.state.notices = told
        await bus.start()
        app.state.addresses = Counter[str]()
        # The garbage collector kept from pausing every table at once (collector.py).
        collecting = asyncio.create_task(keep_collecting(), name="collector")
        for ready in settings.on_ready:
            ready()
        try:
            yield
        finally:
            collecting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await collecting
            await told.close()
            await service.close()
            await bus.close()
            service.store.close()
            engine.dispose()

    app = FastAPI(
        title="necropolis table",
        version=str(PROTOCOL),
        description="The table server of necropolis; the protocol is docs/protocol.md.",
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.add_middleware(BodyLimit)
    # Starlette's middleware compresses what the page and the API send over HTTP (the
    # WebSocket is left alone: its state messages are small, see docs/protocol.md).
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM)
    # In this order: the front-end's route answers every path, so it comes last.
    routers = (
        accounts,
        chat,
        ratings,
        notices,
        clocks,
        games,
        lobby,
        tables,
        analysis,
        socket,
        front,
    )
    for routes in routers:
        app.include_router(routes.router)
    add_handlers(app)
    return app
