"""Helpers for the Luxor tests: a match set up by chosen chance outcomes, and prepared positions.

``start`` deals the hands and lays the Osiris and treasure tiles through the public protocol
(``apply_action`` with the chance outcomes a test names). The ``put_*`` helpers prepare a
position mid-game for a rulebook example; each keeps the components conserved (a tile or a
card taken out of play comes from its pile), and the tests that use them name the passage.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from necropolis.engine.frozen import added_in, replaced
from necropolis.engine.protocol import CHANCE
from necropolis.games.luxor import GAME, rules
from necropolis.games.luxor.components import (
    BURIAL_CHAMBER,
    FIELD_SYMBOL,
    FIVE,
    FOUR,
    HAND_SIZE,
    NUM_FIELDS,
    NUM_STATUES,
    ONE,
    TEMPLE_BASE,
    THREE,
    TREASURE_COUNTS,
    TREASURE_FIELDS,
    TWO,
)
from necropolis.games.luxor.state import LuxorState

#: Treasure kinds: type (0 vase, 1 statue, 2 jewels) * 5 + variant; variants need / score
#: (1, 1), (1, 2), (2, 3), (2, 4), (3, 6) in luxor.toml.
VASE, STATUE, JEWELS = 0, 5, 10
NEEDS_2 = 2  # a vase needing two adventurers, 3 points (the rulebook's cobra example)
NEEDS_3 = 4  # a vase needing three adventurers, 6 points

DEFAULT_HAND = (ONE, TWO, THREE, FOUR, FIVE)


def treasure_layout(overrides: Mapping[int, int] | None = None) -> list[int]:
    """Thirty treasure kinds in ``TREASURE_FIELDS`` order: ``overrides`` (field -> kind)
    where given, the rest filled from what is left, lowest kind first."""
    overrides = dict(overrides or {})
    left = list(TREASURE_COUNTS)
    for kind in overrides.values():
        left[kind] -= 1
        assert left[kind] >= 0, "more copies asked for than exist"
    pool = [k for k, c in enumerate(left) for _ in range(c)]
    # Put the common 1-adventurer tiles first so that the filler rarely blocks a test.
    pool.sort(key=lambda k: (k % 5 != 1, k))
    layout = []
    for field in TREASURE_FIELDS:
        layout.append(overrides[field] if field in overrides else pool.pop(0))
    return layout


def start(
    players: int = 2,
    hands: Sequence[Sequence[int]] | None = None,
    osiris: Sequence[int] = (3, 2, 1, 4),
    treasures: Mapping[int, int] | None = None,
) -> LuxorState:
    """A match after setup, every chance outcome chosen: ``hands`` per seat (left to right),
    ``osiris`` the values on the Osiris fields in order, ``treasures`` field -> kind."""
    st = GAME(players=players).new_initial_state()
    hands = hands or [DEFAULT_HAND] * players
    for s in range(players):
        assert len(hands[s]) == HAND_SIZE
        for kind in hands[s]:
            st.apply_action(kind)
    for value in osiris:
        st.apply_action(value - 1)
    for kind in treasure_layout(treasures):
        st.apply_action(kind)
    assert st.phase == rules.P_PLAY and st.seat == 0
    return st


def put_adventurers(st: LuxorState, seat: int, fields: Mapping[int, int], awake: int = 0) -> None:
    """Stand ``seat``'s active adventurers on ``fields`` (field -> count); ``awake`` of the
    sleeping ones (first statues first) count as woken. Prepared-position helper."""
    st.ends_cache = None
    base = seat * NUM_FIELDS
    for f in range(NUM_FIELDS):
        st.adventurers[base + f] = fields.get(f, 0)
    for i in range(NUM_STATUES):
        st.sleeping = replaced(st.sleeping, seat * NUM_STATUES + i, 0 if i < awake else 1)
    assert sum(fields.values()) + NUM_STATUES - awake == 5


def put_temple_tile(st: LuxorState, field: int, front: int) -> None:
    """Turn up ``front`` on ``field`` as if its treasure had been taken, from the matching stack
    (the treasure goes back to the box's count of laid tiles)."""
    st.ends_cache = None
    back = FIELD_SYMBOL[field]
    assert back >= 0
    assert st.temple_counts[back][front] > 0
    st.temple_counts = added_in(st.temple_counts, back, front, -1)
    st.tiles = replaced(st.tiles, field, TEMPLE_BASE + front)


def put_hand(st: LuxorState, seat: int, kinds: Sequence[int], origins: Sequence[int]) -> None:
    """Replace ``seat``'s hand: old cards go back to their piles, the new ones come from the
    pile their origin names (3 + epoch: the draw pile; 0..2: a Horus deck)."""
    st.ends_cache = None
    for kind, origin in zip(st.hands[seat], st.origins[seat], strict=True):
        if origin < 3:
            st.horus_counts = added_in(st.horus_counts, origin, kind, 1)
        else:
            st.draw_counts[kind] += 1
            st.draw_size += 1
    for kind, origin in zip(kinds, origins, strict=True):
        if origin < 3:
            assert st.horus_counts[origin][kind] > 0
            st.horus_counts = added_in(st.horus_counts, origin, kind, -1)
        else:
            assert st.draw_counts[kind] > 0
            st.draw_counts[kind] -= 1
            st.draw_size -= 1
    st.hands[seat] = tuple(kinds)
    st.origins[seat] = tuple(origins)


def deck_origin(st: LuxorState) -> int:
    return 3 + st.epoch


def chance(st: LuxorState, outcome: int) -> None:
    """Apply a chosen chance outcome (the state must be at a chance node)."""
    assert st.current_player() == CHANCE, rules.PHASE_NAMES[st.phase]
    st.apply_action(outcome)


def random_playout(st: LuxorState, rng: random.Random, limit: int | None = None) -> int:
    """Play ``st`` on at random (chance by its probabilities); returns the actions taken."""
    steps = 0
    while not st.is_terminal() and (limit is None or steps < limit):
        if st.current_player() == CHANCE:
            outcomes = st.chance_outcomes()
            r = rng.random()
            total = 0.0
            action = outcomes[-1][0]
            for a, p in outcomes:
                total += p
                if r < total:
                    action = a
                    break
        else:
            action = rng.choice(st.legal_actions())
        st.apply_action(action)
        steps += 1
    return steps


def at(st: LuxorState, seat: int, field: int) -> int:
    """How many of ``seat``'s active adventurers stand on ``field``."""
    return st.adventurers[seat * NUM_FIELDS + field]


def narrated(
    st: LuxorState, action: int, viewer: int | None = 0
) -> list[tuple[str, dict[str, object]]]:
    """Apply ``action`` and return the log entries it made for ``viewer`` as (kind, params)."""
    before = st.clone()
    st.apply_action(action)
    return [(e["kind"], e["params"]) for e in st.narrate(before, action, viewer)]


def chamber_example() -> LuxorState:
    """Page 7's position: seat 0's adventurer on field 40 with two keys in hand, seat 1's
    already in the burial chamber with the 5-point sarcophagus; seat 0 holds a "2" at its
    hand's left end (then "3", "1", "1", "4")."""
    st = start()
    put_adventurers(st, 0, {0: 1, 40: 1})
    put_adventurers(st, 1, {0: 1, BURIAL_CHAMBER: 1})
    st.key_supply -= 3
    st.keys = replaced(st.keys, 0, 2)
    st.keys_paid = 1
    st.entries = 1
    st.sarcophagi = (1, -1)
    put_hand(st, 0, [TWO, THREE, ONE, ONE, FOUR], [deck_origin(st)] * 5)
    return st
