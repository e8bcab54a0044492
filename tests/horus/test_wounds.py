"""Every way an adventurer is wounded: the searched dangers, the mummy's touch in its four
ways, several mummies or several adventurers on one square, the falling block, the card
limit that forces a discard, and the twelve wounds that turn an adventurer into a mummy.
"""

from __future__ import annotations

from necropolis.engine.frozen import replaced
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import CRUSHED, INSIDE, MUMMIFIED
from necropolis.games.horus.state import HorusState
from tests.horus.helpers import (
    CHANTAL,
    DAVID,
    EDGAR,
    act,
    card,
    chance,
    drop_blocks,
    end_turns,
    keep_all,
    roll,
    said,
    square,
    start,
    told,
)

INITKAES, SANAKHT, IMHOTEP = range(3)


def _turns(state: HorusState, faces: list[int]) -> None:
    keep_all(state)
    roll(state, faces)


def test_search_dangers_are_wounds_by_area() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = square(5, 4)  # sand
    state.square[1] = square(3, 4)  # pond
    _turns(state, [2, 2, 2, 1, 1])
    mark = state.clone()
    act(state, "seat 0 searches")
    assert {t for t, _ in state.chance_outcomes()} == set(cp.TYPES_OF_ORIGIN[cp.SAND_DECK])
    chance(state, card("Scorpion"))
    act(state, "seat 0 ends the turn")
    act(state, "seat 1 searches")
    assert {t for t, _ in state.chance_outcomes()} == set(cp.TYPES_OF_ORIGIN[cp.WATER_DECK])
    chance(state, card("Crocodile"))
    assert state.hand == [(card("Scorpion"),), (card("Crocodile"),)]
    assert state.view(1)["players"][0]["cards"] == ["Scorpion"]  # wounds lie face up
    log = told(mark, state, 1)
    assert said(log, "found") == [
        "Player 1 drew Scorpion from the sand deck",
        "You drew Crocodile from the water deck",
    ]
    assert said(log, "stung_by_scorpion") == ["A scorpion stung Player 1: a wound"]
    assert said(log, "bitten_by_crocodile") == ["A crocodile bit you: a wound"]


def test_touch_when_an_adventurer_walks_into_a_mummy() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = square(2, 0)
    _turns(state, [2, 1, 1, 1, 1])
    mark = state.clone()
    act(state, "seat 0 moves north")  # Initkaes stands on (1, 0)
    assert state.hand[0] == (cp.MUMMY_WOUND,)
    assert said(told(mark, state, 1)) == [
        "Player 1 moved north in the Mummies' Corridor",
        "Initkaes touched Player 1: a wound",
    ]


def test_touch_when_a_mummy_walks_over_adventurers_all_of_them() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = state.square[1] = square(2, 0)
    _turns(state, [1, 1, 1, 1, 1])
    end_turns(state)
    mark = state.clone()
    roll(state, [4, 1, 1, 1, 1])  # one step: Initkaes (facing south) enters (2, 0)
    assert state.hand == [(cp.MUMMY_WOUND,), (cp.MUMMY_WOUND,)]
    log = told(mark, state, 0)
    assert said(log, "mummies_walk") == ["The mummy dice gave each mummy 1 step"]
    walk = [e for e in log if e["kind"] == "mummy_walked" and e["params"]["mummy"] == "Initkaes"]
    assert walk[0]["params"]["squares"] == [square(2, 0)]
    assert said(log, "touched_by_mummy") == [
        "Initkaes touched you: a wound",
        "Initkaes touched Player 2: a wound",
    ]


def test_touch_when_they_stay_together_into_the_next_round() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = square(1, 0)  # already on Initkaes's square
    _turns(state, [1, 1, 1, 1, 1])
    end_turns(state)
    mark = state.clone()
    roll(state, [1, 1, 1, 1, 1])  # no mummy moves
    assert state.hand[0] == (cp.MUMMY_WOUND,)
    log = told(mark, state, None)
    assert said(log, "mummies_walk") == ["The mummy dice gave each mummy 0 steps"]
    assert said(log, "mummy_walked") == []
    assert said(log, "touched_by_mummy") == ["Initkaes touched Player 1: a wound"]


def test_touch_when_a_jump_from_a_block_lands_on_a_mummy() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = square(1, 3)  # block 2's square, open to the corridor at (0, 3)
    state.mummy_pos = replaced(state.mummy_pos, SANAKHT, 3)  # Sanakht on (0, 3)
    _turns(state, [1, 1, 1, 1, 1])
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    mark = state.clone()
    chance(state, 1)  # block 2 falls
    assert state.prompt(0) is not None and state.prompt(0)["text"] == (
        "Stone block 2 is falling on your square: jump to a free square"
    )
    act(state, "seat 0 jumps north")
    assert sorted(state.hand[0]) == sorted([cp.BLOCK_WOUND, cp.MUMMY_WOUND])
    assert said(told(mark, state, 1))[:4] == [
        "Stone block 2 fell",
        "Player 1 jumped north, away from the falling block",
        "Sanakht touched Player 1: a wound",
        "The falling stone block hit Player 1: a wound",
    ]


def test_two_mummies_on_one_square_wound_twice() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = square(1, 0)
    state.mummy_pos = replaced(state.mummy_pos, INITKAES, 6)  # both on the shared corner (0, 0)
    state.mummy_pos = replaced(state.mummy_pos, SANAKHT, 0)
    _turns(state, [2, 1, 1, 1, 1])
    mark = state.clone()
    act(state, "seat 0 moves north")
    assert state.hand[0] == (cp.MUMMY_WOUND, cp.MUMMY_WOUND)
    assert said(told(mark, state, 0), "touched_by_mummy") == [
        "Initkaes touched you: a wound",
        "Sanakht touched you: a wound",
    ]


def test_a_block_with_no_free_square_around_crushes() -> None:
    state = start([DAVID, CHANTAL])
    drop_blocks(state, (11, 17, 31))  # the squares around block 16's square (5, 2)
    state.square[0] = square(5, 2)
    _turns(state, [1, 1, 1, 1, 1])
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    mark = state.clone()
    chance(state, 15)  # block 16
    assert state.status[0] == CRUSHED
    assert state.status[1] == INSIDE
    assert said(told(mark, state, 1))[:2] == [
        "Stone block 16 fell",
        "The stone block crushed Player 1: there was nowhere to jump",
    ]


def test_a_mummy_wound_at_twelve_cards_forces_a_discard() -> None:
    hand = ["Hededet treasure (2)"] * 2 + ["Scorpion"] * 6 + ["Crocodile"] * 4
    state = start([DAVID, CHANTAL], {0: hand})
    state.square[0] = square(2, 0)
    _turns(state, [6, 1, 1, 1, 1])
    act(state, "seat 0 moves north")
    assert state.view(0)["awaiting"] == "make room"
    assert state.prompt(0) is not None and state.prompt(0)["kind"] == "ask_room"
    assert state.prompt(0)["params"] == {"card": "Mummy wound"}
    mark = state.clone()
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    assert texts == ["seat 0 discards Hededet treasure (2) to make room"]  # never a wound
    act(state, texts[0])
    assert len(state.hand[0]) == 12 and cp.MUMMY_WOUND in state.hand[0]
    assert said(told(mark, state, 1)) == [
        "Player 1 discarded a face-down sand card",
        "Initkaes touched Player 1: a wound",
    ]


def test_twelve_wounds_and_a_touch_make_a_mummy_that_then_walks() -> None:
    hand = ["Scorpion"] * 6 + ["Crocodile"] * 6
    state = start([EDGAR, CHANTAL], {0: hand})
    state.square[0] = square(2, 0)
    _turns(state, [6, 1, 1, 1, 1])
    mark = state.clone()
    act(state, "seat 0 moves north")
    assert state.status[0] == MUMMIFIED
    assert "You had twelve wounds and rose as a mummy" in said(told(mark, state, 0))
    assert len(state.mummy_pos) == 4 and state.mummy_seat[3] == 0
    assert state.mummy_square(3) == square(1, 0)
    end_turns(state)
    state.square[1] = square(0, 0)  # Chantal waits where the new mummy walks
    mark = state.clone()
    roll(state, [4, 1, 1, 1, 1])  # one step: the new mummy faces north, Initkaes south
    assert state.mummy_square(3) == square(0, 0)
    assert state.hand[1] == (cp.MUMMY_WOUND,)
    log = told(mark, state, 1)
    assert "The mummy of Player 1 walked 1 square along the Anubis section" in said(log)
    assert said(log, "touched_by_seat_mummy") == ["The mummy of Player 1 touched you: a wound"]


def test_a_walking_mummy_that_touches_twelve_wounds_leaves_a_mummy_where_it_touched() -> None:
    # Rulebook 004, the mummy's touch: the adventurer's own figure "now moves and acts
    # like a Mummy", so it rises on its own square, however far the mummy that touched
    # it walks on in the same phase.
    hand = ["Scorpion"] * 6 + ["Crocodile"] * 6
    state = start([EDGAR, CHANTAL], {0: hand})
    state.square[0] = square(2, 0)
    state.square[1] = square(5, 5)
    keep_all(state)
    roll(state, [1, 1, 1, 1, 1])  # no action for anyone: the seats stay where they are
    end_turns(state)
    assert state.mummy_square(INITKAES) == square(1, 0)
    walking = state.mummy_facing[INITKAES]
    roll(state, [4, 4, 4, 1, 1])  # three steps: through (2, 0), on to (4, 0)
    assert state.mummy_square(INITKAES) == square(4, 0)
    assert state.status[0] == MUMMIFIED and state.mummy_seat[3] == 0
    assert state.mummy_square(3) == square(2, 0)
    assert state.mummy_facing[3] == -walking  # back the way Initkaes came


def test_twelve_wounds_leave_no_search_and_no_lock_to_pick() -> None:
    hand = ["Scorpion"] * 6 + ["Crocodile"] * 6
    state = start([DAVID, CHANTAL], {0: hand})
    state.square[0] = square(6, 9)  # before the Sobek alcove
    state.mummy_pos = replaced(state.mummy_pos, IMHOTEP, 1)
    _turns(state, [6, 6, 1, 1, 1])
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    assert not any("picks the lock" in t for t in texts)
    state.square[0] = square(5, 4)  # prepared: the same seat on the sand
    assert "seat 0 searches" not in [state.action_to_string(a) for a in state.legal_actions()]


def test_an_idol_won_at_twelve_cards_needs_room_as_it_arrives() -> None:
    hand = ["Hededet treasure (2)"] + ["Scorpion"] * 6 + ["Crocodile"] * 5
    state = start([DAVID, CHANTAL], {0: hand})
    state.square[0] = square(6, 9)
    state.mummy_pos = replaced(state.mummy_pos, IMHOTEP, 1)
    _turns(state, [6, 6, 1, 1, 1])
    act(state, "seat 0 picks the lock of the Sobek alcove")
    roll(state, [2, 4, 6, 1, 1])
    assert state.view(0)["pending_card"] == "Sobek Idol"
    mark = state.clone()
    act(state, "seat 0 discards Hededet treasure (2) to make room")
    assert card("Sobek Idol") in state.hand[0] and len(state.hand[0]) == 12
    assert said(told(mark, state, 0)) == [
        "You discarded Hededet treasure (2)",
        "You took the Sobek Idol",
        "From now on the green die gives you no action (curse of the Sobek Idol)",
    ]
