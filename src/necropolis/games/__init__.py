"""The game packages, and the registry that finds them.

Each subpackage of ``necropolis.games`` is one game. It exposes its
:class:`~necropolis.engine.protocol.Game` subclass as ``GAME`` in its ``__init__``; the
registry finds packages by scanning this folder, so a new game needs no line anywhere
else. Packages are imported only when a game is asked for. A game defined elsewhere (a
plugin, a test's toy game) joins the registry through :func:`register`.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from necropolis.engine.errors import UnknownGameError
from necropolis.engine.protocol import Game

_registered: dict[str, type[Game]] = {}


@cache
def _packaged() -> tuple[str, ...]:
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))


def game_ids() -> tuple[str, ...]:
    """The ids of every game, packaged or registered, sorted."""
    return tuple(sorted({*_packaged(), *_registered}))


def register(cls: type[Game]) -> None:
    """Make a Game subclass defined outside this package loadable by its id."""
    if cls.id in _packaged():
        raise ValueError(f"a packaged game is already called {cls.id!r}")
    _registered[cls.id] = cls


def unregister(game_id: str) -> None:
    """Forget a game added with :func:`register`."""
    _registered.pop(game_id, None)


def game_class(game_id: str) -> type[Game]:
    """The Game subclass of ``game_id``."""
    if game_id in _registered:
        return _registered[game_id]
    if game_id not in _packaged():
        known = ", ".join(game_ids()) or "none"
        raise UnknownGameError(f"no game called {game_id!r}; the games are: {known}")
    module = importlib.import_module(f"{__name__}.{game_id}")
    cls: type[Game] = module.GAME
    return cls


def load_game(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` with ``options`` (keywords; unknown or bad ones raise)."""
    return game_class(game_id)(**options)
