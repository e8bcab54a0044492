"""The luxor2001 heuristic policy: legal, view-only, and clearly better than random play."""

from __future__ import annotations

import random

from necropolis.bots import RandomBot
from necropolis.bots.heuristic import HeuristicBot
from necropolis.engine import play_match
from necropolis.games import load_game


def test_heuristic_beats_random_play() -> None:
    game = load_game("luxor2001", players=2, curse=True)
    share = 0.0
    for i in range(30):
        seat = i % 2
        players = [HeuristicBot() if s == seat else RandomBot() for s in range(2)]
        state, _ = play_match(game, players, seed=i)
        share += state.returns()[seat]
    assert share / 30 >= 0.8


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
