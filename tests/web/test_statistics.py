"""The figures of a finished match (issue 44 §6), in a real headless Chromium.

A signed-in player's match is played to its end by a bot standing in for her (her turn's
few seconds pass) against an easy bot. Beside the final scores the table page shows a
table of the game's telling figures, a row per figure and a column per seat, each row in
the reader's language (the game's catalog) with the values the server counted; so does
the replay at its last step; and her profile lists the match with her own figures. No
row of the final scores has an empty cell (luxor2001's pharaoh card without a researcher
had one).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.clients import Server, SyncSeat
from tests.web.people import WAIT, new_person, page_errors
from tests.web.test_accounts import sign_in

WEB = Path(__file__).resolve().parents[2] / "web"
LAPTOP = {"width": 1366, "height": 768}


def catalog(game: str, lang: str) -> dict[str, str]:
    found: dict[str, str] = json.loads(
        (WEB / "src" / "i18n" / "games" / f"{game}.{lang}.json").read_text(encoding="utf-8")
    )
    return found


def figures_shown(page: Page) -> list[tuple[str, list[str]]]:
    """The figures' table as a person reads it: each row's label and its values."""
    rows = page.get_by_test_id("statistics").locator("tbody tr")
    return [
        (
            rows.nth(i).locator("th").inner_text().strip(),
            [v.strip() for v in rows.nth(i).locator("td").all_inner_texts()],
        )
        for i in range(rows.count())
    ]


# Each game once, each language once.
@pytest.mark.parametrize(("game", "lang"), [("horus", "nl"), ("luxor", "it"), ("luxor2001", "en")])
def test_the_end_shows_the_matchs_figures_at_the_table_in_the_replay_and_the_profile(
    browser: Browser, server: Server, shots: Path, game: str, lang: str
) -> None:
    ctx = browser.new_context(viewport=LAPTOP, locale="en-GB")
    try:
        page = new_person(ctx)
        name = f"Figures{game[:5]}{int(time.time() * 1000) % 100000}"
        sign_in(page, server.url, name, create=True)
        page.get_by_test_id("lang").select_option(lang)
        # The page has switched (its texts are here) before she goes on, as a person sees it.
        expect(page.locator("html")).to_have_attribute("lang", lang)
        made = page.request.post(
            f"{server.url}/api/tables",
            data={
                "game": game,
                "seats": [{"type": "me"}, {"type": "bot", "level": "easy"}],
                "clock": {"mode": "turn", "turn": 2, "rule": "bot", "level": "easy"},
            },
            headers={"X-Necropolis": "1", "Origin": server.url},
        )
        assert made.ok, made.text()
        created = made.json()
        table_id, mine = created["table_id"], created["seats"][0]["token"]
        page.goto(f"{server.url}/t/{table_id}#{mine}")
        expect(page.locator("main.table.finished")).to_be_visible(timeout=4 * WAIT)
        watcher = SyncSeat.connect(server, table_id, created["spectator_token"])
        try:
            final = watcher.until(lambda s: s["status"] == "finished")
        finally:
            watcher.close()
        texts = catalog(game, lang)
        english = catalog(game, "en")
        want = [(texts[f["kind"]], [str(v) for v in f["values"]]) for f in final["statistics"]]
        assert len(want) >= 4, final["statistics"]
        if lang != "en":
            assert all(texts[f["kind"]] != english[f["kind"]] for f in final["statistics"])

        # At the table, beside the final scores: a column per seat, a row per figure.
        summary = page.get_by_test_id("summary")
        expect(summary.get_by_test_id("statistics")).to_be_visible()
        expect(page.get_by_test_id("statistics").locator("thead th")).to_have_count(2)
        assert figures_shown(page) == want
        # No row of the final scores has an empty cell (a pharaoh card with no researcher
        # at its pillar brings no points: its sentence says so, across the row).
        cells = summary.locator(".seat tbody td")
        assert cells.count() > 0
        texts_of_cells = cells.all_inner_texts()
        assert all(t.strip() for t in texts_of_cells), texts_of_cells
        page.get_by_test_id("statistics").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"figures-{game}-{lang}.png"))

        # The replay's last step shows them too.
        page.goto(f"{server.url}/t/{table_id}?replay&step={final['version']}#{mine}")
        expect(page.get_by_test_id("statistics")).to_be_visible()
        assert figures_shown(page) == want

        # The profile's past game: her own figures.
        page.goto(f"{server.url}/p/{name}")
        past = page.locator(f"[data-testid=past-game][data-table='{table_id}']")
        expect(past.get_by_test_id("past-figures")).to_be_visible()
        shown = past.get_by_test_id("past-figures").inner_text()
        for label, values in want:
            assert f"{label}: {values[0]}" in shown, shown
        assert page_errors(page) == []
    finally:
        ctx.close()
