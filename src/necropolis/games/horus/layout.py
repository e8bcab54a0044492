"""The Pyramid of Horus's board geometry: ``horus.toml``'s board turned into JSON-ready
squares, areas and corridors for the web board to draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from necropolis.games.horus import components as cp
from necropolis.games.horus.narration import ENTRANCE_NAMES, ORIGIN_TERMS

if TYPE_CHECKING:
    pass


def _side(square: int, preference: tuple[int, ...]) -> str:
    """The first side (by ``preference``) of ``square`` with no square beyond it: where a
    sarcophagus or an alcove lies in the wall."""
    r, c = cp.SQUARE_POS[square]
    for d in preference:
        dr, dc = cp.DIRECTIONS[d]
        if (r + dr, c + dc) not in cp.SQUARE_AT:
            return cp.DIRECTION_NAMES[d]
    raise AssertionError(f"square {square} has no wall side")


_AREA_IDS = ("mummies_corridor", "scorpion_pit", "crocodile_pond", "cobra_nest", "entrance")


def board_layout() -> dict[str, Any]:
    """The board's fixed geometry from ``horus.toml`` (documented in docs/rules/horus.md)."""
    squares = []
    for sq, (r, c) in enumerate(cp.SQUARE_POS):
        squares.append(
            {
                "id": sq,
                "x": c,
                "y": r,
                "area": _AREA_IDS[cp.AREA[sq]],
                "block": cp.SQUARE_NUMBER[sq] or None,
                "neighbours": {
                    cp.DIRECTION_NAMES[d]: (nb if nb >= 0 else None)
                    for d, nb in enumerate(cp.NEIGHBOURS[sq])
                },
            }
        )
    # every edge of every square: "open" (a dotted line) or "wall" (a solid line)
    edges = []
    for sq, (r, c) in enumerate(cp.SQUARE_POS):
        for d, (dr, dc) in enumerate(cp.DIRECTIONS):
            other = cp.SQUARE_AT.get((r + dr, c + dc), -1)
            if 0 <= other < sq:
                continue  # listed once, from the lower id
            # the segment between the two cells, in grid units (x right, y down)
            if dr:
                y = r + (1 if dr > 0 else 0)
                segment = [[c, y], [c + 1, y]]
            else:
                x = c + (1 if dc > 0 else 0)
                segment = [[x, r], [x, r + 1]]
            edges.append(
                {
                    "squares": [sq, other] if other >= 0 else [sq],
                    "kind": "open" if cp.NEIGHBOURS[sq][d] >= 0 else "wall",
                    "from": segment[0],
                    "to": segment[1],
                }
            )
    north, east, south, west = range(4)
    starts = [
        {
            "mummy": cp.MUMMY_NAMES[m],
            "section": cp.SECTION_NAMES[sec],
            "square": cp.SECTIONS[sec][pos],
            "facing": facing,
        }
        for m, (sec, pos, facing) in enumerate(cp.MUMMY_STARTS)
    ]
    alternate = [
        {
            "mummy": cp.MUMMY_NAMES[m],
            "section": cp.SECTION_NAMES[sec],
            "square": cp.SECTIONS[sec][pos],
            "facing": facing,
        }
        for m, (sec, pos, facing) in enumerate(cp.MUMMY_ALTERNATE_STARTS)
    ]
    return {
        "width": cp.WIDTH,
        "height": cp.HEIGHT,
        "directions": list(cp.DIRECTION_NAMES),
        "areas": [
            {
                "id": _AREA_IDS[i],
                "name": cp.AREA_NAMES[i],
                "deck": ORIGIN_TERMS[cp.DECK_OF_AREA[i]] if cp.DECK_OF_AREA[i] >= 0 else None,
            }
            for i in range(len(_AREA_IDS))
        ],
        "squares": squares,
        "edges": edges,
        "blocks": [{"number": b + 1, "square": sq} for b, sq in enumerate(cp.BLOCK_SQUARE)],
        "corridor": [
            {"section": name, "squares": list(cp.SECTIONS[i])}
            for i, name in enumerate(cp.SECTION_NAMES)
        ],
        "sarcophagi": [
            {
                "index": k,
                "god": cp.GODS[god],
                "square": sq,
                "side": _side(sq, (north, west, east, south)),
            }
            for k, (god, sq) in enumerate(cp.SARCOPHAGI)
        ],
        "alcoves": [
            {
                "god": cp.GODS[g],
                "squares": list(cp.ALCOVE_FRONT[g]),
                "side": _side(cp.ALCOVE_FRONT[g][0], (north, south, west, east)),
                "lock": list(cp.IDOL_LOCK[g]),
                "curse_die": cp.IDOL_CURSE_DIE[g],
                "value": cp.IDOL_VALUE[g],
            }
            for g in range(len(cp.GODS))
        ],
        "entrances": [
            {"name": ENTRANCE_NAMES[i], "square": sq} for i, sq in enumerate(cp.ENTRANCES)
        ],
        "start_squares": list(cp.ENTRANCES),
        "mummy_starts": starts,
        "alternate_mummy_starts": alternate,
        "dice": list(cp.DIE_COLOURS),
        # each card type's kind, for the players' panels (equipment, wounds, treasures)
        "cards": [
            {"name": name, "kind": cp.KIND_NAMES[kind]}
            for name, kind in zip(cp.CARD_NAME, cp.CARD_KIND, strict=True)
        ],
    }
