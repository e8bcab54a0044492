"""``necropolis replay``: step through a saved match, action by action.

A finished match may be replayed with everything revealed (``--reveal``); an unfinished
one only from one seat's side or a spectator's, as it would have been seen at the table.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from necropolis.cli.common import console, fail
from necropolis.engine.errors import MatchRecordError
from necropolis.engine.protocol import CHANCE
from necropolis.engine.record import MatchRecord


def replay(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="a match record (JSON)")],
    seat: Annotated[
        int | None, typer.Option("--seat", help="see the match as this seat (default: spectator)")
    ] = None,
    reveal: Annotated[
        bool, typer.Option("--reveal", help="show hidden draws (finished matches only)")
    ] = False,
    step: Annotated[
        bool | None,
        typer.Option("--step/--all", help="pause after each action (default: in a terminal)"),
    ] = None,
) -> None:
    """Replay a saved match."""
    try:
        record = MatchRecord.load(path)
        final = record.final_state()
    except MatchRecordError as exc:
        raise fail(str(exc)) from None
    game = record.load_game()
    if seat is not None and not 0 <= seat < game.num_players:
        raise fail(f"--seat must be 0 to {game.num_players - 1}")
    if reveal and not final.is_terminal():
        raise fail("--reveal shows hidden cards, so it is only for finished matches")
    pausing = sys.stdin.isatty() if step is None else step
    console.rule(f"{game.title}: {', '.join(record.seats)}  (seed {record.seed})")
    states = record.states()
    state = next(states)
    for number, action in enumerate(record.actions, 1):
        actor = state.current_player()
        text = state.action_to_string(action) if reveal else state.describe_action(action, seat)
        who = "  ·" if actor == CHANCE else f"Seat {actor} ({record.seats[actor]}):"
        console.print(f"[dim]{number:>4}[/] {escape(who)} {escape(text)}")
        state = next(states)
        if pausing and actor != CHANCE:
            try:
                answer = console.input("[dim]Enter: next · b: board · a: all · q: quit[/] ")
            except (EOFError, KeyboardInterrupt):
                return
            answer = answer.strip().lower()
            if answer == "q":
                return
            if answer == "b":
                console.print(game.render_view(state.view(seat)))
            if answer == "a":
                pausing = False
    console.rule("final position" if final.is_terminal() else "the match stops here")
    console.print(game.render_view(final.view(seat)))
    if final.is_terminal():
        scores = ", ".join(
            f"seat {i}: {s:g}" + (" (wins)" if r == 1 else " (shares)" if r else "")
            for i, (s, r) in enumerate(zip(final.scores(), final.returns(), strict=True))
        )
        console.print(f"Scores: {scores}")
