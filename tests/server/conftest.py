"""Fixtures of the table server's tests: a database URL for each storage, fresh per test.

``db_url`` is parametrized over SQLite (a file in the test's temporary folder) and
PostgreSQL (``fresh_postgres_url`` of ``tests.realservers``: a new database on the server
that ``NECROPOLIS_TEST_POSTGRES_URL`` names, or on a throwaway one this run started,
dropped afterwards). ``sqlite_url`` is SQLite alone, for tests whose point is not the
storage.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


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
