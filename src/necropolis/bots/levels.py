"""Three levels for people to play against: easy, medium and hard.

Each level is a configured bot, chosen so that the levels are clearly apart and the
slowest stays pleasant at a table. ``easy`` follows the heuristic bot but plays a random
legal move one time in three (it blunders as a beginner does). ``medium`` and ``hard``
are IS-MCTS with the same settings and different budgets (a game whose iterations are
cheap may give hard more of them: ``Game.hard_iterations``): rollouts cut off after
:data:`HARD_CUTOFF` actions (then the game's estimate of the position is backed up) and
exploration :data:`HARD_EXPLORATION`, both chosen by measurement (``docs/strength.md``),
and anchored to the game's heuristic by the margin the game sets (``Game.search_anchor``;
none by default, so the search alone decides).

The budgets are iteration counts, so that a tournament replays exactly from its seed; a
clock caps each as well (``hard`` at :data:`HARD_SECONDS`), so that a loaded machine
cannot make anyone wait more than about a second. Where the clock ends a search before
its iterations (a busy or slower machine, a long turn), two runs of the same match may
differ; ``docs/strength.md`` gives the measured decision times per game.
"""

from __future__ import annotations

import random

from necropolis.bots.heuristic import HeuristicBot
from necropolis.bots.ismcts import ISMCTSBot
from necropolis.engine.seat import SeatWindow

#: How often the easy bot ignores its heuristic and plays any legal move.
EASY_BLUNDER_RATE = 1 / 3
#: Rollout actions before the game's estimate takes over (medium and hard).
HARD_CUTOFF = 10
#: The UCB exploration constant of medium and hard.
HARD_EXPLORATION = 0.7
#: Iterations a decision of medium, and its clock cap.
MEDIUM_ITERATIONS = 200
MEDIUM_SECONDS = 0.5
#: Iterations a decision of hard, and its clock cap. The cap is checked between
#: iterations, and a busy machine can pause the process anywhere, so it sits a tenth of
#: a second below the promised second (with 1.0, decisions on a loaded two-core machine
#: took up to 1.09 s).
HARD_ITERATIONS = 1000
HARD_SECONDS = 0.9


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


def _searcher(iterations: int, seconds: float, name: str, per_game: bool = False) -> ISMCTSBot:
    """The search medium and hard share; only the budget differs."""
    return ISMCTSBot(
        iterations=iterations,
        seconds=seconds,
        exploration=HARD_EXPLORATION,
        cutoff=HARD_CUTOFF,
        anchor="game",
        name=name,
        game_iterations=per_game,
    )


def medium() -> ISMCTSBot:
    """IS-MCTS with cut-off rollouts, 200 iterations a decision, at most half a second."""
    return _searcher(MEDIUM_ITERATIONS, MEDIUM_SECONDS, "medium")


def hard() -> ISMCTSBot:
    """IS-MCTS with cut-off rollouts, 1000 iterations a decision (or the game's
    :attr:`~necropolis.engine.protocol.Game.hard_iterations`), at most 0.9 seconds."""
    return _searcher(HARD_ITERATIONS, HARD_SECONDS, "hard", per_game=True)
