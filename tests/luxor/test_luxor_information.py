"""Hidden information in Luxor: hands, scarab values, draw pile, Horus decks, temple stacks.

Two positions that differ only in what a seat cannot see must give that seat (and any
spectator) equal views, equal observation tensors and equal descriptions of the actions;
the seat that can see the difference must see it. Determinizations keep the seat's view and
redraw the rest; the terminal board shows only what the view holds.
"""

from __future__ import annotations

import json
import random

from necropolis.engine.frozen import added, added_in, replaced
from necropolis.games.luxor import GAME, rules
from necropolis.games.luxor.components import (
    DIE,
    FIVE,
    FOUR,
    NUM_CARD_KINDS,
    ONE,
    PLUS_MINUS_ONE,
    RANGE_3,
    SCARAB,
    THREE,
    TWO,
)
from necropolis.games.luxor.state import LuxorState
from tests.luxor.luxor_support import (
    chance,
    put_adventurers,
    put_temple_tile,
    random_playout,
    start,
)


def views_equal(a: LuxorState, b: LuxorState, seat: int | None) -> bool:
    va, vb = a.view(seat), b.view(seat)
    same_view = json.dumps(va, sort_keys=True) == json.dumps(vb, sort_keys=True)
    same_tensor = GAME(players=a.num_players).encode_view(va) == GAME(
        players=b.num_players
    ).encode_view(vb)
    return same_view and same_tensor


def test_other_hands_and_the_draw_pile_are_invisible() -> None:
    a = start(
        players=3,
        hands=[
            (ONE, TWO, THREE, FOUR, FIVE),
            (ONE, ONE, ONE, ONE, ONE),
            (TWO, TWO, DIE, FOUR, FIVE),
        ],
    )
    b = start(
        players=3,
        hands=[
            (ONE, TWO, THREE, FOUR, FIVE),
            (FIVE, DIE, PLUS_MINUS_ONE, THREE, ONE),
            (TWO, TWO, DIE, FOUR, FIVE),
        ],
    )
    assert a.draw_counts != b.draw_counts
    for seat in (0, 2, None):
        assert views_equal(a, b, seat)
    assert not views_equal(a, b, 1)
    # The owner sees the order, which is part of what matters to it.
    c = start(
        players=3,
        hands=[
            (ONE, TWO, THREE, FOUR, FIVE),
            (ONE, ONE, ONE, ONE, ONE),
            (FIVE, FOUR, DIE, TWO, TWO),
        ],
    )
    assert views_equal(a, c, 0) and views_equal(a, c, None)
    assert not views_equal(a, c, 2)


def test_the_same_public_play_keeps_views_equal_and_hides_draws() -> None:
    a = start(hands=[(ONE, TWO, THREE, FOUR, FIVE), (ONE, ONE, ONE, ONE, ONE)])
    b = start(hands=[(ONE, TWO, THREE, FOUR, FIVE), (ONE, DIE, DIE, FIVE, ONE)])
    for st in (a, b):
        st.apply_action(rules.PLAY_LEFT)
    assert views_equal(a, b, 0)
    # Seat 0's own draw is named to seat 0 only.
    assert a.describe_action(TWO, 0) == "seat 0 draws a 2 card"
    assert a.describe_action(TWO, 1) == "seat 0 draws a card"
    assert a.describe_action(TWO, None) == "seat 0 draws a card"
    chance(a, TWO)
    chance(b, TWO)
    for st in (a, b):
        st.apply_action(rules.PLAY_LEFT)  # seat 1 plays its leftmost "1": public
    assert views_equal(a, b, 0)
    chance(a, THREE)
    chance(b, FOUR)  # seat 1 draws different cards
    assert views_equal(a, b, 0) and views_equal(a, b, None)
    assert not views_equal(a, b, 1)


def test_scarab_values_are_private_until_the_end() -> None:
    a = start()
    put_temple_tile(a, 4, SCARAB)
    put_adventurers(a, 0, {0: 1, 3: 1})
    b = a.clone()
    for st in (a, b):
        st.apply_action(rules.PLAY_LEFT)  # the "1"
        st.apply_action(rules.MOVE_FROM + 3)  # onto the scarab tile on field 4
    assert a.phase == rules.P_SCARAB_DRAW
    assert a.describe_action(0, 1) == a.describe_action(3, 1) == "seat 0 takes a scarab"
    chance(a, 0)
    chance(b, 3)
    assert views_equal(a, b, 1) and views_equal(a, b, None)
    assert not views_equal(a, b, 0)
    assert a.view(1)["scarab_counts"][0] == 1
    # At the end every scarab is turned over.
    for st in (a, b):
        rules._final_scoring(st)
    assert a.view(1)["scarabs"][0] == [1, 0, 0, 0]
    assert not views_equal(a, b, 1)


def test_hidden_piles_are_only_counts_in_the_view() -> None:
    st = start()
    v = st.view(0)
    assert v["draw_pile"] == 21
    assert v["horus_decks"] == [8, 8, 8]
    assert v["temple_stacks"] == [4, 6, 4]
    text = json.dumps(v)
    assert "draw_counts" not in text and "temple_counts" not in text
    # A different order of the Horus decks and temple stacks changes nothing visible:
    # their contents are never in the state until drawn, so there is nothing to leak.
    other = st.clone()
    other.horus_counts = added_in(other.horus_counts, 0, RANGE_3, -1)
    # a different level-1 deck of the same size
    other.horus_counts = added_in(other.horus_counts, 0, RANGE_3 + 4, 1)
    other.temple_counts = replaced(other.temple_counts, 1, other.temple_counts[1][::-1])
    assert views_equal(st, other, 0) and views_equal(st, other, None)


def test_resampled_states_look_the_same_and_redraw_the_hidden_parts() -> None:
    rng = random.Random(11)
    differed = 0
    scarabs_differed = 0
    for seed in range(20):
        st = GAME(players=3).new_initial_state()
        random_playout(st, random.Random(seed), limit=150 + seed * 7)
        if st.is_terminal():
            continue
        for seat in range(3):
            world = st.resample(seat, rng)
            assert views_equal(st, world, seat)
            assert views_equal(st, world, None)
            assert world.hands[seat] == st.hands[seat]
            assert world.scarabs[seat] == st.scarabs[seat]
            assert world.move_number() == st.move_number()  # its past is sealed
            differed += any(world.hands[s] != st.hands[s] for s in range(3) if s != seat)
            # Cards are conserved in every determinization.
            total = [0] * NUM_CARD_KINDS
            for hand in world.hands:
                for k in hand:
                    total[k] += 1
            for k in range(NUM_CARD_KINDS):
                total[k] += world.draw_counts[k] + world.discard[k]
                total[k] += sum(deck[k] for deck in world.horus_counts)
            assert sum(total) == 31 + 24
            # Scarabs: each seat keeps its count, the values stay a share of the 22.
            assert [sum(x) for x in world.scarabs] == [sum(x) for x in st.scarabs]
            assert sum(world.scarab_supply) + sum(map(sum, world.scarabs)) == 22
            values = world.scarab_supply[:]
            for row in world.scarabs:
                values = [a + b for a, b in zip(values, row, strict=True)]
            assert values == [4, 8, 6, 4]
            scarabs_differed += any(
                world.scarabs[s] != st.scarabs[s] for s in range(3) if s != seat
            )
            # Playing on from a determinization works like from the real state.
            random_playout(world, random.Random(seed), limit=40)
    assert differed > 20
    assert scarabs_differed > 0


def test_observation_tensor_shape_and_range_along_random_play() -> None:
    for players in (2, 3, 4):
        game = GAME(players=players)
        st = game.new_initial_state()
        rng = random.Random(players)
        while not st.is_terminal():
            for seat in (*range(players), None):
                vec = game.encode_view(st.view(seat))
                assert len(vec) == game.observation_size()
                assert all(0.0 <= x <= 1.0 for x in vec)
            random_playout(st, rng, limit=7)


def test_the_board_shows_only_the_viewers_hand() -> None:
    st = start(hands=[(ONE, TWO, THREE, FOUR, FIVE), (DIE, DIE, DIE, PLUS_MINUS_ONE, ONE)])
    text = GAME(players=2).render_view(st.view(0))
    assert "hand 1 2 3 4 5" in text
    assert "hand ? ? ? ? ?" in text and "die" not in text
    assert "Stairs" in text and "Tomb" in text
    spectator = GAME(players=2).render_view(st.view(None))
    assert "hand 1 2 3 4 5" not in spectator and "you" not in spectator


def test_action_names_are_unique_and_read_back_along_random_play() -> None:
    for players in (2, 4):
        st = GAME(players=players).new_initial_state()
        rng = random.Random(5 + players)
        while not st.is_terminal():
            if st.is_chance_node():
                actions = [a for a, _ in st.chance_outcomes()]
            else:
                actions = st.legal_actions()
            names = [st.action_to_string(a) for a in actions]
            assert len(set(names)) == len(names), names
            pick = rng.choice(actions) if not st.is_chance_node() else None
            if pick is not None:
                assert st.string_to_action(st.action_to_string(pick)) == pick
            random_playout(st, rng, limit=1)
        board = GAME(players=players).render_view(st.view(0))
        assert "the match is over" in board
        for row in st.final or []:
            assert f"final {'+'.join(map(str, row[:-1]))} = {row[-1]}" in board


def test_dealing_is_described_only_to_the_seat_dealt_to() -> None:
    st = GAME(players=2).new_initial_state()
    assert st.describe_action(ONE, 0) == "you are dealt a 1 card"
    assert st.describe_action(ONE, 1) == "seat 0 is dealt a card"
    assert st.describe_action(ONE, None) == "seat 0 is dealt a card"


def _all_views(st: LuxorState) -> str:
    return json.dumps([st.view(s) for s in range(st.num_players)], sort_keys=True)


def test_a_resample_depends_on_the_view_and_the_seed_alone() -> None:
    # Two matches seat 0 cannot tell apart: seat 1's hand differs (and so the draw pile).
    a = start(hands=[(ONE, TWO, THREE, FOUR, FIVE), (ONE, ONE, ONE, ONE, ONE)])
    b = start(hands=[(ONE, TWO, THREE, FOUR, FIVE), (FIVE, DIE, PLUS_MINUS_ONE, THREE, ONE)])
    assert views_equal(a, b, 0) and not views_equal(a, b, 1)
    for seed in range(5):
        wa = a.resample(0, random.Random(seed))
        wb = b.resample(0, random.Random(seed))
        assert _all_views(wa) == _all_views(wb)
        assert wa.draw_counts == wb.draw_counts and wa.horus_counts == wb.horus_counts
    # Hidden scarab values: seat 1 holds a 1 in one match and a 4 in the other. Prepared
    # position: each scarab is taken from the supply, as a scarab temple tile would give it.
    c, d = a.clone(), a.clone()
    for st, value in ((c, 0), (d, 3)):
        st.scarab_supply = added(st.scarab_supply, value, -1)
        st.scarabs = added_in(st.scarabs, 1, value, 1)
    assert views_equal(c, d, 0) and not views_equal(c, d, 1)
    for seed in range(5):
        wc = c.resample(0, random.Random(seed))
        wd = d.resample(0, random.Random(seed))
        assert _all_views(wc) == _all_views(wd)
        assert wc.scarab_supply == wd.scarab_supply
