"""The table server through a database outage: no table stalls, every client is told.

Over real HTTP and WebSocket connections to a ``necropolis serve`` subprocess, tables with
people (clients acting at random as fast as they may), bots and chance are in play when
the database fails, and again when it comes back:

- **PostgreSQL stopped** (``pg_ctl stop -m immediate``) and started again;
- **PostgreSQL frozen** (SIGSTOP to the whole cluster) and thawed;
- **SQLite's writes failing**, as on a full disk: the server's file-size limit set to 0.

Each time: every client's connection stays open and the acts sent meanwhile are refused
(never silence, never a dropped socket), each client that acted told ``unavailable`` at
least once; health answers 503 during the outage and
200 after; creating a table answers 503 ``unavailable``; afterwards every table still in
play moves on by itself within a bounded time (those whose turn is a bot's or chance's
included); versions only grow; every action a client was told of is in the record, told
the same way, and nobody was told of a version the record lacks. A reconnect's hello to a
process that has not loaded the table is refused with ``unavailable`` and answered once
the database is back. The times to resume and the longest wait of an act are printed.

Apart from play: a first hello to a loaded table for a seat whose claim the process has
not read, a sign-in, an account and a chat message during a PostgreSQL stop and freeze
(refused, or 503 ``unavailable``, within a bounded wait); and health on a quiet SQLite
server whose disk fills (503 although nothing else writes).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import resource
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

from tests.clients import Message, SeatClient, Server, create_table, start_server, ws_url
from tests.realservers import PostgresCluster
from tests.server.test_resilience import People, Seat, full_sync, games_of

#: Seconds the database stays failed.
OUTAGE = 3.0
#: Seconds within which every table must move on once the database is back. Measured on
#: a 2-core machine shared with other work: 1.0 s at most (a driver's back-off is capped
#: at 1 s, so one may sleep that long after the return); the bound leaves room for a
#: loaded machine, about four times what was seen, and the figures are printed.
RESUME_BOUND = 4.0
#: Seconds an act may wait for its answer while the database fails. The server gives up
#: on a frozen database after STORAGE_WAIT (2 s): measured 2.1 s at most, and about three
#: times that is the bound, for a loaded machine.
ACT_BOUND = 6.0


@dataclass
class Answered:
    """One act: when it was sent, how long its answer took, who sent it, and the answer
    (the refusal's code; "state" when a state came with no refusal; "silence" when
    nothing came within :data:`ACT_BOUND`, "closed" when the connection dropped)."""

    sent: float
    wait: float
    client: SeatClient
    answer: str


@dataclass
class Timed:
    """Every act the people sent, with its answer."""

    acts: list[Answered] = field(default_factory=list)


class TimedPeople(People):
    """People who also note how long each act waited for its answer (a refusal or a
    state), and what the answer was."""

    def __init__(self, base: str, seats: list[Seat], timed: Timed) -> None:
        super().__init__(base, seats, delay=0.05)
        self.timed = timed
        #: When each act still waiting for its answer was sent.
        self.waiting: list[float] = []

    async def answered(self, before: float) -> None:
        """Wait until every act sent before ``before`` has its answer noted."""
        while any(sent <= before for sent in self.waiting):
            await asyncio.sleep(0.05)

    async def _act(self, client: SeatClient, action: int, version: int) -> None:
        await asyncio.sleep(random.uniform(0, self.delay))
        if not self.playing:
            return
        states, others = len(client.states), len(client.others)
        sent = time.monotonic()
        self.waiting.append(sent)
        try:
            await self._answer(client, action, version, sent, states, others)
        finally:
            self.waiting.remove(sent)

    async def _answer(
        self, client: SeatClient, action: int, version: int, sent: float, states: int, others: int
    ) -> None:
        def refusals() -> list[Message]:
            return [m for m in client.others[others:] if m.get("type") == "refused"]

        with contextlib.suppress(Exception):
            await client.act(action, version)
            # A refusal comes before its state; presence and the like are no answer.
            while len(client.states) == states and not refusals():
                if client.closed.is_set() or time.monotonic() - sent > ACT_BOUND:
                    break
                await asyncio.sleep(0.01)
            wait = time.monotonic() - sent
            refused = refusals()
            if refused:
                answer = str(refused[0]["code"])
            elif len(client.states) > states:
                answer = "state"
            else:
                answer = "closed" if client.closed.is_set() else "silence"
            self.timed.acts.append(Answered(sent, wait, client, answer))


def bots_to_move(seats: list[Seat]) -> set[str]:
    """The tables in play whose newest state any of their clients holds is at a bot's or
    chance's turn (no person's seat among those to act)."""
    newest: dict[str, Message] = {}
    for seat in seats:
        state = seat.last
        known = newest.get(seat.table_id)
        if state is not None and (known is None or state["version"] > known["version"]):
            newest[seat.table_id] = state
    found: set[str] = set()
    for table_id, state in newest.items():
        kinds = {int(s["seat"]): s["type"] for s in state["seats"]}
        if state["status"] == "playing" and all(
            kinds[acting] == "bot" for acting in state["acting_seats"]
        ):
            found.add(table_id)
    return found


#: The table only bots play, watched by its creator: its turn is always a bot's or
#: chance's, so only its driver moves it on after the outage. Its bots are hard (a tenth
#: of a second to a second a decision, so the match lasts minutes): easy bots alone
#: finish a match in a quarter of a second, before the outage begins.
BOTS_ALONE = ("luxor", ["bot", "bot"], "hard")


async def make_tables(base: str) -> list[Seat]:
    """Per game: two people and an easy bot; one person between two easy bots; two people
    alone (whose turn it nearly always is, so that acts meet the outage); and one table
    of :data:`BOTS_ALONE`."""
    seats: list[Seat] = []
    people = (["link", "link", "bot"], ["bot", "link", "bot"], ["link"] * 2)
    tables = [(g["id"], layout, "easy") for g in await games_of(base) for layout in people]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for game, layout, level in [*tables, BOTS_ALONE]:
            spec = [
                {"type": kind, "level": level} if kind == "bot" else {"type": kind}
                for kind in layout
            ]
            created = await create_table(http, game, spec)
            for seat in created["seats"]:
                if seat.get("token"):
                    seats.append(Seat(created["table_id"], int(seat["seat"]), seat["token"]))
            if "link" not in layout:
                seats.append(Seat(created["table_id"], -1, created["creator_token"]))
    return seats


def playing_versions(seats: list[Seat]) -> dict[str, tuple[Seat, int]]:
    """Per table still in play: a seat of it and the newest version any of its seats saw."""
    found: dict[str, tuple[Seat, int]] = {}
    finished = {s.table_id for s in seats if s.last is not None and s.last["status"] != "playing"}
    for seat in seats:
        if seat.table_id in finished or seat.version is None:
            continue
        _, newest = found.get(seat.table_id, (seat, -1))
        found[seat.table_id] = (seat, max(newest, seat.version))
    return found


@dataclass
class Waiting:
    """A seat whose turn it is, kept idle until the outage: then it acts once."""

    client: SeatClient
    action: int
    version: int


async def waiting_seat(base: str) -> Waiting:
    """A table of two people nobody else plays, at one's turn (after its chance outcomes)."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        created = await create_table(http, "horus", [{"type": "link"}, {"type": "link"}])
    clients = [SeatClient(base, created["table_id"], seat["token"]) for seat in created["seats"]]
    for client in clients:
        await client.connect()
    deadline = time.monotonic() + 30
    while True:
        for client in clients:
            state = client.state
            if state is not None and state["actions"]:
                return Waiting(client, int(state["actions"][0]["action"]), int(state["version"]))
        assert time.monotonic() < deadline, "the table never came to a person's turn"
        await asyncio.sleep(0.05)


async def act_during_outage(waiting: Waiting) -> float:
    """The waiting seat acts: the answer is a refusal ``unavailable`` and the state as it
    was, on the open connection, within the server's bound. Returns how long it took."""
    client = waiting.client
    heard = len(client.others)
    states = len(client.states)
    sent = time.monotonic()
    await client.act(waiting.action, waiting.version)
    while len(client.others) == heard:
        assert not client.closed.is_set(), "the connection dropped"
        assert time.monotonic() - sent < ACT_BOUND, "the act was not answered in time"
        await asyncio.sleep(0.01)
    took = time.monotonic() - sent
    refusal = client.others[heard]
    assert refusal["type"] == "refused" and refusal["code"] == "unavailable", refusal
    while len(client.states) == states:
        assert time.monotonic() - sent < ACT_BOUND, "no state followed the refusal"
        await asyncio.sleep(0.01)
    assert client.states[states]["version"] == waiting.version
    return took


async def until_health(base: str, status: int, timeout: float) -> float:
    """Seconds until ``/api/health`` answers ``status``."""
    start = time.monotonic()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while True:
            answer = await http.get("/api/health")
            if answer.status_code == status:
                if status == 503:
                    assert answer.json()["error"]["code"] == "unavailable", answer.text
                return time.monotonic() - start
            assert time.monotonic() - start < timeout, (status, answer.status_code, answer.text)
            await asyncio.sleep(0.05)


async def create_during_outage(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        answer = await http.post(
            "/api/tables",
            json={"game": "horus", "options": {}, "seats": [{"type": "me"}, {"type": "bot"}]},
        )
    assert answer.status_code == 503, answer.text
    assert answer.json()["error"]["code"] == "unavailable", answer.text


async def through_outage(
    server: Server, fail: Callable[[], None], recover: Callable[[], None], kind: str
) -> None:
    seats = await make_tables(server.url)
    waiting = await waiting_seat(server.url)
    timed = Timed()
    people = TimedPeople(server.url, seats, timed)
    await people.connect_all()
    await asyncio.sleep(1.0)
    assert playing_versions(seats), "every table ended before the outage"

    failed_at = time.monotonic()
    await asyncio.to_thread(fail)
    # From here on no commit can succeed: every act is refused until the database is back.
    down = time.monotonic()
    # Tables only a bot or chance moves: nothing but their driver will move them on.
    driven = bots_to_move(seats)
    refused_after = await act_during_outage(waiting)
    # The people go on acting meanwhile; the server is asked as a load balancer would.
    await until_health(server.url, 503, timeout=OUTAGE + 10)
    await create_during_outage(server.url)
    await asyncio.sleep(max(0.0, failed_at + OUTAGE - time.monotonic()))
    stalled = playing_versions(seats)
    recovering = time.monotonic()
    await asyncio.to_thread(recover)
    back = time.monotonic()

    healthy = await until_health(server.url, 200, timeout=RESUME_BOUND)
    # The acts sent once the database had failed: none met silence or a dropped socket;
    # those answered before it was back were refused, never taken as if it were there;
    # and every client that acted then was told at least once that the storage is
    # unavailable.
    await asyncio.wait_for(people.answered(recovering), ACT_BOUND + 1)
    sent_down = [a for a in timed.acts if down <= a.sent <= recovering]
    assert not [a for a in sent_down if a.answer in ("silence", "closed")], [
        a.answer for a in sent_down
    ]
    outage = [a for a in sent_down if a.sent + a.wait <= recovering]
    assert outage, "nobody acted during the outage"
    assert all(a.answer != "state" for a in outage), [a.answer for a in outage]
    told = {id(a.client) for a in outage if a.answer == "unavailable"}
    assert told == {id(a.client) for a in outage}, sorted({a.answer for a in outage})
    # Every table still in play moves on by itself: people act on each state they get,
    # and a table whose turn is a bot's or chance's has only its driver to move it.
    resumed: dict[str, float] = {}

    async def resumes(table_id: str, seat: Seat, version: int) -> None:
        assert seat.client is not None
        await seat.client.wait_for(
            lambda s: s["version"] > version or s["status"] != "playing", timeout=RESUME_BOUND
        )
        resumed[table_id] = time.monotonic() - back

    await asyncio.gather(*(resumes(t, seat, v) for t, (seat, v) in stalled.items()))
    # Some table was at a bot's or chance's turn when the database failed, still in play
    # when it came back (a commit under way as it failed may have ended one), and moved on
    # after: checked with the others just above.
    driven &= stalled.keys()
    assert driven, "no table was at a bot's or chance's turn through the outage"
    # The act refused during the outage, sent again at its version, is in the record now
    # (refused as stale if the commit given up on landed after all).
    await waiting.client.act(waiting.action, waiting.version)
    await waiting.client.wait_for(lambda s: s["version"] > waiting.version, timeout=RESUME_BOUND)
    assert waiting.client.log[waiting.version][0]["seat"] == waiting.client.state["seat"]
    await waiting.client.close()
    during = [a.wait for a in timed.acts if failed_at <= a.sent <= back] + [refused_after]
    people.playing = False
    await asyncio.sleep(0.2)

    refusals = [m for s in seats if s.client is not None for m in s.client.others]
    for seat in seats:
        assert seat.client is not None
        # Nobody's connection dropped: every refusal came on an open socket.
        assert not seat.client.closed.is_set(), (seat.table_id, seat.client.others)
    assert not [m for m in refusals if m.get("type") == "error"], refusals
    unavailable = [m for m in refusals if m.get("code") == "unavailable"]
    await people.close_all()

    for seat in seats:
        assert not seat.problems, (seat.table_id, seat.problems)
        assert seat.versions == sorted(seat.versions), (seat.table_id, seat.versions)
        synced, stored = await full_sync(server.url, seat)
        assert seat.version is not None and seat.log_from is not None
        # Nobody was told of a version the record lacks, nor of an entry it does not hold.
        assert synced["version"] >= seat.version, (seat.table_id, synced["version"], seat.version)
        for index in range(seat.log_from, seat.version):
            assert seat.log.get(index, []) == stored.get(index, []), (seat.table_id, index)

    driven_back = [resumed[t] for t in driven]
    print(
        f"\n{kind}: {len(stalled)} tables in play ({len(driven)} at a bot's or chance's"
        f" turn), {len(unavailable) + 1} acts refused as unavailable ({len(outage)} acts"
        f" from {len(told)} clients while it was down); health 200 {healthy:.2f} s after"
        f" the database's return; tables resumed after {min(resumed.values()):.2f}-"
        f"{max(resumed.values()):.2f} s (bots' and chance's {max(driven_back):.2f} s at"
        f" most); longest wait of an act during the outage {max(during, default=0):.2f} s"
        f" ({len(during)} acts)"
    )
    assert max(during) < ACT_BOUND, during


@contextlib.contextmanager
def serving(url: str) -> Iterator[Server]:
    # Two bot workers: the hard bots' searches keep one busy, and the easy bots' turns
    # need not wait behind them.
    server = start_server(url, bot_workers=2)
    try:
        yield server
    finally:
        server.stop()


def test_postgres_stopped_and_started_again(own_postgres: PostgresCluster) -> None:
    with serving(own_postgres.url) as server:
        asyncio.run(
            through_outage(server, own_postgres.stop, own_postgres.start, "postgresql stopped")
        )


def test_postgres_frozen_and_thawed(own_postgres: PostgresCluster) -> None:
    with serving(own_postgres.url) as server:
        asyncio.run(
            through_outage(server, own_postgres.freeze, own_postgres.thaw, "postgresql frozen")
        )


def test_sqlite_writes_failing_as_on_a_full_disk(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'tables.sqlite3'}") as server:
        assert server.process is not None
        pid = server.process.pid
        limits = resource.prlimit(pid, resource.RLIMIT_FSIZE)

        def fill() -> None:
            assert server.process is not None and server.process.pid == pid
            resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, limits[1]))

        def free() -> None:
            resource.prlimit(pid, resource.RLIMIT_FSIZE, limits)

        asyncio.run(through_outage(server, fill, free, "sqlite writes failing"))


async def hello_refused_then_answered(
    first: Server, second: Server, cluster: PostgresCluster
) -> None:
    """A table made on ``first`` and unknown to ``second``'s memory: a hello to ``second``
    while the database is down is refused, on an open connection, and the same hello
    said again once it is back is answered with the table's state."""
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        created = await create_table(http, "horus", [{"type": "link"}, {"type": "bot"}])
    token = next(s["token"] for s in created["seats"] if s.get("token"))
    await asyncio.to_thread(cluster.stop)
    async with websockets.connect(ws_url(second.url, created["table_id"])) as socket:
        hello = json.dumps({"type": "hello", "token": token, "version": None})
        await socket.send(hello)
        answer = json.loads(await asyncio.wait_for(socket.recv(), 30))
        assert answer["type"] == "refused" and answer["code"] == "unavailable", answer
        await asyncio.to_thread(cluster.start)
        deadline = time.monotonic() + RESUME_BOUND
        while True:
            await socket.send(hello)
            answer = json.loads(await asyncio.wait_for(socket.recv(), 30))
            if answer["type"] == "state":
                break
            assert answer["code"] == "unavailable", answer
            assert time.monotonic() < deadline, "the hello was never answered"
            await asyncio.sleep(0.2)
        assert answer["table"] == created["table_id"]


def test_hello_during_an_outage_is_refused_and_answered_after(
    own_postgres: PostgresCluster,
) -> None:
    with serving(own_postgres.url) as first, serving(own_postgres.url) as second:
        asyncio.run(hello_refused_then_answered(first, second, own_postgres))


#: The page's header, which a cookie-authenticated POST needs (see routes/accounts.py).
PAGE = {"X-Necropolis": "1"}
CREDENTIALS = {"name": "Ana", "password": "correct horse"}


async def answered_within(
    request: Awaitable[httpx.Response], what: str, waits_in_a_row: int = 1
) -> httpx.Response:
    """The answer to ``request``, which must come within :data:`ACT_BOUND` seconds for
    each bounded wait on the database it may make in a row."""
    sent = time.monotonic()
    answer = await asyncio.wait_for(request, ACT_BOUND * waits_in_a_row)
    waits[what] = time.monotonic() - sent
    return answer


#: How long each request of the last outage test waited, by what it was.
waits: dict[str, float] = {}


def assert_unavailable(answer: httpx.Response) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.json()["error"]["code"] == "unavailable", answer.text


async def first_hello_and_accounts(
    server: Server, fail: Callable[[], None], recover: Callable[[], None], kind: str
) -> None:
    """While the database fails: a first hello to a table this process holds, for a seat
    whose claim it has not yet read, is refused ``unavailable`` on the open connection,
    and a sign-in, a look at one's account and a chat message answer 503
    ``unavailable``, each within a bounded wait; once it is back, each is answered."""
    waits.clear()
    async with (
        httpx.AsyncClient(base_url=server.url, timeout=30, headers=PAGE) as signed,
        httpx.AsyncClient(base_url=server.url, timeout=30) as http,
    ):
        assert (await signed.post("/api/account/register", json=CREDENTIALS)).status_code == 200
        created = await create_table(http, "horus", [{"type": "link"}, {"type": "link"}])
        table_id = created["table_id"]
        first, second = (seat["token"] for seat in created["seats"])
        # The table is in this process's memory, and seat 0's claim is known to it.
        opened = SeatClient(server.url, table_id, first)
        await opened.connect()
        chat = f"/api/tables/{table_id}/chat"
        bearer = {"Authorization": f"Bearer {first}"}
        hello = json.dumps({"type": "hello", "token": second, "version": None})
        async with websockets.connect(ws_url(server.url, table_id)) as socket:
            await asyncio.to_thread(fail)
            try:

                async def refused_hello() -> None:
                    sent = time.monotonic()
                    await socket.send(hello)
                    answer = json.loads(await asyncio.wait_for(socket.recv(), ACT_BOUND))
                    waits["hello"] = time.monotonic() - sent
                    assert answer["type"] == "refused", answer
                    assert answer["code"] == "unavailable", answer

                signin, account, said, _ = await asyncio.gather(
                    answered_within(
                        http.post("/api/account/signin", json=CREDENTIALS, headers=PAGE),
                        "sign-in",
                    ),
                    answered_within(signed.get("/api/account"), "account"),
                    answered_within(
                        http.post(chat, json={"text": "still there?"}, headers=bearer),
                        "chat",
                        # The seat's claim (remembered, but only used once the storage is
                        # known to fail), then the names of the table's claimed seats.
                        waits_in_a_row=2,
                    ),
                    refused_hello(),
                )
                for answer in (signin, account, said):
                    assert_unavailable(answer)
            finally:
                await asyncio.to_thread(recover)
            # The same hello, said again on the same connection, is answered.
            deadline = time.monotonic() + RESUME_BOUND
            while True:
                await socket.send(hello)
                answer = json.loads(await asyncio.wait_for(socket.recv(), 30))
                if answer["type"] == "state":
                    break
                assert answer["code"] == "unavailable", answer
                assert time.monotonic() < deadline, "the hello was never answered"
                await asyncio.sleep(0.2)
            assert answer["table"] == table_id and answer["seat"] == 1
        await opened.close()
        assert (await http.post("/api/account/signin", json=CREDENTIALS, headers=PAGE)).is_success
        assert (await signed.get("/api/account")).json() == {"name": "Ana"}
        assert (await http.post(chat, json={"text": "back"}, headers=bearer)).is_success
    shown = ", ".join(f"{what} {took:.2f} s" for what, took in sorted(waits.items()))
    print(f"\n{kind}: answered during the outage after {shown}")


def test_first_hello_and_accounts_while_postgres_is_stopped(
    own_postgres: PostgresCluster,
) -> None:
    with serving(own_postgres.url) as server:
        asyncio.run(
            first_hello_and_accounts(
                server, own_postgres.stop, own_postgres.start, "postgresql stopped"
            )
        )


def test_first_hello_and_accounts_while_postgres_is_frozen(
    own_postgres: PostgresCluster,
) -> None:
    with serving(own_postgres.url) as server:
        asyncio.run(
            first_hello_and_accounts(
                server, own_postgres.freeze, own_postgres.thaw, "postgresql frozen"
            )
        )


def test_health_of_a_quiet_sqlite_server_whose_disk_fills(tmp_path: Path) -> None:
    """Nothing is played when the disk fills: health still finds out (503), and a sign-in
    (which writes a session) answers 503 ``unavailable``; both answer again after."""
    with serving(f"sqlite:///{tmp_path / 'tables.sqlite3'}") as server:
        assert server.process is not None
        pid = server.process.pid
        limits = resource.prlimit(pid, resource.RLIMIT_FSIZE)

        async def quiet() -> None:
            async with httpx.AsyncClient(base_url=server.url, timeout=30, headers=PAGE) as http:
                assert (await http.post("/api/account/register", json=CREDENTIALS)).is_success
                await create_table(http, "horus", [{"type": "link"}, {"type": "link"}])
                assert (await http.get("/api/health")).status_code == 200
                resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, limits[1]))
                try:
                    found = await until_health(server.url, 503, timeout=ACT_BOUND)
                    signin = http.post("/api/account/signin", json=CREDENTIALS)
                    assert_unavailable(await answered_within(signin, "sign-in"))
                finally:
                    resource.prlimit(pid, resource.RLIMIT_FSIZE, limits)
                back = await until_health(server.url, 200, timeout=RESUME_BOUND)
                assert (await http.post("/api/account/signin", json=CREDENTIALS)).is_success
            print(
                f"\nsqlite disk full, quiet: health 503 after {found:.2f} s, 200 {back:.2f} s after"
            )

        asyncio.run(quiet())
