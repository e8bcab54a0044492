"""A table in memory: its stored row, the state its record replays to, and who is watching.

The state is a cache of the record: it only ever moves by applying an action that is
already committed. Each applied action is narrated once for every person seat, and for
spectators while one watches, so that telling a connection what it missed is a lookup;
actions replayed when a table is loaded are not narrated. A viewer whose narrations are
missing (a spectator who comes, a table loaded from the record) has them filled in once
from :meth:`~necropolis.engine.protocol.State.log`, which narrates the same way.

Beside the record, a seat may hold a *turn in hand* (:class:`Turn`): its decisions since
the table's version that reveal nothing (``State.reveals``), which it may still take back.
They live only here, in this process's memory, and only that seat is shown them; they
reach the record together, as one turn, or never (a kill forgets them). Any committed
action forgets every turn in hand, since a turn is only ever held by the one seat that
acts alone at the table's version.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Protocol

from necropolis.engine.events import Event
from necropolis.engine.language import LogEntry
from necropolis.engine.protocol import Game, State
from necropolis.games import load_game
from necropolis.server.db import FINISHED, TableRow
from necropolis.server.models import ErrorMessage, Presence
from necropolis.server.seats import Seat
from necropolis.server.tokens import same_hash, token_hash

#: How many versions back a ``state`` message may show a seat step by step (the states
#: after the last this many actions are kept while someone watches the table).
STEPS_KEPT = 12

#: A queued wake-up: "build and send this connection a fresh state".
WAKE = "wake"
#: A queued end: the connection's writer stops.
CLOSE = "close"


class Clocked(Protocol):
    """A table's clock (:mod:`necropolis.server.clocks`), told of every applied action,
    and of the moment the match begins after waiting for its people."""

    def moved(self, live: LiveTable) -> None: ...

    def began(self, live: LiveTable) -> None: ...


@dataclass(frozen=True)
class Again:
    """A finished table's rematch: the new table, and the seats of this one whose people
    accepted to play again (a bot's accept at once)."""

    table: str
    seats: tuple[int, ...]


@dataclass(frozen=True)
class LogAsked:
    """A queued page of the log, older than index ``before``, built when it is sent."""

    before: int


@dataclass(eq=False)
class Connection:
    """One WebSocket connection of a seat (or a spectator, seat None) at a table."""

    seat: int | None
    #: The version whose log entries this connection has not been sent yet (-1 before its
    #: first state, when its hello said none: ``filter.FIRST``).
    version: int
    #: Whether the client keeps a turn in hand (said in its hello): its decisions that
    #: reveal nothing wait for the rest of the turn, and it may take them back.
    undo: bool = False
    #: The hash of the token a seat's connection said hello with (None: a spectator).
    token_hash: str | None = None
    #: Messages to send, in order: models, WAKE (a state built when it is sent),
    #: :class:`LogAsked` (a page of the log, likewise) or CLOSE.
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
class Turn:
    """A seat's decisions in hand, taken at the table's version ``base`` and not committed:
    each decision, the seat's position after it, and its log entries as the seat reads
    them."""

    base: int
    actions: list[int] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    entries: list[list[LogEntry]] = field(default_factory=list)


@dataclass(eq=False)
class SentCache:
    """The filter's ``state`` messages for one table version and one line of seats: the
    parts every viewer shares, each ``(viewer, since)``'s JSON text, and the viewers'
    whole logs that first states and pages of the log were cut from."""

    version: int
    seats: list[dict[str, Any]]
    public: dict[str, Any]
    texts: dict[tuple[int | None, int], str] = field(default_factory=dict)
    #: Each viewer's whole log at this version, once a first state or a page needed it.
    logs: dict[int | None, list[LogEntry]] = field(default_factory=dict)
    #: What the line of seats was built from: the seats connected and the row's seats.
    connected: frozenset[int | None] = frozenset()
    row_seats: list[Seat] | None = None


class LiveTable:
    """One table, loaded: its row, its state and its connections in this process."""

    def __init__(self, row: TableRow, actions: list[tuple[int | None, int]]) -> None:
        self.row = row
        self.game: Game = load_game(row.game, **row.options)
        self.state: State = self.game.new_initial_state()
        #: The events of the latest actions (the whole truth, redacted as they are sent),
        #: by the version each made: the page draws the moves it shows from them.
        self.happened: deque[tuple[int, list[Event]]] = deque(maxlen=STEPS_KEPT)
        for k, (_, action) in enumerate(actions):
            if k + 1 < len(actions) or not self.game.tells_events():
                self.state.apply_action(action)
            else:
                self.happened.append((len(actions), self.state.apply_events(action)))
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
        #: The states after the latest actions, by version, while the table has watchers:
        #: a connection that missed a few versions is shown each of them (see
        #: ``filter``). Only references: an applied state is never changed afterwards.
        self.recent: deque[tuple[int, State]] = deque(maxlen=STEPS_KEPT)
        #: Each seat's turn in hand (see :class:`Turn`), by seat.
        self.turns: dict[int, Turn] = {}
        #: The table's clock, if it has one (set by :mod:`necropolis.server.clocks`).
        self.clock: Clocked | None = None
        #: Whether the table allows hints, and each hint asked: ``(seat, version)`` (see
        #: :mod:`necropolis.server.analyses`; every viewer is shown them).
        self.hints = False
        self.hints_used: list[tuple[int, int]] = []
        #: Its rematch, once someone at the finished table asked to play again.
        self.again: Again | None = None
        #: The legal actions of the seats asked about, at the state last asked about (see
        #: :meth:`legal`).
        self._legal: tuple[State, dict[int, list[int]]] | None = None

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

    @property
    def narrated_for(self) -> list[int | None]:
        """Whom an applied action is narrated for at once: every viewer but spectators
        when none watches (a spectator who comes has the missing narrations filled in)."""
        # (what ``viewers`` says, in one pass over the connections: asked at every action)
        watching = {c.seat for c in self.connections}
        seats: list[int | None] = [
            s for s in range(self.game.num_players) if s in watching or not self.is_bot(s)
        ]
        return [None, *seats] if None in watching else seats

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays the seat now: a bot's seat, or a person's whose time ran out
        and whom a bot stands in for until they take the seat back (``standin``)."""
        return self.row.seats[seat].bot

    @property
    def waiting(self) -> bool:
        """Whether the match waits for people to sit down (see ``Seat.waiting``): nobody
        acts, no chance is drawn and no clock runs until every seat is taken."""
        return any(s.waiting for s in self.row.seats)

    @property
    def over(self) -> bool:
        """Whether the match is over: played to its end, or abandoned (a clock ran out
        under the rule that ends the game: the row is finished, the state is not)."""
        return self.row.status == FINISHED or self.state.is_terminal()

    def apply(
        self,
        seat: int | None,
        action: int,
        after: State | None = None,
        events: list[Event] | None = None,
    ) -> None:
        """Apply a committed action and narrate it for every viewer. ``after``, if given,
        is the state with the action already applied (the door built it to check the
        action before committing it), which saves applying it twice; ``events``, the
        events its rules emitted then, if the door asked for them (else the action is
        played again on a copy to collect them)."""
        before = self.state
        if after is None:
            after = before.clone()
            events = after.apply_events(action)  # (played once: its events come with it)
        self.state = after
        self.actions.append((seat, action))
        if self.connections:
            self.recent.append((len(self.actions), after))
        elif self.recent:
            self.recent.clear()  # nobody watches: keep no states alive for nobody
        happened, narration = after.told(before, action, self.narrated_for, events)
        self.happened.append((len(self.actions), happened))
        self.narrations.append(narration)
        if self.state.is_terminal():
            self.row.status = FINISHED
        # A turn in hand was taken at the version before: it is committed (its actions are
        # being applied one by one) or void (the table moved on without it).
        self.turns.clear()
        if self.clock is not None:
            self.clock.moved(self)

    def position(self, seat: int | None) -> State:
        """The state ``seat`` plays from: its turn in hand's last position, else the table's."""
        turn = self.turns.get(seat) if seat is not None else None
        return turn.states[-1] if turn is not None and turn.states else self.state

    def legal(self, state: State, seat: int) -> list[int]:
        """``state.legal_actions(seat)`` (not to be changed), kept for the state last asked
        about: a person's ``state`` message lists its choices and its act is checked
        against them, at the same state, and in some games finding them is most of an
        act's cost. ``state`` is the table's or a turn in hand's position, which is never
        changed once applied (a move is applied to a clone), so its choices stay."""
        kept = self._legal
        if kept is None or kept[0] is not state:
            kept = self._legal = (state, {})
        found = kept[1].get(seat)
        if found is None:
            found = kept[1][seat] = state.legal_actions(seat)
        return found

    def log_since(self, viewer: int | None, version: int) -> list[LogEntry]:
        """Every log entry ``viewer`` may know, caused by the actions from ``version`` on."""
        if version >= self.narrated_from:
            entries: list[LogEntry] = []
            for narration in self.narrations[version - self.narrated_from :]:
                told = narration.get(viewer)
                if told is None:  # not narrated for it then (see ``narrated_for``)
                    break
                entries.extend(told)
            else:
                return entries
        return [e for e in self.fill_in(viewer) if e["index"] >= version]

    def told(self, viewer: int | None, index: int) -> list[LogEntry] | None:
        """The entries action ``index`` made for ``viewer``, if they were narrated here."""
        at = index - self.narrated_from
        if 0 <= at < len(self.narrations):
            return self.narrations[at].get(viewer)
        return None

    def fill_in(self, viewer: int | None) -> list[LogEntry]:
        """``viewer``'s whole log, from a replay of the record; the narrations kept here
        that it lacked are filled in from it, so that it is replayed once."""
        whole = self.state.log(viewer)
        if self.narrations:
            by_index: dict[int, list[LogEntry]] = {}
            for entry in whole:
                if entry["index"] >= self.narrated_from:
                    by_index.setdefault(entry["index"], []).append(entry)
            for at, narration in enumerate(self.narrations):
                narration.setdefault(viewer, by_index.get(self.narrated_from + at, []))
        return whole

    def happened_at(self, version: int) -> list[Event] | None:
        """The events of the action that made ``version``, if they are kept here."""
        for kept, events in self.happened:
            if kept == version:
                return events
        return None

    def state_at(self, version: int) -> State | None:
        """The state after ``version`` actions, if it is the current one or a kept one."""
        if version == self.version:
            return self.state
        for kept, state in self.recent:
            if kept == version:
                return state
        return None

    def who(self, token: str) -> tuple[bool, int | None]:
        """``(known, seat)``: a person seat's token gives its seat; the spectator's or the
        creator's gives None. Every stored hash is compared, so timing says nothing."""
        digest = token_hash(token)
        found: tuple[bool, int | None] = (False, None)
        for seat in self.row.seats:
            if same_hash(digest, seat.token_hash) and seat.person:
                found = (True, seat.seat)
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

    def tell_seat(self, seat: int) -> None:
        """Wake ``seat``'s own connections only (its turn in hand changed)."""
        for connection in self.connections:
            if connection.seat == seat:
                connection.wake()

    def seat_here(self, seat: int) -> int:
        """How many connections of ``seat`` are open here."""
        return sum(1 for c in self.connections if c.seat == seat)

    def announce(self, seat: int | None, seats_changed: bool) -> None:
        """A connection of ``seat`` opened or closed: send a ``presence`` message to those
        it concerns. Everyone hears of a seat that came or left (``seats_changed``); the
        seat's own connections hear how many of them are open; a spectator's coming and
        going concerns nobody else. Never a whole state: a crowd connecting costs each
        of the others nothing, or one small message per seat that changed."""
        if seat is None:
            return
        connected = {c.seat for c in self.connections}
        seats = [
            {"seat": s.seat, "connected": not s.person or s.seat in connected}
            for s in self.row.seats
        ]
        here = Counter(c.seat for c in self.connections)
        for connection in self.connections:
            if connection.seat == seat or (seats_changed and connection.seat is not None):
                data = {"seats": seats, "here": here[connection.seat]}
            elif seats_changed:
                data = {"seats": seats, "here": None}
            else:
                continue
            connection.put(Presence.model_validate(data))

    def end_replaced(self) -> None:
        """Close the connections whose token no longer opens their seat (the creator
        issued a new link for it); a seat handed to a bot keeps its viewer."""
        for connection in self.connections:
            if connection.seat is None or connection.token_hash is None:
                continue
            seat = self.row.seats[connection.seat]
            if seat.person and not same_hash(connection.token_hash, seat.token_hash):
                replaced = {
                    "code": "link_replaced",
                    "message": "The table's creator gave this seat a new link: this one has ended.",
                }
                connection.put(ErrorMessage.model_validate(replaced))
