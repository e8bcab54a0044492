"""What each OpenSpiel observation type gives through the adapter, on every game.

A researcher asks OpenSpiel for an observation type and trains on what comes back, so
each type must be what it says or be refused: the seat's observation, the public one
(the same for every seat, no private card in it), perfect recall as a string only (no
information-state tensor: asking for one raises), and no type that would show every
player's hidden things. ``str(state)`` is the whole state, as OpenSpiel's convention has
it, and a clone through pyspiel is the whole state again, history included.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import necropolis
from necropolis.games import game_class
from necropolis.interop.openspiel import whole_state
from tests.conformance.twins import twin_matches

GAMES = ["horus", "luxor", "luxor2001"]

SEAT = pyspiel.IIGObservationType(
    perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
)
PUBLIC = pyspiel.IIGObservationType(
    perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
)
RECALL = pyspiel.IIGObservationType(perfect_recall=True)
PUBLIC_RECALL = pyspiel.IIGObservationType(
    perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
)


def spiel_game(game_id: str, players: int = 3) -> Any:
    return pyspiel.load_game(f"necropolis_{game_id}", {"players": players})


def spiel_state(game: Any, history: list[int]) -> Any:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def played(game: Any, seed: int, steps: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_the_game_type_says_what_is_provided(game_id: str) -> None:
    kind = spiel_game(game_id).get_type()
    assert kind.provides_observation_string and kind.provides_observation_tensor
    assert kind.provides_information_state_string
    assert not kind.provides_information_state_tensor
    assert not kind.provides_factored_observation_string


@pytest.mark.parametrize("game_id", GAMES)
def test_an_information_state_tensor_is_refused_never_faked(game_id: str) -> None:
    game = spiel_game(game_id)
    state = played(game, 1, 30)
    with pytest.raises(NotImplementedError, match="no perfect-recall"):
        state.information_state_tensor(0)
    with pytest.raises(NotImplementedError, match="no perfect-recall"):
        game.information_state_tensor_size()
    for kind in (RECALL, PUBLIC_RECALL):
        observation = make_observation(game, kind)
        assert observation.tensor is None
        with pytest.raises(NotImplementedError, match="no perfect-recall"):
            observation.set_from(state, 0)
    # the recall string is given, and it is the information state
    recall = make_observation(game, RECALL)
    for seat in range(3):
        assert recall.string_from(state, seat) == state.information_state_string(seat)


@pytest.mark.parametrize("game_id", GAMES)
def test_observation_types_that_would_show_hidden_things_are_refused(game_id: str) -> None:
    game = spiel_game(game_id)
    every = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(NotImplementedError, match="every player's private"):
        make_observation(game, every)
    private_only = pyspiel.IIGObservationType(
        perfect_recall=False,
        public_info=False,
        private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
    )
    with pytest.raises(NotImplementedError, match="without the public"):
        make_observation(game, private_only)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_seat_observation_is_the_seat_view(game_id: str) -> None:
    game = spiel_game(game_id)
    state = played(game, 2, 40)
    seat = make_observation(game, SEAT)
    default = make_observation(game)
    for player in range(3):
        seat.set_from(state, player)
        default.set_from(state, player)
        expected = game.inner.encode_view(state.inner.view(player))
        assert np.allclose(seat.tensor, expected)
        assert np.allclose(default.tensor, expected)
        assert np.allclose(state.observation_tensor(player), expected)
        assert seat.string_from(state, player) == state.observation_string(player)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_public_observation_is_every_seats_and_carries_no_private_card(
    game_id: str,
) -> None:
    """Along pairs of true matches that differ in what some seat holds, the public tensor
    and string never differ, are one for every seat, and are the spectator's view."""
    options = {"total_secrecy": True} if game_id == "horus" else {}
    game = pyspiel.load_game(f"necropolis_{game_id}", {"players": 3, **options})
    truths = game_class(game_id)(players=3, **options)
    public = make_observation(game, PUBLIC)
    public_recall = make_observation(game, PUBLIC_RECALL)
    private_differs = 0
    for a, b, _ in twin_matches(truths, seed=5, pairs=8, length=10):
        left, right = spiel_state(game, a.history()), spiel_state(game, b.history())
        tensors, strings = [], []
        for state in (left, right):
            for player in range(3):
                public.set_from(state, player)
                assert public.tensor is not None
                tensors.append(public.tensor.copy())
                strings.append(public.string_from(state, player))
                strings.append(public_recall.string_from(state, player).split(" ", 4)[4])
            spectator = game.inner.encode_view(state.inner.view(None))
            assert np.allclose(tensors[-1], spectator)
        assert all(np.array_equal(tensors[0], t) for t in tensors)
        assert len(set(strings)) == 1
        assert public_recall.string_from(left, 0) == public_recall.string_from(right, 2)
        # ...while some seat's own observation tells the two apart: there was a private
        # difference, and the public observation did not carry it
        if any(left.observation_tensor(p) != right.observation_tensor(p) for p in range(3)):
            private_differs += 1
    assert private_differs


@pytest.mark.parametrize("game_id", GAMES)
def test_str_is_the_whole_state_and_the_seat_view_stays_in_observations(game_id: str) -> None:
    options = {"total_secrecy": True} if game_id == "horus" else {}
    game = pyspiel.load_game(f"necropolis_{game_id}", {"players": 3, **options})
    truths = game_class(game_id)(players=3, **options)
    a, b, seat = next(iter(twin_matches(truths, seed=3, pairs=1, length=1)))
    left, right = spiel_state(game, a.history()), spiel_state(game, b.history())
    # the seat cannot tell the two apart, and neither can a spectator...
    assert left.observation_string(seat) == right.observation_string(seat)
    assert str(left.inner) == str(right.inner)  # the engine's str: a spectator's view
    # ...but the whole state can
    assert str(left) != str(right)
    assert str(left) == whole_state(a)
    text = str(left)
    assert text.startswith(game.inner.title)
    fields = {n for cls in type(a).__mro__ for n in getattr(cls, "__slots__", ())}
    for name in fields - {"game", "_past", "_history", "_sealed"}:
        assert f"\n{name} = " in text


@pytest.mark.parametrize("game_id", GAMES)
def test_a_clone_is_the_whole_state_with_its_history(game_id: str) -> None:
    game = spiel_game(game_id)
    state = played(game, 4, 35)
    state.information_state_string(1)  # fills a recall cache that the clone must copy
    generic = pyspiel.State.clone(state)  # pyspiel's own clone, as C++ callers get it
    for twin in (state.clone(), copy.deepcopy(state), generic):
        assert str(twin) == str(state)
        assert twin.history() == state.history()
        assert twin.move_number() == state.move_number()
        assert [(p.player, p.action) for p in twin.full_history()] == [
            (p.player, p.action) for p in state.full_history()
        ]
        assert twin.information_state_string(1) == state.information_state_string(1)
        _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, twin))
        assert str(again) == str(state) and again.history() == state.history()
        # independent: playing on the copy leaves the original as it was
        before = str(state)
        while not twin.is_terminal() and twin.move_number() < state.move_number() + 5:
            if twin.is_chance_node():
                twin.apply_action(twin.chance_outcomes()[0][0])
            else:
                twin.apply_action(twin.legal_actions()[-1])
        assert str(state) == before
    # the players of a full history are pyspiel's: chance as its id, seats as numbers
    players = {p.player for p in state.full_history()}
    assert int(pyspiel.PlayerId.CHANCE) in players and players <= {-1, 0, 1, 2}


def test_num_players_is_a_method_and_stays_readable_as_a_number() -> None:
    game = necropolis.load_game("luxor2001", players=3)
    assert game.num_players() == 3
    assert game.num_players == 3 and isinstance(game.num_players, int)
    assert list(range(game.num_players)) == [0, 1, 2]
    assert game.num_players + 1 == 4
    assert spiel_game("luxor2001").num_players() == 3


def test_openspiels_rl_environment_trains_on_the_seat_observation() -> None:
    """rl_environment reads the game type: it falls back on the observation tensor, and a
    request for information-state tensors is refused rather than served the observation."""
    from open_spiel.python import rl_environment

    environment = rl_environment.Environment("necropolis_luxor2001", players=2)
    step = environment.reset()
    rng = random.Random(0)
    while not step.last():
        player = step.observations["current_player"]
        state = environment.get_state
        expected = state.observation_tensor(player)
        assert step.observations["info_state"][player] == expected
        step = environment.step([rng.choice(step.observations["legal_actions"][player])])
    assert sorted(step.rewards) == [0.0, 1.0] or step.rewards == [0.0, 0.0]
    with pytest.raises(ValueError, match="information_state_tensor not supported"):
        rl_environment.Environment(
            "necropolis_luxor2001",
            observation_type=rl_environment.ObservationType.INFORMATION_STATE,
            players=2,
        )
