"""The rulebook's worked examples, replayed by choosing their chance outcomes.

The printed dice faces were lost with the rulebook's pictures; where an example needs
faces, the test uses faces that give exactly the counts its text states. Positions the
examples assume (cards already in front of a player, a figure on a given square) are
prepared by setting fields, each naming the passage it prepares.
"""

from __future__ import annotations

from necropolis.engine import CHANCE
from necropolis.engine.frozen import replaced
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import INSIDE, SEALED
from necropolis.games.horus.state import HorusState
from tests.horus.helpers import (
    CHANTAL,
    DAVID,
    DELROY,
    EDGAR,
    act,
    block_15_example,
    card,
    chance,
    end_turns,
    keep_all,
    roll,
    said,
    square,
    start,
    told,
)

GREEN, RED, BLUE, YELLOW, WHITE = range(5)


#: 'Wound and load adjustment': David 6 cards, Chantal 8, Delroy 3 with the Sobek idol.
WLL_HANDS = {
    0: ["Hededet treasure (2)"] * 2 + ["Sobek treasure (3)"] * 2 + ["Scorpion", "Crocodile"],
    1: ["Hededet treasure (4)"] * 2
    + ["Sobek treasure (4)"] * 2
    + ["Sobek treasure (1)", "Crowbar", "Bag", "Snake"],
    2: ["Hededet treasure (5)", "Sobek Idol", "Mummy wound"],
}


def wll_example() -> HorusState:
    return start([DAVID, CHANTAL, DELROY], WLL_HANDS)


def test_wound_and_load_levels_of_the_three_players() -> None:
    state = wll_example()
    keep_all(state)
    assert state.current_player() == CHANCE  # the action dice come next
    assert state.wll == (3, 4, 2)


def test_number_of_actions_with_sobeks_curse() -> None:
    state = wll_example()
    keep_all(state)
    mark = state.clone()
    # faces for green, red, blue, yellow, white that give the example's counts
    roll(state, [3, 2, 4, 3, 4])
    assert state.actions == [4, 2, 4]  # Delroy loses the green die to Sobek's curse
    log = told(mark, state, 0)
    assert said(log, "action_die")[0] == "The green action die showed 3"
    assert said(log, "die_cursed") == ["Player 3 ignored the green die (curse of the Sobek Idol)"]
    assert said(log, "actions_counted") == [
        "You got 4 actions (wound and load level 3)",
        "Player 2 got 2 actions (wound and load level 4)",
        "Player 3 got 4 actions (wound and load level 2)",
    ]


def test_a_wound_and_load_level_of_five_gets_no_action_from_the_example_roll() -> None:
    # The example's note: with the same dice, a player at level 5 would have no actions.
    hands = {**WLL_HANDS, 3: ["Mummy wound"] * 6 + ["Block wound"] * 4}
    state = start([DAVID, CHANTAL, DELROY, EDGAR], hands)
    keep_all(state)
    assert state.wll == (3, 4, 2, 5)
    roll(state, [3, 2, 4, 3, 4])
    assert state.actions == [4, 2, 4, 0]


def test_search_in_the_cobra_nest() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = square(7, 4)  # "David Gore is in the Cobra Nest"
    keep_all(state)
    roll(state, [4, 4, 4, 4, 1])
    assert state.actions[0] == 4
    assert state.prompt(0) == {
        "kind": "ask_action",
        "params": {"actions": 4},
        "text": "Choose your next action: 4 actions left",
    }
    assert state.prompt(1) is None
    mark = state.clone()
    act(state, "seat 0 searches")
    necklace = card("Necklace (2)")
    assert "Necklace (2)" in state.describe_action(necklace, 1)  # briefly shown to all
    chance(state, necklace)
    act(state, "seat 0 searches")
    chance(state, card("Crowbar"))
    act(state, "seat 0 searches")
    chance(state, card("Snake"))
    assert sorted(state.hand[0]) == sorted([necklace, card("Crowbar"), card("Snake")])
    other = state.view(1)["players"][0]
    assert other["face_down"] == {"rubble": 1}  # the treasure lies face down
    assert sorted(other["cards"]) == ["Crowbar", "Snake"]  # equipment and bite face up
    act(state, "seat 0 moves north")
    assert state.actions[0] == 0
    assert state.square[0] == square(6, 4)
    # every searched card is shown briefly to the table
    assert said(told(mark, state, 1)) == [
        "Player 1 searched the Cobra Nest",
        "Player 1 drew Necklace (2) from the rubble deck",
        "Player 1 searched the Cobra Nest",
        "Player 1 drew Crowbar from the rubble deck",
        "Player 1 searched the Cobra Nest",
        "Player 1 drew Snake from the rubble deck",
        "A snake bit Player 1: a wound",
        "Player 1 moved north in the Cobra Nest",
    ]


def test_open_a_sarcophagus_and_take_its_treasure() -> None:
    state = start([DAVID, CHANTAL])
    state.square[1] = square(5, 0)  # "Chantal Sarti is ... next to the Anubis sarcophagi"
    state.mummy_pos = replaced(
        state.mummy_pos, 0, 0
    )  # keep Initkaes out of her way (at the section's far end)
    keep_all(state)
    roll(state, [4, 4, 1, 1, 1])
    assert state.actions[1] == 2
    act(state, "seat 0 ends the turn")
    k = cp.SARCOPHAGI_AT[square(5, 0)][0]
    mark = state.clone()
    act(state, f"seat 1 opens sarcophagus {k}")
    cat = card("Anubis treasure (9)")
    chance(state, cat)
    shown = state.view(0)["sarcophagi"][k]
    assert shown["state"] == "open" and shown["card"] == "Anubis treasure (9)"
    act(state, f"seat 1 takes the treasure of sarcophagus {k}")
    assert cat in state.hand[1]
    assert state.view(0)["players"][1]["face_down"] == {"anubis": 1}
    assert state.view(0)["sarcophagi"][k]["state"] == "empty"
    assert state.actions[1] == 0
    assert said(told(mark, state, 0)) == [
        "Player 2 opened one of the Anubis sarcophagi",
        "The Anubis sarcophagus held Anubis treasure (9)",
        "Player 2 took Anubis treasure (9) from the Anubis sarcophagus",
    ]


def test_lock_picked_with_a_reroll() -> None:
    state = start([DAVID, CHANTAL, DELROY])
    state.square[2] = square(6, 9)  # "Delroy is next to the Sobek alcove"
    state.mummy_pos = replaced(
        state.mummy_pos, 2, 1
    )  # Imhotep far up its section, away from Delroy
    keep_all(state)
    roll(state, [2, 2, 2, 1, 1])
    assert state.actions[2] == 3
    act(state, "seat 0 ends the turn")
    act(state, "seat 1 ends the turn")
    mark = state.clone()
    act(state, "seat 2 picks the lock of the Sobek alcove")
    roll(state, [2, 1, 4, 3, 5])  # the lock needs a 2, a 4 and a 6 (reconstructed)
    assert state.lock_god == cp.GOD_INDEX["sobek"]
    assert state.prompt(2) is not None
    assert state.prompt(2)["text"] == (
        "Roll the lock dice again or stop: the Sobek lock still needs 1 face, 2 actions left"
    )
    reroll = state.string_to_action("seat 2 rerolls red, yellow, white")
    info = state.action_info(reroll)
    assert info["targets"] == ["die:1", "die:3", "die:4"]
    assert info["text"] == "Reroll 3 dice: red, yellow, white"
    act(state, "seat 2 rerolls red, yellow, white")
    roll(state, [6, 1, 1])
    assert card("Sobek Idol") in state.hand[2]
    assert not state.alcove_idol[cp.GOD_INDEX["sobek"]]
    assert state.actions[2] == 1  # the idol itself costs no action
    act(state, "seat 2 moves north")
    assert state.actions[2] == 0
    log = said(told(mark, state, 0))
    assert log[0] == "Player 3 began to pick the lock of the Sobek alcove"
    assert log[6:] == [
        "Player 3 rerolled 3 lock dice: red, yellow, white",
        "The red lock die showed 6",
        "The yellow lock die showed 1",
        "The white lock die showed 1",
        "Player 3 opened the lock of the Sobek alcove",
        "Player 3 took the Sobek Idol",
        "From now on the green die gives Player 3 no action (curse of the Sobek Idol)",
        "Player 3 moved north in the Mummies' Corridor",
    ]


def test_imhotep_turns_at_the_wall() -> None:
    state = start([DAVID, CHANTAL])
    keep_all(state)
    roll(state, [1, 1, 1, 1, 1])
    end_turns(state)
    imhotep = cp.MUMMY_NAMES.index("Imhotep")
    assert state.mummy_square(imhotep) == square(4, 9)
    mark = state.clone()
    roll(state, [4, 6, 5, 1, 3])  # three dice of four or more
    assert state.mummy_square(imhotep) == square(5, 9)  # two down, turn, one back
    assert state.mummy_facing[imhotep] == -1
    initkaes = cp.MUMMY_NAMES.index("Initkaes")
    assert state.mummy_square(initkaes) == square(4, 0)  # three squares south, no wall
    walks = {
        e["params"]["mummy"]: e for e in told(mark, state, None) if e["kind"] == "mummy_walked"
    }
    assert walks["Imhotep"]["params"]["squares"] == [square(5, 9), square(6, 9), square(5, 9)]
    assert walks["Imhotep"]["text"] == "Imhotep walked 3 squares along the Thoth section"
    # "Like the other two Mummies": each of the three walks three squares.
    assert {name: len(walk["params"]["squares"]) for name, walk in walks.items()} == {
        "Initkaes": 3,
        "Sanakht": 3,
        "Imhotep": 3,
    }


def test_block_15_seals_the_cobra_nest() -> None:
    state = block_15_example()
    mark = state.clone()
    chance(state, 15 - 1)  # block 15 falls
    assert state.status == (INSIDE, SEALED, SEALED)
    assert not state.is_terminal()
    assert said(told(mark, state, 1))[:3] == [
        "Stone block 15 fell",
        "The fallen blocks sealed you in the pyramid",
        "The fallen blocks sealed Player 3 in the pyramid",
    ]
