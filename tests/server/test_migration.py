"""The schema's migration from the server as it was before accounts, on SQLite and
PostgreSQL: a database as that server left it (schema revision 0002, one luxor2001 table
with a move played, kept as data in ``fixtures/``: see ``before_accounts.py``) is upgraded
by today's server, and the table, its links and its creator's list work as before, beside
the new accounts.
"""

from __future__ import annotations

import json

from websockets.sync.client import connect

from tests.clients import Server, running_server
from tests.server import before_accounts


def first(server: Server, table_id: str, token: str) -> dict[str, object]:
    with connect(server.ws_url(table_id)) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] in ("state", "error"):
                return dict(message)


def test_upgrade_from_before_accounts(db_url: str) -> None:
    old = before_accounts.make_database(db_url)
    table_id = old["table_id"]
    with running_server(db_url) as new:
        for token in old["tokens"]:
            state = first(new, table_id, token)
            assert state["type"] == "state"
            assert int(str(state["version"])) >= old["moved"]
        listed = new.get("/api/tables/mine", token=old["creator_token"]).json()
        assert [t["table_id"] for t in listed] == [table_id]
        r = new.post("/api/account/register", {"name": "Ana", "password": "correct horse"})
        # No page header: refused as cross-site; the table API is untouched by that.
        assert r.status_code == 403
