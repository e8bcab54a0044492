"""``necropolis serve`` (the web table) and ``necropolis db upgrade`` (its schema).

``serve`` binds its socket first, so that ``--port 0`` can name the port the system
chose, then runs the table server under uvicorn and prints its address once the database
is migrated and the tables in play are loaded.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from pathlib import Path
from typing import Annotated

import typer

from necropolis.cli.common import fail

DB_HELP = (
    "database URL: sqlite:///PATH or postgresql+psycopg://USER@HOST/DB"
    " (default: a SQLite file in the data directory)"
)
DATA_HELP = "folder of the default SQLite database"


def _db_url(db: str | None, data_dir: Path) -> str:
    from necropolis.server.db import default_url

    return db or default_url(data_dir)


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on (0: any free port)")] = 8000,
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
    redis: Annotated[
        str | None,
        typer.Option(help="Redis URL, when several server processes share the tables"),
    ] = None,
    data_dir: Annotated[Path, typer.Option(help=DATA_HELP)] = Path("data"),
    bot_workers: Annotated[
        int, typer.Option(min=1, max=64, help="worker processes in which bots think")
    ] = 2,
) -> None:
    """Serve the web table: people play in a browser, against each other or bots."""
    import uvicorn

    from necropolis.server.app import Settings, create_app

    url = _db_url(db, data_dir)
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host

    def ready() -> None:
        print(f"necropolis table at http://{shown}:{bound}", flush=True)

    settings = Settings(db_url=url, redis_url=redis, bot_workers=bot_workers, host=host, port=bound)
    settings.on_ready.append(ready)
    # Another build of the front-end than the packaged one (its developers, and tests).
    static = os.environ.get("NECROPOLIS_STATIC_DIR")
    if static:
        settings.static_dir = Path(static)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    config = uvicorn.Config(
        create_app(settings),
        log_level="warning",
        # Larger frames are cut by the WebSocket layer; up to this size the server
        # answers a message over 4 KiB with a clear refusal.
        ws_max_size=65536,
        # No permessage-deflate: a state message is 3-5 KB of JSON (about 1 KB deflated),
        # and deflating every message for every connection cost the event loop CPU that
        # a few KB per action on the wire does not repay (scripts/bench_table.py at 1,000
        # connections: 4% less server CPU per action without it, and less in each client).
        ws_per_message_deflate=False,
        lifespan="on",
    )
    uvicorn.Server(config).run(sockets=[sock])


db_app = typer.Typer(help="The table server's database.", no_args_is_help=True)


@db_app.command("upgrade")
def upgrade(
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
    data_dir: Annotated[Path, typer.Option(help=DATA_HELP)] = Path("data"),
) -> None:
    """Bring the database to the newest schema (the server also does this at start)."""
    from necropolis.server.db import upgrade as run_upgrade

    url = _db_url(db, data_dir)
    try:
        run_upgrade(url)
    except Exception as exc:
        raise fail(f"could not upgrade the database: {type(exc).__name__}: {exc}") from None
    print("the database is up to date")
