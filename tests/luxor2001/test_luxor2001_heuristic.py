"""The luxor2001 heuristic policy: legal, view-only, and clearly better than random play."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from necropolis.bots import make_bot
from necropolis.engine import CHANCE, SeatWindow, sample_chance
from necropolis.engine.frozen import replaced
from necropolis.games import load_game
from necropolis.games.luxor2001 import LuxorState
from necropolis.games.luxor2001.components import WALL_CARDS


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
    assert shares[1] > 0.5 and shares[0] == pytest.approx(shares[2])
    # The same lead is surer near the end of the match (the wall nearly full).
    ahead.inserted = WALL_CARDS - 1
    late = ahead.estimate_returns()
    assert late[1] > 0.9 and late[1] > shares[1] and late[0] == pytest.approx(late[2])


def test_the_fitted_estimate_predicts_who_wins_better_than_chance() -> None:
    # Positions of heuristic-only matches it was not fitted on (other seeds): the
    # estimate's log-likelihood of the winners beats an even guess's clearly, and its
    # confident calls mostly come true.
    game = load_game("luxor2001", players=2)
    bot = make_bot("heuristic")
    likelihood: list[float] = []
    confident: list[float] = []
    for index in range(40):
        rng = random.Random(f"estimate check {index}")
        state = game.new_initial_state()
        chances: list[list[float]] = []
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            chances.append(state.estimate_returns())
            state.apply_action(bot.choose(SeatWindow(state, seat), rng))
        returns = state.returns()
        for shares in chances[::3]:
            likelihood.append(
                sum(r * math.log(max(p, 1e-12)) for r, p in zip(returns, shares, strict=True))
            )
            for r, p in zip(returns, shares, strict=True):
                if p > 0.8:
                    confident.append(r)
    assert statistics.mean(likelihood) > math.log(0.5) + 0.08
    assert len(confident) > 50 and statistics.mean(confident) > 0.8


def test_hard_decides_alike_from_the_same_seed_with_the_learned_estimate() -> None:
    from necropolis.bots.levels import hard
    from tests.luxor2001.test_luxor2001_information import midgame

    state = midgame(2, 11)
    seat = state.current_player()
    decided = []
    for _ in range(2):
        bot = hard()
        bot.seconds = None  # the count alone ends the search, however busy the machine
        action = bot.choose(SeatWindow(state, seat), random.Random(8))
        decided.append((action, bot.last.iterations, bot.last.root_visits))
    assert decided[0] == decided[1]
    assert decided[0][1] == load_game("luxor2001").hard_iterations == 2000
