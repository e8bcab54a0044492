"""The game packages, and the registry that finds them.

Each subpackage of ``necropolis.games`` is one game. It exposes its
:class:`~necropolis.engine.protocol.Game` subclass as ``GAME`` in its ``__init__``; the
registry finds packages by scanning this folder, so a new game needs no line anywhere
else. Packages are imported only when a game is asked for.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from necropolis.engine.errors import UnknownGameError
from necropolis.engine.protocol import Game


@cache
def game_ids() -> tuple[str, ...]:
    """The ids of every game package, sorted."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))


def game_class(game_id: str) -> type[Game]:
    """The Game subclass of ``game_id``."""
    if game_id not in game_ids():
        known = ", ".join(game_ids()) or "none"
        raise UnknownGameError(f"no game called {game_id!r}; the games are: {known}")
    module = importlib.import_module(f"{__name__}.{game_id}")
    cls: type[Game] = module.GAME
    return cls


def load_game(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` with ``options`` (keywords; unknown or bad ones raise)."""
    return game_class(game_id)(**options)
