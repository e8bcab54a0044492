"""scripts/tune_horus_heuristic.py: a tuning is named as the game's own, a bad one is
refused with the fields there are, and a screened match is the tuned strategy's match."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from types import ModuleType

import pytest

from necropolis.engine import SeatWindow, play_match
from necropolis.games import load_game
from necropolis.games.horus import heuristic
from tests.analysis.scripts import load_script


@pytest.fixture(scope="module")
def tune() -> ModuleType:
    return load_script("tune_horus_heuristic")


def test_tunings_are_read_as_the_shipped_ones_and_bad_ones_refused(tune: ModuleType) -> None:
    assert tune.parse_tuning("heuristic") is heuristic.HEURISTIC
    assert tune.parse_tuning("levels") is heuristic.LEVELS
    assert tune.parse_tuning("rivals_shut_in=false") == heuristic.LEVELS
    assert tune.parse_tuning("rivals_shut_in=True") == heuristic.HEURISTIC
    with pytest.raises(ValueError, match="rivals_shut_in"):
        tune.parse_tuning("rival_shut=false")
    with pytest.raises(ValueError, match="true or false"):
        tune.parse_tuning("rivals_shut_in=maybe")
    # the other fields take their defaults' types: the screened rows of docs/strength.md
    tuned = tune.parse_tuning("rivals_shut_in=false,risk_weight=1.5,rival_rounds=2,stay_cost=0.95")
    assert tuned == dataclasses.replace(
        heuristic.LEVELS, risk_weight=1.5, rival_rounds=2, stay_cost=0.95
    )
    assert type(tuned.rival_rounds) is int and type(tuned.stay_cost) is float
    with pytest.raises(ValueError, match=r"rival_rounds is a whole number, not '2\.5'"):
        tune.parse_tuning("rival_rounds=2.5")
    with pytest.raises(ValueError, match="stay_cost is a number, not 'high'"):
        tune.parse_tuning("stay_cost=high")


def test_a_screened_match_is_played_by_the_tuned_strategy(tune: ModuleType) -> None:
    # Match 1 of seed 5 at two players seats the tuning in seat 1: the very match the
    # levels' strategy and the heuristic play through the driver, with the same returns.
    label, mine, theirs = tune.play(("levels", heuristic.LEVELS, 2, 5, 1))
    game = load_game("horus", players=2)

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
