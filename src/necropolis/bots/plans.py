"""Whole turns as the moves: the heuristic's best plans for a turn, each played a round on.

A bot for games whose turns are several decisions (a card, then a figure, then how far
it goes, then what it takes). A tree search over single decisions spends its iterations inside
the turn and barely sees past its end; the turn rollouts of
:class:`~necropolis.bots.rollout.RolloutBot` play every single move a round on, which
repeats the whole work at each decision of the turn and leaves few worlds for the
widest ones. This bot searches over whole plans instead. In one world drawn from the
seat's window it lists every way the seat can play out the rest of its turn (its own
decisions, up to the first chance event or another seat's decision), has the game's
:class:`~necropolis.engine.protocol.TurnPlanner` rank where each plan ends by the
heuristic's own measure (:meth:`~necropolis.engine.protocol.TurnPlanner.worth`), and
keeps the few it ranks highest. Each of these is then played a round on in many drawn
worlds, with the same dice and draws for every plan in a world (common random numbers):
the plan, then every other seat's turn planned whole by that seat, until the searching
seat's next turn begins, where the planner's
:meth:`~necropolis.engine.protocol.TurnPlanner.value` judges it. The first decision of
the plan with the best mean is played.

What it adds to the heuristic is the other seats' answer to each of its few best plans,
seen over enough worlds to tell them apart: a treasure half claimed is worth less if the
next seat takes it first. The bot keeps nothing between decisions (a server asks a new
bot for each one), so the next decision of the same turn is searched again from where
the turn then stands; the plans left are the continuations of the one chosen, and a die
rolled in between is known by then.

A turn with more ways to play it than :data:`MAX_PLANS`, and a game without a planner,
are searched one decision deep instead: each legal move is a plan of one decision, the
rest of the round played on by the planner (or the game's rollout policy, judged by its
:meth:`~necropolis.engine.protocol.State.estimate_returns`). The budget is a number of
worlds, so that a match replays from its seed, with a clock cap checked between worlds.
The bot decides from the seat's window alone: every world it reads is drawn from it.

Measured as hard (128 worlds, six plans, the level's 0.9 s clock) in the game with such
turns it was built for, it won no more two-player matches against the heuristic than
the IS-MCTS hard did on the same seeds (``docs/strength.md``, "Whole-turn plans"), so it
is no level: it is the registry's ``plans`` (no clock), beside ``rollout``, for research.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from necropolis.bots.rollout import drawn_worlds, round_on
from necropolis.engine.protocol import State, TurnPlanner
from necropolis.engine.seat import SeatWindow

#: The most ways to play out a turn that are listed; a turn with more is searched one
#: decision deep. (A turn of the game with such turns has a few to some tens at its start: a
#: median of 8 and at most 47 over three heuristic matches; its heuristic lists them at
#: every decision too.)
MAX_PLANS = 5000

Plan = tuple[int, ...]


class PlanStats:
    """What the last decision did: plans listed, worlds drawn, time, and each kept plan's
    mean value (in the order the planner ranked them; the first is the heuristic's)."""

    __slots__ = ("means", "plans", "seconds", "worlds")

    def __init__(self) -> None:
        self.plans = 0
        self.worlds = 0
        self.seconds = 0.0
        self.means: dict[Plan, float] = {}


class PlanBot:
    """The ``candidates`` plans the planner ranks highest, each played a round on in
    ``worlds`` drawn worlds; the first decision of the best mean is played.

    ``seconds`` (None: no clock) caps a decision: no world is begun that would end past
    it if it took as long as the longest so far, and at least one world is always
    played. ``clock`` is the clock the cap is read on. A decision with one legal action
    is played at once. Equal means go to the plan the planner ranked higher.
    """

    def __init__(
        self,
        worlds: int = 128,
        candidates: int = 6,
        seconds: float | None = None,
        name: str = "plans",
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if worlds < 1:
            raise ValueError("a plan search needs at least one world")
        if candidates < 1:
            raise ValueError("a plan search needs at least one plan to play out")
        self.worlds = worlds
        self.candidates = candidates
        self.seconds = seconds
        self.name = name
        self.clock = clock
        self.last = PlanStats()

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        legal = window.legal_actions()
        stats = self.last = PlanStats()
        if len(legal) == 1:
            return legal[0]
        clock = self.clock
        start = clock()
        deadline = start + self.seconds if self.seconds is not None else math.inf
        seat = window.seat
        planner = window.game.turn_planner()
        plans = _candidates(window.resample(rng), seat, legal, planner, self.candidates, stats)
        totals = [0.0] * len(plans)
        counts = [0] * len(plans)
        drawn = 0
        for world, seed in drawn_worlds(window, rng, self.worlds, deadline, clock):
            for i, plan in enumerate(plans):
                played = _played(world, plan)
                if played is not None:
                    totals[i] += round_on(played, seat, planner, random.Random(seed))
                    counts[i] += 1
            drawn += 1
        stats.worlds = drawn
        stats.seconds = clock() - start
        best = -1
        best_mean = -math.inf
        for i, plan in enumerate(plans):
            if not counts[i]:
                continue
            mean = stats.means[plan] = totals[i] / counts[i]
            if mean > best_mean:
                best, best_mean = i, mean
        return plans[best][0] if best >= 0 else plans[0][0]


def _candidates(
    world: State,
    seat: int,
    legal: list[int],
    planner: TurnPlanner | None,
    keep: int,
    stats: PlanStats,
) -> list[Plan]:
    """The plans to play out, best ranked first: the ``keep`` ways to play out the turn
    that the planner ranks highest in ``world``; with no planner, or a turn with too many
    ways, every legal move as a plan of one decision (in action order)."""
    if planner is None:
        return [(action,) for action in legal]
    ends = whole_plans(world, seat, MAX_PLANS)
    stats.plans = len(ends) if ends is not None else 0
    if ends is None:
        return [(action,) for action in legal]
    ranked = sorted(
        ((planner.worth(end, seat), i) for i, (_, end) in enumerate(ends)),
        key=lambda pair: (-pair[0], pair[1]),
    )
    return [ends[i][0] for _, i in ranked[:keep]]


def whole_plans(world: State, seat: int, limit: int) -> list[tuple[Plan, State]] | None:
    """Every way ``seat`` can play out the rest of its turn in ``world``: its decisions up
    to the first chance event, the match's end or another seat's decision, each with the
    position it ends in, in the order of their actions; None if there are more than
    ``limit``."""
    ends: list[tuple[Plan, State]] = []

    def walk(state: State, prefix: Plan) -> bool:
        if state.current_player() != seat:
            ends.append((prefix, state))
            return len(ends) <= limit
        for action in state.legal_actions():
            child = state.clone()
            child.apply_legal_action(action)
            if not walk(child, (*prefix, action)):
                return False
        return True

    return ends if walk(world, ()) else None


def _played(world: State, plan: Plan) -> State | None:
    """A copy of ``world`` with ``plan`` played, or None if a decision of it is not legal
    there (a seat's own decisions within a turn depend on nothing it cannot see, so this
    does not happen in the bundled games; a game where it did would lose that plan's
    world, not the decision)."""
    played = world.clone()
    for action in plan:
        if not played.is_legal(action):
            return None
        played.apply_legal_action(action)
    return played


__all__ = ["MAX_PLANS", "PlanBot", "PlanStats", "whole_plans"]
