"""The research contenders: hard's search without its clock (and with ten times its
iterations) decides from the seat's view alone; the oracle, and only it, is told the
hidden state; none of them can be seated at a table."""

from __future__ import annotations

import random

import pytest

import necropolis
from necropolis.analysis.headroom import RESEARCH, HardSearch, OracleBot, _ToldWindow
from necropolis.bots import BOTS
from necropolis.bots.levels import HARD_ITERATIONS
from necropolis.engine import SeatWindow
from tests.bots.test_bots_on_games import SharedDrawWindow, decision_points


def _decisions(
    bot: HardSearch, game_id: str, count: int = 4
) -> list[tuple[tuple[int, dict[int, int]], ...]]:
    """Per position, the bot's move and root visits in the true state and in a world the
    deciding seat cannot tell from it (its draws taken from the true state in both)."""
    found = []
    for state in decision_points(game_id, 2, count):
        seat = state.current_player()
        world = state.resample(seat, random.Random(99))
        pair = []
        for position in (state, world):
            action = bot.choose(SharedDrawWindow(position, seat, state), random.Random(5))
            pair.append((action, dict(bot.last.root_visits)))
        found.append(tuple(pair))
    return found


@pytest.mark.parametrize("game_id", necropolis.games())
def test_hard_without_its_clock_decides_from_the_seat_view_alone(game_id: str) -> None:
    for in_state, in_world in _decisions(HardSearch(scale=0.2), game_id, 12):
        assert in_state == in_world


@pytest.mark.parametrize("game_id", necropolis.games())
def test_the_oracle_is_told_the_hidden_state(game_id: str) -> None:
    # Two worlds the seat cannot tell apart give the oracle two different searches: it
    # reads the state behind the window, as the leak test of every other bot would catch.
    # (Some games hide little: in horus only which cards are left in the decks.)
    decisions = _decisions(OracleBot(scale=0.2), game_id, 12)
    assert any(in_state != in_world for in_state, in_world in decisions)


def test_the_oracle_searches_copies_of_the_true_state_for_hards_iterations() -> None:
    state = decision_points("luxor2001", 2, 1)[0]
    seat = state.current_player()
    before = state.view(None)
    bot = OracleBot(scale=0.01)
    bot.choose(SeatWindow(state, seat), random.Random(1))
    assert bot.last.iterations == round(0.01 * (state.game.hard_iterations or HARD_ITERATIONS))
    assert state.view(None) == before, "the search played on copies"
    world = _ToldWindow(state, seat).resample(random.Random(2))
    assert world is not state
    assert all(world.view(s) == state.view(s) for s in (None, 0, 1))


def test_the_research_contenders_are_no_bots_of_the_tables() -> None:
    assert not set(RESEARCH) & set(BOTS)
    made = {name: factory() for name, factory in RESEARCH.items()}
    assert {name: bot.name for name, bot in made.items()} == {n: n for n in RESEARCH}
    for name, bot in made.items():
        assert isinstance(bot, HardSearch) and bot.seconds is None, f"{name} has no clock"
    assert made["hard-unclocked"].scale == 1 and made["hard-10x"].scale == 10
    assert isinstance(made["oracle"], OracleBot) and made["oracle"].scale == 1
    assert not isinstance(made["hard-10x"], OracleBot)
