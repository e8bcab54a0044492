"""OpenSpiel adapter: every necropolis game as a pyspiel game named ``necropolis_<id>``.

Importing this module registers each installed game with OpenSpiel, so that
``pyspiel.load_game("necropolis_luxor2001", {"players": 3})`` works. The adapter is thin:
states delegate to the engine's protocol, and what a seat observes comes from its view.

Observation types (OpenSpiel's ``IIGObservationType``), as :func:`observer_kind` reads them:

- a seat's observation (public and its own private information, no recall): the string is
  the seat's view as canonical JSON, the tensor the game's ``encode_view`` of that view;
- public information only (``private_info=NONE``): the same of the spectator's view,
  ``view(None)``, which every seat shares and which holds no private card;
- perfect recall (the information state, for CFR and its family): the string is ``move N
  recall DIGEST VIEW``, where the digest (SHA-256, chained) covers the seat's view after
  every action and its own actions, in order, so two histories that showed the seat
  different things never share one (with public information only, the spectator's views);
  there is no perfect-recall *tensor*: asking for one (``information_state_tensor``, or
  ``set_from`` on such an observation) raises :class:`NotImplementedError`, as the game
  type says (``provides_information_state_tensor`` is false);
- every player's private information, or private information without the public: not
  provided, refused when the observation is made.

A state from ``resample_from_infostate`` wraps a determinization, whose history is sealed
(see :meth:`~necropolis.engine.protocol.State.history`): its ``move_number`` is the
world's, its ``history`` raises as the world's does, and the recall it starts from is the
seat's own. ``str(state)`` is the whole state, hidden things included, as OpenSpiel's
convention has it (a research oracle: never hand it to a player). ``state.clone()`` is
the wrapped state's own clone in a new pyspiel state, not pyspiel's generic clone (which
builds an initial state and deep-copies every attribute onto it). Games are
general-sum with returns in [0, 1] (winners share 1), since a match can end with no
winner at all.
"""

from __future__ import annotations

import hashlib
import json
import random
from array import array
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from necropolis.bots import make_bot
from necropolis.engine.driver import Player
from necropolis.engine.protocol import CHANCE, TERMINAL, Game, State
from necropolis.engine.seat import SeatWindow
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


class PlayerAction(NamedTuple):
    """One entry of :meth:`SpielState.full_history`."""

    player: int
    action: int


#: What one seat has observed so far: (actions observed, digest, the state after them).
Recalled = tuple[int, str, State]


class _Recall:
    """The recall caches of one pyspiel state: per seat (``None``: the public one), how far
    its digest has been made and from where a digest starts when the cache is off the
    state's line (the initial state, or for a determinization the moment it was sampled).

    Filled lazily when an information state is asked for, so play and search that never
    ask pay nothing. The states inside are never changed (a digest is extended on a
    clone), so a copy shares them: pyspiel's own clone deep-copies every attribute of a
    state, and this keeps that copy cheap too.
    """

    __slots__ = ("at", "root")

    def __init__(self, root: dict[int | None, Recalled] | None = None) -> None:
        self.root: dict[int | None, Recalled] = root or {}
        self.at: dict[int | None, Recalled] = dict(self.root)

    def copy(self) -> _Recall:
        new = _Recall(self.root)
        new.at = dict(self.at)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> _Recall:
        return self.copy()


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping one necropolis state (``inner``)."""

    # The game, kept beside pyspiel's own reference to it: reading a slot is a tenth of
    # the cost of get_game() (which wraps the C++ pointer anew), and every clone needs
    # it. A slot, outside __dict__, so that pyspiel's generic clone and serialization
    # (which copy __dict__, and make the state new from the game) never carry it.
    __slots__ = ("__dict__", "_game")

    inner: State
    _game: SpielGame
    # None until an information state is asked for. A class default, so that a state
    # that never asks has nothing of it for pyspiel's generic clone to copy.
    _recall: _Recall | None = None

    def __init__(self, game: SpielGame, state: State | None = None) -> None:
        super().__init__(game)
        self._game = game
        # Without a state the initial one is built when first read (see __getattr__):
        # pyspiel's generic clone makes a new initial state only to overwrite it.
        if state is not None:
            self.inner = state

    def __getattr__(self, name: str) -> Any:
        if name == "inner":
            inner = self._game.inner.new_initial_state()
            self.inner = inner
            return inner
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def clone(self) -> SpielState:
        """A copy: the engine's clone of the wrapped state, in a new pyspiel state.

        pyspiel's clone of a Python state (kept for C++ callers) builds a fresh initial
        state and deep-copies each attribute onto it; this one copies the wrapped state
        once. The copy's pyspiel-side history is left empty: every reading of the history
        here (``history``, ``full_history``, ``move_number``…) answers from the wrapped
        state, which carries it, and its serialized form (the wrapped state whole) reads
        back as the same state.
        """
        # The pyspiel object is made without this class's __init__ (whose work would all
        # be replaced): a Python call less on every clone.
        game = self._game
        copy = _new_state(SpielState)
        _init_state(copy, game)
        copy._game = game
        copy.inner = self.inner.clone()
        if self._recall is not None:
            copy._recall = self._recall.copy()
        return copy

    def __deepcopy__(self, memo: dict[int, Any]) -> SpielState:
        return self.clone()

    def recall_digest(self, player: int | None) -> str:
        """A digest of everything ``player`` (``None``: the public) has observed so far, in
        order."""
        inner = self.inner
        start = inner.history_start()
        now = inner.move_number()
        if self._recall is None:
            self._recall = _Recall()
        recall = self._recall
        done, digest, at = recall.at.get(player, (0, "", None))
        if (
            at is None
            or not start <= done <= now
            or at.history_start() != start
            or at.history_since(start) != inner.history_since(start)[: done - start]
        ):
            done, digest, at = recall.root.get(
                player, (0, "", self._game.inner.new_initial_state())
            )
        if done < now:
            at = at.clone()  # the cached state may be shared with clones of this state
            for action in inner.history_since(done):
                own = (
                    player is not None
                    and player in at.acting_seats()
                    and action in at.legal_actions(player)
                )
                at.apply_action(action)
                step = f"{digest}|{action if own else ''}|{_canonical(at.view(player))}"
                digest = hashlib.sha256(step.encode()).hexdigest()
            recall.at[player] = (now, digest, at)
        return digest

    # The history is the wrapped state's: a determinization's is sealed (it raises) while
    # its move number goes on, where pyspiel's own record would start empty at move 0; and
    # a clone made by :meth:`clone` carries it only there.
    def history(self) -> list[int]:
        return self.inner.history()

    def history_str(self) -> str:
        return ", ".join(str(action) for action in self.inner.history())

    def full_history(self) -> list[PlayerAction]:
        """Who played each action (chance as ``pyspiel.PlayerId.CHANCE``), in order, with
        ``player`` and ``action`` as pyspiel's own (which Python cannot build) has them."""
        actions = self.inner.history()  # raises for a determinization
        replay = self._game.inner.new_initial_state()
        played = []
        for action in actions:
            player = _spiel_player(replay.current_player())
            played.append(PlayerAction(player, action))
            replay.apply_action(action)
        return played

    def move_number(self) -> int:
        return self.inner.move_number()

    def is_initial_state(self) -> bool:
        return self.inner.move_number() == 0

    def serialize(self) -> str:
        self.inner.history()  # a determinization cannot be written as actions from the start
        return super().serialize()  # type: ignore[no-any-return]

    def current_player(self) -> int:
        return _spiel_player(self.inner.current_player())

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
        copy = SpielState(self._game, world)
        # The world's observations go on from here. What the seat recalls carries over, and
        # so does the public recall (the seat observed all of it); the other seats' recall
        # in a world is made from the seat's own, so that nothing in the world tells apart
        # two truths the seat cannot tell apart.
        mine = self.recall_digest(player_id)
        public = self.recall_digest(None)
        theirs = hashlib.sha256(f"a world sampled from {mine}".encode()).hexdigest()
        done = world.move_number()
        root: dict[int | None, Recalled] = {None: (done, public, world.clone())}
        for seat in range(self._game.num_players()):
            root[seat] = (done, mine if seat == player_id else theirs, world.clone())
        copy._recall = _Recall(root)
        return copy

    def __str__(self) -> str:
        return whole_state(self.inner)


_new_state = SpielState.__new__
_init_state = pyspiel.State.__init__


def _spiel_player(player: int) -> int:
    if player == CHANCE:
        return int(pyspiel.PlayerId.CHANCE)
    if player == TERMINAL:
        return int(pyspiel.PlayerId.TERMINAL)
    return player


def _canonical(view: Any) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def _plain(value: Any) -> Any:
    """``value`` with its sets in order and its bytes and arrays as numbers, so that equal
    states print alike and readably."""
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, (bytearray, array)):
        return list(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in sorted(value.items(), key=lambda kv: repr(kv[0]))}
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    return value


def whole_state(state: State) -> str:
    """Everything ``state`` holds, hidden things included, one field a line: OpenSpiel's
    ``str(state)``. A research oracle's reading, never a seat's (that is its view)."""
    names = {n for cls in type(state).__mro__ for n in getattr(cls, "__slots__", ())}
    fields = {n: getattr(state, n) for n in names if hasattr(state, n)}
    fields.update(getattr(state, "__dict__", {}))
    for name in ("game", "_past", "_history", "_sealed"):
        fields.pop(name, None)
    player = state.current_player()
    who = {CHANCE: "chance", TERMINAL: "over"}.get(player, f"seat {player} to act")
    lines = [
        f"{state.game.title} ({state.game.num_players()} players), move "
        f"{state.move_number()}, {who}"
    ]
    lines += [f"{name} = {_plain(fields[name])!r}" for name in sorted(fields)]
    return "\n".join(lines)


class _SamplerRandom(random.Random):
    """A ``random.Random`` drawing from OpenSpiel's probability sampler."""

    def __init__(self, sampler: Callable[[], float]) -> None:
        self._sampler = sampler
        super().__init__(0)

    def random(self) -> float:
        return float(self._sampler())


def observer_kind(iig_obs_type: Any) -> tuple[bool, bool]:
    """``(public_only, perfect_recall)`` for an OpenSpiel observation type (None: the
    default, a seat's observation without recall); raises :class:`NotImplementedError`
    for a type the games do not provide."""
    if iig_obs_type is None:
        return False, False
    private = iig_obs_type.private_info
    if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
        raise NotImplementedError(
            "necropolis games do not observe every player's private information: hidden "
            "things leave a state only through one seat's view (str(state) is the whole "
            "state, for research)"
        )
    if not iig_obs_type.public_info:
        raise NotImplementedError(
            "necropolis games provide no observation without the public information: "
            "ask for public_info=True"
        )
    return private == pyspiel.PrivateInfoType.NONE, bool(iig_obs_type.perfect_recall)


class SpielObserver:
    """The observer pyspiel asks for strings and tensors, of one observation type (see the
    module's docstring): both from a seat's view, or the spectator's for the public."""

    def __init__(self, game: SpielGame, iig_obs_type: Any = None) -> None:
        self._game = game.inner
        self.public, self.recall = observer_kind(iig_obs_type)
        tensors = _has_tensor(type(self._game)) and not self.recall
        # No tensor is None, as OpenSpiel's own observations have it.
        self.tensor: np.ndarray[Any, Any] | None = (
            np.zeros(self._game.observation_size(), np.float32) if tensors else None
        )
        self.dict = {"observation": self.tensor} if self.tensor is not None else {}

    def set_from(self, state: SpielState, player: int) -> None:
        if self.tensor is None:
            if self.recall:
                raise NotImplementedError(
                    f"{self._game.id} provides no perfect-recall (information-state) tensor: "
                    "use the information-state string, or the observation tensor (the "
                    "seat's view now)"
                )
            raise NotImplementedError(f"{self._game.id} has no observation tensor")
        view = state.inner.view(None if self.public else player)
        self.tensor[:] = self._game.encode_view(view)

    def string_from(self, state: SpielState, player: int) -> str:
        seat = None if self.public else player
        text = _canonical(state.inner.view(seat))
        if self.recall:
            digest = state.recall_digest(seat)
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
            num_players=inner.num_players(),
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
        return SpielObserver(self, iig_obs_type)


class NecropolisBot(pyspiel.Bot):  # type: ignore[misc]
    """A necropolis bot as an OpenSpiel bot, for OpenSpiel's loops (``evaluate_bots``).

    It decides from the seat's window onto the wrapped state, as every necropolis bot
    does, with its own generator (``seed``). It keeps nothing between moves, so it needs
    no news of others' actions and restarts anywhere.
    """

    def __init__(self, bot: str | Player, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.bot: Player = make_bot(bot) if isinstance(bot, str) else bot
        self.rng = random.Random(seed)

    def step(self, state: SpielState) -> int:
        seat = state.current_player()
        return self.bot.choose(SeatWindow(state.inner, seat), self.rng)

    def restart_at(self, state: SpielState) -> None:
        pass

    def inform_action(self, state: SpielState, player_id: int, action: int) -> None:
        pass

    def provides_force_action(self) -> bool:
        return False


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
