"""Bots: players that decide from a seat's window (view, legal actions, resampling).

Bots never see a state in play, only a :class:`~necropolis.engine.seat.SeatWindow`. The
registry maps the names used on the command line to factories: ``random`` (uniform),
``heuristic`` (the game's strategy, or one-ply Monte Carlo), ``ismcts`` (IS-MCTS with a
fixed 1000 iterations, reproducible for research), ``rollout`` (turn rollouts over 64
worlds a decision, no clock, likewise), ``plans`` (the heuristic's six best plans for
the turn, each played a round on in 128 worlds, no clock, likewise), and the levels for
people (:class:`~necropolis.bots.levels.Level`: ``easy``, ``medium`` and ``hard``).
"""

from __future__ import annotations

from collections.abc import Callable

from necropolis.bots.heuristic import HeuristicBot, one_ply_monte_carlo
from necropolis.bots.ismcts import ISMCTSBot
from necropolis.bots.levels import LEVEL_BOTS, BlunderingBot, Level
from necropolis.bots.plans import PlanBot
from necropolis.bots.random_bot import RandomBot
from necropolis.bots.rollout import RolloutBot
from necropolis.engine.driver import Player

BOTS: dict[str, Callable[[], Player]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "ismcts": ISMCTSBot,
    "rollout": RolloutBot,
    "plans": PlanBot,
    **LEVEL_BOTS,
}


def make_bot(name: str) -> Player:
    """A new bot by its command-line name."""
    try:
        return BOTS[name]()
    except KeyError:
        known = ", ".join(sorted(BOTS))
        raise ValueError(f"no bot called {name!r}; the bots are: {known}") from None


__all__ = [
    "BOTS",
    "BlunderingBot",
    "HeuristicBot",
    "ISMCTSBot",
    "Level",
    "PlanBot",
    "RandomBot",
    "RolloutBot",
    "make_bot",
    "one_ply_monte_carlo",
]
