"""The kernel's protocol, options and errors, tested on the toy game."""

from __future__ import annotations

import random

import pytest

import necropolis
from necropolis.bots import RandomBot
from necropolis.engine import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    OptionError,
    State,
    UnknownGameError,
    play_match,
)
from necropolis.engine.seat import SeatWindow
from tests.engine.toy import KEEP, REDRAW, HighCard


def dealt(players: int = 2, cards: tuple[int, ...] = (3, 1)) -> necropolis.State:
    state = HighCard(players=players).new_initial_state()
    for card in cards:
        state.apply_action(card)
    return state


def test_options_are_checked_and_defaulted() -> None:
    game = HighCard()
    assert game.options == {"players": 2, "redraws": True}
    assert HighCard(players="3", redraws="no").options == {"players": 3, "redraws": False}
    with pytest.raises(OptionError, match="players"):
        HighCard(players=5)
    with pytest.raises(OptionError, match="no option 'colour'"):
        HighCard(colour="red")
    with pytest.raises(OptionError, match="true or false"):
        HighCard(redraws="perhaps")


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="no game called 'chess'"):
        necropolis.load_game("chess")


def test_chance_then_decisions_then_terminal() -> None:
    state = HighCard().new_initial_state()
    assert state.current_player() == CHANCE
    assert state.legal_actions() == []
    assert state.chance_outcomes() == [(1, 0.25), (2, 0.25), (3, 0.25), (4, 0.25)]
    state.apply_action(4)
    # one 4 is gone: the next deal weighs what is left
    assert dict(state.chance_outcomes())[4] == pytest.approx(1 / 7)
    state.apply_action(2)
    assert state.current_player() == 0
    assert state.legal_actions() == [KEEP, REDRAW]
    assert state.legal_actions(1) == []  # seat 1 is not acting
    state.apply_action(KEEP)
    state.apply_action(KEEP)
    assert state.current_player() == TERMINAL and state.is_terminal()
    assert state.returns() == [1.0, 0.0]
    assert state.history() == [4, 2, KEEP, KEEP]


def test_illegal_action_raises_and_changes_nothing() -> None:
    state = dealt()
    before = (state.history(), state.view(0), state.view(1))
    with pytest.raises(IllegalActionError):
        state.apply_action(7)
    with pytest.raises(IllegalActionError):
        state.apply_action(True)  # bools are not actions, though int subclasses
    assert (state.history(), state.view(0), state.view(1)) == before


def test_action_strings_round_trip() -> None:
    state = dealt()
    for action in state.legal_actions():
        assert state.string_to_action(state.action_to_string(action)) == action
    assert state.string_to_action("  ReDraw ") == REDRAW
    with pytest.raises(IllegalActionError, match="no legal action reads"):
        state.string_to_action("fold")


def test_clone_is_independent() -> None:
    state = dealt()
    copy = state.clone()
    copy.apply_action(REDRAW)
    assert state.history() == [3, 1] and copy.history() == [3, 1, REDRAW]
    assert state.current_player() == 0 and copy.current_player() == CHANCE


def test_default_description_hides_chance() -> None:
    state = HighCard().new_initial_state()
    assert state.describe_action(3, 1) == "a hidden chance event"


def test_seat_window_answers_from_the_view_only() -> None:
    state = dealt()
    window = SeatWindow(state, 0)
    assert window.view() == state.view(0)
    assert window.view()["my_card"] == 3 and "cards" in window.view()
    assert window.view()["cards"] is None  # the other card stays hidden mid-game
    world = window.resample(random.Random(1))
    assert world.view(0) == state.view(0)


def test_seeded_matches_repeat_exactly() -> None:
    game = HighCard(players=3)
    first = play_match(game, [RandomBot(), RandomBot(), RandomBot()], seed=11)[1]
    random.seed(99)  # stirring the global generator must not matter
    random.random()
    second = play_match(game, [RandomBot(), RandomBot(), RandomBot()], seed=11)[1]
    assert first.actions == second.actions
    seeds = {tuple(play_match(game, [RandomBot()] * 3, seed=s)[1].actions) for s in range(8)}
    assert len(seeds) > 1  # the seed really steers the chance outcomes


def test_estimate_returns_defaults_to_the_current_leaders() -> None:
    state = dealt(cards=(3, 1))
    # the toy's scores are its returns, all zero mid-match: an even table shares evenly
    assert state.estimate_returns() == [0.5, 0.5]
    state.apply_action(KEEP)
    state.apply_action(KEEP)
    assert state.estimate_returns() == state.returns() == [1.0, 0.0]


def test_any_integral_action_is_accepted_and_other_numbers_refused() -> None:
    import numpy as np

    from necropolis.engine import IllegalActionError
    from necropolis.games import load_game

    state = load_game("luxor2001", players=2).new_initial_state()
    first = state.chance_outcomes()[0][0]
    for bad in (float(first), True, "1", None):
        with pytest.raises(IllegalActionError, match="whole number"):
            state.apply_action(bad)  # type: ignore[arg-type]
    assert state.move_number() == 0
    state.apply_action(np.int64(first))  # type: ignore[arg-type]
    assert state.history() == [first]
    assert type(state.history()[0]) is int


def test_every_clone_carries_its_own_actions_however_often_states_are_cloned() -> None:
    # Clones share the actions already played (a clone moves its original's latest into
    # the shared past): across a tree of clones, each played on in turn and cloned again
    # at every depth, each must still answer with exactly its own actions.
    rng = random.Random(7)
    game = HighCard(players=4)
    live: list[tuple[State, list[int]]] = [(game.new_initial_state(), [])]
    for _ in range(300):
        state, actions = live[rng.randrange(len(live))]
        if rng.random() < 0.4:
            live.append((state.clone(), list(actions)))
        elif not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice([a for a, _ in state.chance_outcomes()])
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions.append(action)
        for other, expected in live:
            assert other.history() == expected
            assert other.move_number() == len(expected)
            for move in range(len(expected) + 1):
                assert other.history_since(move) == expected[move:]
