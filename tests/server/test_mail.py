"""Mail to a player whose turn has waited, against a real SMTP sink on loopback.

The operator configures SMTP through ``necropolis serve``'s options (here their
environment variables); the sink is ``aiosmtpd`` listening on 127.0.0.1. A turn that has
waited the configured time is mailed to its player once, in the player's language, with
a link to the table; not before the wait, not a second time by a second process on the
same database, not again after the server is killed and restarted, and not to a player
without an address. The next turn, another player's, is mailed in its turn.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.clients import start_server
from tests.server.test_notices import account, pass_the_turn, settled, table_socket

#: Seconds a turn waits before it is mailed, in these tests.
AFTER = 3.0
HORUS = "The Adventurers: The Pyramid of Horus"


@dataclass
class Received:
    to: list[str]
    message: EmailMessage
    at: float


class Sink:
    """An SMTP server that keeps what it receives."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802 (aiosmtpd's name)
        content = envelope.content if isinstance(envelope.content, bytes) else b""
        with self.lock:
            self.received.append(
                Received(list(envelope.rcpt_tos), parsed(content), time.monotonic())
            )
        return "250 OK"

    def mails(self) -> list[Received]:
        with self.lock:
            return list(self.received)

    def wait_for(self, count: int, timeout: float = 60.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.mails()) >= count:
                return self.mails()
            time.sleep(0.1)
        raise AssertionError(f"{count} mails expected, {len(self.mails())} came")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def sink() -> Iterator[tuple[Sink, int]]:
    handler = Sink()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def parsed(content: bytes) -> EmailMessage:
    message: Any = message_from_bytes(content, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return message


def body(received: Received) -> str:
    return str(received.message.get_content())


def test_a_waiting_turn_is_mailed_once(sink: tuple[Sink, int], tmp_path: Path) -> None:
    mails, port = sink
    env = {
        "NECROPOLIS_SMTP_HOST": "127.0.0.1",
        "NECROPOLIS_SMTP_PORT": str(port),
        "NECROPOLIS_SMTP_SECURITY": "none",
        "NECROPOLIS_MAIL_FROM": "necropolis@example.test",
        "NECROPOLIS_MAIL_AFTER": str(AFTER),
        "NECROPOLIS_PUBLIC_URL": "https://necropolis.example",
    }
    db_url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    server = start_server(db_url, env=env)
    other = start_server(db_url, env=env)  # a second process sweeping the same database
    try:
        ann, bo, cleo = (account(server, n) for n in ("Ann", "Bo", "Cleo"))
        assert (
            ann.post("/api/account/settings", json={"email": "ann@example.test"}).status_code == 200
        )
        bo.post("/api/account/settings", json={"email": "bo@example.test", "lang": "nl"})
        assert ann.get("/api/account/settings").json()["mail"] is True
        # Cleo's table: Cleo (no address) is to move, and is never mailed.
        cleos = cleo.post(
            "/api/tables", json={"game": "horus", "seats": [{"type": "me"}, {"type": "bot"}]}
        ).json()
        # Ann's untimed table: she is to move there too, and is never mailed for it (she
        # plays it in one sitting).
        ann.post("/api/tables", json={"game": "horus", "seats": [{"type": "me"}, {"type": "bot"}]})
        # Ann's turn-based table, a day per turn (no deadline passes in this test).
        clock = {"mode": "turn", "turn": 86400}
        seats = [{"type": "me"}, {"type": "link"}]
        # Ann's turn begins on the server before the answer reaches the test: the wait is
        # measured from before the request (after it, a slow answer on a loaded machine
        # made a mail sent right on time look early).
        began = time.monotonic()
        created = ann.post("/api/tables", json={"game": "horus", "seats": seats, "clock": clock})
        created = created.json()
        table_id = created["table_id"]
        tokens = [s["token"] for s in created["seats"]]
        with table_socket(server, table_id, tokens[1], bo) as ws:
            assert settled(ws)["acting_seats"] == [0]  # Horus begins with the first seat

        [first] = mails.wait_for(1)
        assert first.at - began >= AFTER
        assert first.to == ["ann@example.test"]
        assert first.message["Subject"] == f"necropolis: your turn at {HORUS}"
        assert first.message["From"] == "necropolis@example.test"
        text = body(first)
        assert f"https://necropolis.example/t/{table_id}#{tokens[0]}" in text
        assert "Hello Ann" in text

        # Not again: by the other process, nor after a kill and a restart.
        other.stop()
        server.kill()
        server.restart()
        time.sleep(3 * AFTER)
        assert len(mails.mails()) == 1

        # Ann plays; now Bo's turn waits, and Bo is mailed, in Dutch.
        moved = time.monotonic()
        after = pass_the_turn(server, table_id, tokens[0], ann)
        assert after["acting_seats"] == [1]
        second = mails.wait_for(2)[1]
        assert second.at - moved >= AFTER
        assert second.to == ["bo@example.test"]
        assert second.message["Subject"] == f"necropolis: jij bent aan de beurt bij {HORUS}"
        assert f"/t/{table_id}#{tokens[1]}" in body(second)
        time.sleep(3 * AFTER)
        assert [m.to for m in mails.mails()] == [["ann@example.test"], ["bo@example.test"]]
        # Cleo's turn waited all along, unmailed: she gave no address.
        cleo_turns = cleo.get("/api/account/turns").json()
        assert [t["table_id"] for t in cleo_turns["tables"]] == [cleos["table_id"]]
    finally:
        other.stop()
        server.stop()


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--smtp-host", "127.0.0.1"], "--mail-from"),
        (["--smtp-host", "h", "--mail-from", "n@example.test", "--smtp-security", "x"], "starttls"),
        (["--smtp-host", "h", "--mail-from", "n@example.test", "--public-url", "ftp://x"], "http"),
    ],
)
def test_mail_options_are_checked(options: list[str], said: str, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-m", "necropolis.cli.main", "serve", "--port", "0", "--db", db, *options],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert said in done.stderr
