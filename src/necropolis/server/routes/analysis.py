"""A finished match's analysis over HTTP, and a seat's hint over its WebSocket.

``GET /api/tables/{id}/analysis``: where the analysis of a finished match stands, and the
analysis once made (the first ask queues it: see :mod:`necropolis.server.analyses`);
``POST`` the same with ``{"worlds": N}`` asks for a deeper one. Anyone who may see the
table's record may see its analysis: it tells no more than the record does.

:func:`give_hint` answers a seat's ``hint`` message (:mod:`.socket`): at a table that
allows hints, for the seat whose turn it is, its three best moves from its own window,
sent to that connection alone, and noted for every viewer.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field, StrictInt

from necropolis.server.analyses import (
    DEFAULT_WORLDS,
    DONE,
    FAILED,
    MAX_WORLDS,
    QUEUED,
    RUNNING,
    AnalysisRow,
)
from necropolis.server.bots import BotPoolError
from necropolis.server.db import now
from necropolis.server.errors import ERRORS, ApiError
from necropolis.server.live import Connection, LiveTable
from necropolis.server.models import Hint, HintMove, Strict
from necropolis.server.ratings import Ratings
from necropolis.server.routes.common import authorised, tables_of
from necropolis.server.service import Refusal, Tables, stored

router = APIRouter()


class AnalysisState(BaseModel):
    """Where a finished match's analysis stands: ``queued``, ``running`` (``done`` of
    ``total`` moments weighed), ``done`` or ``failed`` (``error`` says why); ``analysis``
    is the last one made (``necropolis analyse --json``'s form), kept while a deeper one
    is made, null before the first."""

    status: Literal["queued", "running", "done", "failed"]
    worlds: int
    done: int
    total: int
    error: str | None
    analysis: dict[str, Any] | None


class DeeperAnalysis(Strict):
    """Ask for an analysis with more worlds a moment (slower, steadier)."""

    worlds: Annotated[StrictInt, Field(ge=1, le=MAX_WORLDS)]


def check_unhinted(hints: bool) -> None:
    """Refuse a rated table that would give hints."""
    if hints:
        raise ApiError(400, "rated_hints", "A rated table gives no hints.")


def _state(row: AnalysisRow) -> AnalysisState:
    return AnalysisState(
        status=row.status,  # type: ignore[arg-type]
        worlds=row.worlds,
        done=row.done,
        total=row.total,
        error=row.error,
        analysis=row.data,
    )


def _analysable(live: LiveTable) -> None:
    if not live.over:
        raise ApiError(409, "not_finished", "This match is still being played.")
    if not live.state.is_terminal():
        raise ApiError(
            409, "no_result", "This match was abandoned before its end: it has no result."
        )


def _players(live: LiveTable) -> list[str]:
    """The seats as a match record names them (a person, or the bot's level)."""
    return ["human" if s.person else str(s.level) for s in live.row.seats]


async def _start(service: Tables, live: LiveTable, worlds: int, seen: AnalysisRow | None) -> None:
    """Claim the table's analysis at ``worlds`` and make it here, unless another process
    claimed it first."""
    if await stored(service.analyses.claim, live.id, worlds, seen):
        await service.analysis_runner.start(live, _players(live), worlds)


@router.get("/api/tables/{table_id}/analysis", response_model=AnalysisState, responses=ERRORS)
async def analysis(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> AnalysisState:
    live, _token = await authorised(request, table_id, authorization)
    _analysable(live)
    service = tables_of(request)
    row = await stored(service.analyses.get, live.id)
    if row is None or (row.stale(now()) and not service.analysis_runner.queued(live.id)):
        await _start(service, live, row.worlds if row is not None else DEFAULT_WORLDS, row)
        row = await stored(service.analyses.get, live.id)
        assert row is not None
    return _state(row)


@router.post("/api/tables/{table_id}/analysis", response_model=AnalysisState, responses=ERRORS)
async def deeper(
    request: Request,
    table_id: str,
    body: DeeperAnalysis,
    authorization: Annotated[str | None, Header()] = None,
) -> AnalysisState:
    live, _token = await authorised(request, table_id, authorization)
    _analysable(live)
    service = tables_of(request)
    row = await stored(service.analyses.get, live.id)
    busy = row is not None and row.status in (QUEUED, RUNNING) and not row.stale(now())
    if busy:
        raise ApiError(409, "analysing", "This match's analysis is being made: wait for it.")
    if row is None or row.status == FAILED or (row.status == DONE and body.worlds > row.worlds):
        await _start(service, live, body.worlds, row)
        row = await stored(service.analyses.get, live.id)
    assert row is not None
    return _state(row)


async def give_hint(
    service: Tables, live: LiveTable, connection: Connection, version: int
) -> Refusal | None:
    """Send the connection's seat its hint, or say why not."""
    seat = connection.seat
    if seat is None:
        return Refusal("no_hints", "A spectator is given no hints.")
    if not live.hints:
        return Refusal("no_hints", "This table gives no hints.")
    if live.over:
        return Refusal("finished", "This match is over.")
    if version != live.version:
        return Refusal("stale_version", "The table has moved on: look again.")
    position = live.position(seat)
    if seat not in position.acting_seats() or live.is_bot(seat):
        return Refusal("not_your_turn", "A hint is for a seat whose turn it is.")
    if await stored(Ratings(service.store.engine, service.store).is_rated, live.id):
        return Refusal("no_hints", "A rated table gives no hints.")
    turn = live.turns.get(seat)
    actions = [a for _, a in live.actions] + (list(turn.actions) if turn is not None else [])
    try:
        best = await service.thinker.hints(live.row.game, dict(live.row.options), actions, seat)
    except BotPoolError:
        return Refusal("unavailable", "No hint could be worked out now: try again.")
    # Noted before it is sent: a hint is never had without every viewer being told.
    at = live.version
    number = len(live.hints_used)
    while not await stored(service.analyses.note_hint, live.id, number, seat, at):
        number += 1  # another process noted one under that number first
    moves = [
        HintMove.model_validate(
            {"action": action, "chance": round(chance, 4), "info": position.action_info(action)}
        )
        for action, chance in best
    ]
    connection.put(Hint(version=at, moves=moves))
    # (through the table's door: every viewer is shown that a hint was given)
    service.door.hinted(live, seat, at)
    return None
