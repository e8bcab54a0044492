"""The table fits one screen: what a seat needs to decide is in view without scrolling.

Each game at every player count (and halfway into a two-player match, a luxor2001 hand
full), seen by the seat whose turn it is, at the two laptop sizes most players have
(1366×768 and 1280×720): the board, the seat's own hand
(or, in horus, its adventurer's cards), the prompt and every button of the prompt, and
every seat's panel (beside the board, as on Board Game Arena) lie inside the viewport,
with the page scrolled to its top. On a 390×844 phone the prompt sits beside the board,
never over it, the panels are one line each, opened by a tap, and what a finger taps is
at least 44 px each way; luxor's path opens whole (turned upright), and the other boards'
"Whole board" button fits them to the screen (it is only on a phone); a replay, where
nothing on the board is tapped, starts with the whole board.
Screenshots of each go to ``reports/screenshots/``.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from necropolis.engine.protocol import State
from necropolis.games import game_class
from tests.clients import Server, SyncSeat
from tests.web.conftest import Fresh
from tests.web.people import (
    WAIT,
    create_table,
    new_person,
    page_errors,
    wait_for_turn_or_end,
)
from tests.web.test_undo import Want, prepare

#: The most seats each game takes.
BIGGEST = {"horus": 6, "luxor": 4, "luxor2001": 4}
LAPTOPS = [(1366, 768), (1280, 720)]
PHONE = {"width": 390, "height": 844}
#: The smallest a touch target may be, in CSS pixels (WCAG 2.5.5, Apple's and Google's guides).
FINGER = 44


def box(locator: Locator) -> dict[str, float]:
    b = locator.bounding_box()
    assert b is not None, f"{locator} is not shown"
    return b


def inside(b: dict[str, float], width: int, height: int) -> bool:
    return (
        b["x"] >= 0
        and b["y"] >= 0
        and b["x"] + b["width"] <= width + 0.5
        and (b["y"] + b["height"] <= height + 0.5)
    )


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def to_my_turn(page: Page, server: Server, game: str, players: int | None = None) -> None:
    """A table of ``game`` (with the most seats unless ``players`` says), this page's seat
    and bots; wait for its turn."""
    seats = ["me"] + ["bot:easy"] * ((players or BIGGEST[game]) - 1)
    create_table(page, server.url, game, seats)
    assert wait_for_turn_or_end([page]) is page, "the seat gets a turn"


#: Whether the log shows a few lines (or all it has) and its newest entry whole.
LOG_IN_SIGHT = """() => {
    const log = document.querySelector('[data-testid=log]');
    const newest = log && log.lastElementChild;
    if (!newest) return false;
    const f = log.getBoundingClientRect(), n = newest.getBoundingClientRect();
    return f.height >= Math.min(40, log.scrollHeight - 1)
        && n.top >= f.top - 0.5 && n.bottom <= f.bottom + 0.5;
}"""


#: The log scrolled to its end by the page itself (as when an entry arrives), and then
#: whether its newest entry is whole, with the log's box and its newest entry each made a
#: fraction of a pixel taller (``[boxPart, linePart]``).
LOG_AT_END_IN_SIGHT = (
    """async ([boxPart, linePart]) => {
    const log = document.querySelector('[data-testid=log]');
    document.getElementById('log-title').style.paddingBottom = boxPart + 'px';
    log.lastElementChild.style.paddingTop = (2 + linePart) + 'px';
    log.scrollTo({top: log.scrollHeight});
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    return ("""
    + LOG_IN_SIGHT
    + """)();
}"""
)


def newest_entry_in_sight(page: Page, where: str) -> None:
    """The log keeps a few lines however full the side panel is (four seats, the list of
    moves), and shows its newest entry whole, not cut at its foot (waiting for the page to
    settle: another language's texts arrive with their own file)."""
    try:
        page.wait_for_function(LOG_IN_SIGHT, timeout=5_000)
    except Exception:
        log = page.get_by_test_id("log")
        raise AssertionError(
            f"{where}: the log {box(log)} does not show its newest entry"
            f" {box(log.locator('li').last)} whole"
        ) from None


def own_things(page: Page) -> Locator:
    """The seat's own hand (luxor, luxor2001) or its adventurer's cards and bag (horus)."""
    return page.locator("[data-testid=board] [data-testid=hand]")


def assert_fits(page: Page, shots: Path, name: str) -> None:
    """At each laptop size: the board, the seat's own things, the prompt and its buttons
    inside the viewport with the page at its top, the board big enough to play on, and
    the log's newest entry in sight."""
    for width, height in LAPTOPS:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(300)
        page.screenshot(path=str(shots / f"fit-{name}-{width}x{height}.png"))
        what: dict[str, Locator] = {
            "board": page.locator("[data-testid=board] svg").first,
            "hand": own_things(page),
            "prompt": page.get_by_test_id("prompt"),
        }
        buttons = page.locator("[data-testid=prompt] button")
        for i in range(buttons.count()):
            what[f"prompt button {i}"] = buttons.nth(i)
        panels = page.locator("[data-testid=panels] > li")
        seats = int(page.locator("main.table").get_attribute("data-seats") or 0)
        assert seats >= 2 and panels.count() == seats, f"{name}: a panel per seat"
        for i in range(panels.count()):
            what[f"panel {i}"] = panels.nth(i)
        outside = {
            name: b
            for name, b in ((name, box(loc)) for name, loc in what.items())
            if not inside(b, width, height)
        }
        assert outside == {}, f"{name} at {width}×{height}: off the screen: {outside}"
        # the board is drawn at a size worth playing on, not shrunk to a stamp
        assert box(what["board"])["height"] >= height * 0.45, f"{name} at {width}×{height}"
        newest_entry_in_sight(page, f"{name} at {width}×{height}")


@pytest.mark.parametrize("game", sorted(BIGGEST))
def test_the_table_fits_a_laptop_screen(
    browser: Browser, server: Server, shots: Path, game: str
) -> None:
    """Every player count of the game, a table each, in one browser page."""
    width, height = LAPTOPS[0]
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    try:
        page = new_person(ctx)
        cls = game_class(game)
        counts = list(range(cls.min_players, cls.max_players + 1))
        assert counts[-1] == BIGGEST[game] and counts[0] == 2
        for players in counts:
            page.set_viewport_size({"width": width, "height": height})
            to_my_turn(page, server, game, players)
            assert_fits(page, shots, f"{game}-{players}p")
        # in another language the lines wrap anew: the newest entry stays in sight
        page.get_by_test_id("lang").select_option("nl")
        page.wait_for_timeout(300)
        newest_entry_in_sight(page, f"{game} in Dutch")
        page.get_by_test_id("lang").select_option("en")
        assert page_errors(page) == []
    finally:
        ctx.close()


def mid_game(game: str) -> Want:
    """A position halfway into a two-player match (by the number of actions), for
    luxor2001 with the seat's hand full, where the seat alone is to move."""

    def want(state: State, seat: int) -> bool | None:
        if state.move_number() < MIDDLE[game]:
            return None
        if game == "luxor2001" and len(state.view(seat)["hand"]) < LUXOR2001_HAND:
            return None
        return True

    return want


#: About half a two-player match of each game, in actions.
MIDDLE = {"horus": 160, "luxor": 120, "luxor2001": 40}
LUXOR2001_HAND = 3


@pytest.mark.parametrize("game", sorted(BIGGEST))
def test_the_table_fits_a_laptop_screen_in_the_middle_of_a_match(
    browser: Browser, fresh: Fresh, shots: Path, game: str
) -> None:
    """Halfway, the board is fuller (a luxor2001 wall, hands of cards, treasures): the same
    things still fit."""
    prepared = prepare(fresh, game, mid_game(game))
    if game == "luxor2001":
        assert len(prepared.state.view(prepared.seat)["hand"]) == LUXOR2001_HAND
    width, height = LAPTOPS[0]
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    try:
        page = new_person(ctx)
        page.goto(prepared.link(prepared.tokens[prepared.seat]))
        expect(page.locator("main.table")).to_have_attribute(
            "data-version", str(prepared.state.move_number())
        )
        expect(page.locator("main[data-playing=false] [data-testid=prompt].mine")).to_be_visible()
        if game == "luxor2001":
            expect(own_things(page).locator(".hand-card-face")).to_have_count(LUXOR2001_HAND)
        assert_fits(page, shots, f"{game}-middle")
        # Whatever fractions of a pixel the log's box and its entries come to (they
        # change with the lines' wrapping and the fonts), the newest entry is whole.
        for box_part, line_part in itertools.product(range(8), range(8)):
            parts = [box_part / 8, line_part / 8]
            assert page.evaluate(LOG_AT_END_IN_SIGHT, parts), f"{game}-middle, {parts} px"
        assert page_errors(page) == []
    finally:
        ctx.close()


#: Scroll the page and every region of it that scrolls to ``y``.
SCROLL_ALL = """y => {
    window.scrollTo(0, y);
    for (const e of document.querySelectorAll('*')) {
        if (e.scrollHeight > e.clientHeight) e.scrollTop = y;
    }
}"""


#: The part of an element not clipped away by the regions it scrolls in (None: all of it is).
VISIBLE_PART = """e => {
    let r = e.getBoundingClientRect();
    let [x0, y0, x1, y1] = [r.left, r.top, r.right, r.bottom];
    for (let a = e.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const c = a.getBoundingClientRect();
        x0 = Math.max(x0, c.left); y0 = Math.max(y0, c.top);
        x1 = Math.min(x1, c.right); y1 = Math.min(y1, c.bottom);
    }
    if (x1 <= x0 || y1 <= y0) return null;
    return {x: x0, y: y0, width: x1 - x0, height: y1 - y0};
}"""


def _targets(page: Page) -> list[tuple[str, dict[str, Any]]]:
    found = []
    board = "[data-testid=board]"
    for sel in (f"{board} .pick", f"{board} button", "[data-testid=prompt] button"):
        loc = page.locator(sel)
        for i in range(loc.count()):
            item = loc.nth(i)
            name = item.get_attribute("data-target") or item.inner_text() or sel
            found.append((name, box(item)))
    return found


@pytest.mark.parametrize("game", sorted(BIGGEST))
def test_the_table_on_a_phone(browser: Browser, server: Server, shots: Path, game: str) -> None:
    ctx = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-GB"
    )
    try:
        page = new_person(ctx)
        to_my_turn(page, server, game)
        page.wait_for_timeout(300)
        page.screenshot(path=str(shots / f"phone-fit-{game}.png"))
        targets = _targets(page)
        assert targets, "the seat has something to tap"
        assert _small(targets) == [], f"{game}: targets under {FINGER} px: {_small(targets)}"
        # Wherever the page is scrolled, the prompt and the board do not overlap.
        prompt = page.get_by_test_id("prompt")
        board = page.locator("[data-testid=board] svg").first
        for y in (0, 200, 600, 2000):
            page.evaluate(SCROLL_ALL, y)
            page.wait_for_timeout(100)
            seen = board.evaluate(VISIBLE_PART)
            if seen is not None:
                assert not overlap(box(prompt), seen), f"{game}: the prompt covers the board at {y}"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # The players' panels: one line each, above the board; a tap opens one, another
        # closes it.
        heads = page.locator("[data-testid=panels] > li")
        assert heads.count() == BIGGEST[game]
        for i in range(heads.count()):
            b = box(heads.nth(i))
            assert b["height"] <= 2 * FINGER, f"{game}: panel {i} is one line: {b}"
        page.evaluate(SCROLL_ALL, 0)
        assert box(heads.last)["y"] < box(page.locator(BOARD_PICTURE).first)["y"]
        head = page.get_by_test_id("panel-head-1")
        expect(head).to_have_attribute("aria-expanded", "false")
        head.tap()
        expect(head).to_have_attribute("aria-expanded", "true")
        expect(page.get_by_test_id("panel-items-1")).to_be_visible()
        page.screenshot(path=str(shots / f"phone-panel-open-{game}.png"))
        head.tap()
        expect(page.get_by_test_id("panel-items-1")).to_have_count(0)
        # Every step of the decisions that follow, tapped as a finger taps: whatever the
        # seat may pick (squares, sarcophagi, alcoves, mummies, dice, cards, shafts…) is
        # at least FINGER px each way.
        rng = random.Random(11)
        kinds: set[str] = set()
        for _ in range(PHONE_STEPS):
            if wait_for_turn_or_end([page]) is None:
                break
            page.wait_for_timeout(200)
            targets = _targets(page)
            kinds |= {name.split(":")[0] for name, _ in targets if ":" in name}
            assert _small(targets) == [], f"{game}: under {FINGER} px: {_small(targets)}"
            _tap_one(page, rng)
        assert kinds, f"{game}: board targets were tapped"
        print(f"{game} on a phone, targets measured: {sorted(kinds)}")
        assert page_errors(page) == []
    finally:
        ctx.close()


#: The steps of decisions tapped on the phone after the first look.
PHONE_STEPS = 30


def _small(targets: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, int, int]]:
    return [
        (name, round(b["width"]), round(b["height"]))
        for name, b in targets
        if b["width"] < FINGER - 0.5 or b["height"] < FINGER - 0.5
    ]


def _tap_one(page: Page, rng: random.Random) -> None:
    """One tap of a decision: a target on the board, else a choice or a move in the prompt;
    a move the page asks to confirm is confirmed (its button measured first)."""
    confirm = page.get_by_test_id("confirm-ok")
    if confirm.count():
        b = box(confirm)
        assert b["width"] >= FINGER - 0.5 and b["height"] >= FINGER - 0.5, f"confirm: {b}"
        confirm.tap()
        page.wait_for_timeout(150)
        return
    for sel in (
        "[data-testid=board] .pick",
        "[data-testid=prompt] button[data-choice]",
        "[data-testid=prompt] button[data-action]",
    ):
        found = page.locator(sel)
        if found.count():
            found.nth(rng.randrange(found.count())).tap()
            break
    else:
        raise AssertionError(f"nothing to tap: {page.get_by_test_id('prompt').inner_text()}")
    page.wait_for_timeout(150)


@pytest.mark.parametrize("lang", ["en", "nl", "it"])
def test_the_header_on_a_phone_keeps_each_control_on_one_line(
    browser: Browser, server: Server, lang: str
) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=lang)
    try:
        page = new_person(ctx)
        page.goto(server.url + "/")
        header = page.locator("header.top")
        sign_in = page.get_by_test_id("account-open")
        expect(sign_in).to_be_visible()
        bar = box(header)
        # "Sign in" once broke in two lines and rose out of the bar's top.
        for control in (sign_in, header.locator("select").first):
            found = box(control)
            assert (
                bar["y"] <= found["y"] and found["y"] + found["height"] <= bar["y"] + bar["height"]
            ), (lang, found, bar)
            assert found["height"] <= 50, (lang, found)  # one line of text (two: 60)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        ctx.close()


#: The picture of the board inside its cell.
BOARD_PICTURE = "[data-testid=board] svg.main"
#: Games whose board a phone draws upright (luxor's path, nine fields long): at its
#: finger-wide size it fits the phone's width, whole, with or without "Whole board".
UPRIGHT = {"luxor"}


def wait_for_board_width(page: Page, fits: bool) -> float:
    """Wait until the board's picture fits the phone's width (``fits``) or is wider, as it
    is once its cell has laid it out after "Whole board" was pressed; its width then."""
    page.wait_for_function(
        "([sel, w, fits]) => { const e = document.querySelector(sel);"
        " return !!e && (e.getBoundingClientRect().width <= w) === fits; }",
        arg=[BOARD_PICTURE, PHONE["width"], fits],
    )
    return box(page.locator(BOARD_PICTURE).first)["width"]


def test_luxors_path_opens_whole_on_a_phone(browser: Browser, server: Server, shots: Path) -> None:
    """Luxor's path is nine fields wide: on a phone it opened cut (its last columns out of
    sight until "Whole board"). It is drawn upright there, every field in sight and each a
    finger wide."""
    ctx = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-GB"
    )
    try:
        page = new_person(ctx)
        to_my_turn(page, server, "luxor")
        picture = page.locator(BOARD_PICTURE).first
        assert box(picture)["width"] <= PHONE["width"]
        seen = picture.evaluate(VISIBLE_PART)
        fields = page.locator("[data-testid=board] g.field")
        assert fields.count() == 43
        for i in range(fields.count()):
            f = box(fields.nth(i))
            assert f["width"] >= FINGER and f["height"] >= FINGER, f"field {i}: {f}"
            assert (
                seen["x"] - 0.5 <= f["x"] and f["x"] + f["width"] <= seen["x"] + seen["width"] + 0.5
            ), f"field {i} is cut: {f}, board in sight {seen}"
        page.screenshot(path=str(shots / "phone-luxor-upright.png"))
        assert page_errors(page) == []
    finally:
        ctx.close()


@pytest.mark.parametrize("game", ["horus", "luxor2001"])
def test_the_whole_board_on_a_phone(
    browser: Browser, server: Server, shots: Path, game: str
) -> None:
    """On a phone the board keeps its finger-wide width and scrolls sideways; "Whole board"
    fits it to the screen, stays so after a reload (it is remembered), and goes back."""
    ctx = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-GB"
    )
    try:
        page = new_person(ctx)
        to_my_turn(page, server, game)
        picture = page.locator(BOARD_PICTURE).first
        toggle = page.get_by_test_id("whole-board")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        wide = box(picture)["width"]
        assert wide > PHONE["width"], f"{game}: the board at its finger-wide width"
        seen = picture.evaluate(VISIBLE_PART)
        assert seen is not None and seen["width"] < wide - 1, f"{game}: part of it out of sight"

        toggle.tap()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        wait_for_board_width(page, fits=True)
        whole = box(picture)
        seen = picture.evaluate(VISIBLE_PART)
        assert seen is not None and seen["width"] >= whole["width"] - 1, f"{game}: {seen}"
        page.screenshot(path=str(shots / f"phone-whole-{game}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        # Remembered in this browser: a reload shows the whole board again.
        page.reload()
        assert wait_for_turn_or_end([page]) is page
        toggle = page.get_by_test_id("whole-board")
        expect(toggle).to_have_attribute("aria-pressed", "true")
        wait_for_board_width(page, fits=True)

        toggle.tap()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        assert wait_for_board_width(page, fits=False) == pytest.approx(wide, abs=1)
        assert page_errors(page) == []
    finally:
        ctx.close()


def test_the_whole_board_button_is_only_for_phones(browser: Browser, server: Server) -> None:
    """On a laptop the board always fits its column: there is no button to ask for it."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    try:
        page = new_person(ctx)
        to_my_turn(page, server, "horus", players=2)
        expect(page.get_by_test_id("whole-board")).to_be_hidden()
    finally:
        ctx.close()


@pytest.mark.parametrize("game", sorted(BIGGEST))
def test_a_replay_on_a_phone_starts_with_the_whole_board(
    browser: Browser, server: Server, shots: Path, game: str
) -> None:
    """A replay on a phone fits the board to the screen; "Whole board" pressed off shows it
    at the table's finger-wide width in a cell that scrolls sideways, never the page (an
    upright board, whole at that width already, stays whole)."""
    created = server.create_table(game, ["bot:easy"] * 2)
    table_id, spectator = created["table_id"], created["spectator_token"]
    ctx = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-GB"
    )
    try:
        page = new_person(ctx)
        page.goto(f"{server.url}/t/{table_id}#{spectator}")
        expect(page.locator("main.table.finished")).to_be_visible(timeout=4 * WAIT)
        page.goto(f"{server.url}/t/{table_id}?replay#{spectator}")
        expect(page.get_by_test_id("step")).to_contain_text("Move 0 of")
        page.get_by_test_id("turn-forward").tap()
        page.get_by_test_id("turn-forward").tap()
        expect(page.get_by_test_id("turn")).to_contain_text("Turn 3 of")
        picture = page.locator(BOARD_PICTURE).first
        toggle = page.get_by_test_id("whole-board")
        expect(toggle).to_have_attribute("aria-pressed", "true")
        whole = box(picture)
        assert whole["width"] <= PHONE["width"], f"{game}: the whole board fits: {whole}"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(shots / f"phone-replay-{game}.png"))

        toggle.tap()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        seen = None
        if game in UPRIGHT:
            # Its fields a finger wide, every one in sight.
            expect(page.locator("[data-testid=board] g.field").first).to_be_visible()
            fields = page.locator("[data-testid=board] g.field")
            seen = picture.evaluate(VISIBLE_PART)
            assert seen is not None and seen["width"] >= box(picture)["width"] - 1, seen
            for i in range(fields.count()):
                f = box(fields.nth(i))
                assert f["width"] >= FINGER and f["height"] >= FINGER, f"field {i}: {f}"
                assert seen["x"] - 0.5 <= f["x"] <= seen["x"] + seen["width"] - f["width"] + 0.5
        else:
            wide = wait_for_board_width(page, fits=False)
            seen = picture.evaluate(VISIBLE_PART)
            assert seen is not None and seen["width"] < wide - 1, f"{game}: part out of sight"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], (
            f"{game}: the board's cell scrolls sideways, not the page"
        )
        assert page_errors(page) == []
    finally:
        ctx.close()


#: Whether the board's pictures, the replay's controls and the panels are inside the viewport.
ALL_INSIDE = """([w, h]) => [...document.querySelectorAll(
    '[data-testid=board] svg.main, [data-testid=panels] > li, [data-testid=replay-controls]'
)].every(e => {
    const r = e.getBoundingClientRect();
    return r.left >= 0 && r.top >= 0 && r.right <= w + 0.5 && r.bottom <= h + 0.5;
})"""


@pytest.mark.parametrize("game", sorted(BIGGEST))
def test_a_replay_fits_a_laptop_screen(
    browser: Browser, server: Server, shots: Path, game: str
) -> None:
    """A replay at its middle step, at each laptop size: the whole board (luxor2001's wall
    and its pillars below it, which fell below the fold when the wall was scaled to the
    page's width), the replay's controls and every seat's panel, inside the viewport."""
    created = server.create_table(game, ["bot:easy"] * BIGGEST[game])
    table_id, spectator = created["table_id"], created["spectator_token"]
    watcher = SyncSeat.connect(server, table_id, spectator)
    try:
        steps = watcher.until(lambda s: s["status"] == "finished", timeout=4 * WAIT / 1000)
    finally:
        watcher.close()
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    try:
        page = new_person(ctx)
        page.goto(f"{server.url}/t/{table_id}?replay&step={steps['version'] // 2}#{spectator}")
        expect(page.get_by_test_id("step")).to_contain_text(f"Move {steps['version'] // 2} of")
        for width, height in LAPTOPS:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.scrollTo(0, 0)")
            what = {"controls": page.get_by_test_id("replay-controls")}
            pictures = page.locator("[data-testid=board] svg.main")
            for i in range(pictures.count()):
                what[f"board {i}"] = pictures.nth(i)
            panels = page.locator("[data-testid=panels] > li")
            assert panels.count() == BIGGEST[game]
            for i in range(panels.count()):
                what[f"panel {i}"] = panels.nth(i)
            # Once the page has laid itself out at this size (its board's cell is measured
            # after a resize): else the assertion below says what is off the screen.
            with contextlib.suppress(PlaywrightTimeoutError):
                page.wait_for_function(ALL_INSIDE, arg=[width, height], timeout=5_000)
            page.screenshot(path=str(shots / f"replay-{game}-{width}x{height}.png"))
            outside = {
                n: b
                for n, b in ((n, box(x)) for n, x in what.items())
                if not inside(b, width, height)
            }
            assert outside == {}, f"{game} replay at {width}×{height}: off the screen: {outside}"
            assert box(pictures.first)["height"] >= height * 0.45, f"{game} at {width}×{height}"
        assert page_errors(page) == []
    finally:
        ctx.close()


@pytest.mark.parametrize("game", sorted(BIGGEST))
def test_the_open_legend_leaves_the_hand_in_sight(
    browser: Browser, server: Server, shots: Path, game: str
) -> None:
    """The board's legend, opened, covered the seat's hand (it floated up over what is
    above it): opened now, it leaves every card of the hand uncovered and clickable."""
    width, height = LAPTOPS[0]
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    try:
        page = new_person(ctx)
        to_my_turn(page, server, game, 2)
        legend = page.locator("[data-testid=board] details.legend")
        expect(legend).to_have_count(1)
        legend.locator("summary").click()
        items = legend.locator("ul")
        expect(items).to_be_visible()
        items.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"legend-open-{game}.png"))
        hand = own_things(page)
        assert not overlap(box(items), box(hand)), f"{game}: the legend covers the hand"
        # What a click at the middle of the hand meets is the hand itself.
        b = box(hand)
        on_top = page.evaluate(
            "([x, y]) => !!document.elementFromPoint(x, y)?.closest('[data-testid=hand]')",
            [b["x"] + b["width"] / 2, b["y"] + b["height"] / 2],
        )
        assert on_top or not inside(b, width, height), f"{game}: the hand is covered"
        assert page_errors(page) == []
    finally:
        ctx.close()
