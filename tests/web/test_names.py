"""People's names in a real headless Chromium, as people see them.

Two accounts at one table see each other's names where the server supplies them (the
table's players, from the ``state`` message) and in "my tables" on each side, each seat by
its name and the reader's own marked; a bot is written by its level. A guest who opens a
friend's link is asked for a name in the header (nothing covers the table), sits down
under it, and the table's creator sees it; the guest's browser remembers it and sits
down under it at the next table by itself.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.clients import Server
from tests.web.people import VIEWPORT, create_table, new_person, page_errors
from tests.web.test_accounts import sign_in

#: Unicode's isolates, which the page puts around every name (bidi-safe text).
ISOLATES = str.maketrans("", "", "\u2068\u2069")


def seat_lines(page: Page) -> list[str]:
    """The seats of each table in the lobby's "my tables", as a person reads them."""
    lines = page.locator("section.mine [data-testid=table-seats]")
    expect(lines.first).to_be_visible()
    return [t.translate(ISOLATES) for t in lines.all_inner_texts()]


def test_two_accounts_see_each_others_names(browser: Browser, server: Server, shots: Path) -> None:
    contexts = [browser.new_context(viewport=VIEWPORT, locale="en-GB") for _ in range(2)]
    try:
        ann, bo = (new_person(c) for c in contexts)
        sign_in(ann, server.url, "Annika", create=True)
        sign_in(bo, server.url, "Bodil", create=True)
        table = create_table(ann, server.url, "luxor2001", ["me", "link", "bot:hard"])
        bo.goto(table.invites[1])
        expect(bo.locator("main.table")).to_have_attribute("data-seat", "1")
        # The table's players, as the server names them, on both sides.
        for page in (ann, bo):
            players = page.locator("aside.side")
            expect(players).to_contain_text("Annika")
            expect(players).to_contain_text("Bodil")
        ann.screenshot(path=str(shots / "names-table-creator.png"))
        # "My tables", each side: every seat by its name, the reader's own marked.
        ann.goto(server.url + "/")
        bo.goto(server.url + "/")
        assert seat_lines(ann) == ["Annika (you) · Bodil · Hard bot"]
        assert seat_lines(bo) == ["Annika · Bodil (you) · Hard bot"]
        ann.locator("section.mine").screenshot(path=str(shots / "names-my-tables-creator.png"))
        bo.locator("section.mine").screenshot(path=str(shots / "names-my-tables-invitee.png"))
        for page in (ann, bo):
            assert page_errors(page) == []
    finally:
        for c in contexts:
            c.close()


def test_a_guest_chooses_a_name_and_the_browser_remembers_it(
    browser: Browser, server: Server, shots: Path
) -> None:
    contexts = [browser.new_context(viewport=VIEWPORT, locale="en-GB") for _ in range(2)]
    try:
        host, guest = (new_person(c) for c in contexts)
        table = create_table(host, server.url, "luxor2001", ["me", "link"])
        guest.goto(table.invites[1])
        # Nothing stands in the way of the table: the header asks for a name.
        ask = guest.get_by_test_id("guest-name")
        expect(ask).to_have_text("Your name?")
        ask.click()
        guest.screenshot(path=str(shots / "names-guest-asked.png"))
        guest.get_by_test_id("guest-name-input").fill("Cyrus \u202eevil")
        guest.get_by_test_id("guest-name-save").click()
        expect(ask).to_contain_text("Cyrus")
        # The bidirectional override is gone: the name reads as typed, left to right.
        expect(host.locator("aside.side")).to_contain_text("Cyrus evil")
        expect(guest.locator("aside.side")).to_contain_text("Cyrus evil")
        # The guest's lobby lists the table by its seats' names.
        guest.goto(server.url + "/")
        assert seat_lines(guest) == ["Player 1 · Cyrus evil (you)"]
        # At the next friend's table the guest sits down under the same name, unasked.
        second = create_table(host, server.url, "horus", ["me", "link"])
        guest.goto(second.invites[1])
        # (the second table's panel names the guest: the host sees it)
        expect(host.locator("aside.side")).to_contain_text("Cyrus evil")
        expect(guest.get_by_test_id("guest-name")).not_to_have_text("Your name?")
        for page in (host, guest):
            assert page_errors(page) == []
    finally:
        for c in contexts:
            c.close()
