"""The explanation of a finished match: marks, figures that add up, seeds, honesty.

A rulebook scenario (Luxor 2001's end-game example, its chance outcomes chosen) gives a
decision whose cost is plain: stopping the final scarab moves instead of opening the
3-eye sarcophagus throws the match away. Nim gives a forced decision (the bundled games
never ask one: they play a seat's only move themselves). Twin matches (two truths one
seat has seen alike) check that a seat's analysis and hints read nothing it could not
see.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from necropolis.analysis.explain import (
    Depth,
    EstimateJudge,
    analyse_record,
    analyse_states,
    hints,
)
from necropolis.bots import make_bot
from necropolis.engine import SeatWindow, State
from necropolis.engine.driver import play_match
from necropolis.games import load_game
from necropolis.games.luxor2001.components import CH_VALUE, DONE, MOVE_BASE
from tests.bots.nim import Nim
from tests.conformance.twins import twin_matches
from tests.luxor2001.luxor2001_support import insert
from tests.luxor2001.test_luxor2001_endgame import CAMEL, LAST, SNAKE, end_game_example, value

JUDGE = EstimateJudge()


def _line(start: State, actions: list[int]) -> list[State]:
    states = [start.clone()]
    for action in actions:
        state = states[-1].clone()
        state.apply_action(action)
        states.append(state)
    return states


def _end_game(final: list[int]) -> tuple[list[State], list[int]]:
    """The rulebook's end game: seat 0 inserts the last card (shaft 8), then ``final``."""
    start = end_game_example()
    last = start.clone()
    insert(last, LAST, 8)
    actions = [last.history()[-1], *final]
    return _line(start, actions), actions


def test_stopping_instead_of_opening_the_sarcophagus_is_a_blunder() -> None:
    states, actions = _end_game([DONE])
    assert states[-1].returns() == [0.0, 1.0]
    analysis = analyse_states(states, actions, Depth(), JUDGE)
    stop = next(d for d in analysis.decisions if d.action == DONE)
    assert stop.seat == 0 and stop.choices == 3
    assert stop.mark == "blunder" and stop.loss >= 0.2
    assert stop.best_action == MOVE_BASE + CAMEL * 7 + SNAKE
    assert stop.preferred is not None and stop.preferred["kind"] == "move_scarab_opens"
    assert stop.played["kind"] == "stop_moving"
    seat = analysis.seats[0]
    assert seat.marks["blunder"] == 1 and seat.result == 0.0
    # The key moments hold the blunder, with the move the analysis preferred.
    moment = next(m for m in seat.moments if m.index == stop.index)
    assert moment.cause == "decision" and moment.preferred == stop.preferred


def test_opening_the_sarcophagus_is_not_marked() -> None:
    move = MOVE_BASE + CAMEL * 7 + SNAKE
    states, actions = _end_game([move, CH_VALUE + value(3, 10)])
    assert states[-1].returns() == [1.0, 0.0]
    analysis = analyse_states(states, actions, Depth(), JUDGE)
    opened = next(d for d in analysis.decisions if d.action == move)
    assert opened.loss == 0.0 and opened.mark is None and opened.preferred is None


def test_a_forced_decision_is_never_marked() -> None:
    # Nim from 2 stones: taking one (leaving the last stone to the other) loses at once;
    # then the other seat's single stone is forced.
    game = Nim(pile=2)
    start = game.new_initial_state()
    states = _line(start, [0, 0])
    analysis = analyse_states(states, [0, 0], Depth(worlds=2), JUDGE)
    blunder, forced = analysis.decisions
    assert (blunder.seat, blunder.choices, blunder.mark) == (0, 2, "blunder")
    assert (forced.seat, forced.choices, forced.mark, forced.loss) == (1, 1, None, 0.0)
    # A forced decision does not count toward the accuracy figure either.
    assert analysis.seats[1].mean_loss == 0.0 and analysis.seats[1].accuracy == 100.0


def _match(game_id: str, players: int, seed: int) -> Any:
    game = load_game(game_id, players=players)
    _, record = play_match(game, [make_bot("easy") for _ in range(players)], seed=seed)
    return record


@pytest.mark.parametrize("game_id", ["luxor2001", "luxor", "horus"])
def test_decisions_and_luck_add_up_and_a_seed_repeats_the_figures(game_id: str) -> None:
    record = _match(game_id, 2, seed=11)
    depth = Depth(worlds=4)
    first = analyse_record(record, load_game, depth).to_json()
    random.seed(99)  # the global generator stirred: nothing may hang on it
    random.random()
    again = analyse_record(record, load_game, depth).to_json()
    assert first == again
    final = first["chances"][-1]
    for seat in first["seats"]:
        s = seat["seat"]
        assert seat["result"] == final[s] == record.final_state(load_game).returns()[s]
        assert seat["start"] == first["chances"][0][s]
        assert seat["decisions"] + seat["luck"] == pytest.approx(
            seat["result"] - seat["start"], abs=2e-4
        )
        losses = [d["loss"] for d in first["decisions"] if d["seat"] == s]
        assert -sum(losses) == pytest.approx(seat["decisions"], abs=1e-3)
        assert len(seat["moments"]) == 3
    assert len(first["chances"]) == len(record.actions) + 1


def test_an_unfinished_match_is_refused() -> None:
    record = _match("luxor2001", 2, seed=3)
    record.actions = record.actions[:20]
    from necropolis.engine.errors import MatchRecordError

    with pytest.raises(MatchRecordError, match="not ended"):
        analyse_record(record, load_game)


def _seat_view(analysis: Any, seat: int) -> Any:
    data = analysis.to_json()
    return (
        [row[seat] for row in data["chances"]],
        [d for d in data["decisions"] if d["seat"] == seat],
        data["seats"],
    )


@pytest.mark.parametrize("game_id", ["luxor2001", "luxor", "horus"])
def test_a_seat_s_analysis_and_hints_read_nothing_it_could_not_see(game_id: str) -> None:
    game = load_game(game_id, players=3)
    depth = Depth(worlds=3)
    compared = hinted = 0
    for k, (a, b, seat) in enumerate(twin_matches(game, seed=5, pairs=4, length=12)):
        if k % 4:
            continue
        ha, hb = a.history(), b.history()
        assert ha != hb
        first = analyse_states(_line(game.new_initial_state(), ha), ha, depth, JUDGE, seats=[seat])
        second = analyse_states(_line(game.new_initial_state(), hb), hb, depth, JUDGE, seats=[seat])
        assert _seat_view(first, seat) == _seat_view(second, seat)
        compared += 1
        if seat in a.acting_seats():
            assert hints(SeatWindow(a, seat), depth, JUDGE) == hints(
                SeatWindow(b, seat), depth, JUDGE
            )
            hinted += 1
    assert compared >= 3


def test_a_learned_judgement_is_read_from_the_seat_s_view_of_each_world(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from necropolis.analysis.explain.judge import LearnedJudge, judge_for
    from necropolis.bots.judgement import LearnedEvaluator, evaluator
    from tests.bots.test_judgement import fresh_network

    game = load_game("luxor2001", players=2)
    learned = LearnedEvaluator(game, fresh_network(game))
    # A game's judge is its evaluator: the learned one where it ships a model, else the
    # estimate.
    monkeypatch.setattr("necropolis.analysis.explain.judge.evaluator", lambda g: learned)
    assert isinstance(judge_for(game), LearnedJudge)
    monkeypatch.undo()
    for game_id in ("luxor2001", "luxor", "horus"):
        found = evaluator(load_game(game_id, players=2))
        assert isinstance(judge_for(load_game(game_id, players=2)), LearnedJudge) == isinstance(
            found, LearnedEvaluator
        )
    judge = LearnedJudge(learned)
    record = _match("luxor2001", 2, seed=4)
    states = list(record.states(load_game))
    middle = states[len(states) // 2]
    for seat in range(2):
        worlds = [middle.resample(seat, random.Random(k)) for k in range(3)]
        expected = learned.judge([SeatWindow(w, seat) for w in worlds]).chances[:, seat]
        assert judge.chances(worlds, seat) == pytest.approx(list(expected))
    assert judge.chances([states[-1]], 0) == [states[-1].returns()[0]]
    # Blended with the estimate, each chance and each mean is the two judges' weighed so.
    half = LearnedJudge(LearnedEvaluator(game, learned.network, blend=0.5))
    estimate = EstimateJudge()
    worlds = [middle.resample(0, random.Random(k)) for k in range(3)]
    assert half.chances(worlds, 0) == pytest.approx(
        [
            (a + b) / 2
            for a, b in zip(judge.chances(worlds, 0), estimate.chances(worlds, 0), strict=True)
        ]
    )
    assert half.mean(worlds, 0) == pytest.approx(
        (judge.mean(worlds, 0) + estimate.mean(worlds, 0)) / 2
    )
    assert half.chances([states[-1]], 1) == [states[-1].returns()[1]]
    analysis = analyse_states(states, record.actions, Depth(worlds=2), judge).to_json()
    assert analysis["judge"] == learned.description
    for seat in analysis["seats"]:
        assert seat["decisions"] + seat["luck"] == pytest.approx(
            seat["result"] - seat["start"], abs=2e-4
        )
