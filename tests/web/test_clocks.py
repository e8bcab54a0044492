"""Timed tables in a real headless Chromium, as people use them.

Two people with accounts play a turn-based luxor2001 table by clicking, across a restart
of the server; one lets a (short) deadline pass: a bot takes the seat, on both pages, and
plays it until its person takes it back with a click and plays on. In Dutch and Italian:
the lobby's clock settings, a real-time table whose clocks count down, a seat taken over
and taken back, and a match abandoned for time, with no English left.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.clients import Server, start_server
from tests.web.people import (
    VIEWPORT,
    WAIT,
    new_person,
    page_errors,
    take_turn,
    wait_for_turn_or_end,
)
from tests.web.test_accounts import sign_in
from tests.web.test_languages import Leftovers, look

#: Seconds a turn may take at the two players' table: enough to click one, short enough
#: to wait for one to pass.
TURN = 40

CREATE = """async (body) => {
    const r = await fetch('/api/tables', {method: 'POST', body: JSON.stringify(body),
        headers: {'Content-Type': 'application/json', 'X-Necropolis': '1'}});
    return await r.json();
}"""


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test's own, which it restarts."""
    from tests.web.conftest import _ensure_built

    _ensure_built()
    server = start_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", bot_workers=1)
    try:
        yield server
    finally:
        server.stop()


def create_by_api(page: Page, game: str, seats: list[str], clock: dict[str, Any]) -> Any:
    """Create a table from the page itself (its cookie: a signed-in creator's seat is theirs),
    with a clock the lobby does not offer (seconds long, for a test)."""
    body: dict[str, Any] = {"game": game, "seats": [], "clock": clock}
    for seat in seats:
        kind, _, level = seat.partition(":")
        body["seats"].append({"type": kind, **({"level": level} if level else {})})
    created = page.evaluate(CREATE, body)
    assert "table_id" in created, created
    return created


def seat_of(page: Page) -> int:
    return int(page.locator("main.table").get_attribute("data-seat") or -1)


def left(page: Page, seat: int) -> int:
    return int(page.get_by_test_id(f"clock-{seat}").get_attribute("data-left") or -1)


def test_two_accounts_play_a_turn_based_table_across_a_restart_and_a_missed_deadline(
    browser: Browser, own_server: Server, shots: Path
) -> None:
    server = own_server
    rng = random.Random(6)
    contexts = [browser.new_context(viewport=VIEWPORT, locale="en-GB") for _ in range(2)]
    try:
        ann, bo = (new_person(c) for c in contexts)
        sign_in(ann, server.url, "Ann", create=True)
        sign_in(bo, server.url, "Bo", create=True)
        created = create_by_api(
            ann, "luxor2001", ["me", "link"], {"mode": "turn", "turn": TURN, "rule": "bot"}
        )
        table_id = created["table_id"]
        ann.goto(f"{server.url}/t/{table_id}#{created['seats'][0]['token']}")
        bo.goto(f"{server.url}/t/{table_id}#{created['seats'][1]['token']}")
        for page, seat in ((ann, 0), (bo, 1)):
            expect(page.locator("main.table")).to_have_attribute("data-seat", str(seat))
            expect(page.get_by_test_id("clock-summary")).to_contain_text("0:40")
        pages = {0: ann, 1: bo}

        # The player to act has their turn's time counting down, on both pages.
        page = wait_for_turn_or_end([ann, bo])
        assert page is not None
        acting = seat_of(page)
        other = pages[1 - acting]
        expect(other.get_by_test_id(f"clock-{acting}")).to_be_visible()
        first = left(other, acting)
        assert 0 < first <= TURN
        other.wait_for_function(
            "([s, v]) => Number(document.querySelector(`[data-testid=clock-${s}]`)"
            "?.dataset.left) < v",
            arg=[acting, first],
        )
        ann.screenshot(path=str(shots / "clocks-turn-based.png"))
        for _ in range(3):
            page = wait_for_turn_or_end([ann, bo])
            assert page is not None
            take_turn(page, rng)

        # The server restarts; the pages come back to the table by themselves and play on.
        server.restart()
        for _ in range(2):
            page = wait_for_turn_or_end([ann, bo])
            assert page is not None
            take_turn(page, rng)

        # A player lets the deadline pass: a bot takes the seat, on both pages, and plays.
        page = wait_for_turn_or_end([ann, bo])
        assert page is not None
        late = seat_of(page)
        friend = pages[1 - late]
        before = int(page.locator("main.table").get_attribute("data-version") or 0)
        expect(page.get_by_test_id("standin-mine")).to_be_visible(timeout=(TURN + 30) * 1000)
        expect(friend.get_by_test_id(f"standin-{late}")).to_be_visible()
        expect(page.get_by_test_id(f"clock-{late}")).to_have_count(0)
        page.screenshot(path=str(shots / "clocks-bot-stands-in.png"))
        # The bot plays the late player's turn; the friend plays on.
        friend_turn = wait_for_turn_or_end([friend])
        assert friend_turn is friend
        assert int(friend.locator("main.table").get_attribute("data-version") or 0) > before
        take_turn(friend, rng)
        # Back, with a click; and on their next turn they play it themselves.
        page.get_by_test_id("take-back").click()
        expect(page.get_by_test_id("standin-mine")).to_have_count(0)
        expect(friend.get_by_test_id(f"standin-{late}")).to_have_count(0)
        for _ in range(2):
            turn = wait_for_turn_or_end([ann, bo])
            assert turn is not None
            take_turn(turn, rng)
        expect(page.get_by_test_id(f"standin-{late}")).to_have_count(0)
        page.screenshot(path=str(shots / "clocks-seat-taken-back.png"))
        for p in (ann, bo):
            assert page_errors(p) == []
    finally:
        for c in contexts:
            c.close()


@pytest.mark.parametrize("lang", ["nl", "it"])
def test_clocks_speak_the_language(
    browser: Browser, server: Server, shots: Path, lang: str
) -> None:
    leftovers = Leftovers(lang)
    ctx = browser.new_context(viewport=VIEWPORT, locale=lang)
    try:
        page = new_person(ctx)
        page.goto(server.url + "/")
        # The set-up's clock: each mode, each rule (skipping only for horus).
        page.get_by_test_id("choose-horus").click()
        mode = page.get_by_test_id("clock-mode")
        mode.select_option("turn")
        rules = page.get_by_test_id("clock-rule").locator("option")
        expect(rules).to_have_count(3)
        page.get_by_test_id("clock-rule").select_option("skip")
        look(page, leftovers, "horus clock")
        page.get_by_test_id("choose-luxor2001").click()
        page.get_by_test_id("clock-mode").select_option("turn")
        expect(page.get_by_test_id("clock-rule").locator("option")).to_have_count(2)
        page.get_by_test_id("clock-rule").select_option("abandon")
        look(page, leftovers, "luxor2001 turn clock")
        page.get_by_test_id("clock-mode").select_option("realtime")
        page.get_by_test_id("clock-base").select_option("5")
        page.get_by_test_id("clock-increment").select_option("10")
        page.get_by_test_id("clock-rule").select_option("bot")
        look(page, leftovers, "luxor2001 real-time clock")
        page.get_by_test_id("seat-type-1").select_option("bot")
        page.get_by_test_id("create").click()
        page.get_by_test_id("open-table").click()
        expect(page.locator("main.table")).to_have_attribute("data-seat", "0")
        # Its clock counts down from five minutes while the game waits for this player.
        clock = page.get_by_test_id("clock-0")
        expect(clock).to_have_text(re.compile(r"^[45]:\d\d$"))
        start = left(page, 0)
        page.wait_for_function(
            "v => Number(document.querySelector('[data-testid=clock-0]').dataset.left) < v",
            arg=start,
        )
        look(page, leftovers, "real-time table")
        page.screenshot(path=str(shots / f"clocks-{lang}-real-time.png"))
        # Back in the lobby, the table is among the player's own, with its time limit.
        page.goto(server.url + "/")
        deadline = page.get_by_test_id("deadline")
        expect(deadline).to_have_count(1, timeout=WAIT)
        said = {"nl": "volgende tijdslimiet", "it": "prossima scadenza"}[lang]
        expect(deadline).to_contain_text(re.compile(said, re.IGNORECASE))
        look(page, leftovers, "my tables, with a time limit")
        page.screenshot(path=str(shots / f"clocks-{lang}-my-tables.png"))

        # Out of time with a bot to stand in: the notice, the button to take the seat back
        # (the other seat a friend's who never comes, so that the match waits for them).
        created = create_by_api(
            page, "luxor2001", ["me", "link"], {"mode": "turn", "turn": 8, "rule": "bot"}
        )
        page.goto(f"{server.url}/t/{created['table_id']}#{created['seats'][0]['token']}")
        expect(page.get_by_test_id("standin-mine")).to_be_visible(timeout=WAIT)
        look(page, leftovers, "seat stood in for")
        page.screenshot(path=str(shots / f"clocks-{lang}-stood-in.png"))
        page.get_by_test_id("take-back").click()
        expect(page.get_by_test_id("standin-0")).to_have_count(0)

        # Out of time where the match ends: it says who ran out and how it is ranked.
        created = create_by_api(
            page,
            "luxor2001",
            ["me", "bot:easy"],
            {"mode": "realtime", "base": 2, "rule": "abandon"},
        )
        page.goto(f"{server.url}/t/{created['table_id']}#{created['seats'][0]['token']}")
        expect(page.get_by_test_id("abandoned")).to_be_visible(timeout=WAIT)
        look(page, leftovers, "abandoned")
        page.screenshot(path=str(shots / f"clocks-{lang}-abandoned.png"))
        assert not leftovers.found, leftovers.found
        assert page_errors(page) == []
    finally:
        ctx.close()
