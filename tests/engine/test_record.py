"""The match record: JSON form, versioning, replay, and errors on broken files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from necropolis.bots import RandomBot
from necropolis.engine import MatchRecord, MatchRecordError, play_match
from tests.engine.toy import HighCard


def test_record_round_trips_and_replays(tmp_path: Path) -> None:
    game = HighCard(players=3)
    final, record = play_match(game, [RandomBot()] * 3, seed=5)
    path = record.save(tmp_path / "m.json")
    loaded = MatchRecord.load(path)
    assert loaded.to_json() == record.to_json()
    assert json.loads(path.read_text())["version"] == 1
    states = list(_with_game(loaded, game).states())
    assert len(states) == len(record.actions) + 1
    assert states[-1].view(None) == final.view(None)


def _with_game(record: MatchRecord, game: HighCard) -> MatchRecord:
    """The toy game is not in the registry: bind the record to it directly."""
    record.load_game = lambda: game  # type: ignore[method-assign]
    return record


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
    with pytest.raises(MatchRecordError, match="cannot be loaded"):
        record.final_state()


def test_record_that_does_not_replay(tmp_path: Path) -> None:
    record = MatchRecord("highcard", {"players": 2}, ["a", "b"], [3, 3, 3])
    _with_game(record, HighCard())
    with pytest.raises(MatchRecordError, match=r"action #2 \(3\) does not replay"):
        record.final_state()


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
    record = MatchRecord("luxor2001", {"players": 2}, seats, [])
    with pytest.raises(MatchRecordError, match=f"names {len(seats)} seats for a game of 2"):
        record.final_state()
