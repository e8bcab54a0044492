"""Helpers shared by the subcommands: the application's classes, help texts naming the games
and bots, parsing game options, loading games with clear errors, printing shared wins."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from fractions import Fraction
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from typer.core import TyperCommand, TyperGroup, TyperOption
from typer.models import CommandFunctionType

from necropolis.analysis.batch import RayMissingError, ray_session
from necropolis.bots import BOTS
from necropolis.engine.errors import NecropolisError
from necropolis.engine.protocol import Game
from necropolis.games import game_ids, load_game

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

#: The help of a GAME argument: the games this installation holds.
GAME_HELP = f"the game: {', '.join(game_ids())} (necropolis games: their options)"
#: The bots by their command-line names, for help texts.
BOT_NAMES = ", ".join(BOTS)


def _unlabel_flags(params: list[Any]) -> list[Any]:
    # Typer's help prints each option's type beside it, "<bool>" for a flag too, which
    # reads as if the flag took a value; an empty metavar leaves a flag's column blank.
    for param in params:
        if isinstance(param, TyperOption) and (param.is_flag or param.count):
            param.metavar = ""
    return params


class Command(TyperCommand):
    """A subcommand whose help shows flags as flags (no type label)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _unlabel_flags(super().get_params(ctx))


class Group(TyperGroup):
    """A group of subcommands whose help shows flags as flags (no type label)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _unlabel_flags(super().get_params(ctx))


class App(typer.Typer):
    """A Typer application whose commands and groups are :class:`Command` and
    :class:`Group`, unless told otherwise: every (sub)application of the command line."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", Group)
        super().__init__(**kwargs)

    def command(
        self, *args: Any, **kwargs: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        kwargs.setdefault("cls", Command)
        return super().command(*args, **kwargs)


def wins_text(wins: float) -> str:
    """Wins, shares of a shared win included, as a person reads them: a whole number
    alone, else with two decimals (3.83 for 3⅚: winners share 1, so a sum of shares is a
    fraction of small denominators that two decimals tell apart at a glance)."""
    whole = Fraction(wins).limit_denominator(1000)
    if whole.denominator == 1:
        return f"{whole.numerator:,}"
    return f"{wins:,.2f}"


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
