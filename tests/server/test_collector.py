"""The server's collector: what lived a few seconds is frozen out of the automatic
collections, and the periodic full collection still frees the cycles among it."""

from __future__ import annotations

import asyncio
import gc
import weakref

from necropolis.server.collector import keep_collecting


class _Node:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_a_frozen_cycle_waits_for_the_full_collection_and_is_freed_there() -> None:
    async def scenario() -> tuple[bool, bool, bool, int]:
        collecting = asyncio.create_task(keep_collecting(freeze_every=0.05, full_every=1.0))
        await asyncio.sleep(0.01)  # the collector's first freeze
        node = _Node()
        gone = weakref.ref(node)
        await asyncio.sleep(0.2)  # frozen by a later freeze
        del node
        gc.collect()
        kept_while_frozen = gone() is not None
        # a cycle dropped while young is collected as before
        young = _Node()
        young_gone = weakref.ref(young)
        del young
        gc.collect()
        young_freed = young_gone() is None
        for _ in range(100):
            await asyncio.sleep(0.05)
            if gone() is None:
                break
        freed_by_the_full_collection = gone() is None
        collecting.cancel()
        await asyncio.gather(collecting, return_exceptions=True)
        return kept_while_frozen, young_freed, freed_by_the_full_collection, gc.get_freeze_count()

    frozen, young, full, left_frozen = asyncio.run(scenario())
    assert frozen, "a cycle alive at a freeze is out of the automatic collections' reach"
    assert young, "a cycle dropped before any freeze is collected as always"
    assert full, "the full collection frees the frozen cycles"
    assert left_frozen == 0, "a stopped collector gives everything back to the collector"
