"""Whole-turn plans: the planner's best plans for the turn, each played a round on.

Twice-Nim makes a turn two decisions: the seat to move takes one or two stones, twice,
and whoever takes the last stone wins. A turn begun on 5 stones, or on any multiple of
6 and the one before it, is lost; from 7 the only winning turn is to take one and one
(leaving 5), although taking two first looks as good one decision deep. A greedy
planner rates a plan by the stones it takes, so its best plan is wrong, and what the
round on adds shows plainly.
"""

from __future__ import annotations

import random

import pytest

from necropolis.bots import PlanBot, make_bot
from necropolis.bots import plans as plans_module
from necropolis.bots.plans import whole_plans
from necropolis.engine import SeatWindow, State
from necropolis.engine.protocol import TERMINAL
from necropolis.games import load_game
from tests.bots.nim import TAKE_ONE, TAKE_TWO, Nim, NimState


class TwiceNim(Nim):
    id = "twice-nim"

    def new_initial_state(self) -> TwiceNimState:
        return TwiceNimState(self)


class TwiceNimState(NimState):
    __slots__ = ("taken",)

    def __init__(self, game: Nim) -> None:
        super().__init__(game)
        self.taken = 0  # takes so far in the turn

    def _apply(self, action: int) -> None:
        self.pile -= action + 1
        self.last = self.to_move
        self.taken += 1
        if self.taken == 2:
            self.taken = 0
            self.to_move = (self.to_move + 1) % self.game.num_players

    def clone(self) -> TwiceNimState:
        new = super().clone()
        assert isinstance(new, TwiceNimState)
        new.taken = self.taken
        return new

    def _resample(self, seat: int, rng: random.Random) -> TwiceNimState:
        return self.clone()


def lost(pile: int) -> bool:
    """Whether a turn begun on ``pile`` stones is lost (two players)."""
    return pile >= 5 and pile % 6 in (5, 0)


class GreedyPlanner:
    """Plays perfectly, judges positions perfectly, and rates a plan by stones taken."""

    def __init__(self) -> None:
        self.rated: list[int] = []  # the pile at each worth()

    def act(self, state: State, rng: random.Random) -> int:
        assert isinstance(state, TwiceNimState)
        for first in state.legal_actions():
            after = state.pile - first - 1
            if after == 0 or (state.taken == 1 and lost(after)):
                return first
            if state.taken == 0:
                for second in (TAKE_ONE, TAKE_TWO)[: min(after, 2)]:
                    left = after - second - 1
                    if left == 0 or lost(left):
                        return first
        return TAKE_ONE

    def value(self, state: State, seat: int) -> float:
        assert isinstance(state, TwiceNimState)
        if state.current_player() == TERMINAL:
            return 1.0 if state.last == seat else 0.0
        mover_wins = not lost(state.pile)
        return 1.0 if mover_wins == (state.to_move == seat) else 0.0

    def worth(self, state: State, seat: int) -> float:
        assert isinstance(state, TwiceNimState)
        self.rated.append(state.pile)
        return -state.pile


class PlannedTwiceNim(TwiceNim):
    planner = GreedyPlanner()

    def turn_planner(self) -> GreedyPlanner:
        return PlannedTwiceNim.planner


def window(pile: int, planned: bool = True) -> SeatWindow:
    game = (PlannedTwiceNim if planned else TwiceNim)(pile=pile)
    return SeatWindow(game.new_initial_state(), 0)


def test_the_plans_are_every_way_to_play_out_the_turn() -> None:
    state = TwiceNim(pile=7).new_initial_state()
    ends = whole_plans(state, 0, 100)
    assert ends is not None
    assert [plan for plan, _ in ends] == [
        (TAKE_ONE, TAKE_ONE),
        (TAKE_ONE, TAKE_TWO),
        (TAKE_TWO, TAKE_ONE),
        (TAKE_TWO, TAKE_TWO),
    ]
    assert [(end.pile, end.current_player()) for _, end in ends] == [(5, 1), (4, 1), (4, 1), (3, 1)]
    # A plan ends where the match does, and the second decision of a turn has its own.
    two = TwiceNim(pile=2).new_initial_state()
    assert [plan for plan, _ in whole_plans(two, 0, 100) or []] == [
        (TAKE_ONE, TAKE_ONE),
        (TAKE_TWO,),
    ]
    state.apply_action(TAKE_TWO)
    assert [plan for plan, _ in whole_plans(state, 0, 100) or []] == [(TAKE_ONE,), (TAKE_TWO,)]
    assert whole_plans(TwiceNim(pile=7).new_initial_state(), 0, 3) is None


def test_the_round_on_overrules_the_planner_s_favourite() -> None:
    PlannedTwiceNim.planner = GreedyPlanner()
    bot = PlanBot(worlds=3, candidates=4)
    assert bot.choose(window(7), random.Random(1)) == TAKE_ONE
    # Each plan is judged where the other seat's answer leaves the bot's next turn.
    assert bot.last.means == {
        (TAKE_TWO, TAKE_TWO): 0.0,
        (TAKE_ONE, TAKE_TWO): 0.0,
        (TAKE_TWO, TAKE_ONE): 0.0,
        (TAKE_ONE, TAKE_ONE): 1.0,
    }
    assert bot.last.plans == 4 and bot.last.worlds == 3


def test_only_the_plans_the_planner_rates_highest_are_played_out() -> None:
    PlannedTwiceNim.planner = GreedyPlanner()
    bot = PlanBot(worlds=2, candidates=1)
    # The greedy favourite alone: take two, twice; its first decision is played.
    assert bot.choose(window(7), random.Random(1)) == TAKE_TWO
    assert list(bot.last.means) == [(TAKE_TWO, TAKE_TWO)]
    # Rated once each in one world, not again in the worlds played.
    assert sorted(PlannedTwiceNim.planner.rated) == [3, 4, 4, 5]
    # Equal ratings keep the plans' own order.
    bot = PlanBot(worlds=1, candidates=2)
    bot.choose(window(7), random.Random(1))
    assert list(bot.last.means) == [(TAKE_TWO, TAKE_TWO), (TAKE_ONE, TAKE_TWO)]


def test_the_second_decision_of_a_turn_is_searched_again() -> None:
    PlannedTwiceNim.planner = GreedyPlanner()
    state = PlannedTwiceNim(pile=7).new_initial_state()
    state.apply_action(TAKE_ONE)  # 6 left, one take to go: taking one leaves 5
    bot = PlanBot(worlds=2, candidates=4)
    assert bot.choose(SeatWindow(state, 0), random.Random(0)) == TAKE_ONE
    assert bot.last.means == {(TAKE_TWO,): 0.0, (TAKE_ONE,): 1.0}


def test_too_many_ways_and_no_planner_are_searched_one_decision_deep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    PlannedTwiceNim.planner = GreedyPlanner()
    monkeypatch.setattr(plans_module, "MAX_PLANS", 3)
    bot = PlanBot(worlds=2, candidates=1)
    # Every legal move is a plan of one decision, whatever the candidates kept; the
    # planner plays the rest of the turn (taking one, then one, is the win from 7).
    assert bot.choose(window(7), random.Random(1)) == TAKE_ONE
    assert bot.last.means == {(TAKE_ONE,): 1.0, (TAKE_TWO,): 0.0}
    assert bot.last.plans == 0
    monkeypatch.undo()
    # No planner: the game's rollouts and estimate. From three stones taking two wins
    # (the second take is the last stone); taking one leaves a random second take.
    bot = PlanBot(worlds=16)
    assert bot.choose(window(3, planned=False), random.Random(0)) == TAKE_TWO
    assert bot.last.means[(TAKE_TWO,)] == 1.0 > bot.last.means[(TAKE_ONE,)]


def test_the_budget_is_a_number_of_worlds_and_the_clock_caps_it() -> None:
    bot = PlanBot(worlds=37)
    bot.choose(window(9), random.Random(0))
    assert bot.last.worlds == 37
    capped = PlanBot(worlds=10**9, seconds=0.02)
    capped.choose(window(9), random.Random(0))
    assert 1 <= capped.last.worlds < 10**9
    at_once = PlanBot(worlds=5, seconds=0.0)
    at_once.choose(window(9), random.Random(0))
    assert at_once.last.worlds == 1  # at least one world, whatever the clock
    single = PlanBot(worlds=5)
    state = PlannedTwiceNim(pile=3).new_initial_state()
    state.apply_action(TAKE_TWO)  # one stone, one legal take
    assert single.choose(SeatWindow(state, 0), random.Random(0)) == TAKE_ONE
    assert single.last.worlds == 0
    with pytest.raises(ValueError, match="at least one world"):
        PlanBot(worlds=0)
    with pytest.raises(ValueError, match="at least one plan"):
        PlanBot(candidates=0)


def test_the_registry_has_it() -> None:
    bot = make_bot("plans")
    assert isinstance(bot, PlanBot) and bot.seconds is None
    assert (bot.worlds, bot.candidates) == (128, 6)


def test_it_decides_alike_from_the_same_seed_in_luxor() -> None:
    game = load_game("luxor", players=2)
    state = game.new_initial_state()
    rng = random.Random(3)
    decided = 0
    while decided < 6:
        seat = state.current_player()
        if seat < 0:
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            choices = []
            for _ in range(2):
                bot = PlanBot(worlds=8, candidates=3)
                action = bot.choose(SeatWindow(state, seat), random.Random(8))
                choices.append((action, bot.last.means, bot.last.plans))
            assert choices[0] == choices[1]
            assert choices[0][0] in legal and len(choices[0][1]) <= 3
            decided += 1
        state.apply_action(legal[rng.randrange(len(legal))])
