"""A table's chat over real HTTP and WebSocket, on SQLite and PostgreSQL.

Seats and spectators write; every open connection gets a ``chat`` message that carries
the text and its writer and nothing else; markup stays text and control characters go;
500 characters at most; a writer is rate-limited; the creator may keep spectators apart;
the chat survives a restart and is there once the match is over (the replay's page reads
it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.clients import Server, running_server


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    with running_server(db_url) as s:
        yield s


def socket(server: Server, table_id: str, token: str) -> ClientConnection:
    ws = connect(server.ws_url(table_id), legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def next_chat(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=60))
        if message["type"] == "chat":
            return dict(message)


def say(server: Server, table_id: str, token: str, text: str) -> Any:
    return server.post(f"/api/tables/{table_id}/chat", {"text": text}, token=token)


def test_chat_reaches_the_table_as_text(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    table_id = created["table_id"]
    ann, bo = (s["token"] for s in created["seats"])
    spectator = created["spectator_token"]
    with socket(server, table_id, bo) as bo_ws, socket(server, table_id, spectator) as sp_ws:
        # Wait until both are connected (their first state) before writing.
        for ws in (bo_ws, sp_ws):
            while json.loads(ws.recv(timeout=60))["type"] != "state":
                pass
        r = say(server, table_id, ann, "<b>hi</b>\x07\x1b[31m\u202e there\n<script>x</script>")
        assert r.status_code == 200, r.text
        expected = "<b>hi</b>[31m there <script>x</script>"
        assert r.json()["text"] == expected
        for ws in (bo_ws, sp_ws):
            line = next_chat(ws)
            assert set(line) == {"type", "index", "seat", "name", "text", "at"}
            assert (line["seat"], line["text"], line["name"]) == (0, expected, None)
        say(server, table_id, spectator, "go on")
        assert next_chat(bo_ws)["seat"] is None
    listed = server.get(f"/api/tables/{table_id}/chat", token=bo).json()
    assert [(m["seat"], m["text"]) for m in listed["messages"]] == [(0, expected), (None, "go on")]


def test_chat_limits(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    table_id, ann = created["table_id"], created["seats"][0]["token"]
    assert say(server, table_id, ann, "x" * 501).json()["error"]["code"] == "chat_too_long"
    assert say(server, table_id, ann, " \x07\u202e ").json()["error"]["code"] == "empty_chat"
    assert say(server, table_id, ann, "y" * 500).status_code == 200
    for _ in range(4):
        assert say(server, table_id, ann, "hello").status_code == 200
    r = say(server, table_id, ann, "one too many")
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    # Another writer is not held back by the first.
    assert say(server, table_id, created["seats"][1]["token"], "me too").status_code == 200
    assert say(server, table_id, "not a token at all", "hi").status_code == 401


def test_spectators_apart_and_the_chat_survives_a_restart(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    table_id = created["table_id"]
    ann, bo = (s["token"] for s in created["seats"])
    spectator, creator = created["spectator_token"], created["creator_token"]
    settings = f"/api/tables/{table_id}/chat/settings"
    refused = server.post(settings, {"spectators_apart": True}, token=bo)
    assert refused.status_code == 403
    assert server.post(settings, {"spectators_apart": True}, token=creator).status_code == 200
    with socket(server, table_id, bo) as bo_ws:
        while json.loads(bo_ws.recv(timeout=60))["type"] != "state":
            pass
        say(server, table_id, spectator, "psst, bo")
        say(server, table_id, ann, "your move")
        # Bo gets Ann's line and never the spectator's.
        assert next_chat(bo_ws)["text"] == "your move"
    server.restart()
    seen_by_seat = server.get(f"/api/tables/{table_id}/chat", token=bo).json()
    assert seen_by_seat["spectators_apart"] is True
    assert [m["text"] for m in seen_by_seat["messages"]] == ["your move"]
    seen_by_spectator = server.get(f"/api/tables/{table_id}/chat", token=spectator).json()
    assert [m["text"] for m in seen_by_spectator["messages"]] == ["psst, bo"]
