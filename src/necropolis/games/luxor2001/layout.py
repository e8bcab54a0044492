"""The board geometry of Luxor (Baars, 2001): the wall's fixed shafts, pillars and
sarcophagi from the data file, for boards to draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from necropolis.games.luxor2001.components import (
    ABBREV,
    ANIMALS,
    CARDS,
    CARDS_PER_SHAFT,
    CELLS,
    CURSE_ANIMALS,
    FACING_NAMES,
    HAND_SIZE,
    MAX_SCARABS_AT_PILLAR,
    MAX_SCARABS_PER_INSERTION,
    NUM_SCARABS,
    PHARAOH_BONUS,
    RESEARCHERS,
    ROWS,
    SARCOPHAGUS_COUNTS,
    SHAFTS,
    STACK_HEIGHT,
    VALUE_EYES,
    VALUE_POINTS,
    WALL_CARDS,
)
from necropolis.games.luxor2001.narration import card_params

if TYPE_CHECKING:
    pass


def board_layout(pillar_order: tuple[int, ...], curse: bool, sphinx: bool) -> dict[str, Any]:
    """The wall, the pillars and the components' figures, from the data file (JSON-ready)."""
    return {
        "shafts": SHAFTS,
        "rows": ROWS,
        "cells": CELLS,
        "cards_per_shaft": CARDS_PER_SHAFT,
        "wall_cards": WALL_CARDS,
        "animals": [{"id": name, "abbrev": ABBREV[i]} for i, name in enumerate(ANIMALS)],
        "facings": list(FACING_NAMES),
        "pillars": [
            {"slot": slot, "animal": ANIMALS[animal]} for slot, animal in enumerate(pillar_order)
        ],
        "stack_height": STACK_HEIGHT,
        "stack_eyes": list(range(1, STACK_HEIGHT + 1)),
        "sarcophagi": [
            {"eyes": e, "points": p, "count": c}
            for (e, p), c in zip(
                zip(VALUE_EYES, VALUE_POINTS, strict=True), SARCOPHAGUS_COUNTS, strict=True
            )
        ],
        "scarabs": NUM_SCARABS,
        "max_scarabs_at_pillar": MAX_SCARABS_AT_PILLAR,
        "max_scarabs_per_insertion": MAX_SCARABS_PER_INSERTION,
        "researchers_per_player": RESEARCHERS,
        "hand_size": HAND_SIZE,
        "pharaoh_bonus": PHARAOH_BONUS,
        "cards": [
            {"id": i, **{k: v for k, v in card_params(i).items() if k != "card"}}
            for i in range(len(CARDS))
        ],
        "curses": [
            {"id": i, "animals": [ANIMALS[a] for a in animals]}
            for i, animals in enumerate(CURSE_ANIMALS)
        ],
        "variants": {"curse": curse, "sphinx": sphinx},
    }
