"""Who is at a table travels as small ``presence`` messages, connections are limited, and
a seat's link is a key: its creator can change it, which ends the old one.

One server (SQLite) with the default limits serves the whole module; each test makes its
own tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.clients import MESSAGE_TIMEOUT, Seat, Server, SyncSeat, running_server

#: The server's default limit of connections per table (docs/protocol.md).
TABLE_LIMIT = 100


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("presence")
    with running_server(f"sqlite:///{folder / 'tables.sqlite3'}") as running:
        yield running


def hello(token: str) -> str:
    return json.dumps({"type": "hello", "token": token})


async def quiet_for(seat: Seat, seconds: float) -> list[dict[str, Any]]:
    """Every message ``seat`` receives in the next ``seconds``."""
    got: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while (left := end - loop.time()) > 0:
        try:
            got.append(await seat.recv(left))
        except TimeoutError:
            break
    return got


async def spectate(server: Server, table_id: str, token: str) -> tuple[Any, dict[str, Any]]:
    """Open a spectator's connection: the socket and the first message it got."""
    socket = await websockets.connect(server.ws_url(table_id), open_timeout=MESSAGE_TIMEOUT)
    with contextlib.suppress(ConnectionClosed):
        # Over the limit of an address, the server refuses before it reads a hello.
        await socket.send(hello(token))
    first = json.loads(await asyncio.wait_for(socket.recv(), MESSAGE_TIMEOUT))
    return socket, first


def test_a_crowd_of_spectators_costs_the_players_nothing(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    table_id = created["table_id"]

    async def main() -> None:
        honest = await Seat.connect(server, table_id, created["seats"][0]["token"])
        other = await Seat.connect(server, table_id, created["seats"][1]["token"])
        await honest.until(lambda s: bool(s["acting_seats"]))
        await quiet_for(honest, 1.0)  # what the other seat's coming brought
        received = len(honest.received)
        opened = await asyncio.gather(
            *(spectate(server, table_id, created["spectator_token"]) for _ in range(300))
        )
        try:
            await crowd(opened)
        finally:
            for socket, _first in opened:
                await socket.close()
        # Three hundred came and went: the honest seat was sent nothing at all.
        after = await quiet_for(honest, 1.0)
        assert honest.received[received:] == after == []
        # And the table plays on.
        mover = honest if honest.state["seat"] in honest.state["acting_seats"] else other
        version = mover.state["version"]
        await mover.act(mover.state["actions"][0]["action"], version)
        await honest.until(lambda s: s["version"] > version)
        await honest.close()
        await other.close()

    async def crowd(opened: list[tuple[Any, dict[str, Any]]]) -> None:
        firsts = [first for _socket, first in opened]
        watching = [first for first in firsts if first["type"] == "state"]
        refused = [first for first in firsts if first["type"] != "state"]
        # The table takes connections up to its limit, the two seats' included; the others
        # are told why and closed.
        assert len(watching) == TABLE_LIMIT - 2
        assert {r["code"] for r in refused} == {"too_many_connections"}
        for socket, first in opened:
            if first["type"] != "state":
                with pytest.raises(ConnectionClosed) as closed:
                    await asyncio.wait_for(socket.recv(), MESSAGE_TIMEOUT)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    asyncio.run(main())


def test_presence_tells_a_seat_it_is_open_twice(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    table_id = created["table_id"]
    token = created["seats"][0]["token"]
    first = SyncSeat.connect(server, table_id, token)
    assert first.recv() == {
        "type": "presence",
        "seats": [{"seat": 0, "connected": True}, {"seat": 1, "connected": False}],
        "here": 1,
    }
    second = SyncSeat.connect(server, table_id, token)
    assert second.recv()["here"] == 2
    assert next(m for m in iter(first.recv, None) if m["type"] == "presence")["here"] == 2
    # The other seat comes: everyone hears it, each with its own count.
    other = SyncSeat.connect(server, table_id, created["seats"][1]["token"])
    assert other.recv()["here"] == 1
    for seat in (first, second):
        message = next(m for m in iter(seat.recv, None) if m["type"] == "presence")
        assert message["seats"][1]["connected"] is True and message["here"] == 2
    second.close()
    message = next(m for m in iter(first.recv, None) if m["type"] == "presence")
    assert message["here"] == 1 and message["seats"][0]["connected"] is True
    other.close()
    message = next(m for m in iter(first.recv, None) if m["type"] == "presence")
    assert message["seats"][1]["connected"] is False
    first.close()


def test_a_new_link_ends_the_old_one(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    table_id = created["table_id"]
    creator = created["creator_token"]
    old = created["seats"][1]["token"]
    holder = SyncSeat.connect(server, table_id, old)
    # Only the creator may do it.
    refused = server.post(f"/api/tables/{table_id}/seats/1/link", None, old)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_creator"
    answer = server.post(f"/api/tables/{table_id}/seats/1/link", None, creator)
    assert answer.status_code == 200, answer.text
    new = answer.json()["seats"][1]["token"]
    assert new and new != old
    assert answer.json()["seats"][0]["token"] == created["seats"][0]["token"]
    # The old link's connection is told why, and closed.
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = holder.recv()
            if message["type"] == "error":
                assert message["code"] == "link_replaced"
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert holder.received[-1]["code"] == "link_replaced"
    # The old token opens nothing; the new one opens the seat, and the creator sees it.
    assert server.get(f"/api/tables/{table_id}", old).status_code == 401
    assert SyncSeat.connect(server, table_id, new).state["seat"] == 1
    summary = server.get(f"/api/tables/{table_id}", creator).json()
    assert summary["seats"][1]["token"] == new
    # A second new link ends the first new one too.
    newer = server.post(f"/api/tables/{table_id}/seats/1/link", None, creator).json()
    assert newer["seats"][1]["token"] not in (old, new)
    assert server.get(f"/api/tables/{table_id}", new).status_code == 401


def test_names_lose_control_and_bidirectional_characters(server: Server) -> None:
    body = {
        "game": "luxor2001",
        "seats": [
            {"type": "me", "name": "Ann\x07\u202eevil\u202c"},
            {"type": "link", "name": " Bo\n\tb \u2066x\u2069\x1b[31m "},
        ],
    }
    created = server.post("/api/tables", body).json()
    assert [s["name"] for s in created["seats"]] == ["Annevil", "Bo b x[31m"]
    seat = SyncSeat.connect(server, created["table_id"], created["seats"][0]["token"])
    assert [s["name"] for s in seat.state["seats"]] == ["Annevil", "Bo b x[31m"]
    summary = server.get(f"/api/tables/{created['table_id']}", created["creator_token"]).json()
    assert [s["name"] for s in summary["seats"]] == ["Annevil", "Bo b x[31m"]
    seat.close()


def test_one_address_holds_at_most_its_limit_of_connections_over_all_tables(
    tmp_path: Path,
) -> None:
    # A server of its own with a small limit per address (docs/protocol.md): the limit
    # counts an address's connections over every table, not per table.
    limit = 6
    env = {"NECROPOLIS_MAX_ADDRESS_CONNECTIONS": str(limit)}
    with running_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", env=env) as server:
        tables = [server.create_table("luxor2001", ["me", "link"]) for _ in range(3)]

        async def main() -> None:
            opened = []
            for created in tables:
                for _ in range(limit // len(tables)):
                    socket, first = await spectate(
                        server, created["table_id"], created["spectator_token"]
                    )
                    assert first["type"] == "state", first
                    opened.append(socket)
            # One more, at any table, is told why and closed; the others stay open.
            extra, first = await spectate(
                server, tables[0]["table_id"], tables[0]["spectator_token"]
            )
            assert first["type"] == "error" and first["code"] == "too_many_connections"
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(extra.recv(), MESSAGE_TIMEOUT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            for socket in opened:
                assert socket.state.name == "OPEN"
            # When one leaves, the address may open one again.
            await opened.pop().close()
            again: dict[str, Any] = {}
            for _attempt in range(50):  # the server hears of the close a moment later
                socket, again = await spectate(
                    server, tables[1]["table_id"], tables[1]["spectator_token"]
                )
                if again["type"] == "state":
                    opened.append(socket)
                    break
                await socket.close()
                await asyncio.sleep(0.1)
            assert again["type"] == "state", again
            for socket in opened:
                await socket.close()

        asyncio.run(main())
