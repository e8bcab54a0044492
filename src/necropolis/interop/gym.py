"""Gymnasium adapter: one seat of a game as a single-agent environment, the others bots.

``SeatEnv("luxor2001", opponents=["easy"], players=2)`` is a :class:`gymnasium.Env` in
which the learner plays seat ``seat`` (0 by default; ``None``: a seat drawn at each
reset, so that a policy learns every seat) and every other seat is played by a
necropolis bot (each deciding from its own seat's window, as bots always do). Chance is
resolved inside the environment from the generator that ``reset(seed=...)`` seeds, and
the bots draw from generators derived from the same seed, so a seed and the learner's
actions give one match. An observation is the game's observation tensor of the learner's
view (``Box`` in [0, 1], float32); the action space is ``Discrete(num_distinct_actions)``
with the legal actions in :meth:`SeatEnv.action_masks` (what sb3-contrib's MaskablePPO
reads) and in ``info["action_mask"]``. The reward is 0 until the end, then the learner's
return (its share of the win). An illegal action ends the match at once with
``illegal_reward`` (default -1) for the learner, as PettingZoo's classic environments do,
and ``info["illegal_action"]`` says so: a policy that ignores the mask learns from it
rather than crashing (and gymnasium's ``check_env`` passes). The adapter knows no game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from necropolis.bots import make_bot
from necropolis.engine.driver import Player, player_rngs, sample_chance
from necropolis.engine.protocol import CHANCE, Game, State
from necropolis.engine.seat import SeatWindow
from necropolis.games import load_game

Observation = np.ndarray[Any, np.dtype[np.float32]]


class SeatEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a necropolis game against bots, for single-agent learners."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium's)

    def __init__(
        self,
        game: str | Game,
        opponents: Sequence[str | Player] = ("random",),
        seat: int | None = 0,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game = load_game(game, **options) if isinstance(game, str) else game
        if type(self.game).encode_view is Game.encode_view:
            raise NotImplementedError(f"{self.game.id} has no observation tensor (encode_view)")
        n = self.game.num_players()
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1} or None, not {seat}")
        if len(opponents) == 1:
            opponents = list(opponents) * (n - 1)
        if len(opponents) != n - 1:
            raise ValueError(
                f"{self.game.id} with {n} players needs one opponent or {n - 1}, "
                f"not {len(opponents)}"
            )
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi'")
        self.opponents = [make_bot(o) if isinstance(o, str) else o for o in opponents]
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.players: list[Player | None] = self._seated()
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        width = self.game.num_distinct_actions()
        self.observation_space = spaces.Box(0.0, 1.0, (self.game.observation_size(),), np.float32)
        self.action_space = spaces.Discrete(width)
        self._chance = random.Random()
        self._rngs = player_rngs(None, n)
        self.state: State = self.game.new_initial_state()
        self._over = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        # Without a seed a reset goes on drawing from the generators, as Gymnasium
        # environments do; with one it starts them again, so that a seed names a match.
        if seed is not None:
            self._chance = random.Random(seed)
            self._rngs = player_rngs(seed, self.game.num_players())
        if self.fixed_seat is None:
            self.seat = self._chance.randrange(self.game.num_players())
            self.players = self._seated()
        self.state = self.game.new_initial_state()
        self._over = False
        self._play_others()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the match is over: call reset() first")
        action = int(action)
        if action not in self.state.legal_actions(self.seat):
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), self.illegal_reward, True, False, info
        self.state.apply_action(action)
        self._play_others()
        reward = 0.0
        if self.state.is_terminal():
            self._over = True
            reward = float(self.state.returns()[self.seat])
        return self._observe(), reward, self._over, False, self._info()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The learner's legal actions now (all False once the match is over)."""
        mask = np.zeros(self.game.num_distinct_actions(), dtype=bool)
        if not self._over:
            mask[self.state.legal_actions(self.seat)] = True
        return mask

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from rich.text import Text

        return Text.from_markup(self.game.render_view(self.state.view(self.seat))).plain

    def _seated(self) -> list[Player | None]:
        """The bots in the seats other than the learner's, in the order given."""
        bots = iter(self.opponents)
        return [None if s == self.seat else next(bots) for s in range(self.game.num_players())]

    def _play_others(self) -> None:
        """Chance and the bots' moves, until the learner is to act or the match is over."""
        state = self.state
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state, self._chance))
                continue
            bot = self.players[player]
            if bot is None:
                return
            state.apply_action(bot.choose(SeatWindow(state, player), self._rngs[player]))

    def _observe(self) -> Observation:
        view = self.state.view(self.seat)
        return np.asarray(self.game.encode_view(view), dtype=np.float32)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}
