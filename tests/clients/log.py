"""A seat's log as its page keeps it, for every client of the tests and the scripts.

The page (``web/src/lib/connection.ts``) holds every entry whose action index is
``log_from`` or more. A ``state`` brings the entries from its own ``log_from`` on, which
replace what was held from there; a first state, or one whose entries start past the
last version the client knew (it was too far behind), starts the log again from its
entries. A ``log`` answer (asked for with ``{"type": "log", "before": log_from}``) brings
the page just before ``log_from``.
"""

from __future__ import annotations

from typing import Any

Message = dict[str, Any]


class PageLog:
    """The entries held, each action index's together (``by_index``), from ``log_from`` on."""

    def __init__(self) -> None:
        self.by_index: dict[int, list[Message]] = {}
        #: The index from which every entry is held (None: no state yet).
        self.log_from: int | None = None

    def take_state(self, state: Message, known: int | None) -> None:
        """Take a ``state``'s entries; ``known``: the last version the client saw before it."""
        start = int(state.get("log_from", 0))
        if self.log_from is None or start > (known or 0):
            # A first state, or one so far ahead that what was known is cut off.
            self.by_index, self.log_from = {}, start
        for index in [i for i in self.by_index if i >= start]:
            del self.by_index[index]
        for entry in state.get("log", []):
            self.by_index.setdefault(int(entry["index"]), []).append(entry)

    def take_page(self, page: Message) -> bool:
        """Take a ``log`` answer if it is the page before ``log_from``; whether it was."""
        if page["before"] != self.log_from:
            return False
        for entry in page["log"]:
            self.by_index.setdefault(int(entry["index"]), []).append(entry)
        self.log_from = int(page["log_from"])
        return True

    @property
    def entries(self) -> list[Message]:
        """Every entry held, oldest first."""
        return [entry for index in sorted(self.by_index) for entry in self.by_index[index]]
