"""Fit the weights of Luxor (2001)'s position estimate (``games/luxor2001/estimate.py``).

Plays the heuristic bot against itself, records every third decision each seat's
features (``estimate.seat_features``), and also each multiplied by the match's progress,
and fits them with :func:`necropolis.analysis.fitting.fit` (a softmax over the seats, by
maximum likelihood, 80% of the positions to fit and 20% to check). Prints the weights as
the module writes them, the held-out log-likelihood of the fit beside that of the
estimate it replaced (a softmax, 0.5 per expected point), and a calibration table.

    .venv/bin/python research/fit_luxor2001_estimate.py [MATCHES_2P] [MATCHES_3P] [MATCHES_4P]

Seeds: match ``i`` at ``n`` players is seeded ``n * 100_000 + i``. Needs numpy (the
``research`` extra).

The committed weights came from ``6000 1500 1500`` (four minutes of play on one core):
100,736, 25,345 and 25,375 positions. Held-out log-likelihood per position, the fit
against the estimate it replaced: -0.544 against -1.268 at two players (an even guess
scores -0.693: the old softmax was badly overconfident), -0.883 against -1.745 at three,
-1.127 against -2.055 at four; seats given 80-100% won 90%, 92% and 94% of the time.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from necropolis.analysis.fitting import Group, fit, heuristic_group
from necropolis.engine import State
from necropolis.games.luxor2001 import estimate
from necropolis.games.luxor2001.heuristic import expected_points
from necropolis.games.luxor2001.state import LuxorState

#: One position in three: consecutive ones say nearly the same.
EVERY = 3


def _record(state: State) -> tuple[np.ndarray, np.ndarray]:
    """A position's features (and each times the progress), and the old estimate's chances."""
    assert isinstance(state, LuxorState)
    points = expected_points(state, None)
    top = max(points)
    old = np.array([math.exp(0.5 * (p - top)) for p in points])
    f = np.array(estimate.seat_features(state))
    return np.concatenate([f, f * estimate.progress(state)], axis=1), old / old.sum()


def positions(players: int, matches: int) -> Group:
    """Features, returns and the old estimate's chances of heuristic-only matches."""
    seeds = range(players * 100_000, players * 100_000 + matches)
    return heuristic_group("luxor2001", players, seeds, _record, EVERY)


def main() -> None:
    counts = [int(a) for a in sys.argv[1:4]] or [600, 100, 100]
    counts += [0] * (3 - len(counts))
    started = time.perf_counter()
    groups = {f"{n} players": positions(n, m) for n, m in zip((2, 3, 4), counts, strict=True) if m}
    print(f"played in {time.perf_counter() - started:.0f} s")
    report = fit(groups)
    print("\n".join(report.lines()))
    half = len(estimate.FEATURES)
    print("WEIGHTS: tuple[float, ...] = (")
    print("    " + ", ".join(f"{w:.4g}" for w in report.weights[:half]) + ",")
    print("    " + ", ".join(f"{w:.4g}" for w in report.weights[half:]) + ",")
    print(")  # fmt: skip")


if __name__ == "__main__":
    main()
