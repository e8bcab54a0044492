"""Nothing on the page runs ahead of the playback of other seats' moves, in Chromium.

While a bot's moves are being shown one at a time, every part of the page shows the
position the playback has reached: the players' panels (scores, what each seat holds) and
the end's results. The tests read every ``state`` message the page receives on its
WebSocket, which say the seat's view after each version (``steps``) and the breakdown and
status at each message's version, and sample the page while it plays: each sample's
panels must be the position of the version drawn, never the newest one. After the
playback the last move of the other seat stays marked on the board.

- luxor, a person against two bots at the normal pace: the panels' scores are the
  view's scores at the version drawn (luxor's scores rise as tiles are taken);
- horus, a person who leaves the pyramid while the bot's adventurer is still inside: the
  bot plays on alone to the end, and the result waits for the last of its moves to be
  shown (it once appeared with dozens of moves still to show).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from necropolis.engine.protocol import State
from tests.clients import Server
from tests.web.conftest import Fresh
from tests.web.people import (
    VIEWPORT,
    WAIT,
    create_table,
    new_person,
    page_errors,
    score_hidden,
    score_text,
    take_turn,
    version,
    wait_for_turn_or_end,
)
from tests.web.test_undo import leaving, prepare


class Frames:
    """The ``state`` messages a page received, as the positions they tell of."""

    def __init__(self, page: Page) -> None:
        self.messages: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._received))

    def _received(self, data: str | bytes) -> None:
        message = json.loads(data)
        if isinstance(message, dict) and message.get("type") == "state":
            self.messages.append(message)

    def view_at(self, version: int) -> dict[str, Any] | None:
        """This seat's view after ``version``: the message's own, or a step's."""
        for m in reversed(self.messages):
            if m["version"] == version:
                return dict(m["view"])
            for step in m.get("steps") or []:
                if step["version"] == version and step["view"] is not None:
                    return dict(step["view"])
        return None

    def reached(self, version: int) -> dict[str, Any]:
        """The newest message at or before ``version``."""
        found = [m for m in self.messages if m["version"] <= version]
        return max(found, key=lambda m: m["version"])

    @property
    def newest(self) -> dict[str, Any]:
        return max(self.messages, key=lambda m: m["version"])


SAMPLE = """() => {
    const m = document.querySelector('main.table');
    const scores = {};
    for (const s of document.querySelectorAll('[data-testid^=score-]'))
        scores[s.dataset.testid.slice(6)] = s.textContent.trim();
    const status = {};
    for (const s of document.querySelectorAll('[data-testid^=status-]'))
        status[s.dataset.testid.slice(7)] = s.getAttribute('aria-label');
    return {
        playing: m.dataset.playing === 'true',
        shown: Number(m.dataset.shown),
        version: Number(m.dataset.version),
        finished: m.classList.contains('finished'),
        summary: !!document.querySelector('[data-testid=summary]'),
        scores, status,
    };
}"""


def sample(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(SAMPLE)
    return found


def hidden_seats(message: dict[str, Any]) -> set[int]:
    """The seats some of whose score the message's breakdown keeps from the reader."""
    return {int(b["seat"]) for b in message.get("breakdown") or [] if score_hidden(b)}


def test_luxors_scores_follow_the_playback_not_the_newest_state(
    browser: Browser, server: Server, shots: Path
) -> None:
    rng = random.Random(3)
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx, speed="normal")
        frames = Frames(page)
        create_table(page, server.url, "luxor", ["me", "bot:easy", "bot:easy"])
        checked = 0
        ahead = 0
        for _ in range(12):
            if wait_for_turn_or_end([page]) is not page or (ahead >= 2 and checked >= 20):
                break
            take_turn(page, rng)
            for _ in range(200):
                now = sample(page)
                if not now["playing"]:
                    if now["shown"] == now["version"]:
                        break
                    page.wait_for_timeout(50)
                    continue
                view = frames.view_at(now["shown"])
                if view is None:
                    page.wait_for_timeout(50)
                    continue
                # The panels' scores are the scores of the version drawn (marked as partly
                # hidden as the breakdown the playback has reached says: a bot holding a
                # scarab on no points reads "?")...
                hidden = set() if now["finished"] else hidden_seats(frames.reached(now["shown"]))
                drawn = {str(s): score_text(v, s in hidden) for s, v in enumerate(view["scores"])}
                assert now["scores"] == drawn, (now, drawn)
                checked += 1
                # ... even when the newest state's differ (they rose meanwhile).
                if frames.newest["view"]["scores"] != view["scores"]:
                    ahead += 1
                    if ahead == 1:
                        page.screenshot(path=str(shots / "playback-luxor-scores-behind.png"))
                page.wait_for_timeout(60)
        assert checked >= 10, f"only {checked} samples taken while the bots' moves played"
        assert ahead >= 1, "no sample caught the newest scores ahead of the drawn ones"
        assert page_errors(page) == []
    finally:
        ctx.close()


def out_first(state: State, seat: int) -> int | None:
    """Horus, seat 0 at the entrance able to leave, the other adventurer still inside."""
    if seat != 0:
        return None
    players = state.view(0)["players"]
    if any(p["seat"] != 0 and p["status_id"] != 1 for p in players):
        return None
    return leaving(state, seat)


def test_the_horus_result_waits_for_the_last_move_to_be_shown(
    browser: Browser, fresh: Fresh, shots: Path
) -> None:
    # A connection further behind than the table keeps steps is shown the newest at once
    # (docs/protocol.md, steps): on a loaded machine the bot can play its last turns so
    # fast that the page is sent the end with no playback to watch. What is held every
    # time is that nothing of the end shows before its last move; that a playback was
    # watched at all is asked of one try in three.
    watched: list[tuple[int, int]] = []
    for _ in range(3):
        if fresh.server is not None:
            fresh.server.stop()
        watched.append(_watch_the_horus_end(browser, fresh, shots))
        checked, caught = watched[-1]
        if checked >= 5 and caught >= 1:
            break
    else:
        raise AssertionError(
            f"no try watched the bot's last moves played back (samples, ends caught): {watched}"
        )


def _watch_the_horus_end(browser: Browser, fresh: Fresh, shots: Path) -> tuple[int, int]:
    """One try: the person leaves the pyramid and the bot plays on alone to the end;
    answers the samples taken while the page played moves back, and how many of them
    saw the match already over on the server."""
    prepared = prepare(fresh, "horus", out_first, seats=("me", "bot:easy"))
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx, speed="fast", ask="never")
        frames = Frames(page)
        page.goto(prepared.link(prepared.tokens[0]))
        at = prepared.state.move_number()
        expect(page.locator("main.table")).to_have_attribute("data-version", str(at))
        page.locator(f"[data-testid=prompt] button[data-action='{prepared.found}']").click()
        # The bot plays on alone to the end; the page shows its moves one at a time.
        caught = 0
        checked = 0
        for _ in range(3000):
            now = sample(page)
            if not now["playing"] and now["shown"] == now["version"] and now["finished"]:
                break
            if now["playing"]:
                reached = frames.reached(now["shown"])
                view = frames.view_at(now["shown"])
                # Neither the result nor the end's look comes before the last move shown.
                assert not now["summary"] and not now["finished"], now
                if view is not None:
                    # (the English catalog's word for a status is the view's own)
                    for p in view["players"]:
                        shown = now["status"][str(p["seat"])]
                        assert shown.lower() == p["status"].lower(), (now, p)
                    checked += 1
                if frames.newest["status"] == "finished" and reached["status"] != "finished":
                    caught += 1
                    if caught == 1:
                        page.screenshot(path=str(shots / "playback-horus-end-waits.png"))
            page.wait_for_timeout(40)
        else:
            raise AssertionError("the match's end was never shown")
        expect(page.get_by_test_id("summary")).to_be_visible(timeout=WAIT)
        page.screenshot(path=str(shots / "playback-horus-end-shown.png"))
        assert page_errors(page) == []
        return checked, caught
    finally:
        ctx.close()


def test_the_adventurer_a_bot_moved_stays_marked_after_its_move_is_shown(
    browser: Browser, server: Server, shots: Path
) -> None:
    """luxor: once a bot's turn has been shown, the adventurer it moved stays marked on the
    board in the bot's colour (it was not marked), and no other: not the person's own, nor
    one that only made room on its field for the one arriving or leaving."""
    rng = random.Random(5)
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx)
        frames = Frames(page)
        create_table(page, server.url, "luxor", ["me", "bot:easy"])
        marks = page.locator("[data-testid=board] [data-piece^='adventurer:'][data-last]")
        bots = page.locator("[data-testid=board] [data-piece^='adventurer:1:'][data-last='1']")
        before: dict[str, Any] | None = None
        moved = 0
        for _ in range(8):
            if wait_for_turn_or_end([page]) is not page:
                break
            now = frames.view_at(version(page))
            if before is not None and now is not None:
                if now["adventurers"][1] != before["adventurers"][1]:
                    moved += 1
                    expect(bots.first).to_be_visible()
                    if moved == 1:
                        page.screenshot(path=str(shots / "playback-luxor-last-move-marked.png"))
                pieces = marks.evaluate_all(
                    "es => es.map(e => e.dataset.piece + '=' + e.dataset.last)"
                )
                assert all(p.startswith("adventurer:1:") for p in pieces), pieces
            # (the person's own moves leave the bot's adventurers where they are)
            before = now
            take_turn(page, rng)
        assert moved >= 3, f"the bot moved an adventurer in only {moved} turns"
        assert page_errors(page) == []
    finally:
        ctx.close()
