"""Finding a game in a real headless Chromium, as people do it.

A table made with an open seat is listed in the lobby; a second browser sees it there,
joins with one click, and the table begins for both; a third browser no longer sees it
listed. At the end of a match both players are offered to play again: the first goes to
the new table, which waits; the other accepts, and it begins. An account invited by name
finds the table in "my tables" (with the count of tables waiting for them) and opens it.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.clients import Server
from tests.web.people import VIEWPORT, create_table, new_person, page_errors
from tests.web.test_accounts import sign_in


def version(page: Page) -> int:
    return int(page.locator("main.table").get_attribute("data-version") or -1)


def test_an_open_table_is_joined_from_the_lobby(
    browser: Browser, server: Server, shots: Path
) -> None:
    contexts = [browser.new_context(viewport=VIEWPORT, locale="en-GB") for _ in range(3)]
    try:
        host, guest, later = (new_person(c) for c in contexts)
        guest.add_init_script(
            "try { localStorage.setItem('necropolis.guest-name', 'Dora'); } catch (e) {}"
        )
        table = create_table(host, server.url, "luxor2001", ["me", "open"])
        # The table waits for its player: nothing is dealt yet.
        expect(host.locator("main.table")).to_have_attribute("data-version", "0")
        guest.goto(server.url + "/")
        row = guest.locator(f"[data-testid=listed-table][data-table='{table.table_id}']")
        expect(row).to_contain_text("1 seat free")
        expect(row).to_contain_text("No clock")
        expect(row).to_contain_text("English")
        guest.get_by_test_id("open-tables").screenshot(path=str(shots / "lobby-open-tables.png"))
        row.get_by_test_id("join").click()
        expect(guest.locator("main.table")).to_have_attribute("data-seat", "1")
        # Both see the table begin, and the guest under the name this browser remembers.
        for page in (host, guest):
            expect(page.locator("aside.side")).to_contain_text("Dora")
            page.wait_for_function(
                "() => Number(document.querySelector('main.table')?.dataset.version) > 0"
            )
        host.screenshot(path=str(shots / "lobby-joined-host.png"))
        # Full, the table has left the list.
        later.goto(server.url + "/")
        expect(later.get_by_test_id("open-tables")).to_be_visible()
        expect(
            later.locator(f"[data-testid=listed-table][data-table='{table.table_id}']")
        ).to_have_count(0)
        for page in (host, guest, later):
            assert page_errors(page) == []
    finally:
        for c in contexts:
            c.close()


def test_both_players_accept_to_play_again(browser: Browser, server: Server, shots: Path) -> None:
    # A match that ends soon: the first to act lets two seconds pass, and it is abandoned.
    created = server.post(
        "/api/tables",
        {
            "game": "luxor2001",
            "seats": [{"type": "me", "name": "Ann"}, {"type": "link", "name": "Bo"}],
            "clock": {"mode": "turn", "turn": 2, "rule": "abandon"},
        },
    ).json()
    table_id = created["table_id"]
    contexts = [browser.new_context(viewport=VIEWPORT, locale="en-GB") for _ in range(2)]
    try:
        ann, bo = (new_person(c) for c in contexts)
        for page, seat in ((ann, 0), (bo, 1)):
            page.goto(f"{server.url}/t/{table_id}#{created['seats'][seat]['token']}")
        for page in (ann, bo):
            expect(page.locator("main.table.finished")).to_be_visible(timeout=180_000)
            expect(page.get_by_test_id("play-again")).to_be_visible()
        ann.get_by_test_id("play-again").click()
        expect(ann).not_to_have_url(re.compile(re.escape(table_id)))
        # Ann waits at the new table; Bo is told she wants to play again.
        expect(ann.locator("main.table")).to_have_attribute("data-version", "0")
        expect(ann.locator("main.table")).to_have_attribute("data-seat", "1")
        expect(bo.get_by_test_id("again-status")).to_contain_text("Ann")
        bo.get_by_test_id("again").screenshot(path=str(shots / "again-offered.png"))
        ann.screenshot(path=str(shots / "again-waiting.png"))
        bo.get_by_test_id("play-again").click()
        expect(bo.locator("main.table")).to_have_attribute("data-seat", "0")
        # Both accepted: the new table begins (the deal is drawn).
        for page in (ann, bo):
            page.wait_for_function(
                "() => Number(document.querySelector('main.table')?.dataset.version) > 0"
            )
        assert ann.url.split("#")[0] == bo.url.split("#")[0]
        bo.screenshot(path=str(shots / "again-begun.png"))
        for page in (ann, bo):
            assert page_errors(page) == []
    finally:
        for c in contexts:
            c.close()


def test_an_account_invited_by_name_finds_the_table(
    browser: Browser, server: Server, shots: Path
) -> None:
    contexts = [browser.new_context(viewport=VIEWPORT, locale="en-GB") for _ in range(2)]
    try:
        ann, bodil = (new_person(c) for c in contexts)
        suffix = str(int(time.time() * 1000) % 100000)
        sign_in(ann, server.url, f"Inviter{suffix}", create=True)
        sign_in(bodil, server.url, f"Bodil{suffix}", create=True)
        ann.get_by_test_id("choose-luxor2001").click()
        ann.locator("#opt-players").select_option("2")
        ann.get_by_test_id("seat-type-1").select_option("invite")
        ann.get_by_test_id("seat-invite-1").fill(f"bodil{suffix}")
        ann.get_by_test_id("create").click()
        ann.get_by_test_id("open-table").click()
        expect(ann.locator("main.table")).to_have_attribute("data-version", "0")
        expect(ann.locator("aside.side")).to_contain_text(f"Bodil{suffix}")
        # Bodil's page counts the table as waiting for her, and "my tables" lists it.
        expect(bodil.get_by_test_id("lobby-turns")).to_contain_text("1 table", timeout=60_000)
        mine = bodil.locator("section.mine")
        expect(mine.get_by_test_id("table-seats")).to_contain_text(f"Inviter{suffix}")
        bodil.locator("section.mine").screenshot(path=str(shots / "invited-my-tables.png"))
        mine.get_by_role("button", name="Open").click()
        expect(bodil.locator("main.table")).to_have_attribute("data-seat", "1")
        # She sat down: the match begins.
        ann.wait_for_function(
            "() => Number(document.querySelector('main.table')?.dataset.version) > 0"
        )
        for page in (ann, bodil):
            assert page_errors(page) == []
    finally:
        for c in contexts:
            c.close()
