"""Small edits of tuples, for the parts of a state that clones share instead of copying.

A state's fields that change rarely (a seat's sarcophagi, the pharaoh cards, what is
left in a pile of tiles) are tuples: a clone takes the very same object, which costs
nothing, and a rule that changes one builds a new tuple and assigns it, so the clone and
its original never see each other's changes. These build that new tuple.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def replaced(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with the item at ``index`` (0 or more) replaced by ``value``."""
    return (*items[:index], value, *items[index + 1 :])


def added(items: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    """``items`` with ``amount`` added to the count at ``index`` (0 or more)."""
    return (*items[:index], items[index] + amount, *items[index + 1 :])


def removed(items: tuple[T, ...], value: T) -> tuple[T, ...]:
    """``items`` without the first item equal to ``value`` (which must be there)."""
    index = items.index(value)
    return (*items[:index], *items[index + 1 :])


def added_in(
    rows: tuple[tuple[int, ...], ...], row: int, index: int, amount: int
) -> tuple[tuple[int, ...], ...]:
    """``rows`` with ``amount`` added to the count at ``index`` of row ``row``."""
    return (*rows[:row], added(rows[row], index, amount), *rows[row + 1 :])
