"""Information leaks: two states that differ only in what a seat cannot see give that seat
(and a spectator) the same view and the same tensor; each test also checks that the seat
who can see the difference does see it, so that none of them passes for want of a change.
"""

from __future__ import annotations

import random

import pytest

from necropolis.engine import CHANCE, HiddenHistoryError
from necropolis.engine.driver import sample_chance
from necropolis.engine.frozen import added, removed, replaced
from necropolis.games.horus import components as cp
from necropolis.games.horus.state import HorusState
from tests.conformance.twins import reachable
from tests.horus.helpers import (
    ABDEL,
    CHANTAL,
    DAVID,
    MAKI,
    RASPUTIN,
    act,
    card,
    chance,
    keep_all,
    roll,
    square,
    start,
)


def _same_for(a: HorusState, b: HorusState, seats: list[int | None]) -> None:
    game = a.game
    for seat in seats:
        va, vb = a.view(seat), b.view(seat)
        assert va == vb, seat
        assert game.encode_view(va) == game.encode_view(vb)


def _swap(state: HorusState, seat: int, old: int, new: int) -> HorusState:
    """``state`` with card ``old`` in front of ``seat`` exchanged for ``new`` from the
    supply."""
    state.hand[seat] = tuple(sorted((*removed(state.hand[seat], old), new)))
    state.supply = added(added(state.supply, new, -1), old, 1)
    return state


def _with_treasure(**options: object) -> tuple[HorusState, HorusState]:
    a = start([DAVID, CHANTAL, ABDEL], {1: ["Hededet treasure (2)", "Scorpion"]}, **options)
    b = a.clone()
    _swap(b, 1, card("Hededet treasure (2)"), card("Hededet treasure (6)"))
    return a, b


def test_face_down_treasures_are_hidden_from_the_others() -> None:
    a, b = _with_treasure()
    _same_for(a, b, [0, 2, None])
    assert a.view(1) != b.view(1)


def test_the_decks_are_hidden_from_everyone() -> None:
    a = start([DAVID, CHANTAL])
    b = a.clone()
    # the same number of sand cards, in a different mix
    b.supply = added(b.supply, card("Hededet treasure (1)"), -1)
    b.supply = added(b.supply, card("Hededet treasure (6)"), 1)
    _same_for(a, b, [0, 1, None])


def test_the_decks_are_counted_by_their_own_card_types() -> None:
    """Each pile's count in the view is the supply of that pile's card types (the view
    sums each pile as one run of type numbers), all through a match."""
    rng = random.Random(6)
    state = start([DAVID, CHANTAL, ABDEL])
    piles = (cp.RUBBLE, cp.SAND_DECK, cp.WATER_DECK, cp.MUMMY_PILE, cp.BLOCK_PILE)
    checked = 0
    while not state.is_terminal() and checked < 300:
        for viewer in (0, None):
            decks = state.view(viewer)["decks"]
            assert decks == {
                cp.ORIGINS[o]: sum(state.supply[t] for t in cp.TYPES_OF_ORIGIN[o]) for o in piles
            }
        checked += 1
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            seat = state.acting_seats()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)))
    assert checked > 50


def test_a_sarcophagus_read_with_linguistics_is_seen_by_its_reader_alone() -> None:
    a = start([ABDEL, DAVID, CHANTAL])
    a.square[0] = square(1, 0)
    keep_all(a)
    roll(a, [2, 2, 2, 1, 1])
    k = cp.SARCOPHAGI_AT[square(1, 0)][0]
    act(a, f"seat 0 uses Linguistics on sarcophagus {k}")
    b = a.clone()
    chance(a, card("Anubis treasure (6)"))
    chance(b, card("Anubis treasure (10)"))
    _same_for(a, b, [1, 2, None])
    assert a.view(0) != b.view(0)
    assert a.describe_action(a.legal_actions()[0], 1) == b.describe_action(b.legal_actions()[0], 1)


def _checked_blocks(first: int, second: int) -> tuple[HorusState, HorusState]:
    """Two matches where Rasputin (seat 0) used Clairvoyance and checked block ``first`` in
    one, block ``second`` in the other: the same for everyone but him."""
    a = start([RASPUTIN, DAVID, CHANTAL])
    keep_all(a)
    roll(a, [2, 2, 2, 1, 1])
    act(a, "seat 0 uses Clairvoyance")
    b = a.clone()
    chance(a, first)
    chance(b, second)
    return a, b


def test_a_checked_block_is_seen_by_its_checker_alone() -> None:
    a, b = _checked_blocks(3, 30)
    _same_for(a, b, [1, 2, None])
    assert a.view(0) != b.view(0)
    act(a, "seat 0 sets the checked block aside")
    act(b, "seat 0 sets the checked block aside")
    _same_for(a, b, [1, 2, None])
    assert a.view(0) != b.view(0)


def test_the_bag_hides_its_load() -> None:
    a = start([DAVID, CHANTAL], {1: ["Bag", "Sobek treasure (2)"]})
    act(a, "seat 1 puts Sobek treasure (2) in the bag")
    b = a.clone()
    old, new = card("Sobek treasure (2)"), card("Sobek treasure (5)")
    b.bag = replaced(b.bag, 1, tuple(sorted((*removed(b.bag[1], old), new))))
    b.supply = added(added(b.supply, new, -1), old, 1)
    _same_for(a, b, [0, None])
    assert a.view(1) != b.view(1)


def test_total_secrecy_hides_wounds_and_searched_cards() -> None:
    a = start([DAVID, CHANTAL], {1: ["Scorpion", "Crowbar"]}, total_secrecy=True)
    b = a.clone()
    _swap(b, 1, card("Scorpion"), card("Hededet treasure (4)"))
    _same_for(a, b, [0, None])
    assert a.view(1) != b.view(1)
    # under the normal rules the same difference shows
    c = start([DAVID, CHANTAL], {1: ["Scorpion", "Crowbar"]})
    d = c.clone()
    _swap(d, 1, card("Scorpion"), card("Hededet treasure (4)"))
    assert c.view(0) != d.view(0)


def test_total_secrecy_keeps_a_draw_to_its_finder() -> None:
    a = start([DAVID, CHANTAL], total_secrecy=True)
    a.square[0] = square(5, 4)
    keep_all(a)
    roll(a, [2, 2, 1, 1, 1])
    act(a, "seat 0 searches")
    scorpion, treasure = card("Scorpion"), card("Hededet treasure (3)")
    assert a.describe_action(scorpion, 1) == a.describe_action(treasure, 1)
    assert a.describe_action(scorpion, 0) != a.describe_action(treasure, 0)
    b = a.clone()
    chance(a, scorpion)
    chance(b, treasure)
    _same_for(a, b, [1, None])


def test_resampled_worlds_keep_every_count_and_back() -> None:
    rng = random.Random(5)
    for secrecy in (False, True):
        state = start([DAVID, CHANTAL, ABDEL, RASPUTIN], total_secrecy=secrecy)
        steps = 0
        while not state.is_terminal() and steps < 400:
            steps += play_random_steps(state, rng, 25)
            for seat in range(4):
                world = state.resample(seat, random.Random(steps))
                assert world.view(seat) == state.view(seat)


def play_random_steps(state: HorusState, rng: random.Random, k: int) -> int:
    """Play up to ``k`` random steps; how many were played."""
    played = 0
    while played < k and not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        played += 1
    return played


def test_total_secrecy_asks_maki_after_every_draw_so_the_question_tells_nothing() -> None:
    a = start([MAKI, DAVID], total_secrecy=True)
    a.square[0] = square(5, 4)
    keep_all(a)
    roll(a, [2, 2, 1, 1, 1])
    act(a, "seat 0 searches")
    b = a.clone()
    chance(a, card("Scorpion"))
    chance(b, card("Hededet treasure (3)"))
    assert a.current_player() == b.current_player() == 0
    _same_for(a, b, [1, None])
    assert a.legal_actions() != b.legal_actions()  # only a scorpion can be thrown off
    world = a.resample(1, random.Random(3))
    assert world.view(1) == a.view(1)
    keep = a.string_to_action("seat 0 keeps the card drawn")
    assert a.describe_action(keep, 1) == b.describe_action(keep, 1)
    act(a, "seat 0 keeps the card drawn")
    act(b, "seat 0 keeps the card drawn")
    _same_for(a, b, [1, None])
    world = a.resample(1, random.Random(4))
    assert world.view(1) == a.view(1)


def test_descriptions_of_discards_and_bags_keep_face_down_cards_face_down() -> None:
    a = start([DAVID, CHANTAL], {0: ["Bag", "Sobek treasure (5)", "Crowbar"]})
    bag = a.string_to_action("seat 0 puts Sobek treasure (5) in the bag")
    assert "Sobek treasure (5)" not in a.describe_action(bag, 1)
    assert "Sobek treasure (5)" in a.describe_action(bag, 0)
    assert "water" in a.describe_action(bag, None)
    discard = a.string_to_action("seat 0 discards Sobek treasure (5)")
    assert "Sobek treasure (5)" not in a.describe_action(discard, 1)
    crowbar = a.string_to_action("seat 0 discards Crowbar")
    assert "Crowbar" in a.describe_action(crowbar, 1)  # equipment lies face up
    act(a, "seat 0 discards Sobek treasure (5)")
    assert a.view(1)["discard_face_down"] == {"water": 1}
    assert a.view(0)["discard_face_down"] == {"water": 1}


def test_total_secrecy_asks_every_seat_with_cards_so_that_no_question_tells() -> None:
    a = start([DAVID, CHANTAL], {0: ["Scorpion"]}, total_secrecy=True)
    b = start([DAVID, CHANTAL], {0: ["Hededet treasure (1)"]}, total_secrecy=True)
    for state in (a, b):
        assert state.current_player() == 0  # asked in phase 1 even with only a wound
    _same_for(a, b, [1, None])
    keep_all(a)
    keep_all(b)
    roll(a, [1, 1, 1, 1, 1])
    roll(b, [1, 1, 1, 1, 1])
    assert a.current_player() == b.current_player() == 0  # asked with no action too
    _same_for(a, b, [1, None])


# --- determinizations: a world depends on the seat's view and the generator alone --------


def test_a_world_does_not_depend_on_which_block_was_set_aside() -> None:
    # Clairvoyance: the checked block is set aside for phase 5 and seen by its checker alone
    # (rulebook, Rasputin's ability); the other seats' worlds draw it again from the box.
    a, b = _checked_blocks(3, 30)
    act(a, "seat 0 sets the checked block aside")
    act(b, "seat 0 sets the checked block aside")
    _same_for(a, b, [1, 2, None])
    assert a.chosen_block != b.chosen_block
    for seed in range(40):
        for seat in (1, 2):
            wa, wb = a.resample(seat, random.Random(seed)), b.resample(seat, random.Random(seed))
            assert reachable(wa) == reachable(wb), (seed, seat)


def test_a_world_does_not_depend_on_the_card_just_drawn_under_total_secrecy() -> None:
    a = start([MAKI, DAVID], total_secrecy=True)
    a.square[0] = square(5, 4)
    keep_all(a)
    roll(a, [2, 2, 1, 1, 1])
    act(a, "seat 0 searches")
    b = a.clone()
    chance(a, card("Scorpion"))
    chance(b, card("Hededet treasure (3)"))
    _same_for(a, b, [1, None])
    assert a.node_arg != b.node_arg
    for seed in range(40):
        wa, wb = a.resample(1, random.Random(seed)), b.resample(1, random.Random(seed))
        assert reachable(wa) == reachable(wb), seed


def test_a_world_carries_no_history_of_the_hidden_draws() -> None:
    a = start([MAKI, DAVID], total_secrecy=True)
    a.square[0] = square(5, 4)
    keep_all(a)
    roll(a, [2, 2, 1, 1, 1])
    act(a, "seat 0 searches")
    chance(a, card("Hededet treasure (3)"))
    world = a.resample(1, random.Random(0))
    with pytest.raises(HiddenHistoryError):
        world.history()  # replayed, the true history would show the treasure
    with pytest.raises(HiddenHistoryError):
        world.log(1)
    assert world.move_number() == a.move_number()
    # the world plays on: what it is given from here on it carries
    act(world, "seat 0 keeps the card drawn")
    assert world.history_since(a.move_number()) == world.history_since(world.history_start())
    assert len(world.history_since(a.move_number())) == 1
    assert world.move_number() == a.move_number() + 1
