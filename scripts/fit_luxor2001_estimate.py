"""Fit the weights of Luxor (2001)'s position estimate (``games/luxor2001/estimate.py``).

Plays the heuristic bot against itself, records every third decision each seat's
features (``estimate.seat_features``) and the match's progress, and fits the softmax over
the seats (each feature's weight, and its weight times the progress) by maximum
likelihood to who won (shared wins split), by gradient ascent on 80% of the
positions; the other 20% check it. Prints the weights as the module writes them, the
held-out log-likelihood of the fit and of the estimate it replaces (a softmax, 0.5 per
expected point), and a calibration table.

    .venv/bin/python scripts/fit_luxor2001_estimate.py [MATCHES_2P] [MATCHES_3P] [MATCHES_4P]

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
import random
import sys
import time

import numpy as np

from necropolis.bots import make_bot
from necropolis.engine import CHANCE, SeatWindow, sample_chance
from necropolis.games import load_game
from necropolis.games.luxor2001 import estimate
from necropolis.games.luxor2001.heuristic import expected_points
from necropolis.games.luxor2001.state import LuxorState

#: One position in three: consecutive ones say nearly the same.
EVERY = 3

Position = tuple[np.ndarray, float, np.ndarray, np.ndarray]  # features, progress, returns, old


def positions(players: int, matches: int) -> list[Position]:
    """(features, progress, returns, the old estimate) of heuristic-only matches."""
    game = load_game("luxor2001", players=players)
    out: list[Position] = []
    for index in range(matches):
        rng = random.Random(players * 100_000 + index)
        bot = make_bot("heuristic")
        state = game.new_initial_state()
        assert isinstance(state, LuxorState)
        seen: list[tuple[np.ndarray, float, np.ndarray]] = []
        decisions = 0
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            decisions += 1
            if decisions % EVERY == 0:
                points = expected_points(state, None)
                top = max(points)
                old = np.array([math.exp(0.5 * (p - top)) for p in points])
                seen.append(
                    (
                        np.array(estimate.seat_features(state)),
                        estimate.progress(state),
                        old / old.sum(),
                    )
                )
            state.apply_action(bot.choose(SeatWindow(state, seat), rng))
        returns = np.array(state.returns(), float)
        out.extend((x, t, returns, old) for x, t, old in seen)
    return out


def design(data: list[Position]) -> tuple[np.ndarray, np.ndarray]:
    """Per position: seats x (features, features x progress), and the returns."""
    x = np.stack([np.concatenate([f, f * t], axis=1) for f, t, _, _ in data])
    y = np.stack([r for _, _, r, _ in data])
    return x, y


def log_likelihood(theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    z = x @ theta
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    ll = float(np.sum(y * np.log(np.maximum(p, 1e-12))) / len(x))
    grad = np.einsum("ns,nsk->k", y - p * y.sum(axis=1, keepdims=True), x) / len(x)
    return ll, grad


def main() -> None:
    counts = [int(a) for a in sys.argv[1:4]] or [600, 100, 100]
    counts += [0] * (3 - len(counts))
    started = time.perf_counter()
    groups = {n: positions(n, m) for n, m in zip((2, 3, 4), counts, strict=True) if m}
    print(f"played in {time.perf_counter() - started:.0f} s")
    k = 2 * len(estimate.FEATURES)
    # One scale per column, so that one step size suits every weight.
    every = np.concatenate([design(d)[0].reshape(-1, k) for d in groups.values()])
    scale = np.maximum(np.abs(every).max(axis=0), 1e-9)
    fits, checks = [], []
    for data in groups.values():
        order = np.random.default_rng(0).permutation(len(data))
        cut = int(0.8 * len(data))
        x, y = design(data)
        fits.append((x[order[:cut]] / scale, y[order[:cut]]))
        checks.append((x[order[cut:]] / scale, y[order[cut:]], [data[i] for i in order[cut:]]))
    theta = np.zeros(k)
    step = 2.0
    total = sum(len(x) for x, _ in fits)
    for rounds in range(1, 6001):
        ll, grad = 0.0, np.zeros(k)
        for x, y in fits:
            part, g = log_likelihood(theta, x, y)
            ll, grad = ll + part * len(x) / total, grad + g * len(x) / total
        theta += step * grad
        if rounds % 2000 == 0:
            print(f"round {rounds}: log-likelihood {ll:.5f}, gradient {np.abs(grad).max():.2g}")
    for (x, y, raw), n in zip(checks, groups, strict=True):
        ll = log_likelihood(theta, x, y)[0]
        old = float(np.mean([np.sum(r * np.log(np.maximum(o, 1e-12))) for _, _, r, o in raw]))
        print(
            f"{n} players: {len(groups[n])} positions;"
            f" held-out log-likelihood {ll:.4f} (old {old:.4f})"
        )
        z = x @ theta
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        chance, won = p.ravel(), y.ravel()
        for low in np.arange(0.0, 1.0, 0.2):
            band = (chance >= low) & (chance < low + 0.2)
            if band.any():
                print(
                    f"  chance {low:.1f}-{low + 0.2:.1f}: {band.sum()} seats,"
                    f" mean {chance[band].mean():.3f}, won {won[band].mean():.3f}"
                )
    weights = theta / scale
    half = len(estimate.FEATURES)
    print("WEIGHTS: tuple[float, ...] = (")
    print("    " + ", ".join(f"{w:.4g}" for w in weights[:half]) + ",")
    print("    " + ", ".join(f"{w:.4g}" for w in weights[half:]) + ",")
    print(")  # fmt: skip")


if __name__ == "__main__":
    main()
