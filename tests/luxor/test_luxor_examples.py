"""The rulebook's worked examples, replayed by chosen chance outcomes and decisions.

Each test names the example it replays (the rulebook's pages 3 to 8). The board is the
project's reconstruction (docs/rules/luxor.md): tiles on fields 2..41, Horus tiles on 6 and
13 (1 eye), 21 and 28 (2), 35 and 39 (3), Osiris fields 9, 17, 25, 31 (laid here as +3, +2,
+1, +4), Anubis statues after fields 10, 20 and 30, the burial chamber at 42. Positions deep
in a match are prepared with the support helpers, which keep the components conserved.
"""

from __future__ import annotations

from necropolis.engine.frozen import added_in, replaced
from necropolis.games.luxor import rules
from necropolis.games.luxor.components import (
    ALL_1,
    ALL_2,
    BURIAL_CHAMBER,
    DIE,
    DIE_RANGE,
    FIVE,
    FOUR,
    HORUS_2_OR_3,
    LAST_TO_SECOND,
    ONE,
    ONE_FEWER_1,
    RANGE_3,
    SCARAB,
    SCARAB_VALUES,
    TEMPLE_BASE,
    THREE,
    TREASURE_POINTS,
    TUNNEL,
    TWO,
)
from necropolis.games.luxor.scoring import score_breakdown
from tests.luxor.luxor_support import (
    NEEDS_2,
    NEEDS_3,
    VASE,
    at,
    chamber_example,
    chance,
    deck_origin,
    narrated,
    put_adventurers,
    put_hand,
    put_temple_tile,
    start,
)


def test_either_end_of_the_hand_and_the_new_card_goes_into_the_middle() -> None:
    # Page 4: Ani may play the "1" on the far left or the "3" on the far right.
    st = start(hands=[(ONE, TWO, FIVE, FOUR, THREE), (ONE, TWO, THREE, FOUR, FIVE)])
    assert st.legal_actions() == [rules.PLAY_LEFT, rules.PLAY_RIGHT]
    assert st.action_to_string(rules.PLAY_LEFT) == "play the leftmost card (1)"
    assert st.action_to_string(rules.PLAY_RIGHT) == "play the rightmost card (3)"
    log = narrated(st, rules.PLAY_LEFT)
    # Both adventurers stand on the stairs, so there is nothing to choose: one goes 1 tile.
    assert at(st, 0, 2) == 1 and at(st, 0, 0) == 1
    assert log[:2] == [
        ("card_played", {"card": "one", "end": "left"}),
        ("moved", {"origin": 0, "steps": 1, "field": 2}),
    ]
    assert st.discard[ONE] == 1
    assert st.phase == rules.P_DRAW
    assert narrated(st, FIVE) == [("card_drawn", {"card": "five"})]
    # The four left keep their order; the new card sits in the middle.
    assert st.hands[0] == (TWO, FIVE, FIVE, FOUR, THREE)
    assert st.current_player() == 1


def test_the_other_end_and_three_tiles_from_the_stairs() -> None:
    # Page 5: Ani moves an adventurer from the stairs 3 tiles forward. The landing at the
    # foot of the stairs (field 1) holds no tile and is not counted.
    st = start(hands=[(ONE, TWO, FIVE, FOUR, THREE), (ONE, TWO, THREE, FOUR, FIVE)])
    log = narrated(st, rules.PLAY_RIGHT)
    assert at(st, 0, 4) == 1
    # Field 4's treasure needs one adventurer: taken, and the cobra beneath turns up a tile.
    assert st.phase == rules.P_TEMPLE_REVEAL
    assert [kind for kind, _ in log] == ["card_played", "moved", "treasure_taken"]
    assert log[1][1] == {"origin": 0, "steps": 3, "field": 4}
    assert narrated(st, SCARAB) == [
        ("temple_revealed", {"field": 4, "back": "cobra", "front": "scarab"})
    ]
    chance(st, ONE)
    assert st.hands[0] == (ONE, TWO, ONE, FIVE, FOUR)


def test_moving_from_an_empty_field_goes_first_to_the_next_tile() -> None:
    # Page 5: from an empty field, the first step reaches the nearest tile ahead.
    st = start()
    st.apply_action(rules.PLAY_LEFT)  # "1": onto field 2, whose treasure needs one adventurer
    assert st.tiles[2] == 0 and at(st, 0, 2) == 1  # taken: the adventurer is on an empty field
    chance(st, ONE)
    st.apply_action(rules.PLAY_RIGHT)  # seat 1's "5": 3, 4, 5, 6, 7 (field 2 is empty now)
    assert at(st, 1, 7) == 1
    chance(st, ONE)
    # Seat 0's hand is now 2, 3, 1, 4, 5: play the "2" with the adventurer on field 2.
    assert st.hands[0] == (TWO, THREE, ONE, FOUR, FIVE)
    st.apply_action(rules.PLAY_LEFT)
    assert st.legal_actions() == [rules.MOVE_FROM + 0, rules.MOVE_FROM + 2]
    log = narrated(st, rules.MOVE_FROM + 2)
    assert at(st, 0, 4) == 1 and at(st, 0, 2) == 0
    assert log[0] == ("moved", {"origin": 2, "steps": 2, "field": 4})


def test_empty_fields_are_skipped_and_sleeping_adventurers_cannot_move() -> None:
    # Page 5: Ani moves 3 tiles, passing over empty fields; the adventurer lying at the
    # Anubis statue may not be moved. Prepared: the treasures on fields 3 and 5 were taken.
    st = start()
    st.tiles = replaced(st.tiles, 3, 0)
    st.tiles = replaced(st.tiles, 5, 0)
    put_adventurers(st, 0, {0: 1, 7: 1})
    put_hand(st, 0, [THREE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    # Only active adventurers are offered: the stairs and field 7, never a statue.
    assert st.legal_actions() == [rules.MOVE_FROM + 0, rules.MOVE_FROM + 7]
    log = narrated(st, rules.MOVE_FROM + 0)
    assert at(st, 0, 6) == 1  # tiles 2, 4, 6: the Horus tile
    assert st.phase == rules.P_HORUS_TILE
    assert log == [("moved", {"origin": 0, "steps": 3, "field": 6})]
    prompt = st.prompt(0)
    assert prompt is not None and prompt["kind"] == "prompt_horus_tile"


def test_passing_an_anubis_statue_wakes_the_adventurer_lying_there() -> None:
    # Page 5: Jan rolls a 5, passes the statue, and stands his woken adventurer on the stairs.
    st = start()
    put_adventurers(st, 0, {0: 1, 7: 1})
    put_hand(st, 0, [DIE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    assert st.phase == rules.P_ROLL
    chance(st, 4)  # a 5
    log = narrated(st, rules.MOVE_FROM + 7)  # 8, 9 (Osiris tile, a step like any tile), ..., 12
    # The Osiris tile is only crossed, not landed on: the walk ends on field 12.
    assert at(st, 0, 12) == 1
    assert st.sleeping[0] == 0  # statue 1 (after field 10) was passed
    assert at(st, 0, 0) == 2  # the woken adventurer stands up on the stairs
    assert st.sleeping[1] == 1 and st.sleeping[2] == 1
    assert log[:2] == [
        ("moved", {"origin": 7, "steps": 5, "field": 12}),
        ("woke", {"statue": 1}),
    ]


def test_osiris_tile_moves_on_at_once_and_the_tile_there_acts() -> None:
    # Page 6: Ani ends on an Osiris tile showing 3, goes three tiles further and takes a
    # scarab from the temple tile there. Prepared: the cobra scarab tile lies on field 12.
    st = start(osiris=(3, 2, 1, 4))
    put_temple_tile(st, 12, SCARAB)
    put_adventurers(st, 0, {0: 1, 7: 1})
    put_hand(st, 0, [TWO, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    log = narrated(st, rules.MOVE_FROM + 7)  # 8, then the Osiris tile on 9
    assert at(st, 0, 9) == 0  # never ends on an Osiris tile
    assert log == [
        ("moved", {"origin": 7, "steps": 2, "field": 9}),
        ("osiris_push", {"landing": 9, "field": 12}),
        ("woke", {"statue": 1}),
    ]
    assert at(st, 0, 12) == 1  # 10, 11, 12
    assert st.phase == rules.P_SCARAB_DRAW
    before = st.clone()
    assert narrated(st, 2) == [("scarab_taken", {"value": 3})]  # a scarab worth 3
    assert st.narrate(before, 2, 1)[0]["params"] == {}  # the others learn no value
    assert st.scarabs[0] == (0, 0, 1, 0)
    assert st.phase == rules.P_DRAW


def test_treasure_with_two_adventurers_and_the_cobra_tile_beneath() -> None:
    # Page 6: with 2 adventurers on a tile needing 2, Ani takes it for 3 points; a cobra
    # symbol shows, a cobra temple tile is turned up, and her adventurers stand on it
    # without using it.
    st = start(
        hands=[(THREE, ONE, TWO, FOUR, THREE), (FIVE, TWO, THREE, FOUR, ONE)],
        treasures={4: VASE + NEEDS_2},
    )
    st.apply_action(rules.PLAY_LEFT)  # first adventurer onto field 4: one is not enough
    assert at(st, 0, 4) == 1 and st.tiles[4] != 0 and st.score[0] == 0
    chance(st, ONE)
    st.apply_action(rules.PLAY_LEFT)  # seat 1 goes to the Horus tile on field 6
    st.apply_action(rules.TAKE_KEY)
    chance(st, ONE)
    st.apply_action(rules.PLAY_RIGHT)  # the other "3"
    log = narrated(st, rules.MOVE_FROM + 0)
    assert at(st, 0, 4) == 2
    assert log == [
        ("moved", {"origin": 0, "steps": 3, "field": 4}),
        ("treasure_taken", {"field": 4, "treasure": "vase", "points": 3}),
    ]
    assert st.score[0] == TREASURE_POINTS[VASE + NEEDS_2] == 3
    assert st.treasures[0][VASE + NEEDS_2] == 1
    assert st.phase == rules.P_TEMPLE_REVEAL
    # The reveal chooses among the fronts left in the cobra stack.
    assert [a for a, _ in st.chance_outcomes()] == [0, 3, 4]  # wild, tunnel, scarab
    supply = sum(st.scarab_supply)
    chance(st, SCARAB)
    assert st.tiles[4] == TEMPLE_BASE + SCARAB
    assert sum(st.scarab_supply) == supply  # the new tile is not used this turn
    assert at(st, 0, 4) == 2 and st.phase == rules.P_DRAW


def test_horus_tile_offers_a_key_or_a_horus_card_with_no_draw() -> None:
    # Page 6: Ani takes no key but the top level-1 Horus card, slips it into the middle of
    # her hand, and draws nothing at the end of the turn.
    st = start(hands=[(FIVE, ONE, TWO, FOUR, THREE), (ONE, TWO, THREE, FOUR, FIVE)])
    st.apply_action(rules.PLAY_LEFT)  # 2, 3, 4, 5, 6: the 1-eye Horus tile
    assert st.legal_actions() == [rules.TAKE_KEY, rules.HORUS_LEVEL + 0]
    assert st.action_to_string(rules.TAKE_KEY) == "take a key"
    st.apply_action(rules.HORUS_LEVEL + 0)
    assert st.phase == rules.P_HORUS_DRAW
    before = st.clone()
    assert narrated(st, RANGE_3) == [("horus_card_taken", {"level": 1, "card": "range_3"})]
    assert st.narrate(before, RANGE_3, 1)[0]["kind"] == "horus_card_taken_hidden"
    assert st.hands[0] == (ONE, TWO, RANGE_3, FOUR, THREE)
    assert st.origins[0][2] == 0  # from the level-1 deck, as everybody saw
    assert st.current_player() == 1 and st.phase == rules.P_PLAY  # no draw
    assert st.keys[0] == 0


def test_horus_tile_key_then_the_usual_draw() -> None:
    st = start(hands=[(FIVE, ONE, TWO, FOUR, THREE), (ONE, TWO, THREE, FOUR, FIVE)])
    st.apply_action(rules.PLAY_LEFT)
    assert narrated(st, rules.TAKE_KEY) == [("key_taken", {})]
    assert st.keys[0] == 1 and st.key_supply == 19
    assert st.phase == rules.P_DRAW


def test_favour_of_horus_temple_tile_level_two_card() -> None:
    # Page 7: Jan picks a Horus card of level 2 from the "2 or 3 eyes" tile, puts it in the
    # middle of his hand and draws no card. Prepared: that falcon tile lies on field 8.
    st = start()
    put_temple_tile(st, 8, HORUS_2_OR_3)
    put_adventurers(st, 0, {0: 1, 5: 1})
    put_hand(st, 0, [THREE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    st.apply_action(rules.MOVE_FROM + 5)  # 6, 7, 8
    assert st.legal_actions() == [rules.HORUS_LEVEL + 1, rules.HORUS_LEVEL + 2]
    prompt = st.prompt(0)
    assert prompt is not None and prompt["text"] == "Take a Horus card of 2 or 3 eyes"
    st.apply_action(rules.HORUS_LEVEL + 1)
    chance(st, DIE_RANGE)
    assert st.hands[0] == (ONE, ONE, DIE_RANGE, ONE, ONE)
    assert st.origins[0][2] == 1
    assert st.current_player() == 1


def test_tunnel_takes_the_adventurer_to_the_next_tunnel() -> None:
    # Page 7: Jan plays a "1", lands on a tunnel and goes straight on to the next tunnel.
    st = start()
    put_temple_tile(st, 12, TUNNEL)
    put_temple_tile(st, 15, TUNNEL)
    put_temple_tile(st, 19, TUNNEL)
    put_adventurers(st, 0, {0: 1, 11: 1})
    put_hand(st, 0, [ONE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    log = narrated(st, rules.MOVE_FROM + 11)
    assert at(st, 0, 15) == 1 and at(st, 0, 12) == 0  # the next tunnel, not the one after
    assert log == [
        ("moved", {"origin": 11, "steps": 1, "field": 12}),
        ("tunnel", {"origin": 12, "field": 15}),
    ]
    assert st.phase == rules.P_DRAW


def test_tunnel_passing_a_statue_wakes_and_the_last_tunnel_does_nothing() -> None:
    # Page 7 (note): a tunnel trip past an Anubis statue wakes the adventurer lying there.
    st = start(osiris=(3, 2, 1, 4))
    put_temple_tile(st, 19, TUNNEL)
    put_temple_tile(st, 24, TUNNEL)
    put_adventurers(st, 0, {0: 2, 16: 1}, awake=1)
    put_hand(st, 0, [ONE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    log = narrated(st, rules.MOVE_FROM + 16)  # 17 is Osiris +2: 18, 19, a tunnel to 24
    assert at(st, 0, 24) == 1
    assert log == [
        ("moved", {"origin": 16, "steps": 1, "field": 17}),
        ("osiris_push", {"landing": 17, "field": 19}),
        ("tunnel", {"origin": 19, "field": 24}),
        ("woke", {"statue": 2}),
    ]
    assert st.sleeping[1] == 0 and at(st, 0, 0) == 3  # statue 2 (after field 20) passed

    # An adventurer landing on the last tunnel goes nowhere further.
    st2 = start()
    put_temple_tile(st2, 24, TUNNEL)
    put_adventurers(st2, 0, {0: 1, 23: 1})
    put_hand(st2, 0, [ONE, ONE, ONE, ONE, ONE], [deck_origin(st2)] * 5)
    st2.apply_action(rules.PLAY_LEFT)
    log = narrated(st2, rules.MOVE_FROM + 23)
    assert at(st2, 0, 24) == 1 and st2.phase == rules.P_DRAW
    assert log[-1] == ("tunnel_end", {"field": 24})


def test_all_forward_moves_everyone_then_one_action_only() -> None:
    # Page 8: Jan's 4 active adventurers all go 2 tiles. Three from one field reach an
    # Osiris tile and go on 3 more; he may then either send the single one through the
    # tunnel or take the treasure, not both. He takes the treasure.
    st = start(osiris=(3, 2, 1, 4), treasures={12: VASE + NEEDS_3})
    put_temple_tile(st, 23, TUNNEL)
    put_temple_tile(st, 29, TUNNEL)
    put_adventurers(st, 0, {7: 3, 21: 1}, awake=2)
    put_hand(st, 0, [ALL_2, ONE, ONE, ONE, ONE], [1, *[deck_origin(st)] * 4])
    log = narrated(st, rules.PLAY_LEFT)
    assert log == [
        ("card_played", {"card": "all_forward_2", "end": "left"}),
        ("moved", {"origin": 21, "steps": 2, "field": 23}),
        *[
            entry
            for _ in range(3)
            for entry in (
                ("moved", {"origin": 7, "steps": 2, "field": 9}),
                ("osiris_push", {"landing": 9, "field": 12}),
            )
        ],
    ]
    assert at(st, 0, 12) == 3  # 8, 9 (Osiris +3): 10, 11, 12
    assert at(st, 0, 23) == 1  # 22, 23: on a tunnel, not yet used
    assert st.legal_actions() == [rules.ACT_AT + 12, rules.ACT_AT + 23]
    assert narrated(st, rules.ACT_AT + 12) == [
        ("tile_chosen", {"field": 12}),
        ("treasure_taken", {"field": 12, "treasure": "vase", "points": 6}),
    ]
    assert st.score[0] == 6 and st.tiles[12] == 0
    assert st.phase == rules.P_TEMPLE_REVEAL  # field 12 shows a cobra
    chance(st, SCARAB)
    assert at(st, 0, 23) == 1  # the tunnel was not used: one action only
    assert sum(st.scarabs[0]) == 0  # nor the new scarab tile
    assert st.phase == rules.P_DRAW


def test_all_forward_with_one_key_lets_only_one_adventurer_into_the_chamber() -> None:
    # Page 8 and page 7's key rule: the adventurer nearest the chamber moves first, and each
    # one entering needs a key; without a second key the other stays where it is.
    st = start()
    put_adventurers(st, 0, {41: 2})
    st.key_supply -= 1
    st.keys = replaced(st.keys, 0, 1)
    put_hand(st, 0, [ALL_1, ONE, ONE, ONE, ONE], [0, *[deck_origin(st)] * 4])
    log = narrated(st, rules.PLAY_LEFT)
    assert log == [
        ("card_played", {"card": "all_forward_1", "end": "left"}),
        ("moved", {"origin": 41, "steps": 1, "field": BURIAL_CHAMBER}),
        ("entered_chamber", {}),
        ("sarcophagus", {"points": 5}),
        ("stayed", {"origin": 41, "steps": 1}),
    ]
    assert at(st, 0, BURIAL_CHAMBER) == 1 and at(st, 0, 41) == 1
    assert st.keys[0] == 0 and st.keys_paid == 1
    assert st.sarcophagi == (0, -1)
    assert st.phase == rules.P_DRAW  # only the one that entered moved; no tile acts


def test_last_to_second_to_last_from_the_stairs() -> None:
    # Page 8: all 5 of Jan's adventurers are active; two stand on the stairs, the rearmost.
    # He moves one of them to his second-rearmost adventurer and can take the treasure.
    st = start(treasures={3: VASE + NEEDS_2})
    put_adventurers(st, 0, {0: 2, 3: 1, 10: 1, 20: 1}, awake=3)
    put_hand(st, 0, [LAST_TO_SECOND, ONE, ONE, ONE, ONE], [0, *[deck_origin(st)] * 4])
    log = narrated(st, rules.PLAY_LEFT)
    assert log[1:] == [
        ("moved_rearmost", {"origin": 0, "field": 3}),
        ("treasure_taken", {"field": 3, "treasure": "vase", "points": 3}),
    ]
    # The two on the stairs are alike: nothing to choose.
    assert at(st, 0, 0) == 1 and at(st, 0, 3) == 2
    assert st.score[0] == 3 and st.tiles[3] == 0
    assert st.phase == rules.P_DRAW


def test_last_to_second_to_last_onto_an_empty_field_does_nothing_more() -> None:
    # Page 8 (note): if the second-rearmost stands on an empty field, the rearmost joins it
    # there and no tile acts.
    st = start()
    st.tiles = replaced(st.tiles, 5, 0)  # prepared: field 5's treasure was taken earlier
    put_adventurers(st, 0, {2: 1, 5: 1})
    put_hand(st, 0, [LAST_TO_SECOND, ONE, ONE, ONE, ONE], [0, *[deck_origin(st)] * 4])
    st.apply_action(rules.PLAY_LEFT)
    assert at(st, 0, 5) == 2 and at(st, 0, 2) == 0
    assert st.score[0] == 0 and st.phase == rules.P_DRAW


def test_one_adventurer_fewer() -> None:
    # Page 8: Ani plays her "one adventurer fewer" card and moves her adventurer to the next
    # tile; with 2 adventurers there she takes a treasure that normally needs 3. The card
    # moves the number of tiles printed on it (its text beside step 1, page 4): hers shows
    # 1, so she chooses only which adventurer goes, never how far.
    st = start(treasures={12: VASE + NEEDS_3})
    put_adventurers(st, 0, {11: 1, 12: 1})
    put_hand(st, 0, [ONE_FEWER_1, ONE, ONE, ONE, ONE], [0, *[deck_origin(st)] * 4])
    st.apply_action(rules.PLAY_LEFT)
    assert st.legal_actions() == [rules.MOVE_FROM + 11, rules.MOVE_FROM + 12]
    info = st.action_info(rules.MOVE_FROM + 11)
    assert info["kind"] == "move_treasure"
    assert info["params"]["steps"] == 1 and info["params"]["need"] == 2  # one fewer than 3
    log = narrated(st, rules.MOVE_FROM + 11)
    assert at(st, 0, 12) == 2 and st.score[0] == 6 and st.tiles[12] == 0
    assert ("moved", {"origin": 11, "steps": 1, "field": 12}) in log
    assert log[-1] == ("treasure_taken", {"field": 12, "treasure": "vase", "points": 6})


def test_without_the_discount_two_adventurers_do_not_take_a_three_treasure() -> None:
    st = start(treasures={12: VASE + NEEDS_3})
    put_adventurers(st, 0, {11: 1, 12: 1})
    put_hand(st, 0, [ONE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    log = narrated(st, rules.MOVE_FROM + 11)
    assert at(st, 0, 12) == 2 and st.score[0] == 0 and st.tiles[12] != 0
    assert log[-1] == (
        "treasure_too_few",
        {"field": 12, "treasure": "vase", "need": 3, "have": 2},
    )


def test_die_range_card_lets_the_player_choose_up_to_the_roll() -> None:
    # Page 8: Jan rolls only a 2 and may go 1 or 2 tiles; he goes 2.
    st = start()
    put_adventurers(st, 0, {7: 1, 20: 1})
    put_hand(st, 0, [DIE_RANGE, ONE, ONE, ONE, ONE], [1, *[deck_origin(st)] * 4])
    st.apply_action(rules.PLAY_LEFT)
    assert narrated(st, 1) == [("die_rolled", {"roll": 2})]
    st.apply_action(rules.MOVE_FROM + 20)
    assert st.legal_actions() == [rules.FORWARD + 0, rules.FORWARD + 1]
    log = narrated(st, rules.FORWARD + 1)
    assert at(st, 0, 22) == 1  # 21 (Horus tile), 22
    assert log[0] == ("moved", {"origin": 20, "steps": 2, "field": 22})
    assert ("woke", {"statue": 2}) in log


def test_range_card_one_to_three_then_treasure() -> None:
    # Page 8: Jan plays his "1-3", goes 3 tiles and takes the treasure.
    st = start(treasures={19: VASE + 1})
    put_adventurers(st, 0, {0: 1, 14: 1})
    put_hand(st, 0, [RANGE_3, ONE, ONE, ONE, ONE], [0, *[deck_origin(st)] * 4])
    st.apply_action(rules.PLAY_LEFT)
    st.apply_action(rules.MOVE_FROM + 14)
    log = narrated(st, rules.FORWARD + 2)  # 15, 16, 17 (Osiris +2) -> 18, 19
    assert log[:2] == [
        ("moved", {"origin": 14, "steps": 3, "field": 17}),
        ("osiris_push", {"landing": 17, "field": 19}),
    ]
    assert at(st, 0, 19) == 1
    kind = st.treasures[0].index(1)
    assert st.score[0] == TREASURE_POINTS[kind]


def test_entering_the_burial_chamber_exactly_with_a_key() -> None:
    # Page 7: Ani plays a "2", ends exactly in the burial chamber, lays one of her two keys
    # on the key field and takes the 3-point sarcophagus (the 5 is gone already).
    st = chamber_example()
    st.apply_action(rules.PLAY_LEFT)
    log = narrated(st, rules.MOVE_FROM + 40)  # 41, then the chamber
    assert log == [
        ("moved", {"origin": 40, "steps": 2, "field": BURIAL_CHAMBER}),
        ("entered_chamber", {}),
        ("sarcophagus", {"points": 3}),
        ("last_round", {}),
    ]
    assert at(st, 0, BURIAL_CHAMBER) == 1
    assert st.keys[0] == 1 and st.keys_paid == 2
    assert st.sarcophagi == (1, 0)
    assert st.ending and not st.is_terminal()
    chance(st, ONE)
    # The round is played out: seat 1 still has its turn, then the match ends.
    assert st.current_player() == 1
    while not st.is_terminal():
        if st.current_player() >= 0:
            st.apply_action(st.legal_actions()[0])
        else:
            st.apply_action(st.chance_outcomes()[0][0])
    assert st.turns == 2 and st.round == 1
    assert st.final is not None
    assert st.final[0][2] == 3 and st.final[1][2] == 5
    breakdown = st.score_breakdown()
    assert [row["parts"][2]["points"] for row in breakdown] == [3, 5]
    assert [row["tiebreak"][0]["value"] for row in breakdown] == [3, 5]
    assert [row["total"] for row in breakdown] == st.scores()


def test_the_chamber_needs_an_exact_count_and_a_key() -> None:
    st = start()
    put_adventurers(st, 0, {0: 1, 40: 1})
    put_hand(st, 0, [TWO, THREE, ONE, ONE, FOUR], [deck_origin(st)] * 5)
    # No key: the "2" may move only the adventurer on the stairs.
    st.apply_action(rules.PLAY_LEFT)
    assert at(st, 0, 40) == 1 and at(st, 0, 0) == 0
    assert st.entries == 0
    st2 = start()
    put_adventurers(st2, 0, {40: 2})
    st2.key_supply -= 1
    st2.keys = replaced(st2.keys, 0, 1)
    put_hand(st2, 0, [THREE, ONE, ONE, ONE, FIVE], [deck_origin(st2)] * 5)
    # The "3" and the "5" would both overshoot the chamber: neither end allows a move, so
    # either card may be played without moving.
    assert st2.legal_actions() == [rules.PLAY_LEFT, rules.PLAY_RIGHT]
    assert st2.action_to_string(rules.PLAY_LEFT).endswith("without moving")


def test_scoring_examples_adventurers_sets_and_scarabs() -> None:
    # Page 7: adventurers score 0 + 5 + 5 + 8 + 13 = 31; three sets, two of them with wild
    # tiles, score 12 with one wild tile to spare; scarabs bring 7.
    st = start()
    put_adventurers(st, 0, {2: 1, 25: 1, 26: 1, 33: 1, BURIAL_CHAMBER: 1}, awake=3)
    st.treasures = added_in(st.treasures, 0, VASE + 1, 3)  # three vases
    st.treasures = added_in(st.treasures, 0, 5 + 1, 2)  # two statues
    st.treasures = added_in(st.treasures, 0, 10 + 1, 1)  # one jewels
    st.wilds = replaced(st.wilds, 0, 4)
    st.scarabs = replaced(st.scarabs, 0, (1, 1, 0, 1))  # 1 + 2 + 4
    st.keys = replaced(st.keys, 0, 2)
    st.sarcophagi = (0, -1)
    row = score_breakdown(st, 0)
    assert row[1] == 31
    assert row[2] == 5
    assert row[3] == 2
    assert row[4] == 12
    assert row[5] == 7 == sum(SCARAB_VALUES[v] for v in (0, 1, 3))
    assert row[6] == sum(row[:6])
    # The same example through the table's score breakdown: during play the scarabs stay
    # face down (counted, worth nothing yet); at the end all six parts show.
    during = st.score_breakdown()[0]
    assert [p["points"] for p in during["parts"]] == [row[0], 31, 5, 2, 12, 0]
    assert during["parts"][-1]["text"] == "3 scarabs, face down until the end"
    rules._final_scoring(st)
    final = st.score_breakdown()[0]
    assert [p["kind"] for p in final["parts"]] == [
        "score_track",
        "score_adventurers",
        "score_sarcophagi",
        "score_keys",
        "score_sets",
        "score_scarabs",
    ]
    assert [p["points"] for p in final["parts"]] == [row[0], 31, 5, 2, 12, 7]
    assert final["total"] == st.scores()[0] == row[6]
    texts = [p["text"] for p in final["parts"]]
    assert texts[1] == "Adventurers' places on the path: 31 points"
    assert texts[3] == "2 keys left: 2 points"
    assert texts[4] == "3 complete sets of treasures: 12 points"
    assert texts[5] == "3 scarabs: 7 points"
    assert final["tiebreak"][0]["value"] == 5
