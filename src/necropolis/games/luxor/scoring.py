"""Luxor's final scoring, in the rulebook's order, and the tie-break.

Each seat adds to its score track (the treasure points taken during play): the points on
the wall beside each adventurer's final field, its sarcophagi, one point per key left, the
points for complete treasure sets (wild tiles standing in, at most two per set), and its
scarabs' values. Ties go to the more valuable sarcophagus; without one, tied seats share.
"""

from __future__ import annotations

from operator import mul
from typing import TYPE_CHECKING

from necropolis.games.luxor.components import (
    FIELD_POINTS,
    NUM_FIELDS,
    NUM_VARIANTS,
    POINTS_PER_KEY,
    SARCOPHAGI,
    SCARAB_VALUES,
    TREASURE_TYPES,
    count_sets,
    set_points,
)

if TYPE_CHECKING:
    from necropolis.games.luxor.state import LuxorState

NF = NUM_FIELDS


def treasure_types(st: LuxorState, seat: int) -> list[int]:
    """How many treasure tiles of each type (vase, statue, jewels) ``seat`` holds."""
    row = st.treasures[seat]
    return [sum(row[t * NUM_VARIANTS : (t + 1) * NUM_VARIANTS]) for t in range(len(TREASURE_TYPES))]


def score_breakdown(st: LuxorState, seat: int) -> list[int]:
    """[track, adventurers, sarcophagi, keys, sets, scarabs, total] in the rulebook's order."""
    base = seat * NF
    # (map over the two rows: the server scores every seat for every message it builds)
    adventurers = sum(map(mul, st.adventurers[base : base + NF], FIELD_POINTS))
    sarcophagi = sum(
        v for v, holder in zip(SARCOPHAGI, st.sarcophagi, strict=True) if holder == seat
    )
    keys = st.keys[seat] * POINTS_PER_KEY
    sets = set_points(count_sets(treasure_types(st, seat), st.wilds[seat]))
    scarabs = sum(c * v for c, v in zip(st.scarabs[seat], SCARAB_VALUES, strict=True))
    track = st.score[seat]
    return [
        track,
        adventurers,
        sarcophagi,
        keys,
        sets,
        scarabs,
        track + adventurers + sarcophagi + keys + sets + scarabs,
    ]


def tiebreak(st: LuxorState) -> list[int]:
    """The value of each seat's best sarcophagus (0 without one): ties on points go to it."""
    best = [0] * st.num_players
    for value, holder in zip(SARCOPHAGI, st.sarcophagi, strict=True):
        if holder >= 0:
            best[holder] = max(best[holder], value)
    return best
