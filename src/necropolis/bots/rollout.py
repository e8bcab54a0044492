"""Turn rollouts: judge each move by playing it a round on with the game's turn planner.

A bot for games whose turns are several decisions and whose heuristic plans a turn whole
(luxor: a card, an adventurer, how far, a tile's choice). A tree search of a thousand
iterations barely reaches the end of such a turn; this bot spends its time the other way
round. It draws worlds consistent with the seat's window (:meth:`SeatWindow.resample`,
never the true state) and, in each world, applies every legal move in turn and plays on
with the game's :class:`~necropolis.engine.protocol.TurnPlanner`: the rest of the seat's
own turn, then every other seat's turn, each planned whole by the seat that takes it
(dice and draws sampled), until the searching seat's next turn begins. There the
planner's :meth:`~necropolis.engine.protocol.TurnPlanner.value` judges the position from
that seat's side, which includes the best the seat can do with the hand it then holds.
The move with the best mean over the worlds is played.

What it adds to the heuristic is the other seats' answer: a treasure that the heuristic
counts as half won is worth less if the next seat takes it first, a card kept for the
next turn is worth less if the way it was kept for is closed by then. Every move is
played out in the same worlds with the same dice (common random numbers), so the
comparison between moves is not blurred by luck that none of them controls; the rolls
and draws still differ from world to world.

A game without a planner is played on with its cheap :meth:`State.rollout_action` and
judged by its :meth:`State.estimate_returns`, so the bot plays every game (a policy
rollout of the game's default policy), though it is meant for the games that have one.
The budget is a number of worlds, so that a match replays from its seed, with a clock
cap checked between worlds.
"""

from __future__ import annotations

import math
import random
import time

from necropolis.engine.driver import sample_chance
from necropolis.engine.protocol import CHANCE, TERMINAL, State, TurnPlanner
from necropolis.engine.seat import SeatWindow


class RolloutStats:
    """What the last decision did: worlds drawn, time, and each move's mean value."""

    __slots__ = ("means", "seconds", "worlds")

    def __init__(self) -> None:
        self.worlds = 0
        self.seconds = 0.0
        self.means: dict[int, float] = {}


class RolloutBot:
    """Each legal move played a round on in ``worlds`` drawn worlds; the best mean wins.

    ``seconds`` (None: no clock) caps a decision; it is checked between worlds, and at
    least one world is always played. A decision with one legal action is played at once.
    """

    def __init__(
        self, worlds: int = 64, seconds: float | None = None, name: str = "rollout"
    ) -> None:
        if worlds < 1:
            raise ValueError("turn rollouts need at least one world")
        self.worlds = worlds
        self.seconds = seconds
        self.name = name
        self.last = RolloutStats()

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        legal = window.legal_actions()
        stats = self.last = RolloutStats()
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds is not None else math.inf
        seat = window.seat
        planner = window.game.turn_planner()
        totals = [0.0] * len(legal)
        drawn = 0
        while drawn < self.worlds:
            if drawn and time.perf_counter() >= deadline:
                break
            world = window.resample(rng)
            # One seed per world, the same for every move: common random numbers.
            seed = rng.getrandbits(64)
            for i, action in enumerate(legal):
                played = world.clone()
                played.apply_legal_action(action)
                totals[i] += _round_on(played, seat, planner, random.Random(seed))
            drawn += 1
        stats.worlds = drawn
        stats.seconds = time.perf_counter() - start
        best = 0
        for i, action in enumerate(legal):
            stats.means[action] = totals[i] / drawn
            if totals[i] > totals[best]:
                best = i  # the first of equal means: the lowest action id
        return legal[best]


def _round_on(world: State, seat: int, planner: TurnPlanner | None, rng: random.Random) -> float:
    """Play ``world`` on until ``seat``'s next turn begins (or the end); judge it for ``seat``.

    A turn ends where the deciding seat changes, so the round is over when the decision
    comes back to ``seat`` from another seat.
    """
    mover = seat
    while True:
        player = world.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            world.apply_legal_action(sample_chance(world, rng))
            continue
        if player != mover:
            mover = player
            if player == seat:
                break
        if planner is None:
            world.apply_legal_action(world.rollout_action(rng))
        else:
            world.apply_legal_action(planner.act(world, rng))
    if planner is None:
        return world.estimate_returns()[seat]
    return planner.value(world, seat)


__all__ = ["RolloutBot", "RolloutStats"]
