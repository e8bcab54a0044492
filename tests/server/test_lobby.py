"""Tables that want players, over real HTTP and WebSocket, on SQLite and PostgreSQL.

An open table is listed in the lobby with its game, players, free seats, clock, rating
and language; it waits (nothing is drawn, nobody acts, no clock runs) until a person
takes its free seat with one request, then leaves the list and begins. Two people who
want the last seat get it once between them. A rated open table is for accounts. An
account invited by name finds the table in "my tables" and in its notices, and the table
begins when they open it. At the end any player asks to play again: the rematch waits
for the others (a bot accepts at once) and begins when they accept; an account's seat
waits for them in their "my tables". A database of the revision before (0010) is
upgraded and its tables play on.
"""

from __future__ import annotations

import concurrent.futures
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
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


def register(c: httpx.Client, name: str) -> str:
    r = c.post("/api/account/register", json={"name": name, "password": "correct horse"})
    assert r.status_code == 200, r.text
    return str(c.cookies["necropolis_session"])


def hello(server: Server, table_id: str, token: str, cookie: str | None = None) -> dict[str, Any]:
    """The first ``state`` (or ``error``) the table's WebSocket answers a hello with."""
    headers = {"Origin": server.url}
    if cookie is not None:
        headers["Cookie"] = f"necropolis_session={cookie}"
    with connect(server.ws_url(table_id), additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message: dict[str, Any] = json.loads(ws.recv(timeout=60))
            if message["type"] in ("state", "error"):
                return message


def listed(server: Server) -> list[dict[str, Any]]:
    r = server.get("/api/lobby")
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()
    return found


def wait_until(check: Any, timeout: float = 120.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.2)


def test_an_open_table_waits_in_the_lobby_until_someone_takes_its_seat(server: Server) -> None:
    clock = {"mode": "realtime", "base": 300, "increment": 5}
    created = server.post(
        "/api/tables",
        {
            "game": "luxor2001",
            "seats": [{"type": "me", "name": "Ann"}, {"type": "open"}],
            "clock": clock,
            "lang": "nl",
        },
    ).json()
    table_id, mine = created["table_id"], created["seats"][0]["token"]
    assert created["seats"][1]["token"] is None
    assert (created["seats"][1]["open"], created["seats"][1]["waiting"]) == (True, True)
    (table,) = [t for t in listed(server) if t["table_id"] == table_id]
    assert (table["game"], table["players"], table["free"]) == ("luxor2001", 2, 1)
    assert (table["lang"], table["rated"]) == ("nl", False)
    assert table["clock"]["mode"] == "realtime" and table["clock"]["base"] == 300
    assert [s["name"] for s in table["seats"]] == ["Ann", None]

    ann = SyncSeat.connect(server, table_id, mine)
    try:
        # The table waits: nothing drawn, nobody to act but the free seat, no clock runs.
        waiting = ann.state
        assert waiting["version"] == 0 and waiting["actions"] == []
        assert waiting["acting_seats"] == [1]
        assert not any(s["running"] for s in waiting["clock"]["seats"])
        ann.act(0)
        refused = ann.recv()
        while refused["type"] == "presence":
            refused = ann.recv()
        assert refused["type"] == "refused" and refused["code"] == "waiting_for_players"

        r = server.post(f"/api/tables/{table_id}/join", {"name": " Bea\u202e "})
        assert r.status_code == 200, r.text
        seated = r.json()
        assert (seated["table_id"], seated["seat"]) == (table_id, 1)
        # The table begins: the deal is drawn, and Ann hears who sat down.
        began = ann.until(lambda s: s["version"] > 0 and s["seats"][1]["name"] == "Bea")
        assert began["seats"][1]["waiting"] is False
        assert table_id not in [t["table_id"] for t in listed(server)]
        assert hello(server, table_id, seated["token"])["seat"] == 1
        # The seat is full: nobody else joins, and its token is Bea's alone.
        again = server.post(f"/api/tables/{table_id}/join", {})
        assert again.status_code == 409 and again.json()["error"]["code"] == "no_free_seat"
        summary = server.get(f"/api/tables/{table_id}", token=created["creator_token"]).json()
        assert summary["seats"][1]["token"] is None and summary["seats"][0]["token"] == mine
    finally:
        ann.close()


def test_two_people_wanting_the_last_seat_get_it_once(server: Server) -> None:
    created = server.post(
        "/api/tables", {"game": "luxor2001", "seats": [{"type": "me"}, {"type": "open"}]}
    ).json()
    table_id = created["table_id"]
    path = f"/api/tables/{table_id}/join"
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda n: server.post(path, {"name": f"P{n}"}), range(4)))
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 409, 409, 409], [r.text for r in answers]
    winner = next(r.json() for r in answers if r.status_code == 200)
    state = hello(server, table_id, winner["token"])
    assert state["seat"] == 1 and state["seats"][1]["name"].startswith("P")


def test_a_rated_open_table_is_for_accounts(server: Server) -> None:
    with client(server) as ana, client(server) as bob:
        register(ana, "Ana")
        cookie = register(bob, "Bob")
        created = ana.post(
            "/api/tables",
            json={
                "game": "luxor2001",
                "seats": [{"type": "me"}, {"type": "open"}],
                "clock": {"mode": "turn", "turn": 3600},
                "rated": True,
            },
        ).json()
        table_id = created["table_id"]
        (table,) = [t for t in listed(server) if t["table_id"] == table_id]
        assert table["rated"] is True and table["clock"]["mode"] == "turn"
        guest = server.post(f"/api/tables/{table_id}/join", {"name": "Guest"})
        assert guest.status_code == 401 and guest.json()["error"]["code"] == "not_signed_in"
        # Ana holds a seat already: she cannot take the other.
        own = ana.post(f"/api/tables/{table_id}/join", json={})
        assert own.status_code == 409 and own.json()["error"]["code"] == "already_seated"
        r = bob.post(f"/api/tables/{table_id}/join", json={"name": "ignored"})
        assert r.status_code == 200, r.text
        seat = r.json()
        # Bob's account holds it: his name, his "my tables", his link only with his session.
        state = hello(server, table_id, seat["token"], cookie)
        assert state["seats"][1]["name"] == "Bob" and state["seats"][1]["account"] is True
        assert [t["table"]["table_id"] for t in bob.get("/api/account/tables").json()] == [table_id]
        assert hello(server, table_id, seat["token"])["code"] == "claimed_seat"


def test_an_invited_account_finds_the_table_and_it_begins_when_they_open_it(
    server: Server,
) -> None:
    with client(server) as ana, client(server) as bob:
        ana_cookie = register(ana, "Ana")
        cookie = register(bob, "Bob")
        for seats, code in (
            ([{"type": "me"}, {"type": "invite", "name": "Nobody"}], "no_such_player"),
            ([{"type": "me"}, {"type": "invite", "name": "ana"}], "bad_seats"),
        ):
            r = ana.post("/api/tables", json={"game": "luxor2001", "seats": seats})
            assert r.json()["error"]["code"] == code, r.text
        created = ana.post(
            "/api/tables",
            json={
                "game": "luxor2001",
                "seats": [{"type": "me"}, {"type": "invite", "name": "BOB"}],
            },
        ).json()
        table_id, invite = created["table_id"], created["seats"][1]
        assert (invite["name"], invite["account"], invite["waiting"]) == ("Bob", True, True)
        # Not in the lobby: the seat is Bob's.
        assert table_id not in [t["table_id"] for t in listed(server)]
        # Bob's "my tables" has it, and his notices count it as his to take.
        (mine,) = bob.get("/api/account/tables").json()
        assert mine["table"]["table_id"] == table_id and mine["seat"] == 1
        turns = wait_until(lambda: bob.get("/api/account/turns").json()["count"] == 1 or None)
        assert turns
        assert [t["table_id"] for t in bob.get("/api/account/turns").json()["tables"]] == [table_id]
        ann = SyncSeat.connect(server, table_id, created["seats"][0]["token"], cookie=ana_cookie)
        try:
            assert ann.state["version"] == 0 and ann.state["acting_seats"] == [1]
            # Bob opens it: he sits down and the match begins.
            state = hello(server, table_id, mine["token"], cookie)
            assert state["seat"] == 1
            ann.until(lambda s: s["version"] > 0 and not s["seats"][1]["waiting"])
        finally:
            ann.close()


def abandoned_table(server: Server, seats: list[dict[str, Any]], c: Any = None) -> dict[str, Any]:
    """A luxor2001 table of ``seats`` whose match is soon over: the first to act lets
    their two seconds pass, and the match is abandoned (a finished table of people)."""
    body = {
        "game": "luxor2001",
        "seats": seats,
        "clock": {"mode": "turn", "turn": 2, "rule": "abandon"},
    }
    r = (c or httpx.Client(base_url=server.url, timeout=60)).post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    created: dict[str, Any] = r.json()
    token = created["creator_token"]
    wait_until(
        lambda: (
            server.get(f"/api/tables/{created['table_id']}", token=token).json()["status"]
            == "finished"
        ),
        timeout=180,
    )
    return created


def test_play_again_waits_for_every_player_and_begins_when_they_accept(server: Server) -> None:
    created = abandoned_table(server, [{"type": "me", "name": "Ann"}, {"type": "link"}])
    table_id = created["table_id"]
    ann_token, bea_token = created["seats"][0]["token"], created["seats"][1]["token"]
    bea = SyncSeat.connect(server, table_id, bea_token)
    try:
        assert bea.state["status"] == "finished" and bea.state["again"] is None
        # Ann asks, with her browser's creator token: she makes the rematch and sits down
        # one place round, at seat 1.
        r = server.post(
            f"/api/tables/{table_id}/again", {"creator_token": created["creator_token"]}, ann_token
        )
        assert r.status_code == 200, r.text
        ann_again = r.json()
        assert ann_again["seat"] == 1 and ann_again["creator_token"] is None
        assert ann_again["made"] is True
        following = ann_again["table_id"]
        # Bea is told that Ann wants to play again.
        told = bea.until(lambda s: s["again"] is not None)
        assert told["again"] == {"table": following, "seats": [0]}
        # The rematch waits for Bea.
        ann = SyncSeat.connect(server, following, ann_again["token"])
        try:
            assert ann.state["version"] == 0 and ann.state["acting_seats"] == [0]
            assert ann.state["seats"][1]["name"] == "Ann"
            r = server.post(f"/api/tables/{table_id}/again", {}, bea_token)
            assert r.status_code == 200, r.text
            bea_again = r.json()
            assert (bea_again["table_id"], bea_again["seat"]) == (following, 0)
            assert bea_again["creator_token"] is None and bea_again["made"] is False
            ann.until(lambda s: s["version"] > 0 and not any(x["waiting"] for x in s["seats"]))
            bea.until(lambda s: s["again"] == {"table": following, "seats": [0, 1]})
            assert hello(server, following, bea_again["token"])["seat"] == 0
            twice = server.post(f"/api/tables/{table_id}/again", {}, bea_token)
            assert twice.status_code == 409
        finally:
            ann.close()
    finally:
        bea.close()
    # The rematch is among the creator's tables; a spectator's token does not play again.
    mine = server.get("/api/tables/mine", token=created["creator_token"]).json()
    assert following in [t["table_id"] for t in mine]
    r = server.post(f"/api/tables/{table_id}/again", {}, created["spectator_token"])
    assert r.status_code == 403


def test_a_bot_accepts_at_once_and_an_accounts_seat_waits_in_their_tables(
    server: Server,
) -> None:
    created = abandoned_table(server, [{"type": "me"}, {"type": "bot", "level": "easy"}])
    r = server.post(f"/api/tables/{created['table_id']}/again", {}, created["seats"][0]["token"])
    assert r.status_code == 200, r.text
    again = r.json()
    # No creator token given: the rematch has a new one.
    assert again["creator_token"] is not None
    state = hello(server, again["table_id"], again["token"])
    assert state["seats"][0]["type"] == "bot" and not state["seats"][1]["waiting"]
    # Nobody is waited for: the rematch began (the bot accepted at once).
    wait_until(lambda: hello(server, again["table_id"], again["token"])["version"] > 0)

    with client(server) as ana, client(server) as bob:
        register(ana, "Ana")
        cookie = register(bob, "Bob")
        invited = [{"type": "me"}, {"type": "invite", "name": "Bob"}]
        made = ana.post(
            "/api/tables",
            json={
                "game": "luxor2001",
                "seats": invited,
                "clock": {"mode": "turn", "turn": 2, "rule": "abandon"},
            },
        ).json()
        assert hello(server, made["table_id"], made["seats"][1]["token"], cookie)["seat"] == 1
        wait_until(
            lambda: (
                ana.get(f"/api/tables/{made['table_id']}", headers=auth(made)).json()["status"]
                == "finished"
            ),
            timeout=180,
        )
        r = ana.post(
            f"/api/tables/{made['table_id']}/again",
            json={},
            headers={"Authorization": f"Bearer {made['seats'][0]['token']}"},
        )
        assert r.status_code == 200, r.text
        following = r.json()["table_id"]
        # Bob's seat at the rematch waits for him in his tables and his notices.
        held = {t["table"]["table_id"]: t for t in bob.get("/api/account/tables").json()}
        assert following in held and held[following]["seat"] == 0
        assert held[following]["table"]["seats"][0]["waiting"] is True
        wait_until(
            lambda: (
                following in [t["table_id"] for t in bob.get("/api/account/turns").json()["tables"]]
            )
        )
        # He opens it from there: he sits down and the rematch begins.
        assert hello(server, following, held[following]["token"], cookie)["seat"] == 0
        wait_until(lambda: hello(server, following, held[following]["token"], cookie)["version"])


def auth(created: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['creator_token']}"}


def test_tables_from_before_the_lobby_play_on_after_the_upgrade(db_url: str) -> None:
    old = before_accounts.make_database(db_url)
    db.upgrade(db_url, revision="0010_analyses")
    table_id = old["table_id"]
    with running_server(db_url) as new:
        assert listed(new) == []
        seats = [SyncSeat.connect(new, table_id, token) for token in old["tokens"]]
        try:
            turn = seats[0].until(lambda s: bool(s["acting_seats"]))
            assert not any(s["waiting"] or s["open"] for s in turn["seats"])
            acting = seats[int(turn["acting_seats"][0])]
            ready = acting.until(lambda s: bool(s["actions"]))
            acting.act(ready["actions"][0]["action"])
            acting.until(lambda s: s["version"] > ready["version"])
        finally:
            for seat in seats:
                seat.close()
        # Beside it, an open table of the new server.
        created = new.post(
            "/api/tables", {"game": "horus", "seats": [{"type": "me"}, {"type": "open"}]}
        ).json()
        assert [t["table_id"] for t in listed(new)] == [created["table_id"]]
