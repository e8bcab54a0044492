"""Ratings over real HTTP and WebSocket, on SQLite and PostgreSQL.

Two accounts and a bot play rated tables to the end (the seats handed to bots by the
accounts that hold them, which keeps them rated as the accounts that left them); the table's rating
changes, the leaderboard and the players' histories are what OpenSkill's Plackett-Luce
model gives when recomputed here from the downloaded records; a table with a seat that
no account holds is not rated; only the creator makes a table rated.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce
from websockets.sync.client import connect

from necropolis.games import load_game
from necropolis.server.clocks import abandoned_result
from necropolis.server.ratings import order_of
from tests.clients import Server, SyncSeat, running_server

PAGE = {"X-Necropolis": "1"}
#: A turn-based clock of a day a turn: a rated table must have a clock.
DAILY = {"mode": "turn", "turn": 86400}


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    with running_server(db_url) as s:
        yield s


def person(server: Server, name: str) -> httpx.Client:
    c = httpx.Client(base_url=server.url, headers=PAGE, timeout=60)
    assert c.post("/api/account/register", json={"name": name, "password": "pyramids!"}).is_success
    return c


def join(server: Server, c: httpx.Client, table_id: str, token: str) -> None:
    headers = {
        "Origin": server.url,
        "Cookie": f"necropolis_session={c.cookies['necropolis_session']}",
    }
    with connect(server.ws_url(table_id), additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(ws.recv(timeout=60))["type"] in ("state", "presence")


def finish(server: Server, created: dict[str, Any], holders: dict[int, httpx.Client]) -> None:
    """Every person seat is handed to a bot, with the creator token, by the account that
    holds it (the creator alone may not change another account's seat); wait for the end."""
    table_id, auth = created["table_id"], {"Authorization": f"Bearer {created['creator_token']}"}
    for seat in created["seats"]:
        if seat["type"] != "bot":
            r = holders[seat["seat"]].post(
                f"{server.url}/api/tables/{table_id}/seats/{seat['seat']}/bot",
                json={"level": "easy"},
                headers=auth,
            )
            assert r.status_code == 200, r.text
    deadline = time.monotonic() + 300
    while server.get(f"/api/tables/{table_id}", created["creator_token"]).json()["status"] != (
        "finished"
    ):
        assert time.monotonic() < deadline
        time.sleep(0.5)


def ranks(server: Server, created: dict[str, Any]) -> list[float]:
    """The match's ranks from its record: returns, then scores (1 best, ties equal)."""
    record = server.get(f"/api/tables/{created['table_id']}/record", created["creator_token"])
    data = record.json()
    state = load_game(data["game"], **data["options"]).new_initial_state()
    for action in data["actions"]:
        state.apply_action(action if isinstance(action, int) else action["action"])
    keys = list(zip(state.returns(), state.scores(), strict=True))
    return [float(1 + sum(1 for o in keys if o > k)) for k in keys]


def test_the_order_of_a_match() -> None:
    # Returns first, scores break their ties, a full tie shares its place (1 is best).
    assert order_of([1.0, 0.0], [5.0, 9.0]) == [1, 2]
    assert order_of([0.5, 0.5, 0.0], [3.0, 3.0, 1.0]) == [1, 1, 3]
    assert order_of([0.5, 0.5, 0.0], [3.0, 4.0, 1.0]) == [2, 1, 3]
    assert order_of([1.0, 0.0, 0.0, -1.0], [0.0, 2.0, 2.0, 7.0]) == [1, 2, 2, 4]
    assert order_of([0.0] * 5, [1.0] * 5) == [1] * 5


def test_an_abandoned_match_ranks_the_seat_out_of_time_last() -> None:
    assert abandoned_result(2, 0) == ([0.0, 1.0], [0.0, 0.0])
    returns, scores = abandoned_result(4, 2)
    assert returns == [1 / 3, 1 / 3, 0.0, 1 / 3] and scores == [0.0] * 4
    assert order_of(returns, scores) == [1, 1, 4, 1]


def test_a_rated_match_of_three_with_a_tie(server: Server) -> None:
    # Ann, Bo and the easy bot; Ann's (or whoever is to act first) time runs out and the
    # match is abandoned: that seat last, the two others share first place.
    ann, bo = person(server, "Ann"), person(server, "Bo")
    body = {
        "game": "luxor2001",
        "options": {"players": 3},
        "seats": [{"type": "me"}, {"type": "link"}, {"type": "bot", "level": "easy"}],
        "clock": {"mode": "realtime", "base": 4, "rule": "abandon"},
    }
    created = ann.post("/api/tables", json=body).json()
    table_id, creator = created["table_id"], created["creator_token"]
    auth = {"Authorization": f"Bearer {creator}"}
    assert ann.post(f"/api/tables/{table_id}/rated", headers=auth).json() == {"rated": True}
    join(server, bo, table_id, created["seats"][1]["token"])
    with connect(server.ws_url(table_id)) as ws:
        ws.send(json.dumps({"type": "hello", "token": created["spectator_token"]}))
        while True:
            message = json.loads(ws.recv(timeout=120))
            if message["type"] == "state" and message["status"] == "finished":
                break
    lost = message["clock"]["abandoned"]
    assert lost in (0, 1)  # a person's seat: a bot's has no clock
    order = [3.0 if seat == lost else 1.0 for seat in range(3)]
    model = PlackettLuce()
    new = model.rate([[model.rating()] for _ in range(3)], ranks=order)
    changes = ann.get(f"/api/tables/{table_id}/ratings", headers=auth).json()["changes"]
    got = [(c["seat"], c["player"], c["bot"], round(c["after"], 6)) for c in changes]
    assert got == [
        (0, "Ann", None, round(new[0][0].ordinal(), 6)),
        (1, "Bo", None, round(new[1][0].ordinal(), 6)),
        (2, None, "easy", round(new[2][0].ordinal(), 6)),
    ]
    # The two who share first place gain alike; the one out of time loses.
    winners = [c["after"] for c in changes if c["seat"] != lost]
    assert winners[0] == winners[1] > 0 > changes[lost]["after"]
    board = server.get("/api/ratings/luxor2001").json()
    assert [(b["player"] or b["bot"], b["games"]) for b in board][-1] == (
        ["Ann", "Bo"][lost],
        1,
    )


def test_rated_tables_rate_accounts_and_bots(server: Server) -> None:
    ann, bo = person(server, "Ann"), person(server, "Bo")
    model = PlackettLuce()
    expected = {"Ann": model.rating(), "Bo": model.rating(), "easy": model.rating()}

    # Ann and Bo: Ann's own seat and the link Bo opens signed in.
    first = ann.post(
        "/api/tables",
        json={"game": "luxor2001", "seats": [{"type": "me"}, {"type": "link"}], "clock": DAILY},
    ).json()
    creator = {"Authorization": f"Bearer {first['creator_token']}"}
    seat_token = {"Authorization": f"Bearer {first['seats'][1]['token']}"}
    path = f"/api/tables/{first['table_id']}/rated"
    assert httpx.post(server.url + path, headers=seat_token, timeout=60).status_code == 403
    assert ann.post(path, headers=creator).json() == {"rated": True}
    join(server, bo, first["table_id"], first["seats"][1]["token"])
    unrated = ann.get(f"/api/tables/{first['table_id']}/ratings", headers=creator).json()
    assert unrated == {"rated": True, "changes": None}
    finish(server, first, {0: ann, 1: bo})
    order = ranks(server, first)
    new = model.rate([[expected["Ann"]], [expected["Bo"]]], ranks=order)
    changes = ann.get(f"/api/tables/{first['table_id']}/ratings", headers=creator).json()
    assert changes["rated"] is True
    got = [(c["seat"], c["player"], round(c["after"], 6)) for c in changes["changes"]]
    assert got == [
        (0, "Ann", round(new[0][0].ordinal(), 6)),
        (1, "Bo", round(new[1][0].ordinal(), 6)),
    ]
    expected["Ann"], expected["Bo"] = new[0][0], new[1][0]

    # Ann against the easy bot, rated: the bot has a rating of its own.
    # Rated as it is made (the creation's "rated"), as the lobby does.
    second = ann.post(
        "/api/tables",
        json={
            "game": "luxor2001",
            "seats": [{"type": "me"}, {"type": "bot", "level": "easy"}],
            "clock": DAILY,
            "rated": True,
        },
    ).json()
    finish(server, second, {0: ann})
    new = model.rate([[expected["Ann"]], [expected["easy"]]], ranks=ranks(server, second))
    expected["Ann"], expected["easy"] = new[0][0], new[1][0]

    # A rated table with a seat no account holds counts for nobody.
    third = ann.post(
        "/api/tables",
        json={"game": "luxor2001", "seats": [{"type": "me"}, {"type": "link"}], "clock": DAILY},
    ).json()
    third_auth = {"Authorization": f"Bearer {third['creator_token']}"}
    ann.post(f"/api/tables/{third['table_id']}/rated", headers=third_auth)
    finish(server, third, {0: ann, 1: ann})
    assert ann.get(f"/api/tables/{third['table_id']}/ratings", headers=third_auth).json() == {
        "rated": True,
        "changes": None,
    }

    board = server.get("/api/ratings/luxor2001").json()
    found = {(s["player"] or f"bot {s['bot']}"): (round(s["rating"], 6), s["games"]) for s in board}
    assert found == {
        "Ann": (round(expected["Ann"].ordinal(), 6), 2),
        "Bo": (round(expected["Bo"].ordinal(), 6), 1),
        "bot easy": (round(expected["easy"].ordinal(), 6), 1),
    }
    assert [s["rating"] for s in board] == sorted((s["rating"] for s in board), reverse=True)
    history = server.get("/api/players/ann/ratings").json()
    assert [(h["game"], len(h["points"])) for h in history] == [("luxor2001", 2)]
    assert round(history[0]["points"][-1]["rating"], 6) == round(expected["Ann"].ordinal(), 6)
    assert server.get("/api/ratings/nogame").status_code == 404


def test_a_rated_table_must_have_a_clock(server: Server) -> None:
    ann = person(server, "Ann")
    seats = [{"type": "me"}, {"type": "bot", "level": "easy"}]
    for clock in (None, {"mode": "untimed"}):
        body: dict[str, Any] = {"game": "luxor2001", "seats": seats, "rated": True}
        if clock is not None:
            body["clock"] = clock
        r = ann.post("/api/tables", json=body)
        assert r.status_code == 400 and r.json()["error"]["code"] == "rated_needs_clock", r.text
    # Nothing was made of the refused requests.
    assert ann.get("/api/account/tables").json() == []
    # An untimed table cannot be made rated afterwards either.
    untimed = ann.post("/api/tables", json={"game": "luxor2001", "seats": seats}).json()
    r = ann.post(
        f"/api/tables/{untimed['table_id']}/rated",
        headers={"Authorization": f"Bearer {untimed['creator_token']}"},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "rated_needs_clock"


def test_a_table_whose_bot_moves_first_is_rated_from_its_creation(server: Server) -> None:
    ann = person(server, "Ann")
    body = {
        "game": "luxor2001",
        "seats": [{"type": "bot", "level": "easy"}, {"type": "me"}],
        "clock": DAILY,
    }
    # Made first, then marked: the bot may already have moved (a race the page lost).
    late = ann.post("/api/tables", json=body).json()
    auth = {"Authorization": f"Bearer {late['creator_token']}"}
    # luxor2001's first decision is seat 0's, the bot's: wait until it made it.
    watcher = SyncSeat.connect(server, late["table_id"], late["spectator_token"])
    watcher.until(lambda s: list(s["acting_seats"]) == [1], timeout=120)
    watcher.close()
    r = ann.post(f"/api/tables/{late['table_id']}/rated", headers=auth)
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_started"
    # Rated in the creation request itself: rated whatever the bot does.
    created = ann.post("/api/tables", json={**body, "rated": True}).json()
    auth = {"Authorization": f"Bearer {created['creator_token']}"}
    found = ann.get(f"/api/tables/{created['table_id']}/ratings", headers=auth).json()
    assert found == {"rated": True, "changes": None}
