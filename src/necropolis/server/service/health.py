"""What the tables know of their storage's health: what is wrong with the database, and
which tables may hold more in their record than in memory.

:class:`Health` keeps the sentence that says what is wrong (health tells it; a write that
succeeds clears it) and the tables *in doubt*: a commit without a clear answer may have
landed, so their driver catches up with the record before it plays on. :class:`Refusal`
is why the door turned something away, and :data:`RETRY_FIRST`, :data:`RETRY_CAP` pace
the retries while the database fails.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from necropolis.server.db import Store, storage_failed
from necropolis.server.service.storage import stored, trouble_text

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


class Health:
    """The storage's trouble as this process last saw it, and the tables in doubt."""

    def __init__(self, store: Store) -> None:
        self.store = store
        #: What went wrong with the storage last, until a write succeeds again.
        self.trouble: str | None = None
        #: Tables whose record may hold more than memory: a commit failed without a
        #: clear answer. Their driver catches up with the record before anything else.
        self.doubt: set[str] = set()

    def failed(self, exc: BaseException) -> None:
        """The storage failed (``exc``): remember what is wrong (health tells it)."""
        if self.trouble is None:
            # Once per outage, not once per refused act.
            log.warning("the storage failed: %s: %s", exc.__class__.__name__, str(exc)[:300])
        self.trouble = trouble_text(exc)

    def wrote(self) -> None:
        """A write succeeded: the storage takes writes again."""
        if self.trouble is not None:
            log.warning("the storage takes writes again")
            self.trouble = None

    async def check(self) -> str | None:
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
