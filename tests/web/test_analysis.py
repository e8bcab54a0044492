"""The analysis of a finished match and the hints, in a real headless Chromium.

For each game, a match of bots plays to its end; its table shows the analysis under the
summary once the server has made it (every seat's line of chances, the figures per seat,
the key moments), and a click on the graph opens the replay at that step. In the replay
the panel is there too: a click on the graph moves the replay, the seat shown has the
bold line, the log carries the decisions' marks, and a marked decision opens with the
preferred move drawn on the board. At a casual table that allows hints the Hint button
names three moves and the log says the seat asked; a rated table has no button.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.clients import Server
from tests.web.people import VIEWPORT, WAIT, my_turn, new_person, page_errors
from tests.web.test_accounts import sign_in

#: A game's match of two bots to its end, and then the analysis: minutes on a loaded machine.
LONG = 300_000


def _finished_table(server: Server, game: str) -> dict[str, Any]:
    created = server.create_table(game, ["bot:easy", "bot:easy"])
    deadline = time.monotonic() + LONG / 1000
    url = f"/api/tables/{created['table_id']}"
    while server.get(url, created["creator_token"]).json()["status"] != "finished":
        assert time.monotonic() < deadline, f"the {game} match did not end"
        time.sleep(0.5)
    return created


def _analysed(page: Page) -> None:
    expect(page.get_by_test_id("analysis-graph")).to_be_visible(timeout=LONG)


def _click_graph(page: Page, share: float) -> None:
    graph = page.get_by_test_id("analysis-graph")
    box = graph.bounding_box()
    assert box is not None
    graph.click(position={"x": box["width"] * share, "y": box["height"] / 2})


@pytest.mark.parametrize("game", ["luxor2001", "luxor", "horus"])
def test_a_finished_match_is_explained_and_its_graph_moves_the_replay(
    browser: Browser, server: Server, shots: Path, game: str
) -> None:
    created = _finished_table(server, game)
    table_id, watch = created["table_id"], created["spectator_token"]
    context = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(context)
        page.goto(f"{server.url}/t/{table_id}#{watch}")
        expect(page.get_by_test_id("summary")).to_be_visible()
        panel = page.get_by_test_id("analysis")
        expect(panel).to_be_visible()
        _analysed(page)
        analysis = server.get(f"/api/tables/{table_id}/analysis", watch).json()["analysis"]
        assert analysis is not None
        # A line per seat; a dot per marked decision; a row of figures per seat.
        expect(panel.locator("svg path[data-seat]")).to_have_count(2)
        marked = [d for d in analysis["decisions"] if d["mark"]]
        expect(panel.locator("svg circle.mark")).to_have_count(len(marked))
        for seat in analysis["seats"]:
            row = page.get_by_test_id(f"analysis-seat-{seat['seat']}")
            expect(row).to_contain_text(f"{round(seat['start'] * 100)}%")
            expect(row).to_contain_text(f"{round(seat['result'] * 100)}%")
        expect(page.get_by_test_id("analysis-moments").locator("li")).to_have_count(3)
        panel.screenshot(path=str(shots / f"analysis-{game}-table.png"))
        # A click on the graph opens the replay at that step.
        _click_graph(page, 0.5)
        expect(page.locator("main.replay")).to_be_visible()
        steps = len(analysis["chances"]) - 1
        step_text = page.get_by_test_id("step")
        expect(step_text).not_to_have_text(re.compile(r"^\D*0\D"))
        first = _step(page)
        assert abs(first - steps / 2) <= max(2, steps * 0.05), (first, steps)
        # In the replay, the graph moves it again.
        _analysed(page)
        before = step_text.inner_text()
        _click_graph(page, 0.9)
        expect(step_text).not_to_have_text(before)
        second = _step(page)
        assert abs(second - steps * 0.9) <= max(2, steps * 0.05), (second, steps)
        # The seat shown has the bold line.
        page.get_by_test_id("replay-seat").select_option("1")
        expect(page.locator("[data-testid=analysis] path[data-seat='1']")).to_have_attribute(
            "stroke-width", "3.5"
        )
        expect(page.locator("[data-testid=analysis] path[data-seat='0']")).to_have_attribute(
            "stroke-width", "1.5"
        )
        if marked:
            # A marked decision opens at its step, from its seat's view, the preferred move
            # outlined on the board, and the log marks it.
            decision = marked[0]
            page.get_by_test_id("replay-seat").select_option(str(decision["seat"]))
            page.get_by_test_id(f"analysis-seat-{decision['seat']}").locator("button").click()
            page.get_by_test_id("analysis-marked").locator(
                f"button[data-step='{decision['index']}']"
            ).click()
            expect(page.get_by_test_id("ghost-note")).to_be_visible()
            assert _step(page) == decision["index"]
            if decision["preferred"] and decision["preferred"]["targets"]:
                expect(page.locator("[data-testid=board].ghost .pick").first).to_be_visible()
            board = page.get_by_test_id("board")
            expect(board).to_be_in_viewport()
            board.screenshot(path=str(shots / f"analysis-{game}-ghost.png"))
            page.get_by_test_id("forward").click()
            expect(page.get_by_test_id("log-mark").first).to_be_visible()
        page.screenshot(path=str(shots / f"analysis-{game}-replay.png"), full_page=True)
        assert page_errors(page) == []
    finally:
        context.close()


def _step(page: Page) -> int:
    found = re.search(r"\d+", page.get_by_test_id("step").inner_text())
    assert found is not None
    return int(found.group(0))


def test_a_hint_at_a_casual_table_and_none_at_a_rated_one(
    browser: Browser, server: Server, shots: Path
) -> None:
    context = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(context)
        page.goto(server.url + "/")
        page.get_by_test_id("choose-luxor2001").click()
        page.locator("#opt-players").select_option("2")
        page.get_by_test_id("seat-type-0").select_option("me")
        page.get_by_test_id("seat-type-1").select_option("bot")
        page.get_by_test_id("hints").check()
        page.get_by_test_id("create").click()
        page.get_by_test_id("open-table").click()
        page.wait_for_selector("main.table")
        expect(page.get_by_test_id("hints-allowed")).to_be_visible()
        deadline = time.monotonic() + WAIT / 1000
        while not my_turn(page):
            assert time.monotonic() < deadline, "never my turn"
            page.wait_for_timeout(200)
        page.get_by_test_id("hint").click()
        moves = page.get_by_test_id("hint-moves").locator("li")
        expect(moves).to_have_count(3)
        expect(moves.first).to_contain_text("%")
        expect(page.get_by_test_id("log")).to_contain_text("You asked for a hint")
        page.screenshot(path=str(shots / "hint-casual.png"))
        assert page_errors(page) == []

        # A rated table (an account's): hints cannot be chosen, and the table has no button.
        sign_in(page, server.url, "Hathor", create=True)
        page.get_by_test_id("choose-luxor2001").click()
        page.locator("#opt-players").select_option("2")
        page.get_by_test_id("seat-type-0").select_option("me")
        page.get_by_test_id("seat-type-1").select_option("bot")
        page.get_by_test_id("hints").check()
        page.get_by_test_id("rated").check()
        expect(page.get_by_test_id("hints")).to_be_disabled()
        page.get_by_test_id("create").click()
        page.get_by_test_id("open-table").click()
        page.wait_for_selector("main.table")
        deadline = time.monotonic() + WAIT / 1000
        while not my_turn(page):
            assert time.monotonic() < deadline, "never my turn at the rated table"
            page.wait_for_timeout(200)
        expect(page.get_by_test_id("hints-allowed")).to_have_count(0)
        expect(page.get_by_test_id("hint")).to_have_count(0)
        assert page_errors(page) == []
    finally:
        context.close()
