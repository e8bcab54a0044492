"""Every Luxor rule beyond the rulebook's worked examples, one behaviour per test.

Hand handling and the draw pile, moves that are not possible, the tile actions' edge cases
(empty supplies and decks), the Horus cards' limits, the burial chamber and the end of the
match, and the final scoring with its tie-break.
"""

from __future__ import annotations

import random

import pytest

from necropolis.engine.errors import IllegalActionError
from necropolis.engine.frozen import replaced
from necropolis.games.luxor import GAME, rules
from necropolis.games.luxor.components import (
    ALL_1,
    BURIAL_CHAMBER,
    DIE,
    FIVE,
    FOUR,
    HORUS_1_OR_2,
    LAST_TO_SECOND,
    NUM_FIELDS,
    ONE,
    ONE_FEWER_1,
    ONE_FEWER_3,
    PLUS_MINUS_ONE,
    SCARAB_OR_WILD,
    THREE,
    TWO,
    WILD_TREASURE,
    count_sets,
    set_points,
)
from necropolis.games.luxor.state import LuxorState
from tests.luxor.luxor_support import (
    NEEDS_3,
    VASE,
    at,
    chance,
    deck_origin,
    put_adventurers,
    put_hand,
    put_temple_tile,
    random_playout,
    start,
)

NF = NUM_FIELDS


def finish_turn(st: LuxorState, draw: int = ONE) -> None:
    """Draw ``draw`` if the turn ends with a draw."""
    if st.phase == rules.P_DRAW:
        chance(st, draw)


# --- cards -------------------------------------------------------------------------------


def test_setup_deals_five_cards_each_in_the_dealt_order() -> None:
    st = start(
        players=3,
        hands=[
            (ONE, TWO, THREE, FOUR, FIVE),
            (FIVE, FOUR, THREE, TWO, ONE),
            (DIE, ONE, DIE, ONE, PLUS_MINUS_ONE),
        ],
    )
    assert st.hands[1] == (FIVE, FOUR, THREE, TWO, ONE)
    assert st.hands[2] == (DIE, ONE, DIE, ONE, PLUS_MINUS_ONE)
    assert st.draw_size == 31 - 15
    assert all(st.adventurers[s * NF] == 2 for s in range(3))
    assert st.sleeping == (1,) * 9


def test_the_discard_pile_is_reshuffled_when_the_draw_pile_runs_out() -> None:
    st = start()
    rng = random.Random(3)
    while st.epoch == 0:
        before = st.discard[:]
        was_play = st.phase == rules.P_PLAY
        random_playout(st, rng, limit=1)
        if st.epoch == 1:
            # The whole discard pile, this turn's card included, became the draw pile.
            if was_play:
                before[st.card] += 1
            assert st.draw_counts == before
            assert st.draw_size == sum(before)
            assert list(st.discard) == [0] * len(before)
            assert st.phase == rules.P_DRAW
        else:
            assert st.draw_size > 0 or st.phase != rules.P_DRAW


def test_horus_cards_played_go_to_the_discard_and_come_back_in_the_draw_pile() -> None:
    st = start()
    put_adventurers(st, 0, {0: 1, 2: 1})
    put_hand(st, 0, [ALL_1, ONE, ONE, ONE, ONE], [0, *[deck_origin(st)] * 4])
    st.apply_action(rules.PLAY_LEFT)
    assert st.discard[ALL_1] == 1
    # Empty the draw pile into the discard (a prepared position), then draw: the Horus card
    # is among the reshuffled cards.
    for kind, count in enumerate(st.draw_counts):
        st.discard[kind] += count
    st.draw_counts = [0] * len(st.draw_counts)
    st.draw_size = 0
    assert st.phase == rules.P_ACT_FIELD  # adventurers on fields 2 and 3: one action
    st.apply_action(st.legal_actions()[0])
    while st.phase != rules.P_DRAW:
        chance(st, st.chance_outcomes()[0][0])
    assert st.epoch == 1 and ALL_1 in dict(st.chance_outcomes())


def test_no_move_possible_plays_either_card_idle_and_draws() -> None:
    st = start()
    put_adventurers(st, 0, {41: 2})  # no key: the chamber is closed to them
    put_hand(st, 0, [TWO, THREE, FOUR, FIVE, TWO], [deck_origin(st)] * 5)
    assert st.legal_actions() == [rules.PLAY_LEFT, rules.PLAY_RIGHT]
    st.apply_action(rules.PLAY_RIGHT)
    assert st.phase == rules.P_DRAW and at(st, 0, 41) == 2
    assert st.no_move_turns == 1
    chance(st, FOUR)
    assert st.hands[0] == (TWO, THREE, FOUR, FOUR, FIVE)


def test_a_card_that_cannot_move_may_not_be_played_if_the_other_can() -> None:
    st = start()
    put_adventurers(st, 0, {0: 1, 41: 1})
    put_hand(st, 0, [LAST_TO_SECOND, ONE, ONE, ONE, ONE], [0, *[deck_origin(st)] * 4])
    # Two adventurers on different fields: the left card works and so does the right.
    assert st.legal_actions() == [rules.PLAY_LEFT, rules.PLAY_RIGHT]
    put_adventurers(st, 0, {0: 2})
    # Both on the stairs: there is no second-rearmost field, only the "1" may be played.
    assert st.legal_actions() == [rules.PLAY_RIGHT]
    with pytest.raises(IllegalActionError):
        st.apply_action(rules.PLAY_LEFT)


def test_a_die_roll_no_adventurer_can_use_spends_the_card() -> None:
    st = start()
    put_adventurers(st, 0, {40: 2})
    put_hand(st, 0, [DIE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.key_supply -= 1
    st.keys = replaced(st.keys, 0, 1)
    st.apply_action(rules.PLAY_LEFT)  # a 1 or a 2 would do
    chance(st, 5)  # a 6: too far
    assert st.phase == rules.P_DRAW and at(st, 0, 40) == 2 and st.keys[0] == 1


def test_plus_minus_one_goes_back_a_tile_but_not_onto_the_stairs() -> None:
    st = start()
    st.tiles = replaced(st.tiles, 3, 0)  # prepared: field 3's treasure was taken
    put_adventurers(st, 0, {2: 1, 4: 1})
    put_hand(st, 0, [PLUS_MINUS_ONE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    st.apply_action(rules.MOVE_FROM + 2)
    # On the first tile: forward only, so nothing to choose and it goes on to 4.
    assert at(st, 0, 4) == 2
    st2 = start()
    st2.tiles = replaced(st2.tiles, 3, 0)
    put_adventurers(st2, 0, {2: 1, 4: 1})
    put_hand(st2, 0, [PLUS_MINUS_ONE, ONE, ONE, ONE, ONE], [deck_origin(st2)] * 5)
    st2.apply_action(rules.PLAY_LEFT)
    st2.apply_action(rules.MOVE_FROM + 4)
    assert st2.legal_actions() == [rules.FORWARD + 0, rules.BACKWARD]
    assert st2.action_to_string(rules.BACKWARD) == "go 1 tile back to field 2"
    st2.apply_action(rules.BACKWARD)  # over the empty field 3
    assert at(st2, 0, 2) == 2


def test_backward_onto_an_osiris_tile_is_pushed_forward_again() -> None:
    st = start(osiris=(1, 2, 3, 4))
    put_adventurers(st, 0, {0: 1, 10: 1})
    put_hand(st, 0, [PLUS_MINUS_ONE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    st.apply_action(rules.MOVE_FROM + 10)
    st.apply_action(rules.BACKWARD)  # onto the +1 Osiris tile on field 9, then to 10
    assert at(st, 0, 9) == 0 and at(st, 0, 10) == 1


def test_osiris_onto_osiris_keeps_going() -> None:
    st = start(osiris=(4, 2, 1, 3))
    put_adventurers(st, 0, {0: 1, 21: 1})
    put_hand(st, 0, [THREE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    st.apply_action(rules.MOVE_FROM + 21)  # 22, 23, 24; 25 is not reached
    assert at(st, 0, 24) == 1
    st2 = start(osiris=(4, 2, 1, 3))
    put_adventurers(st2, 0, {0: 1, 22: 1})
    put_hand(st2, 0, [THREE, ONE, ONE, ONE, ONE], [deck_origin(st2)] * 5)
    st2.apply_action(rules.PLAY_LEFT)
    st2.apply_action(rules.MOVE_FROM + 22)  # 23, 24, 25 (+1) -> 26
    assert at(st2, 0, 26) == 1 and at(st2, 0, 25) == 0


# --- tile actions with empty supplies ------------------------------------------------------


def _onto_horus_tile(st: LuxorState) -> None:
    put_hand(st, 0, [FIVE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)  # stairs to the 1-eye Horus tile on field 6


def test_horus_tile_without_keys_gives_the_card_at_once() -> None:
    st = start()
    st.keys = replaced(st.keys, 1, st.key_supply)
    st.key_supply = 0
    _onto_horus_tile(st)
    assert st.phase == rules.P_HORUS_DRAW


def test_horus_tile_with_its_deck_empty_gives_a_key_at_once() -> None:
    st = start()
    st.horus_counts = replaced(st.horus_counts, 0, (0,) * len(st.horus_counts[0]))
    _onto_horus_tile(st)
    assert st.keys[0] == 1 and st.phase == rules.P_DRAW


def test_horus_tile_with_nothing_left_gives_nothing() -> None:
    st = start()
    st.horus_counts = replaced(st.horus_counts, 0, (0,) * len(st.horus_counts[0]))
    st.keys = replaced(st.keys, 1, st.key_supply)
    st.key_supply = 0
    _onto_horus_tile(st)
    assert st.keys[0] == 0 and st.phase == rules.P_DRAW


def _onto_temple(st: LuxorState, field: int, front: int) -> None:
    put_temple_tile(st, field, front)
    put_adventurers(st, 0, {0: 1, field - 1: 1})
    put_hand(st, 0, [ONE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    st.apply_action(rules.MOVE_FROM + field - 1)


def test_scarab_or_wild_is_a_choice_and_the_scarab_is_private() -> None:
    st = start()
    _onto_temple(st, 11, SCARAB_OR_WILD)
    assert st.legal_actions() == [rules.TAKE_SCARAB, rules.TAKE_WILD]
    st.apply_action(rules.TAKE_SCARAB)
    assert st.describe_action(3, 1) == "seat 0 takes a scarab"
    assert st.describe_action(3, None) == "seat 0 takes a scarab"
    assert st.describe_action(3, 0) == "seat 0 takes a scarab worth 4"
    chance(st, 3)
    assert st.scarabs[0] == (0, 0, 0, 1)
    assert st.view(1)["scarabs"][0] is None and st.view(0)["scarabs"][0] == [0, 0, 0, 1]


def test_scarab_or_wild_without_scarabs_gives_the_wild_tile() -> None:
    st = start()
    st.scarabs = replaced(st.scarabs, 1, st.scarab_supply)
    st.scarab_supply = (0, 0, 0, 0)
    _onto_temple(st, 11, SCARAB_OR_WILD)
    assert st.wilds[0] == 1 and st.wild_supply == 17 and st.phase == rules.P_DRAW


def test_wild_treasure_tile_and_its_empty_supply() -> None:
    st = start()
    _onto_temple(st, 12, WILD_TREASURE)
    assert st.wilds[0] == 1
    st2 = start()
    st2.wilds = replaced(st2.wilds, 1, st2.wild_supply)
    st2.wild_supply = 0
    _onto_temple(st2, 12, WILD_TREASURE)
    assert st2.wilds[0] == 0 and st2.phase == rules.P_DRAW


def test_favour_of_horus_with_one_deck_empty_takes_the_other_and_with_both_nothing() -> None:
    st = start()
    st.horus_counts = replaced(st.horus_counts, 0, (0,) * len(st.horus_counts[0]))
    _onto_temple(st, 8, HORUS_1_OR_2)
    assert st.phase == rules.P_HORUS_DRAW and st.pending == 2
    st2 = start()
    st2.horus_counts = ((0,) * len(st2.horus_counts[0]),) * 2 + st2.horus_counts[2:]
    _onto_temple(st2, 8, HORUS_1_OR_2)
    assert st2.phase == rules.P_DRAW and len(st2.hands[0]) == 4


# --- Horus cards ---------------------------------------------------------------------------


def test_all_forward_does_not_move_an_adventurer_it_wakes() -> None:
    st = start()
    put_adventurers(st, 0, {0: 1, 10: 1})
    put_hand(st, 0, [ALL_1, ONE, ONE, ONE, ONE], [0, *[deck_origin(st)] * 4])
    st.apply_action(rules.PLAY_LEFT)
    assert at(st, 0, 11) == 1  # passed statue 1
    assert at(st, 0, 2) == 1  # from the stairs
    assert at(st, 0, 0) == 1  # the woken one stays on the stairs


def test_all_forward_with_all_on_one_tile_needs_no_choice() -> None:
    st = start()
    put_adventurers(st, 0, {3: 2})
    put_hand(st, 0, [ALL_1, ONE, ONE, ONE, ONE], [0, *[deck_origin(st)] * 4])
    st.apply_action(rules.PLAY_LEFT)
    assert at(st, 0, 4) == 2
    assert st.phase == rules.P_TEMPLE_REVEAL  # the treasure on field 4 was taken at once


def test_the_one_fewer_discount_lasts_one_turn() -> None:
    st = start(treasures={12: VASE + NEEDS_3})
    put_adventurers(st, 0, {0: 1, 12: 1})
    put_hand(st, 0, [ONE_FEWER_1, ONE, ONE, ONE, ONE], [0, *[deck_origin(st)] * 4])
    st.apply_action(rules.PLAY_LEFT)
    assert st.one_fewer
    st.apply_action(rules.MOVE_FROM + 0)
    finish_turn(st)
    assert not st.one_fewer


@pytest.mark.parametrize("number", [1, 2, 3])
def test_one_fewer_moves_exactly_its_printed_number(number: int) -> None:
    # Page 4, the card's own text beside step 1: move one adventurer the number of tiles
    # shown. Page 8's overview names the numbers 1, 2 and 3. Nothing is chosen but the
    # adventurer: no distance is asked, not even with two adventurers to choose from.
    kind = ONE_FEWER_1 + number - 1
    st = start()
    put_adventurers(st, 0, {2: 1, 20: 1})
    put_hand(st, 0, [kind, ONE, ONE, ONE, ONE], [number - 1, *[deck_origin(st)] * 4])
    st.apply_action(rules.PLAY_LEFT)
    assert st.phase == rules.P_FIELD
    assert st.prompt(0)["kind"] == "prompt_adventurer_steps"  # type: ignore[index]
    assert st.prompt(0)["params"] == {"steps": number}  # type: ignore[index]
    assert st.action_info(rules.MOVE_FROM + 2)["params"]["steps"] == number
    st.apply_action(rules.MOVE_FROM + 2)
    assert st.phase != rules.P_DIST
    assert at(st, 0, 2 + number) == 1 and at(st, 0, 2) == 0 and at(st, 0, 20) == 1


@pytest.mark.parametrize("number", [1, 2, 3])
def test_one_fewer_with_one_adventurer_is_one_click(number: int) -> None:
    # With a single adventurer able to move, the printed number leaves nothing to choose:
    # the card is played and the move made at once, as with a "2" or a "3".
    kind = ONE_FEWER_1 + number - 1
    st = start()
    put_adventurers(st, 0, {2: 2})
    put_hand(st, 0, [kind, ONE, ONE, ONE, ONE], [number - 1, *[deck_origin(st)] * 4])
    info = st.action_info(rules.PLAY_LEFT)
    assert info["kind"] == "play_card_move"
    assert info["params"]["steps"] == number and info["params"]["field"] == 2 + number
    st.apply_action(rules.PLAY_LEFT)
    assert at(st, 0, 2 + number) == 1 and at(st, 0, 2) == 1


def test_one_fewer_three_cannot_stop_short() -> None:
    # The printed 3 is exact: two tiles short of the chamber's far side it cannot move (it
    # would overshoot the chamber), so only the other end card may be played.
    st = start()
    put_adventurers(st, 0, {40: 2})
    put_hand(st, 0, [ONE_FEWER_3, ONE, ONE, ONE, ONE], [2, *[deck_origin(st)] * 4])
    assert st.legal_actions() == [rules.PLAY_RIGHT]


# --- the burial chamber and the end ------------------------------------------------------


def test_one_player_may_take_both_sarcophagi_and_later_entries_get_none() -> None:
    st = start(players=3)
    put_adventurers(st, 0, {41: 3}, awake=1)
    st.key_supply -= 3
    st.keys = replaced(st.keys, 0, 3)
    put_hand(st, 0, [ALL_1, ONE, ONE, ONE, ONE], [0, *[deck_origin(st)] * 4])
    st.apply_action(rules.PLAY_LEFT)
    assert at(st, 0, BURIAL_CHAMBER) == 3
    assert st.sarcophagi == (0, 0) and st.entries == 3 and st.keys[0] == 0
    assert st.ending


def test_second_entry_by_the_last_seat_ends_the_match_after_that_turn() -> None:
    st = start()
    put_adventurers(st, 1, {0: 1, 41: 1})
    put_adventurers(st, 0, {0: 1, BURIAL_CHAMBER: 1})
    st.entries = 1
    st.sarcophagi = (0, -1)
    st.key_supply -= 2
    st.keys_paid = 1
    st.keys = replaced(st.keys, 1, 1)
    st.apply_action(rules.PLAY_LEFT)  # seat 0 plays its "1" from the stairs
    finish_turn(st, FIVE)
    put_hand(st, 1, [ONE, TWO, THREE, FOUR, FIVE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    st.apply_action(rules.MOVE_FROM + 41)
    assert st.sarcophagi == (0, 1)
    chance(st, ONE)
    assert st.is_terminal() and st.round == 1
    assert st.returns() in ([1.0, 0.0], [0.0, 1.0])


def _long_card(st: LuxorState) -> int:
    """A card still in the draw pile that is useless next to the chamber without a key."""
    return next(k for k in (TWO, THREE, FOUR, FIVE, DIE) if st.draw_counts[k])


def test_the_match_ends_at_once_when_nobody_can_move_for_a_whole_round() -> None:
    st = start(players=3)
    put_adventurers(st, 0, {40: 1, 41: 1})
    put_adventurers(st, 1, {41: 2})
    put_adventurers(st, 2, {41: 2})
    idle = [TWO, THREE, FOUR, FIVE, TWO]
    put_hand(st, 1, idle, [deck_origin(st)] * 5)
    put_hand(st, 2, [THREE, FOUR, FIVE, THREE, FOUR], [deck_origin(st)] * 5)
    put_hand(st, 0, [ONE, TWO, THREE, FIVE, FIVE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)  # seat 0 still moves: 40 -> 41
    chance(st, _long_card(st))
    assert st.no_move_turns == 0
    for seat in (1, 2):
        assert st.current_player() == seat
        assert st.action_to_string(rules.PLAY_LEFT).endswith("without moving")
        st.apply_action(rules.PLAY_LEFT)
        chance(st, _long_card(st))
    assert st.current_player() == 0 and st.no_move_turns == 2
    # Rulebook 001, "Uitzondering voor het einde van het spel": the match ends when, during
    # a round, no player can move. Seats 1 and 2 were idle at the end of round one and
    # seat 0 now at the start of round two: three idle turns in a row, but not a round.
    st.apply_action(rules.PLAY_LEFT)  # seat 0 cannot move any more either
    chance(st, _long_card(st))
    assert not st.is_terminal() and st.current_player() == 1
    for seat in (1, 2):
        assert st.current_player() == seat
        st.apply_action(rules.PLAY_LEFT)
        chance(st, _long_card(st))
    # Now nobody moved for the whole of round two: the match ends at once.
    assert st.is_terminal()
    assert st.round == 2 and st.turns == 6


def test_an_idle_run_across_two_rounds_does_not_end_the_match() -> None:
    # Seat 1 is idle at the end of round one, seat 0 at the start of round two: as many
    # idle turns in a row as there are players, yet not a whole round, so seat 1 plays.
    st = start(players=2)
    put_adventurers(st, 0, {40: 1, 41: 1})
    put_adventurers(st, 1, {41: 2})
    put_hand(st, 0, [FIVE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    put_hand(st, 1, [TWO, THREE, FOUR, FIVE, TWO], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_RIGHT)  # seat 0 moves 40 -> 41 with a 1
    chance(st, _long_card(st))
    st.apply_action(rules.PLAY_LEFT)  # seat 1: a 2 from 41 overshoots, nothing moves
    chance(st, _long_card(st))
    assert st.round == 1 and st.no_move_turns == 1
    st.apply_action(rules.PLAY_LEFT)  # seat 0: a 5 cannot move either
    chance(st, _long_card(st))
    assert st.no_move_turns == 2 and not st.is_terminal()
    assert st.current_player() == 1


def test_the_safety_cap_ends_the_match_at_the_end_of_round_two_hundred() -> None:
    st = start()
    st.round = rules.MAX_ROUNDS - 1
    st.apply_action(rules.PLAY_LEFT)
    finish_turn(st)
    assert not st.is_terminal()
    st.apply_action(rules.PLAY_LEFT)
    while not st.is_terminal():
        st.apply_action(
            st.legal_actions()[0] if st.current_player() >= 0 else st.chance_outcomes()[0][0]
        )
    assert st.round == rules.MAX_ROUNDS


# --- scoring -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("per_type", "wild", "sets"),
    [
        ((1, 1, 1), 0, 1),
        ((3, 2, 1), 4, 3),  # the rulebook's example: one wild tile left over
        ((1, 0, 0), 5, 1),  # two wild tiles at most per set
        ((0, 0, 0), 6, 0),  # a set needs one real treasure
        ((2, 2, 0), 2, 2),
        ((5, 0, 0), 10, 5),
        ((10, 10, 10), 18, 16),
    ],
)
def test_treasure_sets_with_at_most_two_wild_tiles_each(
    per_type: tuple[int, int, int], wild: int, sets: int
) -> None:
    assert count_sets(per_type, wild) == sets


def test_set_table() -> None:
    assert [set_points(k) for k in range(10)] == [0, 3, 7, 12, 18, 25, 33, 42, 52, 52]


def test_tie_goes_to_the_better_sarcophagus_or_is_shared() -> None:
    st = start(players=3)
    st.final = [[10, 0, 0, 0, 0, 0, 10], [7, 0, 3, 0, 0, 0, 10], [5, 0, 5, 0, 0, 0, 10]]
    st.sarcophagi = (2, 1)
    assert st.returns() == [0.0, 0.0, 1.0]
    st.sarcophagi = (-1, -1)
    st.final = [[10] * 6 + [10], [0] * 6 + [10], [0] * 7]
    assert st.returns() == [0.5, 0.5, 0.0]


def test_game_object_figures() -> None:
    game = GAME(players=4)
    assert game.num_distinct_actions() == rules.NUM_ACTIONS
    assert game.max_chance_outcomes() == 18  # card kinds, the largest chance space
    assert game.max_game_length() >= rules.MAX_ROUNDS * 4 * rules.MAX_ACTIONS_PER_TURN
