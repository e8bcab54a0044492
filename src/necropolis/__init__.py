"""necropolis: the digital edition of three Egyptian tomb board games.

>>> import necropolis
>>> "luxor2001" in necropolis.games()
True
>>> game = necropolis.load_game("luxor2001", players=3)
>>> state = game.new_initial_state()
>>> state.current_player() == necropolis.CHANCE
True
"""

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
    load_match,
    play_match,
)
from necropolis.games import load_game

__version__ = "0.1.0"


def games() -> list[str]:
    """The ids of the games this installation can load, sorted."""
    from necropolis.games import game_ids

    return list(game_ids())


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
