"""Helpers shared by the subcommands: parsing game options, loading games with clear errors."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from necropolis.analysis.batch import RayMissingError, ray_session
from necropolis.engine.errors import NecropolisError
from necropolis.engine.protocol import Game
from necropolis.games import load_game

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def fail(message: str) -> typer.Exit:
    """Print ``message`` as an error and return the exit to raise."""
    err_console.print(f"[bold red]error:[/] {message}", markup=True)
    return typer.Exit(2)


def interruptible() -> None:
    """Make Ctrl-C at this program's terminal end it (as KeyboardInterrupt), however it
    was started.

    Python turns SIGINT into KeyboardInterrupt only if the signal was not ignored when it
    started, and a shell starts every background job (``./test &``, a script's ``cmd &``)
    with SIGINT ignored, which everything the job runs inherits: a game played at a
    terminal from there would never hear the person's Ctrl-C. A program that reads a
    person's answers from a terminal takes the signal back.
    """
    if sys.stdin.isatty() and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


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


@contextmanager
def ray_session_or_fail(address: str | None) -> Iterator[None]:
    """Connected to the Ray cluster at ``address`` (None: nothing), or a clean exit saying
    that Ray is not installed."""
    with ExitStack() as stack:
        try:
            stack.enter_context(ray_session(address))
        except RayMissingError as error:
            raise fail(str(error)) from None
        yield
