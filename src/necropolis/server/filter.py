"""The one filter: every message about a table, for one seat or a spectator, is built here.

A message is made from what the viewer may know and nothing else: the state's view for
that seat, that seat's own legal actions with their descriptors, its prompt, the log as
narrated for it, the score breakdown as it may know it, and the version. It never reads
the seed, the history, or another seat's view. The WebSocket ``state`` message, the answer to a
refusal, the replay endpoint and the downloadable record (which leaves out the seed, and
is offered only for finished tables) all come from here.

Every connection of a seat at one version is sent the same ``state`` message, so the
filter builds each seat's message once per table version and keeps its JSON text in
the table (:class:`~necropolis.server.live.SentCache`) for the seat's other connections.
The cache holds the filter's own output and nothing else, and the parts every viewer may
see (seats, whose turn) are built once per version for all of them; the score breakdown
is the viewer's own, since a seat sees its own hidden values in it. A seat
that holds a turn in hand (decisions not yet committed, see :mod:`necropolis.server.live`)
is sent its own position after them, with their log entries apart from the table's; no
other viewer's message shows anything of them. The server
built every part itself, so the hot path serializes plain dicts with orjson (a third of
the time of pydantic's serializer, the same text) instead of validating them again
through :class:`StateMessage`, which stays the protocol's schema; the tests check that
both give the same text.

A state carries only the newest part of the log: a connection's first state holds the newest
whole actions' entries that fit (at most :data:`LOG_PAGE` entries, and the whole message
within :data:`FIRST_STATE_BYTES`), with ``log_from``, the index from which its log is
complete; a later state holds the entries from the version the connection last had (a
connection so far behind that they would not fit is sent the newest ones, as a first
state is). A client asks for older entries a page at a time (:func:`log_page`), each
entry as the seat may know it, from the same narrations.

A timed table's clocks (:mod:`necropolis.server.clocks`) are public and measured as a
message leaves: a kept message's text ends with its clock, null, which is replaced by the
clocks as they stand when it is sent.

A connection that missed a few versions (a decision committed with the chance outcomes
it led to, a bot's streak that landed while its message was on the way, or a short drop)
is also sent ``steps``: for each version it
missed, who acted and the seat's view after it, so that the page can show the moves one
at a time. The views come from the states the table keeps while it has watchers
(``LiveTable.recent``) and are built here, for that seat only, when such a message is
sent: an action costs nothing more for a table nobody watches.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from typing import Any

import orjson
from pydantic_core import to_json

from necropolis.engine.events import Event, events_data
from necropolis.engine.language import LogEntry
from necropolis.engine.protocol import Game, State
from necropolis.engine.record import MatchRecord
from necropolis.server.clocks import clock_data
from necropolis.server.live import STEPS_KEPT, LiveTable, SentCache, Turn
from necropolis.server.models import PROTOCOL, Replay, StateMessage

#: The most log entries a page of the log holds (a first state's, or one asked for with
#: ``{"type": "log"}``); an action's entries are never split, so one action's entries
#: may make a longer page on their own.
LOG_PAGE = 40
#: The most bytes of JSON text a first state may take: its log holds the newest entries
#: that fit beside the rest of the message.
FIRST_STATE_BYTES = 16_000
#: ``since`` of a connection's first state, when its hello said no version: it is sent the
#: newest entries. (A client that says it saw version 0 is sent every entry from 0, as
#: any client that says a version, within the same bound.)
FIRST = -1


def seat_states(live: LiveTable) -> list[dict[str, Any]]:
    """Each seat as :class:`~necropolis.server.models.SeatState` says, as plain dicts."""
    connected = {c.seat for c in live.connections}
    return [
        {
            "seat": s.seat,
            "type": s.type,
            "name": s.shown_name,
            "level": s.level,
            "connected": not s.person or s.seat in connected,
            "standin": s.standin,
            "account": s.account is not None,
            "waiting": s.waiting,
            "open": s.open,
        }
        for s in live.row.seats
    ]


def _public(live: LiveTable, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """The parts of a ``state`` message that are the same for every viewer."""
    state = live.state
    if live.over:
        acting: list[int] = []
    elif live.waiting:
        # Nobody acts until every seat is taken: the table waits for those people.
        acting = [s.seat for s in live.row.seats if s.waiting]
    else:
        acting = list(state.acting_seats())
    again = live.again
    return {
        "version": live.version,
        "status": "finished" if live.over else "playing",
        "game": live.game.id,
        "options": dict(live.game.options),
        "seats": seats,
        "current_player": state.current_player(),
        "acting_seats": acting,
        "winners": winners(state.returns()) if state.is_terminal() else [],
        "hints": live.hints,
        "hints_used": [{"seat": seat, "index": index} for seat, index in live.hints_used],
        # the match's figures (a replay of its events): once, for every viewer of the version
        "statistics": state.statistics() if state.is_terminal() else [],
        "again": None if again is None else {"table": again.table, "seats": list(again.seats)},
    }


def winners(returns: list[float]) -> list[int]:
    """The seats that won a finished match (its result is public): those with the best
    share of the win, none when nobody won (horus's mummies, for one)."""
    best = max(returns, default=0.0)
    return [seat for seat, share in enumerate(returns) if best > 0 and share == best]


def state_data(live: LiveTable, seat: int | None, since: int) -> dict[str, Any]:
    """The ``state`` message for ``seat`` (None: a spectator), with the log from ``since``
    (:data:`FIRST`: a first state's newest entries), as the dict :class:`StateMessage`
    validates (its fields in its order)."""
    data = _state_data(live, _public(live, seat_states(live)), seat, since)
    data["clock"] = clock_data(live)
    return data


def _state_data(
    live: LiveTable, public: dict[str, Any], seat: int | None, since: int
) -> dict[str, Any]:
    turn = live.turns.get(seat) if seat is not None else None
    # A seat with a turn in hand plays from its own position; no one else is shown it.
    state = live.position(seat)
    acting: list[int] = public["acting_seats"]
    may_act = (
        seat is not None
        and seat in acting
        and not live.is_bot(seat)
        and not live.over
        and not live.waiting
    )
    actions: list[dict[str, Any]] = []
    confirm: list[int] = []
    forfeits: list[int] = []
    if may_act and seat is not None:
        legal = live.legal(state, seat)
        actions = [dict(state.action_info(a)) for a in legal]
        forfeits = [a for a in legal if state.forfeits(a)]
        confirm = [a for a in legal if a in forfeits or (turn and state.reveals(a))]
    data: dict[str, Any] = {
        "type": "state",
        "protocol": PROTOCOL,
        "table": live.id,
        "version": public["version"],
        "seat": seat,
        "status": public["status"],
        "game": public["game"],
        "options": public["options"],
        "seats": public["seats"],
        "view": state.view(seat),
        "current_player": public["current_player"],
        "acting_seats": acting,
        "prompt": state.prompt(seat) if may_act else None,
        "actions": actions,
        "events": _events(live, seat, turn),
        "log": [],
        "log_from": max(since, 0),
        "breakdown": state.score_breakdown(seat),
        "winners": public["winners"],
        "statistics": public["statistics"],
        "steps": steps(live, seat, since),
        "pending": len(turn.actions) if turn else 0,
        "pending_log": [e for entries in turn.entries for e in entries] if turn else [],
        "confirm": confirm,
        "forfeits": forfeits,
        "hints": public["hints"],
        "hints_used": public["hints_used"],
        "again": public["again"],
        "clock": None,
    }
    _fill_log(live, data, seat, since)
    return data


def _events(live: LiveTable, seat: int | None, turn: Turn | None) -> list[dict[str, Any]]:
    """The events of the action that made the message's view, as ``seat`` may know them:
    the table's latest action's, or the last decision's of the seat's turn in hand."""
    if turn is not None and turn.actions:
        before = turn.states[-2] if len(turn.states) > 1 else live.state
        happened: list[Event] | None = turn.states[-1].happened(before, turn.actions[-1])
    else:
        happened = live.happened_at(live.version)
    return events_data(happened, seat) if happened else []


def _fill_log(live: LiveTable, data: dict[str, Any], seat: int | None, since: int) -> None:
    """Put the log in the message ``data``: every entry from ``since`` on when the
    connection had a version and they are a page at most or fit in
    :data:`FIRST_STATE_BYTES` beside the rest, else (a first state, or a connection so far
    behind that they do not fit) the newest whole actions' entries that fit, with the
    ``log_from`` they start at."""
    if since >= live.version:
        return  # nothing new: the hot path's common case
    room = 0
    if since != FIRST:
        entries = live.log_since(seat, since)
        if len(entries) > LOG_PAGE:
            # What the rest of the message takes, and a few bytes for log_from's digits.
            room = FIRST_STATE_BYTES - len(orjson.dumps(data)) - 8
        if len(entries) <= LOG_PAGE or _size(entries) <= room:
            data["log"] = entries
            return
    room = room or FIRST_STATE_BYTES - len(orjson.dumps(data)) - 8
    taken: list[list[LogEntry]] = []
    count = 0
    log_from = 0
    for group in _newest_groups(live, seat):
        cost = _size(group)
        if (taken and count + len(group) > LOG_PAGE) or cost > room:
            log_from = int(group[0]["index"]) + 1
            break
        taken.append(group)
        count += len(group)
        room -= cost
    data["log"] = [entry for group in reversed(taken) for entry in group]
    data["log_from"] = log_from


def _newest_groups(live: LiveTable, seat: int | None) -> Iterator[list[LogEntry]]:
    """``seat``'s log entries, one action's at a time, newest first (actions that made
    none left out): from the narrations kept while they last, then from its whole log."""
    index = live.version - 1
    while index >= 0:
        told = live.told(seat, index)
        if told is None:
            break
        if told:
            yield told
        index -= 1
    if index < 0:
        return
    whole = _full_log(live, seat)
    end = bisect.bisect_right(whole, index, key=lambda e: int(e["index"]))
    for first, last in _groups_backwards(whole, end):
        yield whole[first:last]


def _size(entries: list[LogEntry]) -> int:
    """The bytes ``entries`` add to a message's log: each one's JSON and a comma."""
    return sum(len(orjson.dumps(e)) + 1 for e in entries)


def _groups_backwards(entries: list[LogEntry], end: int | None = None) -> list[tuple[int, int]]:
    """The ``(start, end)`` slices of ``entries[:end]`` that share an index (one action's),
    newest first."""
    out: list[tuple[int, int]] = []
    end = len(entries) if end is None else end
    while end > 0:
        start = end - 1
        index = entries[start]["index"]
        while start > 0 and entries[start - 1]["index"] == index:
            start -= 1
        out.append((start, end))
        end = start
    return out


def _complete_from(entries: list[LogEntry], start: int) -> int:
    """The index from which ``entries[start:]`` holds every entry of ``entries``: 0 when
    it holds them all, else the one after the index of the entry before it."""
    return int(entries[start - 1]["index"]) + 1 if start > 0 else 0


def _full_log(live: LiveTable, seat: int | None) -> list[LogEntry]:
    """Every log entry ``seat`` may know at the table's version, built once per version
    and viewer (a page asked for after another reads it again)."""
    cache = _cache(live)
    entries = cache.logs.get(seat)
    if entries is None:
        entries = cache.logs[seat] = live.log_since(seat, 0)
    return entries


def log_page(live: LiveTable, seat: int | None, before: int) -> dict[str, Any]:
    """The ``log`` message: ``seat``'s log entries just before index ``before``, newest
    whole actions' entries, at most :data:`LOG_PAGE` of them (or one action's, if it has
    more), as the filter narrates them for that seat; ``log_from`` is the index from
    which the page and what follows hold every entry (0: the log's start)."""
    before = min(before, live.version)
    whole = _full_log(live, seat)
    end = 0
    while end < len(whole) and whole[end]["index"] < before:
        end += 1
    start = end
    for first, _ in _groups_backwards(whole, end):
        if start < end and end - first > LOG_PAGE:
            break
        start = first
    return {
        "type": "log",
        "before": before,
        "log_from": _complete_from(whole, start),
        "log": whole[start:end],
    }


def log_text(live: LiveTable, seat: int | None, before: int) -> str:
    """The ``log`` message as JSON text."""
    return orjson.dumps(log_page(live, seat, before)).decode()


def steps(live: LiveTable, seat: int | None, since: int) -> list[dict[str, Any]]:
    """Each version after ``since`` up to the current one: ``{version, by, view}``, where
    ``by`` is the seat that acted (None: chance) and ``view`` the seat's view after that
    action (None for the last, which is the message's own ``view``, and for a version
    whose state is no longer kept). Empty for a first message (``since`` 0 or
    :data:`FIRST`) and for a connection further behind than the table keeps states: it
    is shown the newest."""
    version = live.version
    if since <= 0 or since >= version or version - since > STEPS_KEPT:
        return []
    out: list[dict[str, Any]] = []
    for v in range(since + 1, version + 1):
        state = live.state_at(v) if v < version else None
        happened = live.happened_at(v)
        out.append(
            {
                "version": v,
                "by": live.actions[v - 1][0],
                "view": state.view(seat) if state is not None else None,
                "events": events_data(happened, seat) if happened is not None else None,
            }
        )
    return out


def state_message(live: LiveTable, seat: int | None, since: int) -> StateMessage:
    """The ``state`` message for ``seat`` as the protocol's model (validated)."""
    return StateMessage.model_validate(state_data(live, seat, since))


def state_text(live: LiveTable, seat: int | None, since: int) -> tuple[int, str]:
    """``(version, JSON text)`` of the ``state`` message for ``seat`` from ``since``.

    Built once per table version, seat, ``since`` and seats line (who is connected),
    then reused for every connection that asks the same.
    """
    cache = _cache(live)
    if seat is not None and seat in live.turns:
        # A turn in hand changes without the version: its message is never kept.
        held = orjson.dumps(_state_data(live, cache.public, seat, since)).decode()
        return cache.version, _with_clock(live, held)
    key = (seat, since)
    text = cache.texts.get(key)
    if text is None:
        data = _state_data(live, cache.public, seat, since)
        text = cache.texts[key] = orjson.dumps(data).decode()
    return cache.version, _with_clock(live, text)


def _cache(live: LiveTable) -> SentCache:
    """The filter's cache for the table's version and line of seats. The line is built
    again only when who is connected or the seats themselves changed (the row's seats
    are replaced, never changed in place), not for every message; and the whole cache
    when the match ends without an action (abandoned: server/clocks/)."""
    connected = frozenset(c.seat for c in live.connections)
    status = "finished" if live.over else "playing"
    cache = live.sent
    if cache is not None and (cache.version != live.version or cache.public["status"] != status):
        cache = None
    if cache is not None and cache.connected == connected and cache.row_seats is live.row.seats:
        return cache
    seats = seat_states(live)
    if cache is not None and cache.seats == seats:
        # Another connection of a seat already connected: the same messages.
        cache.connected, cache.row_seats = connected, live.row.seats
        return cache
    # The log does not depend on who is connected: kept across a new line of seats.
    logs = cache.logs if cache is not None else {}
    cache = live.sent = SentCache(live.version, seats, _public(live, seats), logs=logs)
    cache.connected, cache.row_seats = connected, live.row.seats
    return cache


#: How a kept message ends: its last field, the clock, null (see :func:`_with_clock`).
_NO_CLOCK = ',"clock":null}'


def _with_clock(live: LiveTable, text: str) -> str:
    """The message ``text`` with the table's clocks measured now: a message is kept for
    every connection of a seat at one version, but a clock runs between versions, so
    its (public) figures go in as the message leaves."""
    data = clock_data(live)
    if data is None or not text.endswith(_NO_CLOCK):
        return text
    # Built here from plain values, so serialized as they are (the tests check that the
    # text is the validated ClockState's).
    clock = to_json(data).decode()
    return f'{text[: -len(_NO_CLOCK)]},"clock":{clock}}}'


def turn_starts(actors: list[int | None]) -> list[int]:
    """The steps at which the match's turns begin, given who took each action (None for
    chance): 0, then every decision of a seat other than the one that decided last. The
    chance outcomes between two decisions (a deal, a roll, a card drawn) belong to the
    turn before them, and those before the first decision make the opening turn."""
    starts = [0]
    last: int | None = None
    for i, actor in enumerate(actors):
        if actor is None:
            continue
        if actor != last and i > 0 and starts[-1] != i:
            starts.append(i)
        last = actor
    return starts


def replay(
    game: Game, actions: list[int], step: int, seat: int | None, actors: list[int | None]
) -> Replay:
    """A finished match's position after ``step`` actions, as ``seat`` saw it, with the
    steps at which its turns begin (``actors``: who took each action, None for chance)."""
    state: State = game.new_initial_state()
    log: list[dict[str, Any]] = []
    happened: list[Event] = []
    for action in actions[:step]:
        before = state.clone()
        events = state.apply_events(action)
        happened, told = state.told(before, action, [seat], events)
        log.extend(told[seat])
    return Replay.model_validate(
        {
            "step": step,
            "steps": len(actions),
            "seat": seat,
            "view": state.view(seat),
            "events": events_data(happened, seat),
            "log": log,
            "breakdown": state.score_breakdown(seat),
            "turns": turn_starts(actors),
            "acting_seats": [] if state.is_terminal() else list(state.acting_seats()),
            "winners": winners(state.returns()) if state.is_terminal() else [],
            "statistics": state.statistics() if step == len(actions) else [],
        }
    )


def record(
    game: str,
    options: dict[str, Any],
    seats: list[str],
    actions: list[int],
    created: str,
    names: list[str | None],
) -> dict[str, Any]:
    """The match record of a finished table, as the CLI replays it; the seed left out
    (chance outcomes are in the actions, so nothing is lost by it). ``seats`` are the
    terminal's seat kinds ("human" or a bot's level); ``names`` the names the seats
    showed (null where none)."""
    match = MatchRecord(game, dict(options), seats, list(actions), seed=None, names=names)
    match.created = created
    return match.to_json()
