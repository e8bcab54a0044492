"""Turn rollouts: every move played a round on in the same worlds, judged by the planner.

Nim's best moves are known, so a planner that plays it perfectly makes the right root
move plain; a planner that writes down what it was asked shows how far a round goes.
"""

from __future__ import annotations

import random

import pytest

from necropolis.bots import RolloutBot, make_bot
from necropolis.engine import SeatWindow, State
from necropolis.engine.protocol import TERMINAL
from tests.bots.nim import TAKE_ONE, TAKE_TWO, Nim, NimState


class PerfectPlanner:
    """Plays Nim perfectly: leave the other a multiple of three whenever one can."""

    def __init__(self) -> None:
        self.judged: list[tuple[int, int, int]] = []  # (pile, to_move, seat) at each value()

    def act(self, state: State, rng: random.Random) -> int:
        assert isinstance(state, NimState)
        return TAKE_TWO if state.pile % 3 == 2 else TAKE_ONE

    def value(self, state: State, seat: int) -> float:
        assert isinstance(state, NimState)
        self.judged.append((state.pile, state.to_move, seat))
        if state.current_player() == TERMINAL:
            return 1.0 if state.last == seat else 0.0
        # Two players: the seat to move wins unless the pile is a multiple of three.
        mover_wins = state.pile % 3 != 0
        return 1.0 if mover_wins == (state.to_move == seat) else 0.0


class PlannedNim(Nim):
    planner = PerfectPlanner()

    def turn_planner(self) -> PerfectPlanner:
        return PlannedNim.planner


def window(pile: int, players: int = 2, planned: bool = True) -> SeatWindow:
    game = (PlannedNim if planned else Nim)(players=players, pile=pile)
    return SeatWindow(game.new_initial_state(), 0)


@pytest.mark.parametrize(("pile", "best"), [(7, TAKE_ONE), (8, TAKE_TWO), (5, TAKE_TWO)])
def test_the_planner_s_answer_decides(pile: int, best: int) -> None:
    # From 7, taking two leaves 5, from which the planner's reply leaves us 3: lost.
    bot = RolloutBot(worlds=3)
    assert bot.choose(window(pile), random.Random(1)) == best
    assert bot.last.means[best] == 1.0
    assert bot.last.means[TAKE_ONE + TAKE_TWO - best] == 0.0


def test_a_round_ends_when_the_decision_comes_back_to_the_seat() -> None:
    PlannedNim.planner = PerfectPlanner()
    bot = RolloutBot(worlds=1)
    bot.choose(window(11, players=3), random.Random(0))
    # Each move, then the two other seats' turns: judged with seat 0 to move again.
    judged = PlannedNim.planner.judged
    assert len(judged) == 2
    assert all((to_move, seat) == (0, 0) for _, to_move, seat in judged)
    # Taking one: 10, then the planner takes one (9) and one (8). Taking two: 9, then one
    # (8) and two (6). Three moves each, no more and no fewer.
    assert sorted(p for p, _, _ in judged) == [6, 8]


def test_without_a_planner_the_game_s_own_rollout_and_estimate_decide() -> None:
    # Two stones: taking both wins at once; taking one hands the other the last stone.
    bot = RolloutBot(worlds=4)
    assert bot.choose(window(2, planned=False), random.Random(0)) == TAKE_TWO
    assert bot.last.means == {TAKE_ONE: 0.0, TAKE_TWO: 1.0}


def test_the_budget_is_a_number_of_worlds_and_the_clock_caps_it() -> None:
    bot = RolloutBot(worlds=37)
    bot.choose(window(9), random.Random(0))
    assert bot.last.worlds == 37
    capped = RolloutBot(worlds=10**9, seconds=0.02)
    capped.choose(window(9), random.Random(0))
    assert 1 <= capped.last.worlds < 10**9
    at_once = RolloutBot(worlds=5, seconds=0.0)
    at_once.choose(window(9), random.Random(0))
    assert at_once.last.worlds == 1  # at least one world, whatever the clock
    with pytest.raises(ValueError, match="at least one world"):
        RolloutBot(worlds=0)


class SlowPlanner(PerfectPlanner):
    """Each move it plans takes a tenth of a second of a clock the test keeps."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def act(self, state: State, rng: random.Random) -> int:
        self.now += 0.1
        return super().act(state, rng)


def test_no_world_is_begun_that_would_end_past_the_clock() -> None:
    planner = SlowPlanner()
    PlannedNim.planner = planner
    # From 9 each world plays both moves a round on: the other seat's answer to each is
    # one planned move, so a world takes 0.2 s.
    bot = RolloutBot(worlds=100, seconds=0.9, clock=lambda: planner.now)
    bot.choose(window(9), random.Random(0))
    # At 0.8 a fifth world could end at 1.0: four worlds, and the decision ends in time.
    assert bot.last.worlds == 4
    assert bot.last.seconds == pytest.approx(0.8)


def test_a_shortlist_plays_out_only_the_moves_the_planner_values_most() -> None:
    PlannedNim.planner = PerfectPlanner()
    bot = RolloutBot(worlds=2, shortlist=1)
    assert bot.choose(window(7), random.Random(0)) == TAKE_ONE
    assert list(bot.last.means) == [TAKE_ONE]
    # Judged once to rank the two moves, then once for each of two worlds.
    assert len(PlannedNim.planner.judged) == 2 + 2


def test_a_single_legal_action_is_played_at_once() -> None:
    bot = RolloutBot(worlds=5)
    assert bot.choose(window(1), random.Random(0)) == TAKE_ONE
    assert bot.last.worlds == 0


def test_the_registry_has_it() -> None:
    bot = make_bot("rollout")
    assert isinstance(bot, RolloutBot) and bot.seconds is None
