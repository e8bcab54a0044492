"""The routes of your-turn notices: the account's stream, its count, and its mail settings.

``/ws/account`` is a WebSocket for the signed-in player (the session cookie, from the page
itself: its ``Origin`` must be this host). The server sends ``turns`` messages, the count
of tables where it is the player's turn and which, first at once and then whenever it
changes (pushed: see :mod:`necropolis.server.notices`); the page may send ``check`` (count
again now: it just took a seat) and ``ping``. ``GET /api/account/turns`` gives the same
count over HTTP. ``/api/account/settings`` reads and sets the player's mail address.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Annotated, Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from necropolis.server.errors import ERRORS, ApiError
from necropolis.server.mail import MAX_ADDRESS, valid_address
from necropolis.server.notices import Notices, Stream, turns_message
from necropolis.server.routes.accounts import COOKIE, _require_same_origin, signed_in
from necropolis.server.service import stored

#: The largest message the page sends on the stream, in bytes.
MAX_MESSAGE = 1024
#: Messages per second a stream may send before it is closed.
RATE = 5.0
#: Languages a mail can be written in.
MAIL_LANGUAGES = ("en", "nl", "it")

router = APIRouter()


class TurnTable(BaseModel):
    table_id: str
    game: str
    seat: int
    #: The seat's token, for this account only (as in ``/api/account/tables``).
    token: str
    #: Since when the seat has waited.
    since: str | None


class TurnCount(BaseModel):
    type: str = "turns"
    count: int
    tables: list[TurnTable]


class AccountSettings(BaseModel):
    #: Where to mail a turn that waited (null: no mail).
    email: str | None
    #: The language of the mail.
    lang: str
    #: Whether this server mails at all (the operator configured SMTP).
    mail: bool = False


class SettingsChange(BaseModel):
    email: Annotated[str, Field(max_length=4 * MAX_ADDRESS)] | None
    lang: Annotated[str, Field(max_length=8)] = "en"


def notices_of(conn: HTTPConnection) -> Notices:
    found: Notices = conn.app.state.notices
    return found


@router.get("/api/account/turns", response_model=TurnCount, responses=ERRORS)
async def turns(request: Request) -> Any:
    player = await signed_in(request)
    if player is None:
        raise ApiError(401, "not_signed_in", "Sign in first.")
    answers = await notices_of(request).waiting([player.id])
    return json.loads(turns_message(answers.get(player.id, [])))


@router.get("/api/account/settings", response_model=AccountSettings, responses=ERRORS)
async def settings(request: Request) -> AccountSettings:
    player = await signed_in(request)
    if player is None:
        raise ApiError(401, "not_signed_in", "Sign in first.")
    notices = notices_of(request)
    assert notices.turns is not None
    email, lang = await stored(notices.turns.mail_of, player.id)
    return AccountSettings(email=email, lang=lang, mail=notices.mail is not None)


@router.post("/api/account/settings", response_model=AccountSettings, responses=ERRORS)
async def change_settings(request: Request, body: SettingsChange) -> AccountSettings:
    _require_same_origin(request)
    player = await signed_in(request, for_writing=True)
    if player is None:
        raise ApiError(401, "not_signed_in", "Sign in first.")
    email: str | None = None
    if body.email is not None and body.email.strip():
        email = valid_address(body.email)
        if email is None:
            raise ApiError(400, "bad_email", "That is not an e-mail address.")
    lang = body.lang if body.lang in MAIL_LANGUAGES else "en"
    notices = notices_of(request)
    assert notices.turns is not None
    await stored(notices.turns.set_mail, player.id, email, lang)
    return AccountSettings(email=email, lang=lang, mail=notices.mail is not None)


@router.websocket("/ws/account")
async def account_socket(websocket: WebSocket) -> None:
    await websocket.accept()
    notices = notices_of(websocket)
    # Only the page itself (its Origin this host): another site must not read the count.
    player = await signed_in(websocket, for_writing=True)
    if player is None:
        await _end(websocket, "not_signed_in", "Sign in first.")
        return
    addresses = websocket.app.state.addresses
    address = websocket.client.host if websocket.client is not None else ""
    limit = notices.address_limit
    if limit and addresses[address] >= limit:
        await _end(websocket, "too_many_connections", "Too many connections from your address.")
        return
    stream = notices.join(player.id, websocket.cookies.get(COOKIE, ""))
    if stream is None:
        await _end(websocket, "too_many_connections", "This account has too many pages open.")
        return
    addresses[address] += 1
    writer = asyncio.create_task(_write(websocket, stream))
    try:
        await _read(websocket, notices, stream)
    finally:
        notices.leave(stream)
        stream.outbox.put_nowait(None)
        addresses[address] -= 1
        if addresses[address] <= 0:
            del addresses[address]
        with contextlib.suppress(Exception):
            await writer


async def _end(websocket: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "code": code, "message": message}))
        await websocket.close(code=1008)


async def _write(websocket: WebSocket, stream: Stream) -> None:
    while True:
        text = await stream.outbox.get()
        if text is None:
            with contextlib.suppress(Exception):
                await websocket.close(code=1000)
            return
        try:
            await websocket.send_text(text)
        except Exception:
            return


async def _read(websocket: WebSocket, notices: Notices, stream: Stream) -> None:
    allowance = RATE
    last = time.monotonic()
    while True:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        now = time.monotonic()
        allowance = min(RATE, allowance + (now - last) * RATE)
        last = now
        if allowance < 1.0:
            await _end(websocket, "protocol", "Too many messages: closing.")
            return
        allowance -= 1.0
        raw = message.get("text") or ""
        if len(raw) > MAX_MESSAGE:
            await _end(websocket, "too_large", f"Messages are at most {MAX_MESSAGE} bytes.")
            return
        try:
            kind = json.loads(raw).get("type")
        except (ValueError, AttributeError):
            kind = None
        if kind == "check":
            notices.check(stream)  # counts asked for together are counted once
        elif kind == "ping":
            stream.outbox.put_nowait('{"type":"pong"}')
        else:
            await _end(websocket, "protocol", "That message is not one of the stream's.")
            return
