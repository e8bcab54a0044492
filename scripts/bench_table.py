"""Load benchmark of the table server over real WebSocket connections on loopback.

Starts ``necropolis serve`` on 127.0.0.1 (on SQLite, and on a throwaway PostgreSQL as the
tests start it), creates many tables of every game, each with two person seats played by
WebSocket clients in this process and one bot seat the server's workers play, and lets
them play: a person acts a random moment after its turn comes (``--think``). It prints
actions committed per second and the latency from a person's ``act`` to every seat of the
table receiving the state that holds it (p50, p95, p99), for each connection count.
Everything is bounded: each level runs ``--seconds`` and the whole run stops by itself.

It also prints the CPU time the server process and this client spent per committed action
(the machine is often shared, and CPU per action moves less with its load than latency
does), and with ``--reference REV`` it runs the server of git revision ``REV`` (its
``src/`` taken with ``git archive``, run by the same interpreter) at each level just before
the current one, so that both are measured under the same load, and prints their ratio.

    .venv/bin/python scripts/bench_table.py                       # 10, 100, 1000; both databases
    .venv/bin/python scripts/bench_table.py --connections 100 --db sqlite --seconds 10
    .venv/bin/python scripts/bench_table.py --reference 18a86c7   # before/after in one run
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import realservers  # noqa: E402
from tests.tableclient import Message, SeatClient, create_table  # noqa: E402

HOST = "127.0.0.1"  # loopback only: the benchmark never sends traffic anywhere else


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def reference_source(revision: str) -> Iterator[Path]:
    """The ``src/`` directory of git revision ``revision``, in a temporary directory."""
    with tempfile.TemporaryDirectory(prefix="bench-ref-") as where:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "src"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", where], input=archive, check=True)
        yield Path(where) / "src"


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


def descendants_cpu_seconds(pid: int) -> float:
    """CPU time used by the processes descended from ``pid`` that are running now (the
    bot pool's fork server and workers)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with (
                contextlib.suppress(OSError, IndexError, ValueError),
                open(f"/proc/{entry}/stat", encoding="ascii") as stat,
            ):
                parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
    total = 0.0
    for child, parent in parents.items():
        while parent not in (0, 1, pid) and parent in parents:
            parent = parents[parent]
        if parent == pid:
            with contextlib.suppress(OSError):
                total += cpu_seconds(child)
    return total


@dataclass
class Server:
    base: str
    pid: int


@contextlib.contextmanager
def serve(
    db_url: str | None, data_dir: Path, bot_workers: int, source: Path | None = None
) -> Iterator[Server]:
    """A ``necropolis serve`` process on loopback (of the package in ``source``, if given,
    else the installed one); yields its base URL and pid, then stops it."""
    port = free_port()
    environment = dict(os.environ)
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
    clients: list[SeatClient] = field(default_factory=list)
    #: version at which a person acted -> when its first act was sent
    pending: dict[int, float] = field(default_factory=dict)
    #: how many of the table's connections have seen each pending version committed
    seen: dict[int, int] = field(default_factory=dict)
    acted_at: set[int] = field(default_factory=set)
    finished: bool = False


@dataclass
class Run:
    think: float
    #: People act only once every connection is open, so opening is not slowed by play.
    playing: bool = False
    measuring: bool = False
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    latencies: list[float] = field(default_factory=list)
    person_actions: int = 0
    versions_at_start: dict[str, int] = field(default_factory=dict)
    versions_now: dict[str, int] = field(default_factory=dict)
    refused: int = 0


def on_state(
    run: Run, table: Table, client: SeatClient, state: Message, before: int | None
) -> None:
    now = time.monotonic()
    version = int(state["version"])
    run.versions_now[table.table_id] = max(run.versions_now.get(table.table_id, 0), version)
    if before is not None:
        for acted in [v for v in table.pending if before <= v < version]:
            if run.measuring:
                run.latencies.append(now - table.pending[acted])
            table.seen[acted] = table.seen.get(acted, 0) + 1
            if table.seen[acted] >= len(table.clients):
                del table.pending[acted]
                del table.seen[acted]
    if state.get("status") == "finished":
        table.finished = True
        return
    # An act lost to a stale version (another seat was first) is timed until its table
    # moves past it; a version nobody will see again is forgotten after a while.
    for stale in [v for v, sent in table.pending.items() if now - sent > 30]:
        table.pending.pop(stale, None)
        table.seen.pop(stale, None)
    if run.playing:
        maybe_act(run, table, client, state)


def maybe_act(run: Run, table: Table, client: SeatClient, state: Message) -> None:
    """If the seat may act, act a random moment later, as a person would."""
    actions = state.get("actions") or []
    version = int(state["version"])
    if not actions or version in table.acted_at or state.get("status") != "playing":
        return
    action = int(random.choice(actions)["action"])
    delay = random.uniform(0.5, 1.5) * run.think

    def later() -> None:
        task = asyncio.ensure_future(act(run, table, client, action, version))
        run.tasks.add(task)
        task.add_done_callback(run.tasks.discard)

    asyncio.get_running_loop().call_later(delay, later)


async def act(run: Run, table: Table, client: SeatClient, action: int, version: int) -> None:
    if client.version != version or table.finished:
        return
    table.acted_at.add(version)
    table.pending.setdefault(version, time.monotonic())
    if run.measuring:
        run.person_actions += 1
    with contextlib.suppress(Exception):
        await client.act(action, version)


async def open_table(http: httpx.AsyncClient, base: str, game: str, run: Run, people: int) -> Table:
    seats: list[dict[str, Any]] = [{"type": "link"} for _ in range(people)]
    seats.append({"type": "bot", "level": "easy"})
    created = await create_table(http, game, seats)
    table = Table(created["table_id"])
    for seat in created["seats"]:
        if seat.get("token") is None:
            continue
        holder: dict[str, int | None] = {"before": None}

        def hook(
            client: SeatClient, state: Message, holder: dict[str, int | None] = holder
        ) -> None:
            on_state(run, table, client, state, holder["before"])
            holder["before"] = int(state["version"])

        client = SeatClient(base, table.table_id, seat["token"], on_state=hook)
        table.clients.append(client)
    return table


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def loop_lag(samples: list[float], stop: asyncio.Event) -> None:
    """How late this process's own event loop wakes: a busy client inflates latencies."""
    while not stop.is_set():
        start = time.monotonic()
        await asyncio.sleep(0.05)
        samples.append(time.monotonic() - start - 0.05)


async def level(
    server: Server,
    connections: int,
    seconds: float,
    think: float,
    games: list[str],
    connect_timeout: float = 300,
) -> dict[str, Any]:
    base = server.base
    people = 2
    run = Run(think=think)
    tables: list[Table] = []
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        count = max(1, connections // people)
        semaphore = asyncio.Semaphore(20)

        async def one(i: int) -> Table:
            async with semaphore:
                return await open_table(http, base, games[i % len(games)], run, people)

        tables = list(await asyncio.gather(*(one(i) for i in range(count))))
        clients = [client for table in tables for client in table.clients]
        opening = time.monotonic()

        async def connect(client: SeatClient) -> None:
            async with semaphore:
                await client.connect(timeout=120)

        try:
            await asyncio.wait_for(
                asyncio.gather(*(connect(client) for client in clients)), connect_timeout
            )
        except TimeoutError:
            raise SystemExit(
                f"opening {len(clients)} connections took more than {connect_timeout} s"
            ) from None
        opened = time.monotonic() - opening
        run.playing = True
        for table in tables:
            for client in table.clients:
                if client.state is not None:
                    maybe_act(run, table, client, client.state)
        # Warm up: let every table make its first moves before measuring.
        await asyncio.sleep(min(3.0, seconds / 4))
        lag: list[float] = []
        stop = asyncio.Event()
        lag_task = asyncio.create_task(loop_lag(lag, stop))
        run.versions_at_start = dict(run.versions_now)
        run.measuring = True
        started = time.monotonic()
        server_cpu = cpu_seconds(server.pid)
        server_waiting = run_queue_seconds(server.pid)
        bots_cpu = descendants_cpu_seconds(server.pid)
        client_cpu = time.process_time()
        await asyncio.sleep(seconds)
        server_cpu = cpu_seconds(server.pid) - server_cpu
        server_waiting = run_queue_seconds(server.pid) - server_waiting
        bots_cpu = descendants_cpu_seconds(server.pid) - bots_cpu
        client_cpu = time.process_time() - client_cpu
        run.measuring = False
        run.playing = False
        elapsed = time.monotonic() - started
        stop.set()
        await lag_task
        committed = sum(
            run.versions_now.get(t, 0) - run.versions_at_start.get(t, 0) for t in run.versions_now
        )
        await asyncio.gather(*(client.close() for client in clients))
    return {
        "connections": len(clients),
        "tables": len(tables),
        "open_seconds": opened,
        "seconds": elapsed,
        "actions_per_second": committed / elapsed,
        "person_actions_per_second": run.person_actions / elapsed,
        "samples": len(run.latencies),
        "p50_ms": 1000 * percentile(run.latencies, 0.50) if run.latencies else float("nan"),
        "p95_ms": 1000 * percentile(run.latencies, 0.95) if run.latencies else float("nan"),
        "p99_ms": 1000 * percentile(run.latencies, 0.99) if run.latencies else float("nan"),
        "mean_ms": 1000 * statistics.fmean(run.latencies) if run.latencies else float("nan"),
        "client_lag_p99_ms": 1000 * percentile(lag, 0.99) if lag else float("nan"),
        "finished_tables": sum(t.finished for t in tables),
        "server_cpu_ms_per_action": 1000 * server_cpu / max(1, committed),
        "client_cpu_ms_per_action": 1000 * client_cpu / max(1, committed),
        "bots_cpu_ms_per_action": 1000 * bots_cpu / max(1, committed),
        "server_cpu_share": server_cpu / elapsed,
        "server_waiting_share": server_waiting / elapsed,
    }


def report(db: str, result: dict[str, Any], label: str) -> None:
    print(
        f"{label:9} {db:10} {result['connections']:5d} conns {result['tables']:4d} tables  "
        f"{result['actions_per_second']:7.1f} actions/s "
        f"({result['person_actions_per_second']:6.1f} by people)  "
        f"latency p50 {result['p50_ms']:6.1f} ms  p95 {result['p95_ms']:6.1f} ms  "
        f"p99 {result['p99_ms']:6.1f} ms  "
        f"CPU/action server {result['server_cpu_ms_per_action']:.2f} ms "
        f"({100 * result['server_cpu_share']:.0f}% of a core; its threads waited for a CPU "
        f"{result['server_waiting_share']:.2f} s a second) "
        f"bot workers {result['bots_cpu_ms_per_action']:.2f} ms "
        f"client {result['client_cpu_ms_per_action']:.2f} ms  ({result['samples']} samples; "
        f"client loop lag p99 {result['client_lag_p99_ms']:.1f} ms; "
        f"connecting took {result['open_seconds']:.1f} s)",
        flush=True,
    )


#: What the comparison line divides, current by reference.
RATIOS = [
    ("actions/s", "actions_per_second"),
    ("p50", "p50_ms"),
    ("p99", "p99_ms"),
    ("server CPU/action", "server_cpu_ms_per_action"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", default="10,100,1000", help="comma-separated levels")
    parser.add_argument("--db", default="sqlite,postgres", help="sqlite, postgres or both")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per level")
    parser.add_argument("--think", type=float, default=1.0, help="a person's mean delay (s)")
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    parser.add_argument(
        "--reference",
        default=None,
        metavar="REV",
        help="also run git revision REV's server at each level, just before this one's",
    )
    arguments = parser.parse_args()
    print(f"bench_table: {shlex.join(sys.argv[1:]) or '(defaults)'}")
    head = subprocess.run(
        ["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True, text=True
    ).stdout.strip()
    with open("/proc/loadavg", encoding="ascii") as loadavg:
        load = " ".join(loadavg.read().split()[:3])
    print(f"current: {head or '?'}; {os.cpu_count()} CPUs; load average {load} at the start")
    levels = [int(n) for n in arguments.connections.split(",") if n]
    # Large heaps of long-lived client objects make the collector's pauses show as latency.
    gc.freeze()
    for db in arguments.db.split(","):
        with contextlib.ExitStack() as stack:
            variants: list[tuple[str, Path | None]] = [("current", None)]
            if arguments.reference:
                reference = stack.enter_context(reference_source(arguments.reference))
                variants.insert(0, (f"ref {arguments.reference}"[:9], reference))
            db_url: str | None = None
            if db == "postgres":
                db_url = stack.enter_context(realservers.throwaway_postgres(max_connections=300))
            elif db != "sqlite":
                parser.error(f"unknown database {db!r}: sqlite or postgres")
            for connections in levels:
                results: list[dict[str, Any]] = []
                for label, source in variants:
                    data_dir = Path(
                        stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-"))
                    )
                    if db_url is not None:
                        name = f"bench_{connections}_{len(results)}_{os.getpid()}"
                        level_url = realservers.create_database(db_url, name)
                    else:
                        level_url = None
                    with serve(level_url, data_dir, arguments.bot_workers, source) as server:
                        games = [g for g in arguments.games.split(",") if g] or [
                            g["id"]
                            for g in httpx.get(server.base + "/api/games", timeout=30).json()
                        ]
                        result = asyncio.run(
                            level(server, connections, arguments.seconds, arguments.think, games)
                        )
                    report(db, result, label)
                    results.append(result)
                if len(results) == 2:
                    ratios = "; ".join(
                        f"{name} {results[1][key] / results[0][key]:.2f}" for name, key in RATIOS
                    )
                    print(
                        f"{'ratio':9} {db:10} {connections:5d} conns  current/reference: {ratios}"
                    )


if __name__ == "__main__":
    main()
