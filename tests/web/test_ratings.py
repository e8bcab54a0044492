"""A rated match in a real headless Chromium: two accounts set it up and play it by
clicking; once it is over (each account hands its seat to a bot with the creator token to
end it, and the creator sees the end), the end-of-game summary shows both rating changes, the
game's leaderboard shows the same new ratings, and the profile plots the history.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.clients import Server
from tests.web.people import VIEWPORT, new_person, page_errors, take_turn, wait_for_turn_or_end
from tests.web.test_accounts import sign_in


def test_a_rated_match_shows_ratings_in_the_summary_and_the_leaderboard(
    browser: Browser, server: Server, shots: Path
) -> None:
    rng = random.Random(5)
    contexts = [browser.new_context(viewport=VIEWPORT, locale="en-GB") for _ in range(2)]
    try:
        ann, bo = (new_person(c) for c in contexts)
        sign_in(ann, server.url, "Rhea", create=True)
        sign_in(bo, server.url, "Sobek", create=True)
        ann.get_by_test_id("choose-luxor2001").click()
        ann.locator("#opt-players").select_option("2")
        ann.get_by_test_id("seat-type-0").select_option("me")
        ann.get_by_test_id("seat-type-1").select_option("link")
        ann.get_by_test_id("rated").check()
        # A rated table has a clock: "rated" picks turn-based, and "no clock" is not offered.
        expect(ann.get_by_test_id("clock-mode")).to_have_value("turn")
        expect(ann.locator("#clock-mode option[value='untimed']")).to_be_disabled()
        ann.get_by_test_id("create").click()
        invite = ann.get_by_test_id("invite-1").input_value()
        ann.get_by_test_id("open-table").click()
        ann.wait_for_selector("main.table")
        table_id = re.search(r"/t/([^/#?]+)", ann.url).group(1)  # type: ignore[union-attr]
        bo.goto(invite)
        expect(bo.locator("main.table")).to_have_attribute("data-seat", "1")
        for _ in range(3):
            page = wait_for_turn_or_end([ann, bo])
            assert page is not None
            take_turn(page, rng)

        creator = ann.evaluate("localStorage.getItem('necropolis.creator')")
        # Each seat by the account that holds it (its browser's session, with the creator
        # token): the creator alone may not hand another account's seat to a bot.
        for seat, holder in ((0, ann), (1, bo)):
            r = holder.request.post(
                f"{server.url}/api/tables/{table_id}/seats/{seat}/bot",
                data={"level": "easy"},
                headers={"Authorization": f"Bearer {creator}", "X-Necropolis": "1"},
            )
            assert r.status == 200, r.text()
        afters: dict[str, str] = {}
        expect(ann.locator("main.table.finished")).to_have_count(1, timeout=300_000)
        change = ann.get_by_test_id("rating-change")
        expect(change.locator("li")).to_have_count(2)
        for who, seat in (("Rhea", 0), ("Sobek", 1)):
            row = change.locator(f"li[data-seat='{seat}']")
            expect(row).to_contain_text(who)
            afters[who] = row.locator("strong").inner_text()
        change.scroll_into_view_if_needed()
        ann.screenshot(path=str(shots / "ratings-summary.png"))
        # Two new players: the winner above 25 - 3 * 25/3 = 0, the other below (or a tie).
        assert {afters["Rhea"], afters["Sobek"]} != {"0.0"}

        ann.goto(server.url + "/")
        ann.get_by_test_id("leaderboard-luxor2001").click()
        board = ann.get_by_test_id("leaderboard")
        expect(board.locator("tbody tr")).to_have_count(2)
        for who, after in afters.items():
            expect(board.locator("tr", has_text=who)).to_contain_text(after)
        ann.screenshot(path=str(shots / "ratings-leaderboard.png"))
        board.get_by_role("link", name="Sobek").click()
        expect(ann.get_by_test_id("rating-history")).to_contain_text(afters["Sobek"])
        # The start (a new player's 0) and the one match.
        expect(ann.get_by_test_id("rating-history").locator("circle")).to_have_count(2)
        ann.screenshot(path=str(shots / "ratings-profile.png"))
        for p in (ann, bo):
            assert page_errors(p) == []
    finally:
        for c in contexts:
            c.close()
