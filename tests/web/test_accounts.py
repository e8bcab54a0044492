"""Accounts in a real headless Chromium, as people use them.

Two people make accounts from the header, play a luxor2001 table by clicking; the
friend's seat, taken while signed in, is then refused to a guest who opens the same
link; the friend signs in on another browser, finds the table among their tables and
plays on; their profile is one click away. A guest without an account still plays by
link (tests/web/test_table.py plays whole games so).
"""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.clients import Server
from tests.web.people import (
    VIEWPORT,
    create_table,
    new_person,
    page_errors,
    take_turn,
    wait_for_turn_or_end,
)

PASSWORD = "sphinx riddle"


def sign_in(page: Page, base: str, name: str, create: bool) -> None:
    page.goto(base + "/")
    page.get_by_test_id("account-open").click()
    form = page.get_by_test_id("account-form")
    form.locator("input").nth(0).fill(name)
    form.locator("input").nth(1).fill(PASSWORD)
    if create:
        form.get_by_role("button", name="Make an account").click()
    else:
        form.get_by_role("button", name="Sign in").click()
    expect(page.get_by_test_id("account-name")).to_have_text(name)


def test_two_accounts_play_and_the_seats_follow_them(
    browser: Browser, server: Server, shots: Path
) -> None:
    rng = random.Random(19)
    contexts = [browser.new_context(viewport=VIEWPORT, locale="en-GB") for _ in range(4)]
    try:
        ann, bo, guest, bo_elsewhere = (new_person(c) for c in contexts)
        sign_in(ann, server.url, "Ann", create=True)
        table = create_table(ann, server.url, "luxor2001", ["me", "link"])
        sign_in(bo, server.url, "Bo", create=True)
        bo.goto(table.invites[1])
        expect(bo.locator("main.table")).to_have_attribute("data-seat", "1")
        for _ in range(4):
            page = wait_for_turn_or_end([ann, bo])
            assert page is not None
            take_turn(page, rng)

        # Bo's seat is Bo's now: the link alone no longer opens it.
        guest.goto(table.invites[1])
        expect(guest.get_by_role("alert")).to_contain_text("belongs to a player's account")
        guest.screenshot(path=str(shots / "accounts-claimed-seat-refused.png"))

        # Ann made the table, but Bo's seat is Bo's: her "New link" for it is refused, says
        # why, and goes.
        ann.get_by_test_id("newlink-1").click()
        expect(ann.get_by_role("alert")).to_contain_text("Player 2's seat belongs to a player's")
        expect(ann.get_by_test_id("newlink-1")).to_have_count(0)
        ann.screenshot(path=str(shots / "accounts-claimed-seat-creator.png"))

        # Another browser: Bo signs in, finds the table and plays on.
        sign_in(bo_elsewhere, server.url, "Bo", create=False)
        mine = bo_elsewhere.locator("section.mine")
        expect(mine.get_by_role("button", name="Open")).to_have_count(1)
        bo_elsewhere.screenshot(path=str(shots / "accounts-my-tables.png"))
        mine.get_by_role("button", name="Open").click()
        expect(bo_elsewhere.locator("main.table")).to_have_attribute("data-seat", "1")
        page = wait_for_turn_or_end([ann, bo_elsewhere])
        assert page is not None
        take_turn(page, rng)

        bo_elsewhere.get_by_test_id("account-name").click()
        expect(bo_elsewhere.get_by_test_id("profile")).to_contain_text("Bo")
        expect(bo_elsewhere.get_by_role("heading", name="Change your password")).to_be_visible()
        bo_elsewhere.screenshot(path=str(shots / "accounts-profile.png"))
        for p in (ann, bo, guest, bo_elsewhere):
            assert page_errors(p) == []
    finally:
        for c in contexts:
            c.close()
