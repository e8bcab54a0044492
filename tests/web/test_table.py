"""The web table in a real headless Chromium, used as people use it.

Two people in two browsers and a bot play a whole luxor2001 game by clicking the board,
while a spectator watches, and step through its replay; luxor (with a hot seat) and horus
tables are played for several rounds by clicking, with a reload mid-game; the lobby and a
table in Dutch and Italian; a phone-size table; the creator hands an absent friend's seat
to a bot. Each test saves screenshots under ``reports/screenshots/``.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.clients import Server
from tests.web.people import (
    VIEWPORT,
    WAIT,
    create_table,
    finished,
    my_turn,
    new_person,
    page_errors,
    take_turn,
    version,
    wait_for_turn_or_end,
)


def test_two_people_and_a_bot_play_luxor2001_to_the_end(
    browser: Browser, server: Server, shots: Path
) -> None:
    rng = random.Random(2001)
    ann_ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    bo_ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    watcher_ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        ann = new_person(ann_ctx)
        table = create_table(ann, server.url, "luxor2001", ["me", "link", "bot:easy"])
        bo = new_person(bo_ctx)
        bo.goto(table.invites[1])
        expect(bo.locator("main.table")).to_have_attribute("data-seat", "1")
        expect(ann.locator("main.table")).to_have_attribute("data-seat", "0")
        watcher = new_person(watcher_ctx)
        watcher.goto(table.spectator)
        expect(watcher.locator("main.table")).to_have_attribute("data-seat", "spectator")

        board_clicks = 0
        turns = 0
        shot_mid = False
        while True:
            page = wait_for_turn_or_end([ann, bo])
            if page is None:
                break
            board_clicks += take_turn(page, rng)
            turns += 1
            if turns == 6:
                ann.screenshot(path=str(shots / "luxor2001-player1-midgame.png"))
                bo.screenshot(path=str(shots / "luxor2001-player2-midgame.png"))
                # Another seat's pharaoh card (and any sarcophagus it won) is secret: its
                # score reads as what is known so far, never as a plain 0.
                for page, other in ((ann, 1), (bo, 0)):
                    score = page.get_by_test_id(f"score-{other}")
                    expect(score).to_have_text(re.compile(r"^(\?|\d+\+\?)$"))
                    expect(score).to_have_attribute("title", re.compile("hidden"))
            if turns == 8 and not shot_mid:
                shot_mid = True
                # A spectator sees the public board: no moves, nothing to click.
                expect(watcher.get_by_text("Watching")).to_be_visible()
                assert watcher.locator("[data-testid=board] .pick").count() == 0
                assert watcher.locator("[data-testid=moves]").count() == 0
                watcher.screenshot(path=str(shots / "luxor2001-spectator.png"), full_page=True)
            assert turns < 400, "the game should have ended"

        assert board_clicks >= turns, "every decision was made by clicking the board"
        # At the end every score is known.
        for other in range(3):
            expect(ann.get_by_test_id(f"score-{other}")).to_have_text(re.compile(r"^\d+$"))
        for page, name in ((ann, "player1"), (bo, "player2")):
            summary = page.get_by_test_id("summary")
            expect(summary).to_be_visible()
            expect(summary.get_by_text("Final scores")).to_be_visible()
            assert summary.locator("article").count() == 3
            page.screenshot(path=str(shots / f"luxor2001-summary-{name}.png"), full_page=True)
        # Every player may ask to play again; a spectator is offered nothing.
        expect(ann.get_by_test_id("play-again")).to_be_visible()
        expect(bo.get_by_test_id("play-again")).to_be_visible()
        expect(watcher.locator("main.table.finished")).to_be_visible()
        assert watcher.get_by_test_id("play-again").count() == 0

        # The replay, stepped forwards and back, from a seat's view.
        bo.get_by_test_id("replay").click()
        step = bo.get_by_test_id("step")
        expect(step).to_contain_text("Move 0 of")
        bo.get_by_test_id("forward").click()
        expect(step).to_contain_text("Move 1 of")
        bo.get_by_test_id("forward").click()
        bo.get_by_test_id("forward").click()
        expect(step).to_contain_text("Move 3 of")
        bo.get_by_test_id("back").click()
        expect(step).to_contain_text("Move 2 of")
        bo.get_by_test_id("replay-seat").select_option("0")
        expect(step).to_contain_text("Move 2 of")
        bo.keyboard.press("ArrowRight")
        expect(step).to_contain_text("Move 3 of")
        # The deal's first three moves gave each seat its secret pharaoh card: seen from
        # seat 0 at that step, the others' scores are unknown, its own is a number.
        expect(bo.get_by_test_id("score-0")).to_have_text("0")
        for other in (1, 2):
            expect(bo.get_by_test_id(f"score-{other}")).to_have_text("?")
        # Seen by seat 0, "you" is still Bo, seat 1: her panel is marked, Ann's is not.
        expect(bo.get_by_test_id("panel-1").locator(".you")).to_be_visible()
        expect(bo.get_by_test_id("panel-0").locator(".you")).to_have_count(0)
        bo.screenshot(path=str(shots / "luxor2001-replay-seen-by-another.png"))
        # By turn: the deal (many chance outcomes) is the opening turn, taken in one step.
        turn = bo.get_by_test_id("turn")
        expect(turn).to_contain_text("Turn 1 of")
        bo.get_by_test_id("turn-forward").click()
        expect(turn).to_contain_text("Turn 2 of")
        moved = int(re.search(r"Move (\d+) of", step.inner_text()).group(1))  # type: ignore[union-attr]
        assert moved > 3, "a turn forward passes the whole deal"
        bo.get_by_test_id("turn-forward").click()
        expect(turn).to_contain_text("Turn 3 of")
        bo.get_by_test_id("turn-back").click()
        bo.get_by_test_id("turn-back").click()
        expect(step).to_contain_text("Move 0 of")
        bo.screenshot(path=str(shots / "luxor2001-replay.png"), full_page=True)
        with bo.expect_download() as download:
            bo.get_by_test_id("download").click()
        record = json.loads(Path(download.value.path()).read_text())
        assert record["game"] == "luxor2001"

        # Ann asks to play again: she goes to the new table, which waits for Bo, who is
        # told at the table he played (he was at its replay).
        ann.get_by_test_id("play-again").click()
        expect(ann.locator("main.table")).to_have_attribute("data-version", "0")
        bo.goto(table.invites[1])
        expect(bo.get_by_test_id("again-status")).to_be_visible()
        for page in (ann, bo, watcher):
            assert page_errors(page) == []
    finally:
        for ctx in (ann_ctx, bo_ctx, watcher_ctx):
            ctx.close()


def _play_rounds(pages: list[Page], rng: random.Random, decisions: int) -> tuple[int, int]:
    """Up to ``decisions`` decisions by clicking; the decisions made and the board clicks."""
    made = clicks = 0
    while made < decisions:
        page = wait_for_turn_or_end(pages)
        if page is None:
            break
        clicks += take_turn(page, rng)
        made += 1
    return made, clicks


def test_luxor_hot_seat_plays_rounds_and_survives_a_reload(
    browser: Browser, server: Server, shots: Path
) -> None:
    rng = random.Random(2018)
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx)
        create_table(page, server.url, "luxor", ["me", "hotseat", "bot:easy"])
        # The first person at a hot-seat device is asked to take it.
        expect(page.get_by_test_id("pass-device")).to_be_visible()
        page.screenshot(path=str(shots / "luxor-hotseat-pass-device.png"))
        _play_rounds([page], rng, 8)
        seats_seen = set()
        for _ in range(12):
            if finished(page):
                break
            p = wait_for_turn_or_end([page])
            if p is None:
                break
            seats_seen.add(page.locator("main.table").get_attribute("data-seat"))
            take_turn(page, rng)
        assert seats_seen == {"0", "1"}, "both seats of the device played"
        page.screenshot(path=str(shots / "luxor-hotseat-midgame.png"))

        # A reload resumes where the table is, with its log.
        before = version(page)
        log_before = _log_indices(page)
        page.reload()
        page.wait_for_selector("main.table")
        assert version(page) >= before
        if not page.get_by_test_id("pass-ready").count():
            # The newest entries, as they were (older ones come with "Earlier…").
            kept = [i for i in _log_indices(page) if i < before]
            assert kept and kept == log_before[-len(kept) :]
        _play_rounds([page], rng, 6)
        page.screenshot(path=str(shots / "luxor-after-reload.png"))
        assert page_errors(page) == []
    finally:
        ctx.close()


def _log_indices(page: Page) -> list[int]:
    """The action index of each log entry the page shows, oldest first."""
    indices: list[int] = page.locator("[data-testid=log] li[data-index]").evaluate_all(
        "els => els.map(e => Number(e.dataset.index))"
    )
    return indices


def test_horus_plays_rounds_by_clicking_and_survives_a_reload(
    browser: Browser, server: Server, shots: Path
) -> None:
    rng = random.Random(7)
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx)
        create_table(page, server.url, "horus", ["me", "bot:easy", "bot:easy"])
        made, clicks = _play_rounds([page], rng, 10)
        assert made == 10 or finished(page)
        assert clicks >= made // 2, "the decisions were made on the board"
        page.screenshot(path=str(shots / "horus-midgame.png"))
        before = version(page)
        page.reload()
        page.wait_for_selector("main.table")
        assert version(page) >= before
        expect(page.get_by_test_id("log").locator("li").first).to_be_visible()
        # The server dies and comes back: the page says so, reconnects and plays on.
        server.kill()
        expect(page.get_by_text("Connection lost")).to_be_visible()
        server.restart()
        expect(page.get_by_text("Connection lost")).to_be_hidden(timeout=WAIT)
        _play_rounds([page], rng, 8)
        page.screenshot(path=str(shots / "horus-after-reload.png"), full_page=True)
        assert page_errors(page) == []
    finally:
        ctx.close()


def test_lobby_and_table_in_dutch_and_italian(
    browser: Browser, server: Server, shots: Path
) -> None:
    words = {
        "nl": ("Kies een spel", "Wat er gebeurde", "Spelregels", "Een wedloop", "De vloek"),
        "it": ("Scegli un gioco", "Cosa è successo", "Regole", "Una corsa", "La maledizione"),
    }
    for lang, (lobby_title, log_title, rules, horus_text, curse) in words.items():
        # The browser's own language chooses the page's.
        ctx = browser.new_context(viewport=VIEWPORT, locale=lang)
        try:
            page = new_person(ctx)
            page.goto(server.url + "/")
            expect(page.get_by_role("heading", name=lobby_title)).to_be_visible()
            # The games' descriptions and their options' texts are in that language too.
            expect(page.locator("#desc-horus")).to_contain_text(horus_text)
            page.wait_for_timeout(300)
            page.screenshot(path=str(shots / f"lobby-{lang}.png"), full_page=True)
            page.get_by_test_id("choose-luxor2001").click()
            expect(page.locator("#setup")).to_contain_text(curse)
            page.wait_for_timeout(600)
            page.locator("#setup").screenshot(path=str(shots / f"lobby-setup-{lang}.png"))
            create_table(page, server.url, "luxor2001", ["me", "bot:easy"])
            expect(page.get_by_role("heading", name=log_title)).to_be_visible()
            take_turn(page, random.Random(1)) if my_turn(page) else None
            page.screenshot(path=str(shots / f"table-{lang}.png"), full_page=True)
            # The rules in reach.
            page.get_by_role("button", name=rules).click()
            expect(page.locator("dialog.rules")).to_be_visible()
            page.screenshot(path=str(shots / f"rules-{lang}.png"))
            page.keyboard.press("Escape")
            # The switch changes the language at once.
            page.get_by_test_id("lang").select_option("en")
            expect(page.get_by_role("heading", name="What happened")).to_be_visible()
            assert page_errors(page) == []
        finally:
            ctx.close()


def test_phone_size_table_fits_and_plays(browser: Browser, server: Server, shots: Path) -> None:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    try:
        page = new_person(ctx)
        page.goto(server.url + "/")
        page.wait_for_selector("[data-game]")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(shots / "phone-lobby.png"))
        page.get_by_test_id("choose-horus").click()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator("#setup").screenshot(path=str(shots / "phone-setup.png"))
        create_table(page, server.url, "luxor2001", ["me", "bot:easy"])
        _play_rounds([page], random.Random(3), 3)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling"
        page.screenshot(path=str(shots / "phone-table.png"))
        page.screenshot(path=str(shots / "phone-table-full.png"), full_page=True)
        assert page_errors(page) == []
    finally:
        ctx.close()


def test_creator_hands_an_absent_friends_seat_to_a_bot(
    browser: Browser, server: Server, shots: Path
) -> None:
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx)
        create_table(page, server.url, "luxor2001", ["me", "link"])
        page.get_by_text("Absent? Let a bot play this seat").click()
        page.screenshot(path=str(shots / "hand-seat-to-bot-offer.png"))
        page.get_by_test_id("tobot-1").click()
        seat = page.get_by_test_id("panel-1")
        expect(seat).to_contain_text(re.compile("bot", re.IGNORECASE))
        # The bot now plays the friend's turns: the game goes on past them.
        rng = random.Random(5)
        _play_rounds([page], rng, 3)
        assert version(page) > 3
        page.screenshot(path=str(shots / "hand-seat-to-bot.png"))
        # The lobby lists the creator's tables; one click goes back to this one.
        table_url = page.url
        page.goto(server.url + "/")
        mine = page.locator("section.mine li").first
        expect(mine).to_contain_text("Luxor")
        page.screenshot(path=str(shots / "lobby-my-tables.png"), full_page=True)
        mine.get_by_role("button", name="Open").click()
        page.wait_for_selector("main.table")
        assert page.url == table_url
        assert page_errors(page) == []
    finally:
        ctx.close()
