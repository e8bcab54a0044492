"""What every part of :class:`~necropolis.server.service.Tables` shares: its state, and
what it knows of the storage's trouble.

:class:`TablesBase` holds the tables in memory, the writer, the broker and the bot pool;
:meth:`TablesBase.failed` and :meth:`TablesBase.health` keep the sentence that says what is
wrong with the database, and the set of tables in doubt after a commit without a clear
answer. The parts build on it in a line, each a module: :mod:`.loading` (tables in and out
of memory), :mod:`.door` (how a table changes), :mod:`.driving` (chance and bots).
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from necropolis.server.accounts import Accounts
from necropolis.server.analyses import AnalysisRunner, AnalysisStore
from necropolis.server.bots import BotPool, BotPoolError
from necropolis.server.broker import Broker
from necropolis.server.clocks import Clocks
from necropolis.server.db import Store, storage_failed
from necropolis.server.live import LiveTable
from necropolis.server.service.storage import Writer, stored, trouble_text

log = logging.getLogger("necropolis.server")

#: Seconds between a driver's tries while the database fails: doubling from the first up
#: to the cap, so that play resumes within about a second of the database's return.
RETRY_FIRST = 0.1
RETRY_CAP = 1.0


@dataclass(frozen=True)
class Refusal:
    """Why the door turned an action away (a protocol ``refused`` code and a sentence)."""

    code: str
    message: str


class TablesBase(ABC):
    """The state of every table this process has loaded (see :class:`Tables`)."""

    def __init__(self, store: Store, broker: Broker, bot_workers: int) -> None:
        self.store = store
        #: The accounts' store, for the claims that change a table's seats.
        self.accounts = Accounts(store.engine)
        self.writer = Writer(store)
        self.broker = broker
        self.bot_workers = bot_workers
        self._pool: BotPool | None = None
        self._live: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._closing = False
        self._keeper: asyncio.Task[None] | None = None
        self._resumer: asyncio.Task[None] | None = None
        #: Tables whose record may hold more than memory: a commit failed without a
        #: clear answer. Their driver catches up with the record before anything else.
        self._doubt: set[str] = set()
        #: What went wrong with the storage last, until a write succeeds again.
        self.trouble: str | None = None
        #: The timed tables' clocks (server/clocks/).
        self.clocks = Clocks(self)
        #: Finished tables' analyses and the tables' hints (server/analyses.py).
        self.analyses = AnalysisStore(store.engine)
        self.analysis_runner = AnalysisRunner(self.analyses)

    def failed(self, live: LiveTable | None, exc: BaseException) -> None:
        """The storage failed (``exc``) while working on ``live``: remember what is wrong
        (health tells it) and put the table in doubt, so that its driver catches up with
        the record once the database is back, then plays on."""
        if self.trouble is None:
            # Once per outage, not once per refused act.
            log.warning("the storage failed: %s: %s", exc.__class__.__name__, str(exc)[:300])
        self.trouble = trouble_text(exc)
        if live is not None:
            self._doubt.add(live.id)
            self.drive(live)

    async def health(self) -> str | None:
        """None when the database answers (and, after a failure or on SQLite, takes a
        write); otherwise what is wrong.

        SQLite is asked for a write every time: a full disk still lets it read, so on a
        quiet server nothing else would notice until a person's action fails. The write
        is one small commit that leaves the record as it was (a few milliseconds);
        PostgreSQL fails its writes with its reads when it is down or frozen."""
        try:
            if self.trouble is None and self.store.engine.dialect.name != "sqlite":
                await stored(self.store.check)
            else:
                await stored(self.store.check_writes)
                self.trouble = None
        except Exception as exc:
            if not storage_failed(exc):
                raise
            self.trouble = trouble_text(exc)
        return self.trouble

    async def pool_hints(
        self, game: str, options: dict[str, Any], actions: list[int], seat: int
    ) -> list[tuple[int, float]]:
        """A seat's hint (its best moves after ``actions``), from a bot worker."""
        if self._pool is None:
            raise BotPoolError("the bot pool has not started")
        return await self._pool.hints(game, options, actions, seat)

    @abstractmethod
    def drive(self, live: LiveTable) -> None:
        """Make sure a task plays the table's chance and bot turns (:mod:`.driving`)."""
