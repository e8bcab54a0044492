"""The one filter: every message about a table, for one seat or a spectator, is built here.

A message is made from what the viewer may know and nothing else: the state's view for
that seat, that seat's own legal actions with their descriptors, its prompt, the log as
narrated for it, the score breakdown as it may know it, and the version. It never reads
the seed, the history, or another seat's view. The WebSocket ``state`` message, the answer to a
refusal, the replay endpoint and the downloadable record (which leaves out the seed, and
is offered only for finished tables) all come from here.
"""

from __future__ import annotations

from typing import Any

from necropolis.engine.protocol import Game, State
from necropolis.engine.record import MatchRecord
from necropolis.server.live import LiveTable
from necropolis.server.models import Replay, SeatState, StateMessage


def seat_states(live: LiveTable) -> list[SeatState]:
    connected = {c.seat for c in live.connections}
    return [
        SeatState(
            seat=int(s["seat"]),
            type=s["type"],
            name=s.get("name"),
            level=s.get("level"),
            connected=s["type"] == "bot" or int(s["seat"]) in connected,
        )
        for s in live.row.seats
    ]


def state_message(live: LiveTable, seat: int | None, since: int) -> StateMessage:
    """The ``state`` message for ``seat`` (None: a spectator), with the log from ``since``."""
    state = live.state
    acting = list(state.acting_seats())
    actions: list[dict[str, Any]] = []
    may_act = seat is not None and seat in acting and not live.is_bot(seat)
    if may_act and seat is not None:
        actions = [state.action_info(a) for a in state.legal_actions(seat)]
    return StateMessage(
        table=live.id,
        version=live.version,
        seat=seat,
        status="finished" if state.is_terminal() else "playing",
        game=live.game.id,
        options=dict(live.game.options),
        seats=seat_states(live),
        view=state.view(seat),
        current_player=state.current_player(),
        acting_seats=acting,
        prompt=state.prompt(seat) if may_act else None,
        actions=actions,
        log=live.log_since(seat, since),
        breakdown=state.score_breakdown(seat),
    )


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
