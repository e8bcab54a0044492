"""Luxor's position estimate: each seat's chance of winning from an unfinished position,
which searches back up once their rollouts are cut short.

A softmax of each seat's projected and banked points (the heuristic's projection, read
as an outsider would), each also weighed by the time left: early, a few points' lead
means little. It works on a whole (determinized) state.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from necropolis.games.luxor.heuristic import projection, time_left

if TYPE_CHECKING:
    from necropolis.games.luxor.state import LuxorState

#: The estimate's weights (:func:`estimate_features`), fitted by
#: ``research/fit_luxor_estimate.py 250 60 60`` to who won 18,739 positions of
#: heuristic-only matches. Held out, they predict the winners a little better than the
#: temperature they replaced (5 + 10 x the time left, fitted to random playouts):
#: log-likelihood -0.537 against -0.546 at two players, -0.848 against -0.850 at three,
#: -1.210 against -1.207 at four; seats given 80-100% won 90%, 97% and 100%.
ESTIMATE_WEIGHTS: tuple[float, ...] = (0.1495, 0.03032, 0.03593, -0.09958)


def estimate_features(st: LuxorState) -> list[tuple[float, float, float, float]]:
    """Per seat: projected points, the same times the time left, banked points, the same
    times the time left (read as an outsider would: every seat's scarabs at the mean)."""
    left = time_left(st)
    rows = []
    for p in range(st.num_players):
        points = projection(st, p, -1, left)
        banked = float(st.score[p])
        rows.append((points, points * left, banked, banked * left))
    return rows


def win_chances(st: LuxorState) -> list[float]:
    """Each seat's chance of winning: a softmax of its weighted :func:`estimate_features`.

    The spread narrows as the match nears its end: early, a few points' lead means little.
    """
    w = ESTIMATE_WEIGHTS
    utilities = [w[0] * a + w[1] * b + w[2] * c + w[3] * d for a, b, c, d in estimate_features(st)]
    top = max(utilities)
    weights = [math.exp(u - top) for u in utilities]
    total = sum(weights)
    return [x / total for x in weights]
