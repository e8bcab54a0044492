"""How a person uses the web table, in Playwright terms: create a table in the lobby, open
links, and take turns by clicking the board's highlighted targets (the prompt bar's
buttons when a decision has nothing on the board to click).

Every helper waits on what the page shows (the table's version, the prompt), never by
sleeping, and fails with what the page said when it waits too long.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import BrowserContext, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

#: Milliseconds to wait for the server and its bots (the machine may be loaded).
WAIT = 60_000

VIEWPORT = {"width": 1280, "height": 900}


def new_person(
    browser_context: BrowserContext, speed: str | None = "instant", ask: str | None = None
) -> Page:
    """A page that fails its test on any script error.

    Other seats' moves are shown at the pace ``speed`` ("normal", "fast", "instant"; None:
    the page's default), as if the person had chosen it in the table's settings. Tests
    of other things see them at once, so that a whole game stays quick to play; the tests
    of the pacing choose theirs. ``ask`` is the table's setting of the moves it asks about
    first ("forfeits", "turn", "never"; None: the page's default)."""
    page = browser_context.new_page()
    for key, value in (("speed", speed), ("ask", ask)):
        if value is not None:
            page.add_init_script(
                f"try {{ localStorage.setItem('necropolis.{key}', {value!r}); }} catch (e) {{}}"
            )
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def page_errors(page: Page) -> list[str]:
    return list(getattr(page, "errors", []))


@dataclass
class CreatedTable:
    table_id: str
    table_url: str
    invites: dict[int, str] = field(default_factory=dict)
    spectator: str = ""


def create_table(
    page: Page, base: str, game: str, seats: list[str], options: dict[str, object] | None = None
) -> CreatedTable:
    """In the lobby: choose ``game``, set each seat ("me", "link", "hotseat", "bot:easy"),
    create the table, read the links, and go to the table."""
    page.goto(base + "/")
    page.get_by_test_id(f"choose-{game}").click()
    page.locator("#opt-players").select_option(str(len(seats)))
    for name, value in (options or {}).items():
        box = page.locator(f"#opt-{name}")
        if isinstance(value, bool):
            box.set_checked(value)
        else:
            box.select_option(str(value))
    for i, seat in enumerate(seats):
        kind, _, level = seat.partition(":")
        page.get_by_test_id(f"seat-type-{i}").select_option(kind)
        if level:
            page.get_by_test_id(f"seat-level-{i}").select_option(level)
    page.get_by_test_id("create").click()
    if all(seat.startswith("bot") for seat in seats):
        # Nobody to send a link to: the page goes straight to watching the table.
        page.wait_for_selector("main.table")
        match = re.search(r"/t/([^/#?]+)", page.url)
        assert match, page.url
        return CreatedTable(match.group(1), page.url, {}, page.url)
    expect(page.get_by_test_id("open-table")).to_be_visible()
    invites = {
        i: page.get_by_test_id(f"invite-{i}").input_value()
        for i, seat in enumerate(seats)
        if seat == "link"
    }
    spectator = page.get_by_test_id("spectator-link").input_value()
    page.get_by_test_id("open-table").click()
    page.wait_for_selector("main.table")
    match = re.search(r"/t/([^/#?]+)", page.url)
    assert match, page.url
    return CreatedTable(match.group(1), page.url, invites, spectator)


def score_hidden(row: dict[str, Any]) -> bool:
    """Whether part of a seat's breakdown row is out of the reader's sight (face-down
    values, a secret card)."""
    return any(part.get("hidden") for part in row["parts"])


def score_text(value: float, hidden: bool = False) -> str:
    """A panel's score as the page writes it (``web/src/lib/scores.ts``): ``12``, or
    ``12+?`` (``?`` for 0) while part of the seat's score is hidden from the reader."""
    points = str(int(value)) if float(value).is_integer() else str(value)
    if not hidden:
        return points
    return "?" if value == 0 else f"{points}+?"


def version(page: Page) -> int:
    return int(page.locator("main.table").get_attribute("data-version") or -1)


def my_turn(page: Page) -> bool:
    """The seat may act and the page shows the newest position (no moves being played)."""
    return page.locator("main.table[data-playing=false] [data-testid=prompt].mine").count() > 0


def finished(page: Page) -> bool:
    return page.locator("main.table.finished").count() > 0


def confirm_hand_over(page: Page) -> bool:
    """A hot seat asks for the device to be passed on: the next person says they have it."""
    ready = page.get_by_test_id("pass-ready")
    if ready.count():
        ready.click()
        return True
    return False


def take_turn(page: Page, rng: random.Random, board_only: bool = True) -> int:
    """Make decisions by clicking (a highlighted target on the board, then the next; a
    prompt-bar button when the board offers nothing), confirming what the page asks to
    confirm, until the table's version moves on: one decision, or a whole turn of
    decisions kept in hand. Returns the number of clicks on the board."""
    before = version(page)
    clicks = 0
    for _ in range(60):
        if version(page) != before:
            break
        if not my_turn(page):
            # A decision kept in hand does not move the version on: wait for its answer
            # (the seat's next choice) or for the version to move.
            page.wait_for_function(
                "v => { const m = document.querySelector('main.table');"
                " return !m || Number(m.dataset.version) !== v"
                " || !!document.querySelector('[data-testid=prompt].mine'); }",
                arg=before,
                timeout=WAIT,
            )
            continue
        # A move that gives something up, or that ends what may be taken back, is asked
        # about first: the person confirms it.
        confirm = page.get_by_test_id("confirm-ok")
        if confirm.count():
            confirm.click()
            page.wait_for_timeout(50)
            continue
        # (a target marked "again" only changes a choice made: a luxor card when another
        # is selected; a person who has chosen goes on, to the move or the prompt's button)
        targets = page.locator("[data-testid=board] .pick:not(.again)")
        buttons = page.locator("[data-testid=prompt] button[data-action]")
        choices = page.locator("[data-testid=prompt] button[data-choice]")
        if targets.count():
            targets.nth(rng.randrange(targets.count())).click()
            clicks += 1
        elif choices.count():
            # A target the board does not draw, offered in the prompt bar instead.
            choices.nth(rng.randrange(choices.count())).click()
        elif buttons.count():
            buttons.nth(rng.randrange(buttons.count())).click()
        elif not board_only:
            moves = plain_moves(page)
            moves.nth(rng.randrange(moves.count())).click()
        else:
            # The prompt can come before the board's targets (a board component still
            # loading after a page opened anew): wait for something to click, then look again.
            try:
                page.wait_for_selector(
                    "[data-testid=board] .pick:not(.again), [data-testid=prompt] button",
                    timeout=WAIT,
                )
            except Exception:
                raise AssertionError(
                    f"nothing to click on the board: {page.get_by_test_id('prompt').inner_text()}"
                ) from None
            continue
        page.wait_for_timeout(50)
    page.wait_for_function(
        "v => { const m = document.querySelector('main.table');"
        " return m && (Number(m.dataset.version) !== v); }",
        arg=before,
        timeout=WAIT,
    )
    return clicks


def wait_for_turn_or_end(pages: list[Page]) -> Page | None:
    """Wait until one of ``pages`` may act (returned) or every page shows the end (None)."""
    script = """() => {
        const m = document.querySelector('main.table');
        return !!m && (m.classList.contains('finished')
            || !!document.querySelector('main[data-playing=false] [data-testid=prompt].mine')
            || !!document.querySelector('[data-testid=pass-ready]'));
    }"""
    deadline_each = WAIT
    while True:
        for page in pages:
            if finished(page):
                continue
            if confirm_hand_over(page) or my_turn(page):
                return page
        # One look at who still plays: a page may finish between two looks (the last
        # bot move lands), and a second look could then find nobody to wait on.
        playing = [p for p in pages if not finished(p)]
        if not playing:
            return None
        # Wait on the first page still playing: its prompt changes when anything happens.
        waiting = playing[0]
        try:
            waiting.wait_for_function(script, timeout=2_000)
        except Exception:
            deadline_each -= 2_000
            if deadline_each <= 0:
                texts = [p.get_by_test_id("prompt").inner_text() for p in pages]
                raise AssertionError(
                    f"nobody could act and the game did not end: {texts}"
                ) from None
            continue
        deadline_each = WAIT


def choose_setting(page: Page, testid: str, value: str) -> None:
    """Choose ``value`` in the table's setting ``testid`` ("speed", "ask"), its settings
    opened first as a person opens them, and closed after."""
    settings = page.locator("details.settings")
    if settings.get_attribute("open") is None:
        page.get_by_test_id("settings").click()
    page.get_by_test_id(testid).select_option(value)
    page.get_by_test_id("settings").click()


def plain_moves(page: Page) -> Locator:
    """The buttons of the table's plain list of moves (the keyboard's), the list opened
    first as a person opens it (it is closed until asked for)."""
    closed = page.locator("details.moves:not([open]) > summary")
    if closed.count():
        closed.click()
    return page.locator("[data-testid=moves] button[data-action]")


def log_indices(page: Page) -> list[int]:
    """The indices of the log entries the page shows, in order."""
    found: list[int] = page.locator("[data-testid=log] li[data-index]").evaluate_all(
        "els => els.map(e => Number(e.dataset.index))"
    )
    return found


def load_whole_log(page: Page) -> None:
    """Click "Earlier…" until the log holds every entry back to the first. Clicking
    scrolls the button into view at the log's top, which may ask for the page before by
    itself (web/src/lib/Log.svelte): then the button goes, or is drawn anew, while the
    click waits for it, and it is looked at again."""
    earlier = page.get_by_test_id("log-earlier")
    for _ in range(100):
        if not earlier.count():
            break
        count = len(log_indices(page))
        try:
            earlier.click(timeout=10_000)
        except PlaywrightTimeoutError:
            continue  # gone or busy: looked at again
        page.wait_for_function(
            "n => document.querySelectorAll('[data-testid=log] li[data-index]').length > n"
            " || !document.querySelector('[data-testid=log-earlier]')",
            arg=count,
            timeout=WAIT,
        )
    expect(earlier).to_have_count(0)
