"""Three levels for people to play against: easy, medium and hard.

Each level is a configured bot, chosen so that each beats the one below it clearly but
not always (issue #20 asks 65-80% of two-player matches) and the slowest stays pleasant
at a table. ``easy`` and ``medium`` follow the game's strategy for the levels
(:meth:`~necropolis.engine.protocol.Game.level_policy`: the heuristic bot's, or a tuning
of it that beats the heuristic where a game has one) but play a random legal move at a
rate the game sets (:attr:`~necropolis.engine.protocol.Game.easy_blunder_rate`,
:attr:`~necropolis.engine.protocol.Game.medium_blunder_rate`): they blunder as a
beginner and as a club player do, and the rates space them, measured per game
(``docs/strength.md``, "Levels"). ``hard`` is IS-MCTS (a game whose iterations are cheap
may give it more of them: ``Game.hard_iterations``): rollouts cut off after
:data:`HARD_CUTOFF` actions (then the game's estimate of the position is backed up) and
exploration :data:`HARD_EXPLORATION`, both chosen by measurement, and anchored to the
same strategy by the margin the game sets (``Game.search_anchor``; none by default,
so the search alone decides).

Hard's budget is an iteration count, so that a tournament replays exactly from its seed;
a clock caps it as well (:data:`HARD_SECONDS`), so that a loaded machine cannot make
anyone wait more than about a second. Where the clock ends a search before its
iterations (a busy or slower machine, a long turn), two runs of the same match may
differ; ``docs/strength.md`` gives the measured decision times per game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from enum import StrEnum

from necropolis.bots.heuristic import HeuristicBot
from necropolis.bots.ismcts import ISMCTSBot
from necropolis.engine.driver import Player
from necropolis.engine.protocol import Game
from necropolis.engine.seat import SeatWindow


class Level(StrEnum):
    """The levels people play against, weakest first: the one list of their names, which
    the bots' registry, the server's protocol (and through it the page's types), the
    terminal and the reports all read."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


#: The level of a bot seat when none is said (a table's bot, a clock's stand-in).
DEFAULT_LEVEL = Level.MEDIUM

#: Rollout actions before the game's estimate takes over (hard, and research searches).
HARD_CUTOFF = 10
#: The UCB exploration constant of hard.
HARD_EXPLORATION = 0.7
#: Iterations a decision of hard, and its clock cap. The cap is checked between
#: iterations, and a busy machine can pause the process anywhere, so it sits a tenth of
#: a second below the promised second (with 1.0, decisions on a loaded two-core machine
#: took up to 1.09 s).
HARD_ITERATIONS = 1000
HARD_SECONDS = 0.9


class BlunderingBot:
    """The game's strategy for the levels (:meth:`Game.level_policy`: its heuristic, or a
    tuning of it that beats the heuristic), with a random legal move at the rate the game
    sets for a level.

    The rate is read from the game of each decision, so one bot serves every game. The
    generator is drawn once per decision before anything else, so a level replays
    exactly from its seed.
    """

    def __init__(self, name: str, rate: Callable[[Game], float]) -> None:
        self.name = name
        self._rate = rate
        self._heuristic = HeuristicBot(worlds=2, max_rollouts=16, name=name)

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        if rng.random() < self._rate(window.game):
            actions = window.legal_actions()
            return actions[rng.randrange(len(actions))]
        policy = window.game.level_policy()
        if policy is not None:
            return policy(window, rng)
        return self._heuristic.choose(window, rng)  # a game without a strategy of its own


def easy() -> BlunderingBot:
    """The heuristic with a random move at the game's easy rate (a third unless set)."""
    return BlunderingBot(Level.EASY, lambda game: game.easy_blunder_rate)


def medium() -> BlunderingBot:
    """The heuristic with a random move at the game's medium rate."""
    return BlunderingBot(Level.MEDIUM, lambda game: game.medium_blunder_rate)


def hard() -> ISMCTSBot:
    """IS-MCTS with cut-off rollouts, 1000 iterations a decision (or the game's
    :attr:`~necropolis.engine.protocol.Game.hard_iterations`), at most 0.9 seconds."""
    return ISMCTSBot(
        iterations=HARD_ITERATIONS,
        seconds=HARD_SECONDS,
        exploration=HARD_EXPLORATION,
        cutoff=HARD_CUTOFF,
        anchor="game",
        name=Level.HARD,
        game_iterations=True,
    )


#: Each level's bot, by the level's name (every :class:`Level`, a test holds it to that).
LEVEL_BOTS: dict[str, Callable[[], Player]] = {
    Level.EASY: easy,
    Level.MEDIUM: medium,
    Level.HARD: hard,
}
