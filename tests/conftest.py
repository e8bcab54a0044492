"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from necropolis.engine.protocol import Game
from necropolis.games import register, unregister
from tests.engine.toy import HighCard

# Real PostgreSQL and Redis for the server tests: fixtures postgres_url, redis_url.
pytest_plugins = ["tests.realservers"]


@pytest.fixture
def toy_registry() -> Iterator[type[Game]]:
    """Make the toy game loadable by id, as an installed game would be."""
    register(HighCard)
    yield HighCard
    unregister(HighCard.id)
