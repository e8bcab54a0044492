"""The log of a page opened anew: its newest entries, and the earlier ones on demand.

A table of bots plays a long match of horus to its end; a spectator then opens it in a
real headless Chromium. The page holds only the newest entries (its first state is small,
issue #17) and shows "Earlier…" above them. Scrolling the log up to the top asks for the
page before them, which appears above without moving what was in sight; the button asks
for the rest, until the first entry of the match is shown and the button is gone. The
entries the page then shows are those of the whole match, as the replay gives the
spectator's log. The button speaks the reader's language (Dutch here).
"""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.clients import Server
from tests.web.people import VIEWPORT, WAIT, load_whole_log, log_indices, new_person, page_errors


def test_scrolling_up_and_earlier_show_the_log_back_to_its_first_entry(
    browser: Browser, server: Server
) -> None:
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx)
        # Each table draws its own deal, and now and then a match ends within a hundred
        # log entries (every adventurer out or shut in early): such a table is played again.
        for _ in range(5):
            created = server.create_table("horus", ["bot:easy"] * 3)
            table_id, spectator = created["table_id"], created["spectator_token"]
            page.goto(f"{server.url}/t/{table_id}#{spectator}")
            # The bots play the match out; opened again at its end, the page is opened anew.
            expect(page.locator("main.table.finished")).to_be_visible(timeout=4 * WAIT)
            page.reload()
            expect(page.locator("main.table.finished")).to_be_visible()
            steps = int(page.locator("main.table").get_attribute("data-version") or 0)
            replay = f"/api/tables/{table_id}/replay?step={steps}"
            whole = server.get(replay, spectator).json()["log"]
            if len(whole) > 100:
                break
        assert len(whole) > 100, "a long match, whose log is longer than a first state holds"

        first = log_indices(page)
        earlier = page.get_by_test_id("log-earlier")
        expect(earlier).to_have_text("Earlier…")
        assert first and first[0] > 0 and len(first) <= 40, first
        assert first == [e["index"] for e in whole][-len(first) :]

        # Scrolled to the top, the log brings the page before; what was at the top stays
        # in sight (the box is not thrown to either end).
        log = page.get_by_test_id("log")
        log.evaluate("el => el.scrollTo({top: 0})")
        page.wait_for_function(
            "n => document.querySelectorAll('[data-testid=log] li[data-index]').length > n",
            arg=len(first),
            timeout=WAIT,
        )
        more = log_indices(page)
        assert more[-len(first) :] == first and more[0] < first[0]
        top = page.locator(f"[data-testid=log] li[data-index='{first[0]}']").first
        box, seen = log.bounding_box(), top.bounding_box()
        assert box and seen and box["y"] <= seen["y"] < box["y"] + box["height"], (box, seen)

        # The button brings the rest, page by page, back to the first entry.
        load_whole_log(page)
        shown = log_indices(page)
        assert shown[0] == 0
        assert shown == [e["index"] for e in whole]
        assert page_errors(page) == []
    finally:
        ctx.close()

    # In Dutch, the button says so in Dutch.
    dutch = browser.new_context(viewport=VIEWPORT, locale="nl-NL")
    try:
        page = new_person(dutch)
        page.goto(f"{server.url}/t/{table_id}#{spectator}")
        expect(page.get_by_test_id("log-earlier")).to_have_text("Eerder…")
    finally:
        dutch.close()
