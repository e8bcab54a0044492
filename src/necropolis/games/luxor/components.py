"""Luxor's components, read once from ``luxor.toml`` into immutable lookup tables.

The data file holds every figure (the path, the points beside each field, the cards, the
tiles and the supplies) with its provenance; this module checks it against the counts the
rulebook and public sources confirm and turns it into the small integer codes the rules
use: card kinds ``0..17``, tile codes ``0..28`` on the fields, and per-field tables such as
the temple symbol under each treasure field. Nothing here changes after import.
"""

from __future__ import annotations

import functools
import tomllib
from typing import Any

from necropolis.engine.balance import read_components

# The packaged file, or a changed copy a balance report's "what if" names (read_components).
_DATA: dict[str, Any] = tomllib.loads(
    read_components("luxor", "necropolis.games.luxor", "luxor.toml")
)

_PROVENANCES = {"rulebook", "public source", "reconstructed"}
# Every table says where its figures come from.
assert all(
    table.get("provenance") in _PROVENANCES for table in _DATA.values() if isinstance(table, dict)
)
assert _DATA["path"]["temple_symbols"]["provenance"] in _PROVENANCES

# --- card kinds ----------------------------------------------------------------------------
# Starting cards first (0..6), then the Horus card kinds (7..17). A card's kind is all that
# matters once it is in a hand: two Horus cards of one kind at different levels play alike.
# "One adventurer fewer" prints a number of tiles, so each number is a kind of its own.
ONE, PLUS_MINUS_ONE, TWO, THREE, FOUR, FIVE, DIE = range(7)
RANGE_3, RANGE_4, RANGE_6, DIE_RANGE, ALL_1, ALL_2, ALL_3 = range(7, 14)
ONE_FEWER_1, ONE_FEWER_2, ONE_FEWER_3, LAST_TO_SECOND = range(14, 18)
NUM_CARD_KINDS = 18
#: The "one adventurer fewer" kinds: a treasure where the adventurer ends needs one fewer.
ONE_FEWER_KINDS = frozenset({ONE_FEWER_1, ONE_FEWER_2, ONE_FEWER_3})

CARD_NAMES: tuple[str, ...] = (
    "one",
    "plus_minus_one",
    "two",
    "three",
    "four",
    "five",
    "die",
    "range_3",
    "range_4",
    "range_6",
    "die_range",
    "all_forward_1",
    "all_forward_2",
    "all_forward_3",
    "one_fewer_1",
    "one_fewer_2",
    "one_fewer_3",
    "last_to_second",
)
CARD_LABELS: tuple[str, ...] = (
    "1",
    "+/-1",
    "2",
    "3",
    "4",
    "5",
    "die",
    "1-3",
    "1-4",
    "1-6",
    "1-die",
    "all forward 1",
    "all forward 2",
    "all forward 3",
    "one adventurer fewer, 1 tile",
    "one adventurer fewer, 2 tiles",
    "one adventurer fewer, 3 tiles",
    "last to second-to-last",
)
_KIND_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}

# How each kind moves. MODE_FIXED: exactly ``CARD_REACH`` tiles; MODE_RANGE: 1..reach;
# MODE_PLUS_MINUS: one tile either way; MODE_DIE / MODE_DIE_RANGE: a roll first, then exactly
# the roll / 1..the roll; MODE_ALL: every active adventurer ``reach`` tiles; MODE_LAST: the
# rearmost adventurer joins the second-rearmost.
MODE_FIXED, MODE_RANGE, MODE_PLUS_MINUS, MODE_DIE, MODE_DIE_RANGE, MODE_ALL, MODE_LAST = range(7)
CARD_MODE: tuple[int, ...] = (
    MODE_FIXED,
    MODE_PLUS_MINUS,
    MODE_FIXED,
    MODE_FIXED,
    MODE_FIXED,
    MODE_FIXED,
    MODE_DIE,
    MODE_RANGE,
    MODE_RANGE,
    MODE_RANGE,
    MODE_DIE_RANGE,
    MODE_ALL,
    MODE_ALL,
    MODE_ALL,
    MODE_FIXED,  # one adventurer fewer: exactly its printed 1, 2 or 3 tiles, then an
    MODE_FIXED,  # easier treasure
    MODE_FIXED,
    MODE_LAST,
)
CARD_REACH: tuple[int, ...] = (1, 1, 2, 3, 4, 5, 6, 3, 4, 6, 6, 1, 2, 3, 1, 2, 3, 0)
DIE_FACES = 6


def _counts(table: dict[str, Any]) -> tuple[int, ...]:
    counts = [0] * NUM_CARD_KINDS
    for name, count in table.items():
        if name != "provenance":
            counts[_KIND_BY_NAME[name]] = int(count)
    return tuple(counts)


STARTING_CARDS: tuple[int, ...] = _counts(_DATA["starting_cards"])
HORUS_DECKS: tuple[tuple[int, ...], ...] = tuple(
    _counts(_DATA["horus_cards"][f"level_{level}"]) for level in (1, 2, 3)
)
assert sum(STARTING_CARDS) == 31
assert all(sum(deck) == 8 for deck in HORUS_DECKS)
#: Copies of the "one adventurer fewer" card by printed number (1, 2, 3).
ONE_FEWER_COPIES: tuple[int, ...] = tuple(
    int(_DATA["one_fewer_cards"]["copies"][str(n)]) for n in (1, 2, 3)
)
assert (
    tuple(
        sum(deck[kind] for deck in HORUS_DECKS) for kind in (ONE_FEWER_1, ONE_FEWER_2, ONE_FEWER_3)
    )
    == ONE_FEWER_COPIES
)
assert all(CARD_REACH[ONE_FEWER_1 + n - 1] == n for n in (1, 2, 3))

# --- tiles ---------------------------------------------------------------------------------
TREASURE_TYPES: tuple[str, ...] = tuple(_DATA["treasure_tiles"]["types"])
_VARIANTS = _DATA["treasure_tiles"]["variants"]
NUM_VARIANTS = len(_VARIANTS)
NUM_TREASURE_KINDS = len(TREASURE_TYPES) * NUM_VARIANTS  # 15
#: Copies of each treasure kind (kind = type * 5 + variant).
TREASURE_COUNTS: tuple[int, ...] = tuple(
    int(_VARIANTS[k % NUM_VARIANTS]["count"]) for k in range(NUM_TREASURE_KINDS)
)
TREASURE_NEED: tuple[int, ...] = tuple(
    int(_VARIANTS[k % NUM_VARIANTS]["adventurers"]) for k in range(NUM_TREASURE_KINDS)
)
TREASURE_POINTS: tuple[int, ...] = tuple(
    int(_VARIANTS[k % NUM_VARIANTS]["points"]) for k in range(NUM_TREASURE_KINDS)
)
assert sum(TREASURE_COUNTS) == 30

OSIRIS_VALUES: tuple[int, ...] = (1, 2, 3, 4)
OSIRIS_COUNTS: tuple[int, ...] = tuple(
    int(_DATA["osiris_tiles"]["values"][str(v)]) for v in OSIRIS_VALUES
)
OSIRIS_USED = int(_DATA["osiris_tiles"]["used"])

# Temple fronts, in chance-outcome order.
WILD_TREASURE, HORUS_1_OR_2, HORUS_2_OR_3, TUNNEL, SCARAB, SCARAB_OR_WILD = range(6)
TEMPLE_NAMES: tuple[str, ...] = (
    "wild_treasure",
    "horus_1_or_2",
    "horus_2_or_3",
    "tunnel",
    "scarab",
    "scarab_or_wild",
)
TEMPLE_LABELS: tuple[str, ...] = (
    "wild treasure",
    "Horus card of 1 or 2 eyes",
    "Horus card of 2 or 3 eyes",
    "tunnel",
    "scarab",
    "scarab or wild treasure",
)
NUM_TEMPLE_FRONTS = 6
BACKS: tuple[str, ...] = ("cobra", "falcon", "lion")
TEMPLE_STACKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(int(_DATA["temple_tiles"][back].get(name, 0)) for name in TEMPLE_NAMES) for back in BACKS
)
assert sum(map(sum, TEMPLE_STACKS)) == 14

# Tile codes on a field. 0 is no tile; treasures 1..15; Osiris tiles 16..19 (values 1..4);
# Horus tiles 20..22 (1..3 eyes); temple tiles 23..28 (fronts in the order above).
NO_TILE = 0
TREASURE_BASE = 1
OSIRIS_BASE = 16
HORUS_TILE_BASE = 20
TEMPLE_BASE = 23
NUM_TILE_CODES = 29

# --- the path ------------------------------------------------------------------------------
_PATH = _DATA["path"]
NUM_FIELDS = int(_PATH["fields"])  # 43
STAIRS = int(_PATH["stairs"])
BURIAL_CHAMBER = int(_PATH["burial_chamber"])
FIELD_POINTS: tuple[int, ...] = tuple(int(p) for p in _PATH["points"])
ANUBIS_AFTER: tuple[int, ...] = tuple(int(f) for f in _PATH["anubis_statues_after"])
OSIRIS_FIELDS: tuple[int, ...] = tuple(int(f) for f in _PATH["osiris_fields"])
HORUS_FIELDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(int(f) for f in level) for level in _PATH["horus_fields"]
)
BLANK_FIELDS: tuple[int, ...] = tuple(int(f) for f in _PATH["blank_fields"])
NUM_STATUES = len(ANUBIS_AFTER)
assert len(FIELD_POINTS) == NUM_FIELDS and BURIAL_CHAMBER == NUM_FIELDS - 1

#: The temple symbol printed under each field: -1 none, else an index into BACKS.
FIELD_SYMBOL: tuple[int, ...] = tuple(
    next(
        (b for b, back in enumerate(BACKS) if f in _PATH["temple_symbols"][back]),
        -1,
    )
    for f in range(NUM_FIELDS)
)
#: The Horus tile's eyes on each Horus field (0 elsewhere).
FIELD_HORUS_LEVEL: tuple[int, ...] = tuple(
    next((lv + 1 for lv, fields in enumerate(HORUS_FIELDS) if f in fields), 0)
    for f in range(NUM_FIELDS)
)
_TAKEN = set(BLANK_FIELDS) | set(OSIRIS_FIELDS) | {f for lv in HORUS_FIELDS for f in lv}
#: Fields that take a treasure tile at setup, in the order the setup chance fills them.
TREASURE_FIELDS: tuple[int, ...] = tuple(f for f in range(NUM_FIELDS) if f not in _TAKEN)
assert len(TREASURE_FIELDS) == 30 and len(OSIRIS_FIELDS) == 4
assert all(FIELD_SYMBOL[f] == -1 or f in TREASURE_FIELDS for f in range(NUM_FIELDS))
assert [sum(1 for s in FIELD_SYMBOL if s == b) for b in range(3)] == [
    sum(stack) for stack in TEMPLE_STACKS
]


def _permanent_tiles_after(field: int) -> int:
    """Fields past ``field`` that hold a tile all game long (Horus tiles, temple symbols)."""
    return sum(
        1 for f in range(field + 1, BURIAL_CHAMBER) if FIELD_HORUS_LEVEL[f] or FIELD_SYMBOL[f] >= 0
    )


# An Osiris tile pushes an adventurer on by up to 4 tiles; the layout keeps at least that
# many lasting tiles beyond every Osiris field, so the push never meets the burial chamber.
assert all(_permanent_tiles_after(f) >= max(OSIRIS_VALUES) for f in OSIRIS_FIELDS)

# --- supplies and scoring ------------------------------------------------------------------
SCARAB_VALUES: tuple[int, ...] = (1, 2, 3, 4)
SCARAB_COUNTS: tuple[int, ...] = tuple(
    int(_DATA["scarabs"]["values"][str(v)]) for v in SCARAB_VALUES
)
assert sum(SCARAB_COUNTS) == 22
_SUP = _DATA["supplies"]
KEYS = int(_SUP["keys"])
WILD_TREASURES = int(_SUP["wild_treasures"])
SARCOPHAGI: tuple[int, ...] = tuple(int(v) for v in _SUP["sarcophagi"])
ADVENTURERS = int(_SUP["adventurers_per_player"])
ACTIVE_AT_START = int(_SUP["active_at_start"])
HAND_SIZE = int(_SUP["hand_size"])
SET_POINTS: tuple[int, ...] = tuple(int(p) for p in _DATA["scoring"]["sets"])
MAX_WILD_PER_SET = int(_DATA["scoring"]["max_wild_per_set"])
POINTS_PER_KEY = int(_DATA["scoring"]["points_per_key"])


def set_points(sets: int) -> int:
    """The points for ``sets`` complete treasure sets (8 or more all score the last entry)."""
    if sets <= 0:
        return 0
    return SET_POINTS[min(sets, len(SET_POINTS)) - 1]


def count_sets(per_type: tuple[int, ...] | list[int], wild: int) -> int:
    """The most complete sets from tiles of each type plus ``wild`` wild treasure tiles.

    A set holds one tile of each type, wild tiles standing in for at most two of them. With
    ``k`` sets, each type contributes at most ``k`` real tiles, and dealing them round the sets
    in turn spreads them so that every set holds one if there are at least ``k`` in all; the
    rest of the ``3k`` places are wild.
    """
    # The heuristic asks this hundreds of thousands of times in a wide turn, of a few
    # hundred distinct hands of tiles: each answer is worked out once per process.
    return _count_sets(tuple(per_type), wild)


@functools.cache
def _count_sets(per_type: tuple[int, ...], wild: int) -> int:
    best = 0
    upper = (sum(per_type) + wild) // 3
    for k in range(1, upper + 1):
        real = sum(min(c, k) for c in per_type)
        if real >= k and 3 * k - real <= wild and 3 * k - real <= MAX_WILD_PER_SET * k:
            best = k
    return best
