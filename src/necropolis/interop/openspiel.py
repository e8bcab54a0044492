"""OpenSpiel adapter: every necropolis game as a pyspiel game named ``necropolis_<id>``.

Importing this module registers each installed game with OpenSpiel, so that
``pyspiel.load_game("necropolis_luxor2001", {"players": 3})`` works. The adapter is thin:
states delegate to the engine's protocol, observation strings are the seat's view as
canonical JSON, and observation tensors come from the game's ``encode_view``. The
information-state string has perfect recall: besides the move number and the current view
it carries a digest of everything the seat has observed, in order (its view after every
action, and its own actions), so two histories that gave the seat different private
observations never share an information state even when they end in the same view. A
state from ``resample_from_infostate`` wraps a determinization, whose history is sealed
(see :meth:`~necropolis.engine.protocol.State.history`): its ``move_number`` is the
world's, its ``history`` raises as the world's does, and the recall it starts from is the
seat's own. Games are general-sum with returns in [0, 1] (winners share 1), since a match
can end with no winner at all.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from necropolis.engine.protocol import CHANCE, TERMINAL, Game, State
from necropolis.games import game_class, game_ids

PREFIX = "necropolis_"


def _has_tensor(cls: type[Game]) -> bool:
    return cls.encode_view is not Game.encode_view


def _game_type(cls: type[Game]) -> Any:
    tensors = _has_tensor(cls)
    return pyspiel.GameType(
        short_name=PREFIX + cls.id,
        long_name=f"necropolis: {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=tensors,
        parameter_specification={o.name: o.default for o in cls.declared_options()},
    )


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping one necropolis state."""

    def __init__(self, game: SpielGame, state: State | None = None) -> None:
        super().__init__(game)
        self.inner: State = state if state is not None else game.inner.new_initial_state()
        # Per seat: (actions observed, digest of the observations, the state after them).
        # Filled lazily when an information state is asked for, so play and search that
        # never ask pay nothing; a trajectory asked at every step extends it by one action.
        self._recall: dict[int, tuple[int, str, State]] = {}
        # Where each seat's recall starts when the cache above is off this state's line:
        # the initial state, or for a determinization the moment it was sampled.
        self._recall_root: dict[int, tuple[int, str, State]] = {}

    def recall_digest(self, player: int) -> str:
        """A digest of everything ``player`` has observed so far, in order."""
        inner = self.inner
        start = inner.history_start()
        now = inner.move_number()
        done, digest, at = self._recall.get(player, (0, "", None))
        if (
            at is None
            or not start <= done <= now
            or at.history_start() != start
            or at.history_since(start) != inner.history_since(start)[: done - start]
        ):
            done, digest, at = self._recall_root.get(
                player, (0, "", self.get_game().inner.new_initial_state())
            )
        if done < now:
            at = at.clone()  # the cached state may be shared with clones of this state
            for action in inner.history_since(done):
                own = player in at.acting_seats() and action in at.legal_actions(player)
                at.apply_action(action)
                seen = json.dumps(at.view(player), sort_keys=True, separators=(",", ":"))
                step = f"{digest}|{action if own else ''}|{seen}"
                digest = hashlib.sha256(step.encode()).hexdigest()
            self._recall[player] = (now, digest, at)
        return digest

    # The history is the wrapped state's: a determinization's is sealed (it raises) while
    # its move number goes on, where pyspiel's own record would start empty at move 0.
    def history(self) -> list[int]:
        return self.inner.history()

    def history_str(self) -> str:
        return ", ".join(str(action) for action in self.inner.history())

    def full_history(self) -> list[Any]:
        self.inner.history()  # raises for a determinization
        return super().full_history()  # type: ignore[no-any-return]

    def move_number(self) -> int:
        return self.inner.move_number()

    def is_initial_state(self) -> bool:
        return self.inner.move_number() == 0

    def serialize(self) -> str:
        self.inner.history()  # a determinization cannot be written as actions from the start
        return super().serialize()  # type: ignore[no-any-return]

    def current_player(self) -> int:
        player = self.inner.current_player()
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.inner.current_player():
            return []
        return self.inner.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.returns()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> SpielState:
        """A state consistent with ``player_id``'s information, for IS-MCTS."""
        world = self.inner.resample(player_id, _SamplerRandom(probability_sampler))
        copy = SpielState(self.get_game(), world)
        # The world's observations go on from here. What the seat recalls carries over; the
        # other seats' recall in a world is made from the seat's own, so that nothing in
        # the world tells apart two truths the seat cannot tell apart.
        mine = self.recall_digest(player_id)
        theirs = hashlib.sha256(f"a world sampled from {mine}".encode()).hexdigest()
        done = world.move_number()
        copy._recall_root = {
            seat: (done, mine if seat == player_id else theirs, world.clone())
            for seat in range(self.get_game().num_players())
        }
        copy._recall = dict(copy._recall_root)
        return copy

    def __deepcopy__(self, memo: dict[int, Any]) -> SpielState:
        copy = SpielState(self.get_game(), self.inner.clone())
        copy._recall = dict(self._recall)
        copy._recall_root = self._recall_root  # never changed once made
        return copy

    def __str__(self) -> str:
        return str(self.inner)


class _SamplerRandom(random.Random):
    """A ``random.Random`` drawing from OpenSpiel's probability sampler."""

    def __init__(self, sampler: Callable[[], float]) -> None:
        self._sampler = sampler
        super().__init__(0)

    def random(self) -> float:
        return float(self._sampler())


class SpielObserver:
    """The observer pyspiel asks for strings and tensors: both from the seat's view."""

    def __init__(self, game: SpielGame, perfect_recall: bool) -> None:
        self._game = game.inner
        self._recall = perfect_recall
        size = self._game.observation_size() if _has_tensor(type(self._game)) else 0
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpielState, player: int) -> None:
        if self.tensor.size:
            self.tensor[:] = self._game.encode_view(state.inner.view(player))

    def string_from(self, state: SpielState, player: int) -> str:
        text = json.dumps(state.inner.view(player), sort_keys=True, separators=(",", ":"))
        if self._recall:
            digest = state.recall_digest(player)
            return f"move {state.inner.move_number()} recall {digest} {text}"
        return text


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """A pyspiel game built from a necropolis game class and pyspiel parameters."""

    game_cls: type[Game]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.inner = self.game_cls(**(params or {}))
        inner = self.inner
        info = pyspiel.GameInfo(
            num_distinct_actions=inner.num_distinct_actions(),
            max_chance_outcomes=inner.max_chance_outcomes(),
            num_players=inner.num_players,
            min_utility=inner.min_utility(),
            max_utility=inner.max_utility(),
            max_game_length=inner.max_game_length(),
        )
        super().__init__(_game_type(self.game_cls), info, dict(inner.options))

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SpielObserver:
        if params:
            raise ValueError(f"observer parameters are not supported: {params}")
        recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        return SpielObserver(self, recall)


def register(cls: type[Game]) -> str:
    """Register one game class with OpenSpiel; returns its OpenSpiel short name."""
    name = PREFIX + cls.id
    if name in pyspiel.registered_names():
        return name
    spiel_cls = type(f"Spiel_{cls.id}", (SpielGame,), {"game_cls": cls})
    pyspiel.register_game(_game_type(cls), spiel_cls)
    return name


def register_all() -> list[str]:
    """Register every installed game; returns their OpenSpiel short names."""
    return [register(game_class(game_id)) for game_id in game_ids()]


register_all()
