"""Fit the weights of horus's position estimate (``games/horus/playout.py``).

Plays the heuristic bot against itself, records every fifth decision the features that
``playout.estimate_returns`` weighs for each seat (``playout.seat_features``), and fits
a multinomial logit over the seats still in the game and "nobody wins" by maximum
likelihood (gradient ascent), 80% of the positions to fit and 20% to check. Prints the
weights, the held-out log-likelihood and a calibration table: the share of wins of the
seats given each band of chances.

    .venv/bin/python scripts/fit_horus_estimate.py [TWO_PLAYER_MATCHES] [THREE_PLAYER_MATCHES]

The committed weights came from 150 and 50 matches (seeds 1000+ and 3000+) on the board
with blocks on and beside the exits (the defaults, 500 and 200, take several times as
long; there was no time for them); a run takes a few minutes on an idle core.
"""

from __future__ import annotations

import random
import sys

import numpy as np

from necropolis.bots import make_bot
from necropolis.engine import CHANCE, SeatWindow, sample_chance
from necropolis.games import load_game
from necropolis.games.horus import playout
from necropolis.games.horus.playout import FEATURES
from necropolis.games.horus.state import HorusState

#: Rough scales of playout.FEATURES, so that one learning rate suits every weight.
SCALE = np.array([10, 1, 10, 10, 10, 5, 1, 1, 1], float)


def positions(players: int, matches: int, first_seed: int) -> list[tuple[np.ndarray, ...]]:
    """(features, alive, returns) every fifth decision of heuristic-only matches."""
    game = load_game("horus", players=players)
    out: list[tuple[np.ndarray, ...]] = []
    for index in range(matches):
        rng = random.Random(first_seed + index)
        bot = make_bot("heuristic")
        state = game.new_initial_state()
        assert isinstance(state, HorusState)
        seen: list[list[tuple[float, ...] | None]] = []
        decisions = 0
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            decisions += 1
            if decisions % 5 == 0 and all(sq >= 0 for sq in state.square):
                seen.append(playout.seat_features(state))
            state.apply_action(bot.choose(SeatWindow(state, seat), rng))
        returns = np.array(state.returns(), float)
        for rows in seen:
            x = np.array([r if r is not None else [0.0] * len(FEATURES) for r in rows], float)
            alive = np.array([r is not None for r in rows])
            out.append((x / SCALE, alive, returns))
    return out


def log_likelihood(
    theta: np.ndarray, nobody: float, data: list[tuple[np.ndarray, ...]], gradient: bool = False
) -> tuple[float, np.ndarray, float]:
    total, g, g_nobody = 0.0, np.zeros_like(theta), 0.0
    for x, alive, returns in data:
        z = np.append(np.where(alive, x @ theta, -np.inf), nobody)
        p = np.exp(z - z.max())
        p /= p.sum()
        target = np.append(returns, max(0.0, 1.0 - returns.sum()))
        total += float(np.sum(target[p > 0] * np.log(p[p > 0])))
        if gradient:
            diff = target - p
            g += x[alive].T @ diff[:-1][alive]
            g_nobody += diff[-1]
    n = len(data)
    return total / n, g / n, g_nobody / n


def main() -> None:
    two = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    three = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    data = positions(2, two, 1000) + positions(3, three, 3000)
    order = np.random.default_rng(0).permutation(len(data))
    cut = int(0.8 * len(data))
    fit = [data[i] for i in order[:cut]]
    check = [data[i] for i in order[cut:]]
    theta, nobody = np.zeros(len(FEATURES)), 0.0
    for _ in range(300):
        _, g, g_nobody = log_likelihood(theta, nobody, fit, gradient=True)
        theta += g
        nobody += g_nobody
    held_out = log_likelihood(theta, nobody, check)[0]
    print(f"{len(data)} positions; held-out log-likelihood {held_out:.4f}")
    weights = ", ".join(f"{w:.5g}" for w in theta / SCALE)
    print(f"WEIGHTS = ({weights})  # {', '.join(FEATURES)}")
    print(f"W_NOBODY = {nobody:.5g}")
    chances, won = [], []
    for x, alive, returns in check:
        z = np.append(np.where(alive, x @ theta, -np.inf), nobody)
        p = np.exp(z - z.max())
        p /= p.sum()
        for seat in np.flatnonzero(alive):
            chances.append(p[seat])
            won.append(returns[seat])
    chance, outcome = np.array(chances), np.array(won)
    for low in np.arange(0.0, 1.0, 0.1):
        band = (chance >= low) & (chance < low + 0.1)
        if band.any():
            print(
                f"chance {low:.1f}-{low + 0.1:.1f}: {band.sum()} seats, "
                f"mean {chance[band].mean():.3f}, won {outcome[band].mean():.3f}"
            )


if __name__ == "__main__":
    main()
