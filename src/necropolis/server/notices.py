"""Your turn: telling signed-in players where it is their turn, and mailing the ones who wait.

One :class:`Notices` per server process. It taps the broker (:class:`TappedBroker`): every
table this process moves on (an action, chance, a seat handed to a bot) is queued, and one
task marks whose turn it now is (:mod:`necropolis.server.turns`) for tables where an
account holds a seat. Who holds a table's seats is read once and kept, since most tables
have no account at all: a claim made since is told by :meth:`Notices.claimed`, here or
over the bus. When whose turn it is changes, the accounts holding the table's seats are
recounted here and named to the other processes over the bus
(:mod:`necropolis.server.broker`), which recount theirs: each process pushes a count only
to the account streams (``/ws/account``) connected to it. A count is read from the marks;
a stale mark is healed on the spot from the table's state, so a lost message or a killed
process costs at most a late push, never a wrong count. Every :data:`RESYNC` seconds each
stream's session is checked again (one signed out elsewhere is closed) and, with several
processes, its count too.

With SMTP configured, each process looks every :attr:`MailSettings.sweep` seconds for
turns that waited :attr:`MailSettings.after` seconds and mails them; a conditional
update of the turn's row picks the one process that sends each mail, once per turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from necropolis.server.accounts import Accounts
from necropolis.server.broker import Broker, Bus
from necropolis.server.chat import ChatLine, deliver
from necropolis.server.db import now
from necropolis.server.mail import MailSettings, compose, send
from necropolis.server.service import Tables, stored
from necropolis.server.turns import Claimed, Snapshot, Stale, Turns, snapshot

if TYPE_CHECKING:
    from necropolis.server.app import Settings

log = logging.getLogger("necropolis.server")

#: Seconds between a stream's checks of its session (and, with several processes, count).
RESYNC = 60.0
#: Open account streams one account may have (its tabs and devices), per process.
MAX_STREAMS = 20
#: A mail that failed is tried again after this many seconds.
MAIL_RETRY = 300.0
#: Tables read from the database in one query when marking.
BATCH = 200
#: Seconds the marking task waits after a table moved, for others to go with it (a
#: notice comes this much later; under load, a batch costs what one table did).
GATHER = 0.05
#: Tables marked in one worker thread's call (each call is bounded like any other wait
#: on the database).
MARKS_PER_CALL = 20
#: Seconds the accounts holding a table's seats, once read, are trusted here. A claim
#: made since is told at once (:meth:`Notices.claimed`, over the bus from the other
#: processes); this bounds what a lost message of the bus costs, as :data:`RESYNC` does.
HOLDERS_KEPT = RESYNC
#: Tables whose holders are kept here at most (then they are all read again).
HOLDERS_MOST = 100_000


class TappedBroker(Broker):
    """A broker that also tells ``moved`` of every table this process publishes news of."""

    def __init__(self, bus: Bus, moved: Callable[[str], None]) -> None:
        super().__init__(bus)
        self.moved = moved

    def publish(self, table_id: str, version: int) -> None:
        super().publish(table_id, version)
        self.moved(table_id)


@dataclass(eq=False)
class Stream:
    """One open ``/ws/account`` connection of a signed-in player."""

    player_id: int
    #: The session's cookie, checked again now and then.
    session: str
    #: Texts to send; None ends the stream.
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    #: The last ``turns`` message sent (a count that did not change is not sent again).
    sent: str | None = None


class Notices:
    """This process's account streams, turn marks, and mail."""

    def __init__(self, settings: Settings, bus: Bus) -> None:
        self.mail: MailSettings | None = settings.mail
        host = f"[{settings.host}]" if ":" in settings.host else settings.host
        #: The server's own address, for mail when the operator gave no public one.
        self.base_url = f"http://{host}:{settings.port}"
        #: Open WebSockets one client address may have (shared with the tables'; 0: any).
        self.address_limit = settings.max_address_connections
        self.bus = bus
        self.streams: dict[int, set[Stream]] = {}
        self.tables: Tables | None = None
        self.turns: Turns | None = None
        self._moved: dict[str, None] = {}  # an ordered set
        self._moved_ready = asyncio.Event()
        self._recount: set[int] = set()
        self._recount_ready = asyncio.Event()
        #: The version each table was last marked at here (to tell who acted since).
        self._marked: dict[str, int] = {}
        #: The accounts holding each table's seats, as read (monotonic seconds, ids):
        #: most tables have none, and moving them on must not cost a query each time.
        self._holders: dict[str, tuple[float, frozenset[int]]] = {}
        #: How many claims were told here: holders read while one was told are not kept
        #: (the read may predate the claim).
        self._claims_told = 0
        self._tasks: list[asyncio.Task[None]] = []
        #: When a failed mail of (table, seat) may be tried again (monotonic seconds).
        self._retry: dict[tuple[str, int], float] = {}

    # --- life ------------------------------------------------------------------------

    def broker(self) -> Broker:
        """The tables' broker on this bus, which also tells this of every table moved."""
        return TappedBroker(self.bus, self.moved)

    async def start(self, tables: Tables) -> None:
        self.tables = tables
        self.turns = Turns(tables.store.engine)
        self.bus.on("turns", self._turns_heard)
        self.bus.on("claims", self._claims_heard)
        self.bus.on("chat", self._chat_heard)
        self._tasks = [
            asyncio.create_task(self._marking(), name="notices: marks"),
            asyncio.create_task(self._counting(), name="notices: counts"),
            asyncio.create_task(self._resyncing(), name="notices: resync"),
        ]
        if self.mail is not None:
            self._tasks.append(asyncio.create_task(self._mailing(), name="notices: mail"))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for streams in self.streams.values():
            for stream in streams:
                stream.outbox.put_nowait(None)

    # --- tables that moved -----------------------------------------------------------

    def moved(self, table_id: str) -> None:
        """A table this process moved on (called by the broker's tap; never waits)."""
        self._moved[table_id] = None
        self._moved_ready.set()

    async def _marking(self) -> None:
        while True:
            await self._moved_ready.wait()
            # Tables that move meanwhile go in the same batch: one query for their seats'
            # holders, one trip to a worker thread for their marks.
            await asyncio.sleep(GATHER)
            self._moved_ready.clear()
            while self._moved:
                batch = list(self._moved)[:BATCH]
                for table_id in batch:
                    del self._moved[table_id]
                try:
                    await self._mark(batch)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    # Marks left stale are healed by the next reader.
                    log.warning("could not mark whose turn it is", exc_info=True)

    def claimed(self, table_id: str) -> None:
        """An account claimed a seat at the table (in this process): its holders are read
        again here, and in the other processes, told over the bus."""
        self._forget_holders(table_id)
        self.bus.publish("claims", {"table": table_id})

    def _forget_holders(self, table_id: str) -> None:
        self._holders.pop(table_id, None)
        self._claims_told += 1

    async def _claims_heard(self, data: dict[str, Any]) -> None:
        table_id = data.get("table")
        if isinstance(table_id, str):
            self._forget_holders(table_id)

    async def holders(self, table_ids: list[str]) -> dict[str, set[int]]:
        """The accounts holding a seat at each of ``table_ids`` (tables without: absent),
        read from the database only for the tables not read in the last
        :data:`HOLDERS_KEPT` seconds or claimed at since."""
        assert self.turns is not None
        at = time.monotonic()
        found: dict[str, set[int]] = {}
        unread: list[str] = []
        for table_id in table_ids:
            kept = self._holders.get(table_id)
            if kept is None or at - kept[0] > HOLDERS_KEPT:
                unread.append(table_id)
            elif kept[1]:
                found[table_id] = set(kept[1])
        if not unread:
            return found
        told = self._claims_told
        read = await stored(self.turns.claimants, unread)
        # A claim told while the query ran may not be in what it read: read again next time.
        keep = told == self._claims_told
        if keep and len(self._holders) + len(unread) > HOLDERS_MOST:
            self._holders.clear()
        for table_id in unread:
            ids = read.get(table_id, set())
            if keep:
                self._holders[table_id] = (at, frozenset(ids))
            if ids:
                found[table_id] = set(ids)
        return found

    async def _mark(self, table_ids: list[str]) -> None:
        assert self.tables is not None and self.turns is not None
        held = await self.holders(table_ids)
        marks: list[tuple[Snapshot, set[int | None]]] = []
        for table_id in held:
            live = await self.tables.get(table_id)
            if live is None:
                continue
            seen = snapshot(live)
            before = self._marked.get(table_id, seen.version - 1)
            marks.append((seen, {seat for seat, _ in live.actions[before : seen.version]}))
            self._marked[table_id] = seen.version
        answers: list[bool | None] = []
        for start in range(0, len(marks), MARKS_PER_CALL):
            chunk = marks[start : start + MARKS_PER_CALL]
            answers += await stored(self.turns.mark_many, chunk)
        changed: set[int] = set()
        for (seen, _acted), answer in zip(marks, answers, strict=True):
            if answer:
                changed |= held[seen.table_id]
        if len(self._marked) > 100_000:
            self._marked.clear()  # only a hint of who acted: forgetting costs nothing
        if changed:
            self.recount(changed)
            self.bus.publish("turns", {"players": sorted(changed)})

    # --- counting --------------------------------------------------------------------

    def recount(self, players: Iterable[int]) -> None:
        """Count these players' turns again and push the counts that changed (only the
        players with a stream here are counted)."""
        here = {p for p in players if p in self.streams}
        if here:
            self._recount |= here
            self._recount_ready.set()

    async def _counting(self) -> None:
        while True:
            await self._recount_ready.wait()
            self._recount_ready.clear()
            players, self._recount = self._recount, set()
            try:
                answers = await self.waiting(sorted(players))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("could not count players' turns", exc_info=True)
                continue
            for player in players:
                text = turns_message(answers.get(player, []))
                for stream in self.streams.get(player, ()):
                    if stream.sent != text:
                        stream.sent = text
                        stream.outbox.put_nowait(text)

    async def waiting(self, players: list[int]) -> dict[int, list[Claimed]]:
        """The seats of ``players`` that are to move now, per player, healing stale marks."""
        assert self.turns is not None
        claimed, stale = await stored(self.turns.claimed, players)
        healed: dict[str, tuple[Stale, tuple[int, ...]]] = {}
        for table in stale:
            to_move = await self._heal(table)
            if to_move is not None:
                healed[table.table_id] = (table, to_move)
        found: dict[int, list[Claimed]] = {}
        for claim in claimed:
            if not claim.fresh:
                heal = healed.get(claim.table_id)
                if heal is None or claim.seat not in heal[1]:
                    continue
                claim = replace(claim, since=heal[0].updated, fresh=True)
            if claim.since is not None:
                found.setdefault(claim.player_id, []).append(claim)
        return found

    async def _heal(self, table: Stale) -> tuple[int, ...] | None:
        """Mark a table whose mark is stale, from its state; the seats to move (None: the
        table could not be read now)."""
        assert self.tables is not None and self.turns is not None
        try:
            live = await self.tables.get(table.table_id)
            if live is None:
                return None
            if live.version < table.version:
                await self.tables.door.catch_up(live)
            seen = snapshot(live)
            # A turn that began before anyone marked it has waited since the table's
            # last change at the latest.
            await stored(self.turns.mark, seen, (), table.updated)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("could not read table %s to count turns", table.table_id, exc_info=True)
            return None
        return seen.to_move

    # --- streams ---------------------------------------------------------------------

    def join(self, player_id: int, session: str) -> Stream | None:
        """A new stream of ``player_id`` (None: the account has too many open here)."""
        streams = self.streams.setdefault(player_id, set())
        if len(streams) >= MAX_STREAMS:
            return None
        stream = Stream(player_id, session)
        streams.add(stream)
        self.recount([player_id])
        return stream

    def leave(self, stream: Stream) -> None:
        streams = self.streams.get(stream.player_id)
        if streams is not None:
            streams.discard(stream)
            if not streams:
                del self.streams[stream.player_id]

    def check(self, stream: Stream) -> None:
        """The page asks for its count again (it may have just taken a seat)."""
        stream.sent = None  # answered even if nothing changed
        self.recount([stream.player_id])

    async def _resyncing(self) -> None:
        while True:
            await asyncio.sleep(RESYNC)
            try:
                await self._resync()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("could not check the account streams", exc_info=True)

    async def _resync(self) -> None:

        assert self.tables is not None
        accounts = Accounts(self.tables.store.engine)
        for player_id, streams in list(self.streams.items()):
            for stream in list(streams):
                player = await stored(accounts.session, stream.session)
                if player is None or player.id != player_id:
                    stream.outbox.put_nowait(ENDED)
                    stream.outbox.put_nowait(None)
        if self.bus.shared:
            self.recount(list(self.streams))

    # --- other processes -------------------------------------------------------------

    async def _turns_heard(self, data: dict[str, Any]) -> None:
        players = data.get("players")
        if isinstance(players, list):
            self.recount(p for p in players if isinstance(p, int))

    async def _chat_heard(self, data: dict[str, Any]) -> None:
        if self.tables is not None:
            table_id = data.get("table")
            live = self.tables.memory.loaded(table_id) if isinstance(table_id, str) else None
            if live is not None and live.connections:
                deliver(live, ChatLine.model_validate(data.get("line")), bool(data.get("apart")))

    def chat_written(self, table_id: str, line: ChatLine, apart: bool) -> None:
        """A line written at a table here: the other processes hand it to its connections."""
        self.bus.publish(
            "chat", {"table": table_id, "line": line.model_dump(mode="json"), "apart": apart}
        )

    # --- mail ------------------------------------------------------------------------

    async def _mailing(self) -> None:
        assert self.mail is not None
        while True:
            await asyncio.sleep(self.mail.sweep)
            try:
                await self._mail_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("could not look for turns to mail", exc_info=True)

    async def _mail_due(self) -> None:
        assert self.mail is not None and self.turns is not None
        for table in await stored(self.turns.stale_for_mail):
            await self._heal(table)
        waited_since = now() - timedelta(seconds=self.mail.after)
        clock = asyncio.get_running_loop().time()
        for due in await stored(self.turns.due, waited_since):
            if self._retry.get((due.table_id, due.seat), 0.0) > clock:
                continue
            if not await stored(self.turns.take_mail, due, waited_since):
                continue  # another process sends it, or the turn is over
            message = compose(self.mail, due, self.base_url)
            try:
                await asyncio.to_thread(send, self.mail, message)
            except Exception as exc:
                log.warning("could not mail %s's turn at %s: %s", due.player, due.table_id, exc)
                # Not mailed after all: tried again later (by any process).
                if len(self._retry) > 10_000:
                    self._retry.clear()  # only a delay between tries: forgetting is safe
                self._retry[(due.table_id, due.seat)] = clock + MAIL_RETRY
                await stored(self.turns.untake_mail, due)
            else:
                self._retry.pop((due.table_id, due.seat), None)


#: What a stream whose session ended is told before it is closed.
ENDED = json.dumps({"type": "error", "code": "not_signed_in", "message": "Sign in first."})


def turns_message(waiting: list[Claimed]) -> str:
    """The ``turns`` message of a player's waiting seats (newest change first)."""
    return json.dumps(
        {
            "type": "turns",
            "count": len(waiting),
            "tables": [
                {
                    "table_id": w.table_id,
                    "game": w.game,
                    "seat": w.seat,
                    "token": w.token,
                    "since": w.since.isoformat() if w.since is not None else None,
                }
                for w in waiting
            ],
        },
        separators=(",", ":"),
    )
