"""The five kinds of equipment found in the Cobra Nest."""

from __future__ import annotations

from necropolis.engine import CHANCE
from necropolis.engine.frozen import replaced
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import A_BAG_PUT, A_UDJAT
from tests.horus.helpers import (
    CHANTAL,
    DAVID,
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


def test_antidote_vial_cures_a_snake_bite_or_a_scorpion_sting() -> None:
    state = start([DAVID, CHANTAL], {0: ["Antidote Vial", "Snake", "Scorpion"]})
    act(state, "seat 0 uses an Antidote Vial on a Snake")
    assert state.hand[0] == (card("Scorpion"),)
    assert sorted(state.discard) == sorted([card("Antidote Vial"), card("Snake")])


def test_medi_kit_treats_a_crocodile_bite_or_a_block_wound() -> None:
    state = start([DAVID, CHANTAL], {0: ["Medi-kit", "Block wound", "Mummy wound"]})
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert "seat 0 uses a Medi-kit on a Block wound" in legal
    assert not any("Mummy" in text for text in legal)  # nothing heals a mummy's touch
    act(state, "seat 0 uses a Medi-kit on a Block wound")
    assert state.hand[0] == (card("Mummy wound"),)


def test_bag_holds_two_treasures_and_counts_as_one_card() -> None:
    treasures = ["Hededet treasure (2)", "Hededet treasure (3)", "Sobek treasure (4)"]
    state = start([DAVID, CHANTAL], {0: ["Bag", *treasures, "Scorpion", "Snake"]})
    act(state, "seat 0 puts Hededet treasure (2) in the bag")
    act(state, "seat 0 puts Hededet treasure (3) in the bag")
    assert len(state.bag[0]) == 2
    assert not any(A_BAG_PUT <= a < A_BAG_PUT + cp.NUM_CARD_TYPES for a in state.legal_actions())
    act(state, "seat 0 keeps the rest")
    assert len(state.hand[0]) == 4 and state.wll[0] == 2
    # the bag's load stays hidden from the others
    assert state.view(1)["players"][0]["bag_face_down"] == 2


def test_bag_never_holds_an_idol() -> None:
    state = start([DAVID, CHANTAL], {0: ["Bag", "Horus Idol"]})
    assert not any(A_BAG_PUT <= a < A_BAG_PUT + cp.NUM_CARD_TYPES for a in state.legal_actions())


def test_crowbar_replaces_one_missing_die() -> None:
    state = start([DAVID, CHANTAL], {0: ["Crowbar"]})
    state.square[0] = square(4, 0)  # before the Anubis alcove (3, 4, 5, 6)
    state.mummy_pos = replaced(state.mummy_pos, 0, 6)
    keep_all(state)
    roll(state, [2, 1, 1, 1, 1])
    act(state, "seat 0 picks the lock of the Anubis alcove")
    roll(state, [3, 4, 5, 1, 1])  # the 6 is missing
    act(state, "seat 0 uses a Crowbar")
    assert card("Anubis Idol") in state.hand[0] and card("Crowbar") not in state.hand[0]


def test_crowbar_cannot_replace_two_missing_dice() -> None:
    state = start([DAVID, CHANTAL], {0: ["Crowbar"]})
    state.square[0] = square(4, 0)
    state.mummy_pos = replaced(state.mummy_pos, 0, 6)
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    act(state, "seat 0 picks the lock of the Anubis alcove")
    roll(state, [3, 4, 1, 1, 1])
    assert all("Crowbar" not in state.action_to_string(a) for a in state.legal_actions())


def test_udjat_checks_a_block_and_only_one_is_used_a_round() -> None:
    state = start([DAVID, RASPUTIN], {0: ["Udjat", "Udjat"]})
    keep_all(state)
    roll(state, [2, 2, 1, 1, 1])
    act(state, "seat 0 uses an Udjat")
    chance(state, 7)
    act(state, "seat 0 sets the checked block aside")
    assert A_UDJAT not in state.legal_actions()  # the second Udjat waits a round
    act(state, "seat 0 ends the turn")
    assert all("Clairvoyance" not in state.action_to_string(a) for a in state.legal_actions())
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    assert state.fallen[7] and state.current_player() != CHANCE


def test_a_player_at_twelve_cards_discards_before_searching() -> None:
    hand = ["Hededet treasure (2)"] * 2 + ["Sobek treasure (2)"] * 2 + ["Scorpion"] * 6
    hand += ["Crowbar", "Medi-kit"]
    state = start([DAVID, CHANTAL], {0: hand})
    state.square[0] = square(7, 4)
    keep_all(state)
    roll(state, [6, 6, 6, 6, 6])  # level 6 with twelve cards: every 6 counts
    search = state.string_to_action("seat 0 searches")
    assert state.action_info(search)["text"] == (
        "Search the Cobra Nest: you hold twelve cards, so first discard one, then draw from"
        " the rubble deck"
    )
    act(state, "seat 0 searches")
    assert state.prompt(0) is not None and state.prompt(0)["kind"] == "ask_room_action"
    assert state.view(0)["awaiting"] == "make room"
    assert all("Scorpion" not in state.action_to_string(a) for a in state.legal_actions())
    act(state, "seat 0 discards Crowbar to make room")
    assert state.current_player() == CHANCE  # only now the card is drawn
    chance(state, card("Bag"))
    assert len(state.hand[0]) == 12
