"""The luxor2001 heuristic policy: legal, view-only, and clearly better than random play."""

from __future__ import annotations

import random

import pytest

from necropolis.engine import CHANCE, sample_chance
from necropolis.engine.frozen import replaced
from necropolis.games import load_game
from necropolis.games.luxor2001 import LuxorState


def test_heuristic_decides_from_the_view() -> None:
    from necropolis.engine.seat import SeatWindow
    from tests.luxor2001.luxor2001_support import random_step
    from tests.luxor2001.test_luxor2001_information import hidden_twin, midgame

    policy = load_game("luxor2001", players=3).heuristic_policy()
    assert policy is not None
    for seed in range(5):
        state = midgame(3, seed)
        seat = state.current_player()
        twin = hidden_twin(state, seat)
        a = policy(SeatWindow(state, seat), random.Random(seed))
        b = policy(SeatWindow(twin, seat), random.Random(seed))
        assert a == b and a in state.legal_actions()
        random_step(state, random.Random(seed))


def test_estimate_returns_favours_the_seat_ahead_and_ends_as_returns() -> None:
    game = load_game("luxor2001", players=3)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        shares = state.estimate_returns()
        assert len(shares) == 3 and all(0.0 <= x <= 1.0 for x in shares)
        assert sum(shares) == pytest.approx(1.0)
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.estimate_returns() == state.returns()
    ahead = game.new_initial_state()
    assert isinstance(ahead, LuxorState)
    # three 3-eye sarcophagi for seat 1 (value indices 4-6)
    ahead.held = replaced(ahead.held, 1, (4, 5, 6))
    shares = ahead.estimate_returns()
    assert shares[1] > 0.9 and shares[0] == pytest.approx(shares[2])
