"""Other seats' moves are shown one at a time, as a person in Chromium sees them.

A person plays luxor2001 against two bots. After each of the person's moves, the bots'
moves and the chance draws land on the server within moments; the page shows them one
after another, each held for the pace chosen in the table's settings (the page's default is
"normal"), marks what each changed on the board and in the log, and offers to skip the
streak. The test records when each log entry appears (a MutationObserver in the page,
``performance.now()``) and asserts the spacing, that the chosen pace is remembered after
a reload, that the skip button shows the newest position at once, and that no log entry
was left out on the way.
"""

from __future__ import annotations

import itertools
import random
import statistics
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.clients import Server
from tests.web.people import (
    VIEWPORT,
    choose_setting,
    create_table,
    finished,
    load_whole_log,
    log_indices,
    new_person,
    page_errors,
    plain_moves,
    take_turn,
    version,
    wait_for_turn_or_end,
)

#: The paces of web/src/lib/playback.ts (milliseconds an event is held).
NORMAL = 850
FAST = 350
#: Timers may fire a little early in a loaded browser; never by this much on average.
SLACK = 40
#: One gap, as a MutationObserver in a loaded browser times it, may come short of the
#: pace by more (its callback runs late for one event and on time for the next), so each
#: gap is held to this share of the pace and their mean to the pace less SLACK.
JITTER = 0.8

WATCH_LOG = """() => {
    window.__seen = [];
    const log = document.querySelector('[data-testid=log]');
    const note = () => {
        for (const li of log.querySelectorAll('li[data-index]')) {
            if (li.__noted) continue;
            li.__noted = true;
            window.__seen.push({
                index: Number(li.dataset.index), seat: li.dataset.seat, at: performance.now()
            });
        }
    };
    note();
    window.__seen = [];  // only what appears from now on
    new MutationObserver(note).observe(log, {childList: true, subtree: true});
}"""

#: Records, whenever the page starts holding an event for the pace (a timer of the normal
#: or the fast pace), what the screen shows (the version drawn, the newest log entry) when
#: the hold starts and again when it ends: the same, when the hold starts once the event
#: is drawn.
WATCH_HOLDS = f"""() => {{
    window.__holds = [];
    const screen = () => {{
        const lis = document.querySelectorAll('[data-testid=log] li[data-index]');
        return [
            document.querySelector('main.table').dataset.shown,
            lis.length ? lis[lis.length - 1].dataset.index : null,
        ].join('/');
    }};
    const set = window.setTimeout;
    window.setTimeout = (fn, ms, ...rest) => {{
        if (ms !== {NORMAL} && ms !== {FAST}) return set(fn, ms, ...rest);
        const hold = {{start: screen(), end: null}};
        window.__holds.push(hold);
        return set(() => {{ hold.end = screen(); fn(); }}, ms, ...rest);
    }};
}}"""

WATCH_LIT = """() => {
    window.__lit = 0;
    const board = document.querySelector('[data-testid=board]');
    new MutationObserver(() => {
        window.__lit = Math.max(window.__lit, board.querySelectorAll('[data-lit]').length);
    }).observe(board, {attributes: true, subtree: true, attributeFilter: ['data-lit']});
}"""


WATCH_WALK = """() => {
    window.__walks = 0;
    const look = () => {
        const walking = document.getAnimations().filter((a) => {
            const target = a.effect && a.effect.target;
            // (luxor's adventurer: the piece that glides holds its drawing, data-piece)
            return target && target.matches
                && target.matches('[data-piece^=adventurer], .piece:has([data-piece^=adventurer])');
        });
        window.__walks = Math.max(window.__walks, walking.length);
        requestAnimationFrame(look);
    };
    look();
}"""


#: While the page plays others' moves: how many of the seat's choices the board and the
#: prompt bar offer (None: the playback is over).
OFFERED_WHILE_PLAYING = """() => {
    if (document.querySelector('main.table').dataset.playing !== 'true') return null;
    return document.querySelectorAll(
        '[data-testid=board] .pick, [data-testid=prompt] button[data-action]').length;
}"""


def _seen(page: Page) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.evaluate("() => window.__seen")
    return result


def _others_streak(page: Page, rng: random.Random) -> tuple[int, list[tuple[int, float]]]:
    """Take one turn and wait until the others' moves are all shown and it is the
    person's turn again. Returns the version the person moved at and, per log index
    after it, when its first entry appeared: the entries of the other seats and chance,
    not the person's own (a turn of two decisions shows its second at once, as the
    person's own moves are, and an entry about the person may come with it)."""
    page.evaluate(WATCH_LOG)
    own = page.locator("main.table").get_attribute("data-seat")
    moved_at = version(page)
    take_turn(page, rng)
    assert wait_for_turn_or_end([page]) is page
    first: dict[int, float] = {}
    for seen in _seen(page):
        if seen["seat"] != own:
            first.setdefault(seen["index"], seen["at"])
    return moved_at, sorted((i, at) for i, at in first.items() if i > moved_at)


#: A streak of others' moves is being shown (its skip button), or the person decides, or
#: the match is over.
STREAK_OR_MY_TURN = """() => !!document.querySelector('[data-testid=skip]')
    || !!document.querySelector('main[data-playing=false] [data-testid=prompt].mine')
    || !!document.querySelector('main.table.finished')"""


def _gaps(times: list[tuple[int, float]]) -> list[float]:
    return [b[1] - a[1] for a, b in itertools.pairwise(times)]


def test_a_bot_streak_is_shown_one_event_at_a_time_and_can_be_skipped(
    browser: Browser, server: Server, shots: Path
) -> None:
    rng = random.Random(17)
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx, speed=None)  # the page's own default pace
        table_url = create_table(
            page, server.url, "luxor2001", ["me", "bot:easy", "bot:easy"]
        ).table_url
        expect(page.get_by_test_id("speed")).to_have_value("normal")
        assert wait_for_turn_or_end([page]) is page
        page.evaluate(WATCH_LIT)
        page.evaluate(WATCH_HOLDS)

        # At the normal pace: the bots' moves and the draws come one at a time, each on
        # the screen for the whole pace before the next (they reach the server faster).
        _, times = _others_streak(page, rng)
        assert len(times) >= 4, times  # two bots, each a card and a draw
        gaps = _gaps(times)
        print("normal pace: ms between events", [round(g) for g in gaps])
        assert statistics.mean(gaps) >= NORMAL - SLACK and min(gaps) >= JITTER * NORMAL, gaps
        assert page.evaluate("() => window.__lit") > 0, "the board marked what changed"
        # Each event's pace counts from when it is drawn (its log entry on the screen), so
        # that a slow drawing in a loaded browser does not shorten its time there.
        holds = [h for h in page.evaluate("() => window.__holds") if h["end"] is not None]
        assert len(holds) >= len(times) - 1, holds
        assert all(h["start"] == h["end"] for h in holds), holds

        # The pace is a setting of the page, remembered in this browser.
        choose_setting(page, "speed", "fast")
        page.reload()
        page.wait_for_selector("main.table")
        expect(page.get_by_test_id("speed")).to_have_value("fast")
        assert wait_for_turn_or_end([page]) is page
        _, times = _others_streak(page, rng)
        gaps = _gaps(times)
        print("fast pace: ms between events", [round(g) for g in gaps])
        assert len(times) >= 4, times
        assert statistics.mean(gaps) >= FAST - SLACK and min(gaps) >= JITTER * FAST, gaps
        assert max(gaps) < NORMAL, "the fast pace is faster than the normal one"

        # Back at the normal pace: a streak is skipped to its end with the button.
        choose_setting(page, "speed", "normal")
        page.evaluate(WATCH_LOG)
        take_turn(page, rng)
        skip = page.get_by_test_id("skip")
        skip.wait_for(state="visible")
        # An event that changed the board, marked there and in the log, mid-way.
        page.wait_for_selector("main[data-playing=true] [data-testid=board] [data-lit]")
        expect(page.locator("[data-testid=log] li.current")).to_have_count(1)
        page.screenshot(path=str(shots / "pacing-luxor2001-event-marked.png"))
        skip.click()
        main = page.locator("main.table")
        expect(main).to_have_attribute("data-playing", "false", timeout=500)
        assert main.get_attribute("data-shown") == main.get_attribute("data-version")
        assert wait_for_turn_or_end([page]) is page

        # Nothing was skipped silently: the log holds every entry a fresh page gets.
        shown = log_indices(page)
        page.reload()
        page.wait_for_selector("main.table")
        expect(page.locator("main.table")).to_have_attribute("data-version", str(version(page)))
        # (a page opened anew holds the newest entries: it asks for the earlier ones)
        load_whole_log(page)
        assert shown == log_indices(page)

        # The person's turn is never held back by a streak being shown: a move from the
        # list is sent at once, and the page jumps to the newest position to show it.
        # (Not every move is followed by a streak: the person may be the next to decide.)
        for _ in range(8):
            take_turn(page, rng)
            page.wait_for_function(STREAK_OR_MY_TURN, timeout=60_000)
            if page.get_by_test_id("skip").is_visible():
                break
            assert not finished(page), "the match ended before a streak followed the person's move"
        else:
            raise AssertionError("eight of the person's moves in a row were followed by no streak")
        expect(page.get_by_test_id("playing")).to_contain_text("Your turn comes after")
        # While it plays, neither the board nor the prompt bar offers the person's choices
        # (only the plain list does, which jumps to the present): looked at in one go.
        offered = page.evaluate(OFFERED_WHILE_PLAYING)
        assert offered in (0, None), f"{offered} choices offered on a board still playing"
        before = version(page)
        held = int(page.locator("main.table").get_attribute("data-pending") or 0)
        plain_moves(page).first.click()
        # Committed (a new version) or, when it reveals nothing, kept in hand (one more
        # decision pending): either way taken at once.
        page.wait_for_function(
            "([v, held]) => { const m = document.querySelector('main.table');"
            " return Number(m.dataset.version) !== v || Number(m.dataset.pending) > held; }",
            arg=[before, held],
            timeout=5_000,
        )
        assert page_errors(page) == []
    finally:
        ctx.close()

    # Someone who asked their system for reduced motion sees every move at once.
    calm = browser.new_context(viewport=VIEWPORT, locale="en-GB", reduced_motion="reduce")
    try:
        page = new_person(calm, speed=None)
        page.goto(table_url)
        page.wait_for_selector("main.table")
        expect(page.get_by_test_id("speed")).to_have_value("instant")
        assert wait_for_turn_or_end([page]) is page
        take_turn(page, rng)
        assert wait_for_turn_or_end([page]) is page
        assert page.get_by_test_id("skip").count() == 0
        assert page_errors(page) == []
    finally:
        calm.close()


def test_moves_on_the_horus_and_luxor_boards_are_marked_as_they_play(
    browser: Browser, server: Server, shots: Path
) -> None:
    """Screenshots of an event being shown on the two other boards, looked at by a person:
    the piece that moved, the block that fell, the die rolled, marked."""
    rng = random.Random(4)
    for game in ("horus", "luxor"):
        ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
        try:
            page = new_person(ctx, speed="normal")
            create_table(page, server.url, game, ["me", "bot:easy"])
            page.evaluate(WATCH_WALK)
            marked = 0
            for _ in range(12):
                if wait_for_turn_or_end([page]) is not page:
                    break
                take_turn(page, rng)
                # Either the bot's move comes and is being shown, marked, or the person's
                # turn goes on (no one else moved yet).
                shown = page.wait_for_function(
                    """() => {
                        const m = document.querySelector('main.table');
                        if (m.dataset.playing === 'true'
                            && m.querySelector('[data-testid=board] [data-lit]')) return 'marked';
                        if (m.classList.contains('finished')) return 'end';
                        if (m.dataset.playing === 'false'
                            && m.querySelector('[data-testid=prompt].mine')) return 'turn';
                        return false;
                    }"""
                ).json_value()
                if shown != "marked":
                    continue
                marked += 1
                page.wait_for_timeout(150)  # mid-way through the event's movement
                page.screenshot(path=str(shots / f"pacing-{game}-event-marked.png"))
                expect(page.locator("[data-testid=log] li.current")).not_to_have_count(0)
                # (The skip button itself is tested above; the streak may be over by now.)
                page.evaluate("() => document.querySelector('[data-testid=skip]')?.click()")
                break
            assert marked >= 1, f"no move of the bot was shown marked on the {game} board"
            if game == "luxor":  # every turn there moves an adventurer along the path
                assert page.evaluate("() => window.__walks") > 0, "the adventurer walked"
            assert page_errors(page) == []
        finally:
            ctx.close()
