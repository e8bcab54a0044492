"""The single-agent gymnasium environment: one seat against bots, on every game."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from necropolis.interop.gym import SeatEnv

GAMES = ["horus", "luxor", "luxor2001"]


def first_legal(env: SeatEnv) -> int:
    return int(np.flatnonzero(env.action_masks())[0])


@pytest.mark.parametrize("game_id", GAMES)
def test_gymnasium_check_env_passes(game_id: str) -> None:
    check_env(SeatEnv(game_id, ["random"], players=3), skip_render_check=True)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_match_ends_with_the_learners_return(game_id: str) -> None:
    env = SeatEnv(game_id, ["easy", "random"], seat=1, players=3)
    observation, info = env.reset(seed=4)
    total, done, steps = 0.0, False, 0
    while not done:
        assert env.state.current_player() == 1  # chance and the bots were played
        assert observation.shape == env.observation_space.shape
        assert env.observation_space.contains(observation)
        mask = env.action_masks()
        assert np.array_equal(info["action_mask"], mask)
        assert sorted(np.flatnonzero(mask)) == env.state.legal_actions(1)
        observation, reward, done, truncated, info = env.step(first_legal(env))
        assert not truncated
        total += reward
        steps += 1
    assert env.state.is_terminal() and steps > 3
    assert total == env.state.returns()[1]
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("game_id", GAMES)
def test_an_illegal_action_ends_the_match_with_the_penalty(game_id: str) -> None:
    env = SeatEnv(game_id, ["random"], players=2, illegal_reward=-2)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = env.state.view(None)
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2, True, False, True)
    assert env.state.view(None) == before  # nothing was played


def test_a_seed_names_a_match_and_a_free_seat_is_drawn() -> None:
    def trajectory(seed: int) -> list[bytes]:
        env = SeatEnv("luxor2001", ["easy"], players=2)
        observation, _ = env.reset(seed=seed)
        seen, done = [observation.tobytes()], False
        while not done:
            observation, _, done, _, _ = env.step(first_legal(env))
            seen.append(observation.tobytes())
        return seen

    assert trajectory(3) == trajectory(3)
    assert trajectory(3) != trajectory(4)
    env = SeatEnv("luxor2001", ["random"], seat=None, players=3)
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.seat)
        assert env.players[env.seat] is None
        assert sum(p is None for p in env.players) == 1
    assert seats == {0, 1, 2}


def test_bad_arguments_get_clear_errors() -> None:
    with pytest.raises(ValueError, match="one opponent or 2"):
        SeatEnv("luxor2001", ["random", "easy", "easy"], players=3)
    with pytest.raises(ValueError, match="seat must be"):
        SeatEnv("luxor2001", ["random"], seat=2, players=2)
    with pytest.raises(ValueError, match="no bot called"):
        SeatEnv("luxor2001", ["nobody"], players=2)


def test_ansi_render_is_the_learners_view_as_plain_text() -> None:
    env = SeatEnv("luxor2001", ["random"], players=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and text.strip() and "[/" not in text
