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
from typing import TYPE_CHECKING, Annotated, Any

import typer

from necropolis.cli.common import App, fail

if TYPE_CHECKING:
    from necropolis.server.mail import MailSettings

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
    redis_channel: Annotated[
        str | None,
        typer.Option(
            envvar="NECROPOLIS_REDIS_CHANNEL",
            help="the Redis channel of this deployment's news (default necropolis:tables):"
            " deployments that share a Redis each need their own",
        ),
    ] = None,
    data_dir: Annotated[Path, typer.Option(help=DATA_HELP)] = Path("data"),
    workers: Annotated[
        int,
        typer.Option(
            min=0,
            max=256,
            envvar="NECROPOLIS_WORKERS",
            help="server processes sharing the port and the tables (0: one per core);"
            " they tell each other what moved over --redis, else over local sockets."
            " 1 by default: a second process applies every move of a table watched from"
            " both again, from the database (scripts/bench_table.py on 2 cores: twice the"
            " CPU per action, and no higher rate at p99 < 50 ms), and presence and the"
            " connection and rate limits are counted per process",
        ),
    ] = 1,
    bot_workers: Annotated[
        int,
        typer.Option(
            min=1, max=64, help="worker processes in which bots think, per server process"
        ),
    ] = 2,
    max_table_connections: Annotated[
        int,
        typer.Option(
            min=0,
            envvar="NECROPOLIS_MAX_TABLE_CONNECTIONS",
            help="open WebSocket connections a table takes, spectators included (0: no limit)",
        ),
    ] = 100,
    max_address_connections: Annotated[
        int,
        typer.Option(
            min=0,
            envvar="NECROPOLIS_MAX_ADDRESS_CONNECTIONS",
            help="open WebSocket connections from one client address (0: no limit)",
        ),
    ] = 200,
    smtp_host: Annotated[
        str | None,
        typer.Option(
            envvar="NECROPOLIS_SMTP_HOST",
            help="SMTP server that mails players whose turn has waited (default: no mail)",
            rich_help_panel="Mail",
        ),
    ] = None,
    smtp_port: Annotated[
        int,
        typer.Option(envvar="NECROPOLIS_SMTP_PORT", help="its port", rich_help_panel="Mail"),
    ] = 587,
    smtp_security: Annotated[
        str,
        typer.Option(
            envvar="NECROPOLIS_SMTP_SECURITY",
            help="starttls, tls (from the first byte) or none (a relay on this machine)",
            rich_help_panel="Mail",
        ),
    ] = "starttls",
    smtp_user: Annotated[
        str | None,
        typer.Option(envvar="NECROPOLIS_SMTP_USER", help="SMTP user name", rich_help_panel="Mail"),
    ] = None,
    smtp_password: Annotated[
        str | None,
        typer.Option(
            envvar="NECROPOLIS_SMTP_PASSWORD",
            help="SMTP password (better given in the environment than on the command line)",
            rich_help_panel="Mail",
        ),
    ] = None,
    mail_from: Annotated[
        str | None,
        typer.Option(
            envvar="NECROPOLIS_MAIL_FROM",
            help="the mail's sender address (required with --smtp-host)",
            rich_help_panel="Mail",
        ),
    ] = None,
    mail_after: Annotated[
        float,
        typer.Option(
            min=1,
            envvar="NECROPOLIS_MAIL_AFTER",
            help="seconds a player's turn waits before they are mailed (once per turn)",
            rich_help_panel="Mail",
        ),
    ] = 3600,
    public_url: Annotated[
        str | None,
        typer.Option(
            envvar="NECROPOLIS_PUBLIC_URL",
            help="the address people open the page at, for links in mail"
            " (default http://HOST:PORT)",
            rich_help_panel="Mail",
        ),
    ] = None,
) -> None:
    """Serve the web table: people play in a browser, against each other or bots."""
    import uvicorn

    from necropolis.server.app import Settings, create_app
    from necropolis.server.broker import CHANNEL
    from necropolis.server.workers import default_workers
    from necropolis.server.workers import run as run_workers

    url = _db_url(db, data_dir)
    mail = _mail_settings(
        smtp_host,
        smtp_port,
        smtp_security,
        smtp_user,
        smtp_password,
        mail_from,
        mail_after,
        public_url,
    )
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

    settings = Settings(
        db_url=url,
        redis_url=redis,
        redis_channel=redis_channel or CHANNEL,
        bot_workers=bot_workers,
        max_table_connections=max_table_connections,
        max_address_connections=max_address_connections,
        host=host,
        port=bound,
        mail=mail,
    )
    settings.on_ready.append(ready)
    # Another build of the front-end than the packaged one (its developers, and tests).
    static = os.environ.get("NECROPOLIS_STATIC_DIR")
    if static:
        settings.static_dir = Path(static)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    options: dict[str, Any] = dict(
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
    processes = workers or default_workers()
    if processes > 1:
        run_workers(settings, sock, processes, options)
        return
    uvicorn.Server(uvicorn.Config(create_app(settings), **options)).run(sockets=[sock])


def _mail_settings(
    host: str | None,
    port: int,
    security: str,
    user: str | None,
    password: str | None,
    sender: str | None,
    after: float,
    public_url: str | None,
) -> MailSettings | None:
    """The mail settings of the options, or None without an SMTP host; a clear error for
    options that cannot work together."""
    from necropolis.server.mail import MailSettings, valid_address

    if not host:
        return None
    if security not in ("starttls", "tls", "none"):
        raise fail(f"--smtp-security is starttls, tls or none, not {security!r}")
    if not sender or valid_address(sender) is None:
        raise fail("--smtp-host needs --mail-from, the mail's sender address")
    if public_url is not None and not public_url.startswith(("http://", "https://")):
        raise fail("--public-url is an http:// or https:// address")
    return MailSettings(
        host=host,
        sender=sender,
        port=port,
        security=security,  # type: ignore[arg-type]
        user=user,
        password=password,
        after=after,
        public_url=public_url,
    )


db_app = App(help="The table server's database.", no_args_is_help=True)


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
