"""The tables' HTTP routes: everything done to a table over HTTP but playing it.

``/api/tables``: create one (its tokens derived from the creator's, answered once);
``/api/tables/mine``: the creator's tables; ``/api/tables/{id}``: its summary (with the
tokens, for its creator); ``/rematch``, ``/seats/{seat}/bot`` (hand a seat to a bot) and
``/seats/{seat}/link`` (a seat's new link), for the creator; ``/record`` and ``/replay``
of a finished (or abandoned) match. A table's clock is made with it (:mod:`.clocks`).
Play itself goes over the WebSocket (:mod:`.socket`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any, cast

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import Response

from necropolis.bots.levels import DEFAULT_LEVEL
from necropolis.engine.errors import NecropolisError, UnknownGameError
from necropolis.games import game_class
from necropolis.server import db, filter, tokens
from necropolis.server.accounts import MAX_NAME, Player
from necropolis.server.clocks import ClockError, Clocks
from necropolis.server.errors import ERRORS, ApiError
from necropolis.server.live import LiveTable
from necropolis.server.models import (
    PERSON_TYPES,
    CreatedTable,
    CreateTable,
    HandToBot,
    Replay,
    SeatInfo,
    SeatName,
    TableSummary,
)
from necropolis.server.routes import accounts as account_routes
from necropolis.server.routes import analysis as analysis_routes
from necropolis.server.routes import clocks as clock_routes
from necropolis.server.routes import ratings as rating_routes
from necropolis.server.routes.common import (
    authorised,
    authorised_seat,
    bearer,
    table_summary,
    tables_of,
    with_deadlines,
)
from necropolis.server.seats import Seat, SeatType
from necropolis.server.service import Tables, new_row, new_table_id, stored
from necropolis.server.written import clean_name

router = APIRouter()


@router.post("/api/tables", response_model=CreatedTable, responses=ERRORS)
async def create_table(request: Request, body: CreateTable) -> CreatedTable:
    if body.rated:
        rating_routes.check_timed(body.clock)
        analysis_routes.check_unhinted(body.hints)
    player = await account_routes.signed_in(request, for_writing=True)
    created = await _create(tables_of(request), body, player)
    await account_routes.claim_created(request, created, player)
    if any(s.type == "invite" for s in body.seats):
        account_routes.claimed(request, created.table_id)
    if body.rated:
        # Marked in the same request, so that a bot that moves first cannot make it late.
        await rating_routes.mark(request, created.table_id, body)
    return created


@router.get("/api/tables/mine", response_model=list[TableSummary], responses=ERRORS)
async def mine(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> list[TableSummary]:
    token = bearer(authorization)
    service = tables_of(request)
    rows = await stored(service.store.mine, tokens.token_hash(token))
    summaries = [table_summary(row) for row in rows]
    await with_deadlines(service, summaries)
    return summaries


@router.get("/api/tables/{table_id}", response_model=TableSummary, responses=ERRORS)
async def table(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> TableSummary:
    live, token = await authorised(request, table_id, authorization)
    return _summary(live, token, creator=live.is_creator(token))


@router.post("/api/tables/{table_id}/rematch", response_model=CreatedTable, responses=ERRORS)
async def rematch(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> CreatedTable:
    live, token = await authorised(request, table_id, authorization, True)
    seats = live.row.seats
    turned = [seats[(k - 1) % len(seats)] for k in range(len(seats))]
    body = CreateTable.model_validate(
        {
            "game": live.row.game,
            "options": live.row.options,
            "seats": [{"type": s.type, "level": s.level, "name": s.name} for s in turned],
            "creator_token": token,
            "clock": await clock_routes.settings_of(request, live),
            "hints": live.hints,
        }
    )
    player = await account_routes.signed_in(request, for_writing=True)
    created = await _create(tables_of(request), body, player)
    await account_routes.claim_created(request, created, player)
    return created


@router.post(
    "/api/tables/{table_id}/seats/{seat}/bot", response_model=TableSummary, responses=ERRORS
)
async def hand_to_bot(
    request: Request,
    table_id: str,
    seat: int,
    body: HandToBot,
    authorization: Annotated[str | None, Header()] = None,
) -> TableSummary:
    live, token = await _creators_seat(request, table_id, seat, authorization)
    await tables_of(request).door.hand_to_bot(live, seat, body.level)
    return _summary(live, token, creator=True)


@router.post(
    "/api/tables/{table_id}/seats/{seat}/link", response_model=TableSummary, responses=ERRORS
)
async def new_link(
    request: Request,
    table_id: str,
    seat: int,
    authorization: Annotated[str | None, Header()] = None,
) -> TableSummary:
    live, token = await _creators_seat(request, table_id, seat, authorization, person=True)
    fresh = await tables_of(request).door.new_link(live, seat, token)
    await account_routes.relinked(request, live.id, seat, fresh)
    return _summary(live, token, creator=True)


@router.post(
    "/api/tables/{table_id}/seats/{seat}/name", response_model=TableSummary, responses=ERRORS
)
async def name_seat(
    request: Request,
    table_id: str,
    seat: int,
    body: SeatName,
    authorization: Annotated[str | None, Header()] = None,
) -> TableSummary:
    """The guest at seat ``seat`` (its own token) chooses the name it shows."""
    live, token, own = await authorised_seat(request, table_id, authorization)
    if own is None or own != seat:
        raise ApiError(403, "not_your_seat", "Only the seat's own player may name it.")
    if live.row.seats[seat].account is not None:
        raise ApiError(409, "account_seat", "This seat shows the name of the account holding it.")
    if live.over:
        raise ApiError(409, "finished", "This match is over.")
    name = clean_name(body.name)
    if not name or len(name) > MAX_NAME:
        raise ApiError(400, "bad_name", f"A name has 1 to {MAX_NAME} characters.")
    await tables_of(request).door.rename(live, seat, name)
    return _summary(live, token, creator=False)


@router.get("/api/tables/{table_id}/record", responses=ERRORS)
async def record(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> Response:
    live, _token = await authorised(request, table_id, authorization)
    _finished(live)
    data = filter.record(
        live.row.game,
        live.row.options,
        # The record's seats as the terminal plays them: a person, or the bot's level.
        ["human" if s.person else str(s.level or DEFAULT_LEVEL) for s in live.row.seats],
        [a for _, a in live.actions],
        live.row.created.isoformat(timespec="seconds"),
        [s.shown_name for s in live.row.seats],
    )
    name = f"{live.row.game}-{live.id}.json"
    return Response(
        json.dumps(data, indent=1) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/api/tables/{table_id}/replay", response_model=Replay, responses=ERRORS)
async def replay(
    request: Request,
    table_id: str,
    step: Annotated[int, Query(ge=0)] = 0,
    seat: Annotated[int | None, Query(ge=0)] = None,
    authorization: Annotated[str | None, Header()] = None,
) -> Replay:
    live, _token, yours = await authorised_seat(request, table_id, authorization)
    _finished(live)
    actions = [a for _, a in live.actions]
    if step > len(actions):
        raise ApiError(400, "bad_step", f"This match has {len(actions)} steps.")
    if seat is not None and seat >= live.game.num_players:
        raise ApiError(404, "no_such_seat", f"This table has no seat {seat}.")
    actors = [who for who, _ in live.actions]
    shown = await asyncio.to_thread(filter.replay, live.game, actions, step, seat, actors)
    shown.yours = yours
    return shown


async def _creators_seat(
    request: Request,
    table_id: str,
    seat: int,
    authorization: str | None,
    *,
    person: bool = False,
) -> tuple[LiveTable, str]:
    """The table and the creator's token, for a change to seat ``seat`` of a match in
    play (``person``: one a person plays) that no other account holds; refused
    otherwise."""
    live, token = await authorised(request, table_id, authorization, True)
    if not 0 <= seat < len(live.row.seats):
        raise ApiError(404, "no_such_seat", f"This table has no seat {seat}.")
    if person and live.is_bot(seat):
        raise ApiError(409, "bot_seat", "A bot plays this seat: it has no link.")
    if live.over:
        raise ApiError(409, "finished", "This match is over.")
    await account_routes.check_creators_change(request, live.id, seat)
    return live, token


def _summary(live: LiveTable, token: str, *, creator: bool) -> TableSummary:
    """The table's summary as it stands, with the seats' tokens for its creator."""
    summary = table_summary(live.row, version=live.version)
    summary.players = live.game.num_players
    if creator:
        _reveal_tokens(summary, token, live.row)
    return summary


def _finished(live: LiveTable) -> None:
    if not live.over:
        raise ApiError(409, "not_finished", "This match is still being played.")


def _reveal_tokens(summary: TableSummary, creator_token: str, row: db.TableRow) -> None:
    for seat in summary.seats:
        # (a seat taken from the lobby, or at a rematch, has its person's own token)
        if seat.type in PERSON_TYPES and not row.seats[seat.seat].own_token:
            generation = row.seats[seat.seat].link
            seat.token = tokens.derived_token(
                creator_token, summary.table_id, tokens.seat_role(seat.seat, generation)
            )
    summary.spectator_token = tokens.derived_token(
        creator_token, summary.table_id, tokens.SPECTATOR_ROLE
    )


async def _create(service: Tables, body: CreateTable, player: Player | None) -> CreatedTable:
    """Make the table ``body`` asks for; a signed-in creator (``player``) holds its ``me``
    seat with their account, whose name it shows from the start."""
    try:
        cls = game_class(body.game)
    except UnknownGameError:
        raise ApiError(404, "no_such_game", f"There is no game called {body.game!r}.") from None
    options: dict[str, Any] = dict(body.options)
    options.setdefault("players", len(body.seats))
    try:
        game = cls(**options)
    except NecropolisError as exc:
        raise ApiError(400, "bad_options", str(exc)) from None
    if game.num_players != len(body.seats):
        raise ApiError(
            400, "bad_seats", f"{game.num_players} players need {game.num_players} seats."
        )
    try:
        Clocks.check(game.id, body.clock)
    except ClockError as exc:
        raise ApiError(400, "bad_clock", str(exc)) from None
    creator_token = body.creator_token or tokens.new_token()
    table_id = new_table_id()
    invited = await _invited(service, body, player)
    seats: list[Seat] = []
    answer: list[SeatInfo] = []
    for k, request in enumerate(body.seats):
        person = request.type != "bot"
        level = None if person else (request.level or DEFAULT_LEVEL)
        # No name given: null, which every client writes in its own language ("Player 2").
        name = clean_name(request.name or "") or None
        # An open seat's token is made for whoever takes it: nobody has it before.
        token = (
            tokens.derived_token(creator_token, table_id, tokens.seat_role(k))
            if person and request.type != "open"
            else None
        )
        # The first "me" seat is the one a signed-in creator's account claims (see
        # claim_created): it shows the account's name from the start.
        mine = request.type == "me" and not any(s.type == "me" for s in seats)
        account = player.name if mine and player is not None else None
        if request.type == "invite":
            account, name = invited[k].name, None
        seat = Seat(
            seat=k,
            # (an open seat, and an invited one, is a friend's seat that waits for them)
            type="link" if request.type in ("open", "invite") else cast(SeatType, request.type),
            name=None if request.type == "open" else name,
            level=level,
            token_hash=tokens.token_hash(token) if token else None,
            account=account,
            waiting=request.type in ("open", "invite"),
            open=request.type == "open",
            own_token=request.type == "open",
        )
        seats.append(seat)
        answer.append(
            SeatInfo(
                seat=k,
                type=seat.type,
                name=seat.shown_name,
                level=level,
                token=token,
                account=seat.account is not None,
                waiting=seat.waiting,
                open=seat.open,
            )
        )
    spectator = tokens.derived_token(creator_token, table_id, tokens.SPECTATOR_ROLE)
    row = new_row(
        game.id,
        dict(game.options),
        seats,
        tokens.token_hash(creator_token),
        tokens.token_hash(spectator),
        table_id,
    )
    await service.memory.create(row, body.clock, hints=body.hints)
    for k, who in invited.items():
        # The invited account holds its seat from the start: the table is in their "my
        # tables", and their notices say it waits for them.
        token = answer[k].token
        assert token is not None
        await stored(service.door.accounts.claim, table_id, k, who.id, token)
    if any(s.open for s in seats):
        await stored(service.door.lobby.list_table, table_id, body.lang)
    return CreatedTable(
        table_id=table_id, creator_token=creator_token, seats=answer, spectator_token=spectator
    )


async def _invited(service: Tables, body: CreateTable, player: Player | None) -> dict[int, Player]:
    """The accounts invited by name to ``body``'s seats, by seat: each must exist, and be
    neither the creator nor invited twice."""
    found: dict[int, Player] = {}
    for k, request in enumerate(body.seats):
        if request.type != "invite":
            continue
        known = await stored(service.door.accounts.by_name, request.name or "")
        if known is None:
            raise ApiError(404, "no_such_player", f"There is no player called {request.name!r}.")
        who = known[0]
        if player is not None and who.id == player.id:
            raise ApiError(400, "bad_seats", "You have your own seat: invite someone else.")
        if any(other.id == who.id for other in found.values()):
            raise ApiError(400, "bad_seats", f"{who.name} is invited to one seat only.")
        found[k] = who
    return found
