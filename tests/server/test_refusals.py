"""Nobody where they do not belong: every bad request is refused clearly, with the
protocol's code, and changes nothing.

One server (SQLite) serves the whole module; each test makes its own tables.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.clients import MESSAGE_TIMEOUT, Server, SyncSeat, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("refusals")
    with running_server(f"sqlite:///{folder / 'tables.sqlite3'}") as running:
        yield running


def two_people(server: Server) -> tuple[dict[str, Any], SyncSeat, SyncSeat]:
    """A two-person luxor2001 table, both seats connected, the first decision reached."""
    created = server.create_table("luxor2001", ["me", "link"])
    seats = [SyncSeat.connect(server, created["table_id"], s["token"]) for s in created["seats"]]
    for seat in seats:
        seat.until(lambda s: bool(s["acting_seats"]))
    return created, seats[0], seats[1]


def mover(a: SyncSeat, b: SyncSeat) -> tuple[SyncSeat, SyncSeat]:
    """(the seat whose turn it is, the other)."""
    acting = a.state["acting_seats"]
    return (a, b) if a.state["seat"] in acting else (b, a)


def refusal(seat: SyncSeat) -> dict[str, Any]:
    """The next refusal, and check that a state follows it at an unchanged version."""
    while True:
        message = seat.recv()
        if message["type"] == "refused":
            break
    after = seat.recv()
    assert after["type"] == "state" and after["version"] == message["version"]
    return message


def error_of(server: Server, table_id: str, first: str) -> dict[str, Any]:
    """Open a socket, send ``first``, and return the error that closes it."""
    with connect(server.ws_url(table_id), open_timeout=MESSAGE_TIMEOUT) as socket:
        socket.send(first)
        message: dict[str, Any] = json.loads(socket.recv(MESSAGE_TIMEOUT))
        with pytest.raises(ConnectionClosed):
            socket.recv(MESSAGE_TIMEOUT)
    return message


def hello(token: str, version: int | None = None) -> str:
    return json.dumps({"type": "hello", "token": token, "version": version})


# --- WebSocket ---------------------------------------------------------------------------


def test_forged_and_foreign_tokens_are_refused(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    other = server.create_table("luxor2001", ["me", "link"])
    table_id = created["table_id"]
    forged = "A" * 43
    for token in (forged, other["seats"][0]["token"], other["creator_token"], ""):
        error = error_of(server, table_id, hello(token))
        assert error == {"type": "error", "code": "bad_token", "message": error["message"]}
    assert error_of(server, "no-such-table", hello(forged))["code"] == "no_such_table"
    assert error_of(server, table_id, json.dumps({"type": "ping"}))["code"] == "hello_expected"
    assert error_of(server, table_id, "not json")["code"] == "hello_expected"


def test_out_of_turn_and_wrong_seat_are_refused(server: Server) -> None:
    _created, a, b = two_people(server)
    moving, waiting = mover(a, b)
    version = moving.state["version"]
    action = moving.state["actions"][0]["action"]
    assert waiting.state["actions"] == [] and waiting.state["prompt"] is None
    # The waiting seat tries the mover's action: it is not its turn.
    waiting.act(action, version)
    assert refusal(waiting)["code"] == "not_your_turn"
    # An action id the mover does not have.
    legal = {d["action"] for d in moving.state["actions"]}
    illegal = next(x for x in range(10_000) if x not in legal)
    moving.act(illegal, version)
    assert refusal(moving)["code"] == "illegal_action"
    assert moving.state["version"] == version  # nothing changed


def test_stale_and_duplicate_actions_are_applied_once(server: Server) -> None:
    _created, a, b = two_people(server)
    moving, _waiting = mover(a, b)
    version = moving.state["version"]
    action = moving.state["actions"][0]["action"]
    moving.act(action, version)
    moving.act(action, version)  # a double click: the same act again
    # The answer to the first act; who comes and goes is told in presence messages,
    # which may arrive before it (the other seat connected a moment ago).
    first = next(m for m in iter(moving.recv, None) if m["type"] != "presence")
    assert first["type"] == "state" and first["version"] > version
    assert refusal(moving)["code"] == "stale_version"
    response = moving.state
    # Exactly one action of this seat was applied at that version.
    mine = [e for e in moving.log if e["index"] == version]
    assert mine and all(e["seat"] == _seat_of(moving) for e in mine)
    # An act at an old version is stale too.
    moving.act(action, version)
    stale = refusal(moving)
    assert stale["code"] == "stale_version" and stale["version"] >= response["version"] > version


def _seat_of(seat: SyncSeat) -> int:
    value: int = seat.state["seat"]
    return value


def test_oversized_and_malformed_messages_are_refused(server: Server) -> None:
    _created, a, _b = two_people(server)
    version = a.state["version"]
    a.send(json.dumps({"type": "ping", "padding": "x" * 5000}))
    assert refusal(a)["code"] == "too_large"
    for bad in (
        "not json",
        "[]",
        json.dumps({"type": "shout"}),
        json.dumps({"type": "act", "action": "7", "version": version}),
        json.dumps({"type": "act", "action": 7}),
        json.dumps({"type": "act", "action": 7, "version": -1}),
        json.dumps({"type": "act", "action": True, "version": version}),
        b"\x00\x01",
    ):
        a.send(bad)
        assert refusal(a)["code"] == "malformed", bad
    a.send(json.dumps({"type": "ping"}))
    assert a.recv() == {"type": "pong"}
    assert a.state["version"] == version


def test_a_message_of_no_known_type_is_refused_saying_so(server: Server) -> None:
    created, a, _b = two_people(server)
    version = a.state["version"]
    a.send(json.dumps({"type": "shout", "text": "hello?"}))
    unknown = refusal(a)
    assert unknown["code"] == "malformed"
    assert unknown["message"] == (
        "There is no message of type 'shout': a client sends hello, act, undo, commit, ping, "
        "log, hint."
    )
    a.send(json.dumps({"action": 3}))
    assert "says its type" in refusal(a)["message"]
    a.send(json.dumps({"type": "act", "action": 3}))
    assert refusal(a)["message"] == (
        "That act message is not as the protocol says (version: Field required)."
    )
    # A second hello is not taken for a ping, nor as a new seat: it is refused.
    a.send(json.dumps({"type": "hello", "token": created["spectator_token"]}))
    assert refusal(a)["message"] == "This connection said hello already."
    assert a.state["seat"] == 0
    a.send(json.dumps({"type": "ping"}))
    assert next(m for m in iter(a.recv, None) if m["type"] != "presence") == {"type": "pong"}
    assert a.state["version"] == version


def test_a_spectator_cannot_act(server: Server) -> None:
    created, a, b = two_people(server)
    watcher = SyncSeat.connect(server, created["table_id"], created["spectator_token"])
    assert watcher.state["seat"] is None and watcher.state["actions"] == []
    moving, _ = mover(a, b)
    watcher.act(moving.state["actions"][0]["action"])
    assert refusal(watcher)["code"] == "not_your_turn"


def test_a_flood_is_limited_then_closed(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    token = created["seats"][0]["token"]
    codes: list[str] = []
    with connect(server.ws_url(created["table_id"]), open_timeout=MESSAGE_TIMEOUT) as socket:
        socket.send(hello(token))
        ping = json.dumps({"type": "ping"})
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(500):
                socket.send(ping)
            while True:
                message = json.loads(socket.recv(MESSAGE_TIMEOUT))
                if message["type"] in ("refused", "error"):
                    codes.append(message["code"])
    assert "rate_limited" in codes and codes[-1] == "protocol"
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def test_a_huge_frame_closes_the_connection(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    seat = SyncSeat.connect(server, created["table_id"], created["seats"][0]["token"])
    with pytest.raises(ConnectionClosed):
        seat.send("x" * 200_000)
        while True:
            seat.recv()


# --- HTTP --------------------------------------------------------------------------------


def assert_error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    text = response.text.lower()
    for leak in ("traceback", "sqlalchemy", "select ", "insert ", 'file "'):
        assert leak not in text


def test_http_errors_are_plain(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    table_id = created["table_id"]
    seat_token = created["seats"][0]["token"]
    assert_error(server.get(f"/api/tables/{table_id}"), 401, "no_token")
    assert_error(server.get(f"/api/tables/{table_id}", "forged"), 401, "bad_token")
    assert_error(server.get("/api/tables/nope", seat_token), 404, "no_such_table")
    assert_error(server.get("/api/games/chess/layout"), 404, "no_such_game")
    assert_error(
        server.post("/api/tables", {"game": "chess", "seats": [{"type": "me"}]}),
        404,
        "no_such_game",
    )
    assert_error(
        server.post(
            "/api/tables",
            {
                "game": "luxor2001",
                "options": {"curse": "maybe"},
                "seats": [{"type": "me"}, {"type": "me"}],
            },
        ),
        400,
        "bad_options",
    )
    assert_error(
        server.post(
            "/api/tables",
            {"game": "luxor2001", "options": {"players": 3}, "seats": [{"type": "me"}]},
        ),
        400,
        "bad_seats",
    )
    assert_error(
        server.post("/api/tables", {"game": "luxor2001", "seats": [{"type": "god"}]}),
        422,
        "invalid",
    )
    assert_error(server.post("/api/tables", {"game": "x" * 70_000, "seats": []}), 413, "too_large")
    # Only the creator may hand a seat over or ask for a rematch.
    assert_error(
        server.post(f"/api/tables/{table_id}/rematch", None, seat_token), 403, "not_creator"
    )
    assert_error(
        server.post(f"/api/tables/{table_id}/seats/1/bot", {"level": "easy"}, seat_token),
        403,
        "not_creator",
    )
    # A match in play has no record or replay yet.
    assert_error(server.get(f"/api/tables/{table_id}/record", seat_token), 409, "not_finished")
    assert_error(server.get(f"/api/tables/{table_id}/replay", seat_token), 409, "not_finished")
    assert_error(server.get("/api/nothing/here"), 404, "not_found")
    # The API's description is at /api/openapi.json; its usual root addresses are not the page.
    described = server.get("/api/openapi.json")
    assert described.status_code == 200 and "/api/tables" in described.json()["paths"]
    for path in ("/openapi.json", "/docs", "/redoc"):
        assert_error(server.get(path), 404, "not_found")


def test_deep_nesting_is_malformed_and_the_connection_stays(server: Server) -> None:
    _created, a, _b = two_people(server)
    version = a.state["version"]
    nested = "[" * 1900 + "]" * 1900  # under 4 KiB, deeper than a parser's recursion
    assert len(nested.encode()) < 4096
    a.send(nested)
    assert refusal(a)["code"] == "malformed"
    a.send(json.dumps({"type": "act", "action": json.loads("[" * 50 + "]" * 50)}))
    assert refusal(a)["code"] == "malformed"
    a.send(json.dumps({"type": "ping"}))
    assert next(m for m in iter(a.recv, None) if m["type"] != "presence") == {"type": "pong"}
    assert a.state["version"] == version


def test_the_hello_is_bounded_too(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    table_id = created["table_id"]
    token = created["seats"][0]["token"]
    nested = "[" * 1900 + "]" * 1900
    error = error_of(server, table_id, nested)
    assert error["code"] == "hello_expected"
    padded = json.dumps({"type": "hello", "token": token, "padding": "x" * 5000})
    assert error_of(server, table_id, padded)["code"] == "too_large"
    # A hello just under the limit is read as any other message.
    assert error_of(server, table_id, hello("B" * 200) + " " * 3000)["code"] == "bad_token"


def test_a_chunked_body_is_cut_at_the_limit(server: Server) -> None:
    """A body without Content-Length is counted as it arrives: past 64 KiB the server
    answers 413 and reads no more, whatever the client goes on sending."""
    import socket as sockets
    from select import select
    from urllib.parse import urlsplit

    address = urlsplit(server.url)
    assert address.hostname is not None and address.port is not None
    total = 8 * 1024 * 1024
    chunk = b"[" + b"1," * 8191 + b"1"  # 16 KiB of JSON-looking filler
    sent = 0
    with sockets.create_connection((address.hostname, address.port), timeout=60) as conn:
        conn.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        answered = False
        try:
            while sent < total and not answered:
                conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
                answered = bool(select([conn], [], [], 0.005)[0])
            if not answered:
                conn.sendall(b"0\r\n\r\n")  # the whole body sent: the end of it
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server stopped reading and closed: what is wanted
        received = b""
        while b"\r\n\r\n" not in received or not received.rstrip().endswith(b"}"):
            part = conn.recv(65536)
            if not part:
                break
            received += part
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), received[:300]
    assert json.loads(body)["error"]["code"] == "too_large"
    assert sent < total  # the answer came long before the client had sent it all
