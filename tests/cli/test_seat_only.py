"""The terminal reads nothing of a match but what the person's seat may know: its view,
its own log, its prompt and the descriptors of its own legal decisions (and the score
breakdown once the match is over)."""

from __future__ import annotations

import builtins
import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from necropolis.cli.play import TerminalMatch
from necropolis.engine.protocol import State
from necropolis.engine.record import MatchRecord
from necropolis.games import load_game

#: The State methods that tell something, and where their seat argument is.
TELLING = {"view": 0, "log": 0, "narrate": 2, "prompt": 0, "action_info": None}


@pytest.mark.parametrize("game_id", ["luxor2001", "luxor", "horus"])
def test_the_terminal_asks_the_state_only_for_the_persons_seat(
    game_id: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    human = 1
    calls: list[tuple[str, Any, bool]] = []

    def spy(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(self: State, *args: Any) -> Any:
            caller = sys._getframe(1).f_globals.get("__name__", "")
            if caller.startswith("necropolis.cli"):
                position = TELLING[name]
                seat = args[position] if position is not None else None
                acting = self.current_player() == human
                calls.append((name, seat, acting or self.is_terminal()))
            return method(self, *args)

        return wrapper

    game = load_game(game_id, players=3)
    cls = type(game.new_initial_state())
    for name in TELLING:
        monkeypatch.setattr(cls, name, spy(name, getattr(cls, name)))
    answers = iter(["1"] * 12 + ["quit"])
    monkeypatch.setattr(builtins, "input", lambda *_: next(answers))
    record = MatchRecord.start(game, ["easy", "human", "easy"], seed=4)
    out = Console(file=io.StringIO(), width=100, height=30)
    TerminalMatch(game, record, tmp_path / "m.json", out).run()

    assert {name for name, _, _ in calls} == set(TELLING)
    for name, seat, acting in calls:
        if name == "action_info":
            assert acting, "a descriptor of another seat's decision was read"
        else:
            assert seat == human, (name, seat)
