"""Players' accounts over real HTTP and WebSocket, on SQLite and PostgreSQL.

Sign-in is rate-limited per name and per address and tells nothing about which names
exist (the same answer, in about the same time); the session cookie is HttpOnly and
SameSite=Lax; a cookie-authenticated POST from another site is refused; a seat claimed by
an account refuses its link to another account and to a guest, over HTTP and over the
WebSocket; "my tables" follows the account to another client; the operator's reset works;
a player's profile counts games and wins.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.clients import Server, running_server

PAGE = {"X-Necropolis": "1"}


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    with running_server(db_url) as s:
        yield s


def client(server: Server) -> httpx.Client:
    """A browser-like client: it keeps cookies and says it is the page."""
    return httpx.Client(base_url=server.url, headers=PAGE, timeout=60)


def register(c: httpx.Client, name: str, password: str = "correct horse") -> httpx.Response:
    return c.post("/api/account/register", json={"name": name, "password": password})


def hello(server: Server, table_id: str, token: str, cookie: str | None) -> dict[str, object]:
    """The first message the table's WebSocket answers a hello with."""
    headers = {"Origin": server.url}
    if cookie is not None:
        headers["Cookie"] = f"necropolis_session={cookie}"
    with connect(server.ws_url(table_id), additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] in ("state", "error"):
                return dict(message)


def test_register_sign_in_cookie_flags_and_sign_out(server: Server) -> None:
    with client(server) as c:
        r = register(c, "Ana")
        assert r.status_code == 200, r.text
        cookie = r.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
        # Plain http here: the cookie is not marked Secure (a browser would drop it).
        assert "Secure" not in cookie
        assert c.get("/api/account").json() == {"name": "Ana"}
        assert c.post("/api/account/signout").status_code == 200
        assert c.get("/api/account").json() == {"name": None}
    with client(server) as c:
        # The name in another case is the same account.
        assert register(c, "ANA").json()["error"]["code"] == "name_taken"
        r = c.post("/api/account/signin", json={"name": "aNa", "password": "correct horse"})
        assert r.status_code == 200 and r.json() == {"name": "Ana"}
        assert c.get("/api/account").json() == {"name": "Ana"}


def test_cookie_is_secure_behind_https(server: Server) -> None:
    # uvicorn trusts X-Forwarded-Proto from loopback (a proxy in front of the server).
    with client(server) as c:
        r = c.post(
            "/api/account/register",
            json={"name": "Bea", "password": "correct horse"},
            headers={"X-Forwarded-Proto": "https"},
        )
        assert r.status_code == 200, r.text
        assert "Secure" in r.headers["set-cookie"]


def test_names_follow_the_seat_name_rules(server: Server) -> None:
    with client(server) as c:
        assert register(c, "\u202e\x07  ").json()["error"]["code"] == "bad_name"
        assert register(c, "x" * 41).json()["error"]["code"] == "bad_name"
        assert register(c, "Cleo", "short").json()["error"]["code"] == "weak_password"
        r = register(c, "  Ra\u202e\x1b  Mose ")
        assert r.json() == {"name": "Ra Mose"}


def test_no_enumeration_by_message_or_timing(server: Server) -> None:
    with client(server) as c:
        register(c, "Dora")
    with client(server) as c:
        known = c.post("/api/account/signin", json={"name": "Dora", "password": "wrong one!"})
        unknown = c.post("/api/account/signin", json={"name": "Nobody", "password": "wrong one!"})
        assert known.status_code == unknown.status_code == 401
        assert known.json() == unknown.json()

    def cpu_seconds() -> float:
        """The server process's CPU time so far (all its threads): unlike the time an
        answer takes, it does not grow with the machine's load."""
        assert server.process is not None
        fields = Path(f"/proc/{server.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def spent(names: list[str]) -> float:
        with client(server) as c:
            before = cpu_seconds()
            for name in names:
                c.post("/api/account/signin", json={"name": name, "password": "wrong one!"})
            return cpu_seconds() - before

    # Each name once per fresh name (the per-name limit is 5): an unknown name still
    # costs a hash, so its answer does not take the server a fraction of a known one's
    # work. (Measured in the server's CPU time: the wall time of four answers swung by
    # twice on a loaded two-core machine, and the test with it failed there.)
    with client(server) as c:
        for k in range(6):
            register(c, f"Timed{k}")
    known = spent([f"Timed{k}" for k in range(6)])
    unknown = spent([f"Ghost{k}" for k in range(6)])
    assert unknown > 0.5 * known > 0


def test_sign_in_is_rate_limited_per_name(server: Server) -> None:
    with client(server) as c:
        register(c, "Eve")
    with client(server) as c:
        for _ in range(5):
            r = c.post("/api/account/signin", json={"name": "Eve", "password": "not it at all"})
            assert r.status_code == 401
        # Now even the right password waits, for this name (in any case).
        r = c.post("/api/account/signin", json={"name": "EVE", "password": "correct horse"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"


def test_sign_in_limit_per_name_covers_every_spelling_of_it(server: Server) -> None:
    # Full-width letters find the same account (NFKC): they share its budget of failures.
    with client(server) as c:
        register(c, "Ivo")
    with client(server) as c:
        for name in ("Ivo", "\uff29\uff56\uff4f", "\uff49vo", "IVO", "\uff49\uff36\uff2f"):
            r = c.post("/api/account/signin", json={"name": name, "password": "not it at all"})
            assert r.status_code == 401
        for name in ("\uff29\uff56\uff4f", "Ivo"):
            r = c.post("/api/account/signin", json={"name": name, "password": "correct horse"})
            assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"


def test_sign_in_limit_is_shared_by_every_server_process(db_url: str) -> None:
    # Two servers on one database (as --workers 2 would be): their failures add up.
    with running_server(db_url) as one, running_server(db_url) as two:
        with client(one) as c:
            register(c, "Jon")
        for server, failures in ((one, 3), (two, 2)):
            with client(server) as c:
                for _ in range(failures):
                    r = c.post("/api/account/signin", json={"name": "Jon", "password": "nope nope"})
                    assert r.status_code == 401
        for server in (two, one):
            with client(server) as c:
                r = c.post("/api/account/signin", json={"name": "Jon", "password": "correct horse"})
                assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"


def test_sign_in_is_rate_limited_per_address(server: Server) -> None:
    with client(server) as c:
        register(c, "Fay")
    with client(server) as c:
        # Twenty failures spread over names (four per name, under the per-name limit).
        for k in range(20):
            r = c.post("/api/account/signin", json={"name": f"n{k // 4}", "password": "xxxxxxxx"})
            assert r.status_code == 401
        r = c.post("/api/account/signin", json={"name": "Fay", "password": "correct horse"})
        assert r.status_code == 429


def test_cookie_posts_must_come_from_the_page(server: Server) -> None:
    with client(server) as c:
        register(c, "Gus")
        cookies = dict(c.cookies)
    body = {"old": "correct horse", "new": "another horse"}
    # Without the page's header (a form of another site cannot add it): refused.
    with httpx.Client(base_url=server.url, cookies=cookies, timeout=60) as bare:
        r = bare.post("/api/account/password", json=body)
        assert r.status_code == 403 and r.json()["error"]["code"] == "cross_site"
        # With it, but from another origin: refused too.
        r = bare.post(
            "/api/account/password", json=body, headers={**PAGE, "Origin": "https://evil.example"}
        )
        assert r.status_code == 403
        # A table created from another site is a guest's: the seat is not claimed.
        created = bare.post(
            "/api/tables",
            json={"game": "luxor2001", "seats": [{"type": "me"}, {"type": "link"}]},
            headers={"Origin": "https://evil.example"},
        ).json()
    with client(server) as c:
        c.post("/api/account/signin", json={"name": "Gus", "password": "correct horse"})
        assert c.get("/api/account/tables").json() == []
        # From the page, with the same origin: the password changes.
        r = c.post("/api/account/password", json=body, headers={"Origin": server.url})
        assert r.status_code == 200
    assert hello(server, created["table_id"], created["seats"][0]["token"], None)["type"] == "state"
    with client(server) as c:
        ok = c.post("/api/account/signin", json={"name": "Gus", "password": "another horse"})
        assert ok.status_code == 200


def test_claimed_seats_refuse_others(server: Server) -> None:
    with client(server) as ana, client(server) as bob, client(server) as cid:
        register(ana, "Ana")
        register(bob, "Bob")
        register(cid, "Cid")
        created = ana.post(
            "/api/tables",
            json={"game": "luxor2001", "seats": [{"type": "me"}, {"type": "link"}]},
        ).json()
        table_id = created["table_id"]
        mine, link = created["seats"][0]["token"], created["seats"][1]["token"]
        people = (("a", ana), ("b", bob), ("c", cid))
        cookie = {n: c.cookies["necropolis_session"] for n, c in people}

        # The creator's seat is Ana's: refused to a guest and to Bob, over HTTP and WS.
        path = f"/api/tables/{table_id}"
        assert ana.get(path, headers={"Authorization": f"Bearer {mine}"}).status_code == 200
        guest = httpx.get(server.url + path, headers={"Authorization": f"Bearer {mine}"})
        assert guest.status_code == 403 and guest.json()["error"]["code"] == "claimed_seat"
        assert bob.get(path, headers={"Authorization": f"Bearer {mine}"}).status_code == 403
        assert hello(server, table_id, mine, None)["code"] == "claimed_seat"
        assert hello(server, table_id, mine, cookie["b"])["code"] == "claimed_seat"
        assert hello(server, table_id, mine, cookie["a"])["type"] == "state"

        # Ann trying her friend's link does not take it: she holds a seat here already.
        assert hello(server, table_id, link, cookie["a"])["type"] == "state"
        # The friend's link: Bob opens it signed in and holds it from then on.
        assert hello(server, table_id, link, cookie["b"])["type"] == "state"
        assert hello(server, table_id, link, cookie["c"])["code"] == "claimed_seat"
        assert hello(server, table_id, link, None)["code"] == "claimed_seat"
        assert hello(server, table_id, link, cookie["b"])["type"] == "state"

        # My tables follow Bob to a new client (another browser), with the seat's token.
        with client(server) as elsewhere:
            elsewhere.post("/api/account/signin", json={"name": "bob", "password": "correct horse"})
            tables = elsewhere.get("/api/account/tables").json()
            assert [(t["table"]["table_id"], t["seat"], t["token"]) for t in tables] == [
                (table_id, 1, link)
            ]


def test_a_new_link_for_a_claimed_seat_follows_the_account(server: Server) -> None:
    with client(server) as ana:
        register(ana, "Ana")
        created = ana.post(
            "/api/tables",
            json={"game": "luxor2001", "seats": [{"type": "me"}, {"type": "link"}]},
        ).json()
        table_id, old = created["table_id"], created["seats"][0]["token"]
        auth = {"Authorization": f"Bearer {created['creator_token']}"}
        r = ana.post(f"/api/tables/{table_id}/seats/0/link", headers=auth)
        assert r.status_code == 200, r.text
        fresh = r.json()["seats"][0]["token"]
        assert fresh != old
        cookie = ana.cookies["necropolis_session"]
    # "My tables", from another browser, hands out the new token, which opens the seat.
    with client(server) as elsewhere:
        elsewhere.post("/api/account/signin", json={"name": "ana", "password": "correct horse"})
        tables = elsewhere.get("/api/account/tables").json()
        assert [(t["table"]["table_id"], t["seat"], t["token"]) for t in tables] == [
            (table_id, 0, fresh)
        ]
    assert hello(server, table_id, fresh, cookie)["type"] == "state"
    assert hello(server, table_id, old, cookie)["code"] == "bad_token"


def test_the_creator_cannot_change_another_accounts_seat(server: Server) -> None:
    with client(server) as ana, client(server) as bob:
        register(ana, "Ana")
        register(bob, "Bob")
        created = ana.post(
            "/api/tables",
            json={"game": "luxor2001", "seats": [{"type": "me"}, {"type": "link"}]},
        ).json()
        table_id, link = created["table_id"], created["seats"][1]["token"]
        auth = {"Authorization": f"Bearer {created['creator_token']}"}
        assert hello(server, table_id, link, bob.cookies["necropolis_session"])["type"] == "state"
        # Bob's seat: neither handed to a bot nor given a new link by the creator.
        for change, body in (("bot", {"level": "easy"}), ("link", None)):
            r = ana.post(f"/api/tables/{table_id}/seats/1/{change}", json=body, headers=auth)
            assert r.status_code == 403 and r.json()["error"]["code"] == "claimed_seat", r.text
        # Ana's own seat, by the creator token without her session (a guest): refused too.
        guest = httpx.post(
            f"{server.url}/api/tables/{table_id}/seats/0/bot",
            json={"level": "easy"},
            headers=auth,
            timeout=60,
        )
        assert guest.status_code == 403 and guest.json()["error"]["code"] == "claimed_seat"
        summary = ana.get(f"/api/tables/{table_id}", headers=auth).json()
        assert [s["type"] for s in summary["seats"]] == ["me", "link"]
        assert hello(server, table_id, link, bob.cookies["necropolis_session"])["type"] == "state"
        # Signed in as herself, Ana changes her own seat.
        r = ana.post(f"/api/tables/{table_id}/seats/0/bot", json={"level": "easy"}, headers=auth)
        assert r.status_code == 200, r.text
        assert r.json()["seats"][0]["type"] == "bot"


def test_guests_keep_their_links(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    for seat in created["seats"]:
        assert hello(server, created["table_id"], seat["token"], None)["type"] == "state"


def test_operator_reset_and_profile(server: Server, db_url: str) -> None:
    with client(server) as c:
        register(c, "Hana")
        # A finished table of Hana's: a bot plays the other seat, Hana's seat goes to a bot
        # too (by its creator), so the match ends by itself.
        created = c.post(
            "/api/tables",
            json={"game": "luxor2001", "seats": [{"type": "me"}, {"type": "bot", "level": "easy"}]},
        ).json()
        table_id = created["table_id"]
        auth = {"Authorization": f"Bearer {created['creator_token']}"}
        c.post(f"/api/tables/{table_id}/seats/0/bot", json={"level": "easy"}, headers=auth)
        deadline = time.monotonic() + 240
        while c.get(f"/api/tables/{table_id}", headers=auth).json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.5)
        profile = c.get("/api/players/hana").json()
        assert profile["name"] == "Hana"
        assert [(g["game"], g["played"]) for g in profile["games"]] == [("luxor2001", 1)]
        assert profile["games"][0]["wins"] in (0, 1)
        assert c.get("/api/players/nobody").status_code == 404
    out = subprocess.run(
        [sys.executable, "-m", "necropolis.cli.main", "user", "reset", "HANA", "--db", db_url],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    password = out.strip().rsplit(" ", 1)[-1]
    with client(server) as c:
        old = c.post("/api/account/signin", json={"name": "Hana", "password": "correct horse"})
        assert old.status_code == 401
        new = c.post("/api/account/signin", json={"name": "Hana", "password": password})
        assert new.status_code == 200


def test_operator_reset_of_an_unknown_name_fails(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-m", "necropolis.cli.main", "user", "reset", "nobody", "--db", url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "no player" in done.stderr
