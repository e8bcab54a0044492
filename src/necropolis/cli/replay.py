"""``necropolis replay``: step through a saved match on the terminal table's screen.

The same pieces as ``necropolis play`` (see :mod:`necropolis.cli.screen`): the board as
one seat (or a spectator) saw it, that seat's log up to the step shown, and the score
breakdown at the end. A finished match may be replayed with every hidden draw named
(``--reveal``); an unfinished one only from one seat's side or a spectator's, as it was
seen at the table.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from necropolis.bots import BOTS
from necropolis.cli.common import console, fail, interruptible
from necropolis.cli.screen import (
    Screen,
    Terminal,
    board_text,
    breakdown_table,
    entry_text,
    seats_legend,
)
from necropolis.engine.errors import MatchRecordError
from necropolis.engine.language import LogEntry
from necropolis.engine.protocol import CHANCE, State
from necropolis.engine.record import MatchRecord
from necropolis.games import load_game


def revealed_log(states: list[State]) -> list[LogEntry]:
    """Every action in the words of ``action_to_string``: hidden draws named (``--reveal``)."""
    entries = []
    for index, (before, after) in enumerate(itertools.pairwise(states)):
        action = after.history()[-1]
        actor = before.current_player()
        kind = "chance" if actor == CHANCE else "action"
        params = {"description": before.action_to_string(action)}
        entries.append(after.entry(index, kind, actor if actor >= 0 else None, params, None))
    return entries


def replay(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="a match record (JSON)")],
    seat: Annotated[
        int | None,
        typer.Option("--seat", help="see the match as Player N (default: a spectator)"),
    ] = None,
    reveal: Annotated[
        bool, typer.Option("--reveal", help="show hidden draws (finished matches only)")
    ] = False,
    step: Annotated[
        bool | None,
        typer.Option("--step/--all", help="pause after each decision (default: in a terminal)"),
    ] = None,
) -> None:
    """Replay a saved match."""
    try:
        record = MatchRecord.load(path)
        record.check_seats(["human", *BOTS])
        states = list(record.states(load_game))
    except MatchRecordError as exc:
        raise fail(str(exc)) from None
    game = record.load_game(load_game)
    final = states[-1]
    if seat is not None and not 1 <= seat <= game.num_players:
        raise fail(f"--seat must be 1 to {game.num_players}")
    viewer = seat - 1 if seat is not None else None
    if reveal and not final.is_terminal():
        raise fail("--reveal shows hidden cards, so it is only for finished matches")
    log = revealed_log(states) if reveal else final.log(viewer)
    kinds = [f"{name} bot" if name != "human" else "person" for name in record.seats]
    header = seats_legend(kinds, viewer)
    term = Terminal(console)
    pausing = sys.stdin.isatty() if step is None else step
    interruptible()
    decisions = [i for i, s in enumerate(states[:-1]) if s.current_player() != CHANCE]
    for number, index in enumerate(decisions, 1):
        if not pausing:
            break
        state = states[index + 1]
        screen = Screen(
            header=header,
            board=board_text(game.render_view(state.view(viewer))),
            title=game.title,
            log=[e for e in log if int(e["index"]) <= index],
            viewer=viewer,
            new_from=index,
            turn=Text(f"Decision {number} of {len(decisions)} (action {index + 1})", "bold"),
            hint=Text("Enter: next · a: to the end · q: quit", style="dim"),
        )
        term.draw(screen)
        try:
            answer = console.input("[bold]>[/] ").strip().lower()
        except EOFError:
            console.print()
            return
        except KeyboardInterrupt:
            console.print()
            raise typer.Exit(130) from None
        if answer == "q":
            return
        if answer == "a":
            break
    term.release()
    if not pausing:
        for entry in log:
            console.print(entry_text(entry, viewer, True))
    done = final.is_terminal()
    screen = Screen(
        header=header,
        board=board_text(game.render_view(final.view(viewer))),
        title=game.title,
        log=log,
        viewer=viewer,
        new_from=len(states),
        turn=Text("The match is over." if done else "The match stops here.", style="bold"),
    )
    term.draw_final(screen, clear=pausing)
    if done:
        console.print(
            breakdown_table(final.score_breakdown(viewer), final.returns(), viewer, kinds)
        )
