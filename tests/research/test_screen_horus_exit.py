"""research/screen_horus_exit.py: its labels, a strategy that heads out raiding nothing, and
playouts that decide only whether to head out, from the seat's window."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

import necropolis.engine.driver as driver
from necropolis.engine import CHANCE, SeatWindow, play_match
from necropolis.engine.driver import sample_chance
from necropolis.engine.protocol import State
from necropolis.games import load_game
from necropolis.games.horus import heuristic
from necropolis.games.horus.codes import A_OPEN, A_PEEK
from tests.scripts import RESEARCH, load_script

SEED = 5 * 1_000_003 + 1


@pytest.fixture(scope="module")
def screen() -> ModuleType:
    return load_script("screen_horus_exit", RESEARCH)


def test_labels_are_the_tuned_strategy_or_a_margin(screen: ModuleType) -> None:
    assert screen.parse_label("levels") is None
    assert screen.parse_label("0.05") == 0.05
    assert screen.parse_label("-1") == -1.0
    with pytest.raises(ValueError, match="neither 'levels' nor a margin"):
        screen.parse_label("often")


def test_heading_out_raids_nothing(screen: ModuleType) -> None:
    """The tuned strategy told to head out opens and takes nothing, all match long, where
    on the same deal it raids."""
    assert (
        heuristic.Tuning(
            rivals_shut_in=False,
            rival_gain_sharing=2.0,
            rival_gain_per_round=0.8,
            head_out=True,
        )
        == screen.HEAD_OUT
    )
    game = load_game("horus", players=2)
    for tuning, raided in ((heuristic.LEVELS, True), (screen.HEAD_OUT, False)):
        seats = [screen.Strategy("mine", tuning), screen.Strategy("h", heuristic.HEURISTIC)]
        raids: list[int] = []

        def watch(state: State, action: int, raids: list[int] = raids) -> None:
            if state.current_player() == 0 and A_OPEN <= action < A_PEEK:
                raids.append(action)

        state, _ = play_match(game, seats, seed=SEED, on_action=watch)
        assert state.is_terminal() and bool(raids) is raided


class Window(SeatWindow):
    """A seat's window that counts the worlds drawn from it."""

    drawn = 0

    def resample(self, rng: random.Random) -> State:
        Window.drawn += 1
        return super().resample(rng)


def test_playouts_only_choose_when_to_head_out(
    screen: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a margin no playout can clear, the seat plays the tuned strategy's very match,
    having asked, from worlds of its own window; with one every playout clears, it heads
    out at its first question."""
    monkeypatch.setattr(driver, "SeatWindow", Window)
    Window.drawn = 0
    game = load_game("horus", players=2)
    alone, _ = play_match(
        game,
        [screen.Strategy("levels", heuristic.LEVELS), screen.Strategy("h", heuristic.HEURISTIC)],
        seed=SEED,
    )
    never = screen.ExitByPlayouts("10", 10.0, worlds=2)
    asked, _ = play_match(game, [never, screen.Strategy("h", heuristic.HEURISTIC)], seed=SEED)
    assert never.questions > 0 and not never.heading_out
    assert Window.drawn == 2 * never.questions, "two worlds a question, from the window"
    assert asked.returns() == alone.returns() and asked.scores() == alone.scores()

    always = screen.ExitByPlayouts("-10", -10.0, worlds=1)
    play_match(game, [always, screen.Strategy("h", heuristic.HEURISTIC)], seed=SEED)
    assert always.questions == 1 and always.heading_out


def test_the_player_that_keeps_nothing_asks_at_every_action_it_would_raid_on(
    screen: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Told every time that heading out is better, the player that keeps nothing heads out
    action by action, asking again at each, and ends as the strategy told to head out at
    its first chance would; told never, it plays the tuned strategy's very match."""
    monkeypatch.setattr(driver, "SeatWindow", Window)
    game = load_game("horus", players=2)
    rival = screen.Strategy("h", heuristic.HEURISTIC)
    remembering = screen.ExitByPlayouts("-10", -10.0, worlds=1)
    remembered, _ = play_match(game, [remembering, rival], seed=SEED)
    each_time = screen.ExitAskedEachTime("-10", -10.0, worlds=1)
    Window.drawn = 0
    asked, _ = play_match(game, [each_time, rival], seed=SEED)
    assert each_time.questions > 1 and not each_time.heading_out
    assert Window.drawn == each_time.questions, "a world a question, from the window"
    assert asked.returns() == remembered.returns() and asked.scores() == remembered.scores()

    never = screen.ExitAskedEachTime("10", 10.0, worlds=1)
    alone, _ = play_match(game, [screen.Strategy("levels", heuristic.LEVELS), rival], seed=SEED)
    kept_on, _ = play_match(game, [never, rival], seed=SEED)
    assert never.questions > 1 and kept_on.scores() == alone.scores()


def test_the_oracle_told_the_state_plays_its_question_out_in_the_true_state(
    screen: ModuleType,
) -> None:
    game = load_game("horus", players=2)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < 120:
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(heuristic.decide(SeatWindow(state, player), rng, heuristic.LEVELS))
    told = screen.ExitToldTheState("told", 0.05, 1)
    world = told.world(SeatWindow(state, 0), rng)
    assert world is not state and not state.is_terminal()
    # the other seat's own view, its face-down cards included, is the true one, where a
    # world drawn from the seat's window deals that seat other cards
    assert SeatWindow(world, 1).view() == SeatWindow(state, 1).view()
    drawn = screen.ExitByPlayouts("drawn", 0.05, 1).world(SeatWindow(state, 0), rng)
    assert SeatWindow(drawn, 1).view() != SeatWindow(state, 1).view()


def test_the_exit_clairvoyant_foretells_the_match_it_heads_out_of(screen: ModuleType) -> None:
    """The research oracle's playouts meet the very draws of the match: where it heads out,
    the match ends with the returns and margin its heading-out playout foretold."""
    from necropolis.analysis import duel

    players: list[Any] = []

    def made() -> Any:
        players.append(screen.exit_clairvoyant())
        return players[-1]

    lineup = (duel.Contender("clairvoyant", made), duel.contender("heuristic"))
    headed_out = 0
    for deal in range(4, 7):
        match = duel.play_deal("horus", {"players": 2}, lineup, 1, deal, 0)
        out, on = players[-1].foretold[-1]
        if players[-1].heading_out:
            headed_out += 1
            margin = match.scores[0] - match.scores[1]
            assert out > on and out == pytest.approx(match.returns[0] + 0.001 * margin)
    assert headed_out >= 2, "it heads out in at least two of bank 1's deals 4 to 6"

    with pytest.raises(RuntimeError, match="on the strength harness alone"):
        play_match(
            load_game("horus", players=2),
            [screen.exit_clairvoyant(), screen.Strategy("h", heuristic.HEURISTIC)],
            seed=SEED,
        )


def test_the_harness_player_reads_its_margin_and_worlds_from_the_environment(
    screen: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NECROPOLIS_EXIT_MARGIN", raising=False)
    monkeypatch.delenv("NECROPOLIS_EXIT_WORLDS", raising=False)
    plain = screen.exit_by_playouts()
    assert (plain.margin, plain.worlds, plain.name) == (0.05, 16, "exit-by-playouts-0.05-16")
    monkeypatch.setenv("NECROPOLIS_EXIT_MARGIN", "0")
    monkeypatch.setenv("NECROPOLIS_EXIT_WORLDS", "4")
    told = screen.exit_by_playouts()
    assert (told.margin, told.worlds) == (0.0, 4)
    # a fresh player a match: the harness calls the factory once a match
    assert screen.exit_by_playouts() is not told and not told.heading_out
    stateless = screen.exit_asked_each_time()
    assert (stateless.margin, stateless.worlds) == (0.0, 4)
    assert stateless.name == "exit-asked-each-time-0-4"
    monkeypatch.setenv("NECROPOLIS_EXIT_WORLDS", "0")
    with pytest.raises(ValueError, match="NECROPOLIS_EXIT_WORLDS is at least 1"):
        screen.exit_by_playouts()
