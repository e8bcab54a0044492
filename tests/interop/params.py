"""The (game, players) parameters the adapter tests run over: the toy game and every game."""

from __future__ import annotations

from typing import Any

import pytest

import necropolis
from necropolis.games import game_class
from tests.engine.toy import HighCard


def player_counts() -> list[Any]:
    """The toy game at 2–4 players, then every installed game at each player count."""
    params = [pytest.param(HighCard.id, n, id=f"{HighCard.id}-{n}") for n in (2, 3, 4)]
    for game_id in necropolis.games():
        cls = game_class(game_id)
        for n in range(cls.min_players, cls.max_players + 1):
            params.append(pytest.param(game_id, n, id=f"{game_id}-{n}"))
    return params
