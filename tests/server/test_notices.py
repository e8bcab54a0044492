"""Your-turn notices over real HTTP and WebSocket: the count, pushed, across tables and
processes; the mail settings; and the chat across processes.

A signed-in player's count is the number of tables in play where a seat their account
holds may act; it is pushed on ``/ws/account`` when it changes (a move, a seat handed to a
bot), only to the page itself (another site's ``Origin`` is refused), and it follows the
player to a second server process behind Redis, as does a chat line written there; the
same between the processes of ``serve --workers 2`` without Redis.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from necropolis.server.broker import PeerBus
from tests.clients import Server, running_server

PAGE = {"X-Necropolis": "1"}


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    with running_server(db_url) as s:
        yield s


def account(server: Server, name: str) -> httpx.Client:
    """A browser-like client of a new account: it keeps the cookie and says it is the page."""
    c = httpx.Client(base_url=server.url, headers=PAGE, timeout=60)
    r = c.post("/api/account/register", json={"name": name, "password": "correct horse"})
    assert r.status_code == 200, r.text
    return c


def on(server: Server, c: httpx.Client) -> httpx.Client:
    """The same browser (its cookie) talking to another server process."""
    return httpx.Client(base_url=server.url, headers=PAGE, cookies=c.cookies, timeout=60)


def cookie(c: httpx.Client) -> str:
    return str(c.cookies["necropolis_session"])


def table_socket(server: Server, table_id: str, token: str, c: httpx.Client) -> ClientConnection:
    """A table's WebSocket as the page opens it: the account's cookie, this Origin."""
    headers = {"Origin": server.url, "Cookie": f"necropolis_session={cookie(c)}"}
    ws = connect(server.ws_url(table_id), additional_headers=headers, legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def until_state(ws: ClientConnection, pred: Any = lambda s: True) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=60))
        assert message["type"] != "error", message
        if message["type"] == "state" and pred(message):
            return dict(message)


def moved_on(state: dict[str, Any]) -> bool:
    """Chance and bots have played: a person is to move, or the match is over."""
    return state["status"] == "finished" or bool(state["acting_seats"])


def settled(ws: ClientConnection) -> dict[str, Any]:
    """The table's state once a person is to move (chance and bots have played)."""
    return until_state(ws, moved_on)


def account_socket(server: Server, c: httpx.Client, origin: str | None = None) -> ClientConnection:
    headers = {"Origin": origin or server.url, "Cookie": f"necropolis_session={cookie(c)}"}
    return connect(
        server.url.replace("http://", "ws://") + "/ws/account",
        additional_headers=headers,
        legacy=True,  # closed by the caller
    )


def next_turns(ws: ClientConnection, pred: Any = lambda m: True) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=60))
        assert message["type"] == "turns", message
        if pred(message):
            return dict(message)


def with_a_friend(c: httpx.Client, game: str) -> tuple[str, list[str]]:
    """A new table of ``game`` made by the account of ``c``, its seat 0, with a friend's
    link at seat 1: the table's id and the seats' tokens."""
    created = c.post(
        "/api/tables", json={"game": game, "seats": [{"type": "me"}, {"type": "link"}]}
    ).json()
    return created["table_id"], [s["token"] for s in created["seats"]]


def share(server: Server, ann: httpx.Client, bo: httpx.Client) -> tuple[str, list[str]]:
    """A luxor2001 table of Ann's (seat 0) where Bo took the friend's seat (seat 1)."""
    table_id, tokens = with_a_friend(ann, "luxor2001")
    with table_socket(server, table_id, tokens[1], bo) as ws:
        until_state(ws)  # Bo's hello claimed the seat
    return table_id, tokens


def test_the_count_follows_whose_turn_it_is_across_tables(server: Server) -> None:
    ann, bo = account(server, "Ann"), account(server, "Bo")
    shared = [share(server, ann, bo) for _ in range(3)]
    states = {}
    for table_id, tokens in shared:
        with table_socket(server, table_id, tokens[0], ann) as ws:
            states[table_id] = settled(ws)

    def expected(seat: int) -> set[str]:
        return {t for t, s in states.items() if seat in s["acting_seats"]}

    def listed(c: httpx.Client) -> set[str]:
        answer = c.get("/api/account/turns").json()
        assert answer["count"] == len(answer["tables"])
        return {t["table_id"] for t in answer["tables"]}

    assert listed(ann) == expected(0) and listed(bo) == expected(1)
    assert expected(0) | expected(1) == set(states)  # a person is to move at each

    with account_socket(server, ann) as ann_ws, account_socket(server, bo) as bo_ws:
        first = next_turns(ann_ws)
        assert first["count"] == len(expected(0))
        assert {t["table_id"] for t in first["tables"]} == expected(0)
        next_turns(bo_ws)
        # Whoever is to move at the first table plays until the turn passes; both
        # counts are pushed anew.
        table_id, tokens = shared[0]
        mover = 0 if table_id in expected(0) else 1
        states[table_id] = pass_the_turn(server, table_id, tokens[mover], (ann, bo)[mover])
        pushed_ann = next_turns(ann_ws, lambda m: ids(m) == expected(0))
        pushed_bo = next_turns(bo_ws, lambda m: ids(m) == expected(1))
        assert pushed_ann["count"] == len(expected(0)) and pushed_bo["count"] == len(expected(1))
        seat_tokens = dict(shared)
        for t in pushed_bo["tables"]:
            assert t["seat"] == 1 and t["token"] == seat_tokens[t["table_id"]][1]
    assert listed(ann) == expected(0) and listed(bo) == expected(1)


def ids(message: dict[str, Any]) -> set[str]:
    return {t["table_id"] for t in message["tables"]}


def pass_the_turn(server: Server, table_id: str, token: str, c: httpx.Client) -> dict[str, Any]:
    """The seat of ``token``, to move, plays its first choice until it is no longer to move;
    the state then."""
    with table_socket(server, table_id, token, c) as ws:
        return play_on(ws)


def play_on(ws: ClientConnection) -> dict[str, Any]:
    """The seat of ``ws``, to move, plays its first choice until the turn passes; the
    state then."""
    state = settled(ws)
    seat = state["seat"]
    assert seat in state["acting_seats"]
    while state["status"] != "finished" and seat in state["acting_seats"]:
        act = {"type": "act", "action": state["actions"][0]["action"], "version": state["version"]}
        ws.send(json.dumps(act))
        version = state["version"]
        state = until_state(ws, lambda s, v=version: s["version"] > v and moved_on(s))
    return state


def test_a_seat_handed_to_a_bot_leaves_the_count(server: Server) -> None:
    ann, bo = account(server, "Ann"), account(server, "Bo")
    created = ann.post(
        "/api/tables",
        json={"game": "horus", "seats": [{"type": "me"}, {"type": "link"}]},
    ).json()
    table_id, creator = created["table_id"], created["creator_token"]
    tokens = [s["token"] for s in created["seats"]]
    with table_socket(server, table_id, tokens[1], bo) as ws:
        state = settled(ws)
    # Horus begins with the first seat's move, no chance before it: Ann is to move.
    assert state["acting_seats"] == [0]
    with account_socket(server, ann) as ann_ws:
        assert next_turns(ann_ws)["count"] == 1
        r = ann.post(
            f"/api/tables/{table_id}/seats/0/bot",
            json={"level": "easy"},
            headers={"Authorization": f"Bearer {creator}"},
        )
        assert r.status_code == 200, r.text
        # A count may be pushed again before the hand-over's (a notice of the table's
        # earlier change, such as Bo's socket closing): wait for the one that leaves
        # Ann's seat out, and then the count as asked for agrees.
        next_turns(ann_ws, lambda m: m["count"] == 0)
    assert ann.get("/api/account/turns").json()["count"] == 0
    assert bo.get("/api/account/turns").json()["count"] in (0, 1)


def test_only_the_page_itself_hears_the_count(server: Server) -> None:
    ann = account(server, "Ann")
    guest = httpx.Client(base_url=server.url, headers=PAGE, timeout=60)
    assert guest.get("/api/account/turns").json()["error"]["code"] == "not_signed_in"
    with connect(server.url.replace("http://", "ws://") + "/ws/account") as ws:
        assert json.loads(ws.recv(timeout=60))["code"] == "not_signed_in"
    # Another site's page, with Ann's cookie sent by her browser: refused.
    with account_socket(server, ann, origin="https://elsewhere.example") as ws:
        assert json.loads(ws.recv(timeout=60))["code"] == "not_signed_in"
    with account_socket(server, ann) as ws:
        assert next_turns(ws)["count"] == 0
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=60)) == {"type": "pong"}
        ws.send("not json")
        assert json.loads(ws.recv(timeout=60))["code"] == "protocol"
    # Signed out: a new stream with the old cookie is refused.
    old = httpx.Client(cookies={"necropolis_session": cookie(ann)})
    ann.post("/api/account/signout")
    with account_socket(server, old) as ws:
        assert json.loads(ws.recv(timeout=60))["code"] == "not_signed_in"


def test_mail_settings(server: Server) -> None:
    ann = account(server, "Ann")
    assert ann.get("/api/account/settings").json() == {"email": None, "lang": "en", "mail": False}
    r = ann.post("/api/account/settings", json={"email": " ann@example.test ", "lang": "nl"})
    assert r.json() == {"email": "ann@example.test", "lang": "nl", "mail": False}
    assert ann.get("/api/account/settings").json()["email"] == "ann@example.test"
    for bad in ("ann", "ann@example", "a b@example.test", "ann@example.test\r\nBcc: x@y.z"):
        r = ann.post("/api/account/settings", json={"email": bad, "lang": "en"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_email", bad
    # Removed: no mail.
    assert (
        ann.post("/api/account/settings", json={"email": "", "lang": "it"}).json()["email"] is None
    )
    # The cookie alone, without the page's header, changes nothing.
    plain = httpx.Client(base_url=server.url, cookies=ann.cookies, timeout=60)
    r = plain.post("/api/account/settings", json={"email": "evil@example.test"})
    assert r.status_code == 403
    assert ann.get("/api/account/settings").json()["email"] is None


@pytest.mark.slow
def test_the_count_and_the_chat_cross_processes(fresh_postgres_url: str, redis_url: str) -> None:
    with (
        running_server(fresh_postgres_url, redis_url=redis_url) as first,
        running_server(fresh_postgres_url, redis_url=redis_url) as second,
    ):
        ann, bo = account(first, "Ann"), account(first, "Bo")
        table_id, tokens = share(first, ann, bo)
        ann2, bo2 = on(second, ann), on(second, bo)
        # Ann's page is on the second process: her count, and the table's chat.
        with (
            account_socket(second, ann2) as ann_ws,
            table_socket(second, table_id, tokens[0], ann2) as ann_table,
        ):
            state = settled(ann_table)
            mover = state["acting_seats"][0]
            # The count the account socket sent when it opened may predate the deal: the
            # pushes that follow bring it to whose turn it is.
            count = 1 if mover == 0 else 0
            next_turns(ann_ws, lambda m: m["count"] == count)
            # Bo writes on the first process; Ann's table socket on the second hears it.
            r = httpx.post(
                f"{first.url}/api/tables/{table_id}/chat",
                json={"text": "<i>your</i> move\x07"},
                headers={"Authorization": f"Bearer {tokens[1]}", **PAGE},
                cookies=bo.cookies,
                timeout=60,
            )
            assert r.status_code == 200, r.text
            while True:
                message = json.loads(ann_table.recv(timeout=60))
                if message["type"] == "chat":
                    break
            assert (message["seat"], message["text"], message["name"]) == (
                1,
                "<i>your</i> move",
                "Bo",
            )
            # The mover plays on the first process until the turn passes: Ann's count on
            # the second is pushed at once (not found by the minute's check).
            start = time.monotonic()
            after = pass_the_turn(first, table_id, tokens[mover], (ann, bo)[mover])
            expected = 1 if 0 in after["acting_seats"] else 0
            assert expected != count
            # (A push of the count as it was may still be on its way: the new one follows.)
            next_turns(ann_ws, lambda m: m["count"] == expected)
            assert time.monotonic() - start < 30
            assert bo2.get("/api/account/turns").json()["count"] == (
                1 if 1 in after["acting_seats"] else 0
            )


def guest_socket(server: Server, table_id: str, token: str) -> ClientConnection:
    """A table's WebSocket from a page nobody is signed in on (a seat it opens stays a
    guest's)."""
    ws = connect(server.ws_url(table_id), additional_headers={"Origin": server.url}, legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def test_a_seat_claimed_on_one_process_is_counted_by_the_other_at_once(
    fresh_postgres_url: str, redis_url: str
) -> None:
    """A process keeps who holds a table's seats once read; a claim made on another
    process after that reaches it over the bus, so the new holder's count is pushed at
    the next move there, not a minute later."""
    with (
        running_server(fresh_postgres_url, redis_url=redis_url) as first,
        running_server(fresh_postgres_url, redis_url=redis_url) as second,
    ):
        ann, bo = account(first, "Ann"), account(first, "Bo")
        table_id, tokens = with_a_friend(ann, "luxor2001")
        # The table moves on the second process while only Ann holds a seat: it reads
        # and keeps its holders then. Seat 1 is played by a guest who claims nothing.
        with table_socket(second, table_id, tokens[0], on(second, ann)) as ws:
            state = settled(ws)
        mover = state["acting_seats"][0]
        if mover == 0:
            with table_socket(second, table_id, tokens[0], on(second, ann)) as ws:
                state = play_on(ws)
        else:
            with guest_socket(second, table_id, tokens[1]) as ws:
                state = play_on(ws)
        time.sleep(1)  # the second process's marking (every 50 ms) has read the holders
        # Bo claims seat 1 on the first process.
        with table_socket(first, table_id, tokens[1], bo) as ws:
            state = settled(ws)
        with account_socket(first, bo) as bo_ws:
            count = 1 if 1 in state["acting_seats"] else 0
            next_turns(bo_ws, lambda m: m["count"] == count)
            # Whoever is to move plays on the second process until the turn passes: Bo's
            # count is pushed from there, though it read the holders before his claim.
            start = time.monotonic()
            mover = state["acting_seats"][0]
            player = on(second, (ann, bo)[mover])
            with table_socket(second, table_id, tokens[mover], player) as ws:
                after = play_on(ws)
            expected = 1 if 1 in after["acting_seats"] else 0
            assert expected != count
            next_turns(bo_ws, lambda m: m["count"] == expected)
            assert time.monotonic() - start < 30


def test_peer_buses_hear_each_other_and_not_themselves(tmp_path: Path) -> None:
    async def scenario() -> dict[str, list[tuple[str, dict[str, Any]]]]:
        heard: dict[str, list[tuple[str, dict[str, Any]]]] = {"a": [], "b": []}

        def handler(name: str, kind: str) -> Any:
            async def hear(data: dict[str, Any]) -> None:
                heard[name].append((kind, data))

            return hear

        a, b = PeerBus(tmp_path, "a"), PeerBus(tmp_path, "b")
        for name, bus in (("a", a), ("b", b)):
            for kind in ("chat", "turns"):
                bus.on(kind, handler(name, kind))
            await bus.start()
        b.publish("chat", {"table": "T1", "line": {"text": "hi"}})
        a.publish("turns", {"players": [3]})
        a.publish("unknown", {"nobody": "listens"})
        for _ in range(100):
            if heard["a"] and heard["b"]:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        await a.close()
        await b.close()
        return heard

    heard = asyncio.run(scenario())
    assert heard["a"] == [("chat", {"table": "T1", "line": {"text": "hi"}})]
    assert heard["b"] == [("turns", {"players": [3]})]
    assert list(tmp_path.iterdir()) == []


def test_workers_share_the_count_and_the_chat(tmp_path: Path) -> None:
    """``serve --workers 2`` without Redis: each connection lands on either process, and
    every one hears the chat and the count."""
    with running_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", workers=2) as server:
        ann, bo = account(server, "Ann"), account(server, "Bo")
        table_id, tokens = with_a_friend(ann, "horus")
        with table_socket(server, table_id, tokens[1], bo) as ws:
            assert settled(ws)["acting_seats"] == [0]  # Horus: the first seat begins
        # Enough of each that both processes hold some (the kernel deals connections).
        streams = [account_socket(server, bo) for _ in range(6)]
        tables = [table_socket(server, table_id, tokens[1], bo) for _ in range(6)]
        try:
            for stream in streams:
                assert next_turns(stream)["count"] == 0
            for ws in tables:
                settled(ws)
            r = ann.post(
                f"/api/tables/{table_id}/chat",
                json={"text": "over to you soon"},
                headers={"Authorization": f"Bearer {tokens[0]}"},
            )
            assert r.status_code == 200, r.text
            for ws in tables:
                while (message := json.loads(ws.recv(timeout=60)))["type"] != "chat":
                    pass
                assert message["text"] == "over to you soon"
            pass_the_turn(server, table_id, tokens[0], ann)
            for stream in streams:
                assert next_turns(stream)["count"] == 1
        finally:
            for ws in [*streams, *tables]:
                ws.close()
