"""Fit the weights of horus's position estimate (``games/horus/estimate.py``).

Plays the heuristic bot against itself, records every fifth decision the features that
``estimate.win_chances`` weighs for each seat (``estimate.seat_features``), and fits a
multinomial logit over the seats still in the game and "nobody wins" with
:func:`necropolis.analysis.fitting.fit` ("nobody" is one more row whose only feature is
its own), 80% of the positions to fit and 20% to check. Prints the weights, the
held-out log-likelihood beside that of the weights in the module now, and a calibration
table: the share of wins of the seats given each band of chances.

    .venv/bin/python research/fit_horus_estimate.py [TWO_PLAYER_MATCHES] [THREE_PLAYER_MATCHES]

Seeds: the two-player matches ``1000 + i``, the three-player ones ``3000 + i``. Needs
numpy (the ``research`` extra). ``estimate.win_chances`` says which run gave the
committed weights.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from necropolis.analysis.fitting import Group, fit, heuristic_positions
from necropolis.engine import State
from necropolis.games.horus import estimate
from necropolis.games.horus.codes import ESCAPED
from necropolis.games.horus.estimate import FEATURES
from necropolis.games.horus.state import HorusState

#: One position in five: consecutive ones say nearly the same.
EVERY = 5


def _record(state: State) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Every seat's features and "nobody"'s row, which may win, and the present chances."""
    assert isinstance(state, HorusState)
    if not all(sq >= 0 for sq in state.square):
        return None
    k = len(FEATURES)
    rows = estimate.seat_features(state)
    x = np.zeros((state.n + 1, k + 1))
    for i, row in enumerate(rows):
        if row is not None:
            x[i, :k] = row
    x[state.n, k] = 1.0  # nobody
    # "nobody" wins only while no seat is out, as in ``estimate.win_chances``
    alive = np.array([r is not None for r in rows] + [ESCAPED not in state.status])
    old = np.array([*estimate.win_chances(state), 0.0])
    old[state.n] = max(0.0, 1.0 - old[: state.n].sum())
    return x, alive, old


def positions(players: int, matches: int, first_seed: int) -> Group:
    """Every fifth decision of heuristic-only matches, with who won (or nobody)."""
    group = Group()
    seeds = range(first_seed, first_seed + matches)
    for seen, returns in heuristic_positions("horus", players, seeds, _record, EVERY):
        target = np.append(returns, max(0.0, 1.0 - returns.sum()))
        for x, alive, old in seen:
            group.add(x, target, old, alive)
    return group


def main() -> None:
    two = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    three = int(sys.argv[2]) if len(sys.argv) > 2 else 700
    started = time.perf_counter()
    groups = {"2 players": positions(2, two, 1000), "3 players": positions(3, three, 3000)}
    print(f"played in {time.perf_counter() - started:.0f} s")
    report = fit(groups)
    print("\n".join(report.lines()))
    weights = ", ".join(f"{w:.5g}" for w in report.weights[:-1])
    print(f"WEIGHTS = ({weights})  # {', '.join(FEATURES)}")
    print(f"W_NOBODY = {report.weights[-1]:.5g}")


if __name__ == "__main__":
    main()
