"""The match record: the single source of truth about a match.

A record names the game, its options and its seats, and lists every action in order,
chance outcomes included, so replaying it rebuilds every state exactly. Saving a match
is appending an action; loading one is replaying it. The JSON form carries a format name
and a version number so that older files stay readable as the format grows. The kernel
knows no game: whoever replays a record hands it a :class:`GameLoader` (the registry's
``necropolis.games.load_game``, or a test's own) that turns the record's game id and
options into a game.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from necropolis.engine.errors import IllegalActionError, MatchRecordError, NecropolisError
from necropolis.engine.protocol import Game, State

FORMAT = "necropolis-match"
VERSION = 1


class GameLoader(Protocol):
    """Makes the game a record names from its id and options (unknown ones raise)."""

    def __call__(self, game_id: str, **options: Any) -> Game: ...


@dataclass
class MatchRecord:
    """Game id, options, seats and actions of one match (finished or not)."""

    game: str
    options: dict[str, Any]
    seats: list[str]
    actions: list[int] = field(default_factory=list)
    seed: int | None = None
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    #: The name each seat showed, where one was known (a web table's players); None for
    #: a seat without one, and for a record that names nobody (the terminal's, a bot's).
    names: list[str | None] | None = None

    @classmethod
    def start(cls, game: Game, seats: list[str], seed: int | None = None) -> MatchRecord:
        return cls(game.id, dict(game.options), list(seats), [], seed)

    def load_game(self, loader: GameLoader) -> Game:
        """The record's game, made by ``loader``, checked against its seats."""
        try:
            game = loader(self.game, **self.options)
        except NecropolisError as exc:
            raise MatchRecordError(f"the record's game cannot be loaded: {exc}") from exc
        if len(self.seats) != game.num_players:
            raise MatchRecordError(
                f"the record names {len(self.seats)} seats for a game of {game.num_players}"
            )
        return game

    def check_seats(self, known: Collection[str]) -> None:
        """Raise :class:`MatchRecordError` unless every seat is one of ``known`` (the
        players the program reading the record can seat: a person or its bots)."""
        for number, name in enumerate(self.seats, 1):
            if name not in known:
                raise MatchRecordError(f"seat {number} of the record is {name!r}: not a known seat")

    def states(self, loader: GameLoader) -> Iterator[State]:
        """Every state of the match, from the initial one to the last (clones)."""
        for state in self._replay(loader):
            yield state.clone()

    def final_state(self, loader: GameLoader) -> State:
        """The state after every recorded action."""
        *_, last = self._replay(loader)
        return last

    def _replay(self, loader: GameLoader) -> Iterator[State]:
        """One live state, yielded as it starts and after each recorded action."""
        state = self.load_game(loader).new_initial_state()
        yield state
        for index, action in enumerate(self.actions):
            try:
                state.apply_action(action)
            except IllegalActionError as exc:
                raise MatchRecordError(
                    f"action #{index} ({action}) does not replay: {exc}"
                ) from exc
            yield state

    # --- JSON -------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "seats": self.seats,
        }
        if self.names is not None:
            # (optional: a reader of version 1 that does not know it reads the rest)
            data["names"] = self.names
        data.update(seed=self.seed, created=self.created, actions=self.actions)
        return data

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MatchRecordError("not a necropolis match record (no 'format' of that name)")
        version = data.get("version")
        if type(version) is not int or version != VERSION:
            raise MatchRecordError(
                f"match record version {version!r} is not supported (this is {VERSION})"
            )
        try:
            game = data["game"]
            options = data["options"]
            seats = data["seats"]
            actions = data["actions"]
        except KeyError as exc:
            raise MatchRecordError(f"match record lacks the field {exc.args[0]!r}") from None
        if not isinstance(game, str) or not isinstance(options, dict):
            raise MatchRecordError("match record has a malformed 'game' or 'options'")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise MatchRecordError("match record 'seats' must be a list of names")
        if not isinstance(actions, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in actions
        ):
            raise MatchRecordError("match record 'actions' must be a list of whole numbers")
        seed = data.get("seed")
        if seed is not None and type(seed) is not int:
            raise MatchRecordError("match record 'seed' must be a whole number or null")
        created = data.get("created")
        names = data.get("names")
        if names is not None and (
            not isinstance(names, list)
            or len(names) != len(seats)
            or not all(n is None or isinstance(n, str) for n in names)
        ):
            raise MatchRecordError("match record 'names' must hold a name or null per seat")
        record = cls(game, options, seats, actions, seed, names=names)
        if isinstance(created, str):
            record.created = created
        return record

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def loads(cls, text: str) -> MatchRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MatchRecordError(f"match record is not valid JSON: {exc}") from None
        except RecursionError:
            raise MatchRecordError("match record is nested too deeply to be one") from None
        return cls.from_json(data)

    def save(self, path: str | Path) -> Path:
        """Write the record atomically (a crash never leaves half a file)."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(self.dumps() + "\n", encoding="utf-8")
        tmp.replace(target)
        return target

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise MatchRecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise MatchRecordError(f"{path} is not a match record (not UTF-8 text)") from None
        return cls.loads(text)


def load_match(path: str | Path, loader: GameLoader) -> MatchRecord:
    """Read a saved match and check that it replays; ``.final_state(loader)`` rebuilds it."""
    record = MatchRecord.load(path)
    record.final_state(loader)
    return record
