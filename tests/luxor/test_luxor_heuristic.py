"""The Luxor heuristic: legal, decided from the window alone, sensible, better than random.

Also the state's estimate of the returns of an unfinished match (the heuristic's judgement
turned into shares of the win).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest

from necropolis.engine.frozen import added, added_in, replaced
from necropolis.engine.seat import SeatWindow
from necropolis.games.luxor import GAME, heuristic, rules
from necropolis.games.luxor.components import (
    FIVE,
    FOUR,
    ONE,
    THREE,
    TREASURE_BASE,
    TREASURE_POINTS,
    TWO,
)
from necropolis.games.luxor.state import LuxorState
from tests.luxor.luxor_support import (
    JEWELS,
    NEEDS_3,
    STATUE,
    VASE,
    put_adventurers,
    random_playout,
    start,
)

if TYPE_CHECKING:
    from necropolis.engine.protocol import Policy

A_TWO_POINT_VASE = VASE + 1  # needs one adventurer, scores 2


def _policy() -> Policy:
    policy = GAME(players=2).heuristic_policy()
    assert policy is not None
    return policy


def _midgame(seed: int, players: int = 2) -> LuxorState:
    st = GAME(players=players).new_initial_state()
    rng = random.Random(seed)
    random_playout(st, rng, limit=60 + 23 * seed)
    # Go on to a decision of some seat.
    while not st.is_terminal() and st.current_player() < 0:
        random_playout(st, rng, limit=1)
    return st


def test_the_policy_plays_legal_moves_decided_from_the_window_alone() -> None:
    policy = _policy()
    for seed in range(8):
        st = _midgame(seed, players=2 + seed % 3)
        if st.is_terminal():
            continue
        seat = st.current_player()
        # A world the seat cannot tell from the real one: the same decision with the same rng.
        twin = st.resample(seat, random.Random(100 + seed))
        a = policy(SeatWindow(st, seat), random.Random(seed))
        b = policy(SeatWindow(twin, seat), random.Random(seed))
        assert a == b
        assert a in st.legal_actions()


def test_the_policy_takes_a_treasure_rather_than_a_pointless_step() -> None:
    # The "1" at the left end reaches the first tile, a vase for one adventurer; the "2" at
    # the right end reaches a vase that needs three, where nothing happens.
    st = start(
        hands=[(ONE, THREE, FOUR, FIVE, TWO), (ONE, TWO, THREE, FOUR, FIVE)],
        treasures={2: A_TWO_POINT_VASE, 3: VASE + NEEDS_3},
    )
    assert st.legal_actions() == [rules.PLAY_LEFT, rules.PLAY_RIGHT]
    assert _policy()(SeatWindow(st, 0), random.Random(0)) == rules.PLAY_LEFT
    # Mirrored: the useful card at the right end.
    st = start(
        hands=[(TWO, THREE, FOUR, FIVE, ONE), (ONE, TWO, THREE, FOUR, FIVE)],
        treasures={2: A_TWO_POINT_VASE, 3: VASE + NEEDS_3},
    )
    assert _policy()(SeatWindow(st, 0), random.Random(0)) == rules.PLAY_RIGHT


def test_the_estimate_is_a_share_in_range_and_favours_the_seat_ahead() -> None:
    st = start()
    even = st.estimate_returns()
    assert len(even) == 2 and abs(even[0] - even[1]) < 1e-9
    # Prepared position: seat 0 has walked far and holds a full set of treasures (taken from
    # the board, their points on the track); seat 1 is still on the stairs.
    put_adventurers(st, 0, {33: 2, 36: 2}, awake=2)
    for kind in (VASE + 1, STATUE + 1, JEWELS + 1):
        field = st.tiles.index(TREASURE_BASE + kind)
        st.tiles = replaced(st.tiles, field, 0)
        st.treasures = added_in(st.treasures, 0, kind, 1)
        st.score = added(st.score, 0, TREASURE_POINTS[kind])
    ahead = st.estimate_returns()
    assert all(0.0 <= x <= 1.0 for x in ahead)
    assert ahead[0] > 0.9 and abs(sum(ahead) - 1.0) < 1e-9


def test_the_estimate_stays_in_range_along_random_play() -> None:
    for players in (2, 3, 4):
        st = GAME(players=players).new_initial_state()
        rng = random.Random(players)
        while not st.is_terminal():
            est = st.estimate_returns()
            assert len(est) == players
            assert all(0.0 <= x <= 1.0 for x in est)
            assert abs(sum(est) - 1.0) < 1e-9
            random_playout(st, rng, limit=1)
        assert st.estimate_returns() == st.returns()


def test_turn_rollouts_take_the_treasure_too_and_decide_from_the_window_alone() -> None:
    from necropolis.bots import RolloutBot

    st = start(
        hands=[(ONE, THREE, FOUR, FIVE, TWO), (ONE, TWO, THREE, FOUR, FIVE)],
        treasures={2: A_TWO_POINT_VASE, 3: VASE + NEEDS_3},
    )
    bot = RolloutBot(worlds=16)
    assert bot.choose(SeatWindow(st, 0), random.Random(0)) == rules.PLAY_LEFT
    assert bot.last.worlds == 16
    for seed in range(3):
        mid = _midgame(seed)
        if mid.is_terminal():
            continue
        seat = mid.current_player()
        twin = mid.resample(seat, random.Random(50 + seed))
        # The same seed gives the same decision and values, in worlds the seat cannot
        # tell apart.
        seen = []
        for position in (mid, twin, mid):
            pick = bot.choose(SeatWindow(position, seat), random.Random(seed))
            seen.append((pick, dict(bot.last.means)))
        assert seen[0] == seen[1] == seen[2] and seen[0][0] in mid.legal_actions()


def test_the_levels_weigh_a_horus_card_in_hand_less_and_nothing_else() -> None:
    assert GAME(players=2).level_policy() is heuristic.levels_policy
    assert GAME(players=2).heuristic_policy() is heuristic.policy
    rng = random.Random(7)
    st = GAME(players=2).new_initial_state()
    checked = 0
    while not st.is_terminal() and checked < 20:
        random_playout(st, rng, limit=1)
        left = heuristic.time_left(st)
        for seat in (0, 1):
            # a Horus card's origin (0-2: its level) is public, as the projection reads it
            horus = sum(1 for origin in st.origins[seat] if origin < 3)
            weighed = heuristic.projection(st, seat, seat, left, heuristic.HEURISTIC)
            tuned = heuristic.projection(st, seat, seat, left, heuristic.LEVELS)
            step = heuristic.HEURISTIC.horus_card - heuristic.LEVELS.horus_card
            assert weighed - tuned == pytest.approx(step * horus)
            checked += horus > 0
    assert checked == 20  # positions with Horus cards in hand were met
