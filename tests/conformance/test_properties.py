"""Property-based checks: Hypothesis chooses every chance outcome and decision.

Seeded random walks (``test_protocol_conformance``) cover many matches cheaply; here
Hypothesis drives the choices itself, so when an invariant breaks it shrinks the match to
a short sequence of choices that shows the fault. The invariants are the ones that no
game may break whatever happens: a clone replays identically, a record of the actions
replays to the same views, a resampled world looks the same to its seat, and the views
stay plain JSON.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import necropolis
from necropolis.engine import CHANCE, MatchRecord
from necropolis.games import game_class, load_game

GAMES = [
    pytest.param(game_id, players, id=f"{game_id}-{players}")
    for game_id in necropolis.games()
    for players in (game_class(game_id).min_players, game_class(game_id).max_players)
]


@pytest.mark.parametrize(("game_id", "players"), GAMES)
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_any_choices_keep_the_protocol_whole(game_id: str, players: int, data: Any) -> None:
    game = necropolis.load_game(game_id, players=players)
    state = game.new_initial_state()
    steps = data.draw(st.integers(min_value=0, max_value=400), label="steps")
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            options = [a for a, _ in state.chance_outcomes()]
        else:
            options = state.legal_actions()
        index = data.draw(st.integers(min_value=0, max_value=len(options) - 1))
        state.apply_action(options[index])
    seats = range(game.num_players)
    views = [state.view(s) for s in (None, *seats)]
    assert json.loads(json.dumps(views)) == views
    # a clone and a replayed record agree with the state they came from
    clone = state.clone()
    assert [clone.view(s) for s in (None, *seats)] == views
    record = MatchRecord.start(game, ["random"] * game.num_players)
    record.actions = state.history()
    replayed = MatchRecord.loads(record.dumps()).final_state(load_game)
    assert [replayed.view(s) for s in (None, *seats)] == views
    # a world resampled for a seat is indistinguishable to that seat
    seat = data.draw(st.integers(min_value=0, max_value=game.num_players - 1), label="seat")
    world = state.resample(seat, random.Random(data.draw(st.integers(0, 2**32), label="rng")))
    assert world.view(seat) == state.view(seat)
    assert world.legal_actions(seat) == state.legal_actions(seat)
