"""A table's seats as people see them: whose name a seat shows.

A seat's stored row may hold a ``name`` (given by the creator at set-up, or by the guest
who sits there) and an ``account`` (the name of the account that holds the seat, see
:mod:`necropolis.server.accounts`). The name a seat shows is the account's when an account
holds it, else the one given, else none: a client then writes its own default in its
reader's language ("Player 2"; for a bot, its level: "Hard bot"). One place for the rule,
so that the state message, the summaries, the chat and the record agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def shown_name(seat: Mapping[str, Any]) -> str | None:
    """The name ``seat`` (a stored seat) shows: its account's, else the name given."""
    account = seat.get("account")
    if account:
        return str(account)
    name = seat.get("name")
    return str(name) if name else None
