"""Fitting a game's position estimate: a softmax over the seats, by maximum likelihood.

A game's ``estimate_returns`` guesses each seat's chance of winning from a few facts of
the position; the scripts that fit them (``research/fit_*_estimate.py``) record those
facts from matches and hand them here. Each position is a matrix, one row of features
per seat, with the seats' returns (a win is 1, shared wins split it); the seat's chance is
the softmax of its features' weighted sum. :func:`fit` finds the weights that make the
recorded winners likeliest, on 80% of the positions of each group (a player count, say),
and reports on the other 20% how well the weights predict (the mean log-likelihood of a
position's winners, beside that of the estimate the game had, when given) and how true
their chances are (seats grouped by the chance given, against the share they won).

:func:`heuristic_positions` plays the matches a fit learns from: the heuristic bot in
every seat, a position recorded every few decisions. Needs numpy (the ``research`` extra).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from necropolis.bots import make_bot
from necropolis.engine import CHANCE, SeatWindow, State, sample_chance
from necropolis.games import load_game

Array = npt.NDArray[np.float64]
Seen = TypeVar("Seen")


def heuristic_positions(
    game_id: str,
    players: int,
    seeds: range,
    record: Callable[[State], Seen | None],
    every: int,
) -> Iterator[tuple[list[Seen], Array]]:
    """Per match of the heuristic bot against itself (one per seed): what ``record`` made
    of every ``every``-th decision's position (None: nothing), and the match's returns."""
    game = load_game(game_id, players=players)
    for seed in seeds:
        rng = random.Random(seed)
        bot = make_bot("heuristic")
        state = game.new_initial_state()
        seen: list[Seen] = []
        decisions = 0
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            decisions += 1
            if decisions % every == 0 and (made := record(state)) is not None:
                seen.append(made)
            state.apply_action(bot.choose(SeatWindow(state, seat), rng))
        yield seen, np.array(state.returns(), float)


@dataclass
class Group:
    """The positions of one kind (e.g. one player count): features, returns, old chances."""

    features: list[Array] = field(default_factory=list)
    returns: list[Array] = field(default_factory=list)
    #: The chances the game's present estimate gives, to compare with (optional).
    old: list[Array] = field(default_factory=list)
    #: Per position, which rows may win (optional: all): a seat out of the game, say.
    alive: list[npt.NDArray[np.bool_]] = field(default_factory=list)

    def add(
        self,
        features: Array,
        returns: Array,
        old: Array | None = None,
        alive: npt.NDArray[np.bool_] | None = None,
    ) -> None:
        self.features.append(features)
        self.returns.append(returns)
        if old is not None:
            self.old.append(old)
        self.alive.append(np.ones(len(features), bool) if alive is None else alive)


def heuristic_group(
    game_id: str,
    players: int,
    seeds: range,
    record: Callable[[State], tuple[Array, Array] | None],
    every: int,
) -> Group:
    """The positions of :func:`heuristic_positions` as a :class:`Group`, for a ``record``
    that gives a position's features and the present estimate's chances."""
    group = Group()
    for seen, returns in heuristic_positions(game_id, players, seeds, record, every):
        for x, old in seen:
            group.add(x, returns, old)
    return group


@dataclass
class Report:
    """The weights found, and how they do on the held-out positions of each group."""

    weights: Array
    #: Per group: positions, held-out log-likelihood, the old estimate's (or None), and
    #: calibration bands (low, high, seats, mean chance given, share won).
    groups: dict[str, tuple[int, float, float | None, list[tuple[float, float, int, float, float]]]]

    def lines(self) -> list[str]:
        out = []
        for name, (count, ll, old, bands) in self.groups.items():
            before = f" (the present estimate: {old:.4f})" if old is not None else ""
            out.append(f"{name}: {count} positions; held-out log-likelihood {ll:.4f}{before}")
            for low, high, seats, given, won in bands:
                out.append(
                    f"  chance {low:.1f}-{high:.1f}: {seats} seats,"
                    f" given {given:.3f}, won {won:.3f}"
                )
        return out


def _chances(theta: Array, x: Array, alive: npt.NDArray[np.bool_]) -> Array:
    z = np.where(alive, x @ theta, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    return p


def log_likelihood(
    theta: Array, x: Array, y: Array, alive: npt.NDArray[np.bool_]
) -> tuple[float, Array]:
    """The mean log-likelihood of the returns ``y`` (positions x seats) and its gradient;
    rows not ``alive`` have no chance."""
    p = _chances(theta, x, alive)
    ll = float(np.sum(y * np.log(np.maximum(p, 1e-12))) / len(x))
    grad = np.einsum("ns,nsk->k", y - p * y.sum(axis=1, keepdims=True), x) / len(x)
    return ll, grad


def fit(groups: dict[str, Group], rounds: int = 6000, step: float = 2.0, seed: int = 0) -> Report:
    """Weights for every group at once (one set), fitted on 80% and checked on 20%."""
    arrays = {
        n: (np.stack(g.features), np.stack(g.returns), np.stack(g.alive))
        for n, g in groups.items()
        if g.features
    }
    k = next(iter(arrays.values()))[0].shape[2]
    # One scale per feature, so that one step size suits every weight.
    every = np.concatenate([x.reshape(-1, k) for x, _, _ in arrays.values()])
    scale = np.maximum(np.abs(every).max(axis=0), 1e-9)
    fits, checks = [], {}
    for name, (x, y, alive) in arrays.items():
        order = np.random.default_rng(seed).permutation(len(x))
        cut = int(0.8 * len(x))
        fit_part, check_part = order[:cut], order[cut:]
        fits.append((x[fit_part] / scale, y[fit_part], alive[fit_part]))
        checks[name] = (x[check_part] / scale, y[check_part], alive[check_part], check_part)
    total = sum(len(x) for x, _, _ in fits)
    theta = np.zeros(k)
    for _ in range(rounds):
        grad = np.zeros(k)
        for x, y, alive in fits:
            grad += log_likelihood(theta, x, y, alive)[1] * len(x) / total
        theta += step * grad
    report: dict[
        str, tuple[int, float, float | None, list[tuple[float, float, int, float, float]]]
    ] = {}
    for name, (x, y, alive, held) in checks.items():
        ll = log_likelihood(theta, x, y, alive)[0]
        old_list = groups[name].old
        old = None
        if old_list:
            ys = [groups[name].returns[i] for i in held]
            olds = [old_list[i] for i in held]
            old = float(
                np.mean(
                    [
                        np.sum(r * np.log(np.maximum(o, 1e-12)))
                        for r, o in zip(ys, olds, strict=True)
                    ]
                )
            )
        chance, won = _chances(theta, x, alive)[alive], y[alive]
        bands = []
        for low in np.arange(0.0, 1.0, 0.2):
            band = (chance >= low) & (chance < low + 0.2)
            if band.any():
                bands.append(
                    (
                        float(low),
                        float(low + 0.2),
                        int(band.sum()),
                        float(chance[band].mean()),
                        float(won[band].mean()),
                    )
                )
        report[name] = (len(arrays[name][0]), ll, old, bands)
    return Report(theta / scale, report)
