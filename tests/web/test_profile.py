"""A player's profile in a real headless Chromium: the past games, and the password box.

A signed-in player's match ends (its clock runs out under the rule that ends it); their
profile then lists it with its players, the player's place and the scores, and opens its
replay with one click; the password box has room inside its border.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.clients import Server
from tests.web.people import VIEWPORT, new_person, page_errors
from tests.web.test_accounts import sign_in


def test_the_profile_lists_past_games_and_opens_their_replay(
    browser: Browser, server: Server, shots: Path
) -> None:
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx)
        name = f"Past{int(time.time() * 1000) % 100000}"
        sign_in(page, server.url, name, create=True)
        # A table of hers made by the page's own request (its cookie: her seat is hers),
        # whose first player to act lets two seconds pass: the match is abandoned.
        made = page.request.post(
            f"{server.url}/api/tables",
            data={
                "game": "luxor2001",
                "seats": [{"type": "me"}, {"type": "bot", "level": "easy"}],
                "clock": {"mode": "turn", "turn": 2, "rule": "abandon"},
            },
            headers={"X-Necropolis": "1", "Origin": server.url},
        )
        assert made.ok, made.text()
        table_id = made.json()["table_id"]
        page.goto(f"{server.url}/p/{name}")
        past = page.locator(f"[data-testid=past-game][data-table='{table_id}']")
        deadline = time.monotonic() + 180
        while past.count() == 0:
            assert time.monotonic() < deadline, "the match never showed among the past games"
            time.sleep(1)
            page.reload()
        expect(past).to_contain_text("Luxor")
        # (the name isolated as text, bidi-safe, then the reader's own mark)
        expect(past).to_contain_text(re.compile(rf"{name}\u2069? \(you\)"))
        expect(past.get_by_test_id("past-result")).to_have_text("Place 2 of 2")
        form = page.locator("main.profile form").first
        # The password box's fields keep clear of its border.
        box, field = form.bounding_box(), form.locator("input").first.bounding_box()
        assert box is not None and field is not None
        assert field["x"] - box["x"] >= 8
        page.screenshot(path=str(shots / "profile-past-games.png"), full_page=True)
        past.get_by_role("button", name="Replay").click()
        page.wait_for_selector("main.replay")
        assert page_errors(page) == []
    finally:
        ctx.close()
