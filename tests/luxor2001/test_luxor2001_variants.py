"""The two printed variants of luxor2001: the Pharaoh's curse and the eyes of the Sphinx.

Curse positions are prepared where the rulebook's setup would take many turns to reach:
the first pile exhausted, a sarcophagus already opened, the curse animals already lined
up in the wall. The race, the claim, the victim's gift and the following draws are then
played through the protocol.
"""

from __future__ import annotations

from typing import Any

import pytest

from necropolis.engine import IllegalActionError
from necropolis.engine.frozen import added, replaced
from necropolis.games.luxor2001 import LuxorState, rules
from necropolis.games.luxor2001.components import (
    CH_BACK,
    CH_CARD,
    CH_CURSE,
    CLAIM_BASE,
    CURSE_ANIMALS,
    GIVE_BASE,
    INSERT_BASE,
    ORDER_BASE,
    PASS_BASE,
    SARCOPHAGUS_VALUES,
)
from tests.luxor2001.luxor2001_support import (
    A,
    card_of,
    events,
    insert,
    logged,
    place,
    started,
)

# Curse card 0 shows the camel, the mule and the hippopotamus.
CURSE = 0
HANDS = [
    [card_of("cat", "snake"), card_of("snake", "cat"), card_of("cat", "crocodile")],
    [card_of("crocodile", "cat"), card_of("ibis", "snake"), card_of("snake", "ibis")],
    [card_of("ibis", "crocodile"), card_of("crocodile", "ibis"), card_of("cat", "ibis")],
]


def value(eyes: int, points: int) -> int:
    return SARCOPHAGUS_VALUES.index((eyes, points))


def cursed(players: int = 2, line: tuple[int, int, int] = (5, 6, 7), held: int = 1) -> LuxorState:
    """Seat 0 to insert; the next draw is the curse card atop the second pile (prepared)."""
    state = started(players, HANDS[:players], back=1, curse=True)
    assert state.pile1 == 20 - 3 * players
    state.pile1 = 0  # prepared: the first pile has been drawn
    # Prepared wall: camel, mule and hippopotamus side by side on the bottom row.
    for shaft, bottom, top in zip(
        line, ("camel", "mule", "hippopotamus"), ("ibis", "cat", "snake"), strict=True
    ):
        place(state, card_of(top, bottom), shaft)
    # Prepared: seat 1 opened a 2-eye sarcophagus worth 6 (and maybe a 1-eye worth 3).
    for v in [value(2, 6), value(1, 3)][:held]:
        state.value_pool = added(state.value_pool, v, -1)
        state.held = replaced(state.held, 1, (*state.held[1], v | 1 << (3 + 1)))
    return state


def reveal_curse(state: LuxorState, curse: int = CURSE) -> list[dict[str, Any]]:
    """Seat 0 inserts a card far from the line and must draw the curse card on top.

    Returns the log entries of the reveal, as seat 1 reads them.
    """
    insert(state, HANDS[0][0], 1)
    assert state.phase == rules.CURSE
    outcomes = state.chance_outcomes()
    assert [a - CH_CURSE for a, _ in outcomes] == sorted(state.curses_left)
    return logged(state, CH_CURSE + curse, 1)


def test_curse_card_shows_the_animals_the_tests_line_up() -> None:
    assert {A[x] for x in ("camel", "mule", "hippopotamus")} == set(CURSE_ANIMALS[CURSE])


def test_curse_window_lets_every_seat_claim_and_the_drawer_profits() -> None:
    state = cursed(3)
    revealed = {"curse": CURSE, "animal_1": "camel", "animal_2": "mule", "animal_3": "hippopotamus"}
    assert events(reveal_curse(state)) == [
        ("curse_revealed", 0, revealed),
        ("curse_window", None, {}),
    ]
    assert state.phase == rules.WINDOW
    assert state.acting_seats() == (0, 1, 2)
    assert state.current_player() == 0  # the drawer first in turn order
    assert state.view(2)["curse"]["card"] == ["camel", "mule", "hippopotamus"]
    # Only seat 1 holds a sarcophagus, and the drawer (seat 0) may not be the victim.
    assert state.legal_actions(2) == [CLAIM_BASE + 2 * 4 + 1, PASS_BASE + 2]
    assert state.legal_actions(0) == [CLAIM_BASE + 0 * 4 + 1, PASS_BASE + 0]
    state.apply_action(PASS_BASE + 0)
    assert state.current_player() == 1 and state.acting_seats() == (1, 2)
    with pytest.raises(IllegalActionError):
        state.apply_action(CLAIM_BASE + 0 * 4 + 1)  # seat 0 has passed
    text = state.action_to_string(CLAIM_BASE + 2 * 4 + 1)
    assert text == "seat 2 finds the curse animals and curses seat 1"
    prompt = state.prompt(2)
    assert prompt is not None and prompt["kind"] == "prompt_claim"
    assert prompt["params"] == {"animal_1": "camel", "animal_2": "mule", "animal_3": "hippopotamus"}
    info = state.action_info(CLAIM_BASE + 2 * 4 + 1)
    assert (info["kind"], info["params"], info["targets"]) == (
        "claim_curse",
        {"victim_seat": 1, "drawer_seat": 0},
        [],
    )
    claim = CLAIM_BASE + 2 * 4 + 1  # seat 2 is quicker than seat 1
    before = state.clone()
    state.apply_action(claim)
    # The gift's value goes to giver and receiver only; the claimant sees its eyes.
    claimed = ("curse_claimed", 2, {"victim_seat": 1})
    gift = {"drawer_seat": 0, "eyes": 2}
    for viewer in (0, 1):
        assert events(state.narrate(before, claim, viewer)) == [
            claimed,
            ("sarcophagus_given", 1, {**gift, "points": 6}),
        ]
    for viewer in (2, None):
        assert events(state.narrate(before, claim, viewer)) == [
            claimed,
            ("sarcophagus_given_hidden", 1, gift),
        ]
    # One sarcophagus only: no choice to make, it goes to the seat that drew the curse.
    assert state.held[1] == ()
    assert [c & 7 for c in state.held[0]] == [value(2, 6)]
    assert state.view(0)["sarcophagi"][0] == [[2, 6]]
    assert state.view(1)["sarcophagi"][0] == [[2, 6]]  # seat 1 had seen it
    assert state.view(2)["sarcophagi"][0] == [[2, None]]
    assert state.curses_out == (CURSE,) and CURSE not in state.curses_left
    # The drawer still needs a card: the next top card's back is shown, then the draw.
    assert state.phase == rules.BACK
    state.apply_action(CH_BACK)
    assert state.phase == rules.DRAW and state.player == 0
    state.apply_action(state.chance_outcomes()[0][0])
    assert len(state.hands[0]) == 3
    assert state.phase == rules.BACK  # the second pile's new top card shows its back
    state.apply_action(CH_BACK)
    assert state.current_player() == 1


def test_a_seat_that_held_the_given_sarcophagus_is_told_its_points() -> None:
    state = cursed(3)
    # Prepared: seat 2 held seat 1's sarcophagus once (and so looked at it).
    state.held = replaced(state.held, 1, tuple(c | 1 << (3 + 2) for c in state.held[1]))
    assert state.view(2)["sarcophagi"][1] == [[2, 6]]
    reveal_curse(state)
    before = state.clone()
    claim = CLAIM_BASE + 0 * 4 + 1
    state.apply_action(claim)
    gift = {"drawer_seat": 0, "eyes": 2}
    for viewer in (0, 1, 2):
        (told,) = [e for e in events(state.narrate(before, claim, viewer)) if "given" in e[0]]
        assert told == ("sarcophagus_given", 1, {**gift, "points": 6}), viewer
    (told,) = [e for e in events(state.narrate(before, claim, None)) if "given" in e[0]]
    assert told == ("sarcophagus_given_hidden", 1, gift)
    assert state.view(2)["sarcophagi"][0] == [[2, 6]]  # its view knows where it went


def test_victim_picks_which_sarcophagus_to_give() -> None:
    state = cursed(2, held=2)
    reveal_curse(state)
    state.apply_action(CLAIM_BASE + 0 * 4 + 1)
    assert state.phase == rules.GIVE and state.current_player() == 1
    gifts = state.legal_actions()
    assert gifts == [GIVE_BASE + value(1, 3), GIVE_BASE + value(2, 6)]
    assert state.describe_action(GIVE_BASE + value(1, 3), None) == (
        "seat 1 gives seat 0 a 1-eye sarcophagus"
    )
    prompt = state.prompt(1)
    assert prompt is not None and prompt["kind"] == "prompt_give"
    assert prompt["params"] == {"drawer_seat": 0} and state.prompt(0) is None
    info = state.action_info(GIVE_BASE + value(2, 6))
    assert info["params"] == {"drawer_seat": 0, "eyes": 2, "points": 6}
    assert info["targets"] == ["sarcophagus:1"]  # view(1)["sarcophagi"][1] is [[1, 3], [2, 6]]
    assert state.view(1)["sarcophagi"][1] == [[1, 3], [2, 6]]
    entries = logged(state, GIVE_BASE + value(1, 3), 0)
    assert events(entries) == [
        ("sarcophagus_given", 1, {"drawer_seat": 0, "eyes": 1, "points": 3}),
    ]
    assert entries[0]["text"] == "Player 2 gave you a sarcophagus (1 eye, worth 3)"
    assert [c & 7 for c in state.held[1]] == [value(2, 6)]
    assert [c & 7 for c in state.held[0]] == [value(1, 3)]


def test_victim_is_asked_even_when_its_sarcophagi_are_worth_the_same() -> None:
    # Skipping the question would tell the drawer that the victim's values are equal.
    state = cursed(2, held=2)
    state.held = replaced(state.held, 1, (value(1, 3) | 2 << 3,) * 2)  # prepared: two alike
    reveal_curse(state)
    state.apply_action(CLAIM_BASE + 0 * 4 + 1)
    assert state.phase == rules.GIVE and state.current_player() == 1
    assert state.legal_actions() == [GIVE_BASE + value(1, 3)]
    state.apply_action(GIVE_BASE + value(1, 3))
    assert [c & 7 for c in state.held[0]] == [value(1, 3)]
    assert len(state.held[1]) == 1


def test_nobody_finds_the_curse_all_pass_no_effect() -> None:
    state = cursed(2)
    reveal_curse(state)
    assert events(logged(state, PASS_BASE + 0)) == [("curse_passed", 0, {})]
    assert state.acting_seats() == (1,)
    assert events(logged(state, PASS_BASE + 1)) == [
        ("curse_passed", 1, {}),
        ("curse_lapsed", None, {}),
    ]
    assert len(state.held[1]) == 1 and state.held[0] == ()
    assert state.curses_out == (CURSE,)
    assert state.phase == rules.BACK


def test_no_window_when_the_animals_are_not_side_by_side() -> None:
    state = cursed(2, line=(5, 6, 8))  # a gap in shaft 7
    assert [e["kind"] for e in reveal_curse(state)] == ["curse_revealed", "curse_harmless"]
    assert state.phase == rules.BACK  # nobody can claim: the curse passes harmlessly
    assert len(state.held[1]) == 1
    assert state.curses_out == (CURSE,)


def test_no_window_when_nobody_has_a_sarcophagus() -> None:
    state = cursed(2, held=0)
    assert events(reveal_curse(state))[1:] == [("curse_no_victim", None, {"drawer_seat": 0})]
    assert state.phase == rules.BACK and state.curses_out == (CURSE,)


def test_consecutive_curse_cards() -> None:
    state = cursed(2, line=(5, 6, 8))
    reveal_curse(state)
    state.apply_action(CH_BACK + 1)  # the next card is a curse too
    assert state.phase == rules.CURSE
    assert sorted(a - CH_CURSE for a, _ in state.chance_outcomes()) == [1, 2, 3, 4, 5]
    state.apply_action(CH_CURSE + 3)
    assert state.curses_out == (CURSE, 3) and len(state.curses_left) == 4
    state.apply_action(CH_BACK)  # now a hieroglyph card
    assert state.phase == rules.DRAW and state.player == 0
    card = state.chance_outcomes()[0][0]
    assert state.describe_action(card, 1) == "seat 0 draws a card"
    assert "draws" in state.describe_action(card, 0) and "over" in state.describe_action(card, 0)
    state.apply_action(card)
    assert state.hands[0][-1] == card - CH_CARD
    state.apply_action(CH_BACK + 1)
    assert state.current_player() == 1


def test_curse_piles_at_setup() -> None:
    fourth = [card_of("cat", "camel"), card_of("camel", "cat"), card_of("mule", "camel")]
    state = started(4, [*HANDS, fourth], back=None, curse=True)
    # The second pile (29 hieroglyphs and 6 curses) shows its top card's back at once.
    assert state.phase == rules.BACK
    outcomes = dict(state.chance_outcomes())
    assert abs(outcomes[CH_BACK] - 29 / 35) < 1e-12
    assert abs(outcomes[CH_BACK + 1] - 6 / 35) < 1e-12
    assert state.describe_action(CH_BACK + 1, None) == (
        "the next card of the second pile shows a curse back"
    )
    state.apply_action(CH_BACK + 1)
    view = state.view(3)["curse"]
    assert view["first_pile"] == 20 - 12
    assert view["second_pile"] == 29 + 6 and view["curses_in_pile"] == 6
    assert view["next_back"] == "curse"
    assert state.current_player() == 0 and state.phase == rules.INSERT
    # The first pile is drawn from first, whatever the second pile's top card is.
    insert(state, HANDS[0][0], 1)
    assert state.phase == rules.DRAW
    assert all(a < 49 for a, _ in state.chance_outcomes())


# --- the eyes of the Sphinx ---------------------------------------------------------------


def test_sphinx_pairs_need_only_share_a_line() -> None:
    hands = [[card_of("hippopotamus", "camel"), HANDS[0][1], HANDS[0][2]], HANDS[1]]
    for sphinx, expected in ((True, 1), (False, 0)):
        state = started(2, hands, sphinx=sphinx)
        place(state, card_of("cat", "camel"), 1)  # camel← at row 1, shaft 1 (prepared)
        insert(state, card_of("hippopotamus", "camel"), 5)  # camel← at row 1, shaft 5
        assert state.occupant[A["camel"]] == (0 if expected else -1)
        assert state.scarabs[A["camel"]] == expected  # same facing: researcher and scarab


def test_sphinx_third_animal_in_a_line_scores_nothing() -> None:
    hands = [[card_of("hippopotamus", "camel"), HANDS[0][1], HANDS[0][2]], HANDS[1]]
    state = started(2, hands, sphinx=True)
    # Prepared: two camels already in row 1 (their pair scored long ago).
    place(state, card_of("cat", "camel"), 1)
    place(state, card_of("crocodile", "camel"), 3)
    insert(state, card_of("hippopotamus", "camel"), 6)
    assert state.phase == rules.DRAW
    assert state.occupant[A["camel"]] == -1 and state.scarabs[A["camel"]] == 0


def test_sphinx_pairs_along_two_lines_at_once() -> None:
    # The new camel← (row 3, shaft 5) finds a camel← along its row and a camel→ along its
    # column: two pairs, one of each kind, at a free pillar, so the mover picks the order.
    hands = [[card_of("hippopotamus", "camel"), HANDS[0][1], HANDS[0][2]], HANDS[1]]
    state = started(2, hands, sphinx=True)
    place(state, card_of("snake", "crocodile"), 1)
    place(state, card_of("cat", "camel"), 1)  # camel← at row 3, shaft 1
    place(state, card_of("camel", "ibis"), 5)  # camel→ at row 2, shaft 5
    entries = logged(state, INSERT_BASE + card_of("hippopotamus", "camel") * 8 + 4)
    camel = A["camel"]
    assert sorted(state.tokens) == [2 * camel, 2 * camel + 1]
    assert state.phase == rules.ORDER
    # Both pairs are told when they score; the insertion says it made two.
    assert events(entries) == [
        ("card_inserted", 0, {"shaft": 5, "row": 3, "row_top": 4, "pairs": 2}),
    ]
    entries = logged(state, ORDER_BASE + 2 * camel + 1)  # the same-facing pair first
    # The row pair: the new camel (row 3, shaft 5: cell 20) and the one at shaft 1 (16).
    assert events(entries)[:3] == [
        ("pair_same", 0, {"animal": "camel", "facing": "same"}),
        ("researcher_placed", 0, {"animal": "camel"}),
        ("scarab_placed", 0, {"animal": "camel", "scarabs": 1}),
    ]
    assert sorted(entries[0]["params"]["cells"]) == [16, 20]
    assert [e["kind"] for e in entries[3:5]] == ["pair_different", "scarab_placed"]
    assert sorted(entries[3]["params"]["cells"]) == [12, 20]
