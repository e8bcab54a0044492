"""Your-turn notices in a real headless Chromium, as two people with accounts see them.

Bo allows notifications on his profile (the browser asks only when he clicks: never
when a page loads) and turns the sound on; Ann and Bo play a luxor2001 table; while Bo's
page (the lobby) is in the background, Ann ends her turn, and Bo's page shows "your turn
in 1 table" in the header and the lobby, marks the table, puts the count in the tab's
title, sounds the tone (Web Audio oscillators started) and shows a notification (the page's
``Notification`` constructor observed). Bo plays; the count goes. The same pages in Dutch
and Italian have no English left.

The page cannot be put in the background in a headless browser, so a script in the page
makes ``document.visibilityState`` say "hidden" when the test says so; it also wraps
``Notification`` and ``AudioContext.createOscillator`` to count what the page makes.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.clients import Server
from tests.web.people import (
    VIEWPORT,
    WAIT,
    create_table,
    my_turn,
    new_person,
    page_errors,
    take_turn,
    wait_for_turn_or_end,
)
from tests.web.test_accounts import PASSWORD, sign_in
from tests.web.test_languages import Leftovers, look

SPY = """(() => {
  window.__notices = [];
  window.__asked = 0;
  window.__tones = 0;
  window.__hidden = false;
  const Real = window.Notification;
  if (Real) {
    class Spy extends Real {
      constructor(title, options) {
        const o = options || {};
        window.__notices.push({ title, body: o.body, tag: o.tag });
        super(title, options);
      }
    }
    Object.defineProperty(Spy, 'permission', { get: () => Real.permission });
    Spy.requestPermission = (...args) => {
      window.__asked += 1;
      return Real.requestPermission(...args);
    };
    window.Notification = Spy;
  }
  Object.defineProperty(Document.prototype, 'visibilityState', {
    configurable: true, get() { return window.__hidden ? 'hidden' : 'visible'; } });
  Object.defineProperty(Document.prototype, 'hidden', {
    configurable: true, get() { return window.__hidden; } });
  Document.prototype.hasFocus = function () { return !window.__hidden; };
  const create = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    window.__tones += 1;
    return create.call(this);
  };
})();"""


def count_of(page: Page, name: str) -> int:
    return int(page.evaluate(f"window.{name}"))


def play_until_bo_waits(ann: Page, bo_lobby: Page, rng: random.Random) -> None:
    """Ann plays her turns until Bo's lobby says it is his turn."""
    deadline = time.monotonic() + WAIT / 1000 * 3
    while not bo_lobby.get_by_test_id("turn-count").count():
        assert time.monotonic() < deadline, "Bo's turn never came"
        if my_turn(ann):
            take_turn(ann, rng)
        else:
            ann.wait_for_timeout(200)


def sign_in_as(page: Page, base: str, name: str) -> None:
    """Sign in from the header in whatever language the page speaks."""
    page.goto(base + "/")
    page.get_by_test_id("account-open").click()
    form = page.get_by_test_id("account-form")
    form.locator("input").nth(0).fill(name)
    form.locator("input").nth(1).fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.get_by_test_id("account-name")).to_have_text(name)


def test_the_other_page_hears_it_is_their_turn(
    browser: Browser, server: Server, shots: Path
) -> None:
    rng = random.Random(23)
    ann_context = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    bo_context = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    bo_context.add_init_script(SPY)
    contexts = [ann_context, bo_context]
    try:
        ann, bo = new_person(ann_context), new_person(bo_context)
        sign_in(ann, server.url, "Ann2", create=True)
        sign_in(bo, server.url, "Bo2", create=True)

        # Bo's profile: nothing was asked on load; he asks for notifications by a click.
        bo.get_by_test_id("account-name").click()
        settings = bo.get_by_test_id("notice-settings")
        expect(settings.get_by_test_id("notice-ask")).to_be_visible()
        assert count_of(bo, "__asked") == 0
        bo_context.grant_permissions(["notifications"], origin=server.url)
        settings.get_by_test_id("notice-ask").click()
        expect(settings.get_by_test_id("notice-permission")).to_have_text(
            "Notifications are on in this browser."
        )
        assert count_of(bo, "__asked") == 1
        settings.get_by_test_id("notice-sound").check()
        bo.wait_for_function("window.__tones >= 2")  # the tone, as he chose it
        settings.get_by_test_id("notice-email").fill("bo@example.test")
        settings.get_by_test_id("notice-save").click()
        expect(settings.get_by_role("status")).to_have_text("Saved.")

        table = create_table(ann, server.url, "luxor2001", ["me", "link"])
        bo.goto(table.invites[1])
        expect(bo.locator("main.table")).to_have_attribute("data-seat", "1")
        # Whoever begins: Bo plays until it is Ann's turn.
        while (page := wait_for_turn_or_end([ann, bo])) is bo:
            take_turn(bo, rng)
        assert page is ann

        # Bo waits in the lobby, the page in the background.
        bo.goto(server.url + "/")
        lobby_turns = bo.get_by_test_id("lobby-turns")
        expect(lobby_turns).to_have_text("Your turn in 0 tables")
        expect(bo.get_by_test_id("turn-count")).to_have_count(0)
        assert bo.title() == "necropolis"
        assert count_of(bo, "__asked") == 0  # a page load never asks
        bo.evaluate("window.__hidden = true; window.__tones = 0")

        play_until_bo_waits(ann, bo, rng)
        expect(bo.get_by_test_id("turn-count")).to_have_text(
            "Your turn in 1 table", use_inner_text=True
        )
        expect(lobby_turns).to_have_text("Your turn in 1 table")
        expect(bo).to_have_title("(1) necropolis")
        expect(bo.locator("section.mine [data-testid=your-turn]")).to_have_count(1)
        bo.wait_for_function("window.__notices.length === 1")
        notice = bo.evaluate("window.__notices[0]")
        assert notice["title"] == "Your turn · necropolis"
        assert notice["body"] == "It is your turn at Luxor (Gunter Baars, Ravensburger 2001)."
        assert table.table_id in notice["tag"]
        assert count_of(bo, "__tones") >= 2
        bo.screenshot(path=str(shots / "notices-your-turn.png"))

        # The same, in Dutch and in Italian, with no English left.
        for lang, tag in (("nl", "nl-NL"), ("it", "it-IT")):
            context = browser.new_context(viewport=VIEWPORT, locale=tag)
            contexts.append(context)
            page = new_person(context)
            sign_in_as(page, server.url, "Bo2")
            expect(page.get_by_test_id("turn-count")).to_be_visible()
            expect(page.locator("section.mine [data-testid=your-turn]")).to_have_count(1)
            leftovers = Leftovers(lang)
            look(page, leftovers, f"{lang} lobby, Bo's turn")
            page.get_by_test_id("account-name").click()
            expect(page.get_by_test_id("notice-settings")).to_be_visible()
            look(page, leftovers, f"{lang} profile and notices")
            page.screenshot(path=str(shots / f"notices-settings-{lang}.png"))
            assert leftovers.found == {}, leftovers.found
            assert page_errors(page) == []

        # Bo comes back, opens the table from the lobby and plays: the count goes.
        bo.evaluate("window.__hidden = false")
        bo.locator("section.mine").get_by_role("button", name="Open").first.click()
        expect(bo.locator("main.table")).to_have_attribute("data-seat", "1")
        while wait_for_turn_or_end([ann, bo]) is bo:
            take_turn(bo, rng)
        expect(bo.get_by_test_id("turn-count")).to_have_count(0)
        # The count left the title; the table still names its game there.
        expect(bo).to_have_title("Luxor (Gunter Baars, Ravensburger 2001) · necropolis")
        for p in (ann, bo):
            assert page_errors(p) == []
    finally:
        for c in contexts:
            c.close()
