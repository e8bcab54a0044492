"""What every router of the table server shares: the way to the service and to the other
application-level stores, the token checks of a table's routes, and a table's summary.

Routes hold no service of their own: they reach it through the request (the lifespan puts
:class:`~necropolis.server.service.Tables` and the :class:`~necropolis.server.app.Settings`
on ``app.state``), and each store built on the service's engine (accounts, chat, ratings)
is made on first use by :func:`app_store`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from starlette.datastructures import State
from starlette.requests import HTTPConnection

from necropolis.server import db, tokens
from necropolis.server.errors import ApiError
from necropolis.server.live import LiveTable
from necropolis.server.models import SeatInfo, TableSummary
from necropolis.server.service import Tables, stored

if TYPE_CHECKING:
    from necropolis.server.app import Settings

T = TypeVar("T")


def tables_of(conn: HTTPConnection) -> Tables:
    """The service of this application's tables."""
    found: Tables = conn.app.state.tables
    return found


def settings_of(conn: HTTPConnection) -> Settings:
    """The settings the application was made with."""
    found: Settings = conn.app.state.settings
    return found


def app_store(conn: HTTPConnection, name: str, make: Callable[[State], T]) -> T:
    """The application-level object ``name`` on ``app.state``, made by ``make(state)`` on
    first use (after the lifespan has started the service whose engine it shares)."""
    state = conn.app.state
    found: T | None = getattr(state, name, None)
    if found is None:
        found = make(state)
        setattr(state, name, found)
    return found


def bearer(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer …`` header."""
    if not authorization:
        raise ApiError(401, "no_token", "This needs a token (Authorization: Bearer …).")
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > tokens.MAX_TOKEN_LENGTH:
        raise ApiError(401, "bad_token", "The token is not valid.")
    return token


async def authorised_seat(
    conn: HTTPConnection, table_id: str, authorization: str | None, creator: bool = False
) -> tuple[LiveTable, str, int | None]:
    """The table, the token and its seat (None: a spectator's), if the token belongs to
    the table (the creator's, if asked); a claimed seat's token only with its account."""
    token = bearer(authorization)
    live = await tables_of(conn).get(table_id) if len(table_id) <= 32 else None
    if live is None:
        raise ApiError(404, "no_such_table", "There is no such table.")
    known, seat = live.who(token)
    if creator:
        if not live.is_creator(token):
            if known:
                raise ApiError(403, "not_creator", "Only the table's creator may do this.")
            raise ApiError(401, "bad_token", "That token does not belong to this table.")
    else:
        if not known:
            raise ApiError(401, "bad_token", "That token does not belong to this table.")
        from necropolis.server.routes.accounts import admit

        refused = await admit(conn, live.id, seat, token)
        if refused is not None:
            raise ApiError(403, "claimed_seat", refused)
    return live, token, seat


async def authorised(
    conn: HTTPConnection, table_id: str, authorization: str | None, creator: bool = False
) -> tuple[LiveTable, str]:
    """The table and the token, if the token belongs to it (see :func:`authorised_seat`)."""
    live, token, _seat = await authorised_seat(conn, table_id, authorization, creator)
    return live, token


async def with_deadlines(service: Tables, summaries: list[TableSummary]) -> None:
    """Fill in the next deadline of the timed tables in play among ``summaries``."""
    playing = [s.table_id for s in summaries if s.status == "playing"]
    if not playing:
        return
    found = await stored(service.clocks.store.deadlines, playing)
    for summary in summaries:
        summary.deadline = found.get(summary.table_id)


def table_summary(row: db.TableRow, version: int | None = None) -> TableSummary:
    """A table as the API describes it, without its tokens."""
    return TableSummary(
        table_id=row.id,
        game=row.game,
        options=row.options,
        status="finished" if row.status == db.FINISHED else "playing",
        version=row.version if version is None else version,
        created=row.created,
        updated=row.updated,
        seats=[
            SeatInfo(
                seat=s.seat,
                type=s.type,
                name=s.shown_name,
                level=s.level,
                account=s.account is not None,
                waiting=s.waiting,
                open=s.open,
            )
            for s in row.seats
        ],
    )
