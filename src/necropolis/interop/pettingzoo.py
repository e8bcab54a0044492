"""PettingZoo adapter: every necropolis game as an AEC (agent-environment-cycle) environment.

``env("luxor2001", players=3)`` gives agents ``player_0`` … ``player_{n-1}`` (seat
numbers). Each agent observes a ``Dict`` with ``observation``, the game's ``encode_view``
tensor of that seat's view (a ``Box`` in [0, 1], float32), and ``action_mask``, one int8
per decision id (1 for the agent's legal actions now, all 0 when it is not to act). The
action space is ``Discrete(num_distinct_actions)``. Chance nodes never reach the agents:
the environment resolves them from its own generator, seeded by ``reset(seed=...)``, so
that one seed gives one match whatever the agents do. Rewards are zero until the end,
then each seat's :meth:`State.returns` (winners share 1). Like every adapter here it
knows no game: a game without an observation tensor fails at construction, saying so.

An illegal action raises :class:`~necropolis.engine.IllegalActionError` and changes
nothing, by default. ``env(..., illegal_reward=-1)`` plays it as PettingZoo's classic
environments do instead (their ``TerminateIllegalWrapper``, which this uses): the match
ends at once, the agent that acted gets ``illegal_reward``, every other agent 0.
``render_mode="ansi"`` returns the spectator's board as plain text; ``"human"`` prints it
with the terminal's colours.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import TerminateIllegalWrapper
from rich.console import Console
from rich.text import Text

from necropolis.engine.driver import sample_chance
from necropolis.engine.protocol import CHANCE, Game, State
from necropolis.games import load_game


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class NecropolisEnv(AECEnv):  # type: ignore[misc]
    """One necropolis game as a PettingZoo AEC environment."""

    RENDER_MODES: ClassVar[tuple[str, ...]] = ("ansi", "human")

    def __init__(self, game: Game, render_mode: str | None = None) -> None:
        super().__init__()
        if type(game).encode_view is Game.encode_view:
            raise NotImplementedError(
                f"{game.id} has no observation tensor yet (Game.encode_view), so it cannot "
                "be a PettingZoo environment"
            )
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(self.RENDER_MODES)}")
        self.game = game
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {
            "render_modes": list(self.RENDER_MODES),
            "name": f"necropolis_{game.id}_v0",
            "is_parallelizable": False,
        }
        n = game.num_players
        self.possible_agents = [agent_name(seat) for seat in range(n)]
        self._seat = {name: seat for seat, name in enumerate(self.possible_agents)}
        size = game.observation_size()
        width = game.num_distinct_actions()
        self.observation_spaces = {
            name: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (width,), np.int8),
                }
            )
            for name in self.possible_agents
        }
        self.action_spaces = {name: spaces.Discrete(width) for name in self.possible_agents}
        self._rng = random.Random()
        self.state: State = game.new_initial_state()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # Without a seed a reset continues the generator, as Gymnasium environments do;
        # with one it restarts it, so that a seed names a match.
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {name: {} for name in self.agents}
        self._advance()

    def _advance(self) -> None:
        """Resolve chance nodes, then hand the turn to the seat to act or end the match."""
        state = self.state
        while state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, self._rng))
        if state.is_terminal():
            returns = state.returns()
            for name in self.agents:
                self.rewards[name] = float(returns[self._seat[name]])
                self.terminations[name] = True
            # Any agent may be first to leave; PettingZoo removes each as it steps None.
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = agent_name(state.current_player())

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self._seat[agent]
        tensor = np.asarray(self.game.encode_view(self.state.view(seat)), dtype=np.float32)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        mask[self.state.legal_actions(seat)] = 1
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        for name in self.agents:
            self.rewards[name] = 0.0
        self.state.apply_action(int(action))
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        # A game renders a view with Rich markup, for the terminal.
        text = Text.from_markup(self.game.render_view(self.state.view(None)))
        if self.render_mode == "human":
            Console().print(text)
            return None
        return text.plain

    def close(self) -> None:
        pass


def env(
    game_id: str,
    render_mode: str | None = None,
    illegal_reward: float | None = None,
    **options: Any,
) -> AECEnv:
    """The AEC environment of ``game_id`` with its options (e.g. ``players=3``).

    ``illegal_reward`` None: an illegal action raises ``IllegalActionError``; a number:
    it ends the match, that agent getting the number and the others 0 (the classic
    environments' convention, through PettingZoo's ``TerminateIllegalWrapper``).
    """
    table = NecropolisEnv(load_game(game_id, **options), render_mode)
    if illegal_reward is None:
        return table
    return TerminateIllegalWrapper(table, illegal_reward=illegal_reward)
