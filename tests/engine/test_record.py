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
