"""Tables over their whole life: reconnecting, rematches, bots taking seats, the curse
race, records and replays, restarts, the lobby's HTTP answers and the front-end pages.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, insert, inspect, select

from necropolis.engine.record import MatchRecord
from necropolis.games import load_game
from necropolis.server import db
from tests.clients import Seat, Server, SyncSeat, running_server, start_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("tables")
    with running_server(f"sqlite:///{folder / 'tables.sqlite3'}") as running:
        yield running


def settle(*seats: SyncSeat) -> int:
    """Read until every seat has the same version and the table waits for a person."""
    while True:
        top = max(s.state["version"] for s in seats)
        for seat in seats:
            seat.until(lambda st, top=top: st["version"] >= top)
        state = seats[0].state
        if state["acting_seats"] or state["status"] == "finished":
            return top
        # Chance is still being drawn: the table moves on by itself.
        seats[0].until(lambda st, top=top: st["version"] > top)


def answer(seat: SyncSeat, version: int) -> dict[str, Any]:
    """The refusal of an act at ``version``, or the first state after it."""
    while True:
        message = seat.recv()
        if message["type"] == "refused" or (
            message["type"] == "state" and message["version"] > version
        ):
            return message


def play_one(seats: list[SyncSeat], rng: random.Random) -> None:
    """The seat to move plays one random legal action; a refusal for the rate (a
    connection may send 20 messages a second, and this plays far faster than a person)
    is asked again a moment later."""
    version = settle(*seats)
    mover = next(s for s in seats if s.state["actions"])
    action = rng.choice(mover.state["actions"])["action"]
    while True:
        mover.act(action, version)
        found = answer(mover, version)
        if found["type"] != "refused" or found["code"] != "rate_limited":
            return
        time.sleep(0.1)


def test_reconnect_with_and_without_a_gap(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    table_id = created["table_id"]
    tokens = [s["token"] for s in created["seats"]]
    seats = [SyncSeat.connect(server, table_id, t) for t in tokens]
    rng = random.Random(3)
    for _ in range(4):
        play_one(seats, rng)
    version = settle(*seats)
    first = seats[0]
    first.close()
    # Without a gap: nothing was missed, no entry is sent again.
    again = SyncSeat.connect(server, table_id, tokens[0], version)
    assert again.state["version"] == version and again.state["log"] == []
    assert again.state["view"] == first.state["view"]
    again.close()
    # With a gap: the other seat plays on while this one is away.
    other = seats[1]
    while True:
        moved = settle(other)
        if other.state["actions"]:
            other.act(other.state["actions"][0]["action"], moved)
            answer(other, moved)
            break
        # The absent seat is to move: come back briefly, move, leave.
        back = SyncSeat.connect(server, table_id, tokens[0], moved)
        back.act(back.state["actions"][0]["action"], moved)
        answer(back, moved)
        back.close()
        other.until(lambda st, moved=moved: st["version"] > moved)
    now = settle(other)
    back = SyncSeat.connect(server, table_id, tokens[0], version)
    assert back.state["version"] == now > version
    missed = back.state["log"]
    assert missed and all(e["index"] >= version for e in missed)
    assert {e["index"] for e in missed} == {e["index"] for e in other.log if e["index"] >= version}
    # A full sync (no version) is the whole log as this seat knows it: a long one comes in
    # pages (docs/protocol.md), the first holding the newest entries, from ``log_from``,
    # and the seat asks for the earlier ones back to the log's start.
    full = SyncSeat.connect(server, table_id, tokens[0])
    assert [e["index"] for e in full.state["log"]][-len(missed) :] == [e["index"] for e in missed]
    assert full.state["log"][0]["index"] == full.state.get("log_from", 0)
    whole = full.earlier()
    assert whole[0]["index"] == 0
    assert [e["index"] for e in whole][-len(missed) :] == [e["index"] for e in missed]


def test_the_curse_race_takes_claims_in_the_order_they_arrive(server: Server) -> None:
    """Both seats claim in the same window at the same version: one is applied, the
    other refused as stale."""
    rng = random.Random(5)
    creator = None
    for _attempt in range(5):
        created = server.create_table(
            "luxor2001", ["me", "hotseat"], {"curse": True}, creator_token=creator
        )
        creator = created["creator_token"]
        seats = [
            SyncSeat.connect(server, created["table_id"], s["token"]) for s in created["seats"]
        ]
        while settle(*seats) >= 0 and seats[0].state["status"] == "playing":
            version = seats[0].state["version"]
            if len(seats[0].state["acting_seats"]) < 2:
                play_one(seats, rng)
                continue
            claims = [s.state["actions"][0]["action"] for s in seats]
            # Room in each connection's rate for the two messages below (the moves before
            # may have spent it: a refused ping never answers with a pong).
            time.sleep(0.25)
            for seat, claim in zip(seats, claims, strict=True):
                seat.act(claim, version)
                # A connection's messages are handled in order: the pong comes after
                # the act's answer.
                seat.send({"type": "ping"})
            refusals = []
            for seat in seats:
                while (message := seat.recv())["type"] != "pong":
                    if message["type"] == "refused":
                        refusals.append(message["code"])
            assert refusals == ["stale_version"]
            assert settle(*seats) > version
            return
    raise AssertionError("five matches and not one curse window")


def test_hand_a_seat_to_a_bot(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "link"])
    table_id = created["table_id"]
    me = SyncSeat.connect(server, table_id, created["seats"][0]["token"])
    friend_token = created["seats"][1]["token"]
    friend = SyncSeat.connect(server, table_id, friend_token)
    response = server.post(
        f"/api/tables/{table_id}/seats/1/bot", {"level": "easy"}, created["creator_token"]
    )
    assert response.status_code == 200, response.text
    assert response.json()["seats"][1]["type"] == "bot"
    # Its token stops working; the old connection may no longer act.
    assert server.get(f"/api/tables/{table_id}", friend_token).status_code == 401
    with pytest.raises(AssertionError):
        SyncSeat.connect(server, table_id, friend_token)
    friend.until(lambda s: s["seats"][1]["type"] == "bot")
    assert friend.state["actions"] == []
    friend.act(0)
    while (message := friend.recv())["type"] != "refused":
        pass
    assert message["code"] == "seat_taken_by_bot"
    # The person plays on alone; the bot answers every turn until the end.
    rng = random.Random(1)
    final = asyncio.run(_play_to_the_end(server, table_id, created["seats"][0]["token"], rng))
    assert final["status"] == "finished"
    me.close()


async def _play_to_the_end(
    server: Server, table_id: str, token: str, rng: random.Random
) -> dict[str, Any]:
    seat = await Seat.connect(server, table_id, token)
    final = await seat.play(lambda s: rng.choice(s["actions"])["action"])
    await seat.close()
    return final


def test_rematch_turns_the_seats_and_lists_mine(server: Server) -> None:
    created = server.create_table("luxor2001", ["me", "bot:easy", "link"], {"sphinx": True})
    creator = created["creator_token"]
    table_id = created["table_id"]
    response = server.post(f"/api/tables/{table_id}/rematch", None, creator)
    assert response.status_code == 200, response.text
    rematch = response.json()
    assert rematch["creator_token"] == creator and rematch["table_id"] != table_id
    assert [s["type"] for s in rematch["seats"]] == ["link", "me", "bot"]
    assert all((s["token"] is None) == (s["type"] == "bot") for s in rematch["seats"])
    summary = server.get(f"/api/tables/{rematch['table_id']}", creator).json()
    assert summary["options"]["sphinx"] is True and summary["players"] == 3
    # The creator is shown the seats' tokens again (they work), a seat is not.
    assert [s["token"] for s in summary["seats"]] == [s["token"] for s in rematch["seats"]]
    seat_view = server.get(f"/api/tables/{table_id}", created["seats"][0]["token"]).json()
    assert all(s["token"] is None for s in seat_view["seats"])
    assert seat_view["spectator_token"] is None
    mine = server.get("/api/tables/mine", creator).json()
    assert [t["table_id"] for t in mine][:2] == [rematch["table_id"], table_id]
    assert server.get("/api/tables/mine", "A" * 43).json() == []


def test_a_seat_without_a_name_is_sent_as_null(server: Server) -> None:
    # Each client writes a default name in its own language, so the server sends none.
    body = {
        "game": "luxor2001",
        "options": {},
        "seats": [{"type": "me", "name": "  Ann "}, {"type": "link"}, {"type": "bot"}],
    }
    created = server.post("/api/tables", body).json()
    assert [s["name"] for s in created["seats"]] == ["Ann", None, None]
    table_id, creator = created["table_id"], created["creator_token"]
    me = SyncSeat.connect(server, table_id, created["seats"][0]["token"])
    assert [s["name"] for s in me.state["seats"]] == ["Ann", None, None]
    me.close()
    summary = server.get(f"/api/tables/{table_id}", creator).json()
    assert [s["name"] for s in summary["seats"]] == ["Ann", None, None]
    rematch = server.post(f"/api/tables/{table_id}/rematch", None, creator).json()
    assert [s["name"] for s in rematch["seats"]] == [None, "Ann", None]


def test_record_and_replay_of_a_finished_table(server: Server, tmp_path: Path) -> None:
    created = server.create_table("luxor", ["me", "bot:easy"])
    table_id = created["table_id"]
    token = created["seats"][0]["token"]
    rng = random.Random(2)
    final = asyncio.run(_play_to_the_end(server, table_id, token, rng))
    download = server.get(f"/api/tables/{table_id}/record", token)
    record = MatchRecord.from_json(download.json())
    assert record.seed is None and len(record.actions) == final["version"]
    # Its seats are the terminal's: a person, or the bot's level.
    assert record.seats == ["human", "easy"]
    # The download is a file the command line replays.
    saved = tmp_path / "match.json"
    saved.write_bytes(download.content)
    replayed = subprocess.run(
        [sys.executable, "-m", "necropolis.cli.main", "replay", str(saved), "--all"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert replayed.returncode == 0, replayed.stderr
    states = list(record.states(load_game))
    assert states[-1].view(0) == final["view"]
    spectator = created["spectator_token"]
    for step in (0, 7, final["version"]):
        for seat in (None, 0, 1):
            query = f"?step={step}" + ("" if seat is None else f"&seat={seat}")
            replay = server.get(f"/api/tables/{table_id}/replay{query}", spectator).json()
            assert replay["step"] == step and replay["steps"] == final["version"]
            assert replay["view"] == states[step].view(seat)
            assert replay["log"] == [e for e in states[step].log(seat)]
            assert replay["breakdown"] == states[step].score_breakdown(seat)
            # who may act there, and at the end who won, as the table's state says
            over = states[step].is_terminal()
            assert replay["acting_seats"] == ([] if over else list(states[step].acting_seats()))
            assert replay["winners"] == (final["winners"] if over else [])
            # A spectator's link plays no seat, whichever view it asks.
            assert replay["yours"] is None
    # A seat's own token is told its seat (the page's "you") when it asks another's view.
    for seat in (None, 1):
        query = "?step=7" + ("" if seat is None else f"&seat={seat}")
        mine = server.get(f"/api/tables/{table_id}/replay{query}", token).json()
        assert (mine["seat"], mine["yours"]) == (seat, 0)
    # Turns begin where a seat decides after another did; the deal opens the match.
    actors = [
        None if states[i].current_player() < 0 else states[i].current_player()
        for i in range(final["version"])
    ]
    turns = replay["turns"]
    assert turns[0] == 0 and turns == sorted(set(turns))
    for i in range(1, final["version"]):
        decided = [a for a in actors[:i] if a is not None]
        begins = actors[i] is not None and (not decided or decided[-1] != actors[i])
        assert (i in turns) == begins, (i, actors[max(0, i - 3) : i + 1])
    assert actors[0] is None and turns[1] > 1, "the deal's chance outcomes are one step"
    bad = server.get(f"/api/tables/{table_id}/replay?step={final['version'] + 1}", token)
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_step"


def test_a_killed_server_resumes_bot_tables(tmp_path: Path) -> None:
    """SIGKILL mid-match, restart: the bots' table goes on from its last committed action
    and finishes; a spectator reconnecting with its last version misses nothing."""
    server = start_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    try:
        created = server.create_table("luxor2001", ["bot:easy", "bot:easy"])
        table_id = created["table_id"]
        watcher = SyncSeat.connect(server, table_id, created["spectator_token"])
        watcher.until(lambda s: s["version"] >= 5)
        # The bots think in other processes, started at the first bot's turn.
        deadline = time.monotonic() + 60
        while not (helpers := server.descendants()):
            assert time.monotonic() < deadline, "no bot worker was started"
            time.sleep(0.1)
        target = watcher.state["version"] + 2
        watcher.until(lambda s: s["version"] >= target)
        server.kill()
        # The bot workers and their fork server end with the server.
        deadline = time.monotonic() + 60
        while any(Path(f"/proc/{pid}").exists() for pid in helpers):
            assert time.monotonic() < deadline, "the server's helpers outlived it"
            time.sleep(0.1)
        seen = watcher.state["version"]
        server.restart()
        back = SyncSeat.connect(server, table_id, created["spectator_token"], seen)
        final = back.until(lambda s: s["status"] == "finished", 600)
        # (had the bots run far ahead meanwhile, it would be sent their newest entries:
        # it asks for the rest, down to what it had)
        back.earlier(until=seen)
        log = watcher.log + [e for e in back.log if e["index"] >= seen]
        record = MatchRecord.from_json(
            server.get(f"/api/tables/{table_id}/record", created["spectator_token"]).json()
        )
        replayed = record.final_state(load_game)
        assert replayed.view(None) == final["view"]
        assert log == replayed.log(None)
    finally:
        server.stop()


def test_games_lobby_and_front_end(server: Server) -> None:
    games = server.get("/api/games").json()
    assert [g["id"] for g in games] == sorted(g["id"] for g in games)
    for info in games:
        game = load_game(info["id"])
        assert info["options"][0]["name"] == "players"
        assert info["options"][0]["minimum"] == type(game).min_players
        assert info["levels"] == ["easy", "medium", "hard"]
        layout = server.get(f"/api/games/{info['id']}/layout").json()
        assert layout == game.board_layout()
        messages = server.get(f"/api/games/{info['id']}/messages").json()
        assert all(messages[k] == v for k, v in game.messages.items())
        rules = server.get(f"/api/games/{info['id']}/rules?lang=xx").json()
        assert rules["language"] == "en" and rules["markdown"] == game.rules_summary("en")
    openapi = server.get("/api/openapi.json").json()
    for path in ("/api/tables", "/api/tables/{table_id}/replay", "/api/games"):
        assert path in openapi["paths"]
    assert server.get("/api/health").json() == {"ok": True, "protocol": 1}
    for page, status in (("/", 200), ("/t/abc", 200), ("/replay/abc", 404)):
        response = server.get(page)
        assert response.status_code == status and "text/html" in response.headers["content-type"]


def test_two_processes_share_a_table_through_redis(fresh_postgres_url: str, redis_url: str) -> None:
    """Two servers on one database, Redis between them: a person on each plays a whole
    match against a bot, and each sees the whole match as its seat knew it."""
    first = start_server(fresh_postgres_url, redis_url=redis_url)
    second = start_server(fresh_postgres_url, redis_url=redis_url)
    try:
        created = first.create_table("luxor2001", ["me", "link", "bot:easy"])
        rng = random.Random(4)

        async def both() -> list[dict[str, Any]]:
            table_id = created["table_id"]
            a = await Seat.connect(first, table_id, created["seats"][0]["token"])
            b = await Seat.connect(second, table_id, created["seats"][1]["token"])
            finals = await asyncio.gather(
                *(s.play(lambda st: rng.choice(st["actions"])["action"]) for s in (a, b))
            )
            record = MatchRecord.from_json(
                second.get(f"/api/tables/{table_id}/record", created["spectator_token"]).json()
            )
            final = record.final_state(load_game)
            # Each saw the whole match as its seat knew it, through either process.
            assert a.log == final.log(0) and b.log == final.log(1)
            await a.close()
            await b.close()
            return list(finals)

        finals = asyncio.run(both())
        assert finals[0]["version"] == finals[1]["version"]
        assert finals[0]["breakdown"] == finals[1]["breakdown"]
    finally:
        first.stop()
        second.stop()


def test_db_upgrade_command(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    for _ in range(2):  # a second upgrade finds nothing to do
        done = subprocess.run(
            [sys.executable, "-m", "necropolis.cli.main", "db", "upgrade", "--db", url],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
    engine = create_engine(url)
    assert {"tables", "table_actions", "alembic_version"} <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_upgrade_turns_stored_english_default_names_into_null(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    seats = [
        {"seat": 0, "type": "me", "name": "Player 1", "level": None, "token_hash": "a"},
        {"seat": 1, "type": "link", "name": "Ann", "level": None, "token_hash": "b"},
        {"seat": 2, "type": "bot", "name": "Bot (easy)", "level": "easy", "token_hash": None},
        # A friend's seat handed to a bot kept its person default.
        {"seat": 3, "type": "bot", "name": "Player 4", "level": "hard", "token_hash": None},
    ]
    row: dict[str, Any] = {"id": "t1", "game": "luxor2001", "options": {}, "seats": seats}
    row |= {"seed": "0", "status": "playing", "version": 0, "creator_hash": "c"}
    row |= {"spectator_hash": "s", "created": db.now(), "updated": db.now()}
    with engine.begin() as connection:
        connection.execute(insert(db.tables).values(**row))
    db.upgrade(url)
    with engine.begin() as connection:
        stored = connection.execute(select(db.tables.c.seats)).scalar_one()
    assert [s["name"] for s in stored] == [None, "Ann", None, None]
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
        stored = connection.execute(select(db.tables.c.seats)).scalar_one()
    assert [s["name"] for s in stored] == ["Player 1", "Ann", "Bot (easy)", "Bot (hard)"]
    engine.dispose()


def test_the_built_front_end_is_served_with_a_page_fallback_and_a_404(tmp_path: Path) -> None:
    static = tmp_path / "static"
    (static / "assets").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>table</title>")
    (static / "assets" / "app.js").write_text("console.log('board')")
    (tmp_path / "secret.txt").write_text("not served")
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    with running_server(url, env={"NECROPOLIS_STATIC_DIR": str(static)}) as server:
        for page in ("/", "/t/abc", "/t/abc/", "/t/abc?replay"):
            response = server.get(page)
            assert response.status_code == 200 and "<title>table</title>" in response.text
        # Any other address gets the page, which says there is nothing there, as a 404.
        for page in ("/replay/abc", "/lobby", "/t/abc/more", "/t/"):
            response = server.get(page)
            assert response.status_code == 404 and "<title>table</title>" in response.text
        assert server.get("/assets/app.js").text == "console.log('board')"
        assert "not served" not in server.get("/assets/../../secret.txt").text
        assert "not served" not in server.get("/%2e%2e/secret.txt").text
        missing = server.get("/api/unknown")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    # Without a build, every page says how to make one.
    with running_server(url, env={"NECROPOLIS_STATIC_DIR": str(tmp_path / "none")}) as server:
        page = server.get("/t/abc")
        assert page.status_code == 200 and "scripts/setup" in page.text


def test_the_front_end_travels_compressed_and_hashed_assets_are_cached_for_good(
    tmp_path: Path,
) -> None:
    static = tmp_path / "static"
    (static / "assets").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>table</title>" + " " * 2000)
    script = "export const board = 'luxor';\n" * 2000
    (static / "assets" / "index-D2Vl_GmW.js").write_text(script)
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    with (
        running_server(url, env={"NECROPOLIS_STATIC_DIR": str(static)}) as server,
        httpx.Client(base_url=server.url) as client,
    ):
        asset = client.get("/assets/index-D2Vl_GmW.js", headers={"Accept-Encoding": "gzip"})
        assert asset.headers["content-encoding"] == "gzip"
        assert asset.text == script  # httpx undoes the compression
        assert int(asset.headers["content-length"]) < len(script) // 10
        assert "immutable" in asset.headers["cache-control"]
        assert "max-age=31536000" in asset.headers["cache-control"]
        page = client.get("/t/abc", headers={"Accept-Encoding": "gzip"})
        assert page.headers["content-encoding"] == "gzip"
        # The page itself names the hashed assets: it must be asked for again each time.
        assert page.headers["cache-control"] == "no-cache"
        api = client.get("/api/games", headers={"Accept-Encoding": "gzip"})
        assert api.headers["content-encoding"] == "gzip"
        # A client that does not take gzip gets the plain bytes.
        plain = client.get("/assets/index-D2Vl_GmW.js", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.text == script
