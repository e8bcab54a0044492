"""A database as the server made it before accounts (schema revision 0002), kept as data.

The migration test (``test_migration.py``) upgrades such a database with today's server.
It needs no git history (a shallow clone has none): ``fixtures/before_accounts.json``
holds the rows that the server of :data:`BEFORE_ACCOUNTS` wrote for one luxor2001 table
with one move played, and the links its creator was given. The test builds revision 0002
with the project's own migration scripts (revisions never change once released), writes
those rows into it, and starts today's server on it.

``python -m tests.server.before_accounts`` makes the file again, from that commit's
source (it then needs the commit in the local history).
"""

from __future__ import annotations

import io
import json
import subprocess
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import DateTime, MetaData, create_engine, insert, select

from necropolis.server import db

#: main just before accounts: its schema is revision 0002.
BEFORE_ACCOUNTS = "29a4476"
REVISION = "0002"
ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).with_name("fixtures") / "before_accounts.json"
#: The tables of revision 0002, parents first.
TABLES = ("tables", "table_actions")


def load() -> dict[str, Any]:
    """The fixture: ``rows`` by table, ``table_id``, ``creator_token``, ``tokens``, ``moved``."""
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def make_database(url: str) -> dict[str, Any]:
    """Build revision 0002 at ``url`` and write the fixture's rows into it; the fixture."""
    data = load()
    db.upgrade(url, revision=data["revision"])
    engine = create_engine(url)
    try:
        metadata = MetaData()
        metadata.reflect(engine, only=list(TABLES))
        with engine.begin() as connection:
            for name in TABLES:
                table = metadata.tables[name]
                rows = [_typed(table, row) for row in data["rows"][name]]
                connection.execute(insert(table), rows)
    finally:
        engine.dispose()
    return data


def _typed(table: Any, row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with its ISO timestamps turned back into datetimes (UTC, as the server wrote
    them: SQLite keeps no zone)."""
    return {
        key: datetime.fromisoformat(value).replace(tzinfo=UTC)
        if isinstance(table.c[key].type, DateTime) and value is not None
        else value
        for key, value in row.items()
    }


def _old_source(into: Path) -> Path:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", BEFORE_ACCOUNTS, "src"],
        capture_output=True,
        check=True,
        timeout=120,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def record() -> None:
    """Run the old server, make a table and a move on it, and write the fixture."""
    from tests.clients import SyncSeat, running_server

    with tempfile.TemporaryDirectory() as scratch:
        url = f"sqlite:///{scratch}/old.db"
        src = _old_source(Path(scratch) / "old")
        with running_server(url, env={"PYTHONPATH": str(src)}) as old:
            assert old.get("/api/account").status_code == 404, "not the server before accounts"
            created = old.create_table("luxor2001", ["me", "link"])
            table_id = created["table_id"]
            seats = [SyncSeat.connect(old, table_id, s["token"]) for s in created["seats"]]
            ready = seats[0].until(lambda st: bool(st["actions"]) or bool(st["acting_seats"]))
            acting = seats[0] if ready["actions"] else seats[int(ready["acting_seats"][0])]
            state = acting.until(lambda st: bool(st["actions"]))
            acting.act(state["actions"][0]["action"])
            moved = int(acting.until(lambda st: st["version"] > state["version"])["version"])
            for seat in seats:
                seat.close()
        engine = create_engine(url)
        metadata = MetaData()
        metadata.reflect(engine, only=list(TABLES))
        with engine.connect() as connection:
            rows = {
                name: [
                    {k: v.isoformat() if isinstance(v, datetime) else v for k, v in r.items()}
                    for r in connection.execute(select(metadata.tables[name])).mappings()
                ]
                for name in TABLES
            }
        engine.dispose()
    FIXTURE.parent.mkdir(exist_ok=True)
    data = {
        "made_by": BEFORE_ACCOUNTS,
        "revision": REVISION,
        "table_id": table_id,
        "creator_token": created["creator_token"],
        "tokens": [s["token"] for s in created["seats"]],
        "moved": moved,
        "rows": rows,
    }
    FIXTURE.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    record()
