"""What the scripts that screen a strategy against the heuristic bot print of a screen.

``tune_horus_heuristic.py`` and ``tune_luxor_heuristic.py`` each play one strategy in one
seat against the heuristic in every other, and report it the same way: the strategy's
share of the wins beside the heuristic seats' mean share, each with its 95% interval. They
also read the strategies to screen the same way (:func:`parse_fields`): a shipped one by
name, or changes to the heuristic's fields as ``field=value,...``. Those two and
``screen_horus_exit.py`` take the same arguments (:func:`screen_arguments`), checked
before the first match is played (:func:`parse_screen`).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from necropolis.analysis.tournament import wilson_interval
from necropolis.games import game_class

#: A strategy's settings: a frozen dataclass of numbers and switches.
Fields = TypeVar("Fields")


def parse_fields(text: str, base: Fields, named: Mapping[str, Fields]) -> Fields:
    """The settings ``text`` names: one of ``named`` by its name, or ``base`` with the
    changes ``field=value,...``, each value read as its field's type in ``base`` (a
    number, a whole number, or true or false). A ValueError says what is wrong."""
    if text in named:
        return named[text]
    kind = type(base).__name__
    fields = [f.name for f in dataclasses.fields(base)]  # type: ignore[arg-type]
    changes: dict[str, Any] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        if not sep or name not in fields:
            known = ", ".join(fields)
            raise ValueError(f"{part!r} is not field=value with a field of {kind} ({known})")
        default = getattr(base, name)
        if isinstance(default, bool):
            if value.lower() not in ("true", "false"):
                raise ValueError(f"{name} is true or false, not {value!r}")
            changes[name] = value.lower() == "true"
            continue
        try:
            changes[name] = type(default)(value)
        except ValueError:
            what = "a whole number" if isinstance(default, int) else "a number"
            raise ValueError(f"{name} is {what}, not {value!r}") from None
    return dataclasses.replace(base, **changes)  # type: ignore[type-var]


def share_line(
    label: str, mine: float, theirs: float, matches: int, players: int, seed: int
) -> str:
    """The line of ``label``'s screen: ``mine``, its wins (shared ones in part), and
    ``theirs``, the heuristic seats' mean wins, over ``matches`` matches."""
    low, high = wilson_interval(mine, matches)
    base_low, base_high = wilson_interval(theirs, matches)
    return (
        f"{label}: {mine / matches:.1%} ({low:.1%}-{high:.1%}) of {matches}"
        f" matches at {players} players, seed {seed};"
        f" the heuristic seats {theirs / matches:.1%} ({base_low:.1%}-{base_high:.1%}) each"
    )


def screen_arguments(
    description: str, labels: str, labels_help: str, matches: int, game: str | None = None
) -> argparse.ArgumentParser:
    """The arguments of a screen: what to screen (one or more ``labels``), the matches
    each plays (``-n``, default ``matches``), the players (``-p``, where the screen plays
    ``game`` at any of its player counts), the seed of the deals and the processes that
    play them."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(labels, nargs="+", help=labels_help)
    parser.add_argument("-n", "--matches", type=int, default=matches)
    if game is not None:
        parser.add_argument("-p", "--players", type=int, default=2)
        parser.set_defaults(game=game)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    return parser


def parse_screen(
    parser: argparse.ArgumentParser, labels: str, read: Callable[[str], object]
) -> argparse.Namespace:
    """The command line, refused with a clear message (and exit status 2) before any
    match is played when a label does not read (``read`` raises ValueError) or a count
    is out of range."""
    args = parser.parse_args()
    for label in getattr(args, labels):
        try:
            read(label)
        except ValueError as error:
            parser.error(str(error))
    if args.matches < 1:
        parser.error("-n/--matches is at least 1")
    if args.workers < 1:
        parser.error("--workers is at least 1")
    game = getattr(args, "game", None)
    if game is not None:
        low, high = game_class(game).min_players, game_class(game).max_players
        if not low <= args.players <= high:
            parser.error(f"-p/--players is {low} to {high} in {game}")
    return args
