"""The table's WebSocket, ``/ws/tables/{table_id}``: where a table is played and watched.

A connection says hello with its token within :data:`HELLO_TIMEOUT` seconds, is admitted
(the limits per address and per table counted), gets the table's state filtered for its
seat, then sends acts, undos and commits, each through the service's door, and asks
for pages of the log's older entries. Messages are
bounded in size (:data:`MAX_MESSAGE`) and in rate (:data:`RATE`, closing a flood); every
refusal is followed by a state, as the protocol promises (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from typing import Any, assert_never, get_args

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError

from necropolis.server import db, filter, tokens
from necropolis.server.live import CLOSE, WAKE, Connection, LiveTable, LogAsked
from necropolis.server.models import (
    Act,
    ClientMessage,
    Commit,
    ErrorMessage,
    Hello,
    HintRequest,
    LogRequest,
    Ping,
    Pong,
    Refused,
    Undo,
)
from necropolis.server.routes.analysis import give_hint
from necropolis.server.routes.common import settings_of, tables_of
from necropolis.server.service import UNAVAILABLE, Tables

#: The largest WebSocket message a client may send, in bytes.
MAX_MESSAGE = 4096
#: Messages a connection may send per second (a bucket refilled at this rate).
RATE = 20.0
#: Refused messages in a row, over the rate, after which the connection is closed.
FLOOD = 40
#: Seconds a new connection has to say hello.
HELLO_TIMEOUT = 30.0

_client_message: TypeAdapter[Any] = TypeAdapter(ClientMessage)
#: The types of message a client sends, as a refusal lists them.
_MESSAGE_TYPES = tuple(
    get_args(model.model_fields["type"].annotation)[0]
    for model in get_args(get_args(ClientMessage)[0])
)

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    await websocket.accept()
    addresses: Counter[str] = websocket.app.state.addresses
    address = websocket.client.host if websocket.client is not None else ""
    limit = settings_of(websocket).max_address_connections
    if limit and addresses[address] >= limit:
        await _send_error(
            websocket,
            "too_many_connections",
            f"Too many connections from your address (at most {limit}).",
        )
        return
    addresses[address] += 1
    try:
        await _serve_socket(
            tables_of(websocket), websocket, table_id, settings_of(websocket).max_table_connections
        )
    finally:
        addresses[address] -= 1
        if addresses[address] <= 0:
            del addresses[address]


async def _send_error(websocket: WebSocket, code: str, message: str) -> None:
    error = ErrorMessage.model_validate({"code": code, "message": message})
    with contextlib.suppress(Exception):
        await websocket.send_text(error.model_dump_json())
        await websocket.close(code=1008)


async def _serve_socket(
    service: Tables, websocket: WebSocket, table_id: str, table_limit: int
) -> None:
    while True:
        try:
            raw = await asyncio.wait_for(websocket.receive_text(), HELLO_TIMEOUT)
        except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
            with contextlib.suppress(Exception):
                await websocket.close(code=1008)
            return
        if len(raw.encode("utf-8")) > MAX_MESSAGE:
            await _send_error(websocket, "too_large", f"Messages are at most {MAX_MESSAGE} bytes.")
            return
        hello = _parse(raw)
        if not isinstance(hello, Hello):
            await _send_error(websocket, "hello_expected", "Say hello first, with your token.")
            return
        try:
            # The table, and whether this seat is the token holder's to take (its claim
            # and the cookie's account): each a bounded call to the database.
            found = await _admitted(service, websocket, table_id, hello)
            break
        except Exception as exc:
            if not db.storage_failed(exc):
                raise
            # The database does not answer what admitting needs (the table, not in
            # memory; a seat's claim, not yet known to this process): the client is told
            # so, and says hello again a moment later on the same connection.
            service.failed(None, exc)
            refused = Refused.model_validate(
                {"code": "unavailable", "message": UNAVAILABLE, "version": hello.version or 0}
            )
            try:
                await websocket.send_text(refused.model_dump_json())
            except Exception:
                return
    if isinstance(found, ErrorMessage):
        await _send_error(websocket, found.code, found.message)
        return
    live, seat = found
    # In case another process moved the table on and its news has not arrived yet.
    try:
        await service.door.catch_up(live)
    except Exception as exc:
        if not db.storage_failed(exc):
            raise
        # What memory holds is committed, so it may be told; the table catches up later.
        service.failed(live, exc)
    # Counted with no wait before the connection joins, so that a crowd arriving at once
    # cannot pass the limit together.
    if table_limit and len(live.connections) >= table_limit:
        await _send_error(
            websocket,
            "too_many_connections",
            f"This table has as many connections as it takes ({table_limit}).",
        )
        return
    known = hello.version is not None and hello.version <= live.version
    since = hello.version if known and hello.version is not None else filter.FIRST
    digest = tokens.token_hash(hello.token) if seat is not None else None
    connection = Connection(seat=seat, version=since, undo=hello.undo, token_hash=digest)
    came = seat is not None and live.seat_here(seat) == 0
    live.connections.add(connection)
    connection.wake()  # its first state; the others hear of it in a small presence message
    live.announce(seat, came)
    writer = asyncio.create_task(_write(websocket, live, connection))
    try:
        await _read(service, websocket, live, connection)
    finally:
        live.connections.discard(connection)
        connection.put(CLOSE)
        live.announce(seat, seat is not None and live.seat_here(seat) == 0)
        with contextlib.suppress(Exception):
            await writer


async def _admitted(
    service: Tables, websocket: WebSocket, table_id: str, hello: Hello
) -> tuple[LiveTable, int | None] | ErrorMessage:
    """The table and the hello's seat (None: a spectator's), or the error that closes the
    connection; raises what the database raised when it cannot tell."""
    from necropolis.server.routes.accounts import admit

    live = await service.get(table_id) if len(table_id) <= 32 else None
    if live is None:
        return _error("no_such_table", "There is no such table.")
    known, seat = live.who(hello.token)
    if not known:
        return _error("bad_token", "That token does not belong to this table.")
    not_theirs = await admit(websocket, live.id, seat, hello.token)
    if not_theirs is not None:
        return _error("claimed_seat", not_theirs)
    return live, seat


def _error(code: str, message: str) -> ErrorMessage:
    return ErrorMessage.model_validate({"code": code, "message": message})


def _parse(raw: str) -> Hello | Act | Undo | Commit | Ping | LogRequest | HintRequest | str:
    """The client's message as a model, or a sentence saying why it is not one."""
    try:
        # Parsed and validated in one pass by pydantic-core: a third of json.loads and
        # validate_python's time, with the same refusals. Its parser refuses deep nesting
        # itself (a few thousand brackets, well under the size limit) as invalid JSON.
        parsed: Hello | Act | Undo | Commit | Ping | LogRequest | HintRequest = (
            _client_message.validate_json(raw)
        )
    except ValidationError as exc:
        return _unread(exc)
    return parsed


def _unread(exc: ValidationError) -> str:
    """Why a client's message is none of the protocol's, in a sentence (the first fault)."""
    fault = exc.errors(include_url=False, include_input=False)[0]
    kinds = ", ".join(_MESSAGE_TYPES)
    if fault["type"] == "json_invalid":
        return "That message is not JSON."
    if fault["type"] in ("model_attributes_type", "model_type", "dict_type"):
        return "A message is a JSON object."
    if fault["type"] == "union_tag_not_found":
        return f"A message says its type: one of {kinds}."
    if fault["type"] == "union_tag_invalid":
        said = str((fault.get("ctx") or {}).get("tag", ""))
        shown = said if len(said) <= 40 else said[:40] + "…"
        return f"There is no message of type {shown!r}: a client sends {kinds}."
    kind, *where = fault["loc"]
    field = ".".join(str(part) for part in where) or "it"
    return f"That {kind} message is not as the protocol says ({field}: {fault['msg']})."


async def _write(websocket: WebSocket, live: LiveTable, connection: Connection) -> None:
    """Send this connection's messages in order; states are built when they leave."""
    while True:
        item = await connection.take()
        if item == CLOSE:
            return
        if item == WAKE:
            version, text = filter.state_text(live, connection.seat, connection.version)
            connection.version = version
        elif isinstance(item, LogAsked):
            text = filter.log_text(live, connection.seat, item.before)
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
        parsed = _parse(raw) if raw is not None else "Messages are JSON text, not binary."
        if isinstance(parsed, str):
            _refuse(live, connection, "malformed", parsed)
        elif isinstance(parsed, Act):
            if connection.seat is None:
                _refuse(live, connection, "not_your_turn", "A spectator does not play.")
                continue
            refused = await service.door.act(
                live,
                connection.seat,
                parsed.action,
                parsed.version,
                pending=parsed.pending,
                hold=connection.undo,
            )
            if refused is not None:
                _refuse(live, connection, refused.code, refused.message)
        elif isinstance(parsed, Undo | Commit):
            if connection.seat is None:
                _refuse(live, connection, "not_your_turn", "A spectator does not play.")
                continue
            door = service.door.undo if isinstance(parsed, Undo) else service.door.commit
            refused = await door(live, connection.seat, parsed.version, parsed.pending)
            if refused is not None:
                _refuse(live, connection, refused.code, refused.message)
        elif isinstance(parsed, HintRequest):
            refused = await give_hint(service, live, connection, parsed.version)
            if refused is not None:
                _refuse(live, connection, refused.code, refused.message)
        elif isinstance(parsed, LogRequest):
            # Built when it leaves, in order after the states queued before it.
            connection.put(LogAsked(parsed.before))
        elif isinstance(parsed, Ping):
            connection.put(Pong())
        elif isinstance(parsed, Hello):
            _refuse(live, connection, "malformed", "This connection said hello already.")
        else:
            # Every message of the protocol has its branch above (mypy holds this to it).
            assert_never(parsed)


def _refuse(live: LiveTable, connection: Connection, code: str, message: str) -> None:
    """Queue a refusal, then a state (the protocol's promise)."""
    refused = Refused.model_validate({"code": code, "message": message, "version": live.version})
    connection.put(refused)
    connection.wake()
