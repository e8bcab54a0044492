"""Three levels for people to play against: easy, medium and hard.

Each level is a configured bot, chosen so that the levels are clearly apart and the
slowest stays pleasant at a table. ``easy`` follows the heuristic bot but plays a random
legal move one time in three (it blunders as a beginner does). ``medium`` and ``hard``
are IS-MCTS with the same settings and different budgets (a game whose iterations are
cheap may give hard more of them: ``Game.hard_iterations``), except that where a game
plans whole turns (``Game.turn_planner``) hard plays turn rollouts instead
(:class:`~necropolis.bots.rollout.RolloutBot`, :data:`HARD_WORLDS` worlds a decision):
there a search of a thousand iterations barely reaches the end of the turn, and the
rollouts measured stronger (``docs/strength.md``). The searches' rollouts are cut off after
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
from necropolis.bots.rollout import RolloutBot
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
#: Worlds a decision of hard's turn rollouts, in a game with a turn planner (capped by
#: the same clock). In luxor 48 and 96 worlds won 38 and 40 of the same 60 matches
#: against the heuristic; 64 keeps a decision near half a second.
HARD_WORLDS = 64


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


class HardBot:
    """Turn rollouts in a game with a turn planner, IS-MCTS in the others."""

    name = "hard"

    def __init__(self) -> None:
        #: IS-MCTS with cut-off rollouts, 1000 iterations a decision (or the game's
        #: :attr:`~necropolis.engine.protocol.Game.hard_iterations`), at most 0.9 s.
        self.search = _searcher(HARD_ITERATIONS, HARD_SECONDS, "hard", per_game=True)
        #: :data:`HARD_WORLDS` worlds played a round on, at most 0.9 s.
        self.rollouts = RolloutBot(HARD_WORLDS, HARD_SECONDS, "hard")

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        if window.game.turn_planner() is not None:
            return self.rollouts.choose(window, rng)
        return self.search.choose(window, rng)


def hard() -> HardBot:
    """The strongest level: turn rollouts or IS-MCTS, whichever the game plays better."""
    return HardBot()
