"""The match record: JSON form, versioning, replay, and errors on broken files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from necropolis.bots import RandomBot
from necropolis.engine import (
    Game,
    MatchRecord,
    MatchRecordError,
    UnknownGameError,
    load_match,
    play_match,
)
from tests.engine.toy import HighCard


def toy_loader(game_id: str, **options: Any) -> Game:
    """A loader that knows only the toy game, as the registry knows the real ones."""
    if game_id != HighCard.id:
        raise UnknownGameError(f"no game called {game_id!r}")
    return HighCard(**options)


def test_record_round_trips_and_replays(tmp_path: Path) -> None:
    game = HighCard(players=3)
    final, record = play_match(game, [RandomBot()] * 3, seed=5)
    path = record.save(tmp_path / "m.json")
    loaded = MatchRecord.load(path)
    assert loaded.to_json() == record.to_json()
    assert json.loads(path.read_text())["version"] == 1
    states = list(loaded.states(toy_loader))
    assert len(states) == len(record.actions) + 1
    assert states[-1].view(None) == final.view(None)
    assert load_match(path, toy_loader).final_state(toy_loader).view(None) == final.view(None)


def test_the_loader_gets_the_records_game_and_options() -> None:
    asked: list[tuple[str, dict[str, Any]]] = []

    def loader(game_id: str, **options: Any) -> Game:
        asked.append((game_id, options))
        return toy_loader(game_id, **options)

    record = MatchRecord("highcard", {"players": 3, "redraws": False}, ["a", "b", "c"], [])
    game = record.load_game(loader)
    assert asked == [("highcard", {"players": 3, "redraws": False})]
    assert game.num_players == 3 and game.options["redraws"] is False


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ("[]", "not a necropolis match record"),
        ('{"format": "necropolis-match", "version": 99}', "version 99"),
        ('{"format": "necropolis-match", "version": 1, "game": "x"}', "lacks the field"),
        (
            '{"format": "necropolis-match", "version": 1, "game": "x", "options": {},'
            ' "seats": [], "actions": ["a"]}',
            "whole numbers",
        ),
    ],
)
def test_broken_records_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(MatchRecordError, match=message):
        MatchRecord.loads(text)


def test_unknown_game_in_record() -> None:
    record = MatchRecord("chess", {}, ["a", "b"], [])
    with pytest.raises(MatchRecordError, match="cannot be loaded: no game called 'chess'"):
        record.final_state(toy_loader)


def test_record_that_does_not_replay(tmp_path: Path) -> None:
    record = MatchRecord("highcard", {"players": 2}, ["a", "b"], [3, 3, 3])
    with pytest.raises(MatchRecordError, match=r"action #2 \(3\) does not replay"):
        record.final_state(toy_loader)


def test_missing_file() -> None:
    with pytest.raises(MatchRecordError, match="cannot read"):
        MatchRecord.load("/nonexistent/match.json")


_HEADER = '{"format": "necropolis-match", '


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (_HEADER + '"version": true}', "version True"),
        (_HEADER + '"version": 1.0}', "version 1.0"),
        (
            _HEADER + '"version": 1, "game": "x", "options": {}, "seats": [], "actions": [],'
            ' "seed": true}',
            "'seed' must be a whole number",
        ),
    ],
)
def test_records_of_the_wrong_shape_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(MatchRecordError, match=message) as caught:
        MatchRecord.loads(text)
    assert "\n" not in str(caught.value)


def test_a_file_that_is_not_text_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(MatchRecordError, match="not UTF-8"):
        MatchRecord.load(path)
    assert path.read_bytes() == b"\xff\xfe\x00garbage"


@pytest.mark.parametrize("seats", [["human"], ["human", "random", "random"]])
def test_seats_must_match_the_player_count(seats: list[str]) -> None:
    record = MatchRecord("highcard", {"players": 2}, seats, [])
    with pytest.raises(MatchRecordError, match=f"names {len(seats)} seats for a game of 2"):
        record.final_state(toy_loader)
