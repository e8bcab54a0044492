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
is the viewer's own, since a seat sees its own hidden values in it. The server
built every part itself, so the hot path serializes plain dicts with pydantic's JSON
serializer instead of validating them again through :class:`StateMessage`, which stays
the protocol's schema; the tests check that both give the same text.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import to_json

from necropolis.engine.protocol import Game, State
from necropolis.engine.record import MatchRecord
from necropolis.server.live import LiveTable, SentCache
from necropolis.server.models import PROTOCOL, Replay, StateMessage


def seat_states(live: LiveTable) -> list[dict[str, Any]]:
    """Each seat as :class:`~necropolis.server.models.SeatState` says, as plain dicts."""
    connected = {c.seat for c in live.connections}
    return [
        {
            "seat": int(s["seat"]),
            "type": s["type"],
            "name": s.get("name"),
            "level": s.get("level"),
            "connected": s["type"] == "bot" or int(s["seat"]) in connected,
        }
        for s in live.row.seats
    ]


def _public(live: LiveTable, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """The parts of a ``state`` message that are the same for every viewer."""
    state = live.state
    return {
        "version": live.version,
        "status": "finished" if state.is_terminal() else "playing",
        "game": live.game.id,
        "options": dict(live.game.options),
        "seats": seats,
        "current_player": state.current_player(),
        "acting_seats": list(state.acting_seats()),
    }


def state_data(live: LiveTable, seat: int | None, since: int) -> dict[str, Any]:
    """The ``state`` message for ``seat`` (None: a spectator), with the log from ``since``,
    as the dict :class:`StateMessage` validates (its fields in its order)."""
    return _state_data(live, _public(live, seat_states(live)), seat, since)


def _state_data(
    live: LiveTable, public: dict[str, Any], seat: int | None, since: int
) -> dict[str, Any]:
    state = live.state
    acting: list[int] = public["acting_seats"]
    may_act = seat is not None and seat in acting and not live.is_bot(seat)
    actions: list[dict[str, Any]] = []
    if may_act and seat is not None:
        actions = [dict(state.action_info(a)) for a in state.legal_actions(seat)]
    return {
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
        "log": live.log_since(seat, since),
        "breakdown": state.score_breakdown(seat),
    }


def state_message(live: LiveTable, seat: int | None, since: int) -> StateMessage:
    """The ``state`` message for ``seat`` as the protocol's model (validated)."""
    return StateMessage.model_validate(state_data(live, seat, since))


def state_text(live: LiveTable, seat: int | None, since: int) -> tuple[int, str]:
    """``(version, JSON text)`` of the ``state`` message for ``seat`` from ``since``.

    Built once per table version, seat, ``since`` and seats line (who is connected),
    then reused for every connection that asks the same.
    """
    seats = seat_states(live)
    cache = live.sent
    if cache is None or cache.version != live.version or cache.seats != seats:
        cache = live.sent = SentCache(live.version, seats, _public(live, seats))
    key = (seat, since)
    text = cache.texts.get(key)
    if text is None:
        data = _state_data(live, cache.public, seat, since)
        text = cache.texts[key] = to_json(data).decode()
    return cache.version, text


def replay(game: Game, actions: list[int], step: int, seat: int | None) -> Replay:
    """A finished match's position after ``step`` actions, as ``seat`` saw it."""
    state: State = game.new_initial_state()
    log: list[dict[str, Any]] = []
    for action in actions[:step]:
        before = state.clone()
        state.apply_action(action)
        log.extend(state.narrate(before, action, seat))
    return Replay(
        step=step,
        steps=len(actions),
        seat=seat,
        view=state.view(seat),
        log=log,
        breakdown=state.score_breakdown(seat),
    )


def record(
    game: str, options: dict[str, Any], seats: list[str], actions: list[int], created: str
) -> dict[str, Any]:
    """The match record of a finished table, as the CLI replays it; the seed left out
    (chance outcomes are in the actions, so nothing is lost by it). ``seats`` are the
    terminal's seat kinds ("human" or a bot's level), not people's names."""
    match = MatchRecord(game, dict(options), seats, list(actions), seed=None)
    match.created = created
    return match.to_json()
