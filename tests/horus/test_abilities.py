"""The eight special abilities, each usable once per game."""

from __future__ import annotations

from necropolis.engine import CHANCE
from necropolis.engine.frozen import replaced
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import A_CLAIRVOYANCE, A_DONE_STAMINA, A_UDJAT
from necropolis.games.horus.state import HorusState
from tests.horus.helpers import (
    ABDEL,
    CHANTAL,
    DAVID,
    DELROY,
    EDGAR,
    JOSE,
    MAKI,
    RASPUTIN,
    act,
    card,
    chance,
    end_turns,
    keep_all,
    roll,
    square,
    start,
)


def test_shoot_floors_a_mummy_until_phase_4_when_it_rises_and_wounds() -> None:
    state = start([DAVID, CHANTAL])
    initkaes = cp.MUMMY_NAMES.index("Initkaes")
    state.square[0] = square(2, 0)  # next to Initkaes, who starts on (1, 0)
    state.square[1] = square(0, 0)
    keep_all(state)
    roll(state, [6, 6, 6, 6, 6])
    act(state, f"seat 0 shoots {cp.MUMMY_NAMES[initkaes]}")
    assert state.mummy_down[initkaes] and state.ability_used[0]
    act(state, "seat 0 ends the turn")
    act(state, "seat 1 moves south")  # into the fallen mummy's square: no touch
    assert cp.MUMMY_WOUND not in state.hand[1]
    act(state, "seat 1 ends the turn")
    roll(state, [6, 6, 6, 6, 6])
    assert state.mummy_square(initkaes) == square(1, 0)  # it rose instead of moving
    assert not state.mummy_down[initkaes]
    assert state.hand[1].count(cp.MUMMY_WOUND) == 1
    # once per game
    assert all("shoots" not in state.action_to_string(a) for a in state.legal_actions())


def _to_block_phase(state: HorusState) -> None:
    keep_all(state)
    roll(state, [1, 1, 1, 1, 1])
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    assert state.current_player() == CHANCE and state.phase == 5


def test_dodge_avoids_the_block_wound_but_not_the_jump() -> None:
    state = start([DAVID, CHANTAL])
    state.square[0] = state.square[1] = square(1, 1)  # block 1's square
    _to_block_phase(state)
    chance(state, 0)  # block 1 falls
    assert state.node_seat == 0
    assert all("Dodge" not in state.action_to_string(a) for a in state.legal_actions())
    act(state, "seat 0 jumps east")
    assert cp.BLOCK_WOUND in state.hand[0]
    act(state, "seat 1 jumps south and uses Dodge")
    assert state.hand[1] == () and state.ability_used[1]
    assert state.square[1] == square(2, 1)


def test_stamina_lowers_the_level_by_one_for_the_round() -> None:
    hand = ["Hededet treasure (2)", "Hededet treasure (3)", "Sobek treasure (2)"] * 2
    state = start([DELROY, DAVID], {0: hand})
    act(state, "seat 0 keeps the rest and uses Stamina")
    assert state.wll[0] == 2  # six cards give 3, less one
    keep_all(state)
    roll(state, [2, 2, 2, 2, 2])
    assert state.actions[0] == 5
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    chance(state, 30)
    # next round: seat 1 is Dice Keeper; Delroy's level is back and Stamina is spent
    keep_all(state)
    assert state.wll[0] == 3
    assert A_DONE_STAMINA not in state.legal_actions(0) and state.ability_used[0]


def test_linguistics_reads_a_sarcophagus_for_its_reader_alone() -> None:
    state = start([ABDEL, DAVID])
    state.square[0] = square(1, 0)
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    k = cp.SARCOPHAGI_AT[square(1, 0)][0]
    act(state, f"seat 0 uses Linguistics on sarcophagus {k}")
    ten = card("Anubis treasure (10)")
    assert "10" not in state.describe_action(ten, 1)
    assert "Anubis treasure (10)" in state.describe_action(ten, 0)
    chance(state, ten)
    assert state.view(0)["sarcophagi"][k]["card"] == "Anubis treasure (10)"
    assert state.view(1)["sarcophagi"][k]["card"] is None
    assert state.view(None)["sarcophagi"][k]["card"] is None
    assert state.actions[0] == 2  # reading costs no action
    act(state, f"seat 0 opens sarcophagus {k}")
    assert state.current_player() == 0  # no draw: the card was already there
    assert state.view(1)["sarcophagi"][k]["card"] == "Anubis treasure (10)"


def test_clairvoyance_sets_a_checked_block_aside_for_phase_5() -> None:
    state = start([RASPUTIN, DAVID], {1: ["Udjat"]})
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    act(state, "seat 0 uses Clairvoyance")
    assert "20" not in state.describe_action(19, 1)
    chance(state, 19)  # block 20
    assert state.view(0)["checking_block"] == 20
    assert state.view(1)["checking_block"] is None
    act(state, "seat 0 sets the checked block aside")
    assert state.view(0)["block_set_aside_number"] == 20
    assert state.view(1)["block_set_aside_number"] is None
    assert state.view(1)["block_set_aside"]
    act(state, "seat 0 ends the turn")
    assert A_UDJAT not in state.legal_actions(1)  # one Udjat or Clairvoyance a round
    act(state, "seat 1 ends the turn")
    roll(state, [1, 1, 1, 1, 1])
    assert state.fallen[19]  # it fell in phase 5 without a draw
    assert state.round == 2


def test_clairvoyance_put_back_leaves_phase_5_to_chance() -> None:
    state = start([RASPUTIN, DAVID])
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    act(state, "seat 0 uses Clairvoyance")
    chance(state, 4)
    act(state, "seat 0 puts the block back and sets another aside unseen")
    assert A_CLAIRVOYANCE not in state.legal_actions(0)
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    assert state.current_player() == CHANCE and len(state.chance_outcomes()) == 36


def test_reflexes_throws_off_a_scorpion() -> None:
    state = start([MAKI, DAVID])
    state.square[0] = square(5, 4)
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    act(state, "seat 0 searches")
    chance(state, card("Scorpion"))
    act(state, "seat 0 uses Reflexes")
    assert state.hand[0] == () and card("Scorpion") in state.discard
    act(state, "seat 0 searches")
    chance(state, card("Scorpion"))
    assert state.hand[0] == (card("Scorpion"),)  # only once per game


def test_swimming_escapes_a_crocodile() -> None:
    state = start([EDGAR, DAVID])
    state.square[0] = square(3, 4)
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    act(state, "seat 0 searches")
    chance(state, card("Crocodile"))
    act(state, "seat 0 uses Swimming")
    assert state.hand[0] == ()


def test_lockpicking_supplies_the_one_missing_face() -> None:
    state = start([JOSE, DAVID])
    state.square[0] = square(6, 9)
    state.mummy_pos = replaced(state.mummy_pos, 2, 1)
    keep_all(state)
    roll(state, [2, 1, 1, 1, 1])
    act(state, "seat 0 picks the lock of the Sobek alcove")
    roll(state, [2, 4, 1, 1, 1])  # a 6 is missing
    assert state.actions[0] == 0
    act(state, "seat 0 uses Lockpicking")
    assert card("Sobek Idol") in state.hand[0]
