"""Luxor's board geometry for the web board and the terminal: the path's fields laid out
on a spiral of cells, each with its kind, points and printed symbol, from the data file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from necropolis.games.luxor.components import (
    ANUBIS_AFTER,
    BACKS,
    BLANK_FIELDS,
    CARD_NAMES,
    FIELD_HORUS_LEVEL,
    FIELD_POINTS,
    FIELD_SYMBOL,
    HAND_SIZE,
    HORUS_TILE_BASE,
    KEYS,
    NUM_FIELDS,
    NUM_VARIANTS,
    OSIRIS_BASE,
    OSIRIS_FIELDS,
    OSIRIS_VALUES,
    SARCOPHAGI,
    SCARAB_VALUES,
    SET_POINTS,
    STAIRS,
    TEMPLE_BASE,
    TEMPLE_NAMES,
    TREASURE_BASE,
    TREASURE_FIELDS,
    TREASURE_NEED,
    TREASURE_POINTS,
    TREASURE_TYPES,
    WILD_TREASURES,
)
from necropolis.games.luxor.narration import CHAMBER

if TYPE_CHECKING:
    pass


GRID_W = 9
GRID_H = 5


def spiral_cells(width: int = GRID_W, height: int = GRID_H) -> list[tuple[int, int]]:
    """Grid cells (column, row; row 0 at the top) of a clockwise spiral from the
    bottom-left corner to the centre."""
    cells: list[tuple[int, int]] = []
    left, top, right, bottom = 0, 0, width - 1, height - 1
    while left <= right and top <= bottom:
        for y in range(bottom, top - 1, -1):  # up the left side
            cells.append((left, y))
        for x in range(left + 1, right + 1):  # along the top
            cells.append((x, top))
        if right > left:
            for y in range(top + 1, bottom + 1):  # down the right side
                cells.append((right, y))
        if bottom > top:
            for x in range(right - 1, left, -1):  # back along the bottom
                cells.append((x, bottom))
        left, top, right, bottom = left + 1, top + 1, right - 1, bottom - 1
    return cells


def field_kind(field: int) -> str:
    if field == STAIRS:
        return "stairs"
    if field == CHAMBER:
        return "burial_chamber"
    if field in BLANK_FIELDS:
        return "landing"
    if field in OSIRIS_FIELDS:
        return "osiris"
    if FIELD_HORUS_LEVEL[field]:
        return "horus"
    return "treasure"


def board_layout() -> dict[str, Any]:
    """The path's fixed geometry from the data file, JSON-ready (docs/rules/luxor.md)."""
    cells = spiral_cells()
    assert len(cells) >= NUM_FIELDS
    fields = []
    for f in range(NUM_FIELDS):
        x, y = cells[f]
        fields.append(
            {
                "index": f,
                "kind": field_kind(f),
                "points": FIELD_POINTS[f],
                "symbol": BACKS[FIELD_SYMBOL[f]] if FIELD_SYMBOL[f] >= 0 else None,
                "horus_eyes": FIELD_HORUS_LEVEL[f],
                "x": x,
                "y": y,
            }
        )
    statues = []
    for i, after in enumerate(ANUBIS_AFTER):
        (x0, y0), (x1, y1) = cells[after], cells[after + 1]
        statues.append({"index": i, "after": after, "x": (x0 + x1) / 2, "y": (y0 + y1) / 2})
    return {
        "grid": {"width": GRID_W, "height": GRID_H},
        "fields": fields,
        "stairs": STAIRS,
        "burial_chamber": CHAMBER,
        "statues": statues,
        "osiris_fields": list(OSIRIS_FIELDS),
        "horus_fields": [
            [f for f in range(NUM_FIELDS) if FIELD_HORUS_LEVEL[f] == lv] for lv in (1, 2, 3)
        ],
        "treasure_fields": list(TREASURE_FIELDS),
        "temple_symbols": {
            back: [f for f in range(NUM_FIELDS) if FIELD_SYMBOL[f] == b]
            for b, back in enumerate(BACKS)
        },
        "sarcophagi": list(SARCOPHAGI),
        "keys": KEYS,
        "wild_treasures": WILD_TREASURES,
        "hand_size": HAND_SIZE,
        "cards": list(CARD_NAMES),
        "treasure_types": list(TREASURE_TYPES),
        "treasure_variants": [
            {"adventurers": TREASURE_NEED[v], "points": TREASURE_POINTS[v]}
            for v in range(NUM_VARIANTS)
        ],
        "temple_fronts": list(TEMPLE_NAMES),
        "temple_backs": list(BACKS),
        "osiris_values": list(OSIRIS_VALUES),
        "scarab_values": list(SCARAB_VALUES),
        "set_points": list(SET_POINTS),
        "tile_codes": {
            "none": 0,
            "treasure": [TREASURE_BASE, OSIRIS_BASE - 1],
            "osiris": [OSIRIS_BASE, HORUS_TILE_BASE - 1],
            "horus": [HORUS_TILE_BASE, TEMPLE_BASE - 1],
            "temple": [TEMPLE_BASE, TEMPLE_BASE + len(TEMPLE_NAMES) - 1],
        },
    }
