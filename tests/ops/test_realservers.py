"""The real-server plugin works: its PostgreSQL answers queries, its Redis carries pub/sub.

These are the servers the table server's tests run on, so a broken start, a wrong URL or a
server left running after the run would show here first.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import psycopg
import pytest
import redis

from tests import realservers


def test_postgres_answers_a_query_and_keeps_what_it_committed(fresh_postgres_url: str) -> None:
    assert fresh_postgres_url.startswith("postgresql+psycopg://")
    conninfo = realservers.psycopg_conninfo(fresh_postgres_url)
    with psycopg.connect(conninfo) as connection:
        connection.execute(
            "CREATE TABLE actions (table_id text, idx int, PRIMARY KEY (table_id, idx))"
        )
        connection.execute("INSERT INTO actions VALUES ('t', 0), ('t', 1)")
        connection.commit()
        # A second writer at the same index fails at the database: what the server's
        # commit of an action relies on.
        with pytest.raises(psycopg.errors.UniqueViolation):
            connection.execute("INSERT INTO actions VALUES ('t', 1)")
        connection.rollback()
    with psycopg.connect(conninfo) as connection:
        rows = connection.execute("SELECT idx FROM actions ORDER BY idx").fetchall()
        assert rows == [(0,), (1,)]
        version = connection.execute("SHOW server_version").fetchone()
        assert version is not None and version[0]


def test_fresh_databases_are_separate(postgres_url: str) -> None:
    names = [f"necropolis_sep_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    urls = [realservers.create_database(postgres_url, name) for name in names]
    try:
        with psycopg.connect(realservers.psycopg_conninfo(urls[0])) as first:
            first.execute("CREATE TABLE only_here (x int)")
            first.commit()
        with psycopg.connect(realservers.psycopg_conninfo(urls[1])) as second:
            found = second.execute("SELECT to_regclass('only_here')").fetchone()
            assert found == (None,)
    finally:
        for name in names:
            realservers.drop_database(postgres_url, name)


def test_throwaway_postgres_listens_on_a_unix_socket_only(postgres_url: str) -> None:
    if os.environ.get(realservers.POSTGRES_ENV):
        pytest.fail("this run was given a server; the throwaway one is not in use")
    host = dict(parse_qsl(urlsplit(postgres_url).query))["host"]
    assert Path(host, ".s.PGSQL.5432").is_socket()
    with psycopg.connect(realservers.psycopg_conninfo(postgres_url)) as connection:
        settings = dict(
            connection.execute(
                "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'listen_addresses')"
            ).fetchall()
        )
    assert settings == {"fsync": "off", "listen_addresses": ""}


def test_redis_carries_a_published_message_to_a_subscriber(redis_url: str) -> None:
    subscriber = redis.Redis.from_url(redis_url)
    publisher = redis.Redis.from_url(redis_url)
    channel = f"necropolis-test-{uuid.uuid4().hex}"
    pubsub = subscriber.pubsub()

    def next_message(kind: str) -> dict[str, object]:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            message = pubsub.get_message(timeout=1)
            if message is not None and message["type"] == kind:
                return message
        raise AssertionError(f"no {kind} message within 5 seconds")

    try:
        pubsub.subscribe(channel)
        # The subscription is live once the server confirms it.
        next_message("subscribe")
        assert publisher.publish(channel, "T 17") == 1
        message = next_message("message")
        assert message["channel"] == channel.encode()
        assert message["data"] == b"T 17"
    finally:
        pubsub.close()
        subscriber.close()
        publisher.close()


def test_a_throwaway_redis_is_gone_after_its_block() -> None:
    with realservers.throwaway_redis() as url:
        path = urlsplit(url).path
        assert redis.Redis.from_url(url).ping()
    assert not Path(path).exists()
    probe = socket.socket(socket.AF_UNIX)
    with pytest.raises(OSError):
        probe.connect(path)
    probe.close()


def test_a_missing_postgresql_says_to_run_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(realservers, "POSTGRES_INITDB_GLOB", "/nonexistent/*/bin/initdb")
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(realservers.ServerUnavailableError, match="scripts/setup"):
        realservers.postgres_bin_dir()


def test_a_missing_redis_says_to_run_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(realservers, "REDIS_SERVER", "/nonexistent/redis-server")
    monkeypatch.setenv("PATH", "/nonexistent")
    with (
        pytest.raises(realservers.ServerUnavailableError, match="scripts/setup"),
        realservers.throwaway_redis(),
    ):
        pass


def test_servers_of_a_dead_test_process_are_stopped(tmp_path: Path) -> None:
    # A worker killed mid-run leaves its directory behind; the next start removes it.
    with realservers.throwaway_redis() as url:
        directory = Path(urlsplit(url).path).parent
        (directory / realservers._OWNER).write_text("999999999")
        realservers._reap_stale()
        assert not directory.exists()
        with pytest.raises(redis.ConnectionError):
            redis.Redis.from_url(url, socket_connect_timeout=1).ping()


def test_the_reaper_signals_only_the_servers_it_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stale directory whose pid files name a process that is not the server it started
    (the pid reused since) leaves that process alone; the very process it started is
    stopped."""
    import subprocess

    monkeypatch.setattr(realservers, "_BASE", tmp_path)
    gone = subprocess.Popen(["true"])
    gone.wait()
    bystander = subprocess.Popen(["sleep", "120"])
    ours = subprocess.Popen(["sleep", "120"])
    try:
        reused = tmp_path / "redis-reused"
        reused.mkdir()
        (reused / "owner.pid").write_text(str(gone.pid))
        # What an older file says: the pid alone (a pid that another process has now).
        (reused / "redis.pid").write_text(str(bystander.pid))
        (reused / "redis.process").write_text(f"{bystander.pid} 1")
        (reused / "data").mkdir()
        (reused / "data" / "postmaster.pid").write_text(f"{bystander.pid}\n{reused}/data\n")
        stale = tmp_path / "redis-stale"
        stale.mkdir()
        (stale / "owner.pid").write_text(str(gone.pid))
        (stale / "redis.process").write_text(realservers._identity(ours.pid))
        # A live owner, written by an older version of the plugin (its pid alone).
        older = tmp_path / "postgres-older"
        older.mkdir()
        (older / "owner.pid").write_text(str(os.getpid()))
        # A pid that lives but is not the owner any more (another start time).
        replaced = tmp_path / "postgres-replaced"
        replaced.mkdir()
        (replaced / "owner.pid").write_text(str(bystander.pid))
        (replaced / "owner.start").write_text("1")
        # The owner file holds the pid alone, as every version of the plugin reads it.
        mine = realservers._server_directory("redis")
        assert (mine / "owner.pid").read_text() == str(os.getpid())
        realservers._reap_stale()
        assert older.exists() and mine.exists(), "a live run's servers were reaped"
        assert not replaced.exists()
        assert bystander.poll() is None, "an unrelated process was signalled"
        assert ours.wait(timeout=10) == -9
        assert not reused.exists() and not stale.exists()
    finally:
        for process in (bystander, ours):
            process.kill()
            process.wait()
