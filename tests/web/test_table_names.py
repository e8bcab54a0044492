"""People's names everywhere at the table, in a real headless Chromium.

Two accounts, Ilse and Oskar, play a horus table to its end (each leaves the pyramid as
soon as it may: the shortest match). Each sees the other by name in the players' panels,
in the log ("Ilse moved…", in English and in Dutch), in the prompt that waits for the
other, and in the results; never "Player 1" or "Player 2". The replay names them too.
(The server's side, and "my tables" on each side: tests/web/test_names.py.)
"""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.clients import Server
from tests.web.people import (
    VIEWPORT,
    create_table,
    finished,
    new_person,
    page_errors,
    take_turn,
    wait_for_turn_or_end,
)
from tests.web.test_accounts import sign_in
from tests.web.test_names import ISOLATES

NAMES = ("Ilse", "Oskar")


def text(page: Page, testid: str) -> str:
    return page.get_by_test_id(testid).inner_text().translate(ISOLATES)


def leave_or_move(page: Page, rng: random.Random) -> None:
    """Leave the pyramid when the prompt offers it, else a random move on the board."""
    leave = page.locator("[data-testid=prompt] button[data-action]", has_text="Leave the pyramid")
    if leave.count():
        before = page.locator("main.table").get_attribute("data-version")
        leave.first.click()
        page.wait_for_function(
            "v => document.querySelector('main.table').dataset.version !== v", arg=before
        )
        return
    take_turn(page, rng)


def test_two_accounts_are_named_in_panels_log_prompt_and_results(
    browser: Browser, server: Server, shots: Path
) -> None:
    rng = random.Random(12)
    contexts = [browser.new_context(viewport=VIEWPORT, locale="en-GB") for _ in range(2)]
    try:
        ann, bo = (new_person(c, ask="never") for c in contexts)
        sign_in(ann, server.url, NAMES[0], create=True)
        sign_in(bo, server.url, NAMES[1], create=True)
        table = create_table(ann, server.url, "horus", ["me", "link"])
        bo.goto(table.invites[1])
        expect(bo.locator("main.table")).to_have_attribute("data-seat", "1")
        pages = (ann, bo)
        # The panels, on both sides: each seat by its person's name.
        for page in pages:
            expect(page.get_by_test_id("panel-0").locator(".name")).to_contain_text(NAMES[0])
            expect(page.get_by_test_id("panel-1").locator(".name")).to_contain_text(NAMES[1])
        waited = False
        for _ in range(400):
            page = wait_for_turn_or_end(list(pages))
            if page is None:
                break
            other = bo if page is ann else ann
            # The other side's prompt says whom it waits for, by name.
            if not waited and not finished(other):
                prompt = text(other, "prompt")
                if "Waiting for" in prompt:
                    assert NAMES[pages.index(page)] in prompt, prompt
                    waited = True
            leave_or_move(page, rng)
        else:
            raise AssertionError("the match did not end")
        assert waited, "no prompt waited for the other player"
        for me, page in enumerate(pages):
            other = NAMES[1 - me]
            # The log: the other's moves under their name, the reader's own as "You".
            log = text(page, "log")
            assert other in log and "Player 1" not in log and "Player 2" not in log, log
            # The results name both.
            expect(page.get_by_test_id("summary")).to_be_visible()
            summary = text(page, "summary")
            assert other in summary and "Player" not in summary, summary
        ann.screenshot(path=str(shots / "names-results-first.png"), full_page=True)
        # In Dutch the log still names them (the page's templates write the seats).
        bo.get_by_test_id("lang").select_option("nl")
        expect(bo.get_by_test_id("log")).to_contain_text(NAMES[0])
        assert "Speler" not in text(bo, "log")
        bo.screenshot(path=str(shots / "names-results-second-nl.png"), full_page=True)
        # The replay: the panels and the log by name.
        bo.get_by_test_id("replay").click()
        expect(bo.get_by_test_id("panel-0")).to_contain_text(NAMES[0])
        expect(bo.get_by_test_id("panel-1")).to_contain_text(NAMES[1])
        bo.get_by_test_id("turn-forward").click()
        bo.get_by_test_id("turn-forward").click()
        expect(bo.get_by_test_id("log")).to_contain_text(NAMES[0])
        for page in pages:
            assert page_errors(page) == []
    finally:
        for c in contexts:
            c.close()
