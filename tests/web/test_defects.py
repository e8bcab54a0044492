"""Defects players met at the web table, each shown in a real Chromium as a person meets it.

An address that is no page says so (in each language) instead of showing the lobby; the
set-up form closes once the table is made; a friend who joined by a link finds the table
in "my tables" with its status and its seats by name; the keyboard focus stays on the
board after a move.
"""

from __future__ import annotations

import contextlib
import random
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route, expect

from tests.clients import Server, SyncSeat
from tests.web.conftest import Fresh
from tests.web.people import (
    VIEWPORT,
    create_table,
    my_turn,
    new_person,
    page_errors,
    score_hidden,
    score_text,
    take_turn,
    version,
)
from tests.web.people import wait_for_turn_or_end as wait_for_turn
from tests.web.test_undo import leaving, prepare


def test_an_unknown_address_is_not_found_in_every_language(
    browser: Browser, server: Server, shots: Path
) -> None:
    titles = {"en": "Nothing here", "nl": "Hier is niets", "it": "Qui non c'è niente"}
    for lang, title in titles.items():
        ctx = browser.new_context(viewport=VIEWPORT, locale=lang)
        try:
            page = new_person(ctx)
            response = page.goto(server.url + "/no/such/page")
            assert response is not None and response.status == 404
            expect(page.get_by_test_id("not-found")).to_contain_text(title)
            assert page.locator("[data-game]").count() == 0, "not the lobby"
            page.screenshot(path=str(shots / f"not-found-{lang}.png"))
            page.get_by_test_id("not-found").get_by_role("button").click()
            page.wait_for_selector("[data-game]")
            assert page_errors(page) == []
        finally:
            ctx.close()


def test_the_setup_closes_and_a_joined_friend_sees_the_table_in_my_tables(
    browser: Browser, server: Server, shots: Path
) -> None:
    ann_ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    bo_ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        ann = new_person(ann_ctx)
        ann.goto(server.url + "/")
        ann.get_by_test_id("choose-luxor").click()
        ann.get_by_test_id("seat-name-0").fill("Ann")
        ann.get_by_test_id("seat-type-1").select_option("link")
        ann.get_by_test_id("create").click()
        expect(ann.get_by_test_id("open-table")).to_be_visible()
        expect(ann.locator("#setup")).to_have_count(0)
        ann.screenshot(path=str(shots / "lobby-created.png"), full_page=True)
        invite = ann.get_by_test_id("invite-1").input_value()

        bo = new_person(bo_ctx)
        bo.goto(invite)
        expect(bo.locator("main.table")).to_have_attribute("data-seat", "1")
        bo.goto(server.url + "/")
        row = bo.locator("section.mine li").first
        expect(row).to_contain_text(re.compile("in play", re.IGNORECASE))
        # The seats by their people's names, Bo's own (unnamed: he chose none) marked.
        expect(row).to_contain_text(re.compile(r"Ann\W*·\W*Player 2\W*\(you\)"))
        bo.screenshot(path=str(shots / "lobby-joined-friend.png"), full_page=True)
        for page in (ann, bo):
            assert page_errors(page) == []
    finally:
        ann_ctx.close()
        bo_ctx.close()


def play_out_leaving(seats: dict[int, SyncSeat], rng: random.Random) -> None:
    """Play a horus table to its end over the seats' WebSockets: each seat leaves the
    pyramid as soon as it may (the shortest match), else makes a random legal decision."""
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, "the match did not end"
        for seat, conn in seats.items():
            with contextlib.suppress(TimeoutError):
                conn.recv(timeout=0.2)
            state = conn.state
            if state.get("status") == "finished":
                return
            if seat not in state.get("acting_seats", []) or not state.get("actions"):
                continue
            actions = state["actions"]
            leave = [a for a in actions if a["kind"] == "do_leave"]
            chosen = leave[0] if leave else actions[rng.randrange(len(actions))]
            conn.act(chosen["action"], state["version"])
            # Its answer (or a refusal and a state) before this seat acts again.
            at = state["version"]
            conn.until(lambda m, v=at: m["version"] != v or m.get("status") == "finished")


def test_a_joined_friend_finds_the_finished_table_and_its_replay_in_my_tables(
    browser: Browser, server: Server, shots: Path
) -> None:
    ann_ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    bo_ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    conns: dict[int, SyncSeat] = {}
    try:
        ann = new_person(ann_ctx)
        table = create_table(ann, server.url, "horus", ["me", "link"])
        bo = new_person(bo_ctx)
        bo.goto(table.invites[1])
        expect(bo.locator("main.table")).to_have_attribute("data-seat", "1")
        bo.goto(server.url + "/")
        row = bo.locator("section.mine li").first
        expect(row).to_contain_text(re.compile("in play", re.IGNORECASE))
        expect(row.get_by_role("button", name="Replay")).to_have_count(0)

        tokens = {0: ann.url.split("#")[1], 1: table.invites[1].split("#")[1]}
        conns = {seat: SyncSeat.connect(server, table.table_id, t) for seat, t in tokens.items()}
        play_out_leaving(conns, random.Random(3))

        bo.reload()
        row = bo.locator("section.mine li").first
        expect(row).to_contain_text(re.compile("finished", re.IGNORECASE))
        replay = row.get_by_role("button", name="Replay")
        expect(replay).to_have_count(1)
        bo.screenshot(path=str(shots / "lobby-joined-friend-finished.png"), full_page=True)
        replay.click()
        bo.wait_for_selector("main.replay")
        assert f"/t/{table.table_id}" in bo.url and "replay" in bo.url
        for page in (ann, bo):
            assert page_errors(page) == []
    finally:
        for conn in conns.values():
            conn.close()
        ann_ctx.close()
        bo_ctx.close()


def test_the_focus_stays_on_the_board_after_a_move(
    browser: Browser, server: Server, shots: Path
) -> None:
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx)
        create_table(page, server.url, "luxor2001", ["me", "bot:easy"])
        rng = random.Random(4)
        on_board = 0
        for _ in range(12):
            if on_board == 3:
                break
            assert wait_for_turn([page]) is page
            assert my_turn(page)
            before = version(page)
            # A keyboard player: Tab to a board target, Enter, until the move is sent (a
            # loaded machine may take a while to draw the next step: try for longer).
            # Some choices have no target of their own on the board (luxor2001's two pairs
            # at one pillar, told apart only in words): the player then tabs to the prompt
            # bar's buttons, and that move does not count as one made on the board.
            by_board = True
            for _ in range(80):
                if version(page) != before:
                    break
                confirm = page.get_by_test_id("confirm-ok")
                if confirm.count():
                    # A move that commits the turn in hand is confirmed: the dialog has
                    # put the focus on its OK, and Enter presses it.
                    expect(confirm).to_be_focused()
                    page.keyboard.press("Enter")
                    page.wait_for_timeout(250)
                    continue
                targets = page.locator("[data-testid=board] .pick")
                if targets.count():
                    targets.nth(rng.randrange(targets.count())).focus()
                else:
                    buttons = page.locator("[data-testid=prompt] button.primary")
                    if not buttons.count():
                        # Sent: the answer is on its way (and may be a decision in hand
                        # with the next one to make, at the same version).
                        page.wait_for_timeout(250)
                        continue
                    buttons.nth(rng.randrange(buttons.count())).focus()
                    by_board = False
                page.keyboard.press("Enter")
                page.wait_for_timeout(250)
            page.wait_for_function(
                "v => Number(document.querySelector('main.table').dataset.version) !== v",
                arg=before,
            )
            if not by_board:
                continue
            on_board += 1
            inside = page.evaluate(
                "() => !!document.activeElement"
                " && !!document.activeElement.closest('[data-testid=board]')"
            )
            assert inside, "after the move the keyboard focus is still on the board"
        assert on_board == 3, "three moves made on the board alone"
        assert page_errors(page) == []
    finally:
        ctx.close()


def server_scores(watcher: SyncSeat, at: int) -> list[str]:
    """Each seat's score as the server tells ``watcher`` (a spectator: the public scores;
    a seat: what that seat knows, its own hidden points included) at version ``at``: the
    game's running score when its view has one, else the breakdown's total; written as
    the page writes it, ``12+?`` (or ``?``) where part of it is hidden from ``watcher``."""
    state = watcher.until(lambda s: s["version"] >= at)
    assert state["version"] == at, "nobody moves while a hot seat's page waits"
    rows = {b["seat"]: b for b in state["breakdown"]}
    scores = (state.get("view") or {}).get("scores")
    points = (
        [int(x) for x in scores]
        if isinstance(scores, list)
        else [int(rows[seat]["total"]) for seat in sorted(rows)]
    )
    playing = state["status"] == "playing"
    return [score_text(v, playing and score_hidden(rows[s])) for s, v in enumerate(points)]


@pytest.mark.parametrize("game", ["horus", "luxor", "luxor2001"])
def test_a_hot_seat_shows_every_seats_score(
    browser: Browser, server: Server, shots: Path, game: str
) -> None:
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    watcher: SyncSeat | None = None
    try:
        page = new_person(ctx)
        table = create_table(page, server.url, game, ["me", "hotseat"])
        watcher = SyncSeat.connect(server, table.table_id, table.spectator.split("#")[1])
        # The seat whose turn the page shows sees its own hidden points (luxor2001's
        # sarcophagi it has looked at, its pharaoh's bonus), as on a page of its own: its
        # scores are compared with what the server tells that seat, on a connection opened
        # for the comparison only (while it is open the page says the seat is open
        # elsewhere).
        tokens: dict[int, str] = {
            int(seat): token
            for seat, token in page.evaluate(
                "id => JSON.parse(localStorage.getItem('necropolis.tables'))"
                ".find(t => t.table_id === id).seats"
                ".map(s => [s.seat, s.token])",
                table.table_id,
            )
        }
        assert sorted(tokens) == [0, 1]

        def seen_by(seat: int, at: int) -> list[int]:
            client = SyncSeat.connect(server, table.table_id, tokens[seat])
            try:
                return server_scores(client, at)
            finally:
                client.close()

        rng = random.Random(8)
        scores = page.locator("[data-testid=panels] .score")

        def shown() -> list[str]:
            expect(scores).to_have_count(2)
            return [scores.nth(i).inner_text() for i in range(2)]

        passes = 0
        for turn in range(8):
            # While the device is passed on, each seat's public score stays in view.
            ready = page.get_by_test_id("pass-ready")
            page.wait_for_function(
                "() => !!document.querySelector('[data-testid=pass-ready]')"
                " || !!document.querySelector('main[data-playing=false] [data-testid=prompt].mine')"
            )
            if ready.count():
                passes += 1
                assert shown() == server_scores(watcher, version(page))
                page.screenshot(path=str(shots / f"hotseat-pass-{game}.png"))
            assert wait_for_turn([page]) is page
            if turn == 0:
                page.screenshot(path=str(shots / f"hotseat-scores-{game}.png"))
            at = version(page)
            acting = watcher.until(lambda s, at=at: s["version"] >= at)["acting_seats"]
            assert len(acting) == 1
            assert shown() == seen_by(acting[0], at), f"turn {turn}: the page shows other scores"
            take_turn(page, rng)
        assert passes >= 1, "the device was passed on"
        assert page_errors(page) == []
    finally:
        if watcher is not None:
            watcher.close()
        ctx.close()


def test_the_prompt_offers_no_target_the_board_is_about_to_draw(
    browser: Browser, server: Server, shots: Path
) -> None:
    """A page opened while the board's layout is still on its way: the prompt bar does not
    offer the board's targets as buttons meanwhile (they would vanish under the finger the
    moment the board is drawn), and once the board is there its targets are on it alone."""
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx)
        create_table(page, server.url, "horus", ["me", "bot:easy"])
        assert wait_for_turn([page]) is page
        held: list[Route] = []
        page.route("**/api/games/horus/layout", lambda route: held.append(route), times=1)
        page.reload()
        page.wait_for_selector("[data-testid=prompt].mine")
        page.wait_for_timeout(500)
        assert held, "the layout is held back"
        choices = page.locator("[data-testid=prompt] button[data-choice]")
        assert choices.count() == 0, "targets offered before the board is drawn"
        for route in held:
            route.continue_()
        expect(page.locator("[data-testid=board] .pick").first).to_be_visible()
        page.wait_for_timeout(300)
        assert choices.count() == 0, "every target is on the board"
        page.screenshot(path=str(shots / "defect-late-layout.png"))
        assert page_errors(page) == []
    finally:
        ctx.close()


def test_the_order_of_the_pillars_waits_under_more_options(
    browser: Browser, server: Server, shots: Path
) -> None:
    """luxor2001's set-up asked for "the order of the pillars" in a text field among the
    options that change the game, and puzzled players: a free-text option waits under
    "More options", closed, and the games without one show no such thing."""
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx)
        page.goto(server.url + "/")
        for game in ("horus", "luxor"):
            page.get_by_test_id(f"choose-{game}").click()
            expect(page.locator("#setup")).to_be_visible()
            expect(page.locator("#setup input[type=text][id^=opt-]")).to_have_count(0)
            expect(page.get_by_test_id("more-options")).to_have_count(0)
        page.get_by_test_id("choose-luxor2001").click()
        setup = page.locator("#setup")
        expect(setup.locator("#opt-sphinx")).to_be_visible()
        pillars = setup.locator("#opt-pillar_order")
        expect(pillars).to_be_hidden()
        page.screenshot(path=str(shots / "setup-more-options-closed.png"))
        more = page.get_by_test_id("more-options")
        expect(more.locator("summary")).to_have_text("More options")
        more.locator("summary").click()
        expect(pillars).to_be_visible()
        expect(more).to_contain_text("Order of the pillars")
        # Left empty, the table is made with the pillars in the rulebook's order.
        page.get_by_test_id("create").click()
        expect(page.get_by_test_id("open-table")).to_be_visible()
        assert page_errors(page) == []
    finally:
        ctx.close()


def test_a_table_of_bots_only_is_watched_at_once(
    browser: Browser, server: Server, shots: Path
) -> None:
    """ "Your table is ready", with friends' links to send, was shown for a table of bots
    only: such a table has nobody to invite, and its creator goes straight to watching it.
    A table of the creator and bots still offers its spectator link, without asking them
    to send friends links that do not exist."""
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx)
        page.goto(server.url + "/")
        page.get_by_test_id("choose-horus").click()
        for i in range(2):
            page.get_by_test_id(f"seat-type-{i}").select_option("bot")
        page.get_by_test_id("create").click()
        expect(page.locator("main.table")).to_have_attribute("data-seat", "spectator")
        assert page.get_by_text("Your table is ready").count() == 0
        page.screenshot(path=str(shots / "bots-only-watched.png"))

        page.goto(server.url + "/")
        page.get_by_test_id("choose-horus").click()
        page.get_by_test_id("seat-type-1").select_option("bot")
        page.get_by_test_id("create").click()
        created = page.locator("#created")
        expect(created).to_contain_text("Nobody needs a link")
        expect(created).not_to_contain_text("friend")
        expect(page.get_by_test_id("spectator-link")).to_be_visible()
        assert page_errors(page) == []
    finally:
        ctx.close()


@pytest.mark.parametrize(
    ("lang", "insert", "then"),
    [
        ("en", "Insert one of your cards", "Now choose the shaft to slide it into"),
        ("nl", "Schuif een van je kaarten", "Kies nu de gleuf waarin je hem schuift"),
    ],
)
def test_after_picking_a_card_the_prompt_asks_for_a_shaft(
    browser: Browser, server: Server, shots: Path, lang: str, insert: str, then: str
) -> None:
    """luxor2001: once a card of the hand is picked, the prompt says what comes next
    (the shaft), not the turn's first words again; letting go of the card (Escape) brings
    them back."""
    ctx = browser.new_context(viewport=VIEWPORT, locale=lang)
    try:
        page = new_person(ctx)
        create_table(page, server.url, "luxor2001", ["me", "bot:easy"])
        assert wait_for_turn([page]) is page
        said = page.get_by_test_id("prompt-text")
        expect(said).to_contain_text(insert)
        card = page.locator("[data-testid=board] .pick[data-target^='hand:']").first
        card.click()
        expect(said).to_have_text(then)
        shafts = page.locator("[data-testid=board] .pick[data-target^='shaft:']")
        expect(shafts.first).to_be_visible()
        page.screenshot(path=str(shots / f"luxor2001-card-then-shaft-{lang}.png"))
        page.keyboard.press("Escape")
        expect(said).to_contain_text(insert)
        assert page_errors(page) == []
    finally:
        ctx.close()


def test_leaving_the_pyramid_is_quieter_than_the_turns_usual_moves(
    browser: Browser, fresh: Fresh, shots: Path
) -> None:
    """horus: "Leave the pyramid" (it ends the seat's game) stood in the prompt bar dressed
    as the turn's usual way on, as prominent as "End your turn"; it is quieter now (not
    the accent's fill), while the bar's other moves keep it."""
    prepared = prepare(fresh, "horus", leaving)
    action = prepared.found
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        page = new_person(ctx)
        page.goto(prepared.link(prepared.tokens[prepared.seat]))
        expect(page.locator("main.table")).to_have_attribute(
            "data-version", str(prepared.state.move_number())
        )
        expect(page.get_by_test_id("prompt")).to_have_class(re.compile(r"\bmine\b"))
        leave = page.locator(f"[data-testid=prompt] button[data-action='{action}']")
        expect(leave).to_contain_text("Leave the pyramid")
        fill = "e => getComputedStyle(e).backgroundColor"
        assert "primary" not in (leave.get_attribute("class") or "")
        # The turn's usual way on ("End your turn"), beside it, keeps the accent.
        done = page.locator("[data-testid=prompt] button[data-action]", has_text="End")
        expect(done).to_have_count(1)
        assert "primary" in (done.get_attribute("class") or "")
        assert done.evaluate(fill) != leave.evaluate(fill)
        page.get_by_test_id("prompt").screenshot(path=str(shots / "horus-leave-quiet.png"))
        assert page_errors(page) == []
    finally:
        ctx.close()
