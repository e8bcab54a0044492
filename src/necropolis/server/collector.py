"""How a server process collects its cyclic garbage without pausing every table at once.

CPython stops the whole process while its collector runs, and a collection of the oldest
generation visits every object the collector tracks. In a table server nearly all of them
live long: each open connection holds some 400 (its coroutines, closures, queues and
headers), each table in memory its state and caches. At 1,000 connections that was about
470,000 objects and full collections of 0.2-0.4 s, eight in the first 30 s, each a pause
of every table on the process (docs/speed.md). So :func:`keep_collecting` moves what has
lived a second out of the collector's reach (``gc.freeze``) every :data:`FREEZE_EVERY`
seconds, after collecting the young generations: the automatic collections then visit
only what the last second made (tens of milliseconds at most, where every 5 s left
collections of 40-60 ms), and the garbage of a request, a message or an action,
short-lived, is collected as before. What was frozen and later became cyclic garbage (a
closed connection's coroutines, a table unloaded) is collected by one full collection
every :data:`FULL_EVERY` seconds, of everything (``gc.unfreeze`` first): one pause of a
few tenths of a second every ten minutes at 1,000 connections, instead of one every few
seconds. Objects without cycles are freed by their reference counts whenever they are
dropped, frozen or not.
"""

from __future__ import annotations

import asyncio
import gc
import time

#: Seconds between two freezes of what is alive (after a collection of the young).
FREEZE_EVERY = 1.0
#: Seconds between two full collections of everything, the frozen included.
FULL_EVERY = 600.0


async def keep_collecting(
    freeze_every: float = FREEZE_EVERY, full_every: float = FULL_EVERY
) -> None:
    """Freeze what is alive every ``freeze_every`` seconds and collect everything every
    ``full_every`` seconds, until cancelled; then give the collector back all it had."""
    try:
        gc.collect()
        gc.freeze()
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(freeze_every)
            if time.monotonic() - last_full >= full_every:
                gc.unfreeze()
                gc.collect()
                last_full = time.monotonic()
            else:
                gc.collect(1)
            gc.freeze()
    finally:
        gc.unfreeze()
