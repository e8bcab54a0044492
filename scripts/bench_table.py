"""Load benchmark of the table server over real WebSocket connections on loopback.

Starts ``necropolis serve`` on 127.0.0.1 (on SQLite, and on a throwaway PostgreSQL as the
tests start it), creates many tables of every game, each with two person seats played by
WebSocket clients of the benchmark and one bot seat the server's workers play, and lets
them play: a person acts a random moment after its turn comes (``--think``); a table that
ends is replaced by a new one. The people's clients keep a turn in hand as the web page
does (``hello`` with ``undo``: a decision that reveals nothing waits in the server, told to
its seat alone, and is committed with the turn's next decision that reveals something;
``--no-undo`` commits every decision at once). It prints actions committed per second and
the latency from a person's ``act`` to every seat of the table receiving the state that
holds it, or for a decision held in hand to its own seat receiving the state with it
(p50, p95, p99), for each connection count. Everything is bounded: each level runs
``--seconds`` and the whole run stops by itself.

The clients are spread over ``--client-processes`` processes (4), each owning a share of
the tables, so that one client's event loop does not queue the messages of a thousand
connections; the percentiles are taken over every process's samples together, and the
worst process's loop lag is printed beside them: where it is as large as the p99, the p99
measures the client, not the server.

``--find-rate`` searches, at each level, for the highest rate of committed actions at which
p99 stays under 50 ms (``--goal-ms``): on the same connections it shortens the people's
thinking step by step (each step ``--seconds``, after a short settling) until p99 no longer
holds, then halves the bracket twice, and prints a table of the best step for each
database and count of server processes (``--workers 1,2``).

It also prints the CPU time the server process and the clients spent per committed action
(the machine is often shared, and CPU per action moves less with its load than latency
does), and with ``--reference REV`` it runs the server of git revision ``REV`` (its
``src/`` taken with ``git archive``, run by the same interpreter) at each level just before
the current one, so that both are measured under the same load, and prints their ratio.

    .venv/bin/python scripts/bench_table.py                       # 10, 100, 1000; both databases
    .venv/bin/python scripts/bench_table.py --connections 100 --db sqlite --seconds 10
    .venv/bin/python scripts/bench_table.py --reference 18a86c7   # before/after in one run
    .venv/bin/python scripts/bench_table.py --connections 1000 --think 5 --workers 1,2
    .venv/bin/python scripts/bench_table.py --connections 1000 --spectators 9000 --think 5
    .venv/bin/python scripts/bench_table.py --connections 200 --find-rate --workers 1,2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import resource
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from revisions import reference_source  # noqa: E402
from tests import realservers  # noqa: E402
from tests.clients import Message, SeatClient, create_table, ws_url  # noqa: E402
from tests.clients.server import descendants, parents  # noqa: E402

HOST = "127.0.0.1"  # loopback only: the benchmark never sends traffic anywhere else


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User and system CPU time process ``pid`` has used (its own, not its children's)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_queue_seconds(pid: int) -> float:
    """Time the threads of process ``pid`` have spent ready to run, waiting for a CPU
    (a loaded machine shows here, not in the process's own CPU time)."""
    total = 0
    with contextlib.suppress(OSError):
        for thread in os.listdir(f"/proc/{pid}/task"):
            with (
                contextlib.suppress(OSError, IndexError, ValueError),
                open(f"/proc/{pid}/task/{thread}/schedstat", encoding="ascii") as stat,
            ):
                total += int(stat.read().split()[1])
    return total / 1e9


def server_processes(pid: int) -> list[int]:
    """The processes that serve: ``pid`` itself and, under ``--workers N``, the server
    processes its supervisor spawned (not the bot pools, which are forked)."""
    found = [pid]
    for child, parent in parents().items():
        if parent == pid:
            with contextlib.suppress(OSError), open(f"/proc/{child}/cmdline", "rb") as cmdline:
                if b"spawn_main" in cmdline.read():
                    found.append(child)
    return found


def resident_bytes(pids: list[int]) -> int:
    """The resident memory of ``pids`` together."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def descendants_cpu_seconds(pid: int) -> float:
    """CPU time used by the processes descended from ``pid`` that are running now (the
    bot pool's fork server and workers)."""
    total = 0.0
    for child in descendants(pid):
        with contextlib.suppress(OSError):
            total += cpu_seconds(child)
    return total


@dataclass
class Server:
    base: str
    pid: int

    def processes(self) -> list[int]:
        return server_processes(self.pid)

    def cpu_seconds(self) -> float:
        return sum(cpu_seconds(p) for p in self.processes())

    def waiting_seconds(self) -> float:
        return sum(run_queue_seconds(p) for p in self.processes())

    def bots_cpu_seconds(self) -> float:
        """CPU of everything the server started but its own server processes."""
        return descendants_cpu_seconds(self.pid) - sum(cpu_seconds(p) for p in self.processes()[1:])


@contextlib.contextmanager
def serve(
    db_url: str | None,
    data_dir: Path,
    bot_workers: int,
    source: Path | None = None,
    workers: int = 1,
) -> Iterator[Server]:
    """A ``necropolis serve`` process on loopback (of the package in ``source``, if given,
    else the installed one); yields its base URL and pid, then stops it."""
    port = free_port()
    environment = dict(os.environ)
    # Every benchmark client is on loopback, one address: the server's limits of
    # connections per address and per table (which a server of before them ignores) are
    # lifted for it.
    environment["NECROPOLIS_MAX_ADDRESS_CONNECTIONS"] = "0"
    environment["NECROPOLIS_MAX_TABLE_CONNECTIONS"] = "0"
    if source is None:
        program = [str(ROOT / ".venv" / "bin" / "necropolis")]
    else:
        # The reference's package comes first on the path, before the installed one.
        environment["PYTHONPATH"] = str(source)
        environment["NECROPOLIS_STATIC_DIR"] = str(ROOT / "src/necropolis/server/static")
        program = [sys.executable, "-c", "from necropolis.cli.main import app; app()"]
    command = [
        *program,
        "serve",
        "--host",
        HOST,
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        "--bot-workers",
        str(bot_workers),
    ]
    if db_url is not None:
        command += ["--db", db_url]
    if workers != 1:  # (a reference from before --workers knows no such option)
        command += ["--workers", str(workers)]
    log = open(data_dir / "serve.log", "wb")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=environment
    )
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(
                    f"necropolis serve exited with {process.returncode}:\n"
                    + (data_dir / "serve.log").read_text()[-3000:]
                )
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("necropolis serve did not answer within 60 s")
            time.sleep(0.1)
        yield Server(base, process.pid)
    except Exception:
        # What the server said is the first thing to read when a level fails (not when
        # the run is stopped from outside).
        log.flush()
        tail = (data_dir / "serve.log").read_text(errors="replace")[-4000:]
        print(f"--- the end of the server's log:\n{tail}\n---", file=sys.stderr, flush=True)
        raise
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


@dataclass
class Table:
    """One table's clients and the person actions whose arrival is still being timed."""

    table_id: str
    spectator: str
    game: str
    clients: list[SeatClient] = field(default_factory=list)
    #: (version, decisions in hand) at which a person acted -> when its first act was
    #: sent, and which connection sent it
    pending: dict[tuple[int, int], tuple[float, int]] = field(default_factory=dict)
    #: how many of the table's connections have seen each pending act committed
    seen: dict[tuple[int, int], int] = field(default_factory=dict)
    acted_at: set[tuple[int, int]] = field(default_factory=set)
    finished: bool = False


@dataclass
class Run:
    """One client process's share of the tables and what it measured."""

    think: float
    base: str
    #: The people's clients keep a turn in hand, as the web page does.
    undo: bool = True
    #: People act only once every connection is open, so opening is not slowed by play.
    playing: bool = False
    measuring: bool = False
    tables: list[Table] = field(default_factory=list)
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    #: a seat's act waiting for its person's thinking to end, by connection
    timers: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    person_actions: int = 0
    versions_at_start: dict[str, int] = field(default_factory=dict)
    versions_now: dict[str, int] = field(default_factory=dict)
    finished_tables: int = 0
    http: httpx.AsyncClient | None = None

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


def on_state(
    run: Run, table: Table, client: SeatClient, state: Message, before: int | None
) -> None:
    now = time.monotonic()
    version = int(state["version"])
    held = int(state.get("pending") or 0)
    run.versions_now[table.table_id] = max(run.versions_now.get(table.table_id, 0), version)
    if before is not None:
        # An act committed: timed until every seat of the table has a state holding it.
        for acted in [k for k in table.pending if before <= k[0] < version]:
            if run.measuring:
                run.latencies.append(now - table.pending[acted][0])
            table.seen[acted] = table.seen.get(acted, 0) + 1
            if table.seen[acted] >= len(table.clients):
                del table.pending[acted]
                table.seen.pop(acted, None)
    # An act held in the seat's turn in hand: only its own seat is told, at the same
    # version with one more decision in hand.
    for acted in [
        k
        for k, (_, who) in table.pending.items()
        if who == id(client) and k[0] == version and held > k[1]
    ]:
        if run.measuring:
            run.latencies.append(now - table.pending[acted][0])
        del table.pending[acted]
        table.seen.pop(acted, None)
    if state.get("status") == "finished":
        if not table.finished:
            table.finished = True
            run.finished_tables += 1
            # A finished table is replaced by a new one of the same game, so that the
            # offered load stays the same however long the run.
            if run.playing:
                run.spawn(replace(run, table))
        return
    # An act lost to a stale version (another seat was first) is timed until its table
    # moves past it; a version nobody will see again is forgotten after a while.
    for stale in [k for k, (sent, _) in table.pending.items() if now - sent > 30]:
        table.pending.pop(stale, None)
        table.seen.pop(stale, None)
    if run.playing:
        maybe_act(run, table, client, state)


def maybe_act(run: Run, table: Table, client: SeatClient, state: Message) -> None:
    """If the seat may act, act a random moment later, as a person would."""
    actions = state.get("actions") or []
    at = (int(state["version"]), int(state.get("pending") or 0))
    if not actions or at in table.acted_at or state.get("status") != "playing":
        return
    action = int(random.choice(actions)["action"])
    delay = random.uniform(0.5, 1.5) * run.think

    def later() -> None:
        run.timers.pop(id(client), None)
        run.spawn(act(run, table, client, action, at))

    previous = run.timers.pop(id(client), None)
    if previous is not None:
        previous.cancel()
    run.timers[id(client)] = asyncio.get_running_loop().call_later(delay, later)


def set_think(run: Run, think: float) -> None:
    """People think ``think`` seconds from now on: the acts waiting on the old thinking are
    drawn again (a step of ``--find-rate`` must not wait for the slow step before it)."""
    run.think = think
    for timer in run.timers.values():
        timer.cancel()
    run.timers.clear()
    run.playing = True
    for table in run.tables:
        if not table.finished:
            for client in table.clients:
                if client.state is not None:
                    maybe_act(run, table, client, client.state)


async def act(run: Run, table: Table, client: SeatClient, action: int, at: tuple[int, int]) -> None:
    """Send a person's ``act`` at ``at`` (the version, and the decisions in hand), unless
    its seat has seen the table move on meanwhile."""
    version, pending = at
    state = client.state
    seen = (client.version, int(state.get("pending") or 0) if state is not None else 0)
    if seen != at or table.finished or not run.playing:
        return
    table.acted_at.add(at)
    table.pending.setdefault(at, (time.monotonic(), id(client)))
    if run.measuring:
        run.person_actions += 1
    with contextlib.suppress(Exception):
        await client.act(action, version, pending)


async def open_table(run: Run, game: str, people: int) -> Table:
    assert run.http is not None
    seats: list[dict[str, Any]] = [{"type": "link"} for _ in range(people)]
    seats.append({"type": "bot", "level": "easy"})
    created = await create_table(run.http, game, seats)
    table = Table(created["table_id"], spectator=created["spectator_token"], game=game)
    for seat in created["seats"]:
        if seat.get("token") is None:
            continue
        holder: dict[str, int | None] = {"before": None}

        def hook(
            client: SeatClient, state: Message, holder: dict[str, int | None] = holder
        ) -> None:
            on_state(run, table, client, state, holder["before"])
            holder["before"] = int(state["version"])
            # The client keeps only what the benchmark reads: the last state.
            del client.states[:-1]
            client.log.clear()

        client = SeatClient(run.base, table.table_id, seat["token"], on_state=hook, undo=run.undo)
        table.clients.append(client)
    return table


async def replace(run: Run, old: Table) -> None:
    with contextlib.suppress(Exception):
        await asyncio.gather(*(client.close() for client in old.clients))
    with contextlib.suppress(Exception):
        table = await open_table(run, old.game, len(old.clients))
        for client in table.clients:
            await client.connect(timeout=120)
        run.tables[run.tables.index(old)] = table
        if run.playing:
            for client in table.clients:
                if client.state is not None:
                    maybe_act(run, table, client, client.state)


class Watcher:
    """An idle spectator: says hello, waits for its first state, then only drains what the
    server sends without reading it. (A person's page parses each state on its own
    machine; here thousands of spectators would otherwise spend the benchmark's CPU, on
    the server's two cores, parsing JSON.)"""

    def __init__(self, base_url: str, table_id: str, token: str) -> None:
        self.url = ws_url(base_url, table_id)
        self.token = token
        self.received = 0
        self._socket: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None

    async def connect(self, timeout: float = 30) -> None:
        self._socket = await websockets.connect(
            self.url, open_timeout=timeout, max_size=2**24, ping_interval=None
        )
        await self._socket.send(json.dumps({"type": "hello", "token": self.token}))
        first = json.loads(await asyncio.wait_for(self._socket.recv(), timeout))
        if first.get("type") != "state":
            raise RuntimeError(f"a spectator was not let in: {first}")
        self._reader = asyncio.create_task(self._drain())

    async def _drain(self) -> None:
        assert self._socket is not None
        with contextlib.suppress(websockets.ConnectionClosed, OSError):
            async for _ in self._socket:
                self.received += 1

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()
        if self._reader is not None:
            await self._reader


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def loop_lag(samples: list[float]) -> None:
    """How late this process's own event loop wakes: a busy client inflates latencies."""
    while True:
        start = time.monotonic()
        await asyncio.sleep(0.05)
        samples.append(time.monotonic() - start - 0.05)


# ---------------------------------------------------------------------------------------
# The client processes. The parent (``main``) never plays: it starts ``--client-processes``
# processes, each owning a share of the tables, and tells them what to do through a pipe,
# one command at a time; the measured windows are given as CLOCK_MONOTONIC instants, which
# every process on the machine shares, so that the server's CPU is read over the same
# window as the clients' samples.


@dataclass
class Share:
    """What one client process plays: ``tables`` tables (the games taken in turn from
    ``first``), and ``spectators`` idle spectators spread over them."""

    base: str
    tables: int
    first: int
    spectators: int
    games: list[str]
    people: int = 2
    connect_timeout: float = 600
    undo: bool = True


def client_process(pipe: Connection, share: Share) -> None:
    """The body of one client process: answers each command of the parent in turn."""
    # The collector's full passes over a thousand connections' objects took 100-200 ms in
    # a client (gc.callbacks): they would show as the server's latency. It runs only
    # between the measured windows instead (while a step settles).
    gc.disable()
    try:
        asyncio.run(_client(pipe, share))
    except BaseException as error:
        with contextlib.suppress(Exception):
            pipe.send(("error", f"{type(error).__name__}: {error}"))
        raise


async def _client(pipe: Connection, share: Share) -> None:
    loop = asyncio.get_running_loop()

    async def receive() -> tuple[Any, ...]:
        command: tuple[Any, ...] = await loop.run_in_executor(None, pipe.recv)
        return command

    run = Run(think=1.0, base=share.base, undo=share.undo)
    lag: list[float] = []
    lag_task = asyncio.create_task(loop_lag(lag))
    semaphore = asyncio.Semaphore(20)
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=share.base, timeout=60, limits=limits) as http:
        run.http = http

        async def one(i: int) -> Table:
            async with semaphore:
                game = share.games[(share.first + i) % len(share.games)]
                return await open_table(run, game, share.people)

        async def connect(client: SeatClient) -> None:
            async with semaphore:
                await client.connect(timeout=120)

        run.tables = list(await asyncio.gather(*(one(i) for i in range(share.tables))))
        opening = time.monotonic()
        await asyncio.wait_for(
            asyncio.gather(*(connect(c) for t in run.tables for c in t.clients)),
            share.connect_timeout,
        )
        pipe.send(("opened", time.monotonic() - opening))
        await receive()  # ("spectate",)
        watchers = [
            Watcher(
                share.base,
                run.tables[i % len(run.tables)].table_id,
                run.tables[i % len(run.tables)].spectator,
            )
            for i in range(share.spectators)
        ]

        async def watch(watcher: Watcher) -> None:
            async with semaphore:
                await watcher.connect(timeout=120)

        await asyncio.wait_for(asyncio.gather(*(watch(w) for w in watchers)), share.connect_timeout)
        pipe.send(("spectating",))
        while True:
            command = await receive()
            if command[0] == "close":
                break
            _, think, start_at, end_at = command
            set_think(run, think)
            gc.collect()
            await asyncio.sleep(max(0.0, start_at - time.monotonic()))
            run.versions_at_start = dict(run.versions_now)
            run.latencies, run.person_actions, lag[:] = [], 0, []
            run.measuring = True
            cpu, waited = time.process_time(), run_queue_seconds(os.getpid())
            await asyncio.sleep(max(0.0, end_at - time.monotonic()))
            run.measuring = False
            waited = run_queue_seconds(os.getpid()) - waited
            pipe.send(
                (
                    "step",
                    {
                        "latencies": run.latencies,
                        "lag": list(lag),
                        "person_actions": run.person_actions,
                        "committed": sum(
                            v - run.versions_at_start.get(t, 0) for t, v in run.versions_now.items()
                        ),
                        "client_cpu": time.process_time() - cpu,
                        "client_waiting": waited,
                        "finished_tables": run.finished_tables,
                    },
                )
            )
        run.playing = False
        for timer in run.timers.values():
            timer.cancel()
        lag_task.cancel()
        clients = [c for t in run.tables for c in t.clients]
        await asyncio.gather(
            *(c.close() for c in clients), *(w.close() for w in watchers), return_exceptions=True
        )
    pipe.send(("closed",))


class Clients:
    """``processes`` client processes sharing ``connections`` person connections (two per
    table) and ``spectators`` idle spectators at ``server``; a context manager."""

    def __init__(
        self,
        server: Server,
        connections: int,
        spectators: int,
        games: list[str],
        processes: int,
        timeout: float = 600,
        undo: bool = True,
    ) -> None:
        self.server = server
        self.timeout = timeout
        tables = max(1, connections // 2)
        processes = max(1, min(processes, tables))
        context = multiprocessing.get_context("fork")
        self.pipes: list[Connection] = []
        self.processes: list[multiprocessing.process.BaseProcess] = []
        first = 0
        for k in range(processes):
            share = Share(
                base=server.base,
                tables=tables // processes + (k < tables % processes),
                first=first,
                spectators=spectators // processes + (k < spectators % processes),
                games=games,
                undo=undo,
            )
            first += share.tables
            mine, theirs = context.Pipe()
            process = context.Process(target=client_process, args=(theirs, share), daemon=True)
            process.start()
            theirs.close()
            self.pipes.append(mine)
            self.processes.append(process)
        self.tables = tables
        self.connections = tables * 2
        self.spectators = spectators

    def __enter__(self) -> Clients:
        return self

    def __exit__(self, *_: object) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(OSError):
                pipe.send(("close",))
        deadline = time.monotonic() + 60
        for process in self.processes:
            process.join(max(0.1, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()

    def _answers(self, kind: str, timeout: float) -> list[Any]:
        """Each process's answer ``kind``, within ``timeout`` seconds in all."""
        deadline = time.monotonic() + timeout
        answers = []
        for pipe in self.pipes:
            if not pipe.poll(max(0.0, deadline - time.monotonic())):
                raise RuntimeError(f"a client process did not answer {kind!r} within {timeout} s")
            answer = pipe.recv()
            if answer[0] != kind:
                raise RuntimeError(f"a client process failed: {answer[1:]}")
            answers.append(answer[1] if len(answer) > 1 else None)
        return answers

    def open(self) -> dict[str, Any]:
        """Every connection open, then the spectators: how long it took, the server's
        memory per spectator."""
        opened = max(self._answers("opened", self.timeout))
        rss_before = resident_bytes(self.server.processes())
        for pipe in self.pipes:
            pipe.send(("spectate",))
        self._answers("spectating", self.timeout)
        rss_after = resident_bytes(self.server.processes())
        return {
            "open_seconds": opened,
            "kib_per_spectator": (rss_after - rss_before) / 1024 / max(1, self.spectators),
        }

    def step(self, think: float, settle: float, seconds: float) -> dict[str, Any]:
        """People thinking ``think`` s: ``settle`` s of play, then ``seconds`` measured."""
        start_at = time.monotonic() + settle
        end_at = start_at + seconds
        for pipe in self.pipes:
            pipe.send(("step", think, start_at, end_at))
        time.sleep(max(0.0, start_at - time.monotonic()))
        server = self.server
        server_cpu, server_waiting = server.cpu_seconds(), server.waiting_seconds()
        bots_cpu = server.bots_cpu_seconds()
        time.sleep(max(0.0, end_at - time.monotonic()))
        server_cpu = server.cpu_seconds() - server_cpu
        server_waiting = server.waiting_seconds() - server_waiting
        bots_cpu = server.bots_cpu_seconds() - bots_cpu
        parts = self._answers("step", 60)
        return merged(parts, seconds, server_cpu, server_waiting, bots_cpu) | {
            "think": think,
            "connections": self.connections,
            "spectators": self.spectators,
            "tables": self.tables,
            "client_processes": len(self.pipes),
        }


def merged(
    parts: list[dict[str, Any]],
    seconds: float,
    server_cpu: float,
    server_waiting: float,
    bots_cpu: float,
) -> dict[str, Any]:
    """One step's figures from every client process's: the percentiles are taken over all
    the processes' samples together, never averaged."""
    latencies = [x for part in parts for x in part["latencies"]]
    committed = sum(part["committed"] for part in parts)
    client_cpu = sum(part["client_cpu"] for part in parts)
    lags = [percentile(part["lag"], 0.99) for part in parts if part["lag"]]

    def ms(q: float) -> float:
        return 1000 * percentile(latencies, q) if latencies else float("nan")

    return {
        "seconds": seconds,
        "actions_per_second": committed / seconds,
        "person_actions_per_second": sum(p["person_actions"] for p in parts) / seconds,
        "samples": len(latencies),
        "p50_ms": ms(0.50),
        "p95_ms": ms(0.95),
        "p99_ms": ms(0.99),
        "mean_ms": 1000 * statistics.fmean(latencies) if latencies else float("nan"),
        # the worst of the processes: one late loop is enough to inflate the samples
        "client_lag_p99_ms": 1000 * max(lags) if lags else float("nan"),
        "finished_tables": sum(p["finished_tables"] for p in parts),
        "server_cpu_ms_per_action": 1000 * server_cpu / max(1, committed),
        "client_cpu_ms_per_action": 1000 * client_cpu / max(1, committed),
        "bots_cpu_ms_per_action": 1000 * bots_cpu / max(1, committed),
        "server_cpu_share": server_cpu / seconds,
        "server_waiting_share": server_waiting / seconds,
        "client_cpu_share": client_cpu / seconds,
        # a client's loop lag with little CPU of its own and much waiting is the machine's
        "client_waiting_share": sum(p.get("client_waiting", 0.0) for p in parts) / seconds,
    }


@dataclass
class Search:
    """The steps of a ``--find-rate`` search and the best of them."""

    steps: list[dict[str, Any]]
    best: dict[str, Any] | None


def find_rate(
    measure: Callable[[float], dict[str, Any]],
    goal_ms: float = 50.0,
    start: float = 8.0,
    factor: float = 2.0,
    least: float = 0.05,
    bisections: int = 2,
) -> Search:
    """The highest rate of committed actions at which p99 stays under ``goal_ms``, found by
    shortening the people's thinking (raising the offered load) on the same connections:
    from ``start`` s, thinking is divided by ``factor`` while p99 holds, until it does not
    or ``least`` is passed, then the last bracket is halved ``bisections`` times (in the
    logarithm). A first step that does not hold is measured once more (one stall of a
    shared machine is enough to fail a short step) and the search ends there if it fails
    again: thinking longer than ``start`` would leave too few samples in a short step. At
    most some 10 + ``bisections`` steps."""
    steps: list[dict[str, Any]] = []

    def good(step: dict[str, Any]) -> bool:
        return bool(step["samples"]) and step["p99_ms"] < goal_ms

    def held(think: float) -> bool:
        step = measure(think)
        steps.append(step)
        return good(step)

    if not held(start) and not held(start):
        return Search(steps, None)
    slow, fast = start, None  # the thinking that held last, and the one that did not
    while slow / factor >= least:
        if not held(slow / factor):
            fast = slow / factor
            break
        slow /= factor
    if fast is not None:
        for _ in range(bisections):
            middle = (fast * slow) ** 0.5
            if held(middle):
                slow = middle
            else:
                fast = middle
    holding = [s for s in steps if good(s)]
    best = max(holding, key=lambda s: s["actions_per_second"]) if holding else None
    return Search(steps, best)


def report(db: str, result: dict[str, Any], label: str) -> None:
    print(
        f"{label:9} {db:10} {result['connections']:5d} conns {result['tables']:4d} tables  "
        f"workers {result['workers']}  think {result['think']:g} s  "
        f"{result['actions_per_second']:7.1f} actions/s "
        f"({result['person_actions_per_second']:6.1f} by people)  "
        f"latency p50 {result['p50_ms']:6.1f} ms  p95 {result['p95_ms']:6.1f} ms  "
        f"p99 {result['p99_ms']:6.1f} ms  "
        f"CPU/action server {result['server_cpu_ms_per_action']:.2f} ms "
        f"({100 * result['server_cpu_share']:.0f}% of a core; its threads waited for a CPU "
        f"{result['server_waiting_share']:.2f} s a second) "
        f"bot workers {result['bots_cpu_ms_per_action']:.2f} ms "
        f"client {result['client_cpu_ms_per_action']:.2f} ms "
        f"({100 * result['client_cpu_share']:.0f}% of a core in "
        f"{result['client_processes']} processes, which waited for a CPU "
        f"{result['client_waiting_share']:.2f} s a second)  ({result['samples']} samples; "
        f"client loop lag p99 {result['client_lag_p99_ms']:.1f} ms, the worst process; "
        f"connecting took {result['open_seconds']:.1f} s; "
        f"{result['finished_tables']} tables finished and replaced)"
        + (
            f"  {result['spectators']} idle spectators, "
            f"{result['kib_per_spectator']:.1f} KiB of server memory each"
            if result["spectators"]
            else ""
        ),
        flush=True,
    )


def milliseconds(value: float) -> str:
    return f"{value / 1000:.2f} s" if value >= 1000 else f"{value:.1f} ms"


def search_table(rows: list[tuple[str, int, int, Search]]) -> None:
    """The ``--find-rate`` summary: one line per database, connections and processes."""
    print(
        "\nhighest rate at p99 < 50 ms:\n"
        "| db | connections | server processes | actions/s | think | p50 | p99 "
        "| server CPU/action | client loop lag p99 | steps |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    for db, connections, workers, search in rows:
        tried = ", ".join(
            f"{s['think']:.2g} s: {s['actions_per_second']:.0f}/s p99 {milliseconds(s['p99_ms'])}"
            for s in search.steps
        )
        best = search.best
        if best is None:
            print(f"| {db} | {connections} | {workers} | none held | | | | | | {tried} |")
            continue
        print(
            f"| {db} | {connections} | {workers} | {best['actions_per_second']:.1f} "
            f"| {best['think']:.2g} s | {milliseconds(best['p50_ms'])} "
            f"| {milliseconds(best['p99_ms'])} | {best['server_cpu_ms_per_action']:.2f} ms "
            f"| {milliseconds(best['client_lag_p99_ms'])} | {tried} |",
            flush=True,
        )


#: What the comparison line divides, current by reference.
RATIOS = [
    ("actions/s", "actions_per_second"),
    ("p50", "p50_ms"),
    ("p99", "p99_ms"),
    ("server CPU/action", "server_cpu_ms_per_action"),
]


def play(
    server: Server,
    connections: int,
    workers: int,
    arguments: argparse.Namespace,
    db: str,
    label: str,
) -> dict[str, Any] | Search:
    """One level against ``server``: a measured run at ``--think``, or with ``--find-rate``
    the search for the highest rate that holds p99 (its steps printed as they come)."""
    games = [g for g in arguments.games.split(",") if g] or [
        g["id"] for g in httpx.get(server.base + "/api/games", timeout=30).json()
    ]
    with Clients(
        server,
        connections,
        arguments.spectators,
        games,
        arguments.client_processes,
        undo=not arguments.no_undo,
    ) as clients:
        extra = clients.open() | {"workers": workers}
        first = [True]

        def measure(think: float) -> dict[str, Any]:
            # Each step first lets the tables play a while at the new pace; the first one
            # until every seat whose turn it was at the start has acted (a person acts
            # within 1.5 times the thinking): that first wave, with the bots of every table
            # starting at once, is not the steady rate.
            settle = max(1.0, min(3.0, arguments.seconds / 4, 3 * think))
            if first[0]:
                settle, first[0] = max(settle, min(15.0, 1.5 * think)), False
            step: dict[str, Any] = clients.step(think, settle, arguments.seconds) | extra
            if arguments.find_rate:
                report(db, step, label)
            return step

        if arguments.find_rate:
            return find_rate(measure, goal_ms=arguments.goal_ms, start=arguments.think)
        return measure(arguments.think)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", default="10,100,1000", help="comma-separated levels")
    parser.add_argument(
        "--db", default="sqlite,postgres", help="comma-separated: sqlite, postgres (default: both)"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per level")
    parser.add_argument("--think", type=float, default=1.0, help="a person's mean delay (s)")
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument(
        "--workers",
        default="1",
        help="server processes (serve --workers; 0: a core each); comma-separated, each run",
    )
    parser.add_argument(
        "--client-processes",
        type=int,
        default=4,
        help="processes the benchmark's clients are spread over, each with a share of the tables",
    )
    parser.add_argument(
        "--spectators", type=int, default=0, help="idle spectator connections besides the players"
    )
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    parser.add_argument(
        "--reference",
        default=None,
        metavar="REV",
        help="also run git revision REV's server at each level, just before this one's",
    )
    parser.add_argument(
        "--find-rate",
        action="store_true",
        help="at each level, search for the highest rate of actions at which p99 < 50 ms,"
        " changing the people's thinking from --think on (steps of --seconds)",
    )
    parser.add_argument(
        "--goal-ms", type=float, default=50.0, help="the p99 that --find-rate must hold (ms)"
    )
    parser.add_argument(
        "--no-undo",
        action="store_true",
        help="the people's clients keep no turn in hand, so every decision is committed at"
        " once (the web page keeps one; the benchmark's clients did not before 2026-11-29;"
        " a --reference from before 3868db1 knows no turn in hand)",
    )
    arguments = parser.parse_args()
    # Stopped from outside (`timeout`, a CI's limit), the run still stops the server and
    # the throwaway PostgreSQL it started: the context managers' exits run on SystemExit.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    print(f"bench_table: {shlex.join(sys.argv[1:]) or '(defaults)'}")
    head = subprocess.run(
        ["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True, text=True
    ).stdout.strip()
    with open("/proc/loadavg", encoding="ascii") as loadavg:
        load = " ".join(loadavg.read().split()[:3])
    print(f"current: {head or '?'}; {os.cpu_count()} CPUs; load average {load} at the start")
    levels = [int(n) for n in arguments.connections.split(",") if n]
    worker_counts = [int(n) for n in arguments.workers.split(",") if n]
    # Thousands of connections need as many file descriptors, here and in the server.
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    gc.freeze()
    searches: list[tuple[str, int, int, Search]] = []
    for db in arguments.db.split(","):
        with contextlib.ExitStack() as stack:
            variants: list[tuple[str, Path | None]] = [("current", None)]
            if arguments.reference:
                reference = stack.enter_context(
                    reference_source(arguments.reference, prefix="bench-ref-")
                )
                variants.insert(0, (f"ref {arguments.reference}"[:9], reference))
            db_url: str | None = None
            if db == "postgres":
                db_url = stack.enter_context(realservers.throwaway_postgres(max_connections=300))
            elif db != "sqlite":
                parser.error(f"unknown database {db!r}: sqlite or postgres")
            for connections, workers in [(c, w) for c in levels for w in worker_counts]:
                results: list[dict[str, Any]] = []
                for label, source in variants:
                    data_dir = Path(
                        stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-"))
                    )
                    if db_url is not None:
                        name = f"bench_{connections}_{workers}_{len(results)}_{os.getpid()}"
                        level_url = realservers.create_database(db_url, name)
                    else:
                        level_url = None
                    with serve(
                        level_url, data_dir, arguments.bot_workers, source, workers
                    ) as server:
                        outcome = play(server, connections, workers, arguments, db, label)
                    if isinstance(outcome, Search):
                        searches.append((f"{db} {label}".strip(), connections, workers, outcome))
                        continue
                    result = outcome
                    report(db, result, label)
                    results.append(result)
                if len(results) == 2:
                    ratios = "; ".join(
                        f"{name} {results[1][key] / results[0][key]:.2f}" for name, key in RATIOS
                    )
                    print(
                        f"{'ratio':9} {db:10} {connections:5d} conns  current/reference: {ratios}"
                    )
    if searches:
        search_table(searches)
    with open("/proc/loadavg", encoding="ascii") as loadavg:
        print(f"load average {' '.join(loadavg.read().split()[:3])} at the end")


if __name__ == "__main__":
    main()
