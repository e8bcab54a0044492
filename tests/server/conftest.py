"""Fixtures of the table server's tests: a database URL for each storage, fresh per test.

``db_url`` is parametrized over SQLite (a file in the test's temporary folder) and
PostgreSQL (a new database on the server that ``NECROPOLIS_TEST_POSTGRES_URL`` names,
by default the machine's own, dropped afterwards). ``sqlite_url`` is SQLite alone, for
tests whose point is not the storage.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def postgres_base() -> str:
    return os.environ.get("NECROPOLIS_TEST_POSTGRES_URL", DEFAULT_POSTGRES)


@pytest.fixture
def fresh_postgres_url() -> Iterator[str]:
    """A new, empty PostgreSQL database, dropped after the test."""
    import psycopg

    base = make_url(postgres_base())
    name = f"necropolis_{secrets.token_hex(6)}"
    admin = base.set(drivername="postgresql", database="postgres")
    conninfo = admin.render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(conninfo, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each storage the server supports, fresh for the test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    else:
        yield request.getfixturevalue("fresh_postgres_url")
