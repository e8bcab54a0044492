"""Real PostgreSQL and Redis servers for the tests and the load benchmark.

A pytest plugin (registered from ``tests/conftest.py``) with session fixtures
``postgres_url`` (a SQLAlchemy URL, ``postgresql+psycopg://…``) and ``redis_url``, plus
``fresh_postgres_url``, an empty database of its own for one test. When
``NECROPOLIS_TEST_POSTGRES_URL`` / ``NECROPOLIS_TEST_REDIS_URL`` are set they are used as
they are; otherwise each pytest process (each xdist worker) starts throwaway servers from
Debian's binaries in a temporary directory, listening on unix sockets only, and stops them
at the end. Nothing is skipped for want of a server: a missing binary fails the test with
a message that says to run ``scripts/setup``. ``throwaway_postgres`` and
``throwaway_redis`` are plain context managers, so ``scripts/bench_table.py`` starts the
same servers outside pytest. ``postgres_cluster`` yields a :class:`PostgresCluster` that a
test may stop, start, freeze (SIGSTOP) and thaw, to play a database outage; the fixture
``own_postgres`` gives a test one of its own, since the session's is shared.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import SplitResult, parse_qsl, quote, unquote, urlsplit, urlunsplit

import pytest

POSTGRES_ENV = "NECROPOLIS_TEST_POSTGRES_URL"
REDIS_ENV = "NECROPOLIS_TEST_REDIS_URL"
POSTGRES_INITDB_GLOB = "/usr/lib/postgresql/*/bin/initdb"
REDIS_SERVER = "/usr/bin/redis-server"
SETUP_HINT = "run scripts/setup (it installs the Debian packages postgresql and redis-server)"

# Throwaway servers live under one short directory: a unix socket's path must stay under
# about 100 bytes, so the system temporary directory is used, not pytest's deep one.
_BASE = Path(tempfile.gettempdir()) / f"necropolis-servers-{os.geteuid()}"
#: The pid of the process that owns a directory, alone (as every version of this module
#: writes and reads it: runs of several versions share the folder), and beside it that
#: process's start time; the file naming its Redis holds "PID START_TIME".
_OWNER = "owner.pid"
_OWNER_START = "owner.start"
_REDIS = "redis.process"


class ServerUnavailableError(RuntimeError):
    """A throwaway server could not be started: the message says why and what to run."""


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, from /proc), or None if there
    is no such process: with the pid, it names one process, even once the pid is reused."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]  # field 22, counted from the pid as 1


def _identity(pid: int) -> str:
    """What a pid file of this module holds: the pid and the process's start time."""
    return f"{pid} {_start_time(pid)}"


def _same_process(text: str) -> int | None:
    """The pid an identity names, if that very process still runs; else None."""
    parts = text.split()
    if len(parts) != 2 or not parts[0].isdigit():
        return None
    pid = int(parts[0])
    return pid if pid > 0 and _start_time(pid) == parts[1] else None


def _owner_alive(directory: Path) -> bool:
    """Whether the process that owns ``directory`` may still be running: its pid lives,
    and was started when the directory's owner was (a directory of an older version of
    this module has no start time: a live process with that pid counts as the owner, since
    keeping a stale directory is harmless and removing a live one is not). Raises
    OSError or ValueError while the owner file is not written yet."""
    pid = int((directory / _OWNER).read_text().strip())
    try:
        started = (directory / _OWNER_START).read_text().strip()
    except OSError:
        return _pid_alive(pid)
    return _same_process(f"{pid} {started}") is not None


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _postmaster_of(data: Path) -> int | None:
    """The pid in ``data``'s postmaster.pid, if that process is the server of ``data``
    (its working directory is the data directory: PostgreSQL runs from there)."""
    try:
        pid = int((data / "postmaster.pid").read_text().split("\n", 1)[0])
        return pid if Path(os.readlink(f"/proc/{pid}/cwd")) == data.resolve() else None
    except (OSError, ValueError):
        return None


def _reap_stale() -> None:
    """Stop servers left by a test process that died before it could stop them.

    A killed pytest worker never runs its finalizers; its directory names the process
    that owned it, so the next run stops the servers of any owner that is gone. Every pid
    read from these files is checked to be the very process that was started (its start
    time, or for PostgreSQL its data directory) before it is signalled: the folder is
    the machine's, and a pid reused by another process must not be killed.
    """
    if not _BASE.is_dir():
        return
    for directory in _BASE.iterdir():
        try:
            owner_alive = _owner_alive(directory)
        except (OSError, ValueError):
            # A directory being set up this very moment has no owner file yet.
            if time.time() - directory.stat().st_mtime < 60:
                continue
            owner_alive = False
        if owner_alive:
            continue
        data = directory / "data"
        if _postmaster_of(data) is not None:
            with contextlib.suppress(ServerUnavailableError, OSError):
                _pg_ctl(data, "stop", "-m", "immediate", "-w")
        with contextlib.suppress(OSError):
            redis_pid = _same_process((directory / _REDIS).read_text())
            if redis_pid is not None:
                os.kill(redis_pid, signal.SIGKILL)
        shutil.rmtree(directory, ignore_errors=True)


def _server_directory(kind: str) -> Path:
    _BASE.mkdir(mode=0o755, exist_ok=True)
    _BASE.chmod(0o755)
    _reap_stale()
    directory = Path(tempfile.mkdtemp(prefix=f"{kind}-", dir=_BASE))
    (directory / _OWNER_START).write_text(str(_start_time(os.getpid())))
    (directory / _OWNER).write_text(str(os.getpid()))
    return directory


def postgres_bin_dir() -> Path:
    """The newest installed PostgreSQL's binaries, or a clear error."""
    candidates = sorted(
        glob.glob(POSTGRES_INITDB_GLOB),
        key=lambda path: (
            int(Path(path).parent.parent.name) if Path(path).parent.parent.name.isdigit() else 0
        ),
    )
    if candidates:
        return Path(candidates[-1]).parent
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    raise ServerUnavailableError(
        "PostgreSQL's initdb and pg_ctl were not found under /usr/lib/postgresql/*/bin: "
        + SETUP_HINT
        + f", or set {POSTGRES_ENV} to a server's URL."
    )


def _as_postgres_user() -> list[str]:
    """The command prefix that runs PostgreSQL's tools: they refuse to run as root."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise ServerUnavailableError(
            "running as root, PostgreSQL needs the system user 'postgres', which does not "
            "exist: " + SETUP_HINT + "."
        ) from None
    runuser = shutil.which("runuser")
    if runuser is None:
        raise ServerUnavailableError("running as root, but runuser (util-linux) is missing.")
    return [runuser, "-u", "postgres", "--"]


def _run(command: list[str], what: str, timeout: float = 60) -> None:
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ServerUnavailableError(f"{what} failed: {error}") from error
    if result.returncode != 0:
        raise ServerUnavailableError(
            f"{what} failed (exit {result.returncode}):\n{result.stdout}{result.stderr}"
        )


def _pg_ctl(data: Path, *arguments: str) -> None:
    pg_ctl = str(postgres_bin_dir() / "pg_ctl")
    _run([*_as_postgres_user(), pg_ctl, "-D", str(data), *arguments], f"pg_ctl {arguments[0]}")


def postgres_url_for(socket_dir: Path, database: str = "postgres") -> str:
    """The SQLAlchemy URL of a database on a server listening in ``socket_dir``."""
    return f"postgresql+psycopg://postgres@/{database}?host={quote(str(socket_dir), safe='/')}"


class PostgresCluster:
    """A throwaway PostgreSQL cluster that this test process started: its URL, and what a
    test does to it to play an outage. Every signal goes only to processes checked to be
    this cluster's (its postmaster, by the pid file and command line, and its children)."""

    def __init__(self, directory: Path, settings: str) -> None:
        self.directory = directory
        self.data = directory / "data"
        self.settings = settings
        self.url = postgres_url_for(directory)
        self.running = False
        self.frozen: list[int] = []

    def start(self) -> None:
        log = str(self.directory / "postgres.log")
        _pg_ctl(self.data, "start", "-w", "-t", "60", "-l", log, "-o", self.settings)
        self.running = True

    def stop(self) -> None:
        """``pg_ctl stop -m immediate``: every backend ends at once, as in a crash."""
        self.thaw()
        _pg_ctl(self.data, "stop", "-m", "immediate", "-w")
        self.running = False

    def postmaster(self) -> int:
        """The postmaster's pid, once checked to be the one serving this data directory."""
        pid = int((self.data / "postmaster.pid").read_text().split()[0])
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        if not command or "postgres" not in Path(command[0].decode()).name:
            raise RuntimeError(f"pid {pid} is not a postgres: {command!r}")
        if str(self.data).encode() not in command:
            raise RuntimeError(f"pid {pid} does not serve {self.data}: {command!r}")
        return pid

    def processes(self) -> list[int]:
        """The postmaster and every process it started (backends, writers…)."""
        root = self.postmaster()
        found = [root]
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == root:
                found.append(int(entry.name))
        return found

    def freeze(self) -> None:
        """SIGSTOP the whole cluster: connections stay open, and nothing answers."""
        if self.frozen:
            return
        self.frozen = self.processes()
        for pid in self.frozen:
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        """SIGCONT what :meth:`freeze` stopped."""
        frozen, self.frozen = self.frozen, []
        for pid in frozen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


@contextlib.contextmanager
def throwaway_postgres(max_connections: int = 300) -> Iterator[str]:
    """A new PostgreSQL cluster on a unix socket, fsync off; yields its URL, then removes it."""
    with postgres_cluster(max_connections) as cluster:
        yield cluster.url


@contextlib.contextmanager
def postgres_cluster(
    max_connections: int = 300, durable: bool = False
) -> Iterator[PostgresCluster]:
    """A new PostgreSQL cluster on a unix socket, fsync off, removed at the end.

    ``durable`` commits synchronously (as PostgreSQL does by default): a commit it has
    answered survives an immediate stop. Without it, commits are answered before their
    WAL is written, which is faster and good enough for tests that never stop it.
    """
    bin_dir = postgres_bin_dir()
    prefix = _as_postgres_user()
    directory = _server_directory("postgres")
    data = directory / "data"
    cluster: PostgresCluster | None = None
    try:
        if prefix:
            # The cluster's user must own its files and reach the socket directory.
            shutil.chown(directory, user="postgres", group="postgres")
        _run(
            [
                *prefix,
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
            "initdb",
        )
        settings = " ".join(
            [
                "-c listen_addresses=''",
                f"-c unix_socket_directories='{directory}'",
                "-c fsync=off",
                f"-c synchronous_commit={'on' if durable else 'off'}",
                "-c full_page_writes=off",
                f"-c max_connections={max_connections}",
            ]
        )
        cluster = PostgresCluster(directory, settings)
        cluster.start()
        yield cluster
    except ServerUnavailableError as error:
        log = directory / "postgres.log"
        if log.exists():
            raise ServerUnavailableError(f"{error}\n{log.read_text()[-2000:]}") from None
        raise
    finally:
        if cluster is not None:
            cluster.thaw()
            if cluster.running or (data / "postmaster.pid").exists():
                with contextlib.suppress(ServerUnavailableError):
                    _pg_ctl(data, "stop", "-m", "immediate", "-w")
        shutil.rmtree(directory, ignore_errors=True)


def redis_server_binary() -> str:
    """Debian's redis-server (or one on PATH), or a clear error."""
    found = shutil.which("redis-server")
    if found:
        return found
    if Path(REDIS_SERVER).is_file():
        return REDIS_SERVER
    raise ServerUnavailableError(
        "redis-server was not found: " + SETUP_HINT + f", or set {REDIS_ENV} to a server's URL."
    )


def redis_url_for(socket: Path, db: int = 0) -> str:
    return f"unix://{socket}?db={db}"


@contextlib.contextmanager
def throwaway_redis() -> Iterator[str]:
    """A new Redis on a unix socket, nothing saved to disk; yields its URL, then stops it."""
    binary = redis_server_binary()
    directory = _server_directory("redis")
    socket = directory / "redis.sock"
    command = [
        binary,
        "--port",
        "0",
        "--unixsocket",
        str(socket),
        "--unixsocketperm",
        "700",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(directory),
        "--pidfile",
        str(directory / "redis.pid"),
        "--logfile",
        str(directory / "redis.log"),
        "--maxclients",
        "4000",
    ]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        (directory / _REDIS).write_text(_identity(process.pid))
        _wait_for_redis(socket, process, directory)
        yield redis_url_for(socket)
    finally:
        process.kill()
        process.wait(timeout=10)
        shutil.rmtree(directory, ignore_errors=True)


def _wait_for_redis(socket: Path, process: subprocess.Popen[bytes], directory: Path) -> None:
    import redis

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log = directory / "redis.log"
            text = log.read_text()[-2000:] if log.exists() else ""
            raise ServerUnavailableError(f"redis-server exited with {process.returncode}:\n{text}")
        if socket.exists():
            try:
                client = redis.Redis(unix_socket_path=str(socket))
                client.ping()
                client.close()
                return
            except redis.ConnectionError:
                pass
        time.sleep(0.02)
    raise ServerUnavailableError("redis-server did not answer within 30 seconds")


def _split(sqlalchemy_url: str) -> tuple[SplitResult, dict[str, str]]:
    parts = urlsplit(sqlalchemy_url)
    return parts, dict(parse_qsl(parts.query))


def with_database(sqlalchemy_url: str, database: str) -> str:
    """The same server's URL naming another database."""
    parts, _ = _split(sqlalchemy_url)
    return urlunsplit(parts._replace(path="/" + database))


def psycopg_conninfo(sqlalchemy_url: str) -> str:
    """What ``psycopg.connect`` takes for a SQLAlchemy URL (for checks below the server)."""
    parts, query = _split(sqlalchemy_url)
    fields = {
        "host": query.get("host") or parts.hostname,
        "port": parts.port,
        "user": unquote(parts.username) if parts.username else None,
        "password": unquote(parts.password) if parts.password else None,
        "dbname": unquote(parts.path.lstrip("/")) or None,
    }
    return " ".join(f"{key}='{value}'" for key, value in fields.items() if value not in (None, ""))


def create_database(server_url: str, name: str) -> str:
    """Create an empty database named ``name`` beside ``server_url``'s; return its URL."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(psycopg_conninfo(server_url), autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return with_database(server_url, name)


def drop_database(server_url: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(psycopg_conninfo(server_url), autocommit=True) as connection:
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def _fail(error: ServerUnavailableError) -> None:
    pytest.fail(str(error), pytrace=False)


def _named_or_throwaway(
    variable: str, start: Callable[[], contextlib.AbstractContextManager[str]]
) -> Iterator[str]:
    """The URL the environment ``variable`` names, or that of a server ``start`` starts for
    this run and stops after it. The server is entered by hand so that only a failure to
    start it, not an error of the tests using it, is reported as the server's."""
    given = os.environ.get(variable)
    if given:
        yield given
        return
    try:
        manager = start()
        url = manager.__enter__()
    except ServerUnavailableError as error:
        _fail(error)
        return
    try:
        yield url
    finally:
        manager.__exit__(None, None, None)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server's SQLAlchemy URL, from the environment or started for this run."""
    yield from _named_or_throwaway(POSTGRES_ENV, throwaway_postgres)


@pytest.fixture
def fresh_postgres_url(postgres_url: str) -> Iterator[str]:
    """An empty database of this test's own on the session's PostgreSQL, dropped after."""
    name = f"necropolis_test_{uuid.uuid4().hex[:12]}"
    url = create_database(postgres_url, name)
    try:
        yield url
    finally:
        drop_database(postgres_url, name)


@pytest.fixture
def own_postgres() -> Iterator[PostgresCluster]:
    """A PostgreSQL cluster of this test's own, which it may stop, start, freeze and thaw;
    commits are synchronous, so an answered one survives an immediate stop."""
    try:
        manager = postgres_cluster(max_connections=100, durable=True)
        cluster = manager.__enter__()
    except ServerUnavailableError as error:
        _fail(error)
        return
    try:
        yield cluster
    finally:
        manager.__exit__(None, None, None)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A Redis server's URL, from the environment or started for this run."""
    yield from _named_or_throwaway(REDIS_ENV, throwaway_redis)
