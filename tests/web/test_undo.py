"""Undo and confirm on the web table, in a real headless Chromium, clicked as people click.

Each test prepares a table at a position of a random match (the record written to the
database before the server loads it, as any table's record is; chance outcomes drawn by
the test) where the seat to move has a decision that reveals nothing, with a second
person and a spectator watching in their own browsers. The person makes that decision on
the board: it waits in the seat's turn in hand (the page says so and offers Undo), and
neither the other seat nor the spectator sees anything of it; Undo (the button, or Ctrl+Z)
takes it back. Then the person plays the turn on: with the table's setting "Ask before:
every move that ends my turn", the decision that ends what may be taken back asks for a
confirmation in a dialog (by default it is sent at once), after which the turn reaches
everyone and Undo is gone (never across a reveal: Ctrl+Z then says there is nothing to
take back). A horus table asks, by default, before leaving the pyramid or ending a turn
with actions left, and not at all with the setting "never" (remembered in the browser).
Screenshots of the button and the dialog are saved.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from necropolis.engine import CHANCE
from necropolis.engine.driver import sample_chance
from necropolis.engine.protocol import State
from necropolis.games import load_game
from necropolis.server.db import Append, Store, make_engine
from tests.clients import Server, SyncSeat
from tests.web.conftest import Fresh
from tests.web.people import VIEWPORT, new_person, page_errors, version

Want = Callable[[State, int], Any]


@dataclass
class Prepared:
    server: Server
    table_id: str
    tokens: dict[int, str]
    spectator: str
    state: State
    seat: int
    found: Any

    def link(self, token: str) -> str:
        return f"{self.server.url}/t/{self.table_id}#{token}"


def prepare(
    fresh: Fresh, game_id: str, want: Want, seats: tuple[str, ...] = ("me", "link")
) -> Prepared:
    """A two-person table of ``game_id`` (or one of ``seats``: a bot's seat is
    ``bot:LEVEL``) at the first position of a random match, from the table's own start,
    where ``want(state, seat)`` finds something for the seat alone to move."""
    server = fresh.start()
    created = server.create_table(game_id, list(seats))
    table_id = created["table_id"]
    # The server deals the setup (chance) after creating the table: let it finish before
    # the record is read and extended here, or a last deal could land on the same index.
    seat = SyncSeat.connect(server, table_id, created["seats"][0]["token"])
    seat.until(lambda s: s["current_player"] >= 0)
    seat.close()
    server.stop()
    store = Store(make_engine(fresh.db_url))
    game = load_game(game_id, players=len(seats))
    start = game.new_initial_state()
    for _seat, action in store.actions(table_id):  # the setup the server already dealt
        start.apply_action(action)
    for seed in range(500):
        rng = random.Random(seed)
        state = start.clone()
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            if state.acting_seats() == (seat,):
                found = want(state, seat)
                if found is not None:
                    break
            legal = state.legal_actions(seat)
            state.apply_action(legal[rng.randrange(len(legal))])
        else:
            continue
        # The prepared record: every action since, chance outcomes included.
        replay = start.clone()
        done = start.move_number()
        appends = []
        for index, action in enumerate(state.history()[done:], start=done):
            actor = replay.current_player()
            appends.append(Append(table_id, index, actor if actor >= 0 else None, action, False))
            replay.apply_action(action)
        # The wanted position may be the table's start itself: nothing to add then.
        assert not appends or store.append_turns([appends]) == [True]
        server.restart()
        tokens = {int(s["seat"]): s["token"] for s in created["seats"] if s.get("token")}
        return Prepared(server, table_id, tokens, created["spectator_token"], state, seat, found)
    raise AssertionError(f"no {game_id} match reached the wanted position")


def held_on_board(state: State, seat: int) -> tuple[int, list[str], int] | None:
    """A choice that reveals nothing and is made by clicking the board: its first decision,
    its targets and the number of decisions it holds in hand (a luxor card is chosen with
    the move it makes, a way on of its descriptor's ``then``: both are held)."""
    for action in state.legal_actions(seat):
        info = state.action_info(action)
        if not info["targets"] or state.reveals(action):
            continue
        if not info.get("then"):
            return action, list(info["targets"]), 1
        for way in info["then"]:
            went = state.clone()
            went.apply_action(action)
            quiet = bool(way["actions"])
            for a in way["actions"]:
                quiet = quiet and went.current_player() == seat and not went.reveals(a)
                if not quiet:
                    break
                went.apply_action(a)
            if quiet:
                return action, [*info["targets"], *way["targets"]], 1 + len(way["actions"])
    return None


def click_targets(page: Page, targets: list[str]) -> None:
    """Click the targets in turn, on the board (or the prompt bar's button for one the
    board does not draw), until the choice is sent: a target no longer offered."""
    for target in targets:
        on_board = page.locator(f'[data-testid=board] .pick[data-target="{target}"]')
        in_bar = page.locator(f'[data-testid=prompt] button[data-choice="{target}"]')
        if on_board.count():
            on_board.first.click()
        elif in_bar.count():
            in_bar.click()
        else:
            break


def board_state(page: Page) -> tuple[str, list[str]]:
    """What the board shows in words, and what may be clicked on it."""
    board = page.get_by_test_id("board")
    targets = board.locator(".pick[data-target]")
    return board.text_content() or "", sorted(
        targets.nth(i).get_attribute("data-target") or "" for i in range(targets.count())
    )


def pending(page: Page) -> int:
    return int(page.locator("main.table").get_attribute("data-pending") or 0)


def log_lines(page: Page) -> int:
    return page.get_by_test_id("log").locator("li").count()


def open_three(
    browser: Browser, prepared: Prepared, ask: str | None = None
) -> tuple[Page, Page, Page, list[Any]]:
    contexts = [browser.new_context(viewport=VIEWPORT, locale="en-GB") for _ in range(3)]
    mover = new_person(contexts[0], ask=ask)
    mover.goto(prepared.link(prepared.tokens[prepared.seat]))
    other = new_person(contexts[1])
    other.goto(prepared.link(prepared.tokens[1 - prepared.seat]))
    watcher = new_person(contexts[2])
    watcher.goto(prepared.link(prepared.spectator))
    at = prepared.state.move_number()
    for page in (mover, other, watcher):
        expect(page.locator("main.table")).to_have_attribute("data-version", str(at))
    expect(mover.get_by_test_id("prompt")).to_have_class(re.compile(r"\bmine\b"))
    return mover, other, watcher, contexts


def play_to_the_reveal(page: Page, shots: Path, name: str) -> None:
    """Click on through the turn (the first target each time) until the page asks to
    confirm the decision that ends what may be taken back; confirm it."""
    before = version(page)
    for _ in range(40):
        dialog = page.get_by_test_id("confirm")
        if dialog.count():
            expect(dialog).to_contain_text("Are you sure?")
            expect(dialog).to_contain_text("go to the table for good")
            page.screenshot(path=str(shots / f"undo-{name}-confirm.png"))
            page.get_by_test_id("confirm-ok").click()
            break
        targets = page.locator("[data-testid=board] .pick:not(.again)")
        choices = page.locator("[data-testid=prompt] button[data-choice]")
        buttons = page.locator("[data-testid=prompt] button[data-action]")
        if targets.count():
            targets.first.click()
        elif choices.count():
            choices.first.click()
        else:
            buttons.first.click()
        # The answer: the seat's next choice (a pick on the board, or the next decision
        # in hand), the dialog, or a version moved on.
        page.wait_for_function(
            "v => { const m = document.querySelector('main.table');"
            " return !m || Number(m.dataset.version) !== v"
            " || !!document.querySelector('[data-testid=confirm]')"
            " || !!document.querySelector('[data-testid=prompt].mine'); }",
            arg=before,
        )
        if version(page) != before:
            raise AssertionError("the turn in hand was committed without a confirmation")
    page.wait_for_function(
        "v => Number(document.querySelector('main.table').dataset.version) > v", arg=before
    )


@pytest.mark.parametrize("game_id", ["horus", "luxor", "luxor2001"])
def test_undo_takes_back_a_move_no_one_else_saw_and_never_across_a_reveal(
    browser: Browser, fresh: Fresh, shots: Path, game_id: str
) -> None:
    prepared = prepare(fresh, game_id, held_on_board)
    _action, targets, held = prepared.found
    mover, other, watcher, contexts = open_three(browser, prepared, ask="turn")
    try:
        at = version(mover)
        board = board_state(mover)
        seen = {page: log_lines(page) for page in (other, watcher)}
        assert mover.get_by_test_id("undo").count() == 0  # nothing in hand yet
        click_targets(mover, targets)
        expect(mover.locator("main.table")).to_have_attribute("data-pending", str(held))
        expect(mover.get_by_test_id("undo")).to_be_visible()
        expect(mover.get_by_test_id("in-hand")).to_contain_text("not yet shown to the others")
        mover.screenshot(path=str(shots / f"undo-{game_id}-button.png"))
        # The others see nothing of it.
        for page in (other, watcher):
            assert version(page) == at and log_lines(page) == seen[page]
            assert pending(page) == 0
        mover.get_by_test_id("undo").click()
        expect(mover.locator("main.table")).to_have_attribute("data-pending", "0")
        assert version(mover) == at
        expect(mover.get_by_test_id("undo")).to_have_count(0)
        assert board_state(mover) == board
        # Ctrl+Z does the same.
        click_targets(mover, targets)
        expect(mover.locator("main.table")).to_have_attribute("data-pending", str(held))
        mover.keyboard.press("Control+z")
        expect(mover.locator("main.table")).to_have_attribute("data-pending", "0")
        # Again, and on to the reveal: confirmed, the turn reaches everyone at once.
        click_targets(mover, targets)
        expect(mover.locator("main.table")).to_have_attribute("data-pending", str(held))
        play_to_the_reveal(mover, shots, game_id)
        after = version(mover)
        assert after > at + 1  # the held decision and the one that revealed, together
        for page in (other, watcher):
            page.wait_for_function(
                "v => Number(document.querySelector('main.table').dataset.version) >= v",
                arg=after,
            )
            assert log_lines(page) > seen[page]
        # Across the reveal there is nothing to take back, and Ctrl+Z says so.
        expect(mover.get_by_test_id("undo")).to_have_count(0)
        expect(mover.get_by_test_id("no-undo")).to_have_count(0)
        mover.keyboard.press("Control+z")
        expect(mover.get_by_test_id("no-undo")).to_contain_text("Nothing to take back")
        mover.screenshot(path=str(shots / f"undo-{game_id}-nothing-to-take-back.png"))
        assert mover.locator(".refused").count() == 0 and version(mover) >= after
        for page in (mover, other, watcher):
            assert page_errors(page) == []
    finally:
        for context in contexts:
            context.close()


def forfeiting(state: State, seat: int) -> int | None:
    """Horus: leaving the pyramid, or ending a turn with actions left, is legal now."""
    for action in state.legal_actions(seat):
        if state.forfeits(action):
            return action
    return None


def test_horus_asks_before_leaving_or_giving_up_actions(
    browser: Browser, fresh: Fresh, shots: Path
) -> None:
    prepared = prepare(fresh, "horus", forfeiting)
    action = prepared.found
    text = prepared.state.action_info(action)["text"]
    mover, other, watcher, contexts = open_three(browser, prepared)
    try:
        at = version(mover)
        mover.locator(f"[data-testid=prompt] button[data-action='{action}']").click()
        dialog = mover.get_by_test_id("confirm")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text(text)
        expect(dialog).to_contain_text("cannot be taken back")
        expect(mover.get_by_test_id("confirm-ok")).to_be_focused()
        mover.screenshot(path=str(shots / "undo-horus-forfeit-confirm.png"))
        # Going back changes nothing, and the focus is back on the move's button (a
        # keyboard player keeps their place).
        button = mover.locator(f"[data-testid=prompt] button[data-action='{action}']")
        mover.get_by_test_id("confirm-cancel").click()
        expect(dialog).to_have_count(0)
        expect(button).to_be_focused()
        assert version(mover) == at and pending(mover) == 0
        # Escape closes it too; then confirmed, the move is made.
        button.click()
        expect(dialog).to_be_visible()
        mover.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        expect(button).to_be_focused()
        mover.locator(f"[data-testid=prompt] button[data-action='{action}']").click()
        mover.get_by_test_id("confirm-ok").click()
        mover.wait_for_function(
            "v => Number(document.querySelector('main.table').dataset.version) > v", arg=at
        )
        other.wait_for_function(
            "v => Number(document.querySelector('main.table').dataset.version) > v", arg=at
        )
        for page in (mover, other, watcher):
            assert page_errors(page) == []
    finally:
        for context in contexts:
            context.close()


def two_cards_one_with_ways(
    state: State, seat: int
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Luxor: both end cards may be played, and one of them moves adventurers from two
    fields or more (its descriptor's ways on), so that a person has something to choose."""
    infos = [state.action_info(a) for a in state.legal_actions(seat)]
    if len(infos) != 2 or not all(i["kind"].startswith("play_card") for i in infos):
        return None
    for first, other in (infos, infos[::-1]):
        ways = first.get("then") or []
        if len({w["targets"][0] for w in ways}) >= 2 and all(w["actions"] for w in ways):
            return first, other
    return None


def marked(ways: list[dict[str, Any]]) -> list[str]:
    """The fields a board marks once a card with these ways on is chosen: the adventurers
    that may go, or where the only one goes, picked for the person, when it may go two ways."""
    origins = {w["targets"][0] for w in ways}
    if len(origins) == 1 and len(ways) > 1:
        return sorted({w["targets"][1] for w in ways})
    return sorted(origins)


def sent_acts(frames: list[str]) -> list[dict[str, Any]]:
    out = []
    for frame in frames:
        msg = json.loads(frame)
        if msg.get("type") in ("act", "undo", "commit"):
            out.append(msg)
    return out


def test_luxor_a_card_click_selects_and_the_adventurer_click_plays(
    browser: Browser, fresh: Fresh, shots: Path
) -> None:
    """A hand card is chosen by clicking it: nothing reaches the server (the WebSocket's
    frames are read) until the adventurer it moves is clicked; another card, or the same
    again, changes or drops the choice; the keyboard does the same."""
    prepared = prepare(fresh, "luxor", two_cards_one_with_ways)
    card, other = prepared.found
    ways = card["then"]
    origins = sorted({w["targets"][0] for w in ways})
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        mover = new_person(ctx)
        frames: list[str] = []
        mover.on("websocket", lambda ws: ws.on("framesent", lambda data: frames.append(str(data))))
        mover.goto(prepared.link(prepared.tokens[prepared.seat]))
        at = prepared.state.move_number()
        table = mover.locator("main.table")
        expect(table).to_have_attribute("data-version", str(at))
        expect(mover.get_by_test_id("prompt")).to_have_class(re.compile(r"\bmine\b"))
        board = mover.get_by_test_id("board")
        pick = lambda target: board.locator(f'.pick[data-target="{target}"]')  # noqa: E731
        fields = lambda: sorted(  # noqa: E731
            board.locator('.pick[data-target^="field:"]').evaluate_all(
                "els => els.map(e => e.dataset.target)"
            )
        )
        pressed = lambda: board.locator('.pick[aria-pressed="true"]').evaluate_all(  # noqa: E731
            "els => els.map(e => e.dataset.target)"
        )
        card_target, other_target = card["targets"][0], other["targets"][0]

        # The card: selected, its adventurers marked, nothing sent.
        pick(card_target).click()
        expect(board.locator('.pick[aria-pressed="true"]')).to_have_count(1)
        assert pressed() == [card_target]
        assert fields() == origins
        mover.screenshot(path=str(shots / "luxor-card-selected.png"))
        # The other card instead: the marks follow it.
        pick(other_target).click()
        expect(pick(other_target)).to_have_attribute("aria-pressed", "true")
        assert pressed() == [other_target]
        assert fields() == marked(other.get("then") or [])
        # The same card again: no card chosen, no adventurer marked.
        pick(other_target).click()
        expect(board.locator('.pick[aria-pressed="true"]')).to_have_count(0)
        assert fields() == []
        # The keyboard: Enter on the card selects it.
        pick(card_target).focus()
        mover.keyboard.press("Enter")
        expect(pick(card_target)).to_have_attribute("aria-pressed", "true")
        mover.wait_for_timeout(300)
        assert sent_acts(frames) == [], "a card click sent something to the server"
        assert int(table.get_attribute("data-pending") or 0) == 0
        assert int(table.get_attribute("data-version") or 0) == at

        # The adventurer (and where it lands, when it may go two ways), with Enter.
        way = ways[0]
        for target in way["targets"]:
            if not pick(target).count():
                break
            pick(target).focus()
            mover.keyboard.press("Enter")
        mover.wait_for_function(
            "([v, p]) => { const m = document.querySelector('main.table');"
            " return Number(m.dataset.version) !== v || Number(m.dataset.pending) >= p; }",
            arg=[at, 1 + len(way["actions"])],
        )
        acts = sent_acts(frames)
        assert [m["action"] for m in acts] == [card["action"], *way["actions"]]
        assert acts[0]["version"] == at and acts[0]["pending"] == 0
        # The move landed: the log says the adventurer left its field.
        origin = int(way["targets"][0].split(":")[1])
        place = "the stairs" if origin == 0 else f"field {origin}"
        expect(mover.get_by_test_id("log")).to_contain_text(f"from {place}")
        mover.screenshot(path=str(shots / "luxor-card-played.png"))
        assert page_errors(mover) == []
    finally:
        ctx.close()


def leaving(state: State, seat: int) -> int | None:
    """Horus: the seat's adventurer stands at the entrance, and leaving is legal."""
    for action in state.legal_actions(seat):
        if state.action_info(action)["kind"] == "do_leave":
            return action
    return None


def test_horus_asks_before_leaving_the_pyramid(browser: Browser, fresh: Fresh, shots: Path) -> None:
    """Leaving the pyramid ends the seat's game: the page asks first. Cancel sends nothing
    to the server (the WebSocket's frames are read); OK sends the move, which lands."""
    prepared = prepare(fresh, "horus", leaving)
    action = prepared.found
    assert prepared.state.forfeits(action)
    text = prepared.state.action_info(action)["text"]
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        mover = new_person(ctx)
        frames: list[str] = []
        mover.on("websocket", lambda ws: ws.on("framesent", lambda data: frames.append(str(data))))
        mover.goto(prepared.link(prepared.tokens[prepared.seat]))
        at = prepared.state.move_number()
        table = mover.locator("main.table")
        expect(table).to_have_attribute("data-version", str(at))
        expect(mover.get_by_test_id("prompt")).to_have_class(re.compile(r"\bmine\b"))
        leave = mover.locator(f"[data-testid=prompt] button[data-action='{action}']")
        expect(leave).to_contain_text("Leave the pyramid")
        dialog = mover.get_by_test_id("confirm")

        leave.click()
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text(text)
        expect(dialog).to_contain_text("cannot be taken back")
        mover.screenshot(path=str(shots / "undo-horus-leave-confirm.png"))
        mover.get_by_test_id("confirm-cancel").click()
        expect(dialog).to_have_count(0)
        # Long enough for a frame to go out had Cancel sent one.
        mover.wait_for_timeout(500)
        assert sent_acts(frames) == [], "Cancel sent the move to the server"
        assert version(mover) == at and pending(mover) == 0
        expect(leave).to_be_visible()

        leave.click()
        expect(dialog).to_be_visible()
        mover.get_by_test_id("confirm-ok").click()
        expect(dialog).to_have_count(0)
        mover.wait_for_function(
            "v => Number(document.querySelector('main.table').dataset.version) > v", arg=at
        )
        acts = sent_acts(frames)
        assert [m["action"] for m in acts if m["type"] == "act"] == [action]
        assert acts[0]["version"] == at
        expect(mover.get_by_test_id("log")).to_contain_text("left the pyramid")
        assert page_errors(mover) == []
    finally:
        ctx.close()


def test_by_default_the_end_of_a_turn_in_hand_is_not_asked(
    browser: Browser, fresh: Fresh, shots: Path
) -> None:
    """The table's default asks only before moves that end or give up something: the
    decision that commits a turn in hand (a luxor2001 pair kept, say) is sent at once,
    and Undo is there until then."""
    prepared = prepare(fresh, "luxor2001", held_on_board)
    _action, targets, held = prepared.found
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        mover = new_person(ctx)
        mover.goto(prepared.link(prepared.tokens[prepared.seat]))
        at = prepared.state.move_number()
        expect(mover.locator("main.table")).to_have_attribute("data-version", str(at))
        # (the board drawn, its targets there to click)
        expect(
            mover.locator(f'[data-testid=board] .pick[data-target="{targets[0]}"]')
        ).to_be_visible()
        click_targets(mover, targets)
        expect(mover.locator("main.table")).to_have_attribute("data-pending", str(held))
        expect(mover.get_by_test_id("undo")).to_be_visible()
        for _ in range(40):
            if version(mover) != at:
                break
            assert mover.get_by_test_id("confirm").count() == 0, "a commit was asked about"
            for sel in (
                "[data-testid=board] .pick:not(.again)",
                "[data-testid=prompt] button[data-choice]",
                "[data-testid=prompt] button[data-action]",
            ):
                found = mover.locator(sel)
                if found.count():
                    found.first.click()
                    break
            mover.wait_for_function(
                "v => { const m = document.querySelector('main.table');"
                " return Number(m.dataset.version) !== v"
                " || !!document.querySelector('[data-testid=confirm]')"
                " || !!document.querySelector('[data-testid=prompt].mine'); }",
                arg=at,
            )
        assert version(mover) > at + 1
        assert mover.get_by_test_id("confirm").count() == 0
        assert page_errors(mover) == []
    finally:
        ctx.close()


def test_asking_before_a_move_is_a_setting_remembered_in_the_browser(
    browser: Browser, fresh: Fresh, shots: Path
) -> None:
    """Horus, an adventurer at the entrance: leaving the pyramid is asked about by default;
    with "Ask before: never" (the table's settings) it is sent at once, and the setting is
    still chosen after a reload."""
    prepared = prepare(fresh, "horus", leaving)
    action = prepared.found
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    try:
        mover = new_person(ctx)
        mover.goto(prepared.link(prepared.tokens[prepared.seat]))
        at = prepared.state.move_number()
        expect(mover.locator("main.table")).to_have_attribute("data-version", str(at))
        leave = mover.locator(f"[data-testid=prompt] button[data-action='{action}']")
        expect(mover.get_by_test_id("ask")).to_have_value("forfeits")
        leave.click()
        expect(mover.get_by_test_id("confirm")).to_be_visible()
        expect(mover.get_by_test_id("confirm")).to_contain_text("Ask before")
        mover.get_by_test_id("confirm-cancel").click()

        mover.get_by_test_id("settings").click()
        mover.screenshot(path=str(shots / "settings-ask-before.png"))
        mover.get_by_test_id("ask").select_option("never")
        mover.get_by_test_id("settings").click()
        mover.reload()
        expect(mover.locator("main.table")).to_have_attribute("data-version", str(at))
        expect(mover.get_by_test_id("ask")).to_have_value("never")
        leave.click()
        mover.wait_for_function(
            "v => Number(document.querySelector('main.table').dataset.version) > v", arg=at
        )
        assert mover.get_by_test_id("confirm").count() == 0
        expect(mover.get_by_test_id("log")).to_contain_text("left the pyramid")
        assert page_errors(mover) == []
    finally:
        ctx.close()
