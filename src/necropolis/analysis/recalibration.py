"""Fitting a game's recalibration: the map from its estimate's chances to what comes true.

A game whose hand-written estimate is too sure of itself in some bands of chance and too
shy in others (``docs/strength.md``, "Calibration") ships a
:class:`~necropolis.bots.judgement.Recalibration` beside its rules
(``games/<id>/calibration-<N>p.json``), which the judgement people see (the analysis of
finished matches, hints, the evaluator) applies to a view's chance, the mean of its
worlds' estimates. This module
makes one: the heuristic plays itself (positions of sound play, the ones the analysis
judges), every seat's view at every real decision is judged by the raw estimate in a few
worlds drawn from it, and the chances are binned by their logit against whether the seat
won; the bins' shares, made monotone by isotonic regression, are the map's values (or, for
an estimate that is too shy or too sure alike across its range, a slope and a shift in
logits fitted by likelihood, which two numbers learn from fewer matches, with a third
where asked: the logits owed to the seat that decides next, whose coming turn an
estimate of the position leaves out). The matches are
seeded apart from those :func:`necropolis.analysis.training.reliability`
measures the result on, so the measurement is held out.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from necropolis.analysis.batch import match_seed
from necropolis.analysis.training import judged_matches, share_matches
from necropolis.bots.judgement import Recalibration, to_move
from necropolis.engine.protocol import State
from necropolis.engine.seat import SeatWindow
from necropolis.games import load_game

Array = NDArray[np.float64]

#: Bins of estimated chance (equal counts of judged worlds) that the map is fitted on.
BINS = 24


@dataclass
class Judged:
    """Every judged seat view of some matches: ``raw[i, k]`` is the raw estimate of the
    seat's chance in the k-th world drawn from its view, ``won[i]`` its return,
    ``moving[i]`` 1 where the seat is the one that decides next (:func:`to_move`), else 0
    (all 0 where it was not recorded), ``match[i]`` the index of the view's match."""

    raw: Array
    won: Array
    matches: int
    moving: Array | None = None
    match: Array | None = None

    def mover_flags(self) -> Array:
        return np.zeros(len(self.won)) if self.moving is None else self.moving

    def save(self, path: Path, made: dict[str, Any]) -> None:
        """Write the views to ``path`` (numpy's ``.npz``) with how they were ``made`` (the
        game, seed, matches ...), to fit other maps on later without playing again."""
        np.savez_compressed(
            path,
            raw=self.raw,
            won=self.won,
            matches=np.array(self.matches),
            moving=self.mover_flags(),
            match=np.zeros(len(self.won)) if self.match is None else self.match,
            made=np.array(json.dumps(made, sort_keys=True)),
        )

    @classmethod
    def load(cls, path: Path) -> tuple[Judged, dict[str, Any]]:
        """The views :meth:`save` wrote, and how they were made."""
        with np.load(path) as page:
            judged = cls(
                page["raw"], page["won"], int(page["matches"]), page["moving"], page["match"]
            )
            return judged, dict(json.loads(str(page["made"])))

    @classmethod
    def join(cls, parts: Sequence[Judged]) -> Judged:
        """The views of several runs (each of its own matches) as one."""
        return cls(
            np.concatenate([p.raw for p in parts]),
            np.concatenate([p.won for p in parts]),
            sum(p.matches for p in parts),
            np.concatenate([p.mover_flags() for p in parts]),
            np.concatenate([np.zeros(len(p.won)) if p.match is None else p.match for p in parts]),
        )


def collect(
    game_id: str,
    matches: int,
    seed: int,
    players: int = 2,
    worlds: int = 16,
    every: int = 1,
    workers: int = 1,
) -> Judged:
    """Judge every seat's view at every ``every``-th real decision of ``matches`` matches
    of the heuristic in every seat (:func:`~necropolis.analysis.training.judged_matches`),
    each in ``worlds`` worlds drawn from the view, by the raw estimate. With ``workers``
    above one, the matches are shared among that many processes; the views come out the
    same and in the same order."""
    parts = share_matches(_collect, matches, workers, game_id, seed, players, worlds, every)
    if len(parts) == 1:
        return parts[0]
    joined = Judged.join(parts)
    # Back into the matches' order, each match's views in the order they were judged.
    assert joined.match is not None
    order = np.argsort(joined.match, kind="stable")
    return Judged(
        joined.raw[order],
        joined.won[order],
        matches,
        joined.mover_flags()[order],
        joined.match[order],
    )


def _collect(
    which: range, game_id: str, seed: int, players: int, worlds: int, every: int
) -> Judged:
    game = load_game(game_id, players=players)
    raw: list[list[float]] = []
    won: list[float] = []
    moving: list[float] = []
    match: list[float] = []
    draws: dict[int, random.Random] = {}

    def judged(i: int, state: State) -> list[tuple[list[float], int, bool]]:
        # The worlds' draws: a generator per match, apart from the match's own.
        if i not in draws:
            draws.clear()
            draws[i] = random.Random(match_seed(seed, i) + 1)
        draw = draws[i]
        mover = to_move(state)
        return [
            (
                [SeatWindow(state, q).resample(draw).estimate_returns()[q] for _ in range(worlds)],
                q,
                q == mover,
            )
            for q in range(players)
        ]

    for i, rows, returns in judged_matches(game, which, seed, judged, every=every):
        for row, q, moves in rows:
            raw.append(row)
            won.append(returns[q])
            moving.append(float(moves))
            match.append(float(i))
    return Judged(
        np.array(raw, dtype=np.float64).reshape(len(won), worlds),
        np.array(won, dtype=np.float64),
        len(which),
        np.array(moving, dtype=np.float64),
        np.array(match, dtype=np.float64),
    )


#: The maps :func:`fit` makes: ``monotone`` (a share per bin, made monotone) follows any
#: shape and needs many matches to be steady; ``logistic`` (a slope and a shift in
#: logits, Platt's scaling) has two numbers to learn and suits an estimate that is too shy
#: or too sure alike in both tails.
METHODS = ("monotone", "logistic")


def fit(
    judged: Judged, bins: int = BINS, method: str = "monotone", mover: bool = False
) -> Recalibration:
    """The map from a view's chance (the raw estimate's mean over its worlds) to the share
    its seat won, by ``method`` (:data:`METHODS`); with ``mover``, a term for the seat
    that decides next besides (the logistic map only)."""
    if method == "logistic":
        return fit_logistic(judged, mover=mover)
    if method != "monotone":
        raise ValueError(f"no recalibration method {method!r}: {', '.join(METHODS)}")
    if mover:
        raise ValueError("a term for the seat to move is fitted with the logistic map only")
    return fit_monotone(judged, bins)


def _logits(judged: Judged) -> Array:
    edge = 1e-4
    p = np.clip(judged.raw.mean(axis=1), edge, 1.0 - edge)
    return np.asarray(np.log(p / (1.0 - p)), dtype=np.float64)


def fit_logistic(judged: Judged, steps: int = 50, mover: bool = False) -> Recalibration:
    """The map ``logit(share) = slope * logit(chance) + shift`` that makes the views'
    outcomes likeliest (Newton's method on the log-likelihood; a shared win counts its
    share), as two knots at the ends of the chances seen: beyond them the map goes on at
    slope one, as every map does. With ``mover``, ``+ mover`` more for the seat that
    decides next, fitted with the rest."""
    x = _logits(judged)
    y = judged.won
    if len(x) < 2 or float(x.max() - x.min()) < 1e-9:
        raise ValueError("the estimate gave one chance to every position: nothing to map")
    columns = [x, np.ones_like(x)]
    if mover:
        flags = judged.mover_flags()
        if float(flags.min()) == float(flags.max()):
            raise ValueError("the views do not say which seat moves next: no term for it")
        columns.append(flags)
    design = np.stack(columns, axis=1)
    theta = np.zeros(len(columns))
    theta[0] = 1.0
    for _ in range(steps):
        q = 1.0 / (1.0 + np.exp(-(design @ theta)))
        gradient = design.T @ (y - q)
        hessian = (design * (q * (1.0 - q))[:, None]).T @ design
        step = np.linalg.solve(hessian + 1e-9 * np.eye(len(columns)), gradient)
        theta = theta + step
        if float(np.abs(step).max()) < 1e-10:
            break
    slope, shift = float(theta[0]), float(theta[1])
    if slope <= 0:
        raise ValueError("the estimate's chances do not rise with the share won: no map")
    low, high = float(x.min()), float(x.max())
    return Recalibration(
        (low, high),
        (slope * low + shift, slope * high + shift),
        mover=float(theta[2]) if mover else 0.0,
    )


def fit_monotone(judged: Judged, bins: int = BINS) -> Recalibration:
    """The monotone map from a view's chance (the raw estimate's mean over its worlds) to
    the share its seat won: the views in ``bins`` bins of equal count by that chance's
    logit, each bin's share won, made monotone by isotonic regression (weighed by the
    views in each bin), as knots at the bins' mean logits."""
    # scipy is a research dependency: only fitting needs it.
    from scipy.optimize import isotonic_regression  # type: ignore[import-untyped]

    x = _logits(judged)
    order = np.argsort(x, kind="stable")
    x, y = x[order], judged.won[order]
    groups = [g for g in np.array_split(np.arange(len(x)), bins) if len(g)]
    centres = np.array([x[g].mean() for g in groups])
    shares = np.array([y[g].mean() for g in groups])
    weights = np.array([float(len(g)) for g in groups])
    monotone = isotonic_regression(shares, weights=weights, increasing=True).x
    # A bin's share is never taken as surer than half a view from its end.
    low = 0.5 / weights
    share = np.clip(monotone, low, 1.0 - low)
    values = np.log(share / (1.0 - share))
    # Bins whose mean logits coincide (a chance the estimate gives often) become one knot.
    knots: list[float] = []
    mapped: list[float] = []
    for centre, value in zip(centres, values, strict=True):
        if knots and centre <= knots[-1] + 1e-9:
            mapped[-1] = max(mapped[-1], float(value))
            continue
        knots.append(float(centre))
        mapped.append(float(value))
    if len(knots) < 2:
        raise ValueError("the estimate gave one chance to every position: nothing to map")
    for i in range(1, len(mapped)):  # clipping must not make the map fall
        mapped[i] = max(mapped[i], mapped[i - 1])
    return Recalibration(tuple(knots), tuple(mapped))
