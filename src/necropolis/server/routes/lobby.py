"""The lobby's HTTP routes: open tables, taking a seat at one, and playing again.

``/api/lobby``: the open tables in play (a seat anyone may take), newest first;
``/api/tables/{id}/join``: take a free seat of one, as a guest or with one's account;
``/api/tables/{id}/again``: at a finished table, ask to play again (the first to ask makes
the rematch, whose seats then wait for their people) or accept. Each answer gives the
person their new seat's token, theirs alone. The seats change through the table's door
(:mod:`necropolis.server.service.door`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request

from necropolis.bots.levels import DEFAULT_LEVEL
from necropolis.server import tokens
from necropolis.server.accounts import MAX_NAME
from necropolis.server.errors import ERRORS, ApiError
from necropolis.server.live import Again as AgainMade
from necropolis.server.live import LiveTable
from necropolis.server.lobby import Claiming
from necropolis.server.models import Again, ClockSettings, Join, OpenTable, Seated
from necropolis.server.routes import accounts as account_routes
from necropolis.server.routes import clocks as clock_routes
from necropolis.server.routes import ratings as rating_routes
from necropolis.server.routes.common import authorised_seat, table_summary, tables_of
from necropolis.server.seats import Seat
from necropolis.server.service import Refusal, Tables, new_row, new_table_id, stored
from necropolis.server.written import clean_name

router = APIRouter()


@router.get("/api/lobby", response_model=list[OpenTable], responses=ERRORS)
async def open_tables(request: Request) -> list[OpenTable]:
    found = await stored(tables_of(request).door.lobby.listed)
    listed = []
    for table in found:
        free = sum(1 for s in table.row.seats if s.open)
        if not free:
            continue  # (its last open seat was handed to a bot)
        listed.append(
            OpenTable(
                table_id=table.row.id,
                game=table.row.game,
                options=table.row.options,
                players=len(table.row.seats),
                seats=table_summary(table.row).seats,
                free=free,
                clock=table.clock,
                rated=table.rated,
                lang=table.lang,
                created=table.row.created,
            )
        )
    return listed


@router.post("/api/tables/{table_id}/join", response_model=Seated, responses=ERRORS)
async def join(request: Request, table_id: str, body: Join) -> Seated:
    service = tables_of(request)
    live = await service.get(table_id) if len(table_id) <= 32 else None
    if live is None:
        raise ApiError(404, "no_such_table", "There is no such table.")
    player = await account_routes.signed_in(request, for_writing=True)
    if player is None and await stored(rating_routes.ratings_of(request).is_rated, live.id):
        raise ApiError(
            401, "not_signed_in", "A rated table is played with accounts: sign in to join it."
        )
    name = None
    if player is None and body.name is not None:
        name = clean_name(body.name) or None
        if name is not None and len(name) > MAX_NAME:
            raise ApiError(400, "bad_name", f"A name has 1 to {MAX_NAME} characters.")
    token = tokens.new_token()
    seat = await service.door.join(live, token, name, player)
    if isinstance(seat, Refusal):
        raise ApiError(409, seat.code, seat.message)
    if player is not None:
        account_routes.claimed(request, live.id)
    return Seated(table_id=live.id, seat=seat, token=token)


@router.post("/api/tables/{table_id}/again", response_model=Seated, responses=ERRORS)
async def again(
    request: Request,
    table_id: str,
    body: Again,
    authorization: Annotated[str | None, Header()] = None,
) -> Seated:
    live, _token, seat = await authorised_seat(request, table_id, authorization)
    if seat is None:
        raise ApiError(403, "not_your_seat", "Only a player of the match may play again.")
    if not live.over:
        raise ApiError(409, "not_finished", "This match is still being played.")
    service = tables_of(request)
    made = live.again
    if made is None:
        found = await stored(service.door.lobby.again_of, live.id)
        made = None if found is None else AgainMade(found[0], tuple(found[1]))
    if made is None:
        seated = await _make_again(request, service, live, seat, body.creator_token)
        if seated is not None:
            return seated
        # Another process made it first: accept it.
        found = await stored(service.door.lobby.again_of, live.id)
        assert found is not None
        made = AgainMade(found[0], tuple(found[1]))
    return await _accept(request, service, live, seat, made)


def _next_seat(live: LiveTable, seat: int) -> int:
    """Where the person of ``seat`` sits at the rematch: one place round (seat 0's at
    seat 1, …, the last seat's at seat 0), as the creator's rematch turns them."""
    return (seat + 1) % len(live.row.seats)


async def _make_again(
    request: Request, service: Tables, live: LiveTable, asker: int, creator_token: str | None
) -> Seated | None:
    """Make the rematch of ``live``, asked for by its seat ``asker``, who sits down at
    once; None if another process made it first."""
    made_token = creator_token is None
    creator = creator_token or tokens.new_token()
    table_id = new_table_id()
    count = len(live.row.seats)
    seats: list[Seat] = []
    claims: list[Claiming] = []
    accepted: list[int] = []
    token = ""
    for k in range(count):
        old = live.row.seats[(k - 1) % count]
        if not old.person:
            # A bot accepts at once.
            seats.append(Seat(k, "bot", level=old.level or DEFAULT_LEVEL))
            accepted.append(old.seat)
            continue
        mine = old.seat == asker
        own = tokens.new_token() if mine or old.account is not None else None
        if old.account is not None:
            # The account's seat waits for them with its token kept in their claim: the
            # table is in their "my tables", and their notices say it waits for them.
            found = await stored(service.door.accounts.by_name, old.account)
            if found is not None and own is not None:
                claims.append(Claiming(k, found[0].id, own))
        seats.append(
            Seat(
                k,
                old.type,
                name=old.name,
                token_hash=None if own is None else tokens.token_hash(own),
                own_token=True,
                account=old.account,
                waiting=not mine,
            )
        )
        if mine and own is not None:
            token = own
            accepted.append(old.seat)
    spectator = tokens.derived_token(creator, table_id, tokens.SPECTATOR_ROLE)
    row = new_row(
        live.row.game,
        dict(live.row.options),
        seats,
        tokens.token_hash(creator),
        tokens.token_hash(spectator),
        table_id,
    )
    settings = await clock_routes.settings_of(request, live)
    clock = None if settings is None else ClockSettings.model_validate(settings)
    if not await stored(service.door.lobby.start_again, live.id, row, sorted(accepted), claims):
        return None
    await service.memory.adopt(row, clock, hints=live.hints)
    if await stored(rating_routes.ratings_of(request).is_rated, live.id):
        persons = [s.seat for s in seats if s.person]
        await stored(rating_routes.ratings_of(request).mark, table_id, row.game, persons)
    if claims:
        account_routes.claimed(request, table_id)
    service.door.again(live, AgainMade(table_id, tuple(sorted(accepted))))
    return Seated(
        table_id=table_id,
        seat=_next_seat(live, asker),
        token=token,
        creator_token=creator if made_token else None,
        made=True,
    )


async def _accept(
    request: Request, service: Tables, live: LiveTable, seat: int, made: AgainMade
) -> Seated:
    """The person of ``seat`` accepts the rematch ``made`` and sits down there."""
    following = await service.get(made.table)
    if following is None:
        raise ApiError(404, "no_such_table", "The rematch is gone.")
    place = _next_seat(live, seat)
    waiting = following.row.seats[place]
    if not waiting.waiting:
        raise ApiError(409, "already_seated", "You accepted already: open the rematch.")
    token: str | None = None
    if waiting.account is None:
        token = tokens.new_token()
    accepted = sorted({*made.seats, seat})
    if not await service.door.accept(following, place, token, live.id, lambda: accepted):
        raise ApiError(409, "already_seated", "You accepted already: open the rematch.")
    if token is None:
        claim = await stored(service.door.accounts.claim_of, following.id, place)
        if claim is None:
            raise ApiError(409, "already_seated", "You accepted already: open the rematch.")
        token = claim.token
    service.door.again(live, AgainMade(following.id, tuple(accepted)))
    return Seated(table_id=following.id, seat=place, token=token)
