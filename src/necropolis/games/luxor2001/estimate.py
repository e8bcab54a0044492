"""Luxor (2001)'s learned estimate of a position: each seat's chance of winning.

A search cut short backs up :meth:`LuxorState.estimate_returns`, so the search is only as
good as this judgement. Each seat is described by a few facts of the position
(:data:`FEATURES`: the points it holds, its pharaoh's bonus if it stands, the pillars it
occupies and what they promise, its researchers left), each also multiplied by how far
the match has gone (the cards put into the wall), so that the same lead weighs more near
the end; a seat's chance is a softmax of the weighted sum over the seats. The weights
were fitted by maximum likelihood to who won positions of heuristic-only matches
(``research/fit_luxor2001_estimate.py`` prints them again and how well they predict held-out
positions); they are plain numbers here, so nothing is loaded at run time.

The estimate reads the state it is given whole: a search gives it a world drawn from the
searcher's view (:meth:`SeatWindow.resample`), never the true state.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from necropolis.games.luxor2001.components import (
    NUM_ANIMALS,
    PHARAOH_BONUS,
    STACK_HEIGHT,
    VALUE_POINTS,
    WALL_CARDS,
)
from necropolis.games.luxor2001.heuristic import EYE_MEAN

if TYPE_CHECKING:
    from necropolis.games.luxor2001.state import LuxorState

#: What each seat is described by; :data:`WEIGHTS` has one weight for each, then one for
#: each multiplied by the match's progress (0 at the start, 1 with the wall full).
FEATURES = (
    "points held",  # the values of the sarcophagi it holds
    "pharaoh standing",  # its pharaoh's bonus, if its researcher is on that animal now
    "pillars with sarcophagi",  # pillars it occupies that still have sarcophagi
    "scarab promise",  # on those: the next sarcophagus's mean eyes x scarabs / 3
    "scarabs on empty pillars",
    "researchers in supply",
    "sarcophagi held",
)

#: Fitted by ``research/fit_luxor2001_estimate.py`` (see its docstring for the run).
WEIGHTS: tuple[float, ...] = (
    0.06654, -0.03481, 0.09726, -0.06561, 0.04343, 0.09682, -0.06582,
    0.08585, 0.1322, -0.1242, 0.1649, 0.1508, -0.1588, 0.1459,
)  # fmt: skip


def progress(state: LuxorState) -> float:
    """How far the match has gone: the share of the wall's cards put in."""
    return min(1.0, state.inserted / WALL_CARDS)


def seat_features(state: LuxorState) -> list[tuple[float, ...]]:
    """Each seat's :data:`FEATURES` in ``state`` (a whole world: values and pharaohs)."""
    rows: list[tuple[float, ...]] = []
    for p in range(state.n):
        held = state.held[p]
        points = float(sum(VALUE_POINTS[code & 7] for code in held))
        animal = state.pharaoh[p]
        standing = float(PHARAOH_BONUS) if animal >= 0 and state.occupant[animal] == p else 0.0
        pillars = promise = empty = 0.0
        for a in range(NUM_ANIMALS):
            if state.occupant[a] != p:
                continue
            if state.stack[a] > 0:
                pillars += 1.0
                eyes = STACK_HEIGHT + 1 - state.stack[a]
                promise += EYE_MEAN[eyes] * state.scarabs[a] / 3
            else:
                empty += state.scarabs[a]
        rows.append(
            (
                points,
                standing,
                pillars,
                promise,
                empty,
                float(state.res_supply[p]),
                float(len(held)),
            )
        )
    return rows


def win_chances(state: LuxorState, weights: tuple[float, ...] = WEIGHTS) -> list[float]:
    """Each seat's chance of winning by the fitted weights (a softmax over the seats)."""
    t = progress(state)
    k = len(FEATURES)
    utilities = [
        sum((weights[i] + weights[k + i] * t) * f for i, f in enumerate(row))
        for row in seat_features(state)
    ]
    top = max(utilities)
    exps = [math.exp(u - top) for u in utilities]
    total = sum(exps)
    return [e / total for e in exps]
