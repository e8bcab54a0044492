"""A finished table's analysis and a table's hints, over real HTTP and WebSocket.

The analysis of a finished match is made once, in the background, and kept with the
table; its figures are the command line's for the downloaded record. A hint goes to the
asking seat's connection alone, names the moves the analysis rates best from that seat's
window (the same as worked out afterwards from the record), and every viewer is told that
the seat asked; a rated table gives none, and neither does a table that did not allow
them, nor a spectator or a seat whose turn it is not.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from necropolis.analysis.explain import Depth, analyse_record, hints, judge_for
from necropolis.engine import SeatWindow
from necropolis.engine.record import MatchRecord
from necropolis.games import load_game
from tests.clients import Server, SyncSeat, running_server

DAILY = {"mode": "turn", "turn": 86400}


@pytest.fixture
def server(sqlite_url: str) -> Iterator[Server]:
    with running_server(sqlite_url) as s:
        yield s


def _create(server: Server, body: dict[str, Any]) -> Any:
    return server.post("/api/tables", body)


def _finished(server: Server, created: dict[str, Any], timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    url = f"/api/tables/{created['table_id']}"
    while server.get(url, created["creator_token"]).json()["status"] != "finished":
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.5)


def _analysed(server: Server, created: dict[str, Any], timeout: float = 300) -> dict[str, Any]:
    url = f"/api/tables/{created['table_id']}/analysis"
    deadline = time.monotonic() + timeout
    seen = []
    while True:
        answer = server.get(url, created["spectator_token"])
        assert answer.status_code == 200, answer.text
        state = answer.json()
        seen.append(state["status"])
        if state["status"] == "done":
            return {"state": state, "seen": seen}
        assert state["status"] in ("queued", "running"), state["error"]
        assert time.monotonic() < deadline, seen
        time.sleep(0.3)


def _nice(pid: int) -> int | None:
    """A process's nice value (/proc/PID/stat's 19th field), None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[16])


def _record(server: Server, created: dict[str, Any]) -> MatchRecord:
    data = server.get(f"/api/tables/{created['table_id']}/record", created["creator_token"]).json()
    return MatchRecord.from_json(data)


def test_a_finished_match_is_analysed_once_and_kept(db_url: str) -> None:
    with running_server(db_url) as server:
        created = server.create_table("luxor2001", ["bot:easy", "bot:easy"])
        answer = server.get(f"/api/tables/{created['table_id']}/analysis", created["creator_token"])
        if answer.status_code == 409:  # asked while the bots still play
            assert answer.json()["error"]["code"] == "not_finished"
        _finished(server, created)
        first = _analysed(server, created)
        # Made behind every table in play: its worker runs at the lowest CPU priority.
        assert 19 in [_nice(pid) for pid in server.descendants()]
        analysis = first["state"]["analysis"]
        assert first["state"]["worlds"] == 32 and first["state"]["done"] == first["state"]["total"]
        record = _record(server, created)
        assert len(analysis["chances"]) == len(record.actions) + 1
        # The command line's figures for the downloaded record, exactly.
        assert analysis == analyse_record(record, load_game, Depth(worlds=32)).to_json()
        # Kept: asked again, it is there at once, the same.
        again = server.get(f"/api/tables/{created['table_id']}/analysis", created["creator_token"])
        assert again.json() == first["state"]
        # A shallower one is not made; a deeper one is, the last shown meanwhile.
        url_ = f"/api/tables/{created['table_id']}/analysis"
        same = server.post(url_, {"worlds": 8}, created["creator_token"]).json()
        assert same["status"] == "done" and same["worlds"] == 32
        deeper = server.post(url_, {"worlds": 40}, created["creator_token"]).json()
        assert deeper["worlds"] == 40 and deeper["status"] in ("queued", "running", "done")
        assert deeper["analysis"] is not None
        busy = server.post(url_, {"worlds": 48}, created["creator_token"])
        assert busy.status_code in (200, 409)
        done = _analysed(server, created)["state"]
        assert done["analysis"]["depth"]["worlds"] in (40, 48)
        assert server.post(url_, {"worlds": 100000}, created["creator_token"]).status_code == 422


def test_an_analysis_is_refused_while_the_match_is_played(server: Server) -> None:
    created = server.create_table("luxor2001", ["link", "link"])
    answer = server.get(f"/api/tables/{created['table_id']}/analysis", created["creator_token"])
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "not_finished"


def _hinted(server: Server, **extra: Any) -> dict[str, Any]:
    body = {
        "game": "luxor2001",
        "seats": [{"type": "link"}, {"type": "link"}],
        "hints": True,
        **extra,
    }
    answer = _create(server, body)
    assert answer.status_code == 200, answer.text
    created: dict[str, Any] = answer.json()
    return created


def _hint(seat: SyncSeat) -> dict[str, Any]:
    seat.send({"type": "hint", "version": seat.state["version"]})
    while True:
        message = seat.recv()
        if message["type"] in ("hint", "refused"):
            return message


def test_a_hint_reaches_its_seat_alone_and_every_viewer_is_told(server: Server) -> None:
    created = _hinted(server)
    table_id = created["table_id"]
    tokens = [s["token"] for s in created["seats"]]
    first = SyncSeat.connect(server, table_id, tokens[0])
    second = SyncSeat.connect(server, table_id, tokens[1])
    watcher = SyncSeat.connect(server, table_id, created["spectator_token"])
    state = first.until(lambda s: 0 in s["acting_seats"])
    assert state["hints"] is True and state["hints_used"] == []
    version = state["version"]
    hint = _hint(first)
    assert hint["type"] == "hint" and hint["version"] == version
    moves = hint["moves"]
    assert len(moves) == 3
    legal = {a["action"]: a for a in first.state["actions"]}
    assert all(m["action"] in legal and m["info"] == legal[m["action"]] for m in moves)
    assert [m["chance"] for m in moves] == sorted((m["chance"] for m in moves), reverse=True)
    # Everyone is told that seat 0 asked; nobody else is sent the hint.
    for viewer in (first, second, watcher):
        told = viewer.until(lambda s: s["hints_used"] == [{"seat": 0, "index": version}])
        assert told["version"] == version
    assert all(m["type"] != "hint" for m in second.received + watcher.received)
    # Nobody else may ask: not the seat whose turn it is not, not a spectator.
    refused = _hint(second)
    assert refused["type"] == "refused" and refused["code"] == "not_your_turn"
    refused = _hint(watcher)
    assert refused["type"] == "refused" and refused["code"] == "no_hints"
    assert all(m["type"] != "hint" for m in second.received + watcher.received)
    # Played to the end by bots, the record says what the seat's window held: the hint's
    # moves are the analysis's best from it.
    for seat in (0, 1):
        handed = server.post(
            f"/api/tables/{table_id}/seats/{seat}/bot", {"level": "easy"}, created["creator_token"]
        )
        assert handed.status_code == 200, handed.text
    for viewer in (first, second, watcher):
        viewer.close()
    _finished(server, created)
    record = _record(server, created)
    state_then = load_game(record.game, **record.options).new_initial_state()
    for action in record.actions[:version]:
        state_then.apply_action(action)
    best = hints(SeatWindow(state_then, 0), Depth(), judge_for(state_then.game))
    assert [(m["action"], m["chance"]) for m in moves] == [(a, round(c, 4)) for a, c in best]


def test_no_hints_at_a_table_that_does_not_allow_them_nor_at_a_rated_one(server: Server) -> None:
    plain = server.create_table("luxor2001", ["link", "link"])
    seat = SyncSeat.connect(server, plain["table_id"], plain["seats"][0]["token"])
    seat.until(lambda s: 0 in s["acting_seats"])
    assert seat.state["hints"] is False
    refused = _hint(seat)
    assert refused["type"] == "refused" and refused["code"] == "no_hints"
    seat.close()
    # A rated table is refused hints when it is made, and a hinted one cannot be rated.
    rated = _create(
        server,
        {
            "game": "luxor2001",
            "seats": [{"type": "link"}, {"type": "bot"}],
            "rated": True,
            "clock": DAILY,
            "hints": True,
        },
    )
    assert rated.status_code == 400 and rated.json()["error"]["code"] == "rated_hints"
    hinted = _hinted(server, clock=DAILY)
    made = server.post(f"/api/tables/{hinted['table_id']}/rated", None, hinted["creator_token"])
    assert made.status_code == 409 and made.json()["error"]["code"] == "hinted_table"
