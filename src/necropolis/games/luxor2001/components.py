"""Component tables of Luxor (Baars, 2001), read once from ``luxor2001.toml``.

The data file holds every figure with its provenance; this module validates it and turns
it into immutable tables the rules use on every step: the card list (animals and facings
of the two halves), the curse cards, the sarcophagus value pools, the wall geometry
(cell numbering, neighbours, the straight lines used by the Sphinx variant and the
three-in-a-row windows used by the curse), and the layout of the action ids. Cells are
numbered ``row * 8 + shaft`` with row 0 at the bottom of the wall.
"""

from __future__ import annotations

import tomllib
from typing import Any

from necropolis.engine.balance import read_components

# The packaged file, or a changed copy a balance report's "what if" names (read_components).
_DATA: dict[str, Any] = tomllib.loads(
    read_components("luxor2001", "necropolis.games.luxor2001", "luxor2001.toml")
)

# --- animals and cards -------------------------------------------------------------------

ANIMALS: tuple[str, ...] = tuple(a["name"] for a in _DATA["animals"])
ABBREV: tuple[str, ...] = tuple(a["abbrev"] for a in _DATA["animals"])
NUM_ANIMALS = len(ANIMALS)
_INDEX = {name: i for i, name in enumerate(ANIMALS)}

LEFT = 0
RIGHT = 1
FACING_NAMES = ("left", "right")
ARROWS = ("←", "→")


def _facing(text: str) -> int:
    if text not in FACING_NAMES:
        raise ValueError(f"luxor2001.toml: bad facing {text!r}")
    return FACING_NAMES.index(text)


#: Per card: (top animal, top facing, bottom animal, bottom facing).
CARDS: tuple[tuple[int, int, int, int], ...] = tuple(
    (_INDEX[c["top"]], _facing(c["top_facing"]), _INDEX[c["bottom"]], _facing(c["bottom_facing"]))
    for c in _DATA["cards"]
)
NUM_CARDS = len(CARDS)
#: A cell's code is ``animal * 2 + facing``; the wall stores -1 for an empty cell.
CARD_TOP_CODE: tuple[int, ...] = tuple(t * 2 + tf for t, tf, _, _ in CARDS)
CARD_BOTTOM_CODE: tuple[int, ...] = tuple(b * 2 + bf for _, _, b, bf in CARDS)

#: Per curse card: a bitmask of its three animals, and the animals themselves.
CURSE_ANIMALS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_INDEX[a] for a in c["animals"]) for c in _DATA["curses"]
)
CURSE_MASKS: tuple[int, ...] = tuple(sum(1 << a for a in c) for c in CURSE_ANIMALS)
NUM_CURSES = len(CURSE_ANIMALS)

_COUNTS = _DATA["counts"]
HAND_SIZE: int = _COUNTS["hand_size"]
NUM_SCARABS: int = _COUNTS["scarabs"]
RESEARCHERS: int = _COUNTS["researchers_per_player"]
PHARAOH_BONUS: int = _COUNTS["pharaoh_bonus"]
CURSE_FIRST_PILE: int = _COUNTS["curse_first_pile"]
STACK_HEIGHT: int = _COUNTS["sarcophagi_per_pillar"]
MAX_SCARABS_AT_PILLAR = 3
MAX_SCARABS_PER_INSERTION = 2

# --- sarcophagi ---------------------------------------------------------------------------

#: Value index -> (eyes, points). Value indices run 0..6 over all eye classes.
SARCOPHAGUS_VALUES: tuple[tuple[int, int], ...] = tuple(
    (s["eyes"], v) for s in _DATA["sarcophagi"] for v in s["values"]
)
#: How many sarcophagi carry each value index.
SARCOPHAGUS_COUNTS: tuple[int, ...] = tuple(n for s in _DATA["sarcophagi"] for n in s["counts"])
VALUE_EYES: tuple[int, ...] = tuple(e for e, _ in SARCOPHAGUS_VALUES)
VALUE_POINTS: tuple[int, ...] = tuple(p for _, p in SARCOPHAGUS_VALUES)
NUM_VALUES = len(SARCOPHAGUS_VALUES)
#: Value indices of each eye count (1, 2, 3).
VALUES_OF_EYES: dict[int, tuple[int, ...]] = {
    e: tuple(i for i, ve in enumerate(VALUE_EYES) if ve == e) for e in (1, 2, 3)
}

# --- the wall -------------------------------------------------------------------------------

SHAFTS: int = _DATA["wall"]["shafts"]
ROWS: int = _DATA["wall"]["rows"]
CARDS_PER_SHAFT: int = _DATA["wall"]["cards_per_shaft"]
CELLS = SHAFTS * ROWS
WALL_CARDS = SHAFTS * CARDS_PER_SHAFT

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (drow, dshaft): row, column, two diagonals


def _inside(r: int, c: int) -> bool:
    return 0 <= r < ROWS and 0 <= c < SHAFTS


#: The eight neighbours of each cell.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (r + dr) * SHAFTS + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and _inside(r + dr, c + dc)
    )
    for r in range(ROWS)
    for c in range(SHAFTS)
)


def _lines() -> tuple[tuple[int, ...], ...]:
    found: list[tuple[int, ...]] = []
    for dr, dc in _DIRECTIONS:
        for r in range(ROWS):
            for c in range(SHAFTS):
                if _inside(r - dr, c - dc):
                    continue  # not the start of a maximal line
                cells = []
                rr, cc = r, c
                while _inside(rr, cc):
                    cells.append(rr * SHAFTS + cc)
                    rr, cc = rr + dr, cc + dc
                if len(cells) >= 2:
                    found.append(tuple(cells))
    return tuple(found)


#: Every maximal row, column and diagonal of at least two cells.
LINES = _lines()
#: The lines through each cell.
LINES_OF_CELL: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, line in enumerate(LINES) if cell in line) for cell in range(CELLS)
)
#: Every three consecutive cells of a line (the windows a curse card is looked for in).
TRIPLES: tuple[tuple[int, int, int], ...] = tuple(
    (line[i], line[i + 1], line[i + 2]) for line in LINES for i in range(len(line) - 2)
)

# --- action ids -----------------------------------------------------------------------------
# Decisions (0..NUM_DISTINCT_ACTIONS-1):
INSERT_BASE = 0  # + card * 8 + shaft: insert a hand card into a shaft
ORDER_BASE = INSERT_BASE + NUM_CARDS * SHAFTS  # + animal * 2 + kind: score that pair next
RELOCATE_BASE = ORDER_BASE + NUM_ANIMALS * 2  # + animal: take own researcher from that pillar
CLAIM_BASE = RELOCATE_BASE + NUM_ANIMALS  # + claimant * 4 + victim: claim the curse
PASS_BASE = CLAIM_BASE + 16  # + seat: pass in the curse window
GIVE_BASE = PASS_BASE + 4  # + value index: the victim gives a sarcophagus of that value
MOVE_BASE = GIVE_BASE + NUM_VALUES  # + src * 7 + dst: final scarab move
DONE = MOVE_BASE + NUM_ANIMALS * NUM_ANIMALS  # stop moving scarabs
STAY = DONE + 1  # with none in supply: leave own researchers where they are
NUM_DISTINCT_ACTIONS = STAY + 1

# Chance outcomes (0..NUM_CHANCE_OUTCOMES-1):
CH_CARD = 0  # + card: a hieroglyph card is drawn
CH_CURSE = CH_CARD + NUM_CARDS  # + curse: a curse card is revealed
CH_VALUE = CH_CURSE + NUM_CURSES  # + value index: an opened sarcophagus's value
CH_PHARAOH = CH_VALUE + NUM_VALUES  # + animal: a pharaoh card dealt
CH_BACK = CH_PHARAOH + NUM_ANIMALS  # + 0 hieroglyph back, + 1 curse back (pile 2's top card)
NUM_CHANCE_OUTCOMES = CH_BACK + 2

#: Pair kinds: the two animals face different ways, or the same way.
DIFFERENT = 0
SAME = 1


def card_text(card: int) -> str:
    """``camel← over snake→``: the card as it stands in the wall."""
    t, tf, b, bf = CARDS[card]
    return f"{ANIMALS[t]}{ARROWS[tf]} over {ANIMALS[b]}{ARROWS[bf]}"


def _validate() -> None:
    if len(ANIMALS) != 7 or len(set(ANIMALS)) != 7:
        raise ValueError("luxor2001.toml: seven distinct animals expected")
    pairs = {(t, b) for t, _, b, _ in CARDS}
    if _COUNTS["hieroglyph_cards"] != NUM_CARDS or len(pairs) != NUM_CARDS:
        raise ValueError("luxor2001.toml: 49 distinct hieroglyph cards expected")
    if _COUNTS["curse_cards"] != NUM_CURSES or any(len(set(c)) != 3 for c in CURSE_ANIMALS):
        raise ValueError("luxor2001.toml: six curse cards of three different animals expected")
    for eyes in (1, 2, 3):
        if sum(SARCOPHAGUS_COUNTS[i] for i in VALUES_OF_EYES[eyes]) != _COUNTS["pillars"]:
            raise ValueError(f"luxor2001.toml: seven {eyes}-eye sarcophagi expected")
    if ROWS != 2 * CARDS_PER_SHAFT:
        raise ValueError("luxor2001.toml: a card covers two rows")


_validate()
