"""The judge: a seat's chance to win in a world, the one thing the analysis asks a game.

The explanation of a match and the hints weigh positions by a chance to win, and that
chance comes from one place: a :class:`Judge`, asked about a batch of worlds (whole
states drawn from one seat's window, or such worlds a few actions on) for one seat.
:func:`judge_for` picks a game's: its learned judgement where the game ships one for its
player count (:func:`necropolis.bots.judgement.evaluator`, which reads only the seat's
view of each world), else :class:`EstimateJudge`, the game's
:meth:`~necropolis.engine.protocol.State.estimate_returns`, the guess that the ``hard``
level's search backs up when it cuts its rollouts short. A better judgement replaces the
estimate there, with no change anywhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from necropolis.bots.judgement import (
    LearnedEvaluator,
    encode_views,
    evaluator,
    recalibration,
    to_move,
)
from necropolis.engine.protocol import Game, State


class Judge(Protocol):
    """Each world's chance that ``seat`` wins, as a number from 0 to 1.

    A world is a determinization drawn from ``seat``'s window (or one a few actions on),
    so a judge may read the whole of it: it holds nothing the seat could not have
    guessed. A shared win counts as its share; in a game that nobody may win the chances
    of the seats may add up to less than 1.
    """

    #: A short name for reports (``"estimate"``, ``"learned v3"``).
    name: str

    def chances(self, worlds: Sequence[State], seat: int) -> list[float]: ...

    def mean(self, worlds: Sequence[State], seat: int) -> float:
        """The seat's chance judged over ``worlds``, all drawn from one window (or each
        a few actions on from one): their chances' mean, recalibrated where the judge
        knows its mean to need it."""
        ...


class EstimateJudge:
    """The game's own estimate of the returns (a finished world: its true returns), the
    mean over a window's worlds recalibrated where the game ships a map
    (:class:`~necropolis.bots.judgement.Recalibration`)."""

    name = "estimate"

    def chances(self, worlds: Sequence[State], seat: int) -> list[float]:
        return [world.estimate_returns()[seat] for world in worlds]

    def mean(self, worlds: Sequence[State], seat: int) -> float:
        mapping = recalibration(worlds[0].game) if worlds else None
        if mapping is None:
            return _mean(self.chances(worlds, seat))
        # Finished worlds count their true returns; only the estimate is recalibrated,
        # the mean of the worlds where the seat decides next apart from the others' (a
        # few actions on from one window, some may have passed the turn on).
        total = sum(w.returns()[seat] for w in worlds if w.is_terminal())
        going = [w for w in worlds if not w.is_terminal()]
        groups: dict[bool, list[float]] = {}
        # Whose turn follows is public: worlds of one window as many actions on, at the
        # same kind of node, agree on it, so it is worked out once for each (at a chance
        # node it costs a copy and a few draws, as much as the estimate itself).
        movers: dict[tuple[int, int], int | None] = {}
        for world in going:
            moving = False
            if mapping.mover:
                at = (world.move_number(), world.current_player())
                if at not in movers:
                    movers[at] = to_move(world)
                moving = movers[at] == seat
            groups.setdefault(moving, []).append(world.estimate_returns()[seat])
        for moving, chances in groups.items():
            total += len(chances) * float(mapping.map(np.array([_mean(chances)]), moving)[0])
        return total / len(worlds)


class LearnedJudge:
    """A learned judgement of each world from the seat's view of it (a finished world:
    its true returns). A match that nobody wins counts as nothing, as in the returns.
    Where the model is blended with the estimate (:attr:`LearnedEvaluator.blend`), each
    chance and each mean is blended as :class:`EstimateJudge` gives them."""

    def __init__(self, learned: LearnedEvaluator) -> None:
        self.learned = learned
        self.name = learned.description

    def _learned_chances(self, worlds: Sequence[State], seat: int) -> list[float]:
        out = [0.0] * len(worlds)
        views = []
        pending = []
        for i, world in enumerate(worlds):
            if world.is_terminal():
                out[i] = world.returns()[seat]
            else:
                views.append(world.view(seat))
                pending.append(i)
        if views:
            probs, _ = self.learned.network.forward(encode_views(self.learned.features, views))
            # The network lists the seats from the viewer on: the seat's own chance first.
            for i, chance in zip(pending, np.asarray(probs[:, 0]), strict=True):
                out[i] = float(chance)
        return out

    def chances(self, worlds: Sequence[State], seat: int) -> list[float]:
        learned = self._learned_chances(worlds, seat)
        w = self.learned.blend
        if w >= 1.0:
            return learned
        estimate = EstimateJudge().chances(worlds, seat)
        return [w * a + (1.0 - w) * b for a, b in zip(learned, estimate, strict=True)]

    def mean(self, worlds: Sequence[State], seat: int) -> float:
        learned = _mean(self._learned_chances(worlds, seat))
        w = self.learned.blend
        if w >= 1.0:
            return learned
        return w * learned + (1.0 - w) * EstimateJudge().mean(worlds, seat)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def judge_for(game: Game) -> Judge:
    """The judge of ``game``'s positions: its shipped learned judgement where it has one
    for the game's player count, else its estimate."""
    found = evaluator(game)
    if isinstance(found, LearnedEvaluator):
        return LearnedJudge(found)
    return EstimateJudge()
