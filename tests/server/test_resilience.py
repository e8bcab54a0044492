"""The table server loses nothing when it is killed, and several processes make one table.

Over real HTTP and WebSocket connections to ``necropolis serve`` subprocesses:

- **Kill and restart.** Tables of every game, with people (clients in this test) and bots
  (the server's workers) in play, while the server is SIGKILLed at random moments and
  restarted on the same database, again and again. Every action a client was told is
  committed must still be there afterwards, with the same log; versions only grow; each
  client reconnects with the last version it saw and gets what it missed; every table
  resumes, including those whose turn was a bot's, which go on by themselves. On SQLite
  and on PostgreSQL.
- **Two processes.** Two servers on one PostgreSQL behind one Redis; the two players of a
  table connected to different processes play a whole game, and each sees every move.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.clients import Message, PageLog, SeatClient, Server, create_table, start_server

#: SIGKILLs per test; each costs a server start (a few seconds on a loaded machine).
KILLS = 20


@contextlib.contextmanager
def serving(*servers: Callable[[], Server]) -> Iterator[list[Server]]:
    """Start each server, and stop them all at the end, whatever happened."""
    started: list[Server] = []
    try:
        for start in servers:
            started.append(start())
        yield started
    finally:
        for server in started:
            server.stop()


@dataclass
class Seat:
    """A person's seat at a table, as its page knows it across connections."""

    table_id: str
    seat: int
    token: str
    client: SeatClient | None = None
    #: Every version this seat was ever told, in order, across reconnects.
    versions: list[int] = field(default_factory=list)
    #: The log as this seat was told it, across connections, as its page keeps it.
    page: PageLog = field(default_factory=PageLog)
    last: Message | None = None
    #: What the seat was told that it should not have been (checked by the test's body:
    #: an assertion inside the client's reader would only end the connection).
    problems: list[str] = field(default_factory=list)

    @property
    def version(self) -> int | None:
        return self.versions[-1] if self.versions else None

    @property
    def log(self) -> dict[int, list[Message]]:
        """Each action index's entries: every index from ``log_from`` on."""
        return self.page.by_index

    @property
    def log_from(self) -> int | None:
        return self.page.log_from

    def take(self, state: Message) -> None:
        version = int(state["version"])
        if self.versions and version < self.versions[-1]:
            self.problems.append(f"version went back from {self.versions[-1]} to {version}")
        self.page.take_state(state, self.version)
        self.versions.append(version)
        for entry in state.get("log", []):
            if int(entry["index"]) >= version:
                self.problems.append(f"an entry of action {entry['index']} at version {version}")
        self.last = state


class People:
    """Clients that play their seats with random legal actions, like impatient people."""

    def __init__(self, base: str, seats: list[Seat], delay: float = 0.05) -> None:
        self.base = base
        self.seats = seats
        self.delay = delay
        self.playing = True
        self._tasks: set[asyncio.Task[None]] = set()

    async def connect_all(self) -> None:
        await asyncio.gather(*(self.connect(seat) for seat in self.seats))

    async def connect(self, seat: Seat) -> None:
        def hook(client: SeatClient, state: Message) -> None:
            seat.take(state)
            actions = state.get("actions") or []
            if self.playing and actions and state.get("status") == "playing":
                choice = int(random.choice(actions)["action"])
                version = int(state["version"])
                task = asyncio.ensure_future(self._act(client, choice, version))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

        # A page that comes back says the last version it saw.
        seat.client = SeatClient(self.base, seat.table_id, seat.token, seat.version, hook)
        await seat.client.connect()

    async def _act(self, client: SeatClient, action: int, version: int) -> None:
        await asyncio.sleep(random.uniform(0, self.delay))
        if self.playing:
            with contextlib.suppress(Exception):
                await client.act(action, version)

    async def close_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(
            *(seat.client.close() for seat in self.seats if seat.client is not None)
        )


async def games_of(base: str) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        answer: list[dict[str, Any]] = (await http.get("/api/games")).json()
        return answer


async def make_tables(base: str) -> list[Seat]:
    """Per game: two people and a bot; and one person with two bots (bots often to move)."""
    seats: list[Seat] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for game in await games_of(base):
            # The two-bot tables' bots think a while (hard searches up to 0.9 s a move): a
            # restart then finds some table whose turn is a bot's, which the test needs to
            # see resume by itself.
            layouts = ((["link", "link", "bot"], "easy"), (["bot", "link", "bot"], "hard"))
            for layout, level in layouts:
                spec = [
                    {"type": kind, "level": level} if kind == "bot" else {"type": kind}
                    for kind in layout
                ]
                created = await create_table(http, game["id"], spec)
                for seat in created["seats"]:
                    if seat.get("token"):
                        seats.append(Seat(created["table_id"], int(seat["seat"]), seat["token"]))
    return seats


async def full_sync(base: str, seat: Seat) -> tuple[Message, dict[int, list[Message]]]:
    """A new connection with no version: the seat's current state, and its whole log
    (the first state's newest entries and every older page), by action index."""
    client = SeatClient(base, seat.table_id, seat.token)
    try:
        state = await client.connect()
        await client.earlier()
        return state, {index: entries for index, entries in client.log.items() if entries}
    finally:
        await client.close()


async def kill_and_restart(server: Server, kills: int, rng: random.Random) -> None:
    seats = await make_tables(server.url)
    people = People(server.url, seats)
    await people.connect_all()
    bot_turn_checks = 0
    for round_ in range(kills):
        # Play for a random moment, then crash the server in the middle of whatever it does.
        await asyncio.sleep(rng.uniform(0.05, 1.2))
        told = {id(seat): seat.version for seat in seats}
        server.kill()
        await people.close_all()
        # Every other round the people sit still after the restart: any table that moves
        # on then does so because its bots (and chance) resume by themselves.
        people.playing = round_ % 2 == 0
        server.restart()
        await people.connect_all()
        for seat in seats:
            assert seat.client is not None
            first = seat.client.states[0]
            before = told[id(seat)]
            assert before is not None
            # Nothing a client was told is committed went missing.
            assert first["version"] >= before, (seat.table_id, first["version"], before)
            # It is sent what it missed, not what it had.
            assert all(int(e["index"]) >= before for e in first["log"]), first["log"]
        if not people.playing:
            waiting = [
                seat
                for seat in seats
                if seat.last is not None
                and seat.last["status"] == "playing"
                and not seat.last["actions"]
                and seat.last["current_player"] is not None
            ]
            bot_turn = [
                seat
                for seat in waiting
                if all(
                    other.last is None or not other.last["actions"]
                    for other in seats
                    if other.table_id == seat.table_id
                )
            ]
            # The versions at which these tables were seen waiting, taken before waiting
            # on any: their bots go on meanwhile, up to a person's turn.
            waited = [(seat, seat.version) for seat in bot_turn]
            for seat, since in waited:
                assert seat.client is not None and since is not None
                # The table's turn belongs to a bot or to chance: it moves with nobody
                # acting.
                await seat.client.wait_for(
                    lambda s, since=since: s["version"] > since or s["status"] != "playing",
                    timeout=60,
                )
                bot_turn_checks += 1
            people.playing = True
            # Wake the people: a fresh state makes each act if it is its turn.
            await people.close_all()
            await people.connect_all()
    assert bot_turn_checks > 0, "no round left a table waiting for a bot"

    # Every table resumed: each one still playing moves on after the last restart.
    playing_tables = {s.table_id: s for s in seats if s.last and s.last["status"] == "playing"}
    for seat in playing_tables.values():
        assert seat.client is not None
        since = seat.client.version
        await seat.client.wait_for(
            lambda s, since=since: s["version"] > since or s["status"] != "playing", timeout=60
        )
    people.playing = False
    await people.close_all()

    for seat in seats:
        # Versions only grow, across every connection and restart.
        assert not seat.problems, (seat.table_id, seat.problems)
        assert seat.versions == sorted(seat.versions), (seat.table_id, seat.versions)
        # Every action the seat was told of is still there, told the same way.
        synced, stored = await full_sync(server.url, seat)
        assert seat.version is not None and seat.log_from is not None
        assert synced["version"] >= seat.version
        for index in range(seat.log_from, seat.version):
            assert seat.log.get(index, []) == stored.get(index, []), (seat.table_id, index)


@pytest.mark.slow
def test_sqlite_server_killed_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    with serving(lambda: start_server(url)) as (server,):
        asyncio.run(kill_and_restart(server, KILLS, random.Random(20261123)))


@pytest.mark.slow
def test_postgres_server_killed_at_random_moments_loses_nothing(
    fresh_postgres_url: str,
) -> None:
    with serving(lambda: start_server(fresh_postgres_url)) as (server,):
        asyncio.run(kill_and_restart(server, KILLS, random.Random(17)))


async def play_across(first: Server, second: Server) -> None:
    """Per game, a table of two people, one on each process, played to its end."""
    seats: list[Seat] = []
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        for game in await games_of(first.url):
            created = await create_table(http, game["id"], [{"type": "link"}, {"type": "link"}])
            for seat in created["seats"]:
                seats.append(Seat(created["table_id"], int(seat["seat"]), seat["token"]))
    on_first = People(first.url, [s for s in seats if s.seat == 0], delay=0.01)
    on_second = People(second.url, [s for s in seats if s.seat == 1], delay=0.01)
    await on_first.connect_all()
    await on_second.connect_all()
    try:
        for seat in seats:
            assert seat.client is not None
            await seat.client.wait_for(lambda s: s["status"] == "finished", timeout=180)
    finally:
        await on_first.close_all()
        await on_second.close_all()
    for seat in seats:
        partner = next(s for s in seats if s.table_id == seat.table_id and s is not seat)
        assert not seat.problems, (seat.table_id, seat.problems)
        assert seat.last is not None and seat.last["status"] == "finished"
        # Both ended at the same version. Neither could have moved had its process not
        # told it of the other's moves: each acts only when its state says it may.
        assert seat.version == partner.version
        # The whole record as the other process keeps it is the one this seat was told.
        other = second if seat.seat == 0 else first
        synced, stored = await full_sync(other.url, seat)
        assert synced["version"] == seat.version and seat.log_from is not None
        assert {i: e for i, e in stored.items() if i >= seat.log_from} == {
            index: entries for index, entries in seat.log.items() if entries
        }
        # And the other seat's moves are in it, as this seat was told them.
        assert any(
            entry.get("seat") == partner.seat for entries in seat.log.values() for entry in entries
        )


@pytest.mark.slow
def test_two_processes_behind_redis_make_one_table(fresh_postgres_url: str, redis_url: str) -> None:
    with serving(
        lambda: start_server(fresh_postgres_url, redis_url=redis_url),
        lambda: start_server(fresh_postgres_url, redis_url=redis_url),
    ) as (first, second):
        asyncio.run(play_across(first, second))
