"""Tables that want players: open tables listed in the lobby, and rematches.

A table's creator may leave seats *open*: anyone takes one from the lobby with one click.
``open_tables`` lists the tables in play that have such a seat (with the language the
creator plays in); taking the last one takes the table off the list, in the same
transaction that seats the person (and, for a signed-in person, claims the seat for their
account). At the end of a match any of its people may ask to play again: the first asks
for a new table (``rematches`` ties the two, its key keeping two processes from making
two), whose seats wait for their people until each accepts. The functions here are
synchronous; the server calls them from worker threads.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Table,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from necropolis.server.accounts import seat_claims
from necropolis.server.clocks.store import table_clocks
from necropolis.server.db import (
    PLAYING,
    TableRow,
    _row,
    insert_table,
    metadata,
    moment,
    now,
    table_key,
    tables,
)
from necropolis.server.models import ClockSettings
from necropolis.server.ratings import rated_tables
from necropolis.server.seats import Seat, seats_json

open_tables = Table(
    "open_tables",
    metadata,
    table_key(),
    # The language the table's creator plays in (the page's, when they made it).
    Column("lang", String(8), nullable=False),
    Column("listed", DateTime(timezone=True), nullable=False, index=True),
)

seats_taken = Table(
    "seats_taken",
    metadata,
    table_key(),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    moment("at"),
)

rematches = Table(
    "rematches",
    metadata,
    table_key(),
    Column("next_id", String(32), ForeignKey("tables.id"), nullable=False),
    # The seats of the finished table whose people accepted to play again.
    Column("accepted", JSON, nullable=False),
    moment("at"),
)

#: The most open tables the lobby lists (the newest first).
LISTED_MOST = 100


@dataclass(frozen=True)
class Listed:
    """An open table as the lobby lists it."""

    row: TableRow
    lang: str
    clock: ClockSettings | None
    rated: bool


@dataclass(frozen=True)
class Claiming:
    """A seat an account claims with the change that seats it: the seat, the account, the
    seat's token (kept with the claim, see server/accounts.py)."""

    seat: int
    player_id: int
    token: str


class SeatTakenError(Exception):
    """Another person took the seat first (its claim is there already)."""


class Lobby:
    """Every read and write of open tables and rematches, on one engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- open tables ------------------------------------------------------------------

    def list_table(self, table_id: str, lang: str) -> None:
        """List a table just made, which has open seats, in the lobby."""
        with self.engine.begin() as c:
            c.execute(insert(open_tables).values(table_id=table_id, lang=lang, listed=now()))

    def listed(self) -> list[Listed]:
        """The open tables in play, newest first, with their clocks and whether rated."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(
                    tables,
                    open_tables.c.lang,
                    table_clocks.c.mode,
                    table_clocks.c.base,
                    table_clocks.c.increment,
                    table_clocks.c.turn,
                    table_clocks.c.rule,
                    table_clocks.c.level,
                    rated_tables.c.table_id.label("rated"),
                )
                .join(open_tables, open_tables.c.table_id == tables.c.id)
                .outerjoin(table_clocks, table_clocks.c.table_id == tables.c.id)
                .outerjoin(rated_tables, rated_tables.c.table_id == tables.c.id)
                .where(tables.c.status == PLAYING)
                .order_by(open_tables.c.listed.desc(), tables.c.id)
                .limit(LISTED_MOST)
            ).all()
        found = []
        for r in rows:
            clock = None
            if r.mode is not None:
                clock = ClockSettings.model_validate(
                    {
                        "mode": r.mode,
                        "base": r.base,
                        "increment": r.increment,
                        "turn": r.turn,
                        "rule": r.rule,
                        "level": r.level,
                    }
                )
            found.append(Listed(_row(r), str(r.lang), clock, r.rated is not None))
        return found

    def take(
        self,
        table_id: str,
        seat: int,
        seats: list[Seat],
        claiming: Claiming | None,
        began: datetime | None,
    ) -> bool:
        """Write the table's ``seats`` (a person just sat down at ``seat``, which waited),
        in one transaction with the seat's mark as taken, the claim of their account
        (``claiming``), the moment the match ``began`` (when no seat waits any more) and,
        once no seat is open, the table's going off the list. False when someone took the
        seat first (here or on another process)."""
        try:
            with self.engine.begin() as c:
                self._seat(c, table_id, seat, seats, claiming, began)
        except IntegrityError:
            return False
        return True

    @staticmethod
    def _seat(
        c: Any,
        table_id: str,
        seat: int,
        seats: list[Seat],
        claiming: Claiming | None,
        began: datetime | None,
    ) -> None:
        at = now()
        c.execute(insert(seats_taken).values(table_id=table_id, seat=seat, at=at))
        if claiming is not None:
            c.execute(
                insert(seat_claims).values(
                    table_id=table_id,
                    seat=claiming.seat,
                    player_id=claiming.player_id,
                    token=claiming.token,
                    claimed=now(),
                )
            )
        values: dict[str, Any] = {"seats": seats_json(seats), "updated": at}
        if began is not None:
            values["created"] = began
        c.execute(update(tables).where(tables.c.id == table_id).values(**values))
        if not any(s.open for s in seats):
            c.execute(delete(open_tables).where(open_tables.c.table_id == table_id))

    # --- rematches --------------------------------------------------------------------

    def again_of(self, table_id: str) -> tuple[str, list[int]] | None:
        """The table's rematch: the new table and the seats that accepted (None: none)."""
        with self.engine.connect() as c:
            r = c.execute(
                select(rematches.c.next_id, rematches.c.accepted).where(
                    rematches.c.table_id == table_id
                )
            ).first()
        return None if r is None else (str(r[0]), [int(s) for s in r[1]])

    def start_again(
        self, table_id: str, row: TableRow, accepted: list[int], claims: list[Claiming]
    ) -> bool:
        """Make ``row`` the rematch of ``table_id``, with the seats that ``accepted`` at
        once and the claims of the accounts whose seats wait for them, in one
        transaction. False when another process made its rematch first."""
        try:
            with self.engine.begin() as c:
                c.execute(insert_table(row))
                c.execute(
                    insert(rematches).values(
                        table_id=table_id, next_id=row.id, accepted=accepted, at=now()
                    )
                )
                for claim in claims:
                    c.execute(
                        insert(seat_claims).values(
                            table_id=row.id,
                            seat=claim.seat,
                            player_id=claim.player_id,
                            token=claim.token,
                            claimed=now(),
                        )
                    )
        except IntegrityError:
            return False
        return True

    def accept_again(
        self,
        table_id: str,
        accepted: list[int],
        next_id: str,
        seat: int,
        seats: list[Seat],
        began: datetime | None,
    ) -> bool:
        """A person of ``table_id`` accepted its rematch: the seats that accepted, and the
        rematch's seats with theirs (``seat``) taken, in one transaction. False when the
        seat was taken first."""
        try:
            with self.engine.begin() as c:
                c.execute(
                    update(rematches)
                    .where(rematches.c.table_id == table_id)
                    .values(accepted=accepted)
                )
                self._seat(c, next_id, seat, seats, None, began)
        except IntegrityError:
            return False
        return True
