"""The tuple edits that rarely changed state fields use: new tuples, the old ones intact."""

from __future__ import annotations

import pytest

from necropolis.engine.frozen import added, added_in, removed, replaced


def test_each_edit_builds_a_new_tuple_and_leaves_the_old_one() -> None:
    counts = (3, 0, 2)
    assert replaced(counts, 0, 9) == (9, 0, 2)
    assert replaced(counts, 2, 9) == (3, 0, 9)
    assert added(counts, 1, 4) == (3, 4, 2)
    assert added(counts, 2, -2) == (3, 0, 0)
    assert removed((5, 1, 5, 2), 5) == (1, 5, 2)  # the first one only
    rows = ((1, 1), (2, 2), (3, 3))
    assert added_in(rows, 1, 0, 5) == ((1, 1), (7, 2), (3, 3))
    assert counts == (3, 0, 2) and rows == ((1, 1), (2, 2), (3, 3))
    with pytest.raises(ValueError):
        removed(counts, 7)
