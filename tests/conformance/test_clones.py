"""Clones and worlds share nothing that changes, whatever is played after them.

A clone may share the immutable parts of the state it came from (ints, tuples, the game)
and must share nothing else: a list held by both would carry a move made in one into the
other. The same holds between a state and a world resampled from it, which a search plays
on while the true state stays as it was. Each game is checked two ways, with Hypothesis
choosing every action: no list, dict or set is reachable from both states, and after
the copy both are played on with different actions and each still equals, field by
field and in every view, a fresh replay of its own actions (or, for a true state while
its world plays on, what it was before).
"""

from __future__ import annotations

import pickle
import random
from array import array
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import necropolis
from necropolis.engine import CHANCE, State
from necropolis.games import game_class
from tests.conformance.twins import fields, slots

#: Each game at its fewest and most players, and each yes/no variant at three.
CONFIGS = [
    pytest.param(
        game_id, options, id=f"{game_id}-" + "-".join(f"{k}={v}" for k, v in options.items())
    )
    for game_id in necropolis.games()
    for options in [
        {"players": game_class(game_id).min_players},
        {"players": game_class(game_id).max_players},
        *(
            {"players": 3, option.name: not option.default}
            for option in game_class(game_id).extra_options
            if option.kind is bool
        ),
    ]
]

EXAMPLES = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def mutable_parts(value: Any, found: dict[int, str], path: str) -> None:
    """Every list, dict and set reachable from ``value``, by id, with where it was met."""
    if isinstance(value, (list, dict, set, bytearray, array)):
        found[id(value)] = path
        items = value.values() if isinstance(value, dict) else value
        for i, item in enumerate(items):
            mutable_parts(item, found, f"{path}[{i}]")
    elif isinstance(value, (tuple, frozenset)):
        for i, item in enumerate(value):
            mutable_parts(item, found, f"{path}[{i}]")
    elif not isinstance(value, (int, float, str, type(None))):
        # a field of another kind (an object of its own) would need a look of its own
        raise AssertionError(f"{path} holds a {type(value).__name__}, unchecked here")


def shared_mutables(a: State, b: State) -> list[str]:
    """Where a list, dict or set is held by both ``a`` and ``b``."""
    in_a: dict[int, str] = {}
    in_b: dict[int, str] = {}
    for name, value in slots(a).items():
        mutable_parts(value, in_a, name)
    for name, value in slots(b).items():
        mutable_parts(value, in_b, name)
    return sorted(in_a[i] for i in in_a.keys() & in_b.keys())


def whole(state: State) -> Any:
    """Every seat's view and every field (types included: a tuple is not a list).

    The views come first: they work out what a state caches (luxor's playable ends),
    so two equal states compare equal whether or not they had been asked before.
    """
    views = [state.view(s) for s in (None, *range(state.game.num_players))]
    return views, fields(state)


def replayed(state: State) -> State:
    """A fresh state given ``state``'s actions, from the start."""
    fresh = state.game.new_initial_state()
    for action in state.history():
        fresh.apply_action(action)
    return fresh


def play(state: State, data: Any, label: str) -> None:
    """Up to some steps on ``state``, each chosen by Hypothesis."""
    steps = data.draw(st.integers(min_value=0, max_value=250), label=label)
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.current_player() == CHANCE:
            options = [a for a, _ in state.chance_outcomes()]
        else:
            options = sorted({a for s in state.acting_seats() for a in state.legal_actions(s)})
        state.apply_action(options[data.draw(st.integers(0, len(options) - 1))])


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
@EXAMPLES
@given(data=st.data())
def test_a_clone_and_its_original_go_their_own_ways(
    game_id: str, options: dict[str, Any], data: Any
) -> None:
    game = necropolis.load_game(game_id, **options)
    state = game.new_initial_state()
    play(state, data, "before the clone")
    clone = state.clone()
    assert shared_mutables(state, clone) == []
    assert whole(clone) == whole(state)
    play(clone, data, "the clone")
    play(state, data, "the original")
    assert whole(clone) == whole(replayed(clone))
    assert whole(state) == whole(replayed(state))
    # and a clone of a clone, once both have moved on
    again = clone.clone()
    assert shared_mutables(clone, again) == []
    play(again, data, "the second clone")
    assert whole(clone) == whole(replayed(clone))


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
@EXAMPLES
@given(data=st.data())
def test_a_world_and_its_true_state_go_their_own_ways(
    game_id: str, options: dict[str, Any], data: Any
) -> None:
    game = necropolis.load_game(game_id, **options)
    state = game.new_initial_state()
    play(state, data, "before the world")
    seat = data.draw(st.integers(0, game.num_players - 1), label="seat")
    world = state.resample(seat, random.Random(data.draw(st.integers(0, 2**32), label="rng")))
    assert shared_mutables(state, world) == []
    truth = pickle.dumps(whole(state))
    play(world, data, "the world")
    assert pickle.loads(truth) == whole(state)  # the search's moves never reach the truth
    drawn = pickle.dumps(whole(world))
    play(state, data, "the true match")
    assert pickle.loads(drawn) == whole(world)
    assert whole(state) == whole(replayed(state))


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_clones_along_whole_random_matches_stay_apart(
    game_id: str, options: dict[str, Any]
) -> None:
    """Seeded random play to the very end (which Hypothesis's shorter runs seldom reach),
    cloning and resampling every few steps, each copy played out on its own."""
    game = necropolis.load_game(game_id, **options)
    rng = random.Random(23)
    state = game.new_initial_state()
    copies: list[State] = []
    step = 0
    while not state.is_terminal():
        if step % 37 == 0:
            clone = state.clone()
            world = state.resample(rng.randrange(game.num_players), rng)
            assert shared_mutables(state, clone) == []
            assert shared_mutables(state, world) == []
            assert shared_mutables(clone, world) == []
            copies.append(clone)
            drawn = pickle.dumps(whole(world))
            random_steps(state, rng, 20)  # the true match moves on, then the world
            assert pickle.loads(drawn) == whole(world)
            truth = pickle.dumps(whole(state))
            random_steps(world, rng, 20)
            assert pickle.loads(truth) == whole(state)
        random_steps(state, rng, 1)
        step += 1
    assert whole(state) == whole(replayed(state))
    for clone in copies:
        random_steps(clone, rng, 10_000)  # to its own end
        assert clone.is_terminal()
        assert whole(clone) == whole(replayed(clone))
    assert whole(state) == whole(replayed(state))


def random_steps(state: State, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.current_player() == CHANCE:
            options = [a for a, _ in state.chance_outcomes()]
        else:
            options = sorted({a for s in state.acting_seats() for a in state.legal_actions(s)})
        state.apply_action(options[rng.randrange(len(options))])
