"""Dump the board components' test fixtures: real positions of each game, as a seat sees them.

Each fixture is what the table server would hand a board for one seat: the game's
``board_layout()``, the seat's ``view``, the events of the action that led there as the
seat may know them, and the descriptors of its legal decisions (``action_info``), taken
from a seeded playout so that the JSON is the same on every run. The vitest tests of
``web/src/boards`` render these; run this script again (from the repository root,
``.venv/bin/python web/scripts/fixtures.py``) after a game's view, layout or table
language changes, and commit the JSON it writes.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import necropolis
from necropolis.engine.events import Event, events_data
from necropolis.engine.protocol import State, sample_chance
from necropolis.engine.seat import SeatWindow

OUT = Path(__file__).resolve().parent.parent / "src" / "boards" / "fixtures"

#: A fixture is chosen as the first position of a seeded playout that passes its test.
Pick = Callable[[State], bool]


def _play_until(
    game_id: str, options: dict[str, Any], seed: int, pick: Pick
) -> tuple[State, list[Event]]:
    """The first position of the playout that ``pick`` wants, with its last action's events."""
    game = necropolis.load_game(game_id, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    policy = game.heuristic_policy()
    happened: list[Event] = []
    while not state.is_terminal():
        if state.is_chance_node():
            happened = state.apply_events(sample_chance(state, rng))
            continue
        if pick(state):
            return state, happened
        # the game's heuristic plays, so that positions look like real play (random moves
        # rarely reach a sarcophagus or a full wall); random moves where it has none
        if policy is not None:
            happened = state.apply_events(policy(SeatWindow(state, state.current_player()), rng))
        else:
            actions = state.legal_actions()
            happened = state.apply_events(actions[rng.randrange(len(actions))])
    if pick(state):
        return state, happened
    raise SystemExit(f"{game_id} (seed {seed}): the playout never reached the wanted position")


def _fixture(state: State, happened: list[Event], seat: int | None) -> dict[str, Any]:
    legal = state.legal_actions(seat) if seat is not None else []
    return {
        "game": state.game.id,
        "options": state.game.options,
        "seat": seat,
        "layout": state.game.board_layout(),
        "view": state.view(seat),
        "events": events_data(happened, seat),
        "actions": [state.action_info(a) for a in legal],
    }


def _acting(state: State) -> int:
    return state.current_player()


def _phase(name: str, after: int = 0) -> Pick:
    return lambda s: s.move_number() >= after and s.view(_acting(s)).get("phase") == name


def _after(moves: int) -> Pick:
    return lambda s: s.move_number() >= moves


def _end(s: State) -> bool:
    return s.is_terminal()


def _targets(prefix: str, after: int = 0) -> Pick:
    """A position where the acting seat has a decision whose first target is a ``prefix``."""

    def pick(s: State) -> bool:
        if s.move_number() < after:
            return False
        infos = (s.action_info(a) for a in s.legal_actions())
        return any(i["targets"] and i["targets"][0].startswith(prefix) for i in infos)

    return pick


# name -> (game, options, seed, which position, whose view: "acting", "seat0" or None for a
# spectator)
FIXTURES: dict[str, tuple[str, dict[str, Any], int, Pick, str | None]] = {
    "luxor2001-insert": ("luxor2001", {"players": 3}, 3, _phase("insert", 60), "acting"),
    "luxor2001-spectator": ("luxor2001", {"players": 4}, 5, _after(90), None),
    "luxor2001-curse": ("luxor2001", {"players": 4, "curse": True}, 11, _after(120), "acting"),
    "luxor2001-pillars": ("luxor2001", {"players": 2}, 5, _targets("pillar:", 20), "acting"),
    "luxor2001-end": ("luxor2001", {"players": 3}, 8, _end, "seat0"),
    "luxor-play": ("luxor", {"players": 3}, 3, _after(80), "acting"),
    "luxor-hand": ("luxor", {"players": 2}, 4, _targets("hand:", 30), "acting"),
    "luxor-spectator": ("luxor", {"players": 4}, 5, _after(150), None),
    "luxor-end": ("luxor", {"players": 3}, 8, _end, "seat0"),
    "horus-setup": ("horus", {"players": 3}, 2, _targets("adventurer:"), "acting"),
    "horus-act": ("horus", {"players": 4}, 3, _phase("perform actions", 60), "acting"),
    "horus-sarcophagus": ("horus", {"players": 2}, 7, _targets("sarcophagus:"), "acting"),
    "horus-cards": ("horus", {"players": 3}, 9, _targets("card:", 30), "acting"),
    "horus-lock": ("horus", {"players": 4}, 24, _targets("die:", 10), "acting"),
    "horus-alcove": ("horus", {"players": 2}, 7, _targets("alcove:"), "acting"),
    "horus-mummy": ("horus", {"players": 2}, 7, _targets("mummy:"), "acting"),
    "horus-end": ("horus", {"players": 4}, 8, _end, "seat0"),
    "horus-spectator": ("horus", {"players": 6}, 5, _after(200), None),
}


def main(argv: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    wanted = argv or list(FIXTURES)
    for name in wanted:
        game_id, options, seed, pick, whose = FIXTURES[name]
        state, happened = _play_until(game_id, options, seed, pick)
        seat = _acting(state) if whose == "acting" else 0 if whose == "seat0" else None
        path = OUT / f"{name}.json"
        fixture = _fixture(state, happened, seat)
        path.write_text(json.dumps(fixture, indent=1) + "\n", encoding="utf-8")
        print(f"{path.name}: move {state.move_number()}, seat {seat}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
