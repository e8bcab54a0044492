"""What travels to a person: the bytes of a first visit, and the size of a seat's first state.

Starts ``necropolis serve`` on loopback with a throwaway SQLite file, then

1. opens the lobby, then a seat's link (``/t/{id}#token``) of a new table of every game,
   in headless Chromium (Debian's, as the browser tests drive it) with an empty cache
   each time, and adds up what crossed the wire for each until the page (the board, for
   a seat link) is drawn and the network idle: each response's headers and its body as
   sent (compressed where the server compressed it), against the goal of 100 KB;
2. plays one table of every game (a person seat, played at random by this script over a
   WebSocket, and bots), and at the start, the middle and the end of the match opens a new
   connection for the person's seat, as a page opened anew does, and measures the first
   ``state`` message it is sent (its JSON text, as the WebSocket carries it).

    .venv/bin/python scripts/wire.py                  # every game at its most players
    .venv/bin/python scripts/wire.py --games horus --players 6

Everything runs on 127.0.0.1 and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_table import serve  # noqa: E402
from tests.clients import SeatClient, create_table, ws_url  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

from necropolis.games import game_class, game_ids  # noqa: E402

#: The issue's goal for a first visit: under this many bytes on the wire.
GOAL = 100_000


async def first_visit(base: str, path: str = "/", ready: str = "") -> list[tuple[str, int, str]]:
    """``(path, bytes on the wire, content encoding)`` of every response a first load of
    ``path`` fetched with an empty cache, once the network is idle and ``ready`` (a CSS
    selector: what a person waits to see) is on the page."""
    from playwright.async_api import Response, async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = await browser.new_page(viewport={"width": 1366, "height": 768})
        responses: list[Response] = []

        def keep(response: Response) -> None:
            responses.append(response)

        page.on("response", keep)
        await page.goto(base + path, wait_until="networkidle")
        if ready:
            await page.wait_for_selector(ready, timeout=60_000)
            # What the board fetches once it is drawn (its lazy parts) comes after.
            await page.wait_for_load_state("networkidle")
        fetched = []
        for response in responses:
            sizes = await response.request.sizes()
            wire = sizes["responseHeadersSize"] + sizes["responseBodySize"]
            encoding = (await response.all_headers()).get("content-encoding") or "plain"
            url = response.url.removeprefix(base).split("#")[0]
            fetched.append((url, wire, encoding))
        await browser.close()
        return fetched


def print_visit(title: str, fetched: list[tuple[str, int, str]]) -> int:
    print(f"{title} (bytes on the wire, headers included):")
    for path, wire, encoding in fetched:
        print(f"  {wire:>8,}  {encoding:<5}  {path}")
    total = sum(w for _, w, _ in fetched)
    scripts = sum(w for p, w, _ in fetched if p.split("?")[0].endswith((".js", ".css")))
    verdict = "under" if total < GOAL else "OVER"
    print(
        f"  {total:>8,}  in all ({scripts:,} scripts and styles): {verdict} the goal of"
        f" {GOAL // 1000} KB"
    )
    return total


def deflated(text: str) -> int:
    """About the bytes of ``text`` in a WebSocket message compressed with permessage-deflate
    (uvicorn offers it and Chromium takes it): a raw deflate stream of the message alone."""
    packer = zlib.compressobj(wbits=-15)
    return len(packer.compress(text.encode()) + packer.flush(zlib.Z_SYNC_FLUSH)) - 4


async def seat_link_visit(
    base: str, game: str, players: int
) -> tuple[list[tuple[str, int, str]], int]:
    """The first visit of a seat's link (``/t/{id}#token``) by a person who never opened
    the lobby: a table of ``game`` with that person and bots, opened with an empty cache
    until its board is drawn."""
    seats: list[dict[str, Any]] = [{"type": "me"}]
    seats += [{"type": "bot", "level": "easy"} for _ in range(players - 1)]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        table = await create_table(http, game, seats, {"players": players})
    token = next(s["token"] for s in table["seats"] if s["seat"] == 0)
    path = f"/t/{table['table_id']}#{token}"
    fetched = await first_visit(base, path, "[data-testid=board] svg, [data-testid=board] .pick")
    first = await first_state_text(base, table["table_id"], token)
    return fetched, deflated(first)


async def first_state_size(base: str, table_id: str, token: str) -> int:
    """The length of the first ``state`` message a new connection of the seat is sent."""
    return len((await first_state_text(base, table_id, token)).encode())


async def first_state_text(base: str, table_id: str, token: str) -> str:
    """The first ``state`` message a new connection of the seat is sent."""
    async with websockets.connect(ws_url(base, table_id), max_size=2**24) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token, "version": None}))
        while True:
            raw = await asyncio.wait_for(socket.recv(), 30)
            text = raw if isinstance(raw, str) else raw.decode()
            if json.loads(text).get("type") == "state":
                return text


async def play_and_measure(base: str, game: str, players: int, seed: int) -> dict[str, Any]:
    """Play one table to its end and measure the person's first state on the way."""
    rng = random.Random(seed)
    seats: list[dict[str, Any]] = [{"type": "me"}]
    seats += [{"type": "bot", "level": "easy"} for _ in range(players - 1)]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        table = await create_table(http, game, seats, {"players": players})
    token = next(s["token"] for s in table["seats"] if s["seat"] == 0)
    table_id = table["table_id"]
    sizes: dict[int, int] = {0: await first_state_size(base, table_id, token)}
    person = SeatClient(base, table_id, token)
    state = await person.connect()
    while state["status"] != "finished":
        seen = len(person.states)
        if state["actions"]:
            await person.act(rng.choice(state["actions"])["action"])
        # Whatever comes next: a later version, or the same one again after a refusal.
        try:
            async with asyncio.timeout(120):
                while len(person.states) == seen:
                    await asyncio.sleep(0.005)
        except TimeoutError:
            raise TimeoutError(f"{game}: the table stopped at version {state['version']}") from None
        before, state = state["version"], person.states[-1]
        if before // 25 != state["version"] // 25:
            sizes[state["version"]] = await first_state_size(base, table_id, token)
            # What came while the new page was measured is the person's to answer.
            state = person.states[-1]
    end = state["version"]
    sizes[end] = await first_state_size(base, table_id, token)
    await person.close()
    middle = min(sizes, key=lambda v: abs(v - end / 2))
    return {
        "game": game,
        "players": players,
        "start": (0, sizes[0]),
        "middle": (middle, sizes[middle]),
        "end": (end, sizes[end]),
        "largest": max(sizes.items(), key=lambda item: item[1]),
    }


async def main(games: list[str], players: int | None, seed: int) -> None:
    with (
        tempfile.TemporaryDirectory(prefix="wire-") as where,
        serve(None, Path(where), bot_workers=1) as server,
    ):
        print_visit("first visit of the lobby, empty cache", await first_visit(server.base))
        for game in games:
            count = players or game_class(game).max_players
            fetched, state = await seat_link_visit(server.base, game, count)
            title = f"first visit of a {game} seat link, {count} players, empty cache"
            total = print_visit(title, fetched)
            verdict = "under" if total + state < GOAL else "OVER"
            print(
                f"  {total + state:>8,}  with the seat's first state over the WebSocket (about"
                f" {state:,} deflated): {verdict} the goal"
            )
        print("a seat's first state on a page opened anew (bytes of the JSON message):")
        for game in games:
            count = players or game_class(game).max_players
            found = await play_and_measure(server.base, game, count, seed)
            parts = "  ".join(
                f"{part} v{found[part][0]}: {found[part][1]:,}"
                for part in ("start", "middle", "end", "largest")
            )
            print(f"  {game:<10} {count} players  {parts}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(game_ids()))
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.games.split(","), arguments.players, arguments.seed))
