"""Random play of luxor2001: every player count and variant finishes, components conserved.

Each finished match is checked against an independent recount of the components (cards,
curse cards, scarabs, sarcophagi, researchers) and of the scores (sarcophagus points from
the value table, plus the pharaoh bonus recomputed from the pillars).
"""

from __future__ import annotations

import random

import pytest

from necropolis.games.luxor2001 import LuxorState, rules
from necropolis.games.luxor2001.components import (
    NUM_CARDS,
    NUM_CURSES,
    SARCOPHAGUS_VALUES,
)
from tests.luxor2001.luxor2001_support import new_state, play_random, random_step

VALUE_TABLE = {1: (3, 4), 2: (5, 6), 3: (7, 8, 10)}  # the rulebook's values by eye count


def check_finished(state: LuxorState) -> None:
    n = state.n
    assert state.is_terminal()
    assert all(h == 5 for h in state.heights), "the wall is full"
    filled = sum(1 for c in state.wall if c >= 0)
    assert filled == 80
    cards = filled // 2 + sum(len(h) for h in state.hands) + len(state.pile)
    assert cards == NUM_CARDS
    assert len(state.curses_left) + len(state.curses_out) == (NUM_CURSES if state.curse else 0)
    assert state.scarab_supply + sum(state.scarabs) == 16
    assert all(0 <= s <= 3 for s in state.scarabs)
    held = sum(len(h) for h in state.held)
    assert held + sum(state.stack) == 21
    for seat in range(n):
        on_board = sum(1 for o in state.occupant if o == seat)
        assert on_board + state.res_supply[seat] == 5
    expected = []
    for seat in range(n):
        points = 0
        for code in state.held[seat]:
            eyes, value = SARCOPHAGUS_VALUES[code & 7]
            assert value in VALUE_TABLE[eyes]
            points += value
        animal = state.pharaoh[seat]
        if state.occupant[animal] == seat:
            points += 7
        expected.append(float(points))
    assert state.scores() == expected
    returns = state.returns()
    assert abs(sum(returns) - 1.0) < 1e-9
    best = max(zip(expected, (len(h) for h in state.held), strict=True))
    winners = [s for s in range(n) if (expected[s], len(state.held[s])) == best]
    assert [s for s in range(n) if returns[s] > 0] == winners


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "options",
    [{}, {"curse": True}, {"sphinx": True}, {"curse": True, "sphinx": True}],
    ids=["base", "curse", "sphinx", "both"],
)
def test_random_games_finish_with_components_conserved(
    players: int, options: dict[str, bool]
) -> None:
    rng = random.Random(players * 100 + len(options))
    for _ in range(20):
        state = new_state(players, **options)
        steps = play_random(state, rng)
        assert steps <= state.game.max_game_length()
        check_finished(state)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousand_random_games(players: int) -> None:
    rng = random.Random(2001 + players)
    phases: set[int] = set()
    for i in range(1000):
        options = {"curse": i % 4 == 1 or i % 4 == 3, "sphinx": i % 4 >= 2}
        state = new_state(players, **options)
        while not state.is_terminal():
            phases.add(state.phase)
            random_step(state, rng)
        check_finished(state)
    # Random play reaches every step of the rules, relocations and curse gifts included.
    assert phases == set(range(len(rules.PHASE_NAMES))) - {rules.END}
