"""research/tune_luxor_heuristic.py: a weighting is named as the game's own, a bad one is
refused with the fields there are, and a screened match is the weighted strategy's match."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from types import ModuleType

import pytest

from necropolis.engine import SeatWindow, play_match
from necropolis.games import load_game
from necropolis.games.luxor import heuristic
from tests.scripts import RESEARCH, load_script


@pytest.fixture(scope="module")
def tune() -> ModuleType:
    return load_script("tune_luxor_heuristic", RESEARCH)


def test_weightings_are_read_as_the_shipped_ones_and_bad_ones_refused(tune: ModuleType) -> None:
    assert tune.parse_weights("heuristic") is heuristic.HEURISTIC
    assert tune.parse_weights("levels") is heuristic.LEVELS
    assert tune.parse_weights("horus_card=1") == heuristic.LEVELS
    assert tune.parse_weights("horus_card=1.5") == heuristic.HEURISTIC
    # the screened rows of docs/strength.md
    assert tune.parse_weights("body=2.4,next_turn=0") == dataclasses.replace(
        heuristic.HEURISTIC, body=2.4, next_turn=0.0
    )
    with pytest.raises(ValueError, match=r"horus_card"):
        tune.parse_weights("horus=1")  # not a field: the message lists those there are
    with pytest.raises(ValueError, match="not field=value"):
        tune.parse_weights("horus_card")
    with pytest.raises(ValueError, match="body is a number, not 'high'"):
        tune.parse_weights("body=high")


def test_a_screened_match_is_played_by_the_weighted_strategy(tune: ModuleType) -> None:
    # Match 1 of seed 5 at two players seats the weighting in seat 1: the very match the
    # levels' strategy and the heuristic play through the driver, with the same returns.
    label, mine, theirs = tune.play(("levels", heuristic.LEVELS, 2, 5, 1))
    game = load_game("luxor", players=2)

    class Follows:
        def __init__(self, name: str, decide: Callable[[SeatWindow, random.Random], int]) -> None:
            self.name, self.decide = name, decide

        def choose(self, window: SeatWindow, rng: random.Random) -> int:
            return self.decide(window, rng)

    state, _ = play_match(
        game,
        [Follows("heuristic", heuristic.policy), Follows("levels", heuristic.levels_policy)],
        seed=5 * 1_000_003 + 1,
    )
    assert label == "levels"
    assert (mine, theirs) == (state.returns()[1], state.returns()[0])
