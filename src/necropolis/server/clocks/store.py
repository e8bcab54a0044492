"""Where clocks are kept: each timed table's settings and next deadline
(``table_clocks``) and its clock events (``clock_events``), and the one transaction that
commits a seat's time running out exactly once (:meth:`ClockStore.time_out`). Synchronous:
the server calls it from worker threads.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Column, DateTime, Engine, Integer, String, Table, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from necropolis.server import db
from necropolis.server.clocks.clock import ABANDON, BACK, TIMEOUTS, Event, epoch, moment
from necropolis.server.db import FINISHED, PLAYING, metadata, now, table_key, tables
from necropolis.server.models import ClockSettings
from necropolis.server.seats import Seat, seats_json

table_clocks = Table(
    "table_clocks",
    metadata,
    table_key(),
    Column("mode", String(16), nullable=False),
    # Seconds: a real-time clock's base and increment, a turn's time.
    Column("base", Integer, nullable=False),
    Column("increment", Integer, nullable=False),
    Column("turn", Integer, nullable=False),
    Column("rule", String(16), nullable=False),
    Column("level", String(16), nullable=False),
    # The table's next deadline as last worked out (None: no clock runs), and the table's
    # version it was worked out at: a hint for finding tables nobody has loaded.
    Column("deadline", DateTime(timezone=True), nullable=True, index=True),
    Column("version", Integer, nullable=False),
)

clock_events = Table(
    "clock_events",
    metadata,
    table_key(),
    Column("index", Integer, primary_key=True, autoincrement=False),
    # The table's version (actions applied) when it happened.
    Column("version", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    # standin | back | skip | abandon
    Column("kind", String(16), nullable=False),
    db.moment("at"),
)

# --- storage ----------------------------------------------------------------------------


@dataclass
class Stored:
    """What the database holds of a timed table's clock."""

    settings: ClockSettings
    events: list[Event]
    times: list[float]


class ClockStore:
    """Every read and write of clocks, on one engine (synchronous: run in threads)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, table_id: str, settings: ClockSettings) -> None:
        with self.engine.begin() as c:
            c.execute(
                insert(table_clocks).values(
                    table_id=table_id,
                    mode=settings.mode,
                    base=settings.base,
                    increment=settings.increment,
                    turn=settings.turn,
                    rule=settings.rule,
                    level=settings.level,
                    deadline=None,
                    version=0,
                )
            )

    def settings(self, table_id: str) -> ClockSettings | None:
        with self.engine.connect() as c:
            r = c.execute(select(table_clocks).where(table_clocks.c.table_id == table_id)).first()
        return None if r is None else _settings(r)

    def read(self, table_id: str) -> Stored | None:
        """The table's settings, events and action times; None for an untimed table."""
        with self.engine.connect() as c:
            r = c.execute(select(table_clocks).where(table_clocks.c.table_id == table_id)).first()
            if r is None:
                return None
            from necropolis.server.db import table_actions

            times = [
                epoch(at)
                for (at,) in c.execute(
                    select(table_actions.c.at)
                    .where(table_actions.c.table_id == table_id)
                    .order_by(table_actions.c.index)
                ).all()
            ]
            events = self._events(c, table_id)
        return Stored(_settings(r), events, times)

    def events(self, table_id: str) -> list[Event]:
        with self.engine.connect() as c:
            return self._events(c, table_id)

    @staticmethod
    def _events(c: Any, table_id: str) -> list[Event]:
        rows = c.execute(
            select(clock_events)
            .where(clock_events.c.table_id == table_id)
            .order_by(clock_events.c.index)
        ).all()
        return [
            Event(int(r._mapping["index"]), int(r.version), int(r.seat), str(r.kind), epoch(r.at))
            for r in rows
        ]

    def set_deadlines(self, found: list[tuple[str, float | None, int]]) -> None:
        """Store each table's next deadline and the version it was worked out at."""
        with self.engine.begin() as c:
            for table_id, deadline, version in found:
                c.execute(
                    update(table_clocks)
                    .where(table_clocks.c.table_id == table_id)
                    .values(
                        deadline=None if deadline is None else moment(deadline), version=version
                    )
                )

    def deadlines(self, table_ids: list[str]) -> dict[str, datetime]:
        """The next deadline of each of ``table_ids`` that is in play with a clock running,
        as stored (left out where it was worked out at another version than the table's:
        the watcher is about to store the new one)."""
        if not table_ids:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(
                select(table_clocks.c.table_id, table_clocks.c.deadline)
                .join(tables, tables.c.id == table_clocks.c.table_id)
                .where(
                    table_clocks.c.table_id.in_(table_ids),
                    tables.c.status == PLAYING,
                    table_clocks.c.deadline.is_not(None),
                    table_clocks.c.version == tables.c.version,
                )
            ).all()
        # (SQLite gives a stored moment back without its zone)
        return {str(r[0]): moment(epoch(r[1])) for r in rows}

    def due(self, at: float, limit: int = 100) -> list[str]:
        """Tables in play whose stored deadline has passed, or whose stored deadline was
        worked out at another version than the table's (a process ended before it stored
        the new one): they are loaded and looked at."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(table_clocks.c.table_id)
                .join(tables, tables.c.id == table_clocks.c.table_id)
                .where(
                    tables.c.status == PLAYING,
                    or_(
                        table_clocks.c.deadline <= moment(at),
                        table_clocks.c.version != tables.c.version,
                    ),
                )
                .limit(limit)
            ).all()
        return [str(r[0]) for r in rows]

    def time_out(
        self,
        table_id: str,
        version: int,
        seat: int,
        kind: str,
        seats: list[Seat] | None = None,
        finish: bool = False,
    ) -> Event | None:
        """Commit that ``seat``'s time ran out at ``version``, once: the event appended at
        the next index (a second writer there fails) and, in the same transaction, the
        table's seats changed or the table finished, only if it is still at ``version``
        and in play. None when it was done already or the table moved on."""
        at = now()
        try:
            with self.engine.begin() as c:
                known = self._events(c, table_id)
                if any(
                    e.version == version and e.seat == seat and e.kind in TIMEOUTS for e in known
                ):
                    return None
                c.execute(
                    insert(clock_events).values(
                        table_id=table_id,
                        index=len(known),
                        version=version,
                        seat=seat,
                        kind=kind,
                        at=at,
                    )
                )
                values: dict[str, Any] = {"updated": at}
                if seats is not None:
                    values["seats"] = seats_json(seats)
                if finish:
                    values["status"] = FINISHED
                changed = c.execute(
                    update(tables)
                    .where(
                        tables.c.id == table_id,
                        tables.c.version == version,
                        tables.c.status == PLAYING,
                    )
                    .values(**values)
                )
                if changed.rowcount != 1:
                    raise _MovedOnError(table_id)
                event = Event(len(known), version, seat, kind, epoch(at))
        except (IntegrityError, _MovedOnError):
            return None
        return event

    def note(self, table_id: str, version: int, seat: int, kind: str) -> Event | None:
        """Append an event that goes with something already committed (a skip)."""
        for _ in range(3):
            at = now()
            try:
                with self.engine.begin() as c:
                    index = len(self._events(c, table_id))
                    c.execute(
                        insert(clock_events).values(
                            table_id=table_id,
                            index=index,
                            version=version,
                            seat=seat,
                            kind=kind,
                            at=at,
                        )
                    )
                return Event(index, version, seat, kind, epoch(at))
            except IntegrityError:
                continue
        return None

    def take_back(self, table_id: str, seat: int, seats: list[Seat]) -> Event | None:
        """Commit that ``seat``'s person took it back from its stand-in: the event, and
        the seats, in one transaction; None if the table is not in play."""
        at = now()
        try:
            with self.engine.begin() as c:
                index = len(self._events(c, table_id))
                found = c.execute(
                    select(tables.c.version).where(
                        tables.c.id == table_id, tables.c.status == PLAYING
                    )
                ).first()
                if found is None:
                    return None
                version = int(found[0])
                c.execute(
                    insert(clock_events).values(
                        table_id=table_id, index=index, version=version, seat=seat, kind=BACK, at=at
                    )
                )
                changed = c.execute(
                    update(tables)
                    .where(tables.c.id == table_id, tables.c.status == PLAYING)
                    .values(seats=seats_json(seats), updated=at)
                )
                if changed.rowcount != 1:
                    raise _MovedOnError(table_id)
        except (IntegrityError, _MovedOnError):
            return None
        return Event(index, version, seat, BACK, epoch(at))

    def abandoned_seat(self, table_id: str) -> int | None:
        """The seat whose time ran out when the table was abandoned, if it was."""
        with self.engine.connect() as c:
            found = c.execute(
                select(clock_events.c.seat).where(
                    clock_events.c.table_id == table_id, clock_events.c.kind == ABANDON
                )
            ).first()
        return None if found is None else int(found[0])


class _MovedOnError(Exception):
    """The table was no longer at the version (or in play) the change was meant for."""


def _settings(r: Any) -> ClockSettings:
    return ClockSettings(
        mode=r.mode,
        base=int(r.base),
        increment=int(r.increment),
        turn=int(r.turn),
        rule=r.rule,
        level=r.level,
    )
