"""A hand-written strategy for Luxor (2001): a greedy one-step look from the seat's view.

The policy draws one world consistent with the seat's window, applies each legal action
to a copy, lets the rest of the mover's scoring settle (first listed choices, the lowest
sarcophagus value at an opening, so no hidden value is used), and scores the position:
every player's expected points (sarcophagi counted by their eyes' average value, pillars
by the scarabs gathered toward their next sarcophagus, pillars held as chances at the
pharaoh bonus, the seat's own bonus exactly) and keeps the action that best improves the
seat's estimate against the strongest opponent. A victim of the curse gives away its
least valuable sarcophagus. Everything it reads is public or the seat's own.
"""

from __future__ import annotations

import random

from necropolis.engine.protocol import CHANCE
from necropolis.engine.seat import SeatWindow
from necropolis.games.luxor2001 import rules
from necropolis.games.luxor2001.components import (
    GIVE_BASE,
    NUM_ANIMALS,
    PHARAOH_BONUS,
    SARCOPHAGUS_COUNTS,
    STACK_HEIGHT,
    VALUE_EYES,
    VALUE_POINTS,
)
from necropolis.games.luxor2001.state import LuxorState


def _eye_means() -> dict[int, float]:
    means = {}
    for eyes in (1, 2, 3):
        idx = [i for i, e in enumerate(VALUE_EYES) if e == eyes]
        total = sum(SARCOPHAGUS_COUNTS[i] for i in idx)
        means[eyes] = sum(VALUE_POINTS[i] * SARCOPHAGUS_COUNTS[i] for i in idx) / total
    return means


EYE_MEAN = _eye_means()
_SETTLE = frozenset((rules.ORDER, rules.RELOCATE, rules.OPEN))


def _settle(state: LuxorState) -> None:
    """Finish the mover's scoring without a real choice, to see where it leads."""
    for _ in range(64):
        if state.phase not in _SETTLE:
            return
        if state.current_player() == CHANCE:
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])


def expected_points(state: LuxorState, knower: int | None) -> list[float]:
    """Every seat's expected final points from the position.

    Sarcophagi count their eyes' average value, pillars the scarabs gathered toward their
    next sarcophagus, researchers in supply a little. A pharaoh card counts exactly for
    ``knower`` and at its average for the others; ``None`` knows them all (a full world,
    as searches hold).
    """
    n = state.n
    points = [0.0] * n
    for p in range(n):
        for code in state.held[p]:
            points[p] += EYE_MEAN[VALUE_EYES[code & 7]]
        points[p] += 0.2 * state.res_supply[p]
    for a in range(NUM_ANIMALS):
        owner = state.occupant[a]
        if owner < 0:
            continue
        if state.stack[a] > 0:
            eyes = STACK_HEIGHT + 1 - state.stack[a]
            points[owner] += 1.0 + 0.8 * EYE_MEAN[eyes] * state.scarabs[a] / 3
        else:
            points[owner] += 0.3 * state.scarabs[a]
        if knower is None or owner == knower:
            if state.pharaoh[owner] == a:
                points[owner] += PHARAOH_BONUS
        else:
            points[owner] += PHARAOH_BONUS / NUM_ANIMALS  # an unknown pharaoh card
    return points


def estimate(state: LuxorState, seat: int) -> float:
    """The seat's expected points minus the best opponent's, from public facts and its own."""
    points = expected_points(state, seat)
    return points[seat] - max(points[p] for p in range(state.n) if p != seat)


def policy(window: SeatWindow, rng: random.Random) -> int:
    actions = window.legal_actions()
    if len(actions) == 1:
        return actions[0]
    view = window.view()
    if view["phase"] == "give":
        return min(actions, key=lambda a: VALUE_POINTS[a - GIVE_BASE])
    world = window.resample(rng)
    assert isinstance(world, LuxorState)
    seat = window.seat
    best: list[int] = []
    best_value = float("-inf")
    for action in actions:
        trial = world.clone()
        trial.apply_action(action)
        _settle(trial)
        value = estimate(trial, seat)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]
