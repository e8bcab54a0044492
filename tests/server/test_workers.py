"""``necropolis serve --workers N``: several server processes on one port share the tables.

Without Redis the processes tell each other what moved over Unix sockets in a shared
folder (:class:`PeerBus`); a process that dies is replaced by uvicorn's supervisor and
the table goes on from the database, nothing lost.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path

from websockets.exceptions import ConnectionClosed

from necropolis.server.broker import Broker, Listener, PeerBus, RedisBus
from tests.clients import Server, SyncSeat, running_server


def test_the_news_of_a_table_travels_between_peer_processes(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
        heard: dict[str, list[tuple[str, int]]] = {"a": [], "b": []}

        def listener(name: str) -> Listener:
            async def hear(table_id: str, version: int) -> None:
                heard[name].append((table_id, version))

            return hear

        buses = {"a": PeerBus(tmp_path, "a"), "b": PeerBus(tmp_path, "b")}
        brokers = {name: Broker(bus) for name, bus in buses.items()}
        for name, broker in brokers.items():
            await broker.start(listener(name))
            await buses[name].start()
        brokers["b"].publish("T1", 5)
        brokers["a"].publish("T2", 7)
        for _ in range(100):
            if heard["a"] and heard["b"]:
                break
            await asyncio.sleep(0.01)
        for bus in buses.values():
            await bus.close()
        return heard["a"], heard["b"]

    heard_by_a, heard_by_b = asyncio.run(scenario())
    assert heard_by_a == [("T1", 5)]
    assert heard_by_b == [("T2", 7)]
    assert list(tmp_path.iterdir()) == []  # each closed bus took its socket away


def test_news_waiting_for_redis_is_replaced_by_newer_news_of_the_same_table() -> None:
    async def scenario() -> list[dict[str, object]]:
        # Nothing is sent before start(): the outbox shows what waits for a slow Redis.
        bus = RedisBus("redis://127.0.0.1:1/0")
        broker = Broker(bus)
        broker.publish("T1", 5)
        bus.publish("chat", {"table": "T1"})
        broker.publish("T1", 6)
        broker.publish("T2", 1)
        waiting = [json.loads(m) for m in bus._outbox.values()]
        await bus.close()
        return waiting

    waiting = asyncio.run(scenario())
    assert [(m["k"], m["d"]) for m in waiting] == [
        ("chat", {"table": "T1"}),
        ("news", {"table": "T1", "version": 6}),
        ("news", {"table": "T2", "version": 1}),
    ]


def server_processes(server: Server) -> list[int]:
    """The server processes the supervisor started (spawned Pythons, its direct children)."""
    assert server.process is not None
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if ppid == server.process.pid and b"spawn_main" in command:
            found.append(int(entry.name))
    return sorted(found)


def serving_process(watcher: SyncSeat, pids: list[int]) -> int | None:
    """Which of ``pids`` holds the server's end of ``watcher``'s connection: the TCP
    socket whose remote port is the watcher's local one, found in /proc by its inode."""
    port = int(watcher.socket.local_address[1])
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[2].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd) in inodes:
                    return pid
            except OSError:
                continue
    return None


def playing(state: dict[str, object]) -> bool:
    return state["status"] == "playing"


def test_two_processes_serve_one_table_and_survive_the_death_of_one(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", workers=2) as server:
        first = server_processes(server)
        assert len(first) == 2
        created = server.create_table("luxor2001", ["bot:easy", "bot:easy"])
        table_id, token = created["table_id"], created["spectator_token"]
        # Spectators until both processes hold the table: the kernel hands each new
        # connection to whichever process accepts first, which may be the same one many
        # times in a row (eight at once all went to one, one run in several).
        watchers: list[SyncSeat] = []
        serving: set[int | None] = set()
        while set(first) - serving:
            assert len(watchers) < 100, f"every spectator went to one process: {serving}"
            watchers.append(SyncSeat.connect(server, table_id, token))
            serving.add(serving_process(watchers[-1], first))
        watchers[0].until(lambda st: int(st["version"]) >= 30 or not playing(st))
        os.kill(first[0], signal.SIGKILL)
        deadline = time.monotonic() + 60
        while len(now := server_processes(server)) != 2 or first[0] in now:
            assert time.monotonic() < deadline, f"no process replaced {first[0]}: {now}"
            time.sleep(0.1)
        ended: list[dict[str, object]] = []
        for watcher in watchers:
            try:
                ended.append(watcher.until(lambda st: not playing(st), timeout=240))
            except ConnectionClosed:
                pass  # it was connected to the process that died
            finally:
                watcher.close()
        fresh = SyncSeat.connect(server, table_id, token)
        end = fresh.until(lambda st: not playing(st), timeout=240)
        fresh.close()
        assert ended, "no spectator was on the process that lived"
        # Every spectator that stayed saw the same end as a page opened now: one table,
        # one record, whichever process played each bot move.
        assert {int(str(s["version"])) for s in ended} == {int(str(end["version"]))}
        assert all(s["view"] == end["view"] for s in ended)
        record = server.get(f"/api/tables/{table_id}/record", token=token)
        assert record.status_code == 200
        assert len(record.json()["actions"]) == int(str(end["version"]))
