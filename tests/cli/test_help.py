"""The command line's help, as a person reads it: flags shown as flags, the games and the
bots named, and shared wins printed as a person reads them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import necropolis
from necropolis.bots import BOTS
from necropolis.cli.common import wins_text
from necropolis.cli.main import app

runner = CliRunner()


def command_paths() -> Iterator[list[str]]:
    """Every command and group of the command line, as the words that name it."""

    def walk(command: Any, path: list[str]) -> Iterator[list[str]]:
        yield path
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            yield from walk(sub, [*path, name])

    yield from walk(typer.main.get_command(app), [])


PATHS = list(command_paths())


def test_every_command_is_walked() -> None:
    names = {" ".join(p) for p in PATHS}
    assert {"", "play", "bench", "db", "user"} <= names
    assert len(PATHS) > 12


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "necropolis")
def test_help_shows_flags_without_a_type_label(path: list[str]) -> None:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "--help" in result.output
    assert "<bool>" not in result.output


def test_json_flag_has_no_label_but_valued_options_keep_theirs() -> None:
    text = runner.invoke(app, ["bench", "--help"], env={"COLUMNS": "120"}).output
    (json_line,) = [line for line in text.splitlines() if "--json" in line]
    assert "<" not in json_line
    (seconds_line,) = [line for line in text.splitlines() if "--seconds" in line]
    assert "<float" in seconds_line


def test_the_help_names_the_games_and_the_bots() -> None:
    text = " ".join(runner.invoke(app, ["--help"], env={"COLUMNS": "200"}).output.split())
    for game_id in necropolis.games():
        assert game_id in text
    for bot in BOTS:
        assert bot in text
    for command in ("play", "simulate", "tournament", "balance"):
        help_text = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).output
        assert all(game_id in help_text for game_id in necropolis.games()), command


@pytest.mark.parametrize(
    ("wins", "text"),
    [
        (4.0, "4"),
        (0.0, "0"),
        (3 + 5 / 6, "3.83"),
        (1 / 3 + 1 / 4, "0.58"),
        (1234.5, "1,234.50"),
        (1 / 6 + 1 / 6 + 1 / 6 + 1 / 2, "1"),  # shares that add up to whole wins
    ],
)
def test_shared_wins_print_readably(wins: float, text: str) -> None:
    assert wins_text(wins) == text
