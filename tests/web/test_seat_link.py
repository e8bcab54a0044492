"""A seat link is a key, in a real headless Chromium: a seat open in two browsers says so
in both, the creator gives a friend's seat a new link which ends the old one (in each of
the page's languages), and names arrive on the page without control characters, isolated
from the text around them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.clients import Server
from tests.web.people import VIEWPORT, create_table, new_person, page_errors

#: What the page says, in each of its languages, when the seat is open elsewhere and when
#: its link was replaced (web/src/i18n/*.json).
ELSEWHERE = {
    "en": "also open in another window",
    "nl": "ook open in een ander venster",
    "it": "aperto anche in un'altra finestra",
}
REPLACED = {
    "en": "gave this seat a new link",
    "nl": "gaf deze plaats een nieuwe link",
    "it": "ha dato a questo posto un nuovo link",
}


@pytest.mark.parametrize("lang", ["en", "nl", "it"])
def test_a_seat_open_twice_says_so_and_a_new_link_ends_the_old(
    browser: Browser, server: Server, shots: Path, lang: str
) -> None:
    contexts = [
        browser.new_context(
            viewport=VIEWPORT, locale={"en": "en-GB", "nl": "nl-NL", "it": "it-IT"}[lang]
        )
        for _ in range(3)
    ]
    try:
        ann, bo, bo_again = (new_person(c) for c in contexts)
        table = create_table(ann, server.url, "luxor2001", ["me", "link", "bot:easy"])
        bo.goto(table.invites[1])
        expect(bo.locator("main.table")).to_have_attribute("data-seat", "1")
        expect(bo.get_by_test_id("elsewhere")).to_have_count(0)
        # The same link in a second browser: both pages say the seat is open elsewhere.
        bo_again.goto(table.invites[1])
        expect(bo_again.locator("main.table")).to_have_attribute("data-seat", "1")
        for page in (bo, bo_again):
            expect(page.get_by_test_id("elsewhere")).to_contain_text(ELSEWHERE[lang])
        bo.screenshot(path=str(shots / f"seat-open-elsewhere-{lang}.png"))
        # One closes: the other's banner goes.
        bo_again.close()
        expect(bo.get_by_test_id("elsewhere")).to_have_count(0)
        # The creator gives the seat a new link: the old one's page is told it has ended.
        ann.get_by_test_id("newlink-1").click()
        renewed = ann.get_by_test_id("renewed-1")
        expect(renewed).to_be_visible()
        new_link = renewed.input_value()
        assert new_link != table.invites[1] and "#" in new_link
        ann.screenshot(path=str(shots / f"seat-new-link-{lang}.png"))
        expect(bo.get_by_role("alert")).to_contain_text(REPLACED[lang])
        bo.screenshot(path=str(shots / f"seat-link-replaced-{lang}.png"))
        # The old link opens nothing; the new one opens the seat, alone.
        stale = new_person(contexts[2])
        stale.goto(table.invites[1])
        expect(stale.locator("main.problem .error")).to_be_visible()
        stale.goto(new_link)
        expect(stale.locator("main.table")).to_have_attribute("data-seat", "1")
        expect(stale.get_by_test_id("elsewhere")).to_have_count(0)
        for page in (ann, bo, stale):
            assert page_errors(page) == []
    finally:
        for context in contexts:
            context.close()


def test_names_arrive_clean_and_isolated(browser: Browser, server: Server, shots: Path) -> None:
    body = {
        "game": "luxor2001",
        "seats": [
            {"type": "me", "name": "Ann"},
            {"type": "link", "name": "\u202eBo\x07 \u05d3\u05df"},
        ],
    }
    created = server.post("/api/tables", body).json()
    context = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(context)
        token = created["seats"][0]["token"]
        page.goto(f"{server.url}/t/{created['table_id']}#{token}")
        name = page.locator("[data-testid=panel-1] .name bdi")
        expect(name).to_have_count(1)
        text = name.inner_text()
        assert "\u202e" not in text and "\x07" not in text
        assert text.strip("\u2068\u2069") == "Bo \u05d3\u05df"
        page.screenshot(path=str(shots / "names-isolated.png"))
        assert page_errors(page) == []
    finally:
        context.close()
