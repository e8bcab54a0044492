"""Setup and the round's order: choosing adventurers, the Dice Keeper's Ankh, the idol's
curse and the Horus idol's falling block, the mummies' walk to the shared corners, and
the optional alternate starting squares.
"""

from __future__ import annotations

import pytest

from necropolis.engine import CHANCE, IllegalActionError
from necropolis.engine.frozen import replaced
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import P_ACTIONS
from tests.horus.helpers import (
    CHANTAL,
    DAVID,
    DELROY,
    act,
    card,
    chance,
    end_turns,
    keep_all,
    new_state,
    roll,
    said,
    square,
    start,
    told,
)


def test_setup_each_seat_in_turn_picks_a_free_adventurer_and_an_entrance() -> None:
    state = new_state(3)
    assert state.current_player() == 0  # the youngest player, first Dice Keeper
    act(state, "seat 0 plays Rasputin from entrance 1")
    assert state.current_player() == 1
    with pytest.raises(IllegalActionError):
        state.apply_action(4 * 2 + 0)  # Rasputin is taken
    act(state, "seat 1 plays Edgar Rice from entrance 0")
    act(state, "seat 2 plays David Gore from entrance 0")
    assert [cp.ADVENTURERS[a] for a in state.adventurer] == ["Rasputin", "Edgar Rice", "David Gore"]
    assert state.square == [cp.ENTRANCES[1], cp.ENTRANCES[0], cp.ENTRANCES[0]]
    # nothing hidden was drawn at setup: the decks are whole
    assert all(state.supply[t] == cp.CARD_COUNT[t] for t in cp.TYPES_OF_ORIGIN[cp.RUBBLE])


def test_the_ankh_passes_left_and_the_new_keeper_goes_first() -> None:
    state = start([DAVID, CHANTAL, DELROY])
    assert state.node_seat == 2  # only Delroy (Stamina) has a phase-1 choice
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    assert state.node_seat == 0  # actions begin with the Dice Keeper
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    chance(state, 20)
    assert state.dice_keeper == 1 and state.round == 2
    assert state.order == (1, 2, 0)
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    assert state.node_seat == 1


def test_discarding_an_idol_lifts_its_curse() -> None:
    state = start([DAVID, CHANTAL], {0: ["Sobek Idol"]})
    act(state, "seat 0 discards Sobek Idol")
    assert state.current_player() == CHANCE  # nothing left to discard: level set
    roll(state, [6, 1, 1, 1, 1])
    assert state.actions[0] == 1  # the green die counts again
    assert card("Sobek Idol") in state.discard


def test_the_horus_idol_brings_down_a_block_at_once() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = square(0, 5)  # before the Horus alcove
    state.mummy_pos = replaced(state.mummy_pos, 1, 9)  # Sanakht at the far corner
    keep_all(state)
    roll(state, [2, 1, 1, 1, 1])
    pick = state.string_to_action("seat 0 picks the lock of the Horus alcove")
    assert state.action_info(pick)["text"] == (
        "Pick the lock of the Horus alcove: roll the five dice, it needs 1, 2, 3, 4, 5;"
        " the idol's curse takes the red die"
    )
    act(state, "seat 0 picks the lock of the Horus alcove")
    roll(state, [1, 2, 3, 4, 5])
    assert card("Horus Idol") in state.hand[0]
    assert state.current_player() == CHANCE and state.phase == P_ACTIONS
    assert len(state.chance_outcomes()) == 36  # a block from the box, now
    mark = state.clone()
    chance(state, 8)
    assert state.fallen[8]
    assert said(told(mark, state, 1)) == [
        "Taking the Horus Idol set off a trap in the ceiling",
        "Stone block 9 fell",
    ]
    # the curse: the red die is Horus's
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    chance(state, 20)
    keep_all(state)
    roll(state, [1, 6, 1, 1, 1])
    assert state.actions[0] == 0


def test_sanakht_turns_at_the_corner_it_shares_with_anubis() -> None:
    state = start([DAVID, CHANTAL])
    sanakht = cp.MUMMY_NAMES.index("Sanakht")
    state.mummy_pos = replaced(state.mummy_pos, sanakht, 1)
    state.mummy_facing = replaced(state.mummy_facing, sanakht, -1)  # walking west
    keep_all(state)
    roll(state, [1, 1, 1, 1, 1])
    end_turns(state)
    roll(state, [4, 4, 4, 1, 1])  # one step to the corner, turn, two steps back
    assert state.mummy_square(sanakht) == square(0, 2)
    assert state.mummy_facing[sanakht] == 1


def test_the_alternate_starting_squares() -> None:
    normal = new_state(2)
    other = new_state(2, alternate_mummy_starts=True)
    squares = [normal.mummy_square(m) for m in range(3)]
    alternate = [other.mummy_square(m) for m in range(3)]
    assert all(a != b for a, b in zip(squares, alternate, strict=True))
    for m, sq in enumerate(alternate):  # each still walks its own section
        assert sq in cp.SECTIONS[other.mummy_section[m]]
    assert other.view(None)["options"]["alternate_mummy_starts"]
