"""The chat's HTTP routes: read a table's chat, write to it, and the creator's choice of
keeping spectators apart.

Writing goes over HTTP with the writer's token (a seat's, a spectator's or the
creator's, who writes as a spectator), like every other table route, and the message
then reaches the table's open WebSockets as a ``chat`` message of its own, in this
process and, over the bus (:mod:`necropolis.server.broker`), in the others; it never passes
through the game's filter nor carries anything of a state. A page
reads the whole chat when it opens a table (and its replay), so nothing is lost to a
reconnection.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field
from starlette.datastructures import State

from necropolis.server import tokens
from necropolis.server.accounts import RateLimiter
from necropolis.server.chat import MAX_CHAT, ChatLine, Chats, Said, deliver, visible
from necropolis.server.errors import ERRORS, ApiError
from necropolis.server.routes.common import app_store, authorised, authorised_seat
from necropolis.server.service import stored
from necropolis.server.written import clean_text

#: Messages one writer may send to a table in :data:`CHAT_WINDOW` seconds.
CHAT_BURST = 5
CHAT_WINDOW = 10.0

router = APIRouter()


class ChatWrite(BaseModel):
    # Room for markup and controls that cleaning takes out; the cleaned text is checked.
    text: Annotated[str, Field(max_length=4 * MAX_CHAT)]


class ChatSettings(BaseModel):
    spectators_apart: bool


class ChatLog(BaseModel):
    spectators_apart: bool
    messages: list[ChatLine]


def chats_of(request: Request) -> Chats:
    """The chats' store (its rate limit made with it)."""
    return app_store(request, "chats", _make_chats)


def _make_chats(state: State) -> Chats:
    state.chat_limit = RateLimiter(CHAT_BURST, CHAT_WINDOW)
    return Chats(state.tables.store.engine)


def _line(said: Said) -> ChatLine:
    return ChatLine(index=said.index, seat=said.seat, name=said.name, text=said.text, at=said.at)


@router.get("/api/tables/{table_id}/chat", response_model=ChatLog, responses=ERRORS)
async def read_chat(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> ChatLog:
    live, _token, viewer = await authorised_seat(request, table_id, authorization)
    chats = chats_of(request)
    apart = await stored(chats.spectators_apart, live.id)
    said = await stored(chats.said, live.id)
    return ChatLog(
        spectators_apart=apart, messages=[_line(s) for s in said if visible(s, viewer, apart)]
    )


@router.post("/api/tables/{table_id}/chat", response_model=ChatLine, responses=ERRORS)
async def write_chat(
    request: Request,
    table_id: str,
    body: ChatWrite,
    authorization: Annotated[str | None, Header()] = None,
) -> ChatLine:
    live, token, seat = await authorised_seat(request, table_id, authorization)
    text = clean_text(body.text)
    if not text:
        raise ApiError(400, "empty_chat", "There is nothing to send.")
    if len(text) > MAX_CHAT:
        raise ApiError(400, "chat_too_long", f"A message has at most {MAX_CHAT} characters.")
    chats = chats_of(request)
    writer = f"{live.id}:{tokens.token_hash(token)}"
    if request.app.state.chat_limit.blocked(writer):
        raise ApiError(429, "rate_limited", "Too many messages: slow down.")
    request.app.state.chat_limit.note(writer)
    # The name the seat shows (its account's, else the one given), as the writer is seen.
    name = live.row.seats[seat].shown_name if seat is not None else None
    said = await stored(chats.add, live.id, seat, name, text)
    apart = await stored(chats.spectators_apart, live.id)
    line = _line(said)
    deliver(live, line, apart)
    # The table's connections on the other processes get it over the bus.
    request.app.state.notices.chat_written(live.id, line, apart)
    return line


@router.post("/api/tables/{table_id}/chat/settings", response_model=ChatSettings, responses=ERRORS)
async def chat_settings(
    request: Request,
    table_id: str,
    body: ChatSettings,
    authorization: Annotated[str | None, Header()] = None,
) -> ChatSettings:
    live, _token = await authorised(request, table_id, authorization, True)
    await stored(chats_of(request).set_spectators_apart, live.id, body.spectators_apart)
    return body
