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
from open_spiel.python.observation import make_observation

from necropolis.engine import HiddenHistoryError
from necropolis.engine.protocol import Game
from necropolis.games import game_class
from necropolis.interop import openspiel
from tests.conformance.twins import reachable, twin_matches
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


def _spiel(game: Any, history: list[int]) -> Any:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def _draws(seed: int) -> Any:
    rng = random.Random(seed)
    return lambda: rng.random()


def _public_recall(game: Any) -> Any:
    kind = pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    return make_observation(game, kind)


def _spiel_reachable(game: Any, state: Any) -> dict[str, Any]:
    """Everything a researcher can read of a pyspiel state, the world inside included."""
    seats = range(game.num_players())

    def outcome(read: Any) -> Any:
        try:
            return ("value", read())
        except Exception as error:
            return ("raises", type(error).__name__)

    return {
        "inner": reachable(state.inner),
        "information_states": [state.information_state_string(p) for p in seats],
        "observations": [state.observation_string(p) for p in seats],
        "public_recall": [_public_recall(game).string_from(state, p) for p in seats],
        "history": outcome(state.history),
        "history_str": outcome(state.history_str),
        "move_number": state.move_number(),
        "serialized": pyspiel.serialize_game_and_state(game, state),
    }


@pytest.mark.parametrize("game_id", ["horus", "luxor", "luxor2001"])
def test_resampled_information_states_tell_nothing_the_seat_does_not_know(
    game_id: str,
) -> None:
    """Two true matches a seat has seen alike share its information state, and a world
    sampled from either with one sampler is the same world, whatever can be read of it."""
    game = pyspiel.load_game(f"necropolis_{game_id}", {"players": 3})
    options = {"total_secrecy": True} if game_id == "horus" else {}
    truths = game_class(game_id)(players=3, **options)
    if options:
        game = pyspiel.load_game(f"necropolis_{game_id}", {"players": 3, **options})
    compared = 0
    for k, (a, b, seat) in enumerate(twin_matches(truths, seed=9, pairs=6, length=12)):
        left, right = _spiel(game, a.history()), _spiel(game, b.history())
        assert left.information_state_string(seat) == right.information_state_string(seat)
        wl = left.resample_from_infostate(seat, _draws(k))
        wr = right.resample_from_infostate(seat, _draws(k))
        assert _spiel_reachable(game, wl) == _spiel_reachable(game, wr), (k, seat)
        compared += 1
    assert compared


@pytest.mark.parametrize("game_id", ["horus", "luxor", "luxor2001"])
def test_a_resampled_state_has_the_move_number_and_history_of_its_world(game_id: str) -> None:
    game = load(game_id, 3)
    seat = 1
    # The first seed whose random match is in play at move 30 and whose world is still in
    # play three moves later (a random horus match can end in a few rounds).
    for seed in range(4, 100):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        advance(state, rng, 30)
        if state.is_terminal():
            continue
        world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0, 1))
        trial = world.clone()
        advance(trial, np.random.default_rng(seed), 3)
        if not trial.is_terminal():
            break
    else:
        raise AssertionError("no seed gives a match in play at move 33")
    moves = state.move_number()
    assert moves == 30
    assert world.move_number() == world.inner.move_number() == moves
    assert not world.is_initial_state()
    # the world's history is sealed, and so is the pyspiel state's: the true one is gone
    for read in (world.history, world.history_str, world.full_history, world.serialize):
        with pytest.raises(HiddenHistoryError):
            read()
    with pytest.raises(HiddenHistoryError):
        world.inner.history()
    assert world.information_state_string(seat) == state.information_state_string(seat)
    # it plays on, counting from the world's move, and clones and serializes as a world
    advance(world, np.random.default_rng(seed), 3)
    assert not world.is_terminal()
    assert world.move_number() == moves + 3
    assert world.inner.history_start() == moves
    assert len(world.inner.history_since(moves)) == 3
    copy = world.clone()
    assert copy.move_number() == moves + 3
    assert copy.information_state_string(seat) == world.information_state_string(seat)
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, world))
    assert again.move_number() == moves + 3
    assert again.inner.view(seat) == world.inner.view(seat)
    # a true state's history is pyspiel's own
    assert state.history() == state.inner.history() and len(state.history()) == moves
    assert state.history_str() == ", ".join(map(str, state.inner.history()))
