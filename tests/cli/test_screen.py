"""The screen's layout at many terminal sizes, for real positions of every game."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console
from rich.text import Text

from necropolis.cli.choices import Menu
from necropolis.cli.screen import (
    Screen,
    board_text,
    breakdown_table,
    coloured,
    compose,
    seat_colour,
    seat_name,
)
from necropolis.engine.language import SEAT_COLOURS
from necropolis.engine.protocol import State, sample_chance
from necropolis.games import load_game


def midgame(game_id: str, moves: int) -> State:
    state = load_game(game_id).new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal() and (moves > 0 or state.current_player() < 0):
        if state.current_player() < 0:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves -= 1
    return state


def screen_of(state: State) -> Screen:
    seat = state.current_player()
    menu = Menu([state.action_info(a) for a in state.legal_actions()])
    return Screen(
        header=Text(state.game.title),
        board=board_text(state.game.render_view(state.view(seat))),
        log=state.log(seat),
        viewer=seat,
        new_from=max(0, state.move_number() - 5),
        turn=Text(f"Your turn: {(state.prompt(seat) or {}).get('text', '')}"),
        hint=Text("hint"),
        choices=menu.top,
    )


@pytest.mark.parametrize("game_id", ["luxor2001", "luxor", "horus"])
@pytest.mark.parametrize(("width", "height"), [(100, 30), (80, 24), (140, 45), (60, 12)])
def test_every_line_fits_and_the_screen_fills_the_terminal(
    game_id: str, width: int, height: int
) -> None:
    state = midgame(game_id, 12)
    out = io.StringIO()
    console = Console(file=out, width=width, height=height, color_system=None)
    composed = compose(console, screen_of(state), width, height - 1)
    console.print(composed.renderable, height=composed.height)
    lines = out.getvalue().split("\n")[:-1]
    assert len(lines) == height - 1
    assert all(Text(line).cell_len <= width for line in lines)
    text = out.getvalue()
    assert "╭─ board" in text and "╭─ log" in text
    assert "Your turn" in text
    if height >= 24:  # on a tiny terminal the log may get no line at all
        newest = " ".join(state.log(state.current_player())[-1]["text"].split()[:2])
        assert newest in " ".join(text.split())


def test_seats_are_named_and_coloured_one_way() -> None:
    assert seat_name(0, 0) == "you" and seat_name(2, 0) == "Player 3"
    assert [seat_colour(s) for s in range(6)] == [hex for _, hex in SEAT_COLOURS]
    text = coloured("Player 2 took the idol from you", viewer=0)
    styles = {text.plain[span.start : span.end]: str(span.style) for span in text.spans}
    assert SEAT_COLOURS[1][1].lower() in styles["Player 2"].lower()
    assert SEAT_COLOURS[0][1].lower() in styles["you"].lower()


def test_the_breakdown_lists_parts_totals_tiebreaks_and_the_winner() -> None:
    state = load_game("luxor2001").new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        if state.current_player() < 0:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    breakdown = state.score_breakdown()
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    console.print(breakdown_table(breakdown, state.returns(), 0, ["you", "random", "random"]))
    text = out.getvalue()
    for score in breakdown:
        assert f"Player {score['seat'] + 1}" in text
        for part in score["parts"]:
            assert part["text"].split()[0] in text
        for tiebreak in score["tiebreak"]:
            assert tiebreak["text"] in text
    assert "wins" in text or "Nobody wins" in text
