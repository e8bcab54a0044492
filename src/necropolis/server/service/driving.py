"""Chance and bots: the one task per table that plays their turns through the door.

After every change, a table whose turn belongs to chance or a bot is driven on by
:meth:`Driving.drive`: chance outcomes are drawn from the table's seed and version (a
run of them committed at a time, as the door commits those that follow a decision), bots
decide in the bot pool's workers (:mod:`necropolis.server.bots`), a bot's turn of several
decisions asked for and committed at once, and a failed decision gives a random legal
move. While the database fails the driver retries with a capped back-off, catching up
first with a table in doubt. :meth:`Driving.hand_to_bot` gives a person's seat to a bot.
"""

from __future__ import annotations

import asyncio
import logging
import random

from necropolis.bots.levels import DEFAULT_LEVEL
from necropolis.engine.protocol import CHANCE
from necropolis.server import bots
from necropolis.server.db import StorageUnavailableError, storage_failed
from necropolis.server.live import LiveTable
from necropolis.server.service.base import RETRY_CAP, RETRY_FIRST
from necropolis.server.service.door import Door
from necropolis.server.service.storage import stored, trouble_text

log = logging.getLogger("necropolis.server")


class Driving(Door):
    """The driving of the tables' chance and bot turns."""

    # --- chance and bots -------------------------------------------------------------

    def drive(self, live: LiveTable) -> None:
        """Make sure a task plays the table's chance and bot turns, if it has any."""
        if self._closing or live.over:
            return
        if live.driver is not None and not live.driver.done():
            return
        live.driver = asyncio.create_task(self._drive(live), name=f"drive {live.id}")

    async def _drive(self, live: LiveTable) -> None:
        wait = RETRY_FIRST
        # A bot's decisions made before a failed commit, kept for the next try.
        thought: dict[tuple[int, int], list[int]] = {}
        while True:
            try:
                if live.id in self._doubt:
                    self._doubt.discard(live.id)
                    try:
                        # A commit given up on may still be under way: let it end first.
                        await self.writer.settled()
                        if await self.catch_up(live):
                            live.tell()
                    except BaseException:
                        self._doubt.add(live.id)
                        raise
                await self._play_turns(live, thought)
                if live.id not in self._doubt or live.over:
                    return
                wait = RETRY_FIRST
                continue
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not storage_failed(exc):
                    log.exception("table %s: driving chance and bots failed", live.id)
                    return
                if self.trouble is None:
                    log.warning("the storage failed: %s: %s", type(exc).__name__, str(exc)[:300])
                self.trouble = trouble_text(exc)
                # A chance outcome's commit may have landed all the same.
                self._doubt.add(live.id)
            # Retried for as long as it takes: the table must go on once the database is
            # back, and nothing else would drive it.
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_CAP)

    async def _play_turns(self, live: LiveTable, thought: dict[tuple[int, int], list[int]]) -> None:
        """Play chance's and bots' turns until a person's (or the end); a storage failure
        leaves as :class:`StorageUnavailableError` or the database's own error.
        ``thought`` keeps a bot's decisions at ``(version, seat)`` for a later try."""
        while True:
            async with live.lock:
                state = live.state
                if live.over:
                    return
                if state.current_player() == CHANCE:
                    # (an empty turn: _commit adds the chance outcomes due)
                    refused = await self._commit(live, None, [])
                    if refused is None:
                        live.tell()
                        self.broker.publish(live.id, live.version)
                    continue
                seats = [s for s in state.acting_seats() if live.is_bot(s)]
                if not seats:
                    return
                seat = seats[0]
                version = live.version
                actions = [a for _, a in live.actions]
                level = str(live.row.seats[seat].get("level") or DEFAULT_LEVEL)
                legal = state.legal_actions(seat)
            turn = thought.get((version, seat), [])
            if not turn or turn[0] not in legal:
                turn = await self._think(live, actions, seat, level, legal)
                thought.clear()
                thought[version, seat] = turn
            refused = await self.play_turn(live, seat, turn, version)
            if refused is not None and refused.code == "unavailable":
                raise StorageUnavailableError(refused.message)
            if refused is not None and refused.code != "stale_version":
                # A bot that answers with a move it may not play must not stall the
                # table: play one of its legal moves instead.
                log.error("table %s: the bot's move was refused (%s)", live.id, refused.code)
                fallback = legal[random.randrange(len(legal))]
                refused = await self.play_turn(live, seat, [fallback], version)
                if refused is not None and refused.code == "unavailable":
                    raise StorageUnavailableError(refused.message)

    async def _think(
        self,
        live: LiveTable,
        actions: list[int],
        seat: int,
        level: str,
        legal: list[int],
        most: int = bots.TURN_MOST,
    ) -> list[int]:
        """The bot's decisions from here, up to ``most`` of its turn's
        (:func:`necropolis.server.bots.decide_turn`), or one random legal move when it gave
        none."""
        for attempt in (1, 2):
            if self._pool is None:
                break
            try:
                return await self._pool.decide_turn(
                    live.game.id, dict(live.game.options), actions, seat, level, live.id, most
                )
            except bots.WorkerLostError as exc:
                # A worker killed (say, for memory) says nothing of the next: ask once more.
                log.warning("table %s: %s bot, try %d: %s", live.id, level, attempt, exc)
            except bots.BotPoolError as exc:
                log.warning("table %s: the %s bot gave no move (%s)", live.id, level, exc)
                break
            except Exception:
                log.exception("table %s: the %s bot failed", live.id, level)
                break
        # A table must not stall on its bot: it plays one of its legal moves instead.
        return [legal[random.randrange(len(legal))]]

    # --- seats -----------------------------------------------------------------------

    async def hand_to_bot(self, live: LiveTable, seat: int, level: str) -> None:
        """The person seat ``seat`` is played by a bot of ``level`` from now on."""
        async with live.lock:
            seats = [dict(s) for s in live.row.seats]
            seats[seat].update(type="bot", level=level, token_hash=None)
            await stored(self.store.set_seats, live.id, seats)
            live.row.seats = seats
            # The person's turn in hand was never committed: the bot plays from the record.
            live.turns.pop(seat, None)
        await self._told(live)
