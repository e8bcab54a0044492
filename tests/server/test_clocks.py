"""Clocks and deadlines over real HTTP and WebSocket, on SQLite and PostgreSQL.

A turn-based table whose person lets the deadline pass gets a bot standing in, which
plays the seat until the person takes it back; the deadline holds across a restart (the
server down while it passes); a real-time clock counts down and gains its increment; a
seat that runs out under "abandon" ends the match, ranked last (also in the ratings);
horus lets a turn be skipped, luxor2001 refuses the rule; two server processes on one
PostgreSQL enforce a passed deadline once; the database itself refuses a second
enforcement and any action on an abandoned table.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic_core import to_json
from sqlalchemy import create_engine, func, select
from websockets.sync.client import connect

from necropolis.engine.protocol import sample_chance
from necropolis.games import load_game
from necropolis.server import db, filter
from necropolis.server.clocks import (
    ClockStore,
    Event,
    clock_data,
    clock_events,
    replay,
    table_clocks,
)
from necropolis.server.live import LiveTable
from necropolis.server.models import ClockSettings, ClockState
from necropolis.server.seats import Seat
from tests.clients import Server, SyncSeat, running_server, start_server
from tests.server import before_accounts
from tests.server.test_migration import first

#: The schema's revision before clocks (your-turn notices).
BEFORE_CLOCKS = "0006_notices"

PAGE = {"X-Necropolis": "1"}


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    with running_server(db_url) as s:
        yield s


def timed_table(
    server: Server, game: str, seats: list[str], clock: dict[str, Any], **kwargs: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "options": {}, "seats": [], "clock": clock}
    for seat in seats:
        kind, _, level = seat.partition(":")
        body["seats"].append({"type": kind, **({"level": level} if level else {})})
    r = (kwargs.get("client") or httpx).post(f"{server.url}/api/tables", json=body, timeout=60)
    assert r.status_code == 200, r.text
    created: dict[str, Any] = r.json()
    return created


def seat_clock(state: dict[str, Any], seat: int) -> dict[str, Any]:
    found: dict[str, Any] = state["clock"]["seats"][seat]
    return found


def standin(state: dict[str, Any], seat: int) -> bool:
    return bool(state["seats"][seat]["standin"])


def test_a_bot_stands_in_when_the_deadline_passes_and_the_person_takes_the_seat_back(
    server: Server,
) -> None:
    # The stand-in is hard, which thinks a while: two bots of milliseconds a move could
    # play the match to its end before Ann asks for her seat back (once in five whole
    # runs with an easy stand-in).
    created = timed_table(
        server,
        "luxor2001",
        ["me", "bot:easy"],
        {"mode": "turn", "turn": 3, "rule": "bot", "level": "hard"},
    )
    table_id = created["table_id"]
    mine, spectator = created["seats"][0]["token"], created["spectator_token"]
    ann = SyncSeat.connect(server, table_id, mine)
    turn = ann.until(lambda s: bool(s["actions"]) and seat_clock(s, 0)["running"])
    clock = seat_clock(turn, 0)
    assert turn["clock"]["mode"] == "turn" and turn["clock"]["rule"] == "bot"
    # The turn's time, measured when the state left the server; the bot's seat has none.
    assert 0 < clock["left"] <= 3
    assert seat_clock(turn, 1) == {
        "seat": 1,
        "left": None,
        "running": False,
        "deadline": None,
        "timeouts": 0,
    }
    deadline = turn["clock"]["measured"] + clock["left"]
    # Ann lets the turn go by: at the deadline (not before) a bot of the table's level
    # takes her seat and plays her turn.
    taken = ann.until(lambda s: standin(s, 0), timeout=30)
    assert time.time() >= deadline - 0.05
    assert taken["seats"][0]["level"] == "hard" and taken["seats"][0]["type"] == "me"
    assert seat_clock(taken, 0)["timeouts"] == 1 and not seat_clock(taken, 0)["running"]
    assert taken["actions"] == []
    played = ann.until(lambda s: s["version"] > turn["version"] + 1 and standin(s, 0))
    assert any(e["seat"] == 0 for e in played["log"] if e["index"] >= turn["version"])
    # While the bot stands in, Ann's moves are refused; only she may take the seat back.
    ann.act(turn["actions"][0]["action"], played["version"])
    while (answer := ann.recv())["type"] != "refused":
        pass
    assert answer["code"] in ("seat_taken_by_bot", "stale_version")
    back = f"/api/tables/{table_id}/seats/0/back"
    assert server.post(back, token=spectator).json()["error"]["code"] == "not_your_seat"
    r = server.post(back, token=mine)
    assert r.status_code == 200, r.text
    assert server.post(back, token=mine).json()["error"]["code"] == "not_standin"
    # Hers again: on her next turn her clock runs, with a whole turn's time.
    again = ann.until(lambda s: not standin(s, 0) and bool(s["actions"]))
    assert seat_clock(again, 0)["running"] and 2 < seat_clock(again, 0)["left"] <= 3
    ann.act(again["actions"][0]["action"])
    moved = ann.until(lambda s: s["version"] > again["version"])
    assert not standin(moved, 0)
    ann.close()
    # The clock's settings go with a rematch; the clock is public to any token.
    rematch = server.post(f"/api/tables/{table_id}/rematch", token=created["creator_token"]).json()
    other = server.get(f"/api/tables/{rematch['table_id']}/clock", token=created["creator_token"])
    assert {k: other.json()["clock"][k] for k in ("mode", "turn", "rule", "level")} == {
        "mode": "turn",
        "turn": 3,
        "rule": "bot",
        "level": "hard",
    }


def test_a_table_that_allows_hints_keeps_its_clock(server: Server) -> None:
    # Allowing hints is stored while the table is made: the clock is watched all the same
    # (it was once dropped by the watcher, which took the table, not yet in memory then,
    # for forgotten, and no deadline of it was ever enforced).
    created = timed_table(
        server, "luxor2001", ["me", "bot:easy"], {"mode": "turn", "turn": 2, "rule": "bot"}
    )
    body = {
        "game": "luxor2001",
        "options": {},
        "seats": [{"type": "me"}, {"type": "bot", "level": "easy"}],
        "clock": {"mode": "turn", "turn": 2, "rule": "bot"},
        "hints": True,
    }
    r = httpx.post(f"{server.url}/api/tables", json=body, timeout=60)
    assert r.status_code == 200, r.text
    hinted = r.json()
    for made in (created, hinted):
        # Connected after the deadline may have passed already (a busy machine): the
        # stand-in is waited for, not the clock seen running first.
        ann = SyncSeat.connect(server, made["table_id"], made["seats"][0]["token"])
        try:
            assert ann.state["hints"] is (made is hinted)
            ann.until(lambda s: standin(s, 0), timeout=60)
        finally:
            ann.close()


def test_ones_tables_say_when_the_next_turn_ends(server: Server) -> None:
    """The creator's list of tables gives a timed table's next deadline (the turn's end of
    the seat to play), and it moves on with the turn; an untimed table has none."""
    body: dict[str, Any] = {
        "game": "luxor2001",
        "seats": [{"type": "me"}, {"type": "link"}],
        "clock": {"mode": "turn", "turn": 3600, "rule": "bot"},
    }
    started = time.time()
    timed = server.post("/api/tables", body).json()
    creator = timed["creator_token"]
    untimed = server.post("/api/tables", {**body, "clock": None, "creator_token": creator}).json()

    def deadlines() -> dict[str, float | None]:
        listed = server.get("/api/tables/mine", creator).json()
        return {
            t["table_id"]: None
            if t["deadline"] is None
            else datetime.fromisoformat(t["deadline"]).timestamp()
            for t in listed
        }

    def settled(check: Any) -> dict[str, float | None]:
        # The watcher stores a table's next deadline a moment after the table moves.
        for _ in range(200):
            found = deadlines()
            if check(found):
                return found
            time.sleep(0.05)
        raise AssertionError(f"no such deadlines: {found}")

    first = settled(lambda d: d[timed["table_id"]] is not None)
    assert first[untimed["table_id"]] is None
    due = first[timed["table_id"]]
    assert due is not None and started + 3600 - 1 <= due <= time.time() + 3600
    # The seat to play plays: the other seat's turn ends an hour after that move.
    seats = [SyncSeat.connect(server, timed["table_id"], s["token"]) for s in timed["seats"]]
    mover = next(s for s in seats if s.state["actions"])
    moved = time.time()
    mover.act(mover.state["actions"][0]["action"])
    later = settled(lambda d: (d[timed["table_id"]] or 0) > due)
    assert moved + 3600 - 1 <= (later[timed["table_id"]] or 0) <= time.time() + 3600
    for seat in seats:
        seat.close()


def test_the_clock_in_a_message_is_the_validated_models_text() -> None:
    """The filter puts the clocks into a kept message as plain JSON, measured as it
    leaves: the same text as the protocol's model gives, running, stood in or abandoned."""
    game = load_game("luxor2001", players=2)
    at = db.now()
    seats = [Seat(k, "link") for k in range(2)]
    row = db.TableRow(
        "t", "luxor2001", dict(game.options), seats, "s", db.PLAYING, 0, "c", "s", at, at
    )
    state = game.new_initial_state()
    rng = random.Random(3)
    actions: list[tuple[int | None, int]] = []
    while state.current_player() < 0:  # the deal
        action = sample_chance(state, rng)
        state.apply_action(action)
        actions.append((None, action))
    live = LiveTable(row, actions)
    settings = ClockSettings(mode="realtime", base=60, increment=5)
    began = time.time()
    cases = {
        "running": [],
        "stood in": [Event(0, len(actions), 0, "standin", began)],
        "abandoned": [Event(0, len(actions), 0, "abandon", began)],
    }
    for case, events in cases.items():
        live.clock = replay(row, settings, actions, [began] * len(actions), events)
        data = clock_data(live, began + 10.25)
        assert data is not None
        assert to_json(data).decode() == ClockState.model_validate(data).model_dump_json(), case
        sent = json.loads(filter.state_text(live, 1, 0)[1])["clock"]
        measured = clock_data(live)
        assert measured is not None
        assert sent["seats"][1] == json.loads(to_json(measured["seats"][1]))
        assert abs(sent["seats"][0]["left"] - measured["seats"][0]["left"]) < 1, case
        assert sent["seats"][0]["running"] == (case == "running")
    assert sent["abandoned"] == 0


def test_a_deadline_passes_while_the_server_is_down(server: Server) -> None:
    created = timed_table(
        server, "luxor2001", ["me", "bot:easy"], {"mode": "turn", "turn": 4, "rule": "bot"}
    )
    table_id, mine = created["table_id"], created["seats"][0]["token"]
    ann = SyncSeat.connect(server, table_id, mine)
    turn = ann.until(lambda s: bool(s["actions"]) and seat_clock(s, 0)["running"])
    deadline = turn["clock"]["measured"] + seat_clock(turn, 0)["left"]
    ann.close()
    server.kill()
    time.sleep(max(0.0, deadline - time.time()) + 0.5)
    server.restart()
    # Nobody is connected: the restarted server finds the deadline passed by itself.
    started = time.monotonic()
    while True:
        clock = server.get(f"/api/tables/{table_id}/clock", token=mine).json()["clock"]
        if clock["seats"][0]["timeouts"] == 1:
            break
        assert time.monotonic() - started < 30, clock
        time.sleep(0.1)
    state = SyncSeat.connect(server, table_id, mine).state
    assert standin(state, 0)


def test_a_real_time_clock_counts_down_and_gains_its_increment(sqlite_url: str) -> None:
    with running_server(sqlite_url) as server:
        created = timed_table(
            server,
            "luxor2001",
            ["me", "bot:easy"],
            {"mode": "realtime", "base": 30, "increment": 5, "rule": "abandon"},
        )
        table_id, mine = created["table_id"], created["seats"][0]["token"]
        ann = SyncSeat.connect(server, table_id, mine)
        turn = ann.until(lambda s: bool(s["actions"]) and seat_clock(s, 0)["running"])
        first = seat_clock(turn, 0)["left"]
        assert 25 < first <= 30 and seat_clock(turn, 1)["left"] is None
        time.sleep(1.0)
        # Measured again as it leaves: another connection sees less time left.
        spectator = SyncSeat.connect(server, table_id, created["spectator_token"])
        later = seat_clock(spectator.state, 0)["left"]
        assert first - later >= 0.9
        ann.act(turn["actions"][0]["action"])
        # Her turn ends (the card she draws counts in it): about a second spent, five
        # gained; while the bot plays, nobody's clock runs.
        after = ann.until(lambda s: not seat_clock(s, 0)["running"])
        assert after["acting_seats"] == [1]
        spent = 30 + 5 - seat_clock(after, 0)["left"]
        assert 0.9 <= spent <= 5, after["clock"]
        assert not seat_clock(after, 1)["running"]
        spectator.close()
        ann.close()


def test_running_out_under_abandon_ends_the_match_and_ranks_the_seat_last(
    server: Server,
) -> None:
    ann = httpx.Client(base_url=server.url, headers=PAGE, timeout=60)
    assert ann.post("/api/account/register", json={"name": "Ann", "password": "pyramids!"})
    created = timed_table(
        server,
        "luxor2001",
        ["me", "bot:easy"],
        {"mode": "realtime", "base": 2, "rule": "abandon"},
        client=ann,
    )
    table_id, mine, creator = (
        created["table_id"],
        created["seats"][0]["token"],
        created["creator_token"],
    )
    assert server.post(f"/api/tables/{table_id}/rated", token=creator).json() == {"rated": True}
    headers = {
        "Origin": server.url,
        "Cookie": f"necropolis_session={ann.cookies['necropolis_session']}",
    }
    with connect(server.ws_url(table_id), additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello", "token": mine}))
        while True:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] == "state" and message["status"] == "finished":
                break
        assert message["clock"]["abandoned"] == 0
        assert message["clock"]["seats"][0]["timeouts"] == 1
        assert message["actions"] == []
        ws.send(json.dumps({"type": "act", "action": 0, "version": message["version"]}))
        while (answer := json.loads(ws.recv(timeout=60)))["type"] != "refused":
            pass
        assert answer["code"] == "finished"
    summary = server.get(f"/api/tables/{table_id}", token=creator).json()
    assert summary["status"] == "finished"
    # The rulebooks say nothing of it: the seat out of time ranks last, the others first.
    changes = server.get(f"/api/tables/{table_id}/ratings", token=creator).json()["changes"]
    by_seat = {c["seat"]: c for c in changes}
    assert by_seat[0]["player"] == "Ann" and by_seat[1]["bot"] == "easy"
    assert by_seat[0]["after"] < by_seat[0]["before"] < by_seat[1]["after"]
    board = server.get("/api/ratings/luxor2001").json()
    assert [b["bot"] or b["player"] for b in board] == ["easy", "Ann"]
    profile = server.get("/api/players/Ann").json()
    assert profile["games"] == [{"game": "luxor2001", "played": 1, "wins": 0}]
    # An abandoned match can be replayed.
    assert server.get(f"/api/tables/{table_id}/replay?step=1", token=creator).status_code == 200


def test_skipping_a_turn_only_where_the_rules_allow_it(sqlite_url: str) -> None:
    with running_server(sqlite_url) as server:
        games = {g["id"]: g["skips_turns"] for g in server.get("/api/games").json()}
        # Horus lets a player leave actions unused; both Luxors make every turn be played.
        assert games == {"horus": True, "luxor": False, "luxor2001": False}
        body = {
            "game": "luxor2001",
            "seats": [{"type": "me"}, {"type": "bot"}],
            "clock": {"mode": "turn", "turn": 60, "rule": "skip"},
        }
        r = server.post("/api/tables", body)
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_clock"
        created = timed_table(
            server, "horus", ["me", "bot:easy"], {"mode": "turn", "turn": 1, "rule": "skip"}
        )
        ann = SyncSeat.connect(server, created["table_id"], created["seats"][0]["token"])
        # Ann never plays: each of her turns is let go by ("done") where the rules let her,
        # and her seat decides nothing else than what it must (a bot of the level, once).
        ann.until(lambda s: seat_clock(s, 0)["timeouts"] >= 6, timeout=120)
        kinds = {e["kind"] for e in ann.log if e["seat"] == 0}
        assert "ended_turn_early" in kinds or "ended_turn" in kinds, kinds
        assert not standin(ann.state, 0)
        ann.close()
        # Ann's turn goes on through chance (a card drawn, a die rolled) with nothing to
        # skip: the watcher waits for the draw instead of looking again and again (it once
        # spun there, starving the driver that draws, and said "out of time" 10^5 times).
        said = server.output()
        looked, enforced = said.count("out of time at version"), said.count("enforced (skip)")
        assert enforced >= 6 and looked <= enforced + 2, (looked, enforced)


def test_the_database_enforces_a_deadline_once_and_takes_no_action_after_abandoning(
    db_url: str,
) -> None:
    engine = db.make_engine(db_url)
    try:
        db.upgrade(db_url)
        store, clocks = db.Store(engine), ClockStore(engine)
        row = db.TableRow(
            id="t1",
            game="luxor2001",
            options={"players": 2},
            seats=[Seat(0, "me"), Seat(1, "link")],
            seed="s",
            status=db.PLAYING,
            version=0,
            creator_hash="c",
            spectator_hash="s",
            created=db.now(),
            updated=db.now(),
        )
        store.create(row)
        store.append("t1", 0, None, 0, False)
        # A stored deadline that passed, or that is behind the table's version, is found.
        clocks.create("t1", ClockSettings(mode="turn", turn=60))
        assert clocks.due(time.time()) == ["t1"]  # worked out at version 0, the table at 1
        clocks.set_deadlines([("t1", time.time() + 60, 1)])
        assert clocks.due(time.time()) == []
        clocks.set_deadlines([("t1", time.time() - 1, 1)])
        assert clocks.due(time.time()) == ["t1"]
        # Two writers find the same deadline passed at once: one commits it.
        barrier = threading.Barrier(4)
        results: list[Any] = []

        def enforce() -> None:
            barrier.wait()
            results.append(clocks.time_out("t1", 1, 0, "abandon", None, True))

        workers = [threading.Thread(target=enforce) for _ in range(4)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        assert sum(r is not None for r in results) == 1
        # Too late for the version it was meant for: nothing.
        assert clocks.time_out("t1", 0, 1, "abandon", None, True) is None
        assert store.get("t1").status == db.FINISHED  # type: ignore[union-attr]
        assert clocks.abandoned_seat("t1") == 0
        # The table is over: an action at the next index is refused at the database.
        with pytest.raises(db.VersionConflictError):
            store.append("t1", 1, 0, 3, False)
        assert store.actions("t1") == [(None, 0)]
    finally:
        engine.dispose()


@pytest.mark.parametrize("news", ["shared", "apart"])
def test_two_processes_enforce_a_passed_deadline_once(
    fresh_postgres_url: str, redis_url: str, news: str
) -> None:
    # "apart": each process on a Redis channel of its own, so that neither hears of the
    # other's enforcement before its own clock runs out: both try, the database decides.
    servers = [
        start_server(
            fresh_postgres_url,
            redis_url=redis_url,
            env={"NECROPOLIS_REDIS_CHANNEL": f"clocks-{news}-{k if news == 'apart' else 0}"},
        )
        for k in range(2)
    ]
    enforced_once(fresh_postgres_url, servers, apart=news == "apart")


def test_two_processes_on_one_sqlite_file_enforce_a_passed_deadline_once(tmp_path: Path) -> None:
    # Two servers on one SQLite file, without Redis: neither hears of the other's tables,
    # so both see the deadline pass and try; the database takes one of them.
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    servers = [start_server(url)]
    servers.append(start_server(url))
    enforced_once(url, servers, apart=True)


def enforced_once(url: str, servers: list[Server], *, apart: bool) -> None:
    """A table of ``servers[0]``, watched by both servers: its deadline passes once, and
    one clock event records it, enforced by one process (both tried, when ``apart``: the
    turn is long enough for the second to load the table before its deadline).
    Stops the servers."""
    try:
        first, second = servers
        created = timed_table(
            first, "luxor2001", ["me", "bot:easy"], {"mode": "turn", "turn": 8, "rule": "bot"}
        )
        table_id = created["table_id"]
        # Both processes have the table loaded and watch its clock. The second loads it
        # once the first committed the deal: a process that hears no news of the other
        # (apart) would never learn of a deal made after it loaded the table.
        watchers = [SyncSeat.connect(first, table_id, created["seats"][0]["token"])]
        try:
            watchers[0].until(lambda s: seat_clock(s, 0)["running"])
            watchers.append(SyncSeat.connect(second, table_id, created["spectator_token"]))
            watchers[1].until(lambda s: seat_clock(s, 0)["running"])
            for w in watchers:
                w.until(lambda s: standin(s, 0), timeout=120)
        except TimeoutError as exc:
            # What the servers said tells why the news did not come.
            raise AssertionError([s.output() for s in servers]) from exc
        engine = create_engine(url)
        try:
            with engine.connect() as c:
                events = c.execute(
                    select(clock_events.c.kind, clock_events.c.seat, func.count())
                    .where(clock_events.c.table_id == table_id)
                    .group_by(clock_events.c.kind, clock_events.c.seat)
                ).all()
        finally:
            engine.dispose()
        assert [tuple(e) for e in events] == [("standin", 0, 1)]
        outputs = [s.output() for s in servers]
        enforced = sum(o.count(f"table {table_id}, seat 0: enforced") for o in outputs)
        assert enforced == 1, outputs
        if apart:
            tried = [f"table {table_id}, seat 0 out of time" in o for o in outputs]
            assert tried == [True, True], outputs
            assert any("handled already" in o for o in outputs)
        for w in watchers:
            w.close()
    finally:
        for s in servers:
            s.stop()


def test_upgrade_from_before_clocks(db_url: str) -> None:
    """A database at the revision before clocks (notices), holding a table in play as the
    server wrote it (the rows of ``before_accounts``: the tables' shape has not changed
    since), is upgraded: the table stays untimed, where it was, and plays on."""
    old = before_accounts.make_database(db_url)
    db.upgrade(db_url, revision=BEFORE_CLOCKS)
    table_id, mine = old["table_id"], old["tokens"][0]
    with running_server(db_url) as new:
        state = first(new, table_id, mine)
        assert state["type"] == "state" and state["clock"] is None
        assert int(str(state["version"])) >= old["moved"]
        assert new.get(f"/api/tables/{table_id}/clock", token=mine).json() == {"clock": None}
        seats = [SyncSeat.connect(new, table_id, token) for token in old["tokens"]]
        turn = seats[0].until(lambda s: bool(s["acting_seats"]))
        acting = seats[int(turn["acting_seats"][0])]
        ready = acting.until(lambda s: bool(s["actions"]))
        acting.act(ready["actions"][0]["action"])
        acting.until(lambda s: s["version"] > ready["version"])
        for seat in seats:
            seat.close()
        # Beside it, a timed table.
        timed = timed_table(new, "luxor2001", ["me", "bot:easy"], {"mode": "turn", "turn": 60})
        clock = new.get(f"/api/tables/{timed['table_id']}/clock", token=timed["creator_token"])
        assert clock.json()["clock"]["turn"] == 60


def test_a_deadline_left_by_a_process_that_died_is_enforced_by_another(
    fresh_postgres_url: str, redis_url: str
) -> None:
    """The process that made the table dies; another, which never loaded the table,
    finds its stored deadline passed and enforces it."""
    owner = start_server(fresh_postgres_url, redis_url=redis_url)
    other = start_server(fresh_postgres_url, redis_url=redis_url)
    try:
        created = timed_table(
            owner, "luxor2001", ["me", "bot:easy"], {"mode": "turn", "turn": 3, "rule": "bot"}
        )
        table_id, mine = created["table_id"], created["seats"][0]["token"]
        engine = create_engine(fresh_postgres_url)
        try:
            started = time.monotonic()
            while True:
                with engine.connect() as c:
                    stored = c.execute(
                        select(table_clocks.c.deadline).where(table_clocks.c.table_id == table_id)
                    ).scalar_one()
                if stored is not None:
                    break
                assert time.monotonic() - started < 30
                time.sleep(0.05)
        finally:
            engine.dispose()
        owner.kill()
        started = time.monotonic()
        while "seat 0: enforced" not in other.output():
            assert time.monotonic() - started < 60, other.output()
            time.sleep(0.2)
        clock = other.get(f"/api/tables/{table_id}/clock", token=mine).json()["clock"]
        assert clock["seats"][0]["timeouts"] == 1
    finally:
        owner.kill()
        other.stop()
