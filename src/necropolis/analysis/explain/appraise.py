"""One seat's chances at one moment: the position's, and each of its decisions'.

Everything here starts from a :class:`~necropolis.engine.seat.SeatWindow`, so it can use
nothing the seat could not see: the seat's chance is the mean of the judge's over
``worlds`` determinizations drawn from its window (:meth:`SeatWindow.resample`). When
the seat is to decide, each legal decision is weighed by the best way the seat could go
on with its turn after it (its *plans*: the decisions it makes alone, before anything is
revealed to it or anyone else acts), every plan played in the very same worlds with the
same generators (common random numbers), so that two decisions differ only by what they
do and never by the luck of their draws. A plan's worth is its mean over the worlds, and
a decision's is that of its best plan: the seat picks one plan for all the worlds it
cannot tell apart, as it must at the table. Where a turn has more plans than
:attr:`Depth.plans`, the plans are cut at the depth that fits and finished by the game's
rollout policy, world by world.

A position's chance for a seat that is to decide is its best decision's: the decision it
makes then changes its chance only by what that decision gives away (its *loss*).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from necropolis.analysis.explain.judge import Judge
from necropolis.engine.protocol import State
from necropolis.engine.seat import SeatWindow

#: A turn's decisions are never followed further than this (a safeguard: every game's
#: turns end far sooner).
_TURN_MOST = 200


@dataclass(frozen=True)
class Depth:
    """How hard the analysis looks: the worlds drawn a moment, the rollout actions played
    in each before the judge is asked, the most plans weighed a decision, and the seed of
    its own draws (never the match's)."""

    worlds: int = 32
    rollout: int = 0
    plans: int = 256
    seed: int = 0

    def __post_init__(self) -> None:
        if self.worlds < 1:
            raise ValueError("the analysis needs at least one world a moment")
        if self.rollout < 0:
            raise ValueError("a rollout cannot be negative")
        if self.plans < 1:
            raise ValueError("the analysis needs room for at least one plan")


@dataclass
class Appraisal:
    """A seat's decision weighed: each legal decision's chance (with the best plan that
    starts with it), and, for a decision after which the seat goes on alone, the same for
    its next decision in the same worlds."""

    seat: int
    values: dict[int, float]
    after: dict[int, Appraisal] = field(default_factory=dict)

    @property
    def best(self) -> int:
        """The decision with the highest chance (the lowest action id among equals)."""
        top = max(self.values.values())
        return min(a for a, v in self.values.items() if v == top)

    @property
    def chance(self) -> float:
        """The seat's chance with its best decision."""
        return max(self.values.values())

    def ranked(self) -> list[tuple[int, float]]:
        """Every decision with its chance, the best first (equals by action id)."""
        return sorted(self.values.items(), key=lambda item: (-item[1], item[0]))


def _rng(depth: Depth, tag: str, world: int) -> random.Random:
    return random.Random(f"{depth.seed}/{tag}/{world}")


def draw_worlds(window: SeatWindow, depth: Depth, tag: str) -> list[State]:
    """``depth.worlds`` determinizations from ``window``, each from a generator of its own
    named by ``tag`` (the moment), so the same moment draws the same worlds."""
    return [window.resample(_rng(depth, tag, k)) for k in range(depth.worlds)]


def _leaves(worlds: Sequence[State], seat: int, depth: Depth, judge: Judge, tag: str) -> float:
    """The mean chance of ``seat`` over ``worlds``: a turn of the seat's cut short first
    played out by the game's rollout policy, then ``depth.rollout`` more actions, then
    the judge. World ``k`` plays with the same generator wherever the moment ``tag``
    weighs it (common random numbers)."""
    if depth.rollout == 0 and not any(w.acting_seats() == (seat,) for w in worlds):
        return judge.mean(worlds, seat)
    ends: list[State] = []
    for k, world in enumerate(worlds):
        rng = _rng(depth, tag + "/play", k)
        end = world.clone()
        steps = 0
        while steps < _TURN_MOST and end.acting_seats() == (seat,):
            end.apply_legal_action(end.rollout_action(rng))
            steps += 1
        steps = 0
        while steps < depth.rollout and not end.is_terminal():
            end.apply_legal_action(end.rollout_action(rng))
            steps += 1
        ends.append(end)
    return judge.mean(ends, seat)


def position_chance(
    window: SeatWindow, depth: Depth, judge: Judge, tag: str
) -> tuple[float, Appraisal | None]:
    """The seat's chance now, and, when it is one of the seats to decide, its decisions
    weighed (the chance is then its best decision's)."""
    worlds = draw_worlds(window, depth, tag)
    if window.seat in window.acting_seats():
        appraisal = appraise(worlds, window.seat, depth, judge, tag)
        return appraisal.chance, appraisal
    return _leaves(worlds, window.seat, depth, judge, tag), None


def appraise(worlds: list[State], seat: int, depth: Depth, judge: Judge, tag: str) -> Appraisal:
    """Weigh every legal decision of ``seat`` (one of the seats to decide in each world,
    all drawn from its window at one moment) by its best plan, as the module says."""
    return _appraise(worlds, seat, _plan_depth(worlds[0], seat, depth.plans), depth, judge, tag)


def _continues(before: State, action: int, after: State) -> bool:
    """Whether the seat that played ``action`` goes on alone, nothing revealed."""
    return not before.reveals(action, after)


def _plan_depth(world: State, seat: int, most: int) -> int:
    """How many decisions deep the plans from ``world`` can be followed within ``most``
    plans: the turn's whole length where it fits, else the deepest cut that does (at
    least the decision itself). Counted in one world: the seat's legal decisions are in
    its view, the same in each."""
    level = [world]
    ended = 0
    depth = 0
    while level:
        depth += 1
        following: list[State] = []
        ended_here = 0
        for node in level:
            for action in node.legal_actions(seat):
                after = node.clone()
                after.apply_legal_action(action)
                if _continues(node, action, after):
                    following.append(after)
                else:
                    ended_here += 1
            if ended + ended_here + len(following) > most:
                return max(1, depth - 1)
        ended += ended_here
        level = following
    return depth


def _appraise(
    worlds: list[State], seat: int, levels: int, depth: Depth, judge: Judge, tag: str
) -> Appraisal:
    legal = worlds[0].legal_actions(seat)
    appraisal = Appraisal(seat, {})
    for action in legal:
        afters = []
        goes_on = levels > 1
        for world in worlds:
            after = world.clone()
            # The seat's legal decisions are in its view: every world allows this one.
            after.apply_legal_action(action)
            afters.append(after)
            goes_on = goes_on and _continues(world, action, after)
        if goes_on:
            following = _appraise(afters, seat, levels - 1, depth, judge, tag)
            appraisal.after[action] = following
            appraisal.values[action] = following.chance
        else:
            appraisal.values[action] = _leaves(afters, seat, depth, judge, tag)
    return appraisal


def hints(
    window: SeatWindow, depth: Depth, judge: Judge, count: int = 3
) -> list[tuple[int, float]]:
    """The seat's ``count`` best decisions now with their chances, from its window alone
    (empty when it is not to decide)."""
    if window.seat not in window.acting_seats():
        return []
    _, appraisal = position_chance(window, depth, judge, f"hint/{window.move_number()}")
    assert appraisal is not None
    return appraisal.ranked()[:count]
