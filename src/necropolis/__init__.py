"""necropolis: the digital edition of three Egyptian tomb board games.

>>> import necropolis
>>> "luxor2001" in necropolis.games()
True
>>> game = necropolis.load_game("luxor2001", players=3)
>>> state = game.new_initial_state()
>>> state.current_player() == necropolis.CHANCE
True

This package is the facade over every layer: :func:`load_match` here replays a saved
match through the game registry (the kernel's own takes the loader as an argument).
"""

from pathlib import Path

from necropolis.engine import (
    CHANCE,
    TERMINAL,
    Game,
    HiddenHistoryError,
    IllegalActionError,
    MatchRecord,
    MatchRecordError,
    NecropolisError,
    OptionError,
    State,
    UnknownGameError,
    play_match,
)
from necropolis.engine import load_match as _load_match
from necropolis.games import load_game

__version__ = "0.1.0"


def games() -> list[str]:
    """The ids of the games this installation can load, sorted."""
    from necropolis.games import game_ids

    return list(game_ids())


def load_match(path: str | Path) -> MatchRecord:
    """Read a saved match of an installed game and check that it replays."""
    return _load_match(path, load_game)


__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "HiddenHistoryError",
    "IllegalActionError",
    "MatchRecord",
    "MatchRecordError",
    "NecropolisError",
    "OptionError",
    "State",
    "UnknownGameError",
    "games",
    "load_game",
    "load_match",
    "play_match",
]
