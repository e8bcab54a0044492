"""The OpenSpiel adapter as researchers use it, on every game and player count.

Observation tensors must be the game's ``encode_view`` of the seat's view;
``resample_from_infostate`` must give a world that the seat cannot tell apart; and
OpenSpiel's IS-MCTS must be able to search the adapter's states. OpenSpiel's C++
``pyspiel.ISMCTSBot`` cannot: pyspiel's bridge for Python games does not forward
``ResampleFromInfostate`` to Python, so the C++ search calls the unimplemented base
method and the process dies. Its Python twin, ``open_spiel.python.algorithms.ismcts``,
calls the adapter's method and is what these tests run.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from necropolis.engine.protocol import Game
from necropolis.games import game_class
from necropolis.interop import openspiel
from tests.interop.params import player_counts

pytestmark = pytest.mark.usefixtures("toy_registry")


def load(game_id: str, players: int) -> Any:
    cls = game_class(game_id)
    assert cls.encode_view is not Game.encode_view, f"{game_id} has no observation tensor"
    return pyspiel.load_game(openspiel.register(cls), {"players": players})


def advance(state: Any, rng: np.random.Generator, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize(("game_id", "players"), player_counts())
def test_tensors_and_resampled_worlds_follow_the_seat_view(game_id: str, players: int) -> None:
    game = load(game_id, players)
    inner = game.inner
    rng = np.random.default_rng(players)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 12:
        advance(state, rng, 3)
        if state.is_terminal() or state.is_chance_node():
            continue
        for seat in range(players):
            tensor = np.asarray(state.observation_tensor(seat))
            assert tensor.shape == (game.observation_tensor_size(),)
            assert ((tensor >= 0) & (tensor <= 1)).all()
            expected = inner.encode_view(state.inner.view(seat))
            assert np.allclose(tensor, expected)
            world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0, 1))
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert world.observation_tensor(seat) == state.observation_tensor(seat)
        checked += 1
    assert checked


@pytest.mark.parametrize(("game_id", "players"), player_counts())
def test_openspiel_ismcts_searches_the_adapter(game_id: str, players: int) -> None:
    game = load(game_id, players)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 16, random_state=np.random.RandomState(1))
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 3:
        if state.is_chance_node():
            advance(state, rng, 1)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions or state.is_terminal()


@pytest.mark.parametrize("game_id", ["horus", "luxor", "luxor2001"])
def test_information_states_are_the_seats_whole_observation_history(game_id: str) -> None:
    """Two trajectories that part at a chance event share an information state for a seat
    exactly when that seat observed the same things, in order, all along."""
    game = pyspiel.load_game(f"necropolis_{game_id}", {"players": 2})
    rng = random.Random(game_id)
    parted = 0
    for _ in range(6):
        state = game.new_initial_state()
        for _ in range(rng.randrange(5, 40)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                if len(outcomes) > 1 and rng.random() < 0.3:
                    left, right = state.clone(), state.clone()
                    a, b = rng.sample(outcomes, 2)
                    left.apply_action(a)
                    right.apply_action(b)
                    _compare_after_parting(left, right, rng)
                    parted += 1
                state.apply_action(rng.choice(outcomes))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert parted > 0


def _compare_after_parting(left: Any, right: Any, rng: random.Random) -> None:
    """Play the same actions on both sides while both allow them, checking at each step
    that a seat's information states agree exactly when its observations so far agree."""
    seen: dict[int, tuple[list[str], list[str]]] = {
        p: ([left.observation_string(p)], [right.observation_string(p)]) for p in (0, 1)
    }
    for _ in range(15):
        if left.is_terminal() or left.current_player() != right.current_player():
            break
        if left.is_chance_node():
            options = {a for a, _ in left.chance_outcomes()} & {
                a for a, _ in right.chance_outcomes()
            }
        else:
            options = set(left.legal_actions()) & set(right.legal_actions())
        if not options:
            break
        action = rng.choice(sorted(options))
        actor = left.current_player()
        left.apply_action(action)
        right.apply_action(action)
        for p in (0, 1):
            own = str(action) if actor == p else ""
            seen[p][0].append(own + left.observation_string(p))
            seen[p][1].append(own + right.observation_string(p))
            same_past = seen[p][0] == seen[p][1]
            same_state = left.information_state_string(p) == right.information_state_string(p)
            assert same_state == same_past, (p, left.move_number())
