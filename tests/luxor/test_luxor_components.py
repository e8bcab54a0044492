"""Luxor's component tables against the counts the rulebook and public sources confirm."""

from __future__ import annotations

from necropolis.games.luxor import components as c


def test_cards() -> None:
    assert c.STARTING_CARDS[:7] == (6, 5, 4, 4, 4, 4, 4)
    assert sum(c.STARTING_CARDS[7:]) == 0
    assert [sum(deck) for deck in c.HORUS_DECKS] == [8, 8, 8]
    assert all(sum(deck[:7]) == 0 for deck in c.HORUS_DECKS)
    # Every Horus card kind of the rulebook's overview appears somewhere.
    for kind in range(7, c.NUM_CARD_KINDS):
        assert any(deck[kind] for deck in c.HORUS_DECKS), c.CARD_NAMES[kind]


def test_one_fewer_cards_print_a_number() -> None:
    # Four "one adventurer fewer" cards (the reconstructed level table), each printing 1, 2
    # or 3 tiles (rulebook page 8); at least one shows 1, as in Ani's example there.
    kinds = (c.ONE_FEWER_1, c.ONE_FEWER_2, c.ONE_FEWER_3)
    assert [c.CARD_NAMES[k] for k in kinds] == ["one_fewer_1", "one_fewer_2", "one_fewer_3"]
    assert [c.CARD_REACH[k] for k in kinds] == [1, 2, 3]
    assert all(c.CARD_MODE[k] == c.MODE_FIXED for k in kinds)
    assert c.ONE_FEWER_COPIES == (2, 1, 1)
    assert [[deck[k] for k in kinds] for deck in c.HORUS_DECKS] == [[2, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert c._DATA["one_fewer_cards"]["provenance"] == "reconstructed"


def test_tiles() -> None:
    per_type = [c.TREASURE_COUNTS[t * 5 : t * 5 + 5] for t in range(3)]
    assert per_type == [(1, 4, 3, 1, 1)] * 3
    assert set(c.TREASURE_NEED) <= {1, 2, 3} and set(c.TREASURE_POINTS) <= set(range(1, 7))
    stacks = [sum(s) for s in c.TEMPLE_STACKS]
    assert stacks == [4, 6, 4]
    fronts = [sum(s[f] for s in c.TEMPLE_STACKS) for f in range(c.NUM_TEMPLE_FRONTS)]
    assert fronts == [3, 1, 1, 4, 4, 1]  # wild, Horus 1/2, Horus 2/3, tunnel, scarab, either
    assert c.OSIRIS_COUNTS == (1, 2, 2, 1) and c.OSIRIS_USED == 4
    assert c.SCARAB_COUNTS == (4, 8, 6, 4)
    assert (c.KEYS, c.WILD_TREASURES, c.SARCOPHAGI) == (20, 18, (5, 3))


def test_path() -> None:
    assert c.NUM_FIELDS == 43
    assert len(c.TREASURE_FIELDS) + len(c.OSIRIS_FIELDS) + 6 == 40
    assert [len(level) for level in c.HORUS_FIELDS] == [2, 2, 2]
    assert len(c.ANUBIS_AFTER) == 3
    assert [c.FIELD_SYMBOL.count(b) for b in range(3)] == [4, 6, 4]
    assert c.FIELD_POINTS[c.STAIRS] == 0
    # Points never fall on the way to the chamber.
    assert all(a <= b for a, b in zip(c.FIELD_POINTS, c.FIELD_POINTS[1:], strict=False))
    # The rulebook's adventurer example, 0 + 5 + 5 + 8 + 13, is a reachable set of values.
    assert {0, 5, 8, 13} <= set(c.FIELD_POINTS)
