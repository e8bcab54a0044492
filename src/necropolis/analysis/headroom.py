"""Research contenders that measure headroom: what more search, and what knowing the
hidden state, would add to the hard level. None of them is a level: they are not in
:data:`necropolis.bots.BOTS`, so neither the server nor ``necropolis play`` can seat
them; only the strength harness (:mod:`necropolis.analysis.duel`, ``necropolis
strength``) plays them.

- ``hard-unclocked``: hard's own search (its iterations, the game's ``hard_iterations``
  where it sets them, its cutoff, exploration and anchor) without its clock, so that a
  result replays whatever the machine's load: the hard of the measurements of record.
- ``hard-10x``: the same with ten times the iterations.
- ``oracle``: **a research oracle, which cheats.** Hard's search (as ``hard-unclocked``)
  told the hidden state: every determinization it would draw from the seat's window is
  the true state instead (the other seats' hands, the face-down tiles and cards), and
  the strategy its anchor asks is told the same. What is still to come stays unknown:
  the engine draws every die and card at its own chance node, so a state holds no future
  outcome, and the search samples those as always. Against the heuristic on the same
  deals as hard, it shows what knowing the hidden things is worth to this search.
- ``clairvoyant``: **a research oracle that cheats more**: the oracle told also the coming
  draws. The strength harness plays every chance node of a deal from streams of its own
  (:class:`~necropolis.analysis.duel.DuplicateChance`) and hands this bot, and only it,
  a twin of them at each decision, so every iteration of its search meets the dice and
  cards the match itself would deal along that line of play. It still does not know the
  other seats' moves. What it wins against the heuristic bounds what any search of this
  kind could win by judging chance better; it needs the harness (elsewhere it plays as
  the oracle).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from necropolis.bots.ismcts import ISMCTSBot
from necropolis.bots.levels import HARD_CUTOFF, HARD_EXPLORATION, HARD_ITERATIONS
from necropolis.engine.driver import Player
from necropolis.engine.protocol import State
from necropolis.engine.seat import SeatWindow

if TYPE_CHECKING:
    from necropolis.analysis.duel import DuplicateChance


class HardSearch(ISMCTSBot):
    """Hard's search with ``scale`` times its iterations and no clock (anchored as the
    game says, unless a research variant names another ``anchor``)."""

    def __init__(
        self,
        scale: float = 1,
        name: str = "hard-unclocked",
        anchor: float | Literal["game"] = "game",
    ) -> None:
        super().__init__(
            iterations=HARD_ITERATIONS,
            seconds=None,
            exploration=HARD_EXPLORATION,
            cutoff=HARD_CUTOFF,
            anchor=anchor,
            name=name,
        )
        self.scale = scale

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        # The game may give hard more iterations than the default; scale those.
        base = window.game.hard_iterations or HARD_ITERATIONS
        self.iterations = max(1, round(self.scale * base))
        return super().choose(window, rng)


class _ToldWindow(SeatWindow):
    """A seat's window whose every determinization is the true state (the oracle's)."""

    __slots__ = ()

    def resample(self, rng: random.Random) -> State:
        return self._state.clone()


class OracleBot(HardSearch):
    """A research oracle: hard's search told the hidden state (see the module)."""

    def __init__(self, scale: float = 1, name: str = "oracle") -> None:
        super().__init__(scale, name)

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        # The one place a player reads past its seat's view, on purpose: the window's
        # state is the match's true state.
        told = _ToldWindow(window._state, window.seat)
        return super().choose(told, rng)


class ClairvoyantBot(OracleBot):
    """A research oracle told the hidden state and the coming draws (see the module)."""

    def __init__(self, scale: float = 1, name: str = "clairvoyant") -> None:
        super().__init__(scale, name)
        self._chance: DuplicateChance | None = None
        self._now: DuplicateChance | None = None

    def foresee(self, chance: DuplicateChance) -> None:
        """Be told the match's chance: the harness calls this before the match starts."""
        self._chance = chance

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        # Where the match's own streams stand now; each iteration draws on a twin of it,
        # so every line the search plays meets what the match would deal on that line.
        self._now = None if self._chance is None else self._chance.copy()
        return super().choose(window, rng)

    def _future(self) -> Callable[[State], int] | None:
        return None if self._now is None else self._now.copy()


def hard_unclocked() -> Player:
    return HardSearch(1, "hard-unclocked")


def hard_10x() -> Player:
    return HardSearch(10, "hard-10x")


def oracle() -> Player:
    return OracleBot(1, "oracle")


def clairvoyant() -> Player:
    return ClairvoyantBot(1, "clairvoyant")


#: The research contenders by name, for :func:`necropolis.analysis.duel.contender`.
RESEARCH: dict[str, Callable[[], Player]] = {
    "hard-unclocked": hard_unclocked,
    "hard-10x": hard_10x,
    "oracle": oracle,
    "clairvoyant": clairvoyant,
}
