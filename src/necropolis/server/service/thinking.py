"""The bots' decisions at the tables: asked of the bot pool's worker processes
(:mod:`necropolis.server.bots`), and a random legal move when none comes, so that no
table ever stalls on its bot.

:class:`Thinker` is used by the driver, which plays bots' turns through the door, and by
the clocks, where a seat out of time must decide something its rules do not let it skip.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from necropolis.server import bots
from necropolis.server.live import LiveTable

log = logging.getLogger("necropolis.server")


class Thinker:
    """This process's bot workers, and how a table asks them for a decision."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: bots.BotPool | None = None

    def start(self) -> None:
        self._pool = bots.BotPool(self.workers)

    async def close(self) -> None:
        if self._pool is not None:
            # Waiting lets the workers end in order (a decision takes at most a second).
            await self._pool.close()

    async def hints(
        self, game: str, options: dict[str, Any], actions: list[int], seat: int
    ) -> list[tuple[int, float]]:
        """A seat's hint (its best moves after ``actions``), from a bot worker."""
        if self._pool is None:
            raise bots.BotPoolError("the bot pool has not started")
        return await self._pool.hints(game, options, actions, seat)

    async def think(
        self,
        live: LiveTable,
        actions: list[int],
        seat: int,
        level: str,
        legal: list[int],
        most: int = bots.TURN_MOST,
    ) -> list[int]:
        """The bot's decisions from the table's position after ``actions``, up to ``most``
        of its turn's (:func:`necropolis.server.bots.decide_turn`), or one random legal
        move (of ``legal``) when it gave none."""
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
