"""Helpers shared by the subcommands: parsing game options, loading games with clear errors."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from necropolis.engine.errors import NecropolisError
from necropolis.engine.protocol import Game
from necropolis.games import load_game

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def fail(message: str) -> typer.Exit:
    """Print ``message`` as an error and return the exit to raise."""
    err_console.print(f"[bold red]error:[/] {message}", markup=True)
    return typer.Exit(2)


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``["curse=true", "players=3"]`` to a dict; values stay text for the game to check."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise fail(f"options are written name=value, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def open_game(game_id: str, options: dict[str, Any]) -> Game:
    """The game, or a clean exit naming what was wrong."""
    try:
        return load_game(game_id, **options)
    except NecropolisError as exc:
        raise fail(str(exc)) from None


def batch_progress(quiet: bool) -> Progress:
    """The progress bar of a batch of matches (hidden when printing JSON)."""
    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=quiet,
        disable=quiet,
    )
