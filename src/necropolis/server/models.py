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

from necropolis.bots.levels import DEFAULT_LEVEL, Level

#: The protocol's own version, sent in every ``state`` message.
PROTOCOL = 1

SeatType = Literal["me", "link", "hotseat", "bot"]
PERSON_TYPES = ("me", "link", "hotseat")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Sent(BaseModel):
    """A message the server sends: every field is in it, those with defaults too (so the
    page's types, generated from this schema, say so)."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)


# --- The table language (docs/table-language.md), as the messages carry it ----------------


def _unsaid(value: object) -> bool:
    """Whether a field the table language leaves out when it has nothing to say is so."""
    return not value


class LogEntry(BaseModel):
    """A line of the log: ``index`` is the position in the history of the action that
    caused it, ``seat`` the acting seat (None: chance)."""

    index: int
    kind: str
    seat: int | None
    params: dict[str, Any]
    text: str


class Prompt(BaseModel):
    """What a seat is asked now."""

    kind: str
    params: dict[str, Any]
    text: str


class FollowUp(BaseModel):
    """A way on after a decision that reveals nothing: the board targets picked for it
    after the decision's own, the decisions that make it (sent one after another), and
    its words."""

    targets: list[str]
    actions: list[int]
    kind: str
    params: dict[str, Any]
    text: str


class ActionInfo(BaseModel):
    """A legal decision's descriptor: ``targets`` are the board elements it touches as
    ``"type:id"``, in the order a player picks them; ``then``: its ways on, if any."""

    action: int
    kind: str
    params: dict[str, Any]
    targets: list[str]
    text: str
    then: Annotated[list[FollowUp], Field(default_factory=list, exclude_if=_unsaid)]


class GameEvent(BaseModel):
    """Something that happened, as the game's rules said it and as the reader may know it
    (``docs/protocol.md``, "Events"): ``type`` names it; its other fields are the game's
    own (its ``events.py``)."""

    model_config = ConfigDict(extra="allow")

    type: str


class Statistic(BaseModel):
    """A figure of a finished match, one value per seat (pairs made, wounds taken), in the
    table language (``docs/table-language.md``)."""

    kind: str
    params: dict[str, Any]
    text: str
    values: list[int | float]


class ScorePart(BaseModel):
    """A part of a seat's score; ``hidden``: its points are not known to this viewer yet
    (counted 0)."""

    kind: str
    params: dict[str, Any]
    points: int | float
    text: str
    hidden: Annotated[bool, Field(exclude_if=_unsaid)] = False


class Tiebreak(BaseModel):
    kind: str
    value: int | float
    text: str


class SeatScore(BaseModel):
    """One seat's score: its parts add up to ``total``."""

    seat: int
    parts: list[ScorePart]
    total: int | float
    tiebreak: list[Tiebreak]


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
    #: Whether the rules let a player give up a turn: the clock rule "skip" is offered.
    skips_turns: bool = False


class Rules(BaseModel):
    language: str
    markdown: str


class SeatRequest(Strict):
    """A seat as the creator asks for it: their own (``me``), a friend's by link, another
    person at their device (``hotseat``), a bot of ``level``, a seat ``open`` to anyone in
    the lobby, or an account invited by its ``name`` (``invite``)."""

    type: Literal["me", "link", "hotseat", "bot", "open", "invite"]
    level: Level | None = None
    #: The seat's name (for ``invite``: the invited account's).
    name: Annotated[str, Field(max_length=40)] | None = None


#: The longest time a clock may give (a turn, or a real-time clock's base), in seconds.
MAX_CLOCK_SECONDS = 30 * 86400


class ClockSettings(Strict):
    """How a table is timed (see docs/protocol.md, clocks): ``untimed`` (no clock, the
    default), ``realtime`` (each seat has ``base`` seconds for the whole match and gains
    ``increment`` after each of its turns) or ``turn`` (each turn must be played within
    ``turn`` seconds). When a seat's time runs out, ``rule`` applies: ``bot`` (a bot of
    ``level`` plays the seat until its person takes it back), ``skip`` (the seat's turn is
    let go by, in a game whose rules allow it) or ``abandon`` (the match ends there)."""

    mode: Literal["untimed", "realtime", "turn"] = "untimed"
    base: Annotated[StrictInt, Field(ge=1, le=MAX_CLOCK_SECONDS)] = 600
    increment: Annotated[StrictInt, Field(ge=0, le=3600)] = 0
    turn: Annotated[StrictInt, Field(ge=1, le=MAX_CLOCK_SECONDS)] = 86400
    rule: Literal["bot", "skip", "abandon"] = "bot"
    level: Level = DEFAULT_LEVEL


class CreateTable(Strict):
    game: Annotated[str, Field(max_length=64)]
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    seats: Annotated[list[SeatRequest], Field(min_length=1, max_length=12)]
    creator_token: Annotated[str, Field(min_length=43, max_length=200)] | None = None
    clock: ClockSettings | None = None
    #: Rated from its start (it must have a clock: see ratings in docs/protocol.md).
    rated: bool = False
    #: Whether a seat may ask for hints (never at a rated table; every seat is told).
    hints: bool = False
    #: The language its creator plays in, which the lobby shows beside an open table.
    lang: Literal["en", "nl", "it"] = "en"


class SeatInfo(BaseModel):
    seat: int
    type: SeatType
    #: The name the seat shows: its account's, else the one given (at set-up, or by the
    #: guest who sits there); None when none was: clients write a default in their
    #: language ("Player 2"; a bot's level: "Hard bot").
    name: str | None
    level: Level | None
    token: str | None = None
    #: Whether ``name`` is the name of the account that holds the seat.
    account: bool = False
    #: Nobody sits here yet: the match waits for its person (see seats in docs/protocol.md).
    waiting: bool = False
    #: Anyone may take the seat from the lobby.
    open: bool = False


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
    #: A timed table in play: the moment its next seat's time runs out, as last worked out
    #: (in the lists of one's tables; None elsewhere, and when no clock runs).
    deadline: datetime | None = None


class HandToBot(Strict):
    level: Level


class OpenTable(BaseModel):
    """A table in the lobby's list: its game and options, its seats (``open`` the ones
    free), how many are free, its clock (None: untimed), whether it is rated, and the
    language its creator plays in."""

    table_id: str
    game: str
    options: dict[str, Any]
    players: int
    seats: list[SeatInfo]
    free: int
    clock: ClockSettings | None
    rated: bool
    lang: str
    created: datetime


class Join(Strict):
    """A person takes a free seat of an open table: a guest's ``name`` (a signed-in
    person plays under their account's)."""

    name: Annotated[str, Field(max_length=200)] | None = None


class Again(Strict):
    """A person at a finished table asks to play again, or accepts: the creator token of
    their browser, if it has one (the first to ask makes the new table with it, and may
    change its seats as its creator; without one, a new one is made)."""

    creator_token: Annotated[str, Field(min_length=43, max_length=200)] | None = None


class Seated(BaseModel):
    """Where a person now sits: the table, the seat and its token (theirs alone: the link
    ``/t/{table_id}#{token}`` opens it); ``creator_token``, when this request made the
    table (a rematch) with a new one."""

    table_id: str
    seat: int
    token: str
    creator_token: str | None = None
    #: This request made the rematch: its asker is the new table's creator.
    made: bool = False


class SeatName(Strict):
    """The name a guest chooses for the seat they sit at."""

    name: Annotated[str, Field(max_length=200)]


class Replay(BaseModel):
    step: int
    steps: int
    seat: int | None
    view: dict[str, Any]
    #: The events of the step's action (the last one before the position shown), as the
    #: seat may know them (docs/protocol.md, "Events").
    events: list[GameEvent]
    log: list[LogEntry]
    breakdown: list[SeatScore]
    #: The steps at which the match's turns begin (0 first), for stepping turn by turn.
    turns: list[int]
    #: The seats that may act at this step (none once the match is over).
    acting_seats: list[int] = Field(default_factory=list)
    #: At the last step, the seats that won (as the ``state`` message's ``winners``).
    winners: list[int] = Field(default_factory=list)
    #: The match's figures per seat (``State.statistics``), at its last step; else empty.
    statistics: list[Statistic] = Field(default_factory=list)
    #: The seat the asking token plays (None: a spectator's): the person the page calls
    #: "you", whichever seat's view ``seat`` shows.
    yours: int | None = None


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
    #: The client keeps a turn in hand: decisions that reveal nothing wait, and may be
    #: taken back (see docs/protocol.md).
    undo: bool = False


class Act(Strict):
    type: Literal["act"]
    action: StrictInt
    version: Annotated[StrictInt, Field(ge=0)]
    #: The decisions in the seat's turn in hand that the client saw.
    pending: Annotated[StrictInt, Field(ge=0)] = 0


class Undo(Strict):
    """Take back the last decision of the seat's turn in hand."""

    type: Literal["undo"]
    version: Annotated[StrictInt, Field(ge=0)]
    pending: Annotated[StrictInt, Field(ge=0)]


class Commit(Strict):
    """Commit the seat's turn in hand now, as one turn."""

    type: Literal["commit"]
    version: Annotated[StrictInt, Field(ge=0)]
    pending: Annotated[StrictInt, Field(ge=0)]


class Ping(Strict):
    type: Literal["ping"]


class LogRequest(Strict):
    """Ask for a page of the log's entries older than index ``before``."""

    type: Literal["log"]
    before: Annotated[StrictInt, Field(ge=0)]


class HintRequest(Strict):
    """Ask for the seat's best moves now, at a table that allows hints."""

    type: Literal["hint"]
    version: Annotated[StrictInt, Field(ge=0)]


ClientMessage = Annotated[
    Hello | Act | Undo | Commit | Ping | LogRequest | HintRequest, Field(discriminator="type")
]


# --- WebSocket, server to client -------------------------------------------------------


class SeatState(BaseModel):
    seat: int
    type: SeatType
    #: The name the seat shows (as :attr:`SeatInfo.name`); None: clients write a default.
    name: str | None
    level: Level | None
    connected: bool
    #: A person's seat whose time ran out, played by a bot of ``level`` until its person
    #: takes it back (see clocks).
    standin: bool = False
    #: Whether ``name`` is the name of the account that holds the seat.
    account: bool = False
    #: Nobody sits here yet: the match waits for its person.
    waiting: bool = False
    #: Anyone may take the seat from the lobby.
    open: bool = False


class AgainState(BaseModel):
    """A finished table's rematch: the new table, and the seats of this one whose people
    accepted to play again (a bot's at once)."""

    table: str
    seats: list[int]


class SeatClock(BaseModel):
    seat: int
    #: Seconds left when measured: the seat's clock (``realtime``), or what is left of
    #: the turn it is playing (``turn``); null for a bot's seat, and (``turn``) for a seat
    #: that is not to act.
    left: float | None
    #: Whether the seat's time runs now (it is to act, and a person plays it).
    running: bool
    #: When its time runs out, if it runs.
    deadline: datetime | None
    #: How often its time ran out in this match.
    timeouts: int


class ClockState(BaseModel):
    """A timed table's clocks as measured at ``measured`` (the server's time, seconds
    since 1970): a client counts the running ones down from when it got them."""

    mode: Literal["realtime", "turn"]
    base: int
    increment: int
    turn: int
    rule: Literal["bot", "skip", "abandon"]
    level: Level
    measured: float
    #: The seat whose time ran out when the match was abandoned (rule ``abandon``).
    abandoned: int | None
    seats: list[SeatClock]


class Step(BaseModel):
    """One version a connection missed: who acted, the seat's view after it, and the
    events of that action as the seat may know them (None: no longer kept)."""

    version: int
    by: int | None
    view: dict[str, Any] | None
    events: list[GameEvent] | None


class HintUse(Sent):
    """A hint a seat asked for, at version ``index`` (before that action)."""

    seat: int
    index: int


class StateMessage(Sent):
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
    prompt: Prompt | None
    actions: list[ActionInfo]
    #: The events of the action that made ``view`` (the table's latest, or the last of the
    #: seat's turn in hand), as this seat may know them (docs/protocol.md, "Events").
    events: list[GameEvent]
    log: list[LogEntry]
    #: ``log`` holds every entry (as this seat may know it) whose index is at least this;
    #: older ones are the client's already, or asked for with :class:`LogRequest`.
    log_from: int = 0
    breakdown: list[SeatScore]
    #: The seats that won, once the match is over (none: nobody won); empty before.
    winners: list[int] = Field(default_factory=list)
    #: The match's figures per seat once it is over (``State.statistics``); empty before.
    statistics: list[Statistic] = Field(default_factory=list)
    steps: list[Step] = []
    #: The decisions in this seat's turn in hand (0: none): ``view``, ``actions``,
    #: ``prompt`` and ``breakdown`` are the position after them.
    pending: int = 0
    #: Their log entries, as the seat reads them (not yet in the table's log).
    pending_log: list[LogEntry] = Field(default_factory=list)
    #: The actions a client asks its person to confirm first: ones that give something up
    #: for good, and with a turn in hand, ones that commit it.
    confirm: list[int] = Field(default_factory=list)
    #: Of those, the ones that give something up for good (``State.forfeits``: leaving the
    #: pyramid, ending a turn with actions left): a client may ask about these alone.
    forfeits: list[int] = Field(default_factory=list)
    #: Whether the table allows hints, and every hint asked so far (shown to all).
    hints: bool = False
    hints_used: list[HintUse] = Field(default_factory=list)
    #: A finished table's rematch, once someone asked to play again (null before).
    again: AgainState | None = None
    #: The table's clocks, null for an untimed table (always the message's last field).
    clock: ClockState | None = None


class HintMove(Sent):
    """One of the best moves a hint names: its descriptor and the seat's chance to win
    with it, as the analysis judges it from the seat's window."""

    action: int
    chance: float
    info: ActionInfo


class Hint(Sent):
    """The answer to :class:`HintRequest`, to the asking seat's connection only."""

    type: Literal["hint"] = "hint"
    version: int
    moves: list[HintMove]


class LogPage(Sent):
    """The answer to :class:`LogRequest`: the entries just before ``before``, every one
    whose index is from ``log_from`` on (0: the log's first), a page at most."""

    type: Literal["log"] = "log"
    before: int
    log_from: int
    log: list[LogEntry]


class Refused(Sent):
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
        "unavailable",
        "nothing_to_undo",
        "no_hints",
        "waiting_for_players",
    ]
    message: str
    version: int


class ErrorMessage(Sent):
    type: Literal["error"] = "error"
    code: Literal[
        "bad_token",
        "claimed_seat",
        "no_such_table",
        "hello_expected",
        "too_large",
        "too_many_connections",
        "link_replaced",
        "protocol",
    ]
    message: str


class Pong(Sent):
    type: Literal["pong"] = "pong"


class SeatPresence(BaseModel):
    seat: int
    connected: bool


class Presence(Sent):
    """Who is at the table, sent when it changes (never a whole state): each seat's
    ``connected`` as a ``state`` gives it, and for a seat's own connection ``here``, how
    many connections of its seat are open on this server process, itself included."""

    type: Literal["presence"] = "presence"
    seats: list[SeatPresence]
    here: int | None
