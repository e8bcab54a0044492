"""The Pyramid of Horus's components, read once from ``horus.toml`` into flat tables.

Everything the rules look up on every step lives here as tuples of ints, computed at
import: squares and their neighbours in the four directions (``-1`` where a solid line or
the board's edge stops a move), the area of each square, the corridor sections as paths,
the sarcophagus and alcove spaces, the numbered squares, the card types with their counts,
kinds, gods, values and backs, the idols' curses, values and lock combinations, and the
wound and load level table. Rules code never parses text or builds dicts while playing.
"""

from __future__ import annotations

import itertools
import tomllib
from typing import Any

from necropolis.engine.balance import read_components

# The packaged file, or a changed copy a balance report's "what if" names (read_components).
_DATA: dict[str, Any] = tomllib.loads(
    read_components("horus", "necropolis.games.horus", "horus.toml")
)

# --- areas --------------------------------------------------------------------------

MUMMIES_CORRIDOR, SCORPION_PIT, CROCODILE_POND, COBRA_NEST, ENTRANCE = 0, 1, 2, 3, 4
AREA_NAMES = ("Mummies' Corridor", "Scorpion Pit", "Crocodile Pond", "Cobra Nest", "Entrance")
_AREA_OF_LETTER = {
    "H": MUMMIES_CORRIDOR,
    "A": MUMMIES_CORRIDOR,
    "T": MUMMIES_CORRIDOR,
    "S": SCORPION_PIT,
    "P": CROCODILE_POND,
}
_AREA_OF_LETTER.update({"C": COBRA_NEST, "E": ENTRANCE})

#: Directions: north, east, south, west (row and column steps).
DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))
DIRECTION_NAMES = ("north", "east", "south", "west")

_board = _DATA["board"]
ROWS: tuple[str, ...] = tuple(_board["rows"])
HEIGHT = len(ROWS)
WIDTH = max(len(r) for r in ROWS)

_cells: list[tuple[int, int]] = [
    (r, c) for r, row in enumerate(ROWS) for c, ch in enumerate(row) if ch != "."
]
#: Square id -> (row, column).
SQUARE_POS: tuple[tuple[int, int], ...] = tuple(_cells)
SQUARE_AT: dict[tuple[int, int], int] = {pos: i for i, pos in enumerate(_cells)}
NUM_SQUARES = len(_cells)
#: Square id -> area constant.
AREA: tuple[int, ...] = tuple(_AREA_OF_LETTER[ROWS[r][c]] for r, c in _cells)
_LETTER: tuple[str, ...] = tuple(ROWS[r][c] for r, c in _cells)


def _sq(pair: list[int]) -> int:
    return SQUARE_AT[(int(pair[0]), int(pair[1]))]


def _build_neighbours() -> tuple[tuple[int, ...], ...]:
    open_pairs = {frozenset(p) for p in _board["area_pairs_open"]}
    openings = {frozenset((_sq(a), _sq(b))) for a, b in _board["openings"]}
    walls = {frozenset((_sq(a), _sq(b))) for a, b in _board["walls"]}
    table: list[tuple[int, ...]] = []
    for i, (r, c) in enumerate(_cells):
        row: list[int] = []
        for dr, dc in DIRECTIONS:
            j = SQUARE_AT.get((r + dr, c + dc), -1)
            if j >= 0:
                pair = frozenset((i, j))
                la, lb = _LETTER[i], _LETTER[j]
                joined = AREA[i] == AREA[j] or frozenset((la, lb)) in open_pairs
                # corridor letters H/A/T are one area, but the section walls only open
                # along each section's own path (listed below as area pairs)
                if pair in walls:
                    joined = False
                if pair in openings:
                    joined = True
                if not joined:
                    j = -1
            row.append(j)
        table.append(tuple(row))
    return tuple(table)


#: Square id -> neighbour square id in each direction, or -1.
NEIGHBOURS: tuple[tuple[int, ...], ...] = _build_neighbours()

ENTRANCES: tuple[int, ...] = tuple(i for i in range(NUM_SQUARES) if AREA[i] == ENTRANCE)

# --- numbered squares (stone blocks) --------------------------------------------------

NUM_BLOCKS = len(_board["numbered_squares"])
#: Block number - 1 -> square id.
BLOCK_SQUARE: tuple[int, ...] = tuple(
    SQUARE_AT[(r, c)] for r, c, _ in sorted(_board["numbered_squares"], key=lambda t: t[2])
)
#: Square id -> block number (1..36), 0 if not numbered.
SQUARE_NUMBER: tuple[int, ...] = tuple(
    next((n for r, c, n in _board["numbered_squares"] if (r, c) == pos), 0) for pos in _cells
)

if any(SQUARE_NUMBER[e] == 0 for e in ENTRANCES):
    # The rulebook ends the game through the blocks alone ("Sealing the Pyramid"): with
    # every exit space numbered, the 36 blocks together close every way out.
    raise ValueError("horus.toml: every Entrance and Exit space must carry a block number")

# --- the corridor -------------------------------------------------------------------

SECTION_NAMES = ("anubis", "horus", "thoth")
#: Section index -> ordered path of square ids.
SECTIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_sq(p) for p in _board["sections"][name]) for name in SECTION_NAMES
)

GODS = ("hededet", "sobek", "thoth", "anubis", "horus")
GOD_INDEX = {g: i for i, g in enumerate(GODS)}

#: Sarcophagus index -> (god index, square in front of it).
SARCOPHAGI: tuple[tuple[int, int], ...] = tuple(
    (GOD_INDEX[god], _sq(p))
    for god in ("anubis", "thoth", "horus")
    for p in _board["sarcophagi"][god]
)
NUM_SARCOPHAGI = len(SARCOPHAGI)
#: Square id -> sarcophagi in front of which it lies.
SARCOPHAGI_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k, (_, s) in enumerate(SARCOPHAGI) if s == i) for i in range(NUM_SQUARES)
)
#: Idol (god index) -> squares in front of its alcove.
ALCOVE_FRONT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_sq(p) for p in _board["alcoves"][g]) for g in GODS
)
ALCOVES_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple(g for g in range(len(GODS)) if i in ALCOVE_FRONT[g]) for i in range(NUM_SQUARES)
)

# --- mummies ------------------------------------------------------------------------

MUMMY_NAMES: tuple[str, ...] = tuple(m["name"] for m in _DATA["mummies"])
#: Per original mummy: (section, path index, facing) for the standard and alternate starts.
MUMMY_STARTS: tuple[tuple[int, int, int], ...] = tuple(
    (
        SECTION_NAMES.index(m["section"]),
        SECTIONS[SECTION_NAMES.index(m["section"])].index(_sq(m["start"])),
        int(m["facing"]),
    )
    for m in _DATA["mummies"]
)
MUMMY_ALTERNATE_STARTS: tuple[tuple[int, int, int], ...] = tuple(
    (
        SECTION_NAMES.index(m["section"]),
        SECTIONS[SECTION_NAMES.index(m["section"])].index(_sq(m["alternate_start"])),
        int(m["alternate_facing"]),
    )
    for m in _DATA["mummies"]
)

# --- adventurers, dice, levels ------------------------------------------------------

ADVENTURERS: tuple[str, ...] = tuple(a[0] for a in _DATA["adventurers"]["list"])
ABILITIES: tuple[str, ...] = tuple(a[1] for a in _DATA["adventurers"]["list"])
SHOOT, DODGE, STAMINA, LINGUISTICS, CLAIRVOYANCE, REFLEXES, LOCKPICKING, SWIMMING = range(8)
NUM_ADVENTURERS = len(ADVENTURERS)

DIE_COLOURS: tuple[str, ...] = tuple(_DATA["dice"]["colours"])
NUM_DICE = len(DIE_COLOURS)
MUMMY_STEP_MINIMUM = int(_DATA["dice"]["mummy_step_minimum"])
WLL_TABLE: tuple[int, ...] = tuple(_DATA["wound_and_load_level"]["table"])
CARD_LIMIT = int(_DATA["wound_and_load_level"]["card_limit"])
#: Variety bonus by number of different gods (rulebook).
VARIETY_BONUS = (0, 1, 3, 6, 10, 15)

IDOL_CURSE_DIE: tuple[int, ...] = tuple(
    next(int(i["curse_die"]) for i in _DATA["idols"] if i["god"] == g) for g in GODS
)
IDOL_VALUE: tuple[int, ...] = tuple(
    next(int(i["value"]) for i in _DATA["idols"] if i["god"] == g) for g in GODS
)
IDOL_LOCK: tuple[tuple[int, ...], ...] = tuple(
    tuple(next(i["lock"] for i in _DATA["idols"] if i["god"] == g)) for g in GODS
)
HORUS = GOD_INDEX["horus"]

# --- cards --------------------------------------------------------------------------

TREASURE, CHEST, NECKLACE, EQUIPMENT, WOUND, IDOL = range(6)
_KIND = {"treasure": TREASURE, "chest": CHEST, "necklace": NECKLACE}
_KIND.update({"equipment": EQUIPMENT, "wound": WOUND, "idol": IDOL})
#: Each card kind's word in the data file, by its number.
KIND_NAMES: tuple[str, ...] = tuple(sorted(_KIND, key=_KIND.__getitem__))
ORIGINS = ("rubble", "sand", "water", "anubis", "thoth", "horus", "mummy", "block", "idol")
#: The origins as English words: a sarcophagus deck is named after its god, with a capital.
ORIGIN_WORDS = tuple(o.capitalize() if o in GODS else o for o in ORIGINS)
RUBBLE, SAND_DECK, WATER_DECK, ANUBIS_POOL, THOTH_POOL, HORUS_POOL = range(6)
MUMMY_PILE, BLOCK_PILE, IDOL_ORIGIN = 6, 7, 8

_types: list[tuple[str, int, int, int, int, int]] = []  # name, kind, god, value, origin, count
for deck in _DATA["cards"]:
    for name, kind, god, value, count in deck["list"]:
        _types.append(
            (
                name,
                _KIND[kind],
                GOD_INDEX[god] if god else -1,
                int(value),
                ORIGINS.index(deck["origin"]),
                int(count),
            )
        )
for g in GODS:
    _types.append(
        (f"{g.capitalize()} Idol", IDOL, GOD_INDEX[g], IDOL_VALUE[GOD_INDEX[g]], IDOL_ORIGIN, 1)
    )

NUM_CARD_TYPES = len(_types)
CARD_NAME: tuple[str, ...] = tuple(t[0] for t in _types)
CARD_KIND: tuple[int, ...] = tuple(t[1] for t in _types)
CARD_GOD: tuple[int, ...] = tuple(t[2] for t in _types)
CARD_VALUE: tuple[int, ...] = tuple(t[3] for t in _types)
CARD_ORIGIN: tuple[int, ...] = tuple(t[4] for t in _types)
CARD_COUNT: tuple[int, ...] = tuple(t[5] for t in _types)
TYPES_OF_ORIGIN: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in range(NUM_CARD_TYPES) if CARD_ORIGIN[t] == o) for o in range(len(ORIGINS))
)


def _card(name: str) -> int:
    return CARD_NAME.index(name)


ANTIDOTE, MEDIKIT, CROWBAR, BAG, UDJAT = (
    _card("Antidote Vial"),
    _card("Medi-kit"),
    _card("Crowbar"),
    _card("Bag"),
    _card("Udjat"),
)
SNAKE, SCORPION, CROCODILE = _card("Snake"), _card("Scorpion"), _card("Crocodile")
MUMMY_WOUND, BLOCK_WOUND = _card("Mummy wound"), _card("Block wound")
#: God index -> idol card type.
IDOL_CARD: tuple[int, ...] = tuple(_card(f"{g.capitalize()} Idol") for g in GODS)
#: Cards that may be discarded freely (treasures, chests, necklaces, equipment, idols).
DISCARDABLE: tuple[bool, ...] = tuple(k != WOUND for k in CARD_KIND)
#: Cards that a Bag may hold (treasures, chests and necklaces; never idols).
BAGGABLE: tuple[bool, ...] = tuple(k in (TREASURE, CHEST, NECKLACE) for k in CARD_KIND)
#: Cards laid face down in front of their owner under the normal rules.
FACE_DOWN: tuple[bool, ...] = BAGGABLE
#: Area -> deck origin searched there (-1: no search).
DECK_OF_AREA = (-1, SAND_DECK, WATER_DECK, RUBBLE, -1)
#: Sarcophagus god -> origin pool of its cards.
POOL_OF_GOD = {
    GOD_INDEX["anubis"]: ANUBIS_POOL,
    GOD_INDEX["thoth"]: THOTH_POOL,
    GOD_INDEX["horus"]: HORUS_POOL,
}
SARC_POOL: tuple[int, ...] = tuple(POOL_OF_GOD[g] for g, _ in SARCOPHAGI)


def _check() -> None:
    """Fail at import if the data file breaks a constraint the rulebook states."""
    counts = [sum(CARD_COUNT[t] for t in TYPES_OF_ORIGIN[o]) for o in range(len(ORIGINS))]
    assert counts[:8] == [18, 18, 18, 5, 5, 4, 18, 8], counts
    assert NUM_BLOCKS == 36 and sorted(SQUARE_NUMBER)[-36:] == list(range(1, 37))
    assert [len(x) for x in ALCOVE_FRONT] == [1, 1, 1, 1, 2]
    for path in SECTIONS:  # consecutive squares of a section are joined
        for a, b in itertools.pairwise(path):
            assert b in NEIGHBOURS[a], (a, b)
    assert len(WLL_TABLE) == CARD_LIMIT + 1
    assert all(AREA[BLOCK_SQUARE[n]] != MUMMIES_CORRIDOR for n in range(NUM_BLOCKS))


_check()
