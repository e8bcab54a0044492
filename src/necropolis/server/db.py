"""Storage of tables: the schema, the engine, and every query the server makes.

A table row holds the game, its options, its seats (with their tokens' hashes), a secret
seed and a status; the table's actions are rows keyed by ``(table_id, index)``, so that
appending at the expected index *is* the commit and a second writer at the same index
fails at the database. SQLite (a file, in WAL mode) by default; PostgreSQL by URL. The
functions here are synchronous; the server calls them from worker threads. Every wait on
the database is bounded (:data:`STORAGE_WAIT`): a database that is down or frozen makes
calls fail within seconds, as :func:`storage_failed` errors, rather than hang.
"""

from __future__ import annotations

import contextlib
import fcntl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Insert,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from necropolis.server.seats import Seat, seats_json, seats_of

metadata = MetaData()


def table_key() -> Column[str]:
    """The ``table_id`` column of a table's own rows (its actions, chat, claims, rating
    mark): the first part of their key, and the table's id."""
    return Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True)


def moment(name: str) -> Column[datetime]:
    """A required moment, with its time zone (every moment is written in UTC, see :func:`now`)."""
    return Column(name, DateTime(timezone=True), nullable=False)


tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", JSON, nullable=False),
    # Each seat's JSON (server/seats.py): {"seat", "type", "name", "level", "token_hash"},
    # and "link", "standin", "account" where they say something.
    Column("seats", JSON, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("creator_hash", String(64), nullable=False, index=True),
    Column("spectator_hash", String(64), nullable=False),
    moment("created"),
    moment("updated"),
)

table_actions = Table(
    "table_actions",
    metadata,
    table_key(),
    Column("index", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=True),  # None for a chance outcome
    Column("action", Integer, nullable=False),
    moment("at"),
)

PLAYING = "playing"
FINISHED = "finished"


@dataclass
class TableRow:
    """One table as stored, its actions aside."""

    id: str
    game: str
    options: dict[str, Any]
    #: Replaced whole when a seat changes, never changed in place.
    seats: list[Seat]
    seed: str
    status: str
    version: int
    creator_hash: str
    spectator_hash: str
    created: datetime
    updated: datetime


class VersionConflictError(Exception):
    """Another writer appended at the same index first."""


#: Seconds any one wait on the database may last: connecting, a statement, a lock, a
#: connection from the pool (the server bounds its own waits for answers the same way).
STORAGE_WAIT = 2.0


class StorageUnavailableError(Exception):
    """The database did not answer in time (the server gave up waiting for it)."""


def storage_failed(exc: BaseException) -> bool:
    """Whether ``exc`` says the database is unreachable, frozen or failing to write, as
    opposed to a mistake of the server's (a broken constraint is one of those)."""
    if isinstance(exc, IntegrityError):
        return False
    return isinstance(exc, DBAPIError | PoolTimeoutError | StorageUnavailableError)


class _TurnSplitError(Exception):
    """A batch would have committed only part of a turn (it is committed turn by turn)."""


class _Broken(Exception):  # noqa: N818 (a signal between two methods, not an error to show)
    """The kept connection was found broken before anything was committed on it: the
    write may be tried once more on a new one. ``error`` is SQLAlchemy's error for it."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass(frozen=True)
class Append:
    """One action to commit: the table's action number ``index``."""

    table_id: str
    index: int
    seat: int | None
    action: int
    finished: bool


def now() -> datetime:
    return datetime.now(UTC)


def aware(at: datetime) -> datetime:
    """A moment read back from the database, with its time zone (SQLite gives it back
    without one; every moment was written in UTC)."""
    return at if at.tzinfo is not None else at.replace(tzinfo=now().tzinfo)


def default_url(data_dir: Path) -> str:
    return f"sqlite:///{data_dir / 'necropolis.sqlite3'}"


def make_engine(url: str, statement_timeout: float | None = STORAGE_WAIT) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and full syncs.

    Waits are bounded so that an outage turns into errors, not hung requests: SQLite's
    wait for another process's write lock, and on PostgreSQL connecting, each statement
    (``statement_timeout``; None for migrations, which may wait for another process's
    lock or rewrite a large table), locks, and TCP keepalives that notice a peer gone.
    """
    parsed = make_url(url)
    wait_ms = int(STORAGE_WAIT * 1000)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": STORAGE_WAIT})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={wait_ms}")
            # FULL: a committed action survives a power cut too, not only a crash; a
            # client is told of an action only once it is committed.
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # Ten connections are more than one process uses: its writes go through one writer
    # (service.Writer), and its reads run in the event loop's default thread pool
    # (min(32, CPUs + 4) threads); the overflow is for a larger machine's pool.
    connect_args: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql":
        # libpq's connect_timeout counts whole seconds (and at least 2). A frozen server
        # still accepts connections into its listen queue, so only this bounds connecting.
        connect_args = {
            "connect_timeout": max(2, round(STORAGE_WAIT)),
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 2,
            "keepalives_count": 3,
        }
        if statement_timeout is not None:
            limit = int(statement_timeout * 1000)
            connect_args["options"] = f"-c statement_timeout={limit} -c lock_timeout={limit}"
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=10,
        max_overflow=20,
        pool_timeout=STORAGE_WAIT,
        connect_args=connect_args,
    )


@contextmanager
def migration_lock(url: str) -> Iterator[None]:
    """Keep two processes starting at once from migrating the same SQLite file together.

    PostgreSQL takes an advisory lock inside the migration itself (see ``env.py``).
    """
    parsed = make_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        yield
        return
    lock_path = Path(database + ".migrate-lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` to the newest schema, or to ``revision`` (Alembic)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    engine = make_engine(url, statement_timeout=None)
    try:
        with migration_lock(url), engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    finally:
        engine.dispose()


class _Statement:
    """One statement of the writer, compiled once for a dialect: its SQL text and how to
    turn values into the driver's parameters (each value through its column type's bind
    processor, as SQLAlchemy would, in the order or by the names the driver wants).

    The writer runs a few statements per committed action; building and compiling them
    through SQLAlchemy's expression language each time cost more CPU than the database's
    own work (``scripts/bench_table.py``), so they go to the driver as text."""

    def __init__(self, statement: Any, dialect: Any) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        self.positional = dialect.paramstyle in ("qmark", "numeric", "format")
        names: list[str] = (
            list(compiled.positiontup or []) if self.positional else list(compiled.binds)
        )
        self.names = names
        self.processors = [
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in names
        ]

    def params(self, values: dict[str, Any]) -> Any:
        converted = [
            values[name] if process is None else process(values[name])
            for name, process in zip(self.names, self.processors, strict=True)
        ]
        return (
            tuple(converted) if self.positional else dict(zip(self.names, converted, strict=True))
        )


class _Statements:
    """The writer's statements for one dialect: an action appended (or skipped when its
    index is taken, where the dialect can), and the table row moved on. Moving on
    changes nothing (and the append is refused) when the table is over, as an abandoned
    table is (server/clocks/) while another process may not know it yet."""

    def __init__(self, dialect: Any) -> None:
        insert_or_skip: Any = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}.get(
            dialect.name
        )
        self.insert = _Statement(insert(table_actions), dialect)
        self.insert_or_skip = (
            None
            if insert_or_skip is None
            else _Statement(  # (each dialect's insert has on_conflict_do_nothing)
                # RETURNING, not the row count: psycopg reported a skipped row as written.
                insert_or_skip(table_actions)
                .on_conflict_do_nothing()
                .returning(table_actions.c.index),
                dialect,
            )
        )
        where = (tables.c.id == bindparam("table_id", type_=tables.c.id.type)) & (
            tables.c.status == bindparam("playing", type_=tables.c.status.type)
        )
        self.move_on = _Statement(
            update(tables)
            .where(where)
            .values(version=bindparam("version"), updated=bindparam("updated")),
            dialect,
        )
        self.finish = _Statement(
            update(tables)
            .where(where)
            .values(
                version=bindparam("version"),
                updated=bindparam("updated"),
                status=bindparam("status"),
            ),
            dialect,
        )


def _action_values(a: Append, at: datetime) -> dict[str, Any]:
    return {"table_id": a.table_id, "index": a.index, "seat": a.seat, "action": a.action, "at": at}


class _TableOverError(Exception):
    """An append to a table that is over (see :class:`_Statements`)."""


def _row(r: Any) -> TableRow:
    return TableRow(
        id=r.id,
        game=r.game,
        options=dict(r.options),
        seats=seats_of(r.seats),
        seed=r.seed,
        status=r.status,
        version=r.version,
        creator_hash=r.creator_hash,
        spectator_hash=r.spectator_hash,
        created=r.created,
        updated=r.updated,
    )


class Store:
    """Every read and write of tables, on one engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._statements = _Statements(engine.dialect)
        #: The connection the writes go through (see :meth:`append_turns`), made when
        #: first needed; one write at a time uses it.
        self._kept: Any = None
        self._write_lock = threading.Lock()
        self._driver_error: type[Exception] = engine.dialect.loaded_dbapi.Error

    def close(self) -> None:
        """Give back the connection kept for writes (the server is stopping)."""
        with self._write_lock:
            kept, self._kept = self._kept, None
            if kept is not None:
                with contextlib.suppress(Exception):
                    kept.close()

    def _move_on(self, cursor: Any, a: Append, at: datetime) -> None:
        """The table row's update that goes with appending the turn that ends with ``a``;
        :class:`_TableOverError` if the table is over (nothing moved on)."""
        values: dict[str, Any] = {
            "table_id": a.table_id,
            "version": a.index + 1,
            "updated": at,
            "playing": PLAYING,
        }
        statement = self._statements.move_on
        if a.finished:
            values["status"] = FINISHED
            statement = self._statements.finish
        cursor.execute(statement.sql, statement.params(values))
        if cursor.rowcount != 1:
            raise _TableOverError(a.table_id)

    def check(self) -> None:
        """Raise unless the database answers a trivial query (what health asks first)."""
        with self.engine.connect() as c:
            c.execute(select(1)).scalar_one()

    def check_writes(self) -> None:
        """Raise unless the database takes a write (a disk that is full fails here, though
        reading still works). One table row's version is moved up and back in one
        transaction: the row is written, for SQLite skips a write that changes nothing,
        and it ends as it was."""
        with self.engine.begin() as c:
            first = select(tables.c.id).order_by(tables.c.id).limit(1).scalar_subquery()
            for step in (1, -1):
                c.execute(
                    update(tables)
                    .where(tables.c.id == first)
                    .values(version=tables.c.version + step)
                )

    def create(self, row: TableRow) -> None:
        with self.engine.begin() as c:
            c.execute(insert_table(row))

    def get(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as c:
            r = c.execute(select(tables).where(tables.c.id == table_id)).first()
        return None if r is None else _row(r)

    def actions(self, table_id: str, start: int = 0) -> list[tuple[int | None, int]]:
        """``(seat, action)`` of every action from index ``start`` on, in order."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(table_actions.c.index, table_actions.c.seat, table_actions.c.action)
                .where(table_actions.c.table_id == table_id, table_actions.c.index >= start)
                .order_by(table_actions.c.index)
            ).all()
        found = [(seat, action) for _index, seat, action in rows]
        # A gap would mean a broken record; indices are dense by construction.
        if rows and rows[-1][0] != start + len(rows) - 1:
            raise RuntimeError(f"table {table_id} has a gap in its actions")
        return found

    def append(
        self, table_id: str, index: int, seat: int | None, action: int, finished: bool
    ) -> None:
        """Commit ``action`` as the table's action number ``index``.

        Raises :class:`VersionConflictError` when that index is already taken.
        """
        if not self.append_many([Append(table_id, index, seat, action, finished)])[0]:
            raise VersionConflictError(table_id)

    def append_many(self, appends: list[Append]) -> list[bool]:
        """Commit several tables' actions in one transaction, each action alone (see
        :meth:`append_turns`); per action, False when its index was already taken."""
        return self.append_turns([[a] for a in appends])

    def append_turns(self, turns: list[list[Append]]) -> list[bool]:
        """Commit several turns in one transaction (one sync to disk for all); a turn is
        one table's consecutive actions, and it is written whole or not at all. Per turn,
        False when one of its indices was already taken (then none of it is written).

        A turn whose first index is taken is skipped by ``ON CONFLICT DO NOTHING`` so that
        it does not undo the others; on a database without it, or if the batch fails for
        another reason (a later index of a turn taken), each turn is committed in a
        transaction of its own.
        """
        with self._write_lock:
            try:
                return self._append_turns(turns)
            except _Broken:
                pass
            try:
                return self._append_turns(turns)
            except _Broken as broken:
                raise broken.error from None

    def _append_turns(self, turns: list[list[Append]]) -> list[bool]:
        insert_or_skip = self._statements.insert_or_skip
        if insert_or_skip is not None and len(turns) > 1:
            # (a turn refused in the batch, its index taken or its table over, has the
            # turns committed one by one)
            with contextlib.suppress(IntegrityError, _TurnSplitError, _TableOverError):
                batch: list[bool] = self._written(lambda c: self._append_batch(c, turns))
                return batch
        done: list[bool] = []
        for turn in turns:
            try:
                done.append(self._written(lambda cursor, turn=turn: self._append_one(cursor, turn)))
            except (IntegrityError, _TableOverError):
                done.append(False)
        return done

    def _written(self, write: Any) -> Any:
        """``write(cursor)`` in a transaction of the kept connection, committed; a driver's
        error leaves as SQLAlchemy's (the connection dropped when it broke)."""
        if self._kept is None:
            try:
                self._kept = self.engine.raw_connection()
            except self._driver_error as exc:
                # (the pool hands on the driver's own error when it cannot connect)
                failed: Any = exc
                raise DBAPIError.instance(
                    None, None, failed, self._driver_error, dialect=self.engine.dialect
                ) from exc
        connection = self._kept
        committing = False
        try:
            cursor = connection.cursor()
            try:
                found = write(cursor)
                committing = True
                connection.commit()
            finally:
                cursor.close()
            return found
        except self._driver_error as exc:
            failed = exc
            broken = self.engine.dialect.is_disconnect(failed, connection.dbapi_connection, None)
            self._end_transaction(broken)
            error = DBAPIError.instance(
                None,
                None,
                exc,
                self._driver_error,
                connection_invalidated=broken,
                dialect=self.engine.dialect,
            )
            if broken and not committing:
                raise _Broken(error) from exc
            raise error from exc
        except BaseException:
            self._end_transaction(False)
            raise

    def _end_transaction(self, broken: bool) -> None:
        """Roll the kept connection's transaction back, or drop it when it is broken (or
        the rollback fails: then it is not trusted again)."""
        connection = self._kept
        if connection is None:
            return
        if not broken:
            try:
                connection.rollback()
                return
            except Exception:
                pass
        self._kept = None
        with contextlib.suppress(Exception):
            connection.invalidate()

    def _append_batch(self, cursor: Any, turns: list[list[Append]]) -> list[bool]:
        insert_or_skip = self._statements.insert_or_skip
        assert insert_or_skip is not None
        done: list[bool] = []
        for turn in turns:
            at = now()
            written = 0
            for a in turn:
                cursor.execute(insert_or_skip.sql, insert_or_skip.params(_action_values(a, at)))
                if cursor.fetchone() is None:
                    if written:
                        # Half a turn must never be committed: drop the whole batch.
                        raise _TurnSplitError(a.table_id)
                    break
                written += 1
            if written:
                self._move_on(cursor, turn[-1], at)
            done.append(bool(written))
        return done

    def _append_one(self, cursor: Any, turn: list[Append]) -> bool:
        at = now()
        statement = self._statements.insert
        for a in turn:
            cursor.execute(statement.sql, statement.params(_action_values(a, at)))
        self._move_on(cursor, turn[-1], at)
        return True

    def set_seats(self, table_id: str, seats: list[Seat], began: datetime | None = None) -> None:
        """Store the table's ``seats``; ``began``: the moment its match began, when the
        last seat that waited for its person is taken (the table's ``created`` from then
        on, from which its clocks run)."""
        values: dict[str, Any] = {"seats": seats_json(seats), "updated": now()}
        if began is not None:
            values["created"] = began
        with self.engine.begin() as c:
            c.execute(update(tables).where(tables.c.id == table_id).values(**values))

    def mine(self, creator_hash: str) -> list[TableRow]:
        with self.engine.connect() as c:
            rows = c.execute(
                select(tables)
                .where(tables.c.creator_hash == creator_hash)
                .order_by(tables.c.created.desc(), tables.c.id)
            ).all()
        return [_row(r) for r in rows]

    def playing(self) -> list[str]:
        with self.engine.connect() as c:
            rows = c.execute(select(tables.c.id).where(tables.c.status == PLAYING)).all()
        return [r.id for r in rows]

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The stored version of each of ``table_ids``."""
        if not table_ids:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(
                select(tables.c.id, tables.c.version).where(tables.c.id.in_(table_ids))
            ).all()
        return {str(r[0]): int(r[1]) for r in rows}

    def count_actions(self, table_id: str) -> int:
        with self.engine.connect() as c:
            return int(
                c.execute(
                    select(func.count()).where(table_actions.c.table_id == table_id)
                ).scalar_one()
            )


def insert_table(row: TableRow) -> Insert:
    """The statement that stores a new table's row (a table made, or a rematch made in
    the same transaction as its seats' claims: server/lobby.py)."""
    return insert(tables).values(
        id=row.id,
        game=row.game,
        options=row.options,
        seats=seats_json(row.seats),
        seed=row.seed,
        status=row.status,
        version=row.version,
        creator_hash=row.creator_hash,
        spectator_hash=row.spectator_hash,
        created=row.created,
        updated=row.updated,
    )
