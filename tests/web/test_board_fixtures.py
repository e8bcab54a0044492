"""The board components' committed fixtures still match the games.

``web/src/boards/fixtures/*.json`` are real positions dumped by ``web/scripts/fixtures.py``
for the boards' vitest tests. A board drawn from a stale layout or view would pass its tests
and still break at a real table, so this checks every fixture against the engine: its
layout is the game's ``board_layout()`` today, its view has every key a view has today (an
ended match's view has more), and
every descriptor's kind is one the game declares, with targets in the documented
``"type:id"`` form.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import necropolis
from necropolis.engine.language import KERNEL_MESSAGES

FIXTURES = Path(__file__).resolve().parents[2] / "web" / "src" / "boards" / "fixtures"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.json"))


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def test_there_are_fixtures_of_every_game() -> None:
    games = {load(n)["game"] for n in NAMES}
    assert games == {"luxor2001", "luxor", "horus"}


@pytest.mark.parametrize("name", NAMES)
def test_fixture_matches_the_game(name: str) -> None:
    f = load(name)
    game = necropolis.load_game(f["game"], **f["options"])
    assert f["layout"] == json.loads(json.dumps(game.board_layout()))
    fresh = game.new_initial_state().view(f["seat"])
    # every key a view has now (an ended match's view may have more, e.g. its scores)
    assert set(fresh) <= set(f["view"])
    assert f["view"]["seat"] == f["seat"]
    kinds = {**KERNEL_MESSAGES, **dict(game.messages)}
    for info in f["actions"]:
        assert info["kind"] in kinds
        assert all(isinstance(t, str) and ":" in t for t in info["targets"])
    if f["seat"] is None:
        assert f["actions"] == []
