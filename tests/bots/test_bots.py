"""The bots: IS-MCTS searches only the seat's window, keeps its budget, finds good moves.

The toy high-card game has hidden cards and chance; Nim has known best moves several
plies deep. Two states that differ only in another seat's hidden card must lead a bot to
the same decision (and the same search) for the same generator: the bots see windows.
"""

from __future__ import annotations

import random

import pytest

from necropolis.bots import BOTS, HeuristicBot, ISMCTSBot, RandomBot, make_bot
from necropolis.bots.heuristic import one_ply_monte_carlo
from necropolis.engine import SeatWindow, State, play_match
from tests.bots.nim import TAKE_ONE, TAKE_TWO, Nim, NimState
from tests.engine.toy import KEEP, REDRAW, HighCard, HighCardState


def dealt(cards: list[int], players: int | None = None) -> HighCardState:
    """A high-card state after the deal (chance outcomes chosen, as a test may)."""
    state = HighCard(players=players or len(cards)).new_initial_state()
    for card in cards:
        state.apply_action(card)
    return state


def nim(pile: int, players: int = 2) -> State:
    return Nim(players=players, pile=pile).new_initial_state()


def test_registry_has_every_bot_and_each_plays_a_whole_match() -> None:
    assert {"random", "heuristic", "ismcts", "easy", "medium", "hard"} <= set(BOTS)
    with pytest.raises(ValueError, match="no bot called"):
        make_bot("grandmaster")
    game = HighCard(players=3)
    for name in ("random", "heuristic", "easy", "medium"):
        players = [make_bot(name), RandomBot(), RandomBot()]
        final, _ = play_match(game, players, seed=5)
        assert final.is_terminal() and players[0].name == name


def test_ismcts_keeps_its_iteration_budget() -> None:
    bot = ISMCTSBot(iterations=137)
    bot.choose(SeatWindow(dealt([2, 3]), 0), random.Random(1))
    assert bot.last.iterations == 137
    assert sum(bot.last.root_visits.values()) == 137


def test_ismcts_time_budget_stops_the_search() -> None:
    # A tiny time budget with an unreachable iteration budget: the clock ends the search
    # (counted, not timed, so that a loaded machine cannot fail it).
    bot = ISMCTSBot(iterations=10**9, seconds=0.02)
    bot.choose(SeatWindow(nim(30), 0), random.Random(1))
    assert 1 <= bot.last.iterations < 10**9
    with pytest.raises(ValueError):
        ISMCTSBot(iterations=None, seconds=None)


def test_a_single_legal_action_is_played_without_search() -> None:
    bot = ISMCTSBot(iterations=50)
    assert bot.choose(SeatWindow(nim(1), 0), random.Random(0)) == 0
    assert bot.last.iterations == 0


@pytest.mark.parametrize(("pile", "best"), [(7, 0), (8, 1), (5, 1), (4, 0)])
def test_ismcts_finds_the_winning_nim_move(pile: int, best: int) -> None:
    bot = ISMCTSBot(iterations=1500)
    assert bot.choose(SeatWindow(nim(pile), 0), random.Random(pile)) == best


def test_ismcts_with_three_players_takes_the_immediate_win() -> None:
    bot = ISMCTSBot(iterations=300)
    state = nim(4, players=3)
    state.apply_action(0)  # seat 0 takes one, seat 1 takes one: two stones are left
    state.apply_action(0)
    assert state.current_player() == 2
    assert bot.choose(SeatWindow(state, 2), random.Random(3)) == 1  # take both, win


@pytest.mark.parametrize(
    ("my_card", "best"), [(1, REDRAW), (4, KEEP)], ids=["low-card", "high-card"]
)
def test_ismcts_keeps_a_high_card_and_throws_a_low_one(my_card: int, best: int) -> None:
    bot = ISMCTSBot(iterations=400)
    state = dealt([my_card, 3, 2])
    assert bot.choose(SeatWindow(state, 0), random.Random(9)) == best


@pytest.mark.parametrize("bot_name", ["ismcts", "heuristic"])
def test_decisions_depend_only_on_what_the_seat_sees(bot_name: str) -> None:
    # Seat 0 holds a 2 in both; seat 1's and seat 2's hidden cards differ.
    first, second = dealt([2, 4, 4]), dealt([2, 1, 3])
    assert first.view(0) == second.view(0)
    for seed in range(3):
        choices = []
        for state in (first, second):
            bot = make_bot(bot_name)
            choices.append(bot.choose(SeatWindow(state, 0), random.Random(seed)))
            if isinstance(bot, ISMCTSBot):
                choices.append(dict(bot.last.root_visits))
        assert choices[: len(choices) // 2] == choices[len(choices) // 2 :]


def test_heuristic_bot_prefers_the_game_policy_when_there_is_one() -> None:
    calls: list[int] = []

    class WithPolicy(HighCard):
        def heuristic_policy(self):  # type: ignore[no-untyped-def]
            def policy(window: SeatWindow, rng: random.Random) -> int:
                calls.append(window.seat)
                return KEEP

            return policy

    state = WithPolicy(players=2).new_initial_state()
    for card in (1, 1):
        state.apply_action(card)
    assert HeuristicBot().choose(SeatWindow(state, 0), random.Random(0)) == KEEP
    assert calls == [0]


def test_one_ply_fallback_finds_the_immediate_win() -> None:
    state = nim(2, players=3)
    assert one_ply_monte_carlo(SeatWindow(state, 0), random.Random(0)) == 1
    assert one_ply_monte_carlo(SeatWindow(dealt([1, 3]), 0), random.Random(0)) == REDRAW


def test_placement_counts_the_seats_outscored() -> None:
    from necropolis.bots.heuristic import _placement

    assert _placement([3.0, 5.0, 5.0], 1) == 0.75
    assert _placement([3.0, 5.0, 7.0], 2) == 1.0
    assert _placement([3.0, 5.0, 7.0], 0) == 0.0


class ToldState(HighCardState):
    """High card in which every draw is announced to everyone."""

    __slots__ = ()

    def describe_action(self, action: int, observer: int | None) -> str:
        return self.action_to_string(action)


class Told(HighCard):
    def new_initial_state(self) -> ToldState:
        return ToldState(self)


def test_the_tree_branches_on_chance_only_as_far_as_the_seat_is_told() -> None:
    def redraw_children(game: HighCard) -> set[int | str]:
        state = game.new_initial_state()
        for card in (2, 3):
            state.apply_action(card)
        root = ISMCTSBot(iterations=300).search(SeatWindow(state, 0), random.Random(2))
        return set(root.children[0 * 2 + REDRAW].children)

    # The toy game tells nobody what a redraw brings: one branch for every outcome.
    assert redraw_children(HighCard(players=2)) == {"a hidden chance event"}
    # Announced draws branch the tree, one child per card that can come.
    assert redraw_children(Told(players=2)) == {"card 1", "card 2", "card 3", "card 4"}


class GuessedNimState(NimState):
    """Nim whose estimate of an unfinished pile is a signature: seat 0 gets pile / 10."""

    __slots__ = ()

    def estimate_returns(self) -> list[float]:
        if self.is_terminal():
            return self.returns()
        return [self.pile / 10, 1 - self.pile / 10]


class GuessedNim(Nim):
    def new_initial_state(self) -> GuessedNimState:
        return GuessedNimState(self)


def test_cutoff_zero_backs_up_the_estimate_of_the_expanded_world() -> None:
    # Two iterations expand the root's two moves; with no rollout at all, each new node
    # holds the estimate of the position right after its move (piles 6 and 5).
    bot = ISMCTSBot(iterations=2, cutoff=0)
    root = bot.search(SeatWindow(GuessedNim(pile=7).new_initial_state(), 0), random.Random(0))
    totals = {key: (child.visits, child.total) for key, child in root.children.items()}
    assert totals == {TAKE_ONE: (1, pytest.approx(0.6)), TAKE_TWO: (1, pytest.approx(0.5))}


def test_cutoff_zero_follows_the_estimate() -> None:
    # The estimate says a bigger pile is better for seat 0 and worse for seat 1, so
    # whatever seat 1 answers, taking one stone leaves seat 0 a bigger pile: it takes one,
    # though from 32 taking two wins. The tree is far from the end: it trusts the estimate.
    bot = ISMCTSBot(iterations=200, cutoff=0)
    state = GuessedNim(pile=32).new_initial_state()
    assert bot.choose(SeatWindow(state, 0), random.Random(1)) == TAKE_ONE


def test_a_cutoff_beyond_the_end_changes_nothing() -> None:
    # Rollouts that end before the cutoff back up the true returns and draw the same
    # numbers, so the search is the very same as with rollouts to the end.
    visits = []
    for cutoff in (None, 50):
        bot = ISMCTSBot(iterations=300, cutoff=cutoff)
        bot.choose(SeatWindow(GuessedNim(pile=9).new_initial_state(), 0), random.Random(4))
        visits.append(bot.last.root_visits)
    assert visits[0] == visits[1]
    with pytest.raises(ValueError, match="cutoff"):
        ISMCTSBot(cutoff=-1)


def test_hard_is_a_search_capped_below_a_second() -> None:
    from necropolis.bots.levels import HARD_SECONDS, hard

    strong = hard()
    assert strong.cutoff is not None and strong.iterations is not None
    # Hard is capped at a second a decision, whatever the machine.
    assert strong.seconds == HARD_SECONDS <= 1.0


class CoachedNim(Nim):
    """Nim with a stubborn heuristic that always takes two stones, right or wrong."""

    asked: int = 0

    def heuristic_policy(self):  # type: ignore[no-untyped-def]
        def policy(window: SeatWindow, rng: random.Random) -> int:
            CoachedNim.asked += 1
            return TAKE_TWO

        return policy


def test_easy_and_medium_blunder_at_the_rates_the_game_sets() -> None:
    # The coach always takes two; a blunder is a random legal move (one or two), so a
    # level takes one at half its rate. The rates are the game's, read at each decision.
    from necropolis.bots.levels import easy, medium

    class Spaced(CoachedNim):
        easy_blunder_rate = 0.6
        medium_blunder_rate = 0.2

    window = SeatWindow(Spaced(pile=9).new_initial_state(), 0)
    rng = random.Random(8)
    for make, rate in ((easy, 0.6), (medium, 0.2)):
        bot = make()
        CoachedNim.asked = 0
        took_one = sum(bot.choose(window, rng) == TAKE_ONE for _ in range(4000)) / 4000
        assert took_one == pytest.approx(rate / 2, abs=0.02)
        # the heuristic is asked only when the level does not blunder
        assert CoachedNim.asked == pytest.approx(4000 * (1 - rate), rel=0.05)

    class Sure(CoachedNim):
        medium_blunder_rate = 0.0
        easy_blunder_rate = 1.0

    window = SeatWindow(Sure(pile=9).new_initial_state(), 0)
    CoachedNim.asked = 0
    assert all(medium().choose(window, rng) == TAKE_TWO for _ in range(200))
    assert CoachedNim.asked == 200
    assert {easy().choose(window, rng) for _ in range(200)} == {TAKE_ONE, TAKE_TWO}
    assert CoachedNim.asked == 200


def test_each_game_blunders_less_at_medium_than_at_easy() -> None:
    from necropolis.games import game_ids, load_game

    for game_id in game_ids():
        game = load_game(game_id)
        assert 0.0 <= game.medium_blunder_rate < game.easy_blunder_rate <= 1.0, game_id


def test_an_anchored_search_overrides_a_policy_move_it_sees_lose() -> None:
    # From 4 stones taking two hands the opponent the last two: the search sees that move
    # lose far more often than taking one, by much more than the margin.
    bot = ISMCTSBot(iterations=1500, anchor=0.2)
    state = CoachedNim(pile=4).new_initial_state()
    assert bot.choose(SeatWindow(state, 0), random.Random(0)) == TAKE_ONE
    assert bot.last.policy_action == TAKE_TWO and not bot.last.anchored
    values = bot.last.root_values
    assert values[TAKE_ONE] >= values[TAKE_TWO] + 0.2


def test_an_anchored_search_keeps_the_policy_move_within_the_margin() -> None:
    # The same search with a margin no move can clear (a whole win) plays the policy's
    # move, and says that it did.
    bot = ISMCTSBot(iterations=1500, anchor=1.0)
    state = CoachedNim(pile=7).new_initial_state()
    assert bot.choose(SeatWindow(state, 0), random.Random(0)) == TAKE_TWO
    assert bot.last.policy_action == TAKE_TWO and bot.last.anchored
    # unanchored, the very same search takes one (7 -> 6, a lost pile for the opponent)
    free = ISMCTSBot(iterations=1500)
    assert free.choose(SeatWindow(state, 0), random.Random(0)) == TAKE_ONE


def test_the_game_anchor_is_read_from_the_game() -> None:
    class Trusting(CoachedNim):
        search_anchor = 1.0

    CoachedNim.asked = 0
    bot = ISMCTSBot(iterations=200, anchor="game")
    # CoachedNim leaves search_anchor unset: the search alone decides, the policy is not asked
    assert bot.choose(SeatWindow(CoachedNim(pile=7).new_initial_state(), 0), random.Random(1)) == (
        TAKE_ONE
    )
    assert CoachedNim.asked == 0 and bot.last.policy_action == -1
    assert bot.choose(SeatWindow(Trusting(pile=7).new_initial_state(), 0), random.Random(1)) == (
        TAKE_TWO
    )
    assert CoachedNim.asked == 1
    with pytest.raises(ValueError, match="anchor"):
        ISMCTSBot(anchor=-0.1)


def test_the_levels_play_the_games_level_policy_and_the_heuristic_bot_does_not() -> None:
    # A game may tune a stronger strategy than its heuristic for the levels (horus does):
    # hard's search is anchored to it and medium follows it between its blunders, while
    # the heuristic bot keeps the heuristic, the fixed reference they are measured by.
    from necropolis.bots.levels import hard, medium

    class Tuned(CoachedNim):
        search_anchor = 1.0
        medium_blunder_rate = 0.0

        def level_policy(self):  # type: ignore[no-untyped-def]
            return lambda window, rng: TAKE_ONE

    window = SeatWindow(Tuned(pile=7).new_initial_state(), 0)
    bot = hard()
    assert bot.choose(window, random.Random(1)) == TAKE_ONE
    assert bot.last.policy_action == TAKE_ONE
    assert medium().choose(window, random.Random(1)) == TAKE_ONE
    assert HeuristicBot().choose(window, random.Random(1)) == TAKE_TWO
    # a game that tunes nothing plays its heuristic at every level
    assert CoachedNim(pile=7).level_policy()(window, random.Random(1)) == TAKE_TWO


def test_the_policy_of_an_anchored_search_thinks_on_the_search_clock() -> None:
    # hard promises a second a decision in all: a policy that took the whole budget
    # leaves the search its one obligatory iteration, not a second budget of its own
    import time

    class SlowCoach(CoachedNim):
        def heuristic_policy(self):  # type: ignore[no-untyped-def]
            def policy(window: SeatWindow, rng: random.Random) -> int:
                time.sleep(0.2)
                return TAKE_TWO

            return policy

    bot = ISMCTSBot(iterations=None, seconds=0.2, anchor=0.5)
    state = SlowCoach(pile=7).new_initial_state()
    assert bot.choose(SeatWindow(state, 0), random.Random(0)) == TAKE_TWO
    assert bot.last.iterations == 1 and bot.last.seconds >= 0.2


def test_a_game_may_give_hard_more_iterations_and_nothing_else() -> None:
    from necropolis.bots.levels import HARD_ITERATIONS, hard

    class Roomy(Nim):
        hard_iterations = HARD_ITERATIONS + 234

    for game, wanted in ((Nim(pile=9), HARD_ITERATIONS), (Roomy(pile=9), HARD_ITERATIONS + 234)):
        strong = hard()
        strong.seconds = None  # (the count alone ends the search, however slow the machine)
        strong.choose(SeatWindow(game.new_initial_state(), 0), random.Random(3))
        assert strong.last.iterations == wanted
    # A bot made for research keeps the count it was given, whatever the game says.
    fixed = ISMCTSBot(iterations=50)
    fixed.choose(SeatWindow(Roomy(pile=9).new_initial_state(), 0), random.Random(3))
    assert fixed.last.iterations == 50


def test_every_level_has_its_bot_by_its_name() -> None:
    from necropolis.bots import BOTS, make_bot
    from necropolis.bots.levels import LEVEL_BOTS, Level

    # The levels' one list names the registry's level bots, in order, weakest first.
    assert list(LEVEL_BOTS) == list(Level) == ["easy", "medium", "hard"]
    for level in Level:
        assert BOTS[level] is LEVEL_BOTS[level]
        assert getattr(make_bot(level), "name", None) == level
