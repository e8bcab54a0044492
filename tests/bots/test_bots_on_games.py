"""Every bot on every installed game: legal choices, and no use of what the seat cannot see.

A state and a world resampled from it for seat ``p`` differ only in what ``p`` cannot
see. A bot deciding for ``p`` in each, with the same generator, must do exactly the same
thing, as long as its determinizations are drawn the same way: here both windows draw
them from the first state, since a game's ``resample`` may map one generator to different
(equally likely) worlds depending on the order in which it holds its hidden cards. Any
difference left would come from a bot reading past its window.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import necropolis
from necropolis.bots import ISMCTSBot, PlanBot, RolloutBot, make_bot
from necropolis.bots.heuristic import HeuristicBot
from necropolis.engine import CHANCE, SeatWindow, State
from necropolis.engine.driver import play_match, sample_chance
from necropolis.games import game_class


def configurations() -> list[Any]:
    params = []
    for game_id in necropolis.games():
        cls = game_class(game_id)
        for n in sorted({cls.min_players, cls.max_players}):
            params.append(pytest.param(game_id, n, id=f"{game_id}-{n}"))
    return params


def decision_points(game_id: str, players: int, count: int) -> list[State]:
    """A few positions of a random match where a seat chooses between several actions."""
    game = necropolis.load_game(game_id, players=players)
    rng = random.Random(f"{game_id}{players}")
    found: list[State] = []
    for _ in range(10):  # some matches end early: play on until there are enough
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            actions = state.legal_actions()
            if len(actions) > 1 and rng.random() < 0.1:
                found.append(state.clone())
            state.apply_action(rng.choice(actions))
        if len(found) >= count:
            break
    assert found, "a random match has some real decisions"
    step = max(1, len(found) // count)
    return found[::step][:count]


class SharedDrawWindow(SeatWindow):
    """A window onto ``position`` whose determinizations are drawn from ``source``."""

    __slots__ = ("_source",)

    def __init__(self, position: State, seat: int, source: State) -> None:
        super().__init__(position, seat)
        self._source = source

    def resample(self, rng: random.Random) -> State:
        return self._source.resample(self.seat, rng)


def bots() -> list[Any]:
    return [
        ISMCTSBot(iterations=25),
        ISMCTSBot(iterations=25, cutoff=3, anchor="game"),  # as the levels search
        HeuristicBot(worlds=2, max_rollouts=6),
        RolloutBot(worlds=2),  # the game's turn planner, or its rollout policy
        PlanBot(worlds=2, candidates=3),  # the planner's best plans, or every move
        make_bot("easy"),
        make_bot("random"),
    ]


@pytest.mark.parametrize(("game_id", "players"), configurations())
def test_bots_choose_legal_actions_from_the_seat_view_alone(game_id: str, players: int) -> None:
    for state in decision_points(game_id, players, 3):
        seat = state.current_player()
        world = state.resample(seat, random.Random(99))
        assert world.view(seat) == state.view(seat)
        for bot in bots():
            choices = []
            for position in (state, world):
                action = bot.choose(SharedDrawWindow(position, seat, state), random.Random(5))
                assert action in state.legal_actions(), f"{bot.name} chose an illegal action"
                visits: dict[Any, float] | None = None
                if isinstance(bot, ISMCTSBot):
                    visits = dict(bot.last.root_visits)
                elif isinstance(bot, RolloutBot | PlanBot):
                    visits = dict(bot.last.means)
                choices.append((action, visits))
            assert choices[0] == choices[1], (
                f"{bot.name} decided differently in two worlds that seat {seat} cannot tell apart"
            )


@pytest.mark.slow
@pytest.mark.parametrize("game_id", necropolis.games())
def test_the_heuristic_bot_beats_random_play(game_id: str) -> None:
    # A strategy worth the name wins most two-player matches against random moves; seats
    # alternate so that neither side keeps a first player's edge. (The 400-match figures
    # are in docs/strength.md; 20 matches only catch a heuristic that has broken.)
    game = necropolis.load_game(game_id, players=2)
    matches = 20
    share = 0.0
    for i in range(matches):
        seat = i % 2
        players = [HeuristicBot() if s == seat else make_bot("random") for s in range(2)]
        state, _ = play_match(game, players, seed=i)
        share += state.returns()[seat]
    assert share / matches >= 0.8
