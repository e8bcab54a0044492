"""Turn rollouts: judge each move by playing it a round on with the game's turn planner.

A bot for games whose turns are several decisions and whose heuristic plans a turn whole
(a card, then a figure, then how far it goes, then what it takes). A tree search of a thousand
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

Measured as hard (64 worlds within the level's second, on a two-core machine) it came
out level with the IS-MCTS hard in the game with such turns, not above it, and far below
it in a game whose consequences come rounds later (``docs/strength.md``, "Turn
rollouts"), so it is no level: it is the registry's
``rollout``, for trying planners and values without touching the levels.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator

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

    ``seconds`` (None: no clock) caps a decision: no world is begun that would end past
    it if it took as long as the longest so far (a world plays every legal move, tens of
    milliseconds where a turn is long, so checking only that time is left would overrun
    the cap by as much). At least one world is always played. A decision with one legal
    action is played at once. ``clock`` is the clock the cap is read on. With a
    ``shortlist`` of k, only the k moves the planner values most in the first world are
    played out (all of them in a game without a planner): where a decision has many
    moves, the worlds go to the ones worth telling apart.
    """

    def __init__(
        self,
        worlds: int = 64,
        seconds: float | None = None,
        name: str = "rollout",
        clock: Callable[[], float] = time.perf_counter,
        shortlist: int | None = None,
    ) -> None:
        if worlds < 1:
            raise ValueError("turn rollouts need at least one world")
        self.worlds = worlds
        self.seconds = seconds
        self.name = name
        self.clock = clock
        self.shortlist = shortlist
        self.last = RolloutStats()

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        legal = window.legal_actions()
        stats = self.last = RolloutStats()
        if len(legal) == 1:
            return legal[0]
        clock = self.clock
        start = clock()
        deadline = start + self.seconds if self.seconds is not None else math.inf
        seat = window.seat
        planner = window.game.turn_planner()
        moves = legal
        totals = [0.0] * len(moves)
        drawn = 0
        for world, seed in drawn_worlds(window, rng, self.worlds, deadline, clock):
            if not drawn and self.shortlist is not None and planner is not None:
                moves = _shortlist(world, moves, seat, planner, self.shortlist)
                totals = [0.0] * len(moves)
            for i, action in enumerate(moves):
                played = world.clone()
                played.apply_legal_action(action)
                totals[i] += round_on(played, seat, planner, random.Random(seed))
            drawn += 1
        stats.worlds = drawn
        stats.seconds = clock() - start
        best = 0
        for i, action in enumerate(moves):
            stats.means[action] = totals[i] / drawn
            if totals[i] > totals[best]:
                best = i  # the first of equal means: the lowest action id
        return moves[best]


def drawn_worlds(
    window: SeatWindow,
    rng: random.Random,
    count: int,
    deadline: float,
    clock: Callable[[], float],
) -> Iterator[tuple[State, int]]:
    """Up to ``count`` worlds drawn from ``window``, each with a seed for the dice and
    draws played in it (one seed for every move played in a world: common random
    numbers, so that luck none of the moves controls does not blur their comparison).

    No world is begun that would end past ``deadline`` on ``clock`` if it took as long
    as the longest so far (the caller's work on a world counts: it runs between two
    draws); the first always is.
    """
    longest = 0.0  # the longest world so far: the next may take as long
    for drawn in range(count):
        began = clock()
        if drawn and began + longest >= deadline:
            return
        world = window.resample(rng)
        yield world, rng.getrandbits(64)
        longest = max(longest, clock() - began)


def _shortlist(
    world: State, legal: list[int], seat: int, planner: TurnPlanner, keep: int
) -> list[int]:
    """The ``keep`` moves the planner values most in ``world`` (in action order)."""
    if len(legal) <= keep:
        return legal
    worth = []
    for action in legal:
        child = world.clone()
        child.apply_legal_action(action)
        worth.append(planner.value(child, seat))
    ranked = sorted(range(len(legal)), key=lambda i: -worth[i])[:keep]
    return [legal[i] for i in sorted(ranked)]


def round_on(world: State, seat: int, planner: TurnPlanner | None, rng: random.Random) -> float:
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


__all__ = ["RolloutBot", "RolloutStats", "drawn_worlds", "round_on"]
