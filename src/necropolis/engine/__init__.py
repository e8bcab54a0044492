"""The engine kernel: the state protocol, options, errors, the match record and driver.

It knows no game. Games subclass :class:`Game` and :class:`State`; everything above the
games (bots, adapters, the server, the command line) speaks only this protocol.
"""

from necropolis.engine.driver import play_match, sample_chance
from necropolis.engine.errors import (
    HiddenHistoryError,
    IllegalActionError,
    MatchRecordError,
    NecropolisError,
    OptionError,
    UnknownGameError,
)
from necropolis.engine.options import Option
from necropolis.engine.protocol import CHANCE, TERMINAL, Game, State, View, winners_share
from necropolis.engine.record import GameLoader, MatchRecord, load_match
from necropolis.engine.seat import SeatWindow

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "GameLoader",
    "HiddenHistoryError",
    "IllegalActionError",
    "MatchRecord",
    "MatchRecordError",
    "NecropolisError",
    "Option",
    "OptionError",
    "SeatWindow",
    "State",
    "UnknownGameError",
    "View",
    "load_match",
    "play_match",
    "sample_chance",
    "winners_share",
]
