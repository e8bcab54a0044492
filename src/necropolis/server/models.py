"""Pydantic models of every HTTP body and WebSocket message the server speaks.

They are the protocol of ``docs/protocol.md`` in code: FastAPI publishes the HTTP ones in
its OpenAPI document, and the WebSocket ones validate what clients send and shape what
the filter sends. The game-facing parts (views, log entries, prompts, descriptors,
breakdowns) are the table language's JSON, carried as they are.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

#: The protocol's own version, sent in every ``state`` message.
PROTOCOL = 1

SeatType = Literal["me", "link", "hotseat", "bot"]
Level = Literal["easy", "medium", "hard"]
PERSON_TYPES = ("me", "link", "hotseat")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- HTTP ------------------------------------------------------------------------------


class Health(BaseModel):
    ok: bool
    protocol: int


class OptionInfo(BaseModel):
    name: str
    kind: Literal["int", "bool", "choice", "text"]
    default: bool | int | str
    choices: list[bool | int | str] | None
    minimum: int | None
    maximum: int | None
    help: str


class GameInfo(BaseModel):
    id: str
    title: str
    description: str
    min_players: int
    max_players: int
    default_players: int
    options: list[OptionInfo]
    levels: list[Level]


class Rules(BaseModel):
    language: str
    markdown: str


class SeatRequest(Strict):
    type: SeatType
    level: Level | None = None
    name: Annotated[str, Field(max_length=40)] | None = None


class CreateTable(Strict):
    game: Annotated[str, Field(max_length=64)]
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    seats: Annotated[list[SeatRequest], Field(min_length=1, max_length=12)]
    creator_token: Annotated[str, Field(min_length=43, max_length=200)] | None = None


class SeatInfo(BaseModel):
    seat: int
    type: SeatType
    #: None when no name was given: clients write a default in their language.
    name: str | None
    level: Level | None
    token: str | None = None


class CreatedTable(BaseModel):
    table_id: str
    creator_token: str
    seats: list[SeatInfo]
    spectator_token: str


class TableSummary(BaseModel):
    table_id: str
    game: str
    options: dict[str, Any]
    status: Literal["playing", "finished"]
    version: int
    created: datetime
    updated: datetime
    seats: list[SeatInfo]
    players: int | None = None
    spectator_token: str | None = None


class HandToBot(Strict):
    level: Level


class Replay(BaseModel):
    step: int
    steps: int
    seat: int | None
    view: dict[str, Any]
    log: list[dict[str, Any]]
    breakdown: list[dict[str, Any]]


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail


# --- WebSocket, client to server -------------------------------------------------------


class Hello(Strict):
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=200)]
    version: Annotated[StrictInt, Field(ge=0)] | None = None


class Act(Strict):
    type: Literal["act"]
    action: StrictInt
    version: Annotated[StrictInt, Field(ge=0)]


class Ping(Strict):
    type: Literal["ping"]


ClientMessage = Annotated[Hello | Act | Ping, Field(discriminator="type")]


# --- WebSocket, server to client -------------------------------------------------------


class SeatState(BaseModel):
    seat: int
    type: SeatType
    #: None when no name was given: clients write a default in their language.
    name: str | None
    level: Level | None
    connected: bool


class StateMessage(BaseModel):
    type: Literal["state"] = "state"
    protocol: int = PROTOCOL
    table: str
    version: int
    seat: int | None
    status: Literal["playing", "finished"]
    game: str
    options: dict[str, Any]
    seats: list[SeatState]
    view: dict[str, Any]
    current_player: int
    acting_seats: list[int]
    prompt: dict[str, Any] | None
    actions: list[dict[str, Any]]
    log: list[dict[str, Any]]
    breakdown: list[dict[str, Any]]


class Refused(BaseModel):
    type: Literal["refused"] = "refused"
    code: Literal[
        "stale_version",
        "not_your_turn",
        "illegal_action",
        "malformed",
        "too_large",
        "rate_limited",
        "seat_taken_by_bot",
        "finished",
    ]
    message: str
    version: int


class ErrorMessage(BaseModel):
    type: Literal["error"] = "error"
    code: Literal["bad_token", "no_such_table", "hello_expected", "protocol"]
    message: str


class Pong(BaseModel):
    type: Literal["pong"] = "pong"
