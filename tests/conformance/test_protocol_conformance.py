"""Every game, every player count, every variant: the protocol's promises hold.

These tests know no game: they are collected for each installed game package, so a new
game is checked the moment it is registered. What they check is what the rest of the
system relies on: OpenSpiel's own random simulation test, sorted legal actions with
unique readable texts, chance distributions that sum to one, illegal actions refused
without a trace, clones that are independent, views that are JSON and tensors that fit,
resampled worlds that look identical to the seat they were made for, and seeded matches
that replay exactly whatever the global random generator does in between.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import necropolis
from necropolis.bots import RandomBot
from necropolis.engine import CHANCE, IllegalActionError, MatchRecord, State, play_match
from necropolis.engine.driver import sample_chance
from necropolis.games import game_class, load_game


def configurations(most: bool = True) -> list[Any]:
    """(game id, options) for every game, player count, and each boolean variant alone.

    The fewest players of each game (and, with ``most``, the most), with its default
    options, are the fast tier's (``./test --fast``); the others are marked slow."""
    params = []
    for game_id in necropolis.games():
        cls = game_class(game_id)
        variants: list[dict[str, Any]] = [{}]
        for option in cls.extra_options:
            if option.kind is bool:
                variants.append({option.name: not option.default})
        for players in range(cls.min_players, cls.max_players + 1):
            for variant in variants:
                options = {"players": players, **variant}
                label = "-".join(f"{k}={v}" for k, v in options.items())
                corners = (cls.min_players, cls.max_players) if most else (cls.min_players,)
                corner = not variant and players in corners
                marks = () if corner else (pytest.mark.slow,)
                params.append(pytest.param(game_id, options, id=f"{game_id}-{label}", marks=marks))
    return params


CONFIGS = configurations()
# OpenSpiel's own random simulation is the costliest check: the fast tier runs it at the
# fewest players only.
FEWEST = configurations(most=False)


def random_walk(state: State, rng: random.Random, check: Any, every: int = 1) -> State:
    """Play ``state`` to the end at random, calling ``check(state)`` every ``every`` steps."""
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            check(state)
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
        state.apply_action(action)
        step += 1
    check(state)
    return state


@pytest.mark.parametrize(("game_id", "options"), FEWEST)
def test_openspiel_random_sim_test(game_id: str, options: dict[str, Any]) -> None:
    import pyspiel

    from necropolis.interop import openspiel

    name = openspiel.register(game_class(game_id))
    game = pyspiel.load_game(name, options)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_protocol_holds_along_random_play(game_id: str, options: dict[str, Any]) -> None:
    game = necropolis.load_game(game_id, **options)
    rng = random.Random(f"{game_id}{options}")
    n = game.num_players
    lengths = []

    def check(state: State) -> None:
        player = state.current_player()
        view = state.view(None)
        assert json.loads(json.dumps(view)) == view, "views must be plain JSON"
        if state.is_terminal():
            returns = state.returns()
            assert len(returns) == n and all(0.0 <= r <= 1.0 for r in returns)
            assert sum(returns) in (0.0, pytest.approx(1.0))
            assert state.legal_actions() == [] and state.chance_outcomes() == []
            return
        assert state.returns() == [0.0] * n
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            assert outcomes, "a chance node has outcomes"
            actions = [a for a, _ in outcomes]
            assert actions == sorted(set(actions))
            assert all(0 <= a < game.max_chance_outcomes() for a in actions)
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert all(p > 0 for _, p in outcomes)
            return
        assert 0 <= player < n and player in state.acting_seats()
        actions = state.legal_actions()
        assert actions and actions == sorted(set(actions))
        assert all(0 <= a < game.num_distinct_actions() for a in actions)
        texts = [state.action_to_string(a) for a in actions]
        assert len(set(texts)) == len(texts), f"action texts are not unique: {texts}"
        for action in actions[:5]:
            assert state.string_to_action(state.action_to_string(action)) == action
            assert isinstance(state.describe_action(action, None), str)
        for seat in range(n):
            assert json.loads(json.dumps(state.view(seat))) == state.view(seat)
            if seat not in state.acting_seats():
                assert state.legal_actions(seat) == []

    for _ in range(4):
        final = random_walk(game.new_initial_state(), rng, check)
        lengths.append(final.move_number())
        assert final.move_number() <= game.max_game_length()


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_illegal_actions_change_nothing_and_clones_are_independent(
    game_id: str, options: dict[str, Any]
) -> None:
    game = necropolis.load_game(game_id, **options)
    rng = random.Random(7)
    n = game.num_players

    def check(state: State) -> None:
        if state.is_terminal():
            with pytest.raises(IllegalActionError):
                state.apply_action(0)
            return
        before = [state.view(s) for s in (None, *range(n))], state.history()
        if state.current_player() == CHANCE:
            legal = {a for a, _ in state.chance_outcomes()}
            bound = game.max_chance_outcomes()
        else:
            legal = {a for s in state.acting_seats() for a in state.legal_actions(s)}
            bound = game.num_distinct_actions()
        illegal = next((a for a in range(bound + 1) if a not in legal), None)
        for bad in (illegal, -1):
            if bad is not None:
                with pytest.raises(IllegalActionError):
                    state.apply_action(bad)
        assert ([state.view(s) for s in (None, *range(n))], state.history()) == before
        copy = state.clone()
        action = (
            sample_chance(copy, rng)
            if copy.current_player() == CHANCE
            else rng.choice(copy.legal_actions())
        )
        copy.apply_action(action)
        assert ([state.view(s) for s in (None, *range(n))], state.history()) == before

    random_walk(game.new_initial_state(), rng, check, every=3)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_resampled_worlds_look_the_same_to_their_seat(
    game_id: str, options: dict[str, Any]
) -> None:
    game = necropolis.load_game(game_id, **options)
    rng = random.Random(11)
    n = game.num_players
    has_tensor = type(game).encode_view is not necropolis.Game.encode_view

    def check(state: State) -> None:
        for seat in range(n):
            view = state.view(seat)
            world = state.resample(seat, random.Random(rng.random()))
            assert world.view(seat) == view, f"seat {seat} would see a different world"
            assert world.current_player() == state.current_player()
            assert world.legal_actions(seat) == state.legal_actions(seat)
            if has_tensor:
                tensor = game.encode_view(view)
                assert len(tensor) == game.observation_size()
                assert all(0.0 <= x <= 1.0 for x in tensor)
            # the world is a real state: it plays on to the end (a few times a match, since
            # playing on from every checkpoint would be quadratic in the match's length)
            if seat == 0 and not world.is_terminal() and rng.random() < 0.1:
                random_walk(world, rng, lambda s: None)

    for _ in range(2):
        random_walk(game.new_initial_state(), rng, check, every=5)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_seeded_matches_and_records_replay_exactly(game_id: str, options: dict[str, Any]) -> None:
    game = necropolis.load_game(game_id, **options)
    bots = [RandomBot() for _ in range(game.num_players)]
    first, record = play_match(game, bots, seed=2026)
    random.seed(12345)
    random.random()  # stirring the global generator must change nothing
    second, again = play_match(game, bots, seed=2026)
    assert record.actions == again.actions
    assert first.view(None) == second.view(None)
    loaded = MatchRecord.loads(record.dumps())
    replayed = list(loaded.states(load_game))
    random.shuffle(list(range(10)))
    replayed_again = list(loaded.states(load_game))
    assert len(replayed) == len(record.actions) + 1
    for a, b in zip(replayed, replayed_again, strict=True):
        assert a.view(None) == b.view(None)
        assert [a.view(s) for s in range(game.num_players)] == [
            b.view(s) for s in range(game.num_players)
        ]
    assert replayed[-1].returns() == first.returns()
