"""The table's chat in a real headless Chromium, as people use it.

Two people chat at a luxor2001 table: what one writes, markup and control characters
included, reaches the other as the very text (no element made of it, the controls gone);
one mutes the other and shows them again; a spectator's line reaches the players; once
the match is over its replay shows the chat.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.clients import Server
from tests.web.people import VIEWPORT, create_table, new_person, page_errors

MARKUP = '<img src=x onerror="window.hacked=1"><b>bold</b> & <i>x</i>'


def write(page: Page, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()


def test_two_players_and_a_spectator_chat_as_text(
    browser: Browser, server: Server, shots: Path
) -> None:
    contexts = [browser.new_context(viewport=VIEWPORT, locale="en-GB") for _ in range(3)]
    try:
        ann, bo, watcher = (new_person(c) for c in contexts)
        table = create_table(ann, server.url, "luxor2001", ["me", "link"])
        bo.goto(table.invites[1])
        expect(bo.locator("main.table")).to_have_attribute("data-seat", "1")
        watcher.goto(table.spectator)
        expect(watcher.locator("main.table")).to_have_attribute("data-seat", "spectator")

        write(ann, MARKUP + "\u0007\u001b\u202e tail")
        cleaned = MARKUP + " tail"
        for page in (ann, bo, watcher):
            line = page.get_by_test_id("chat-lines").locator("li[data-seat='0'] .text")
            expect(line).to_have_text(cleaned)
            # Shown as text: no element was made of the markup, no script ran.
            assert page.get_by_test_id("chat-lines").locator("img, b, i").count() == 0
            assert page.evaluate("window.hacked") is None
        bo.screenshot(path=str(shots / "chat-markup-as-text.png"))

        write(watcher, "nice opening")
        expect(
            bo.get_by_test_id("chat-lines").locator("li[data-seat='spectator']")
        ).to_contain_text("nice opening")
        write(bo, "thanks")
        expect(ann.get_by_test_id("chat-lines").locator("li[data-seat='1']")).to_contain_text(
            "thanks"
        )

        # Bo mutes Ann: her lines go, a note says so; Bo shows them again.
        bo.get_by_role("button", name="Mute Player 1").first.click()
        expect(bo.get_by_test_id("chat-lines").locator("li[data-seat='0']")).to_have_count(0)
        expect(bo.get_by_test_id("chat")).to_contain_text("1 muted")
        bo.reload()
        expect(bo.get_by_test_id("chat-lines").locator("li[data-seat='1']")).to_have_count(1)
        expect(bo.get_by_test_id("chat-lines").locator("li[data-seat='0']")).to_have_count(0)
        bo.get_by_test_id("chat-unmute").click()
        expect(bo.get_by_test_id("chat-lines").locator("li[data-seat='0']")).to_have_count(1)

        # The match ends (both seats handed to bots by the creator); the replay has the chat.
        creator = ann.evaluate("localStorage.getItem('necropolis.creator')")
        auth = {"Authorization": f"Bearer {creator}"}
        for seat in (0, 1):
            r = httpx.post(
                f"{server.url}/api/tables/{table.table_id}/seats/{seat}/bot",
                json={"level": "easy"},
                headers=auth,
                timeout=60,
            )
            assert r.status_code == 200, r.text
        deadline = time.monotonic() + 300
        status_url = f"{server.url}/api/tables/{table.table_id}"
        while httpx.get(status_url, headers=auth, timeout=60).json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(1)
        watcher.goto(f"{server.url}/t/{table.table_id}?replay#{table.spectator.split('#')[1]}")
        lines = watcher.get_by_test_id("chat-lines")
        expect(lines.locator("li")).to_have_count(3)
        expect(lines.locator("li[data-seat='0'] .text")).to_have_text(cleaned)
        assert lines.get_by_role("button").count() == 0  # a replay's chat is read only
        watcher.screenshot(path=str(shots / "chat-in-replay.png"))
        for p in (ann, bo, watcher):
            assert page_errors(p) == []
    finally:
        for c in contexts:
            c.close()
