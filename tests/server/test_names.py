"""Each seat's name, over real HTTP and WebSocket, on SQLite and PostgreSQL.

A seat shows the name of the account that holds it (the creator's own seat from the
start, a friend's seat from when they open its link signed in), else the name a guest
chose (at set-up, or when they sit down), else none (a client writes "Player 2", or a
bot's level). Every message that lists seats says the same: the ``state`` of every seat
and spectator, the table's summary, each account's "my tables", the creator's list, the
chat, and the record of a finished match. A database from before (revision 0008) shows
its claimed seats' account names once upgraded.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, insert
from websockets.sync.client import connect

from necropolis.server import db
from tests.clients import Server, SyncSeat, running_server
from tests.server import before_accounts

PAGE = {"X-Necropolis": "1"}


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    with running_server(db_url) as s:
        yield s


def client(server: Server) -> httpx.Client:
    """A browser-like client: it keeps cookies and says it is the page."""
    return httpx.Client(base_url=server.url, headers=PAGE, timeout=60)


def register(c: httpx.Client, name: str) -> None:
    r = c.post("/api/account/register", json={"name": name, "password": "correct horse"})
    assert r.status_code == 200, r.text


def first_state(server: Server, table_id: str, token: str, cookie: str | None) -> dict[str, Any]:
    """The first ``state`` the table's WebSocket sends this token (with the account's
    session cookie, if given)."""
    headers = {"Origin": server.url}
    if cookie is not None:
        headers["Cookie"] = f"necropolis_session={cookie}"
    with connect(server.ws_url(table_id), additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message: dict[str, Any] = json.loads(ws.recv(timeout=60))
            assert message["type"] != "error", message
            if message["type"] == "state":
                return message


def names(seats: list[dict[str, Any]]) -> list[tuple[str | None, bool]]:
    return [(s["name"], s["account"]) for s in seats]


def test_two_accounts_see_each_others_names_everywhere(server: Server) -> None:
    with client(server) as ana, client(server) as bob:
        register(ana, "Ana")
        register(bob, "Bob")
        # A name typed for the creator's own seat gives way to her account's.
        created = ana.post(
            "/api/tables",
            json={
                "game": "luxor2001",
                "seats": [{"type": "me", "name": "typed"}, {"type": "link"}, {"type": "bot"}],
            },
        ).json()
        table_id = created["table_id"]
        mine, link = created["seats"][0]["token"], created["seats"][1]["token"]
        spectator, creator = created["spectator_token"], created["creator_token"]
        assert names(created["seats"]) == [("Ana", True), (None, False), (None, False)]
        cookie_a = ana.cookies["necropolis_session"]
        cookie_b = bob.cookies["necropolis_session"]

        # Ana is at the table; Bob opens his link signed in: Ana's connection is told.
        seat_a = SyncSeat.connect(server, table_id, mine, cookie=cookie_a)
        try:
            assert names(seat_a.state["seats"])[:2] == [("Ana", True), (None, False)]
            state_b = first_state(server, table_id, link, cookie_b)
            told = seat_a.until(lambda s: s["seats"][1]["name"] == "Bob")
            assert names(told["seats"]) == [("Ana", True), ("Bob", True), (None, False)]
        finally:
            seat_a.close()
        assert names(state_b["seats"]) == [("Ana", True), ("Bob", True), (None, False)]
        # The bot shows no name: a client writes its level ("Hard bot") in its language.
        assert state_b["seats"][2]["type"] == "bot" and state_b["seats"][2]["level"] == "medium"
        watched = first_state(server, table_id, spectator, None)
        assert names(watched["seats"]) == names(state_b["seats"])

        # "My tables" lists each seat by its name, on each side.
        for c, seat in ((ana, 0), (bob, 1)):
            (held,) = c.get("/api/account/tables").json()
            assert held["seat"] == seat
            assert names(held["table"]["seats"]) == [("Ana", True), ("Bob", True), (None, False)]
        (listed,) = server.get("/api/tables/mine", token=creator).json()
        assert names(listed["seats"]) == [("Ana", True), ("Bob", True), (None, False)]
        summary = server.get(f"/api/tables/{table_id}", token=spectator).json()
        assert names(summary["seats"])[:2] == [("Ana", True), ("Bob", True)]

        # Chat lines carry the writer's name.
        line = bob.post(
            f"/api/tables/{table_id}/chat",
            json={"text": "hello"},
            headers={"Authorization": f"Bearer {link}"},
        ).json()
        assert line["name"] == "Bob"

        # A seat an account holds keeps the account's name: no guest name over it.
        r = bob.post(
            f"/api/tables/{table_id}/seats/1/name",
            json={"name": "Robert"},
            headers={"Authorization": f"Bearer {link}"},
        )
        assert r.status_code == 409 and r.json()["error"]["code"] == "account_seat"


def test_a_guest_names_their_seat_and_everyone_sees_it(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    table_id = created["table_id"]
    mine, link = created["seats"][0]["token"], created["seats"][1]["token"]
    path = f"/api/tables/{table_id}/seats/1/name"
    host = SyncSeat.connect(server, table_id, mine)
    try:
        assert [s["name"] for s in host.state["seats"]] == [None, None]
        # Control and bidirectional characters are taken out, white space made one space.
        r = server.post(path, {"name": "  Dee\u202e \u0007 Dee "}, token=link)
        assert r.status_code == 200, r.text
        assert r.json()["seats"][1]["name"] == "Dee Dee"
        told = host.until(lambda s: s["seats"][1]["name"] == "Dee Dee")
        assert told["seats"][1]["account"] is False
        # And again: the guest may change it.
        assert server.post(path, {"name": "Dora"}, token=link).status_code == 200
        host.until(lambda s: s["seats"][1]["name"] == "Dora")
    finally:
        host.close()
    # Only the seat's own token names it; an empty or long name is refused.
    for token, body, status, code in (
        (mine, {"name": "Mallory"}, 403, "not_your_seat"),
        (created["spectator_token"], {"name": "Mallory"}, 403, "not_your_seat"),
        (link, {"name": " \u200f "}, 400, "bad_name"),
        (link, {"name": "x" * 41}, 400, "bad_name"),
        ("nonsense-token", {"name": "Mallory"}, 401, "bad_token"),
    ):
        r = server.post(path, body, token=token)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), r.text
    assert server.post(
        f"/api/tables/{table_id}/seats/0/name", {"name": "Al"}, token=mine
    ).is_success
    summary = server.get(f"/api/tables/{table_id}", token=link).json()
    assert [s["name"] for s in summary["seats"]] == ["Al", "Dora"]
    assert server.get("/api/tables/mine", token=created["creator_token"]).json()[0]["seats"][1][
        "name"
    ] == ("Dora")


def test_the_record_of_a_finished_match_carries_the_seats_names(server: Server) -> None:
    created = server.post(
        "/api/tables",
        {"game": "luxor2001", "seats": [{"type": "me", "name": "Cleo"}, {"type": "bot"}]},
    ).json()
    table_id, creator = created["table_id"], created["creator_token"]
    # Cleo's seat goes to a bot: the match plays itself to its end.
    assert server.post(f"/api/tables/{table_id}/seats/0/bot", {"level": "easy"}, creator).is_success
    deadline = time.monotonic() + 240
    while server.get(f"/api/tables/{table_id}", token=creator).json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.5)
    record = server.get(f"/api/tables/{table_id}/record", token=creator).json()
    assert record["names"] == ["Cleo", None]
    assert record["seats"] == ["easy", "medium"]


def test_claimed_seats_show_their_accounts_names_after_the_upgrade(db_url: str) -> None:
    """A database at revision 0008 (before names were kept with the seats) whose table has
    a seat an account holds: once upgraded, that seat shows the account's name."""
    old = before_accounts.make_database(db_url)
    db.upgrade(db_url, revision="0008_rate_attempts")
    table_id = old["table_id"]
    engine = create_engine(db_url)
    try:
        with engine.begin() as c:
            from necropolis.server.accounts import hash_password, players, seat_claims

            player_id = c.execute(
                insert(players)
                .values(
                    name="Ana",
                    name_key="ana",
                    password_hash=hash_password("correct horse"),
                    created=db.now(),
                )
                .returning(players.c.id)
            ).scalar_one()
            c.execute(
                insert(seat_claims).values(
                    table_id=table_id,
                    seat=0,
                    player_id=player_id,
                    token=old["tokens"][0],
                    claimed=db.now(),
                )
            )
    finally:
        engine.dispose()
    with running_server(db_url) as new:
        (listed,) = new.get("/api/tables/mine", token=old["creator_token"]).json()
        assert listed["seats"][0]["name"] == "Ana" and listed["seats"][0]["account"] is True
        assert listed["seats"][1]["account"] is False
        with client(new) as ana:
            r = ana.post("/api/account/signin", json={"name": "Ana", "password": "correct horse"})
            assert r.status_code == 200
            cookie = ana.cookies["necropolis_session"]
            (held,) = ana.get("/api/account/tables").json()
            assert held["table"]["seats"][0]["name"] == "Ana"
        state = first_state(new, table_id, old["tokens"][0], cookie)
        assert state["seats"][0]["name"] == "Ana" and state["seats"][0]["account"] is True
