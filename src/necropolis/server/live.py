"""A table in memory: its stored row, the state its record replays to, and who is watching.

The state is a cache of the record: it only ever moves by applying an action that is
already committed. Each applied action is narrated once for every seat and for
spectators, so that telling a connection what it missed is a lookup; actions replayed
when a table is loaded are not narrated (a client that needs their entries gets them
from :meth:`~necropolis.engine.protocol.State.log`).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from necropolis.engine.language import LogEntry
from necropolis.engine.protocol import Game, State
from necropolis.games import load_game
from necropolis.server.db import FINISHED, TableRow
from necropolis.server.tokens import same_hash, token_hash

#: A queued wake-up: "build and send this connection a fresh state".
WAKE = "wake"
#: A queued end: the connection's writer stops.
CLOSE = "close"


@dataclass(eq=False)
class Connection:
    """One WebSocket connection of a seat (or a spectator, seat None) at a table."""

    seat: int | None
    #: The version whose log entries this connection has not been sent yet.
    version: int
    #: Messages to send, in order: models, WAKE (a state built when it is sent) or CLOSE.
    outbox: deque[Any] = field(default_factory=deque)
    #: Set when the outbox has something.
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    def put(self, item: Any) -> None:
        self.outbox.append(item)
        self.ready.set()

    def wake(self) -> None:
        # Two wakes in a row are one state (the newest): a slow client is not flooded.
        if not self.outbox or self.outbox[-1] != WAKE:
            self.put(WAKE)

    async def take(self) -> Any:
        """The next item to send, waiting for one."""
        while not self.outbox:
            self.ready.clear()
            await self.ready.wait()
        return self.outbox.popleft()


@dataclass(eq=False)
class SentCache:
    """The filter's ``state`` messages for one table version and one line of seats: the
    parts every viewer shares, and each ``(viewer, since)``'s JSON text."""

    version: int
    seats: list[dict[str, Any]]
    public: dict[str, Any]
    texts: dict[tuple[int | None, int], str] = field(default_factory=dict)


class LiveTable:
    """One table, loaded: its row, its state and its connections in this process."""

    def __init__(self, row: TableRow, actions: list[tuple[int | None, int]]) -> None:
        self.row = row
        self.game: Game = load_game(row.game, **row.options)
        self.state: State = self.game.new_initial_state()
        for _, action in actions:
            self.state.apply_action(action)
        self.actions: list[tuple[int | None, int]] = list(actions)
        #: Narrations are kept for the actions from this index on.
        self.narrated_from = len(actions)
        self.narrations: list[dict[int | None, list[LogEntry]]] = []
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.driver: asyncio.Task[None] | None = None
        #: The filter's messages at the current version (see ``filter.state_text``).
        self.sent: SentCache | None = None
        #: When this process last used the table (monotonic seconds).
        self.touched = time.monotonic()

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def viewers(self) -> list[int | None]:
        """Who may watch the table: spectators (None), each person seat, and a seat handed
        to a bot while its person's connection is still open. A bot seat has no token, so
        nobody else ever watches as it, and its log is not narrated."""
        watching = {c.seat for c in self.connections}
        return [
            None,
            *(s for s in range(self.game.num_players) if not self.is_bot(s) or s in watching),
        ]

    def seat_type(self, seat: int) -> str:
        return str(self.row.seats[seat]["type"])

    def is_bot(self, seat: int) -> bool:
        return self.seat_type(seat) == "bot"

    def apply(self, seat: int | None, action: int, after: State | None = None) -> None:
        """Apply a committed action and narrate it for every viewer. ``after``, if given,
        is the state with the action already applied (the door built it to check the
        action before committing it), which saves applying it twice."""
        before = self.state
        if after is None:
            after = before.clone()
            after.apply_action(action)
        self.state = after
        self.actions.append((seat, action))
        self.narrations.append(
            {viewer: self.state.narrate(before, action, viewer) for viewer in self.viewers}
        )
        if self.state.is_terminal():
            self.row.status = FINISHED

    def log_since(self, viewer: int | None, version: int) -> list[LogEntry]:
        """Every log entry ``viewer`` may know, caused by the actions from ``version`` on."""
        if version >= self.narrated_from:
            entries: list[LogEntry] = []
            for narration in self.narrations[version - self.narrated_from :]:
                told = narration.get(viewer)
                if told is None:  # a seat that was a bot's when the action was narrated
                    break
                entries.extend(told)
            else:
                return entries
        return [e for e in self.state.log(viewer) if e["index"] >= version]

    def who(self, token: str) -> tuple[bool, int | None]:
        """``(known, seat)``: a person seat's token gives its seat; the spectator's or the
        creator's gives None. Every stored hash is compared, so timing says nothing."""
        digest = token_hash(token)
        found: tuple[bool, int | None] = (False, None)
        for seat in self.row.seats:
            if same_hash(digest, seat.get("token_hash")) and seat["type"] != "bot":
                found = (True, int(seat["seat"]))
        spectator = same_hash(digest, self.row.spectator_hash)
        creator = same_hash(digest, self.row.creator_hash)
        if not found[0] and (spectator or creator):
            found = (True, None)
        return found

    def is_creator(self, token: str) -> bool:
        return same_hash(token_hash(token), self.row.creator_hash)

    def tell(self) -> None:
        """Wake every connection: each is sent a state built from the table as it is now."""
        for connection in self.connections:
            connection.wake()
