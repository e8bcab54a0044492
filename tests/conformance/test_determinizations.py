"""Every game: a determinization tells its seat nothing the seat does not know.

A world from ``resample(seat, rng)`` is what bots search. Two true matches that the seat
has seen alike at every step (they differ in a hidden draw, and so in their histories and
hidden things) must give, with one generator, the very same world: its fields, its
history (sealed), its log, its clone and its pickled form. Otherwise a bot holding the
world could read what its seat may not see.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import necropolis
from necropolis.engine import HiddenHistoryError
from tests.conformance.test_protocol_conformance import CONFIGS
from tests.conformance.twins import reachable, twin_matches

#: Three players (every game takes three), each variant: heuristic play is slow enough
#: that every player count would cost minutes.
THREE = [p for p in CONFIGS if p.values[1]["players"] == 3]


@pytest.mark.parametrize(("game_id", "options"), THREE)
def test_worlds_are_the_same_for_truths_their_seat_cannot_tell_apart(
    game_id: str, options: dict[str, Any]
) -> None:
    game = necropolis.load_game(game_id, **options)
    compared = 0
    for k, (a, b, seat) in enumerate(twin_matches(game, seed=len(options) + game.num_players)):
        assert a.history() != b.history()
        assert a.view(seat) == b.view(seat)
        wa = a.resample(seat, random.Random(k))
        wb = b.resample(seat, random.Random(k))
        assert reachable(wa) == reachable(wb), (k, seat, a.move_number())
        compared += 1
    assert compared


@pytest.mark.parametrize(("game_id", "options"), THREE)
def test_a_world_counts_its_moves_but_carries_only_its_own(
    game_id: str, options: dict[str, Any]
) -> None:
    game = necropolis.load_game(game_id, **options)
    rng = random.Random(3)
    for a, _, seat in twin_matches(game, seed=5, pairs=3, length=3):
        world = a.resample(seat, rng)
        moves = a.move_number()
        assert world.move_number() == world.history_start() == moves
        with pytest.raises(HiddenHistoryError):
            world.history()
        with pytest.raises(HiddenHistoryError):
            world.log(seat)
        with pytest.raises(HiddenHistoryError):
            world.history_since(moves - 1)
        assert world.history_since(moves) == []
        played: list[int] = []
        while not world.is_terminal() and len(played) < 5:
            action = world.rollout_action(rng)
            world.apply_action(action)
            played.append(action)
        assert world.history_since(moves) == played
        assert world.move_number() == moves + len(played)
        again = world.resample(seat, rng)  # a world of a world is sealed where it was made
        assert again.history_start() == world.move_number()
