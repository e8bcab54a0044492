"""Resampling draws each hidden card with the odds the seat should give it."""

from __future__ import annotations

import random
from collections import Counter

from necropolis.games.horus import components as cp
from tests.horus.helpers import CHANTAL, DAVID, card, start


def test_a_face_down_card_is_redrawn_among_the_face_down_kinds_of_its_pile() -> None:
    state = start([DAVID, CHANTAL], {1: ["Hededet treasure (6)", "Scorpion"]})
    hidden = card("Hededet treasure (6)")
    seen: Counter[int] = Counter()
    draws = 4000
    rng = random.Random(1)
    for _ in range(draws):
        world = state.resample(0, rng)
        assert card("Scorpion") in world.hand[1]  # face up: stays
        (slot,) = [t for t in world.hand[1] if cp.CARD_KIND[t] != cp.WOUND]
        seen[slot] += 1
        assert sum(world.supply[t] for t in cp.TYPES_OF_ORIGIN[cp.SAND_DECK]) == 16
    # the unseen sand cards that lie face down: every treasure and chest of the pile
    pool = {t: cp.CARD_COUNT[t] for t in cp.TYPES_OF_ORIGIN[cp.SAND_DECK] if cp.FACE_DOWN[t]}
    total = sum(pool.values())
    assert set(seen) == set(pool)
    for t, count in pool.items():
        expected = draws * count / total
        assert abs(seen[t] - expected) < 5 * expected**0.5 + 5, (cp.CARD_NAME[t], seen[t])
    assert hidden in seen
