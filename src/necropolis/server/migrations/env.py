"""Alembic's entry point for the table server's schema migrations.

The server calls Alembic with an open connection (``config.attributes["connection"]``);
run by hand, Alembic connects to ``sqlalchemy.url``. On PostgreSQL a transaction-scoped
advisory lock keeps two server processes that start together from migrating at once.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine, text

from necropolis.server import accounts as _accounts  # noqa: F401 (its tables join the metadata)
from necropolis.server import chat as _chat  # noqa: F401 (likewise)
from necropolis.server import ratings as _ratings  # noqa: F401 (likewise)
from necropolis.server.db import metadata

#: An arbitrary fixed key for PostgreSQL's advisory lock on migrations.
MIGRATION_LOCK_KEY = 7_243_561_908


def _run(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})"))
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database: give sqlalchemy.url or a connection")
    engine = create_engine(url)
    with engine.begin() as connection:
        _run(connection)
    engine.dispose()


run()
