"""The research contenders: hard's search without its clock (and with ten times its
iterations) decides from the seat's view alone; the oracle, and only it, is told the
hidden state; the clairvoyant is told the coming draws as well, by the harness alone;
none of them can be seated at a table."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import necropolis
from necropolis.analysis.duel import Contender, DuplicateChance, play_deal
from necropolis.analysis.headroom import (
    RESEARCH,
    ClairvoyantBot,
    HardSearch,
    OracleBot,
    _ToldWindow,
)
from necropolis.bots import BOTS
from necropolis.bots.levels import HARD_ITERATIONS
from necropolis.engine import SeatWindow
from necropolis.engine.protocol import State
from necropolis.games import load_game
from tests.bots.test_bots_on_games import SharedDrawWindow, decision_points
from tests.engine.toy import REDRAW, HighCardState


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
    assert not isinstance(made["oracle"], ClairvoyantBot)
    assert isinstance(made["clairvoyant"], ClairvoyantBot) and made["clairvoyant"].scale == 1
    assert not isinstance(made["hard-10x"], OracleBot)
    told = [name for name, bot in made.items() if callable(getattr(bot, "foresee", None))]
    assert told == ["clairvoyant"], "only the clairvoyant is handed the deal's draws"


def _dealt(deal: int) -> tuple[State, DuplicateChance]:
    """A two-seat high card deal at its first decision, dealt by the deal's own chance."""
    state = load_game("highcard", players=2).new_initial_state()
    chance = DuplicateChance(5, deal)
    while state.is_chance_node():
        state.apply_action(chance(state))
    return state, chance


class _Watching(ClairvoyantBot):
    """The clairvoyant, noting each card its search draws, with how many seats had
    decided (1: seat 0's redraw)."""

    def __init__(self) -> None:
        super().__init__(scale=0.2)
        self.drawn: list[tuple[int, int]] = []

    def _future(self) -> Callable[[State], int] | None:
        future = super()._future()
        assert future is not None, "told its deal"

        def draw(world: State) -> int:
            outcome = future(world)
            assert isinstance(world, HighCardState)
            self.drawn.append((world.decided, outcome))
            return outcome

        return draw


def test_the_clairvoyant_searches_the_draws_the_match_will_deal(toy_registry: object) -> None:
    for deal in range(8):
        state, chance = _dealt(deal)
        after = state.clone()
        after.apply_action(REDRAW)
        # What the match would deal next, drawn from a twin, leaving the match's streams
        # where they stand.
        coming = chance.copy()(after)
        bot = _Watching()
        bot.foresee(chance)
        bot.choose(SeatWindow(state, 0), random.Random(7))
        redraws = [card for decided, card in bot.drawn if decided == 1]
        assert redraws and set(redraws) == {coming}, f"deal {deal}"
        assert chance(after) == coming, "the search drew on twins, not on the match"


def test_the_harness_tells_the_clairvoyant_its_deal_and_no_other_player(
    toy_registry: object,
) -> None:
    told: list[DuplicateChance] = []

    class Listening(ClairvoyantBot):
        def foresee(self, chance: DuplicateChance) -> None:
            told.append(chance)
            super().foresee(chance)

    lineup = (Contender("clairvoyant", lambda: Listening(0.05)), Contender("hard", HardSearch))
    first = play_deal("highcard", {"players": 2}, lineup, 2, 4, 0)
    again = play_deal("highcard", {"players": 2}, lineup, 2, 4, 0)
    assert len(told) == 2 and told[0] is not told[1], "one chance a match, told once"
    assert first == again, "a clairvoyant's match replays from its deal"
