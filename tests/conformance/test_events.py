"""Every game whose rules emit events: the events are JSON-ready, a search pays nothing for
them, and an event's redaction is the only way it leaves.

Two true matches that a seat cannot tell apart (they differ in a hidden draw, the seat's
views alike at every step) must give that seat the same events for the same next action,
as long as its view after it is alike too: an event as a seat may know it carries nothing
hidden that its view does not show. (What an outcome no seat's view keeps is told to whom,
a card shown briefly, is each game's own test.)
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import necropolis
from necropolis.engine import CHANCE, sample_chance
from necropolis.engine.events import Event, event_data, seen_by
from necropolis.engine.protocol import State
from necropolis.games import game_ids, load_game
from tests.conformance.test_protocol_conformance import CONFIGS

TELLING = [g for g in game_ids() if load_game(g).tells_events()]
THREE = [p for p in CONFIGS if p.values[1]["players"] == 3 and p.values[0] in TELLING]


def _as_seen(events: list[Any], seat: int | None) -> list[dict[str, Any]]:
    return [event_data(e) for e in seen_by(events, seat)]


def _view_twins(game: Any, seed: int) -> Iterator[tuple[State, State, int]]:
    """Pairs of true states that one seat has seen alike at every step (by its views
    alone, not its log): a chance outcome it does not see, beside another that leaves
    its view the same, both followed with the same actions while its views stay alike."""
    rng = random.Random(seed)
    state: State = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcome = sample_chance(state, rng)
            after = state.clone()
            after.apply_action(outcome)
            others = [a for a, _ in state.chance_outcomes() if a != outcome]
            rng.shuffle(others)
            for other in others[:3]:
                alt = state.clone()
                alt.apply_action(other)
                seats = [s for s in range(game.num_players) if alt.view(s) == after.view(s)]
                if seats:
                    yield from _follow(after.clone(), alt, rng.choice(seats), rng)
                    break
        else:
            outcome = rng.choice(state.legal_actions())
        state.apply_action(outcome)


def _follow(
    a: State, b: State, seat: int, rng: random.Random
) -> Iterator[tuple[State, State, int]]:
    for _ in range(30):
        if a.is_terminal() or b.is_terminal() or a.view(seat) != b.view(seat):
            return
        yield a, b, seat
        action = sample_chance(a, rng) if a.is_chance_node() else rng.choice(a.legal_actions())
        if not b.is_legal(action):
            return
        a.apply_action(action)
        b.apply_action(action)


@pytest.mark.parametrize(("game_id", "options"), THREE)
def test_a_seat_is_told_the_same_events_in_matches_it_cannot_tell_apart(
    game_id: str, options: dict[str, Any]
) -> None:
    game = necropolis.load_game(game_id, **options)
    rng = random.Random(11)
    compared = 0
    twins = (t for seed in range(8) for t in _view_twins(game, seed=len(options) + 7 + seed))
    for a, b, seat in twins:
        if compared > 40:
            break
        action = sample_chance(a, rng) if a.is_chance_node() else rng.choice(a.legal_actions())
        if not b.is_legal(action):
            continue
        after_a, after_b = a.clone(), b.clone()
        events_a = after_a.apply_events(action)
        events_b = after_b.apply_events(action)
        if after_a.view(seat) != after_b.view(seat):
            continue  # a hidden thing came to light: the seat tells them apart now
        assert _as_seen(events_a, seat) == _as_seen(events_b, seat), (seat, action)
        compared += 1
    assert compared > 20


@pytest.mark.parametrize(("game_id", "options"), THREE)
def test_an_outcome_a_seat_does_not_see_tells_it_no_more_than_its_log(
    game_id: str, options: dict[str, Any]
) -> None:
    """Two chance outcomes that leave a seat's view and log alike give it the same events
    (what its log says of an outcome is each game's own test)."""
    game = necropolis.load_game(game_id, **options)
    rng = random.Random(5)
    state: State = game.new_initial_state()
    compared = 0
    while not state.is_terminal():
        if state.is_chance_node():
            index = state.move_number()
            told: dict[Any, list[dict[str, Any]]] = {}
            for outcome, _ in state.chance_outcomes()[:6]:
                after = state.clone()
                events = after.apply_events(outcome)
                for seat in range(game.num_players):
                    key = (
                        seat,
                        repr(after.view(seat)),
                        repr(after.narrate_events(index, events, seat, state.current_player())),
                    )
                    seen = _as_seen(events, seat)
                    assert told.setdefault(key, seen) == seen, (seat, outcome)
                    compared += 1
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    assert compared > 100


@pytest.mark.parametrize("game_id", TELLING)
def test_events_are_json_ready_and_the_log_is_their_narration(game_id: str) -> None:
    for players in (2, 4):
        state: State = load_game(game_id, players=players).new_initial_state()
        rng = random.Random(players)
        kept: list[tuple[int, int, list[Any]]] = []
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = sample_chance(state, rng)
            else:
                action = rng.choice(state.legal_actions())
            index, actor = state.move_number(), state.current_player()
            kept.append((index, actor, state.apply_events(action)))
        for viewer in (None, *range(players)):
            told = [
                e
                for index, actor, events in kept
                for e in state.narrate_events(index, events, viewer, actor)
            ]
            assert told == state.log(viewer)
            for _, _, events in kept:
                json.dumps(_as_seen(events, viewer))


def _event_classes() -> list[type[Event]]:
    found: list[type[Event]] = []
    todo: list[type[Event]] = [Event]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            found.append(sub)
            todo.append(sub)
    return found


@pytest.mark.parametrize("game_id", TELLING)
def test_a_search_builds_no_event(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A state applying actions as searches do (no sink) builds no event at all: what the
    events cost a rollout is the rules' ``sink is not None`` tests (their speed is
    measured by ``necropolis bench``, not here)."""
    built: list[type[Event]] = []

    def counting(self: Event, *args: Any, **kwargs: Any) -> None:
        built.append(type(self))

    for cls in _event_classes():
        monkeypatch.setattr(cls, "__init__", counting)
    for players in (2, 3):
        state: State = load_game(game_id, players=players).new_initial_state()
        rng = random.Random(players)
        while not state.is_terminal():
            assert state.sink is None
            state.apply_action(state.rollout_action(rng))
            world = state.resample(0, rng) if not state.is_chance_node() else state.clone()
            if not world.is_terminal():
                world.apply_action(world.rollout_action(rng))
    assert built == []
    state = load_game(game_id, players=2).new_initial_state()
    state.apply_events(state.rollout_action(random.Random(0)))
    assert built  # the same rules with a sink do build them: the test can fail
