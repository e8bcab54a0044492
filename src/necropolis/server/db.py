"""Storage of tables: the schema, the engine, and every query the server makes.

A table row holds the game, its options, its seats (with their tokens' hashes), a secret
seed and a status; the table's actions are rows keyed by ``(table_id, index)``, so that
appending at the expected index *is* the commit and a second writer at the same index
fails at the database. SQLite (a file, in WAL mode) by default; PostgreSQL by URL. The
functions here are synchronous; the server calls them from worker threads.
"""

from __future__ import annotations

import contextlib
import fcntl
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
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", JSON, nullable=False),
    # [{"seat", "type", "name", "level", "token_hash"}]: token_hash is None for a bot.
    Column("seats", JSON, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("creator_hash", String(64), nullable=False, index=True),
    Column("spectator_hash", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)

table_actions = Table(
    "table_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("index", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=True),  # None for a chance outcome
    Column("action", Integer, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

PLAYING = "playing"
FINISHED = "finished"


@dataclass
class TableRow:
    """One table as stored, its actions aside."""

    id: str
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: str
    status: str
    version: int
    creator_hash: str
    spectator_hash: str
    created: datetime
    updated: datetime


class VersionConflictError(Exception):
    """Another writer appended at the same index first."""


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


def default_url(data_dir: Path) -> str:
    return f"sqlite:///{data_dir / 'necropolis.sqlite3'}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and full syncs."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            # FULL: a committed action survives a power cut too, not only a crash; a
            # client is told of an action only once it is committed.
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # Ten connections are more than one process uses: its writes go through one writer
    # (service.Writer), and its reads run in the event loop's default thread pool
    # (min(32, CPUs + 4) threads); the overflow is for a larger machine's pool.
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


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


def upgrade(url: str) -> None:
    """Bring the database at ``url`` to the newest schema (Alembic, scripts in the package)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    engine = make_engine(url)
    try:
        with migration_lock(url), engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    finally:
        engine.dispose()


def _move_on(a: Append, at: datetime) -> Any:
    """The table row's update that goes with appending ``a``."""
    values: dict[str, Any] = {"version": a.index + 1, "updated": at}
    if a.finished:
        values["status"] = FINISHED
    return update(tables).where(tables.c.id == a.table_id).values(**values)


def _row(r: Any) -> TableRow:
    return TableRow(
        id=r.id,
        game=r.game,
        options=dict(r.options),
        seats=[dict(s) for s in r.seats],
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

    def create(self, row: TableRow) -> None:
        with self.engine.begin() as c:
            c.execute(
                insert(tables).values(
                    id=row.id,
                    game=row.game,
                    options=row.options,
                    seats=row.seats,
                    seed=row.seed,
                    status=row.status,
                    version=row.version,
                    creator_hash=row.creator_hash,
                    spectator_hash=row.spectator_hash,
                    created=row.created,
                    updated=row.updated,
                )
            )

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
        """Commit several tables' actions in one transaction (one sync to disk for all);
        per action, False when its index was already taken (that one is not written).

        An index already taken is skipped by ``ON CONFLICT DO NOTHING`` so that it does
        not undo the others; on a database without it, or if the batch fails for another
        reason, each action is committed in a transaction of its own.
        """
        insert_or_skip = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}.get(
            self.engine.dialect.name
        )
        if insert_or_skip is not None and len(appends) > 1:
            with contextlib.suppress(IntegrityError):
                return self._append_batch(appends, insert_or_skip)
        return [self._append_one(a) for a in appends]

    def _append_batch(self, appends: list[Append], insert_or_skip: Any) -> list[bool]:
        done: list[bool] = []
        with self.engine.begin() as c:
            for a in appends:
                at = now()
                # RETURNING, not the row count: psycopg reported a skipped row as written.
                inserted = (
                    c.execute(
                        insert_or_skip(table_actions)
                        .values(
                            table_id=a.table_id, index=a.index, seat=a.seat, action=a.action, at=at
                        )
                        .on_conflict_do_nothing()
                        .returning(table_actions.c.index)
                    ).first()
                    is not None
                )
                if inserted:
                    c.execute(_move_on(a, at))
                done.append(inserted)
        return done

    def _append_one(self, a: Append) -> bool:
        at = now()
        try:
            with self.engine.begin() as c:
                c.execute(
                    insert(table_actions).values(
                        table_id=a.table_id, index=a.index, seat=a.seat, action=a.action, at=at
                    )
                )
                c.execute(_move_on(a, at))
        except IntegrityError:
            return False
        return True

    def set_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        with self.engine.begin() as c:
            c.execute(
                update(tables).where(tables.c.id == table_id).values(seats=seats, updated=now())
            )

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
