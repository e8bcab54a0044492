"""The web table through a database outage, in a real headless Chromium.

A person plays luxor2001 against a bot on a server whose SQLite writes start failing (its
file-size limit set to 0, as on a full disk) just before the person sends a move: the
page keeps showing the table, says it is reconnecting to its storage, and once writes
work again the move is sent again by itself and recorded, the notice goes, and play goes
on, with nothing clicked a second time. Screenshots under ``reports/screenshots/``.
"""

from __future__ import annotations

import random
import resource
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.clients import Server, start_server
from tests.web.conftest import _ensure_built
from tests.web.people import (
    VIEWPORT,
    WAIT,
    create_table,
    my_turn,
    new_person,
    page_errors,
    plain_moves,
    take_turn,
    version,
    wait_for_turn_or_end,
)

STORAGE = "The table is reconnecting to its storage"


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test's own: its storage is made to fail, which would disturb the
    session's other tests."""
    _ensure_built()
    server = start_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", bot_workers=1)
    try:
        yield server
    finally:
        server.stop()


def test_the_page_rides_out_a_storage_outage(
    browser: Browser, own_server: Server, shots: Path
) -> None:
    rng = random.Random(22)
    assert own_server.process is not None
    pid = own_server.process.pid
    limits = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx)
        create_table(page, own_server.url, "luxor2001", ["me", "bot:easy"])
        assert wait_for_turn_or_end([page]) is page
        take_turn(page, rng)
        assert wait_for_turn_or_end([page]) is page
        before = version(page)
        log_before = page.get_by_test_id("log").locator("li").count()

        resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, limits[1]))
        try:
            # Decisions made by clicking until one is sent: its commit fails.
            send_a_decision(page, rng)
            expect(page.get_by_test_id("storage")).to_contain_text(STORAGE)
            # The table stays on the screen as it was, and nothing else can be sent.
            expect(page.get_by_test_id("board")).to_be_visible()
            assert version(page) == before
            expect(page.get_by_test_id("prompt")).to_contain_text("Sending")
            assert not my_turn(page)
            assert page.locator("[data-testid=moves] button[data-action]:enabled").count() == 0
            # It keeps trying by itself meanwhile; the connection is never dropped.
            page.wait_for_timeout(2_500)
            expect(page.get_by_test_id("storage")).to_be_visible()
            expect(page.get_by_text("Connection lost")).to_have_count(0)
            assert version(page) == before
            page.screenshot(path=str(shots / "outage-storage-notice.png"))
        finally:
            resource.prlimit(pid, resource.RLIMIT_FSIZE, limits)

        # Writes work again: the move is sent again by itself and recorded.
        expect(page.get_by_test_id("storage")).to_be_hidden(timeout=WAIT)
        page.wait_for_function(
            "v => Number(document.querySelector('main.table').dataset.version) > v",
            arg=before,
            timeout=WAIT,
        )
        assert page.get_by_test_id("log").locator("li").count() > log_before
        page.screenshot(path=str(shots / "outage-recovered.png"))
        # And play goes on: the bot answers, and the person plays again.
        for _ in range(3):
            if wait_for_turn_or_end([page]) is None:
                break
            take_turn(page, rng)
        assert page_errors(page) == []
    finally:
        ctx.close()


def send_a_decision(page: Page, rng: random.Random) -> None:
    """Click plain moves until one goes to the server. A decision that leaves the seat
    more to choose in its turn (luxor2001's insertion that makes pairs to order) is kept
    in hand, not sent, so it cannot meet the outage: the turn's last decision is sent
    (with what was kept), confirmed first where the page asks."""
    storage = page.get_by_test_id("storage")
    for _ in range(30):
        if storage.count() and storage.is_visible():
            return
        confirm = page.get_by_test_id("confirm-ok")
        if confirm.count():
            confirm.click()
        elif my_turn(page):
            moves = plain_moves(page)
            moves.nth(rng.randrange(moves.count())).click()
        page.wait_for_timeout(200)
