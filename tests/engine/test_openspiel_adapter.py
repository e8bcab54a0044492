"""The OpenSpiel adapter on the toy game: registration, conformance, observations."""

from __future__ import annotations

import pyspiel

from necropolis.interop import openspiel
from tests.engine.toy import HighCard


def test_toy_game_passes_random_sim_test() -> None:
    name = openspiel.register(HighCard)
    for players in (2, 3, 4):
        game = pyspiel.load_game(name, {"players": players})
        assert game.num_players() == players
        pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def test_observations_come_from_views() -> None:
    game = pyspiel.load_game(openspiel.register(HighCard), {"players": 2})
    state = game.new_initial_state()
    state.apply_action(4)
    state.apply_action(1)
    assert '"my_card":4' in state.observation_string(0)
    assert '"my_card":1' in state.observation_string(1)
    assert state.information_state_string(0).startswith("move 2 ")
    tensor = state.observation_tensor(0)
    assert len(tensor) == game.observation_tensor_size() == 2 + 4 + 1
    assert tensor[0] == 1.0 and tensor[2 + 3] == 1.0


def test_resample_from_infostate_keeps_the_seat_view() -> None:
    game = pyspiel.load_game(openspiel.register(HighCard), {"players": 3})
    state = game.new_initial_state()
    for card in (4, 2, 3):
        state.apply_action(card)
    draws = iter([0.1, 0.7, 0.4, 0.9, 0.3] * 10)
    world = state.resample_from_infostate(1, lambda: next(draws))
    assert world.observation_string(1) == state.observation_string(1)
    clone = state.clone()
    clone.apply_action(0)
    assert state.current_player() == 0 and clone.current_player() == 1


def test_information_states_recall_private_observations_the_view_has_forgotten() -> None:
    game = pyspiel.load_game(openspiel.register(HighCard), {"players": 2})
    ends = []
    for first_card in (4, 3):
        state = game.new_initial_state()
        for action in (first_card, 1, 1, 2):  # deal, deal, seat 0 redraws and draws a 2
            state.apply_action(action)
        ends.append(state)
    # Seat 0 now sees the same thing either way (its card is a 2)...
    assert ends[0].observation_string(0) == ends[1].observation_string(0)
    # ...but it once held a 4 in one history and a 3 in the other: perfect recall tells.
    assert ends[0].information_state_string(0) != ends[1].information_state_string(0)
    # Seat 1 never saw seat 0's cards: for it the two histories are one.
    assert ends[0].information_state_string(1) == ends[1].information_state_string(1)
