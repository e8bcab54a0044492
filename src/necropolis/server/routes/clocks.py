"""The clocks' HTTP routes: a timed table's clocks, and a person taking their seat back
from the bot that stood in for them when their time ran out.

The clocks themselves travel in every ``state`` message (``clock``); the route here gives
the same to any holder of a table's token. Taking a seat back is the seat's own act: its
token (and, for a seat an account claimed, that account's session). :func:`settings_of`
gives a rematch its table's clock.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel

from necropolis.server.clocks import Clock, clock_data
from necropolis.server.errors import ERRORS, ApiError
from necropolis.server.live import LiveTable
from necropolis.server.models import ClockState
from necropolis.server.routes.common import authorised, authorised_seat, tables_of
from necropolis.server.service import stored

router = APIRouter()


class TableClock(BaseModel):
    #: Null for an untimed table.
    clock: ClockState | None


def _clock(live: LiveTable) -> TableClock:
    data = clock_data(live)
    return TableClock(clock=None if data is None else ClockState.model_validate(data))


async def settings_of(request: Request, live: LiveTable) -> dict[str, Any] | None:
    """The table's clock settings (for a rematch), or None for an untimed table."""
    clock = live.clock
    if isinstance(clock, Clock):
        return clock.settings.model_dump()
    found = await stored(tables_of(request).clocks.store.settings, live.id)
    return None if found is None else found.model_dump()


@router.get("/api/tables/{table_id}/clock", response_model=TableClock, responses=ERRORS)
async def table_clock(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> TableClock:
    live, _token = await authorised(request, table_id, authorization)
    return _clock(live)


@router.post(
    "/api/tables/{table_id}/seats/{seat}/back", response_model=TableClock, responses=ERRORS
)
async def take_back(
    request: Request,
    table_id: str,
    seat: int,
    authorization: Annotated[str | None, Header()] = None,
) -> TableClock:
    live, _token, own = await authorised_seat(request, table_id, authorization)
    if own is None or own != seat:
        raise ApiError(403, "not_your_seat", "Only the seat's own player may take it back.")
    refused = await tables_of(request).clocks.take_back(live, seat)
    if refused is not None:
        raise ApiError(409, refused.code, refused.message)
    return _clock(live)
