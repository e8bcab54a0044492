"""The ASGI application: HTTP routes, the table WebSocket, errors and the front-end.

:func:`create_app` builds a FastAPI application from :class:`Settings`; its lifespan
migrates the database, loads the tables in play (driving on any whose turn belongs to
chance or a bot) and starts the broker. Every error leaves as
``{"error": {"code", "message"}}`` with a plain sentence, never a traceback or SQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from pydantic import TypeAdapter, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from necropolis.engine.errors import NecropolisError, UnknownGameError
from necropolis.engine.protocol import Game
from necropolis.games import game_class, game_ids, load_game
from necropolis.server import db, filter, tokens
from necropolis.server.broker import make_broker
from necropolis.server.live import CLOSE, WAKE, Connection, LiveTable
from necropolis.server.models import (
    PERSON_TYPES,
    PROTOCOL,
    Act,
    ClientMessage,
    CreatedTable,
    CreateTable,
    ErrorBody,
    ErrorMessage,
    GameInfo,
    HandToBot,
    Health,
    Hello,
    OptionInfo,
    Pong,
    Refused,
    Replay,
    Rules,
    SeatInfo,
    TableSummary,
)
from necropolis.server.service import Tables, new_row, new_table_id

log = logging.getLogger("necropolis.server")

#: The largest WebSocket message a client may send, in bytes.
MAX_MESSAGE = 4096
#: The largest HTTP body, in bytes.
MAX_BODY = 65536
#: Messages a connection may send per second (a bucket refilled at this rate).
RATE = 20.0
#: Refused messages in a row, over the rate, after which the connection is closed.
FLOOD = 40
#: Seconds a new connection has to say hello.
HELLO_TIMEOUT = 30.0
#: Where the web front-end's build lands.
STATIC = Path(__file__).parent / "static"

_client_message: TypeAdapter[Any] = TypeAdapter(ClientMessage)


@dataclass
class Settings:
    """How to run: the database, the broker, the bot pool, the address (for messages)."""

    db_url: str
    redis_url: str | None = None
    bot_workers: int = 2
    host: str = "127.0.0.1"
    port: int = 8000
    #: The built front-end (``index.html`` and its assets).
    static_dir: Path = STATIC
    #: Called once the server is ready (the CLI prints its address).
    on_ready: list[Any] = field(default_factory=list)


class ApiError(Exception):
    """An error the client should see: a status, a code and a plain sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def error_response(status: int, code: str, message: str) -> JSONResponse:
    body = ErrorBody.model_validate({"error": {"code": code, "message": message}})
    return JSONResponse(body.model_dump(), status_code=status)


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 401, 403, 404, 409, 413, 422, 429)
}


class BodyLimit:
    """Refuse HTTP bodies larger than :data:`MAX_BODY` before reading them whole."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            length = headers.get(b"content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                response = error_response(413, "too_large", "The request body is too large.")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(settings: Settings) -> FastAPI:
    """The table server as an ASGI application."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(db.upgrade, settings.db_url)
        engine = db.make_engine(settings.db_url)
        tables = Tables(db.Store(engine), make_broker(settings.redis_url), settings.bot_workers)
        await tables.start()
        app.state.tables = tables
        for ready in settings.on_ready:
            ready()
        try:
            yield
        finally:
            await tables.close()
            engine.dispose()

    app = FastAPI(
        title="necropolis table",
        version=str(PROTOCOL),
        description="The table server of necropolis; the protocol is docs/protocol.md.",
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit)

    # --- errors ----------------------------------------------------------------------

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, "invalid", _validation_sentence(exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        message = {404: "There is nothing here.", 405: "That method is not allowed here."}
        return error_response(
            exc.status_code, code, message.get(exc.status_code, "The request failed.")
        )

    @app.exception_handler(Exception)
    async def crashed(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", exc_info=exc)
        return error_response(500, "internal", "Something went wrong on the server.")

    def tables_of(request: Request | WebSocket) -> Tables:
        found: Tables = request.app.state.tables
        return found

    # --- games -----------------------------------------------------------------------

    @app.get("/api/health", response_model=Health)
    async def health() -> Health:
        return Health(ok=True, protocol=PROTOCOL)

    @app.get("/api/games", response_model=list[GameInfo])
    async def games() -> list[GameInfo]:
        return [_game_info(game_id) for game_id in game_ids()]

    @app.get("/api/games/{game}/layout", responses=ERRORS)
    async def layout(game: str) -> dict[str, Any]:
        return _default_game(game).board_layout()

    @app.get("/api/games/{game}/messages", responses=ERRORS)
    async def messages(game: str) -> dict[str, str]:
        from necropolis.engine.language import KERNEL_MESSAGES

        return {**KERNEL_MESSAGES, **_default_game(game).messages}

    @app.get("/api/games/{game}/rules", response_model=Rules, responses=ERRORS)
    async def rules(game: str, lang: Annotated[str, Query(max_length=8)] = "en") -> Rules:
        loaded = _default_game(game)
        english = loaded.rules_summary("en")
        text = loaded.rules_summary(lang)
        language = lang if lang != "en" and text != english else "en"
        return Rules(language=language, markdown=text)

    # --- tables ----------------------------------------------------------------------

    @app.post("/api/tables", response_model=CreatedTable, responses=ERRORS)
    async def create_table(request: Request, body: CreateTable) -> CreatedTable:
        return await _create(tables_of(request), body)

    @app.get("/api/tables/mine", response_model=list[TableSummary], responses=ERRORS)
    async def mine(
        request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> list[TableSummary]:
        token = _bearer(authorization)
        rows = await asyncio.to_thread(tables_of(request).store.mine, tokens.token_hash(token))
        return [_summary(row) for row in rows]

    @app.get("/api/tables/{table_id}", response_model=TableSummary, responses=ERRORS)
    async def table(
        request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> TableSummary:
        live, token = await _authorised(tables_of(request), table_id, authorization)
        summary = _summary(live.row, version=live.version)
        summary.players = live.game.num_players
        if live.is_creator(token):
            _reveal_tokens(summary, token)
        return summary

    @app.post("/api/tables/{table_id}/rematch", response_model=CreatedTable, responses=ERRORS)
    async def rematch(
        request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> CreatedTable:
        live, token = await _authorised(tables_of(request), table_id, authorization, True)
        seats = live.row.seats
        turned = [seats[(k - 1) % len(seats)] for k in range(len(seats))]
        body = CreateTable.model_validate(
            {
                "game": live.row.game,
                "options": live.row.options,
                "seats": [
                    {"type": s["type"], "level": s.get("level"), "name": s.get("name")}
                    for s in turned
                ],
                "creator_token": token,
            }
        )
        return await _create(tables_of(request), body)

    @app.post(
        "/api/tables/{table_id}/seats/{seat}/bot", response_model=TableSummary, responses=ERRORS
    )
    async def hand_to_bot(
        request: Request,
        table_id: str,
        seat: int,
        body: HandToBot,
        authorization: Annotated[str | None, Header()] = None,
    ) -> TableSummary:
        service = tables_of(request)
        live, token = await _authorised(service, table_id, authorization, True)
        if not 0 <= seat < len(live.row.seats):
            raise ApiError(404, "no_such_seat", f"This table has no seat {seat}.")
        if live.state.is_terminal():
            raise ApiError(409, "finished", "This match is over.")
        await service.hand_to_bot(live, seat, body.level)
        summary = _summary(live.row, version=live.version)
        summary.players = live.game.num_players
        _reveal_tokens(summary, token)
        return summary

    @app.get("/api/tables/{table_id}/record", responses=ERRORS)
    async def record(
        request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> Response:
        live, _token = await _authorised(tables_of(request), table_id, authorization)
        _finished(live)
        data = filter.record(
            live.row.game,
            live.row.options,
            # The record's seats as the terminal plays them: a person, or the bot's level.
            [
                "human" if s["type"] != "bot" else str(s.get("level") or "medium")
                for s in live.row.seats
            ],
            [a for _, a in live.actions],
            live.row.created.isoformat(timespec="seconds"),
        )
        name = f"{live.row.game}-{live.id}.json"
        return Response(
            json.dumps(data, indent=1) + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get("/api/tables/{table_id}/replay", response_model=Replay, responses=ERRORS)
    async def replay(
        request: Request,
        table_id: str,
        step: Annotated[int, Query(ge=0)] = 0,
        seat: Annotated[int | None, Query(ge=0)] = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Replay:
        live, _token = await _authorised(tables_of(request), table_id, authorization)
        _finished(live)
        actions = [a for _, a in live.actions]
        if step > len(actions):
            raise ApiError(400, "bad_step", f"This match has {len(actions)} steps.")
        if seat is not None and seat >= live.game.num_players:
            raise ApiError(404, "no_such_seat", f"This table has no seat {seat}.")
        return await asyncio.to_thread(filter.replay, live.game, actions, step, seat)

    # --- the table's WebSocket -------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        await _serve_socket(tables_of(websocket), websocket, table_id)

    # --- the front-end ---------------------------------------------------------------

    @app.get("/{path:path}", include_in_schema=False)
    async def front_end(path: str) -> Response:
        if path.startswith(("api/", "ws/")) or path in ("api", "ws"):
            raise ApiError(404, "not_found", "There is nothing here.")
        static = settings.static_dir
        index = static / "index.html"
        if not index.is_file():
            return HTMLResponse(NOT_BUILT)
        if path:
            wanted = (static / path).resolve()
            if wanted.is_relative_to(static.resolve()) and wanted.is_file():
                return FileResponse(wanted)
        # Every other path is a page of the single-page application.
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    return app


NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>necropolis table</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>necropolis table</h1>
<p>The server is running, but the web front-end has not been built.</p>
<p>Build it with <code>scripts/setup</code> (it runs the front-end's build into
<code>src/necropolis/server/static/</code>), then reload this page.</p>
<p>The API answers at <a href="/api/docs">/api/docs</a>.</p>
</body></html>
"""


# --- helpers of the HTTP routes --------------------------------------------------------


def _validation_sentence(errors: Any) -> str:
    try:
        first = errors[0]
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return f"Invalid request: {where or 'body'}: {first.get('msg', 'not valid')}."
    except (IndexError, KeyError, TypeError, AttributeError):
        return "The request is not valid."


def _game_info(game_id: str) -> GameInfo:
    cls = game_class(game_id)
    options = []
    for option in cls.declared_options():
        choices = list(option.choices) if option.choices is not None else None
        minimum = maximum = None
        if option.kind is bool:
            kind = "bool"
        elif option.kind is int:
            kind = "int"
            if choices and all(isinstance(c, int) for c in choices):
                minimum, maximum = int(min(choices)), int(max(choices))
        else:
            kind = "choice" if choices else "text"
        options.append(
            OptionInfo(
                name=option.name,
                kind=kind,  # type: ignore[arg-type]
                default=option.default,
                choices=choices,
                minimum=minimum,
                maximum=maximum,
                help=option.help,
            )
        )
    return GameInfo(
        id=cls.id,
        title=cls.title,
        description=cls.description,
        min_players=cls.min_players,
        max_players=cls.max_players,
        default_players=cls.default_players,
        options=options,
        levels=["easy", "medium", "hard"],
    )


def _default_game(game_id: str) -> Game:
    try:
        return load_game(game_id)
    except UnknownGameError:
        raise ApiError(404, "no_such_game", f"There is no game called {game_id!r}.") from None


def _bearer(authorization: str | None) -> str:
    if not authorization:
        raise ApiError(401, "no_token", "This needs a token (Authorization: Bearer …).")
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > tokens.MAX_TOKEN_LENGTH:
        raise ApiError(401, "bad_token", "The token is not valid.")
    return token


async def _authorised(
    service: Tables, table_id: str, authorization: str | None, creator: bool = False
) -> tuple[LiveTable, str]:
    """The table and the token, if the token belongs to it (the creator's, if asked)."""
    token = _bearer(authorization)
    live = await service.get(table_id) if len(table_id) <= 32 else None
    if live is None:
        raise ApiError(404, "no_such_table", "There is no such table.")
    if creator:
        if not live.is_creator(token):
            known, _seat = live.who(token)
            if known:
                raise ApiError(403, "not_creator", "Only the table's creator may do this.")
            raise ApiError(401, "bad_token", "That token does not belong to this table.")
    else:
        known, _seat = live.who(token)
        if not known:
            raise ApiError(401, "bad_token", "That token does not belong to this table.")
    return live, token


def _finished(live: LiveTable) -> None:
    if not live.state.is_terminal():
        raise ApiError(409, "not_finished", "This match is still being played.")


def _summary(row: db.TableRow, version: int | None = None) -> TableSummary:
    return TableSummary(
        table_id=row.id,
        game=row.game,
        options=row.options,
        status="finished" if row.status == db.FINISHED else "playing",
        version=row.version if version is None else version,
        created=row.created,
        updated=row.updated,
        seats=[
            SeatInfo(seat=int(s["seat"]), type=s["type"], name=s.get("name"), level=s.get("level"))
            for s in row.seats
        ],
    )


def _reveal_tokens(summary: TableSummary, creator_token: str) -> None:
    for seat in summary.seats:
        if seat.type in PERSON_TYPES:
            seat.token = tokens.derived_token(
                creator_token, summary.table_id, tokens.seat_role(seat.seat)
            )
    summary.spectator_token = tokens.derived_token(
        creator_token, summary.table_id, tokens.SPECTATOR_ROLE
    )


async def _create(service: Tables, body: CreateTable) -> CreatedTable:
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
    creator_token = body.creator_token or tokens.new_token()
    table_id = new_table_id()
    seats: list[dict[str, Any]] = []
    answer: list[SeatInfo] = []
    for k, request in enumerate(body.seats):
        person = request.type in PERSON_TYPES
        level = None if person else (request.level or "medium")
        # No name given: null, which every client writes in its own language ("Player 2").
        name = (request.name or "").strip() or None
        token = (
            tokens.derived_token(creator_token, table_id, tokens.seat_role(k)) if person else None
        )
        seats.append(
            {
                "seat": k,
                "type": request.type,
                "name": name,
                "level": level,
                "token_hash": tokens.token_hash(token) if token else None,
            }
        )
        answer.append(SeatInfo(seat=k, type=request.type, name=name, level=level, token=token))
    spectator = tokens.derived_token(creator_token, table_id, tokens.SPECTATOR_ROLE)
    row = new_row(
        game.id,
        dict(game.options),
        seats,
        tokens.token_hash(creator_token),
        tokens.token_hash(spectator),
        table_id,
    )
    await service.create(row)
    return CreatedTable(
        table_id=table_id, creator_token=creator_token, seats=answer, spectator_token=spectator
    )


# --- the WebSocket ---------------------------------------------------------------------


async def _send_error(websocket: WebSocket, code: str, message: str) -> None:
    error = ErrorMessage.model_validate({"code": code, "message": message})
    with contextlib.suppress(Exception):
        await websocket.send_text(error.model_dump_json())
        await websocket.close(code=1008)


async def _serve_socket(service: Tables, websocket: WebSocket, table_id: str) -> None:
    try:
        raw = await asyncio.wait_for(websocket.receive_text(), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
        with contextlib.suppress(Exception):
            await websocket.close(code=1008)
        return
    hello = _parse(raw)
    if not isinstance(hello, Hello):
        await _send_error(websocket, "hello_expected", "Say hello first, with your token.")
        return
    live = await service.get(table_id) if len(table_id) <= 32 else None
    if live is None:
        await _send_error(websocket, "no_such_table", "There is no such table.")
        return
    known, seat = live.who(hello.token)
    if not known:
        await _send_error(websocket, "bad_token", "That token does not belong to this table.")
        return
    # In case another process moved the table on and its news has not arrived yet.
    await service.catch_up(live)
    since = hello.version if hello.version is not None and hello.version <= live.version else 0
    connection = Connection(seat=seat, version=since)
    live.connections.add(connection)
    live.tell()  # everyone sees the seat connected; this connection gets its first state
    writer = asyncio.create_task(_write(websocket, live, connection))
    try:
        await _read(service, websocket, live, connection)
    finally:
        live.connections.discard(connection)
        connection.put(CLOSE)
        live.tell()
        with contextlib.suppress(Exception):
            await writer


def _parse(raw: str) -> Hello | Act | Any | None:
    """The client's message as a model, or None when it is not one."""
    try:
        data = json.loads(raw)
        return _client_message.validate_python(data)
    except (ValueError, ValidationError):
        return None


async def _write(websocket: WebSocket, live: LiveTable, connection: Connection) -> None:
    """Send this connection's messages in order; states are built when they leave."""
    while True:
        item = await connection.take()
        if item == CLOSE:
            return
        if item == WAKE:
            version, text = filter.state_text(live, connection.seat, connection.version)
            connection.version = version
        else:
            text = item.model_dump_json()
        try:
            await websocket.send_text(text)
            if isinstance(item, ErrorMessage):
                await websocket.close(code=1008)
                return
        except Exception:
            return


async def _read(
    service: Tables, websocket: WebSocket, live: LiveTable, connection: Connection
) -> None:
    """Read the connection's messages until it closes; each act goes to the door."""
    allowance = RATE
    last = time.monotonic()
    over = 0
    while True:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        raw = message.get("text")
        if raw is None:
            data = message.get("bytes") or b""
            size = len(data)
        else:
            size = len(raw.encode("utf-8"))
        now = time.monotonic()
        allowance = min(RATE, allowance + (now - last) * RATE)
        last = now
        if allowance < 1.0:
            over += 1
            if over > FLOOD:
                # Through the outbox, so that the refusals already queued go first.
                flood = {"code": "protocol", "message": "Too many messages: closing."}
                connection.put(ErrorMessage.model_validate(flood))
                return
            _refuse(live, connection, "rate_limited", "Too many messages: slow down.")
            continue
        allowance -= 1.0
        over = 0
        if size > MAX_MESSAGE:
            _refuse(live, connection, "too_large", f"Messages are at most {MAX_MESSAGE} bytes.")
            continue
        parsed = _parse(raw) if raw is not None else None
        if isinstance(parsed, Act):
            if connection.seat is None:
                _refuse(live, connection, "not_your_turn", "A spectator does not play.")
                continue
            refused = await service.act(live, connection.seat, parsed.action, parsed.version)
            if refused is not None:
                _refuse(live, connection, refused.code, refused.message)
        elif parsed is not None and not isinstance(parsed, Hello):
            connection.put(Pong())
        else:
            _refuse(live, connection, "malformed", "That message is not one of the protocol's.")


def _refuse(live: LiveTable, connection: Connection, code: str, message: str) -> None:
    """Queue a refusal, then a state (the protocol's promise)."""
    refused = Refused.model_validate({"code": code, "message": message, "version": live.version})
    connection.put(refused)
    connection.wake()
