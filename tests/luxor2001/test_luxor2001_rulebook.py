"""The rulebook's worked examples and pair-scoring rules of luxor2001, replayed.

Walls are built by inserting cards through the protocol where a few insertions suffice;
pillar occupants and scarabs that an example takes as given are set with ``station``
(a prepared position, the passage named at each use). Facing notation in comments:
``camel←`` faces left, ``camel→`` right.
"""

from __future__ import annotations

from typing import Any

import pytest

from necropolis.engine import CHANCE, IllegalActionError
from necropolis.engine.frozen import replaced
from necropolis.games.luxor2001 import LuxorState, rules
from necropolis.games.luxor2001.components import (
    CH_VALUE,
    DIFFERENT,
    INSERT_BASE,
    LEFT,
    ORDER_BASE,
    RELOCATE_BASE,
    RIGHT,
    SAME,
    SARCOPHAGUS_VALUES,
    STAY,
)
from tests.luxor2001.luxor2001_support import (
    A,
    card_of,
    draw_filler,
    events,
    facing_of,
    insert,
    logged,
    place,
    started,
    station,
)

# The key card of the examples: camel← over mule←.
KEY = card_of("camel", "mule")
CAMEL_L_HIPPO = card_of("camel", "hippopotamus")  # camel← over hippopotamus→
CAMEL_L_CROC = card_of("camel", "crocodile")  # camel← over crocodile→
CAMEL_R_SNAKE = card_of("camel", "snake")  # camel→ over snake←
CROC_MULE_R = card_of("crocodile", "mule")  # crocodile→ over mule→
FILLERS = [card_of("cat", "ibis"), card_of("ibis", "cat"), card_of("snake", "ibis")]
NEUTRAL = card_of("hippopotamus", "snake")  # no camel, no mule
OTHER_HAND = [FILLERS[1], FILLERS[2], card_of("cat", "snake")]
CAMEL = A["camel"]
MULE = A["mule"]


def test_card_facings_used_here() -> None:
    assert facing_of(KEY, "top") == LEFT and facing_of(KEY, "bottom") == LEFT
    assert facing_of(CAMEL_L_HIPPO, "top") == LEFT
    assert facing_of(CAMEL_L_CROC, "top") == LEFT
    assert facing_of(CAMEL_R_SNAKE, "top") == RIGHT
    assert facing_of(CROC_MULE_R, "bottom") == RIGHT


def three_cards(left: int, right: int, occupy: dict[str, int] | None = None) -> LuxorState:
    """Seat 0 puts ``left`` into shaft 1, seat 1 ``right`` into shaft 3, seat 0 KEY into 2."""
    return three_cards_logged(left, right, occupy)[0]


def three_cards_logged(
    left: int, right: int, occupy: dict[str, int] | None = None, viewer: int | None = 1
) -> tuple[LuxorState, list[dict[str, Any]]]:
    """:func:`three_cards`, with the log entries KEY's insertion made for ``viewer``."""
    state = started(2, [[left, KEY, FILLERS[0]], [right, FILLERS[1], FILLERS[2]]])
    for animal, seat in (occupy or {}).items():
        station(state, animal, seat)
    insert(state, left, 1)
    assert not state.tokens
    draw_filler(state)
    insert(state, right, 3)
    assert not state.tokens
    draw_filler(state)
    entries = logged(state, INSERT_BASE + KEY * 8 + 1, viewer)
    return state, entries


def test_example_a_same_facing_swaps_and_scarabs_both_pillars() -> None:
    # Example A: camels facing the same way and mules (the mule pillar taken) in one
    # insertion: a scarab at both pillars, the mover's researcher replaces the one at the
    # camel pillar, whose owner gets it back.
    state, entries = three_cards_logged(CAMEL_L_HIPPO, CROC_MULE_R, {"camel": 1, "mule": 1})
    assert state.phase == rules.DRAW  # no order question: the two pairs cannot interact
    assert state.scarabs[CAMEL] == 1 and state.scarabs[MULE] == 1
    assert state.occupant[CAMEL] == 0
    assert state.occupant[MULE] == 1
    assert state.res_supply == (4, 4)  # seat 1 got its camel researcher back
    assert state.scarab_supply == 14
    # The log, one entry per event, as seat 1 reads it.
    insert_params = {"shaft": 2, "row": 1, "row_top": 2, "pairs": 2}
    assert events(entries) == [
        ("card_inserted", 0, insert_params),
        ("pair_same", 0, {"animal": "camel", "facing": "same"}),
        ("researcher_swapped", 0, {"animal": "camel", "owner_seat": 1}),
        ("scarab_placed", 0, {"animal": "camel", "scarabs": 1}),
        ("pair_different", 0, {"animal": "mule", "facing": "different"}),
        ("scarab_placed", 0, {"animal": "mule", "scarabs": 1}),
    ]
    # The pairs' cells: camel at row 2 of shafts 1 and 2, mule at row 1 of shafts 2 and 3.
    assert [e["params"]["cells"] for e in entries if e["kind"].startswith("pair_")] == [
        [9, 8],
        [1, 2],
    ]
    assert entries[0]["params"]["top"] == "camel" and entries[0]["params"]["bottom"] == "mule"
    assert entries[2]["text"] == (
        "Player 1 took over the camel pillar from you, whose researcher went home"
    )
    assert {e["index"] for e in entries} == {state.move_number() - 1}


def test_example_a_with_a_free_camel_pillar_places_researcher_and_scarab() -> None:
    state = three_cards(CAMEL_L_HIPPO, CROC_MULE_R, {"mule": 1})
    assert state.occupant[CAMEL] == 0
    assert state.scarabs[CAMEL] == 1 and state.scarabs[MULE] == 1
    assert state.res_supply == (4, 4)


def test_example_b_two_camel_pairs_two_scarabs_and_a_swap() -> None:
    # Example B: two camel pairs facing the same way: two scarabs at the camel pillar and
    # the mover's researcher there in place of the opponent's.
    state, entries = three_cards_logged(CAMEL_L_HIPPO, CAMEL_L_CROC, {"camel": 1})
    assert state.phase == rules.DRAW
    assert state.scarabs[CAMEL] == 2
    assert state.occupant[CAMEL] == 0
    assert state.res_supply == (4, 5)
    camel_pair = ("pair_same", 0, {"animal": "camel", "facing": "same"})
    assert events(entries)[1:] == [
        camel_pair,
        ("researcher_swapped", 0, {"animal": "camel", "owner_seat": 1}),
        ("scarab_placed", 0, {"animal": "camel", "scarabs": 1}),
        camel_pair,
        ("scarab_placed", 0, {"animal": "camel", "scarabs": 2}),
    ]
    # The new camel (row 2, shaft 2: cell 9) pairs with those of shafts 1 and 3.
    pairs = sorted(e["params"]["cells"] for e in entries if e["kind"] == "pair_same")
    assert pairs == [[9, 8], [9, 10]]


def test_different_facing_free_pillar_places_researcher_only() -> None:
    state = three_cards(CAMEL_R_SNAKE, NEUTRAL)
    assert state.occupant[CAMEL] == 0
    assert state.scarabs[CAMEL] == 0
    assert state.res_supply[0] == 4


def test_different_facing_taken_pillar_gives_only_a_scarab() -> None:
    state = three_cards(CAMEL_R_SNAKE, NEUTRAL, {"camel": 1})
    assert state.occupant[CAMEL] == 1
    assert state.scarabs[CAMEL] == 1
    assert state.res_supply == (5, 4)


def test_same_facing_at_own_pillar_gives_a_scarab() -> None:
    state = three_cards(CAMEL_L_HIPPO, NEUTRAL, {"camel": 0})
    assert state.occupant[CAMEL] == 0
    assert state.scarabs[CAMEL] == 1
    assert state.res_supply == (4, 5)


def test_pairs_help_the_opponent_and_open_for_the_researchers_owner() -> None:
    # "The player who receives the sarcophagus need not be the one who placed the
    # scarab": seat 1's researcher stands at the camel pillar with two scarabs (prepared).
    state = started(
        2, [[CAMEL_R_SNAKE, KEY, FILLERS[0]], [FILLERS[1], FILLERS[2], card_of("cat", "snake")]]
    )
    station(state, "camel", 1, scarabs=2)
    insert(state, CAMEL_R_SNAKE, 1)
    draw_filler(state)
    insert(state, FILLERS[1], 5)
    draw_filler(state)
    entries = logged(state, INSERT_BASE + KEY * 8 + 1)  # camel pair facing different ways
    assert state.phase == rules.OPEN and state.current_player() == CHANCE
    assert state.open_for == 1
    assert events(entries)[1:] == [
        ("pair_different", 0, {"animal": "camel", "facing": "different"}),
        ("scarab_placed", 0, {"animal": "camel", "scarabs": 3}),  # the third
    ]
    outcomes = dict(state.chance_outcomes())
    one_eye = [CH_VALUE + v for v, (eyes, _) in enumerate(SARCOPHAGUS_VALUES) if eyes == 1]
    assert sorted(outcomes) == one_eye  # the top sarcophagus has one eye
    assert abs(sum(outcomes.values()) - 1) < 1e-9
    four = CH_VALUE + SARCOPHAGUS_VALUES.index((1, 4))
    before = state.clone()
    state.apply_action(four)
    # Its value goes only to the seat that takes it; the others learn its eyes.
    opened = {"animal": "camel", "eyes": 1}
    assert events(state.narrate(before, four, 1)) == [
        ("sarcophagus_opened", 1, {**opened, "points": 4})
    ]
    for viewer in (0, None):
        assert events(state.narrate(before, four, viewer)) == [
            ("sarcophagus_opened_hidden", 1, opened)
        ]
    # During play the breakdown shows only what everyone may know: the rest are hidden
    # parts, worth 0 until the end.
    breakdown = state.score_breakdown()
    secret = ("part_pharaoh_hidden", {"bonus": 7}, 0, True)
    assert [
        (p["kind"], p["params"], p["points"], p.get("hidden")) for p in breakdown[0]["parts"]
    ] == [secret]
    assert breakdown[0]["total"] == 0
    assert [
        (p["kind"], p["params"], p["points"], p.get("hidden")) for p in breakdown[1]["parts"]
    ] == [("part_sarcophagi_closed", {"count": 1, "eyes": [1]}, 0, True), secret]
    assert [t["value"] for b in breakdown for t in b["tiebreak"]] == [0, 1]
    assert [c & 7 for c in state.held[1]] == [four - CH_VALUE]
    assert state.held[0] == ()
    assert state.scarabs[CAMEL] == 0 and state.scarab_supply == 16  # back on the slab
    assert state.stack[CAMEL] == 2
    assert state.occupant[CAMEL] == 1
    assert state.scores() == [0.0, 4.0]


def test_two_and_two_place_one_open_then_place_the_second() -> None:
    # "2 scarabs there and 2 to place": one scarab, the sarcophagus opens, then the other.
    # Example B's wall, with two scarabs already at the camel pillar (prepared).
    state = started(2, [[CAMEL_L_HIPPO, KEY, FILLERS[0]], [CAMEL_L_CROC, FILLERS[1], FILLERS[2]]])
    station(state, "camel", 0, scarabs=2)
    insert(state, CAMEL_L_HIPPO, 1)
    draw_filler(state)
    insert(state, CAMEL_L_CROC, 3)
    draw_filler(state)
    insert(state, KEY, 2)
    assert state.phase == rules.OPEN and state.open_for == 0
    assert state.scarabs[CAMEL] == 3
    entries = logged(state, CH_VALUE + SARCOPHAGUS_VALUES.index((1, 3)), 0)
    assert state.scarabs[CAMEL] == 1  # the second scarab of this insertion
    assert events(entries) == [
        ("sarcophagus_opened", 0, {"animal": "camel", "eyes": 1, "points": 3}),
        ("pair_same", 0, {"animal": "camel", "facing": "same"}),
        ("scarab_placed", 0, {"animal": "camel", "scarabs": 1}),
    ]
    assert state.scarab_supply == 15
    assert state.stack[CAMEL] == 2 and len(state.held[0]) == 1
    assert state.phase == rules.DRAW
    # The breakdown during play: the sarcophagus shows its eye only, worth 0 until the end.
    parts = state.score_breakdown()[0]["parts"]
    assert [(p["kind"], p["params"], p["points"]) for p in parts] == [
        ("part_sarcophagi_closed", {"count": 1, "eyes": [1]}, 0),
        ("part_pharaoh_hidden", {"bonus": 7}, 0),
    ]


def test_no_more_than_two_scarabs_at_one_pillar_per_insertion() -> None:
    # Three camel pairs facing the same way around the new camel: still only two scarabs.
    hands = [
        [KEY, card_of("mule", "cat"), card_of("mule", "ibis")],
        [card_of("cat", "mule"), card_of("ibis", "mule"), card_of("snake", "mule")],
    ]
    state = started(2, hands)
    # Prepared wall (cards standing from earlier turns, their pairs long scored):
    place(state, card_of("snake", "cat"), 1)
    place(state, card_of("ibis", "snake"), 2)
    place(state, card_of("cat", "ibis"), 3)
    place(state, CAMEL_L_HIPPO, 1)  # camel← at row 4, shaft 1
    place(state, card_of("crocodile", "camel"), 1)  # camel← at row 5, shaft 1
    place(state, CAMEL_L_CROC, 3)  # camel← at row 4, shaft 3
    assert facing_of(card_of("crocodile", "camel"), "bottom") == LEFT
    entries = logged(state, INSERT_BASE + KEY * 8 + 1)  # camel← at row 4, shaft 2
    assert state.phase == rules.DRAW
    assert state.occupant[CAMEL] == 0
    assert state.scarabs[CAMEL] == 2
    assert [e["kind"] for e in entries if e["params"].get("animal") == "camel"] == [
        "pair_same",
        "researcher_placed",
        "scarab_placed",
        "pair_same",
        "scarab_placed",
        "pair_same",
        "scarab_limit",
    ]


def test_three_scarabs_stay_when_no_sarcophagus_is_left() -> None:
    state = started(
        2, [[CAMEL_R_SNAKE, KEY, FILLERS[0]], [FILLERS[1], FILLERS[2], card_of("cat", "snake")]]
    )
    station(state, "camel", 1, scarabs=2)
    state.stack = replaced(state.stack, CAMEL, 0)  # prepared: its three sarcophagi are gone
    insert(state, CAMEL_R_SNAKE, 1)
    draw_filler(state)
    insert(state, FILLERS[1], 5)
    draw_filler(state)
    insert(state, KEY, 2)
    assert state.phase == rules.DRAW
    assert state.scarabs[CAMEL] == 3
    assert state.scarab_supply == 13


def test_at_most_three_scarabs_before_a_pillar() -> None:
    state = started(2, [[CAMEL_L_HIPPO, KEY, FILLERS[0]], [CAMEL_L_CROC, FILLERS[1], FILLERS[2]]])
    station(state, "camel", 0, scarabs=2)
    state.stack = replaced(state.stack, CAMEL, 0)  # prepared: nothing left to open
    insert(state, CAMEL_L_HIPPO, 1)
    draw_filler(state)
    insert(state, CAMEL_L_CROC, 3)
    draw_filler(state)
    insert(state, KEY, 2)
    assert state.scarabs[CAMEL] == 3
    assert state.scarab_supply == 13


def test_researcher_moved_from_another_pillar_when_none_is_left() -> None:
    state = started(
        2, [[CAMEL_R_SNAKE, KEY, FILLERS[0]], [FILLERS[1], FILLERS[2], card_of("cat", "snake")]]
    )
    for animal in ("mule", "snake", "hippopotamus", "ibis", "crocodile"):
        station(state, animal, 0)
    assert state.res_supply[0] == 0
    insert(state, CAMEL_R_SNAKE, 1)
    draw_filler(state)
    insert(state, FILLERS[1], 5)
    draw_filler(state)
    insert(state, KEY, 2)
    assert state.phase == rules.RELOCATE and state.current_player() == 0
    prompt = state.prompt(0)
    assert prompt is not None and prompt["kind"] == "prompt_relocate"
    assert prompt["params"] == {"animal": "camel"}
    assert state.prompt(1) is None
    info = state.action_info(RELOCATE_BASE + A["snake"])
    assert (info["kind"], info["params"]) == (
        "move_researcher",
        {"from_animal": "snake", "animal": "camel"},
    )
    assert info["targets"] == [f"pillar:{A['snake']}", f"pillar:{CAMEL}"]
    assert state.action_info(STAY)["targets"] == []
    choices = state.legal_actions()
    names = ["mule", "snake", "hippopotamus", "ibis", "crocodile"]
    assert choices == [RELOCATE_BASE + A[x] for x in names] + [STAY]
    assert state.action_to_string(RELOCATE_BASE + A["snake"]) == (
        "move own researcher from the snake pillar"
    )
    entries = logged(state, RELOCATE_BASE + A["snake"], 1)
    assert events(entries)[:1] == [
        ("researcher_moved", 0, {"from_animal": "snake", "animal": "camel"}),
    ]
    assert state.occupant[A["snake"]] == -1
    assert state.occupant[CAMEL] == 0
    assert state.res_supply[0] == 0
    assert state.phase == rules.DRAW


def test_a_player_with_none_left_may_leave_their_researchers_in_place() -> None:
    # The rulebook's FAQ: with no researcher in supply a player *may* bring one from
    # another pillar. Declining keeps every pillar as it was; the camel pair at a free
    # pillar then does nothing at all (no researcher, so no scarab either).
    state = started(
        2, [[CAMEL_R_SNAKE, KEY, FILLERS[0]], [FILLERS[1], FILLERS[2], card_of("cat", "snake")]]
    )
    for animal in ("mule", "snake", "hippopotamus", "ibis", "crocodile"):
        station(state, animal, 0)
    insert(state, CAMEL_R_SNAKE, 1)
    draw_filler(state)
    insert(state, FILLERS[1], 5)
    draw_filler(state)
    insert(state, KEY, 2)
    assert state.phase == rules.RELOCATE
    assert state.action_to_string(STAY) == "leave own researchers where they are"
    before = state.occupant
    entries = logged(state, STAY)
    assert events(entries)[:2] == [
        ("researchers_kept", 0, {"animal": "camel"}),
        ("pair_lapsed", None, {"animal": "camel"}),
    ]
    assert state.occupant == before and state.occupant[CAMEL] == -1
    assert state.scarabs[CAMEL] == 0
    assert state.phase == rules.DRAW


def test_declining_a_swap_with_none_left_still_places_the_scarab() -> None:
    # camel→ beside camel→ faces the same way: a swap at seat 1's camel pillar. Seat 0
    # has every researcher out, declines to move one, and still gets the scarab there.
    same_camel = card_of("camel", "ibis")  # camel→ over ibis←
    state = started(2, [[CAMEL_R_SNAKE, same_camel, FILLERS[0]], OTHER_HAND])
    for animal in ("mule", "snake", "hippopotamus", "ibis", "crocodile"):
        station(state, animal, 0)
    station(state, "camel", 1)
    insert(state, CAMEL_R_SNAKE, 1)
    draw_filler(state)
    insert(state, FILLERS[1], 5)
    draw_filler(state)
    insert(state, same_camel, 2)
    assert state.phase == rules.RELOCATE and STAY in state.legal_actions()
    state.apply_action(STAY)
    assert state.occupant[CAMEL] == 1
    assert state.scarabs[CAMEL] == 1


SAME_CAMEL = card_of("camel", "ibis")  # camel→ over ibis←
#: Where seat 0's five researchers stand in the two tests below: every pillar but the camel's.
OWN_PILLARS = ["mule", "snake", "hippopotamus", "ibis", "crocodile"]


def _same_camel_pair_with_every_researcher_out(state: LuxorState) -> None:
    """Seat 0, its researchers at every pillar but the camel's, inserts a card that makes
    a same-facing camel pair at the free camel pillar, and is asked where to bring one."""
    for animal in OWN_PILLARS:
        station(state, animal, 0)
    insert(state, CAMEL_R_SNAKE, 1)
    draw_filler(state)
    insert(state, FILLERS[1], 5)
    draw_filler(state)
    insert(state, SAME_CAMEL, 2)
    assert state.phase == rules.RELOCATE and state.occupant[CAMEL] == -1


def test_a_same_facing_pair_at_a_free_pillar_keeps_its_scarab_with_none_left() -> None:
    # Rulebook 002, "2. Entrambi gli animali guardano nella stessa direzione": at a free
    # pillar the mover places a researcher, and "anche questa volta" takes a scarab for
    # that pillar, with no condition attached. With every researcher already out, staying
    # put would forfeit that scarab (a scarab stands only where a researcher does), so the
    # mover must bring one of their own researchers over, and the scarab follows it.
    state = started(2, [[CAMEL_R_SNAKE, SAME_CAMEL, FILLERS[0]], OTHER_HAND])
    _same_camel_pair_with_every_researcher_out(state)
    assert state.legal_actions() == [RELOCATE_BASE + A[x] for x in OWN_PILLARS]
    assert STAY not in state.legal_actions()
    state.apply_action(RELOCATE_BASE + A["ibis"])
    assert state.occupant[CAMEL] == 0 and state.occupant[A["ibis"]] == -1
    assert state.scarabs[CAMEL] == 1


@pytest.mark.parametrize("why", ["the slab is empty", "the pillar holds three"])
def test_a_same_facing_pair_that_can_bring_no_scarab_leaves_the_move_optional(why: str) -> None:
    # The same pair as above, but no scarab can come to the camel pillar: the slab holds
    # none (the reading for an empty slab), or three stand there already with no
    # sarcophagus left to open. With no grant to lose, the rulebook's "può spostare" (may
    # move) stands: the mover may leave its researchers where they are, and the pillar
    # stays free with nothing placed.
    state = started(2, [[CAMEL_R_SNAKE, SAME_CAMEL, FILLERS[0]], OTHER_HAND])
    if why == "the slab is empty":
        state.scarab_supply = 0
    else:
        state.scarabs[CAMEL] = 3
        state.scarab_supply -= 3
        state.stack = replaced(state.stack, CAMEL, 0)
    supply, scarabs = state.scarab_supply, state.scarabs[CAMEL]
    _same_camel_pair_with_every_researcher_out(state)
    assert state.legal_actions() == [RELOCATE_BASE + A[x] for x in OWN_PILLARS] + [STAY]
    state.apply_action(STAY)
    assert state.occupant[CAMEL] == -1 and state.occupant[A["ibis"]] == 0
    assert (state.scarab_supply, state.scarabs[CAMEL]) == (supply, scarabs)


def test_player_chooses_the_order_of_pairs_when_it_matters() -> None:
    # A camel pair of each kind at a free pillar: scoring the same-facing pair first
    # gives a researcher and two scarabs; the other order a researcher and one scarab.
    state = three_cards(CAMEL_L_HIPPO, CAMEL_R_SNAKE)
    assert state.phase == rules.ORDER and state.current_player() == 0
    same, diff = ORDER_BASE + 2 * CAMEL + SAME, ORDER_BASE + 2 * CAMEL + DIFFERENT
    assert state.legal_actions() == [diff, same]
    assert state.action_to_string(same) == "score the camel pair facing the same way next"
    prompt = state.prompt(0)
    assert prompt is not None and prompt["params"] == {"pairs": 2}
    info = state.action_info(same)
    assert (info["kind"], info["params"]) == ("score_same", {"animal": "camel", "facing": "same"})
    assert info["targets"] == [f"pillar:{CAMEL}"]
    other = state.clone()
    state.apply_action(same)
    assert state.occupant[CAMEL] == 0 and state.scarabs[CAMEL] == 2
    other.apply_action(diff)
    assert other.occupant[CAMEL] == 0 and other.scarabs[CAMEL] == 1


def test_earlier_pairs_are_not_scored_again() -> None:
    state = three_cards(CAMEL_L_HIPPO, CAMEL_L_CROC)
    assert state.scarabs[CAMEL] == 2
    draw_filler(state)
    card = state.hands[1][0]
    insert(state, card, 8)  # far from the camels
    assert state.scarabs[CAMEL] == 2
    assert state.occupant[CAMEL] == 0


def test_a_player_must_insert() -> None:
    state = three_cards(CAMEL_L_HIPPO, CROC_MULE_R)
    draw_filler(state)
    actions = state.legal_actions()
    assert len(actions) == 3 * 8
    assert all(INSERT_BASE <= a < ORDER_BASE for a in actions)
    with pytest.raises(IllegalActionError):
        state.apply_action(INSERT_BASE + state.hands[0][0] * 8)  # not the mover's card


def test_an_empty_slab_means_no_scarab() -> None:
    # Our reading (the rulebook is silent): with all 16 scarabs before pillars, a pair
    # still moves researchers but places no scarab.
    state = started(2, [[CAMEL_R_SNAKE, KEY, FILLERS[0]], OTHER_HAND])
    station(state, "camel", 1)
    for animal in ("mule", "snake", "hippopotamus", "ibis", "crocodile"):
        station(state, animal, 1 if animal != "mule" else 0, scarabs=3)
        state.stack = replaced(state.stack, A[animal], 0)  # prepared: no sarcophagi left
    state.scarabs[A["cat"]] = 1
    state.scarab_supply -= 1
    assert state.scarab_supply == 0
    insert(state, CAMEL_R_SNAKE, 1)
    draw_filler(state)
    insert(state, OTHER_HAND[0], 5)
    draw_filler(state)
    insert(state, KEY, 2)  # camel pair facing different ways at seat 1's pillar
    assert state.phase == rules.DRAW
    assert state.scarabs[CAMEL] == 0 and state.scarab_supply == 0
