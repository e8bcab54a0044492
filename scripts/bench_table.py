"""Load benchmark of the table server over real WebSocket connections on loopback.

Starts ``necropolis serve`` on 127.0.0.1 (on SQLite, and on a throwaway PostgreSQL as the
tests start it), creates many tables of every game, each with two person seats played by
WebSocket clients in this process and one bot seat the server's workers play, and lets
them play: a person acts a random moment after its turn comes (``--think``). It prints
actions committed per second and the latency from a person's ``act`` to every seat of the
table receiving the state that holds it (p50, p95, p99), for each connection count.
Everything is bounded: each level runs ``--seconds`` and the whole run stops by itself.

    .venv/bin/python scripts/bench_table.py                       # 10, 100, 1000; both databases
    .venv/bin/python scripts/bench_table.py --connections 100 --db sqlite --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
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
def serve(db_url: str | None, data_dir: Path, bot_workers: int) -> Iterator[str]:
    """A ``necropolis serve`` process on loopback; yields its base URL, then stops it."""
    port = free_port()
    command = [
        str(ROOT / ".venv" / "bin" / "necropolis"),
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
        command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
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
        yield base
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
    base: str,
    connections: int,
    seconds: float,
    think: float,
    games: list[str],
    connect_timeout: float = 300,
) -> dict[str, Any]:
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
        await asyncio.sleep(seconds)
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
    }


def report(db: str, result: dict[str, Any]) -> None:
    print(
        f"{db:10} {result['connections']:5d} conns {result['tables']:4d} tables  "
        f"{result['actions_per_second']:7.1f} actions/s "
        f"({result['person_actions_per_second']:6.1f} by people)  "
        f"latency p50 {result['p50_ms']:6.1f} ms  p95 {result['p95_ms']:6.1f} ms  "
        f"p99 {result['p99_ms']:6.1f} ms  ({result['samples']} samples; "
        f"client loop lag p99 {result['client_lag_p99_ms']:.1f} ms; "
        f"connecting took {result['open_seconds']:.1f} s)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", default="10,100,1000", help="comma-separated levels")
    parser.add_argument("--db", default="sqlite,postgres", help="sqlite, postgres or both")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per level")
    parser.add_argument("--think", type=float, default=1.0, help="a person's mean delay (s)")
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    arguments = parser.parse_args()
    levels = [int(n) for n in arguments.connections.split(",") if n]
    # Large heaps of long-lived client objects make the collector's pauses show as latency.
    gc.freeze()
    for db in arguments.db.split(","):
        with contextlib.ExitStack() as stack:
            db_url: str | None = None
            if db == "postgres":
                db_url = stack.enter_context(realservers.throwaway_postgres(max_connections=300))
            elif db != "sqlite":
                parser.error(f"unknown database {db!r}: sqlite or postgres")
            for connections in levels:
                data_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-")))
                if db_url is not None:
                    name = f"bench_{connections}_{os.getpid()}"
                    level_url = realservers.create_database(db_url, name)
                else:
                    level_url = None
                with serve(level_url, data_dir, arguments.bot_workers) as base:
                    games = [g for g in arguments.games.split(",") if g] or [
                        g["id"] for g in httpx.get(base + "/api/games", timeout=30).json()
                    ]
                    result = asyncio.run(
                        level(base, connections, arguments.seconds, arguments.think, games)
                    )
                report(db, result)


if __name__ == "__main__":
    main()
