"""Random games of The Pyramid of Horus finish, keep every card, and refuse nothing legal.

A thousand games per player count (marked slow; part of the full suite). Random play is
a poor player: it leaves by the entrance early or wanders until the blocks seal it in.
"""

from __future__ import annotations

import random

import pytest

from tests.horus.helpers import EXPECTED, card_totals, new_state, play_random


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_few_random_games_finish_with_cards_conserved(players: int) -> None:
    rng = random.Random(players)
    for _ in range(20):
        state = new_state(players)
        steps = play_random(state, rng, check_every=1)
        assert state.is_terminal()
        assert +card_totals(state) == +EXPECTED
        assert steps <= state.game.max_game_length()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("secrecy", [False, True])
def test_a_thousand_random_games_finish(players: int, secrecy: bool) -> None:
    rng = random.Random(1000 + players)
    games = 1000 if not secrecy else 100
    for _ in range(games):
        state = new_state(players, total_secrecy=secrecy)
        steps = play_random(state, rng)
        assert state.is_terminal()
        assert +card_totals(state) == +EXPECTED
        assert steps <= state.game.max_game_length()
        returns = state.returns()
        assert sum(returns) in (0.0, pytest.approx(1.0))
