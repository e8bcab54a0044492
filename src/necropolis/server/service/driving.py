"""Chance and bots: the one task per table that plays their turns through the door.

After every change the door asks its :class:`Driver` to drive the table: while its turn
belongs to chance or a bot, one task per table plays it. Chance outcomes are drawn from
the table's seed and version (a run of them committed at a time, as the door commits
those that follow a decision); bots decide in the bot pool's workers
(:class:`~necropolis.server.service.thinking.Thinker`), a bot's turn of several decisions
asked for and committed at once, and a move the door refuses gives a random legal one.
While the database fails the driver retries with a capped back-off, catching up first
with a table in doubt (a commit that may have landed).
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING

from necropolis.server.db import StorageUnavailableError, storage_failed
from necropolis.server.live import LiveTable
from necropolis.server.service.health import RETRY_CAP, RETRY_FIRST, Health
from necropolis.server.service.thinking import Thinker

if TYPE_CHECKING:
    from necropolis.server.service.door import Door

log = logging.getLogger("necropolis.server")


class Driver:
    """The tasks that play the tables' chance and bot turns, through ``door``."""

    def __init__(self, door: Door, thinker: Thinker, health: Health) -> None:
        self.door = door
        self.thinker = thinker
        self.health = health
        #: The server is stopping: no table is driven any more.
        self.closing = False

    def drive(self, live: LiveTable) -> None:
        """Make sure a task plays the table's chance and bot turns, if it has any."""
        if self.closing or live.over:
            return
        if live.driver is not None and not live.driver.done():
            return
        live.driver = asyncio.create_task(self._drive(live), name=f"drive {live.id}")

    async def _drive(self, live: LiveTable) -> None:
        wait = RETRY_FIRST
        # A bot's decisions made before a failed commit, kept for the next try.
        thought: dict[tuple[int, int], list[int]] = {}
        doubt = self.health.doubt
        while True:
            try:
                if live.id in doubt:
                    doubt.discard(live.id)
                    try:
                        # A commit given up on may still be under way: let it end first.
                        await self.door.writer.settled()
                        await self.door.catch_up(live)
                    except BaseException:
                        doubt.add(live.id)
                        raise
                await self._play_turns(live, thought)
                if live.id not in doubt or live.over:
                    return
                wait = RETRY_FIRST
                continue
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not storage_failed(exc):
                    log.exception("table %s: driving chance and bots failed", live.id)
                    return
                self.health.failed(exc)
                # A chance outcome's commit may have landed all the same.
                doubt.add(live.id)
            # Retried for as long as it takes: the table must go on once the database is
            # back, and nothing else would drive it.
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_CAP)

    async def _play_turns(self, live: LiveTable, thought: dict[tuple[int, int], list[int]]) -> None:
        """Play chance's and bots' turns until a person's (or the end); a storage failure
        leaves as :class:`StorageUnavailableError` or the database's own error.
        ``thought`` keeps a bot's decisions at ``(version, seat)`` for a later try."""
        door = self.door
        while True:
            if await door.draw_chance(live):
                continue
            async with live.lock:
                state = live.state
                if live.over or live.waiting:
                    return
                seats = [s for s in state.acting_seats() if live.is_bot(s)]
                if not seats:
                    return
                seat = seats[0]
                version = live.version
                actions = [a for _, a in live.actions]
                level = str(live.row.seats[seat].level or "easy")
                legal = state.legal_actions(seat)
            turn = thought.get((version, seat), [])
            if not turn or turn[0] not in legal:
                turn = await self.thinker.think(live, actions, seat, level, legal)
                thought.clear()
                thought[version, seat] = turn
            refused = await door.play_turn(live, seat, turn, version)
            if refused is not None and refused.code == "unavailable":
                raise StorageUnavailableError(refused.message)
            if refused is not None and refused.code != "stale_version":
                # A bot that answers with a move it may not play must not stall the
                # table: play one of its legal moves instead.
                log.error("table %s: the bot's move was refused (%s)", live.id, refused.code)
                fallback = legal[random.randrange(len(legal))]
                refused = await door.play_turn(live, seat, [fallback], version)
                if refused is not None and refused.code == "unavailable":
                    raise StorageUnavailableError(refused.message)
