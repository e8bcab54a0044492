"""Three levels for people to play against: easy, medium and hard.

Each level is a configured bot, chosen so that the levels are clearly apart and the
slowest stays pleasant at a table: ``easy`` follows the heuristic bot but plays a random
legal move one time in three (it blunders as a beginner does); ``medium`` is IS-MCTS
with 300 iterations a decision (capped at half a second); ``hard`` is IS-MCTS with up
to 5000 iterations, stopped after 0.9 seconds so that a decision never takes more than
about a second on a modest machine. ``medium`` is reproducible from its seed wherever it
finishes its iterations in time; ``hard`` is usually bounded by the clock, so two runs
of the same match may differ.
"""

from __future__ import annotations

import random

from necropolis.bots.heuristic import HeuristicBot
from necropolis.bots.ismcts import ISMCTSBot
from necropolis.engine.seat import SeatWindow

#: How often the easy bot ignores its heuristic and plays any legal move.
EASY_BLUNDER_RATE = 1 / 3


class EasyBot:
    """The heuristic bot, with a random move one time in three."""

    name = "easy"

    def __init__(self) -> None:
        self._heuristic = HeuristicBot(worlds=2, max_rollouts=16, name=self.name)

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        if rng.random() < EASY_BLUNDER_RATE:
            actions = window.legal_actions()
            return actions[rng.randrange(len(actions))]
        return self._heuristic.choose(window, rng)


def medium() -> ISMCTSBot:
    """IS-MCTS, 300 iterations a decision, at most half a second."""
    return ISMCTSBot(iterations=300, seconds=0.5, name="medium")


def hard() -> ISMCTSBot:
    """IS-MCTS, up to 5000 iterations a decision, at most 0.9 seconds."""
    return ISMCTSBot(iterations=5000, seconds=0.9, name="hard")
