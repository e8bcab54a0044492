"""Movement along the Luxor path: where a number of steps leads, and what a card allows.

Adventurers go from tile to tile: empty fields are passed over, and from an empty field the
first step reaches the next tile. The burial chamber is the step after the last tile and can
only be the last step of a move, paid for with a key. These functions only look; moving and
its consequences are in ``rules.py``, which with the prompts asks these alone where a
step leads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from necropolis.games.luxor.components import (
    BURIAL_CHAMBER,
    CARD_MODE,
    CARD_REACH,
    DIE_FACES,
    HORUS_TILE_BASE,
    MODE_ALL,
    MODE_DIE,
    MODE_DIE_RANGE,
    MODE_FIXED,
    MODE_LAST,
    MODE_PLUS_MINUS,
    MODE_RANGE,
    NUM_FIELDS,
    OSIRIS_BASE,
    OSIRIS_VALUES,
    STAIRS,
)

if TYPE_CHECKING:
    from necropolis.games.luxor.state import LuxorState

NF = NUM_FIELDS
CHAMBER = BURIAL_CHAMBER
#: Every count of adventurers to 1 if any, 0 if none (a ``bytes.translate`` table).
_ANY = bytes([0] + [1] * 255)


def forward_dest(tiles: Sequence[int], field: int, steps: int) -> int:
    """The field ``steps`` tiles ahead of ``field`` (empty fields skipped), or -1.

    The burial chamber counts as the step after the last tile, and only as the last step:
    nobody may walk past it or waste steps in it. Starting on an empty field, the first step
    goes to the next tile, which the same count gives.
    """
    f = field
    while steps > 0:
        f += 1
        while f < CHAMBER and tiles[f] == 0:
            f += 1
        if f >= CHAMBER:
            return CHAMBER if steps == 1 else -1
        steps -= 1
    return f


def osiris_push(tiles: Sequence[int], field: int) -> int:
    """Where the Osiris tile on ``field`` carries on an adventurer that reached it, by its
    value (-1: no Osiris tile lies there). A push may end on another, which pushes again."""
    code = tiles[field] if field != CHAMBER else 0
    if OSIRIS_BASE <= code < HORUS_TILE_BASE:
        return forward_dest(tiles, field, OSIRIS_VALUES[code - OSIRIS_BASE])
    return -1


def backward_dest(tiles: Sequence[int], field: int) -> int:
    """The nearest tile behind ``field``, or -1 if there is none (the stairs hold no tile)."""
    f = field - 1
    while f > STAIRS and tiles[f] == 0:
        f -= 1
    return f if f > STAIRS else -1


def can_go(st: LuxorState, seat: int, field: int, steps: int) -> bool:
    dest = forward_dest(st.tiles, field, steps)
    return dest >= 0 and (dest != CHAMBER or st.keys[seat] > 0)


def active_fields(st: LuxorState, seat: int) -> list[int]:
    """Fields short of the chamber holding an active adventurer of ``seat``, rearmost first."""
    # A seat stands on a few fields at most: find those in C rather than test all 42.
    occupied = st.adventurers.translate(_ANY)
    base = seat * NF
    end = base + CHAMBER
    fields = []
    at = occupied.find(1, base, end)
    while at >= 0:
        fields.append(at - base)
        at = occupied.find(1, at + 1, end)
    return fields


def distances(st: LuxorState, seat: int, kind: int, roll: int) -> tuple[int, ...]:
    mode = CARD_MODE[kind]
    if mode == MODE_FIXED:
        return (CARD_REACH[kind],)
    if mode == MODE_RANGE:
        return tuple(range(1, CARD_REACH[kind] + 1))
    if mode == MODE_DIE:
        return (roll,)
    if mode == MODE_DIE_RANGE:
        return tuple(range(1, roll + 1))
    return (1,)  # plus/minus one: forward 1 here, backward handled apart


def field_options(st: LuxorState, seat: int, kind: int, roll: int) -> list[int]:
    """Fields from which one adventurer can make a move the card (and roll) allow."""
    mode = CARD_MODE[kind]
    dists = distances(st, seat, kind, roll)
    out = []
    for f in active_fields(st, seat):
        if any(can_go(st, seat, f, d) for d in dists) or (
            mode == MODE_PLUS_MINUS and backward_dest(st.tiles, f) >= 0
        ):
            out.append(f)
    return out


def card_can_move(st: LuxorState, seat: int, kind: int) -> bool:
    """Whether playing ``kind`` lets ``seat`` move at all.

    A die card counts as playable when some roll would allow a move; if the roll then allows
    none, the card is spent without a move.
    """
    mode = CARD_MODE[kind]
    fields = active_fields(st, seat)
    if mode == MODE_LAST:
        return len(fields) >= 2
    if mode == MODE_ALL:
        return any(can_go(st, seat, f, CARD_REACH[kind]) for f in fields)
    if mode == MODE_PLUS_MINUS:
        return any(can_go(st, seat, f, 1) or backward_dest(st.tiles, f) >= 0 for f in fields)
    if mode in (MODE_DIE, MODE_DIE_RANGE):
        reach: tuple[int, ...] = (1,) if mode == MODE_DIE_RANGE else tuple(range(1, DIE_FACES + 1))
    else:
        reach = distances(st, seat, kind, 0)
    return any(can_go(st, seat, f, d) for f in fields for d in reach)
