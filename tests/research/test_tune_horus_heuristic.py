"""research/tune_horus_heuristic.py: a tuning is named as the game's own, a bad one is
refused with the fields there are, and a screened match is the tuned strategy's match."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from types import ModuleType

import pytest

from necropolis.engine import SeatWindow, play_match
from necropolis.engine.frozen import removed, replaced
from necropolis.games import load_game
from necropolis.games.horus import components as cp
from necropolis.games.horus import heuristic
from necropolis.games.horus.codes import A_DONE, A_LEAVE, SEALED
from tests.horus.helpers import DAVID, JOSE, keep_all, roll, start
from tests.scripts import RESEARCH, load_script


@pytest.fixture(scope="module")
def tune() -> ModuleType:
    return load_script("tune_horus_heuristic", RESEARCH)


def test_tunings_are_read_as_the_shipped_ones_and_bad_ones_refused(tune: ModuleType) -> None:
    assert tune.parse_tuning("heuristic") is heuristic.HEURISTIC
    assert tune.parse_tuning("levels") is heuristic.LEVELS
    assert (
        tune.parse_tuning("rivals_shut_in=false,rival_gain_sharing=2,rival_gain_per_round=0.8")
        == heuristic.LEVELS
    )
    assert tune.parse_tuning("rivals_shut_in=True") == heuristic.HEURISTIC
    with pytest.raises(ValueError, match="rivals_shut_in"):
        tune.parse_tuning("rival_shut=false")
    with pytest.raises(ValueError, match="true or false"):
        tune.parse_tuning("rivals_shut_in=maybe")
    # the other fields take their defaults' types: the screened rows of docs/strength.md
    tuned = tune.parse_tuning("rivals_shut_in=false,risk_weight=1.5,rival_rounds=2,stay_cost=0.95")
    assert tuned == dataclasses.replace(
        heuristic.HEURISTIC, rivals_shut_in=False, risk_weight=1.5, rival_rounds=2, stay_cost=0.95
    )
    assert type(tuned.rival_rounds) is int and type(tuned.stay_cost) is float
    with pytest.raises(ValueError, match=r"rival_rounds is a whole number, not '2\.5'"):
        tune.parse_tuning("rival_rounds=2.5")
    with pytest.raises(ValueError, match="stay_cost is a number, not 'high'"):
        tune.parse_tuning("stay_cost=high")


def test_a_screened_match_is_played_by_the_tuned_strategy(tune: ModuleType) -> None:
    # Match 1 of seed 5 at two players seats the tuning in seat 1: the very match the
    # levels' strategy and the heuristic play through the driver, with the same returns.
    label, mine, theirs, fate = tune.play(("levels", heuristic.LEVELS, 2, 5, 1))
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
    # how it ended, as the finished match shows it to everyone
    players = state.view(None)["players"]
    status, other_out, won, _ = fate
    assert status == players[1]["status"]
    assert other_out == (players[0]["status"] == "escaped")
    returns = state.returns()
    expected = "a heuristic" if returns[0] > returns[1] else "the tuning"
    if returns[0] == returns[1]:
        expected = "nobody" if returns[1] == 0 else "the tuning and a heuristic"
    assert won == expected


def test_a_seat_that_waits_on_an_exit_with_cards_is_counted_as_staying(tune: ModuleType) -> None:
    # The heuristic's own test position: seat 0 on its exit with two treasures, the rival
    # inside, no one block able to shut it in, so it waits; empty-handed there, or leaving,
    # it does not count.
    state = start([JOSE, DAVID], hands={0: ["Anubis treasure (9)", "Horus treasure (10)"]})
    keep_all(state)
    roll(state, [6, 6, 6, 6, 6])
    open_blocks = (13, 2, 3, 23, 24, 33, 34, 35, 36)
    for b in range(1, 37):
        if b not in open_blocks:
            state.fallen = replaced(state.fallen, b - 1, True)
            state.box = removed(state.box, b - 1)
    state.square[0] = cp.ENTRANCES[0]
    bot = tune.TunedBot("levels", heuristic.LEVELS)
    assert bot.choose(SeatWindow(state, 0), random.Random(0)) == A_DONE
    assert bot.stayed_at_exit
    state.status = replaced(
        state.status, 1, SEALED
    )  # alone inside: it leaves, and a fresh bot never stayed
    leaving = tune.TunedBot("levels", heuristic.LEVELS)
    assert leaving.choose(SeatWindow(state, 0), random.Random(0)) == A_LEAVE
    assert not leaving.stayed_at_exit
