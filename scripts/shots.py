"""Screenshots of each game's table at its start, middle and end, as a person sees them.

For each game and player count asked, starts ``necropolis serve`` on a throwaway SQLite
file and makes three tables (the person in seat 1, bots in the others). The first is shown
as the server deals it, at the person's first turn. For the other two the script writes a
match record into the database as any table's record is written (a seeded match played
by the game's heuristic, chance drawn by the script), the way the browser tests prepare a
position (tests/web/test_undo.py): up to the person's first turn after half the match,
and up to the person's last turn before its end, which the person then plays to the end
by clicking (tests/web/people.py) while the bots play on. Each page is shot in Debian's
Chromium at 1366×768, scrolled to its top, in English and (the middle) in Dutch too.

    .venv/bin/python scripts/shots.py                       # horus 2, luxor 2 and 4, luxor2001 2
    .venv/bin/python scripts/shots.py --out /tmp/shots --only luxor:4

Everything runs on 127.0.0.1 and stops by itself; the pictures go to ``--out``.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402
from tests.clients import Server, SyncSeat, start_server  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.people import (  # noqa: E402
    confirm_hand_over,
    finished,
    new_person,
    take_turn,
    wait_for_turn_or_end,
)

from necropolis.engine import CHANCE  # noqa: E402
from necropolis.engine.driver import sample_chance  # noqa: E402
from necropolis.engine.protocol import State  # noqa: E402
from necropolis.engine.seat import SeatWindow  # noqa: E402
from necropolis.games import load_game  # noqa: E402
from necropolis.server.db import Append, Store, make_engine  # noqa: E402

SIZE = {"width": 1366, "height": 768}
PLAN = [("horus", 2), ("luxor", 2), ("luxor", 4), ("luxor2001", 2)]
ME = 0


def playout(game_id: str, players: int, start: list[int], seed: int) -> list[int]:
    """A whole match from the recorded ``start``: the game's heuristic decides (random
    moves where it has none), chance is drawn with ``seed``."""
    game = load_game(game_id, players=players)
    state = game.new_initial_state()
    for action in start:
        state.apply_action(action)
    rng = random.Random(seed)
    policy = game.heuristic_policy()
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(sample_chance(state, rng))
        elif policy is not None:
            state.apply_action(policy(SeatWindow(state, seat), rng))
        else:
            legal = state.legal_actions(seat)
            state.apply_action(legal[rng.randrange(len(legal))])
    return list(state.history())


def my_turns(game_id: str, players: int, history: list[int]) -> list[int]:
    """The action numbers at which the person's seat, alone, is to decide."""
    state: State = load_game(game_id, players=players).new_initial_state()
    out = []
    for index, action in enumerate(history):
        if state.current_player() == ME and state.acting_seats() == (ME,):
            out.append(index)
        state.apply_action(action)
    return out


def write_record(
    store: Store, game_id: str, players: int, table_id: str, history: list[int]
) -> None:
    """The table's record extended to ``history`` (the actions it holds already kept)."""
    done = len(store.actions(table_id))
    state = load_game(game_id, players=players).new_initial_state()
    appends = []
    for index, action in enumerate(history):
        if index >= done:
            actor = state.current_player()
            appends.append(Append(table_id, index, actor if actor >= 0 else None, action, False))
        state.apply_action(action)
    if appends:
        assert store.append_turns([appends]) == [True]


def tables(db_url: str, game_id: str, players: int, seed: int) -> tuple[Server, list[str]]:
    """Three tables of the game (start, middle, end): the server, and each one's link."""
    server = start_server(db_url, bot_workers=1)
    seats = ["me"] + ["bot:easy"] * (players - 1)
    made = [server.create_table(game_id, seats, {"players": players}) for _ in range(3)]
    for created in made:
        # the setup is dealt after the table is made: the record is read once it is there
        seat = SyncSeat.connect(server, created["table_id"], created["seats"][ME]["token"])
        seat.until(lambda s: s["current_player"] >= 0 or s["status"] == "finished")
        seat.close()
    server.stop()
    store = Store(make_engine(db_url))
    for created, point in zip(made[1:], ("middle", "end"), strict=True):
        table_id = created["table_id"]
        start = [a for _seat, a in store.actions(table_id)]
        history = playout(game_id, players, start, seed)
        turns = [i for i in my_turns(game_id, players, history) if i >= len(start)]
        at = turns[len(turns) // 2] if point == "middle" else turns[-1]
        # (at the end: the person's last decision is left to the person)
        at = max(at, len(start))
        write_record(store, game_id, players, table_id, history[:at])
    server.restart()
    links = [f"{server.url}/t/{c['table_id']}#{c['seats'][ME]['token']}" for c in made]
    return server, links


def to_my_turn_or_end(page: Page) -> None:
    confirm_hand_over(page)
    wait_for_turn_or_end([page])


#: The page is drawn: its board (whose code and layout a first visit fetches after the
#: prompt shows) and the game's texts (its title, once its catalog is here).
DRAWN = """() => !!document.querySelector('[data-testid=board] svg.main')
    && !document.querySelector('main.table[data-playing=true]')
    && !document.querySelector('[data-testid=playing]')"""


def shoot(page: Page, path: Path) -> None:
    page.wait_for_function(DRAWN)
    page.evaluate("() => document.fonts.ready")
    # (what the last change drew, painted)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path))
    print(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/shots"))
    parser.add_argument("--only", default="", help="game:players, comma separated")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    plan = PLAN
    if args.only:
        plan = [(g, int(n)) for g, n in (x.split(":") for x in args.only.split(","))]
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for game_id, players in plan:
            with tempfile.TemporaryDirectory() as tmp:
                server, links = tables(f"sqlite:///{tmp}/t.sqlite3", game_id, players, args.seed)
                try:
                    name = f"{game_id}-{players}p"
                    for link, point in zip(links, ("start", "middle", "end"), strict=True):
                        ctx = browser.new_context(viewport=SIZE, locale="en-GB")
                        page = new_person(ctx)
                        page.goto(link)
                        to_my_turn_or_end(page)
                        if point == "end":
                            rng = random.Random(args.seed)
                            while not finished(page):
                                if wait_for_turn_or_end([page]) is None:
                                    break
                                take_turn(page, rng)
                        shoot(page, args.out / f"{name}-{point}.png")
                        if point == "middle":
                            page.get_by_test_id("lang").select_option("nl")
                            # (the page switches once the texts in Dutch are here)
                            page.wait_for_function("() => document.documentElement.lang === 'nl'")
                            shoot(page, args.out / f"{name}-{point}-nl.png")
                        ctx.close()
                finally:
                    server.stop()
        browser.close()


if __name__ == "__main__":
    main()
