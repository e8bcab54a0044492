"""Fitting a position estimate: known weights are found again, and out seats never win."""

from __future__ import annotations

import numpy as np

from necropolis.analysis.fitting import Group, fit


def _positions(weights: np.ndarray, count: int, seats: int, out: bool = False) -> Group:
    """Positions whose winner is drawn from the softmax of ``weights``; with ``out``, the
    last seat is out of every position (it may not win, whatever its features)."""
    rng = np.random.default_rng(seats)
    group = Group()
    for _ in range(count):
        x = rng.normal(size=(seats, len(weights))) * [3.0, 1.0, 10.0]
        alive = np.ones(seats, bool)
        if out:
            alive[-1] = False
            x[-1] = 20.0  # far ahead by the weights: only the mask keeps it from winning
        z = np.where(alive, x @ weights, -np.inf)
        p = np.exp(z - z.max())
        p /= p.sum()
        returns = np.zeros(seats)
        returns[rng.choice(seats, p=p)] = 1.0
        group.add(x, returns, old=alive / alive.sum(), alive=alive)
    return group


def test_known_weights_are_found_and_the_fit_beats_an_even_guess() -> None:
    true = np.array([0.5, -1.0, 0.05])
    groups = {"two": _positions(true, 3000, 2), "four": _positions(true, 3000, 4, out=True)}
    report = fit(groups, rounds=3000)
    assert np.allclose(report.weights, true, atol=0.12), report.weights
    for name, seats in (("two", 2), ("four", 3)):
        count, ll, old, bands = report.groups[name]
        assert count == 3000
        assert old is not None and ll > old  # an even guess over the seats that may win
        assert abs(old - np.log(1 / seats)) < 1e-9
        for _low, _high, n, given, won in bands:
            if n >= 100:  # chances given come true, band by band
                assert abs(given - won) < 0.08, (name, given, won)
    assert "held-out log-likelihood" in report.lines()[0]


def test_a_seat_out_of_the_game_is_given_no_chance() -> None:
    true = np.array([0.5, -1.0, 0.05])
    report = fit({"four": _positions(true, 1500, 4, out=True)}, rounds=2000)
    # Had the out seat counted, its features (far ahead, never winning) would have
    # dragged the weights down; the mask leaves them where the living seats put them.
    assert np.allclose(report.weights, true, atol=0.2), report.weights


def test_heuristic_matches_yield_every_nth_position_and_who_won() -> None:
    from necropolis.analysis.fitting import heuristic_positions

    decisions: list[int] = []

    def record(state: object) -> int | None:
        decisions.append(1)
        return None if len(decisions) % 3 == 0 else len(decisions)

    matches = list(heuristic_positions("luxor2001", 2, range(7, 9), record, every=4))
    assert len(matches) == 2
    for seen, returns in matches:
        assert returns.shape == (2,) and returns.sum() == 1.0
        assert all(isinstance(n, int) for n in seen)
    # Asked at every fourth decision; what it declined (None) is left out.
    assert sum(len(seen) for seen, _ in matches) == len(decisions) - len(decisions) // 3
    again = list(heuristic_positions("luxor2001", 2, range(7, 9), lambda s: 1, every=4))
    assert [r.tolist() for _, r in again] == [r.tolist() for _, r in matches]
