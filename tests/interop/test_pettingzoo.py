"""PettingZoo's own API and seed tests on every game and player count.

Collected for every installed game (and the toy game), not only for those that already
have an observation tensor: a game without ``encode_view`` fails here with a message
saying so, rather than being skipped.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from rich.text import Text

from necropolis.engine import IllegalActionError
from necropolis.engine.protocol import Game
from necropolis.games import game_class
from necropolis.interop.pettingzoo import NecropolisEnv, env
from tests.engine.toy import HighCard
from tests.interop.params import player_counts

pytestmark = pytest.mark.usefixtures("toy_registry")


def make(game_id: str, players: int) -> NecropolisEnv:
    cls = game_class(game_id)
    assert cls.encode_view is not Game.encode_view, (
        f"{game_id} has no observation tensor (Game.encode_view), which PettingZoo needs"
    )
    return env(game_id, players=players)


# PettingZoo warns about any Dict observation, though it is how its own board games
# (and every masked environment) present the action mask.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.parametrize(("game_id", "players"), player_counts())
def test_pettingzoo_api_test(game_id: str, players: int) -> None:
    api_test(make(game_id, players), num_cycles=30)


@pytest.mark.parametrize(("game_id", "players"), player_counts())
def test_pettingzoo_seed_test(game_id: str, players: int) -> None:
    make(game_id, players)
    seed_test(lambda: env(game_id, players=players), num_cycles=30)


@pytest.mark.parametrize(("game_id", "players"), player_counts())
def test_a_whole_match_ends_with_the_games_returns(game_id: str, players: int) -> None:
    aec = make(game_id, players)
    aec.reset(seed=3)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        assert obs["observation"].dtype == np.float32
        if terminated or truncated:
            aec.step(None)
            continue
        assert obs["action_mask"].any(), "the agent to act has a legal action"
        aec.step(int(aec.action_space(agent).sample(obs["action_mask"])))
    assert aec.state.is_terminal()
    returns = aec.state.returns()
    assert [totals[a] for a in aec.possible_agents] == returns


def test_only_the_acting_agent_has_a_mask_and_chance_is_resolved() -> None:
    aec = env(HighCard.id, players=3)
    aec.reset(seed=1)
    assert aec.agent_selection == "player_0"  # the deal (chance) was played by the env
    for agent in aec.possible_agents[1:]:
        assert not aec.observe(agent)["action_mask"].any()
    first = aec.observe("player_0")["observation"]
    aec.reset(seed=1)
    assert np.array_equal(aec.observe("player_0")["observation"], first)


def test_a_game_without_tensors_fails_clearly() -> None:
    class Untensored(HighCard):
        encode_view = Game.encode_view
        observation_size = Game.observation_size

    with pytest.raises(NotImplementedError, match="no observation tensor"):
        NecropolisEnv(Untensored(players=2))


@pytest.mark.parametrize("game_id", ["horus", "luxor", "luxor2001"])
def test_an_illegal_action_raises_by_default_and_changes_nothing(game_id: str) -> None:
    aec = env(game_id, players=3)
    aec.reset(seed=2)
    agent = aec.agent_selection
    mask = aec.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = aec.state.clone()
    with pytest.raises(IllegalActionError):
        aec.step(illegal)
    assert aec.state.view(None) == before.view(None)
    assert aec.agent_selection == agent and not any(aec.terminations.values())


@pytest.mark.parametrize("game_id", ["horus", "luxor", "luxor2001"])
def test_an_illegal_action_can_end_the_match_as_the_classic_environments_do(
    game_id: str,
) -> None:
    aec = env(game_id, players=3, illegal_reward=-1)
    aec.reset(seed=2)
    # a few legal moves first, so that the one who errs is not always the first seat
    for _ in range(5):
        agent = aec.agent_selection
        aec.step(int(np.flatnonzero(aec.observe(agent)["action_mask"])[0]))
    culprit = aec.agent_selection
    mask = aec.observe(culprit)["action_mask"]
    aec.step(int(np.flatnonzero(mask == 0)[0]))
    rewards: dict[str, float] = {}
    for agent in aec.agent_iter():
        _, reward, terminated, truncated, _ = aec.last()
        assert terminated or truncated
        rewards[agent] = reward
        aec.step(None)
    assert rewards[culprit] == -1
    assert all(r == 0 for a, r in rewards.items() if a != culprit)
    assert set(rewards) == set(aec.possible_agents)


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:.*illegal move.*")
@pytest.mark.parametrize(("game_id", "players"), player_counts())
def test_pettingzoo_api_test_with_illegal_actions_ending_the_match(
    game_id: str, players: int
) -> None:
    make(game_id, players)
    api_test(env(game_id, players=players, illegal_reward=-1), num_cycles=30)


@pytest.mark.parametrize("game_id", ["horus", "luxor", "luxor2001"])
def test_ansi_rendering_is_plain_text(game_id: str) -> None:
    aec = env(game_id, players=3, render_mode="ansi")
    aec.reset(seed=1)
    for _ in range(6):
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    text = aec.render()
    assert isinstance(text, str) and text.strip()
    marked = aec.unwrapped.game.render_view(aec.unwrapped.state.view(None))
    assert "[/" in marked or "[bold" in marked  # the game's rendering has markup...
    assert "[/" not in text and "[bold" not in text  # ...which ansi does not pass on
    assert text == Text.from_markup(marked).plain
