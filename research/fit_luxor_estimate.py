"""Fit the weights of Luxor (2018)'s position estimate (``games/luxor/estimate.py``).

Plays the heuristic bot against itself, records every third decision each seat's
``estimate_features`` (projected and banked points, each also times the time left), and
fits them with :func:`necropolis.analysis.fitting.fit` (a softmax over the seats, by
maximum likelihood, 80% of the positions to fit and 20% to check). Prints the weights,
the held-out log-likelihood beside that of the estimate they replaced (a softmax of the
projected points at a temperature of 5 + 10 x the time left, fitted to random playouts),
and a calibration table.

    .venv/bin/python research/fit_luxor_estimate.py [MATCHES_2P] [MATCHES_3P] [MATCHES_4P]

Seeds: match ``i`` at ``n`` players is seeded ``n * 100_000 + i``. Needs numpy (the
``research`` extra).
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from necropolis.analysis.fitting import Group, fit, heuristic_group
from necropolis.engine import State
from necropolis.games.luxor import estimate, heuristic
from necropolis.games.luxor.state import LuxorState

#: One position in three: consecutive ones say nearly the same.
EVERY = 3


def _replaced(st: LuxorState) -> np.ndarray:
    """The chances the estimate before this fit gave."""
    left = heuristic.time_left(st)
    points = [heuristic.projection(st, p, -1, left) for p in range(st.num_players)]
    top = max(points)
    weights = np.array([math.exp((x - top) / (5.0 + 10.0 * left)) for x in points])
    return weights / weights.sum()


def _record(state: State) -> tuple[np.ndarray, np.ndarray] | None:
    assert isinstance(state, LuxorState)
    if state.final is not None:
        return None
    return np.array(estimate.estimate_features(state)), _replaced(state)


def positions(players: int, matches: int) -> Group:
    """Features, returns and the old estimate's chances of heuristic-only matches."""
    seeds = range(players * 100_000, players * 100_000 + matches)
    return heuristic_group("luxor", players, seeds, _record, EVERY)


def main() -> None:
    counts = [int(a) for a in sys.argv[1:4]] or [200, 50, 50]
    counts += [0] * (3 - len(counts))
    started = time.perf_counter()
    groups = {f"{n} players": positions(n, m) for n, m in zip((2, 3, 4), counts, strict=True) if m}
    print(f"played in {time.perf_counter() - started:.0f} s")
    report = fit(groups)
    print("\n".join(report.lines()))
    print(
        f"ESTIMATE_WEIGHTS: tuple[float, ...] = ({', '.join(f'{w:.4g}' for w in report.weights)})"
    )


if __name__ == "__main__":
    main()
