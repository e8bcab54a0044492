"""Whose turn it is, stored per table, so that any process can count a player's turns.

Which seats are to move is a property of a table's state, which only a process that
replays the record knows; counting a player's turns across many tables must not replay
them all. So the process that commits a table's action writes down, beside the table,
the person seats now to move (``turn_waits``: one row per seat, with when its wait began
and whether it was mailed) and the version that describes (``turn_marks``). Writes are
ordered by that version: a late writer of an older version changes nothing.

A mark that is missing or older than the table's stored version (a table from before
this module, a process killed between commit and mark) is *stale*: the reader heals it
by loading the table and marking it, so the answers are right whatever was lost. A row
lives while its seat is to move; a seat that moves again later gets a new row, so "mailed
once per turn" is a column of the row, and survives restarts.

The functions here are synchronous; the server calls them from worker threads.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Table,
    and_,
    bindparam,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from necropolis.server.accounts import players, seat_claims
from necropolis.server.db import PLAYING, aware, metadata, now, table_key, tables
from necropolis.server.live import LiveTable

turn_marks = Table(
    "turn_marks",
    metadata,
    table_key(),
    # The table's version that the table's rows in turn_waits describe.
    Column("version", Integer, nullable=False),
)

turn_waits = Table(
    "turn_waits",
    metadata,
    table_key(),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    # When the seat's wait began: it became the seat's turn, or the seat last acted in it.
    Column("since", DateTime(timezone=True), nullable=False, index=True),
    # When the seat's player was mailed about this turn (None: not yet).
    Column("mailed", DateTime(timezone=True), nullable=True),
)

player_mail = Table(
    "player_mail",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    # None: no mail, please.
    Column("email", String(254), nullable=True),
    # The language the player's mail is written in (the page's, when they saved it).
    Column("lang", String(8), nullable=False),
)


#: Who holds a seat at some tables (an ``IN`` that expands to the ids given): built once,
#: since the marking task asks it every few tens of milliseconds under load, and building
#: the statement with its list of ids cost more than running it.
_CLAIMANTS = select(seat_claims.c.table_id, seat_claims.c.player_id).where(
    seat_claims.c.table_id.in_(bindparam("table_ids", expanding=True))
)


@dataclass(frozen=True)
class Snapshot:
    """What a table in memory says about whose turn it is."""

    table_id: str
    version: int
    #: The person seats that may act now (none once the match is over).
    to_move: tuple[int, ...]


def snapshot(live: LiveTable) -> Snapshot:
    """The person seats to move at ``live``'s version (read without waiting: consistent)."""
    state = live.state
    if live.over:  # played to the end, or abandoned when a clock ran out
        return Snapshot(live.id, live.version, ())
    if live.waiting:
        # The match waits for people to sit down: a seat kept for an account (invited by
        # name, or to a rematch) is that player's to take, as a turn is.
        return Snapshot(live.id, live.version, tuple(s.seat for s in live.row.seats if s.waiting))
    # A seat a bot stands in for (its clock ran out) is not its person's to move.
    seats = tuple(s for s in state.acting_seats() if not live.is_bot(s))
    return Snapshot(live.id, live.version, seats)


@dataclass(frozen=True)
class Waiting:
    """A seat of a player's that is to move."""

    table_id: str
    game: str
    seat: int
    #: The seat's token (it works only with the account's session: see accounts).
    token: str
    since: datetime


@dataclass(frozen=True)
class Stale:
    """A table whose mark is missing or old: its stored version and last change."""

    table_id: str
    version: int
    updated: datetime


@dataclass(frozen=True)
class Claimed:
    """A seat a player holds at a table in play, and whether it is to move (None: the
    table's mark is stale, nobody knows yet)."""

    player_id: int
    table_id: str
    game: str
    seat: int
    token: str
    since: datetime | None
    fresh: bool


@dataclass(frozen=True)
class Due:
    """A turn waited long enough for its player to be mailed."""

    table_id: str
    seat: int
    game: str
    token: str
    player: str
    email: str
    lang: str
    since: datetime


class Turns:
    """Every read and write of turns and mail addresses, on one engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- marking ---------------------------------------------------------------------

    def mark(
        self, seen: Snapshot, acted: Iterable[int | None] = (), since: datetime | None = None
    ) -> bool | None:
        """Write down ``seen`` (unless a newer version is written already), a new seat to
        move waiting from ``since`` (now by default), and a seat still to move that acted
        (in ``acted``) waiting afresh. True when the seats to move changed, False when
        not, None when a newer version was there first."""
        at = since or now()
        moved = set(acted)
        for _attempt in range(3):
            try:
                with self.engine.begin() as c:
                    # The row's lock (PostgreSQL) or the write lock (SQLite) taken first
                    # orders this writer after any other of the same table.
                    done = c.execute(
                        update(turn_marks)
                        .where(
                            turn_marks.c.table_id == seen.table_id,
                            turn_marks.c.version <= seen.version,
                        )
                        .values(version=seen.version)
                    ).rowcount
                    if not done:
                        there = c.execute(
                            select(turn_marks.c.version).where(
                                turn_marks.c.table_id == seen.table_id
                            )
                        ).first()
                        if there is not None:
                            return None
                        c.execute(
                            insert(turn_marks).values(table_id=seen.table_id, version=seen.version)
                        )
                    have = {
                        int(r[0])
                        for r in c.execute(
                            select(turn_waits.c.seat).where(turn_waits.c.table_id == seen.table_id)
                        )
                    }
                    gone = have - set(seen.to_move)
                    if gone:
                        c.execute(
                            delete(turn_waits).where(
                                turn_waits.c.table_id == seen.table_id,
                                turn_waits.c.seat.in_(gone),
                            )
                        )
                    for seat in seen.to_move:
                        if seat not in have:
                            c.execute(
                                insert(turn_waits).values(
                                    table_id=seen.table_id, seat=seat, since=at, mailed=None
                                )
                            )
                        elif seat in moved:
                            c.execute(
                                update(turn_waits)
                                .where(
                                    turn_waits.c.table_id == seen.table_id,
                                    turn_waits.c.seat == seat,
                                )
                                .values(since=at)
                            )
                    return bool(gone) or any(s not in have for s in seen.to_move)
            except IntegrityError:
                # Two first marks of one table at once: the other's row is there now.
                continue
        return None

    def mark_many(
        self, marks: Sequence[tuple[Snapshot, Iterable[int | None]]]
    ) -> list[bool | None]:
        """:meth:`mark` for several tables (each in its own transaction), in one call."""
        return [self.mark(seen, acted) for seen, acted in marks]

    # --- reading ---------------------------------------------------------------------

    def claimants(self, table_ids: Sequence[str]) -> dict[str, set[int]]:
        """The accounts holding a seat at each of ``table_ids`` (tables without: absent)."""
        if not table_ids:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(_CLAIMANTS, {"table_ids": list(table_ids)}).all()
        found: dict[str, set[int]] = {}
        for table_id, player_id in rows:
            found.setdefault(str(table_id), set()).add(int(player_id))
        return found

    def claimed(self, player_ids: Sequence[int]) -> tuple[list[Claimed], list[Stale]]:
        """The seats ``player_ids`` hold at tables in play, each with its wait if the
        table's mark is fresh; and the tables whose mark is stale."""
        if not player_ids:
            return [], []
        with self.engine.connect() as c:
            rows = c.execute(
                select(
                    seat_claims.c.player_id,
                    seat_claims.c.table_id,
                    seat_claims.c.seat,
                    seat_claims.c.token,
                    tables.c.game,
                    tables.c.version,
                    tables.c.updated,
                    turn_marks.c.version.label("marked"),
                    turn_waits.c.since,
                )
                .join(tables, tables.c.id == seat_claims.c.table_id)
                .outerjoin(turn_marks, turn_marks.c.table_id == seat_claims.c.table_id)
                .outerjoin(
                    turn_waits,
                    and_(
                        turn_waits.c.table_id == seat_claims.c.table_id,
                        turn_waits.c.seat == seat_claims.c.seat,
                    ),
                )
                .where(seat_claims.c.player_id.in_(list(player_ids)), tables.c.status == PLAYING)
                .order_by(tables.c.updated.desc(), tables.c.id)
            ).all()
        claimed: list[Claimed] = []
        stale: dict[str, Stale] = {}
        for r in rows:
            fresh = r.marked is not None and int(r.marked) == int(r.version)
            if not fresh:
                stale[r.table_id] = Stale(r.table_id, int(r.version), aware(r.updated))
            claimed.append(
                Claimed(
                    int(r.player_id),
                    str(r.table_id),
                    str(r.game),
                    int(r.seat),
                    str(r.token),
                    aware(r.since) if r.since is not None else None,
                    fresh,
                )
            )
        return claimed, list(stale.values())

    def stale_for_mail(self) -> list[Stale]:
        """Tables in play with a seat held by a player who wants mail, whose mark is stale."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(tables.c.id, tables.c.version, tables.c.updated)
                .distinct()
                .join(seat_claims, seat_claims.c.table_id == tables.c.id)
                .join(player_mail, player_mail.c.player_id == seat_claims.c.player_id)
                .outerjoin(turn_marks, turn_marks.c.table_id == tables.c.id)
                .where(
                    tables.c.status == PLAYING,
                    player_mail.c.email.is_not(None),
                    or_(turn_marks.c.version.is_(None), turn_marks.c.version != tables.c.version),
                )
            ).all()
        return [Stale(str(r[0]), int(r[1]), aware(r[2])) for r in rows]

    def due(self, waited_since: datetime) -> list[Due]:
        """The turns, not yet mailed, that have waited since ``waited_since`` or longer, of
        players with an address, at turn-based tables (a player of a real-time or untimed
        table is at the table, or chose not to be waited for) whose mark is fresh."""
        from necropolis.server.clocks.store import table_clocks  # (the clocks import this)

        with self.engine.connect() as c:
            rows = c.execute(
                select(
                    turn_waits.c.table_id,
                    turn_waits.c.seat,
                    turn_waits.c.since,
                    tables.c.game,
                    seat_claims.c.token,
                    players.c.name,
                    player_mail.c.email,
                    player_mail.c.lang,
                )
                .join(turn_marks, turn_marks.c.table_id == turn_waits.c.table_id)
                .join(
                    tables,
                    and_(
                        tables.c.id == turn_waits.c.table_id,
                        tables.c.version == turn_marks.c.version,
                    ),
                )
                .join(
                    seat_claims,
                    and_(
                        seat_claims.c.table_id == turn_waits.c.table_id,
                        seat_claims.c.seat == turn_waits.c.seat,
                    ),
                )
                .join(players, players.c.id == seat_claims.c.player_id)
                .join(player_mail, player_mail.c.player_id == seat_claims.c.player_id)
                .join(table_clocks, table_clocks.c.table_id == turn_waits.c.table_id)
                .where(
                    table_clocks.c.mode == "turn",
                    turn_waits.c.mailed.is_(None),
                    turn_waits.c.since <= waited_since,
                    tables.c.status == PLAYING,
                    player_mail.c.email.is_not(None),
                )
                .order_by(turn_waits.c.since)
                .limit(500)
            ).all()
        return [
            Due(
                str(r.table_id),
                int(r.seat),
                str(r.game),
                str(r.token),
                str(r.name),
                str(r.email),
                str(r.lang),
                aware(r.since),
            )
            for r in rows
        ]

    def take_mail(self, due: Due, waited_since: datetime) -> bool:
        """Mark ``due``'s turn mailed, if no process did and the turn is still that one;
        True for the one process that may send the mail."""
        with self.engine.begin() as c:
            done = c.execute(
                update(turn_waits)
                .where(
                    turn_waits.c.table_id == due.table_id,
                    turn_waits.c.seat == due.seat,
                    turn_waits.c.mailed.is_(None),
                    turn_waits.c.since <= waited_since,
                )
                .values(mailed=now())
            ).rowcount
        return bool(done)

    def untake_mail(self, due: Due) -> None:
        """The mail of ``due`` could not be sent: its turn is not mailed after all."""
        with self.engine.begin() as c:
            c.execute(
                update(turn_waits)
                .where(turn_waits.c.table_id == due.table_id, turn_waits.c.seat == due.seat)
                .values(mailed=None)
            )

    # --- addresses -------------------------------------------------------------------

    def mail_of(self, player_id: int) -> tuple[str | None, str]:
        """The player's address (None: none) and the language of their mail."""
        with self.engine.connect() as c:
            r = c.execute(
                select(player_mail.c.email, player_mail.c.lang).where(
                    player_mail.c.player_id == player_id
                )
            ).first()
        return (None, "en") if r is None else (r[0], str(r[1]))

    def set_mail(self, player_id: int, email: str | None, lang: str) -> None:
        for _attempt in range(3):
            try:
                with self.engine.begin() as c:
                    done = c.execute(
                        update(player_mail)
                        .where(player_mail.c.player_id == player_id)
                        .values(email=email, lang=lang)
                    ).rowcount
                    if not done:
                        c.execute(
                            insert(player_mail).values(player_id=player_id, email=email, lang=lang)
                        )
                return
            except IntegrityError:
                continue  # saved twice at once: the other's row is there now
