"""The horus heuristic: legal and view-only, sensible in plain positions, better than random."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from necropolis.engine import CHANCE
from necropolis.engine.driver import sample_chance
from necropolis.engine.frozen import added, replaced
from necropolis.engine.seat import SeatWindow
from necropolis.games import load_game
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import (
    A_DONE,
    A_LEAVE,
    A_MOVE,
    A_OPEN,
    A_SETUP,
    A_TAKE,
    D_TURN,
    ESCAPED,
    INSIDE,
    SEALED,
    UNPLACED,
)
from necropolis.games.horus.heuristic import (
    FAR,
    HEURISTIC,
    LEVELS,
    Tuning,
    _go_utility,
    _Me,
    _plain_cut_times,
    _plan,
    blocked_squares,
    decide,
    distances,
    levels_policy,
    policy,
)
from necropolis.games.horus.state import HorusState
from tests.horus.helpers import (
    CHANTAL,
    DAVID,
    JOSE,
    card,
    drop_blocks,
    keep_all,
    roll,
    square,
    start,
)


def _midgame(players: int, seed: int, steps: int, secrecy: bool = False) -> HorusState:
    """A match played by the heuristic itself for ``steps`` actions."""
    state = load_game("horus", players=players, total_secrecy=secrecy).new_initial_state()
    assert isinstance(state, HorusState)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            seat = state.current_player()
            state.apply_action(policy(SeatWindow(state, seat), rng))
    return state


def test_the_policy_decides_from_the_window_alone() -> None:
    checked = 0
    for seed in range(16):
        state = _midgame(2 + seed % 3, seed, 60 + 17 * seed, secrecy=seed >= 12)
        if state.is_terminal() or state.current_player() < 0:
            continue
        seat = state.current_player()
        twin = state.resample(seat, random.Random(seed + 100))
        a = policy(SeatWindow(state, seat), random.Random(seed))
        b = policy(SeatWindow(twin, seat), random.Random(seed))
        assert a == b
        assert a in state.legal_actions()
        checked += 1
    assert checked >= 6


def _turn_of_seat_0(hand: list[str]) -> HorusState:
    """Two adventurers inside, seat 0 about to act with five actions (all dice six)."""
    state = start([JOSE, DAVID], hands={0: hand})
    keep_all(state)
    roll(state, [6, 6, 6, 6, 6])
    assert state.node == D_TURN and state.node_seat == 0
    return state


def _fell(state: HorusState, numbers: list[int]) -> None:
    """Prepare a late position: these blocks have fallen (as after many rounds)."""
    drop_blocks(state, numbers)


def _ways_out(blocked: list[bool]) -> set[int]:
    """The squares that still reach an exit around ``blocked``, walked square by square."""
    exits = [sq for sq in range(cp.NUM_SQUARES) if cp.AREA[sq] == cp.ENTRANCE]
    return {sq for sq, steps in enumerate(distances(blocked, exits)) if steps < FAR}


def test_the_cut_times_are_when_each_square_loses_its_last_way_out() -> None:
    # The definition played out: let the blocks of each order fall one by one and note, per
    # square, the last count fallen at which it still reached an exit (one more is when it
    # is cut; with every block down and a way out still open, the order's length).
    rng = random.Random(7)
    for _ in range(12):
        fallen = rng.sample(range(1, cp.NUM_BLOCKS + 1), rng.randrange(cp.NUM_BLOCKS))
        rest = [b for b in range(1, cp.NUM_BLOCKS + 1) if b not in fallen]
        orders = [rng.sample(rest, len(rest)) for _ in range(3)]
        times = _plain_cut_times(fallen, orders)
        for row, order in enumerate(orders):
            expected = [0] * cp.NUM_SQUARES
            for k in range(len(order) + 1):
                for sq in _ways_out(blocked_squares(fallen + order[:k])):
                    expected[sq] = min(k + 1, len(order))
            assert times[row].tolist() == expected
    # Every block down: none is left to fall, so no time can pass the order's length, 0.
    everything = list(range(1, cp.NUM_BLOCKS + 1))
    assert _plain_cut_times(everything, [[]]).tolist() == [[0] * cp.NUM_SQUARES]


def test_it_takes_a_revealed_treasure_beside_it() -> None:
    state = _turn_of_seat_0([])
    state.square[0] = square(3, 0)  # in front of the third Anubis sarcophagus
    state.sarc_state = replaced(state.sarc_state, 2, 1)
    state.sarc_card = replaced(state.sarc_card, 2, card("Anubis treasure (9)"))
    state.supply = added(state.supply, state.sarc_card[2], -1)
    assert policy(SeatWindow(state, 0), random.Random(0)) == A_TAKE + 2


def test_it_opens_a_sarcophagus_beside_it_with_actions_to_spare() -> None:
    state = _turn_of_seat_0([])
    state.square[0] = square(3, 0)
    assert policy(SeatWindow(state, 0), random.Random(0)) == A_OPEN + 2


def test_it_heads_out_with_its_treasures_when_one_block_would_seal_it_in() -> None:
    state = _turn_of_seat_0(["Anubis treasure (9)", "Thoth treasure (8)"])
    # ten blocks left; only block 13 still joins the sand to the Cobra Nest, block 27 the
    # seat's square to the pond, and 33 to 36 lie before and on the exits
    _fell(state, [b for b in range(1, 37) if b not in (13, 27, 33, 34, 35, 36, 2, 3, 4, 23)])
    state.square[0] = square(1, 6)  # the corridor is a step away, full of sarcophagi
    a = policy(SeatWindow(state, 0), random.Random(0))
    assert A_MOVE <= a < A_MOVE + 4
    step = cp.NEIGHBOURS[state.square[0]][a - A_MOVE]
    way_out = distances(blocked_squares(state.view(0)["fallen_blocks"]), cp.ENTRANCES)
    assert way_out[step] < way_out[state.square[0]]


def test_it_leaves_from_the_exit_with_its_load_when_the_next_block_may_shut_it_in() -> None:
    state = _turn_of_seat_0(["Anubis treasure (9)", "Horus treasure (10)"])
    # the other exit and the nest squares before both exits are down: block 35, on the
    # seat's own exit space, would leave it nowhere to jump but a dead end
    _fell(state, [b for b in range(1, 37) if b not in (13, 2, 35)])
    state.square[0] = cp.ENTRANCES[0]
    assert cp.SQUARE_NUMBER[cp.ENTRANCES[0]] == 35
    assert policy(SeatWindow(state, 0), random.Random(0)) == A_LEAVE


def test_it_waits_on_the_exit_space_only_while_no_one_block_can_shut_it_in() -> None:
    # the last one out knows what it has to beat; while both exits and the nest squares
    # before them stand, one falling block can wound the seat but not shut it in
    state = _turn_of_seat_0(["Anubis treasure (9)", "Horus treasure (10)"])
    open_blocks = (13, 2, 3, 23, 24, 33, 34, 35, 36)
    _fell(state, [b for b in range(1, 37) if b not in open_blocks])
    state.square[0] = cp.ENTRANCES[0]
    assert policy(SeatWindow(state, 0), random.Random(0)) == A_DONE
    state.status = replaced(state.status, 1, SEALED)  # alone inside: nothing to wait for
    assert policy(SeatWindow(state, 0), random.Random(0)) == A_LEAVE
    state = _turn_of_seat_0(["Anubis treasure (9)", "Horus treasure (10)"])
    _fell(state, [b for b in range(1, 37) if b not in open_blocks or b == 36])
    state.square[0] = cp.ENTRANCES[0]  # the other exit is down: block 35 would shut it in
    assert policy(SeatWindow(state, 0), random.Random(0)) == A_LEAVE


def test_it_does_not_walk_out_at_once_with_nothing() -> None:
    state = _turn_of_seat_0([])
    state.square[0] = cp.ENTRANCES[0]
    assert policy(SeatWindow(state, 0), random.Random(0)) != A_LEAVE


def _empty_handed_beside_a_rich_rival() -> dict[str, Any]:
    """Seat 0's view: it holds nothing, on square 16; seat 1, on square 7, carries a Horus
    treasure; blocks 26 and 33 are down."""
    state = start([CHANTAL, DAVID], hands={1: ["Horus treasure (9)"]})
    keep_all(state)
    roll(state, [6, 6, 6, 6, 6])
    _fell(state, [26, 33])
    state.square[0], state.square[1] = 16, 7
    return SeatWindow(state, 0).view()


def test_the_levels_tuning_does_not_count_on_a_rival_being_shut_in() -> None:
    # Seat 0 holds nothing; seat 1, still inside, carries a Horus treasure, and with two
    # blocks down the heuristic reads a fair chance that the blocks shut it in before it
    # is out. So it reckons walking out empty-handed a fair chance to win (it would win
    # only if the rival never got out); the levels' tuning counts on the rival getting out,
    # and so on nothing from a walk out with nothing (only the small consolation every
    # load is given).
    view = _empty_handed_beside_a_rich_rival()
    heuristic_me = _Me(view, 0, HEURISTIC)
    levels_me = _Me(view, 0, LEVELS)
    assert [bar[3] for bar in heuristic_me.bars] == [pytest.approx(20 / 48)]
    assert [bar[3] for bar in levels_me.bars] == [0.0]
    assert _go_utility(heuristic_me, 0.0, 0)[0] > 0.35
    assert _go_utility(levels_me, 0.0, 0)[0] < 0.05
    # with a load that beats the rival's, both see the walk out as worth nearly as much
    rich = 30.0
    assert _go_utility(levels_me, rich, 3)[0] > 0.8 and _go_utility(heuristic_me, rich, 3)[0] > 0.8


def test_the_screened_fields_weigh_the_risks_as_the_tuning_says() -> None:
    # The position above: the rival's chance of being shut in is read over its walk out
    # and the tuning's rival_rounds more, so fewer rounds read less of it; the seat's own
    # sampled risk is feared risk_weight times, never above certainty.
    view = _empty_handed_beside_a_rich_rival()
    shut = [
        _Me(view, 0, dataclasses.replace(HEURISTIC, rival_rounds=r)).bars[0][3] for r in (0, 4, 8)
    ]
    assert shut[0] < shut[1] < shut[2]
    # what the rival inside may yet add, and how unsure that is, are the tuning's
    gains = _Me(view, 0, dataclasses.replace(LEVELS, rival_gain=3.0, rival_spread=2.0)).bars
    assert [bar[1:3] for bar in gains] == [(3.0, 2.0)]
    assert [bar[1:3] for bar in _Me(view, 0, LEVELS).bars] == [(8.0, 6.0)]
    me = _Me(view, 0, dataclasses.replace(LEVELS, risk_weight=2.0))
    assert me.feared(0.2) == pytest.approx(0.4)
    assert me.feared(0.7) == 1.0
    assert _Me(view, 0, LEVELS).feared(0.2) == 0.2
    # stay_cost weighs only the rounds a raid adds to the walk out: going now ignores it
    rich = 30.0
    cheap = _go_utility(_Me(view, 0, dataclasses.replace(LEVELS, stay_cost=0.999)), rich, 3)
    assert cheap == _go_utility(_Me(view, 0, LEVELS), rich, 3)


def test_the_fields_that_were_constants_act_where_they_say() -> None:
    # The walk out is counted at the tuning's share of a round's actions: a slower walk
    # takes more rounds, so more blocks fall before the seat is out.
    view = _empty_handed_beside_a_rich_rival()
    walk = [
        _Me(view, 0, dataclasses.replace(LEVELS, walk_speed=w)).blocks_before_out(2.0)
        for w in (0.4, 0.8, 1.6)
    ]
    assert walk[0] >= walk[1] >= walk[2] and walk[0] > walk[2]
    # An escaped rival's load is as sure as the tuning says.
    out = [dict(p) for p in view["players"]]
    out[1]["status_id"] = ESCAPED
    escaped = {**view, "players": out}
    assert _Me(escaped, 0, LEVELS).bars[0][2] == 3.0
    assert _Me(escaped, 0, dataclasses.replace(LEVELS, escaped_spread=5.0)).bars[0][2] == 5.0


def test_the_levels_share_what_rivals_inside_may_gain_among_the_figures_inside() -> None:
    # Four players, every figure inside: each rival is taken to add (2/4)**2 of the
    # two-player gain; the heuristic, which does not share, the whole of it.
    state = _midgame(4, 5, 40)
    view = state.view(0)
    assert [p["status_id"] for p in view["players"]] == [INSIDE] * 4
    assert [bar[1] for bar in _Me(view, 0, LEVELS).bars] == [pytest.approx(8.0 / 4)] * 3
    assert [bar[1] for bar in _Me(view, 0, HEURISTIC).bars] == [8.0] * 3
    # one rival out: three figures inside share it, and the one out adds nothing more
    players = [dict(p) for p in view["players"]]
    players[3]["status_id"] = ESCAPED
    three = _Me({**view, "players": players}, 0, LEVELS).bars
    assert [bar[1] for bar in three] == [pytest.approx(8.0 * 4 / 9)] * 2 + [0.0]
    # two figures inside never share, so the two-player strategy is the same as before
    players[2]["status_id"] = ESCAPED
    two = _Me({**view, "players": players}, 0, LEVELS).bars
    assert [bar[1] for bar in two] == [8.0, 0.0, 0.0]
    # and less gain counted for the rivals makes a middling load worth more to carry out
    me, alone = (
        _Me(view, 0, LEVELS),
        _Me(view, 0, dataclasses.replace(LEVELS, rival_gain_sharing=0)),
    )
    assert me.win_chance(20.0) > alone.win_chance(20.0)


def test_at_three_players_or_more_the_rivals_inside_load_up_while_the_seat_stays() -> None:
    # Four players, every figure inside: each rival adds 0.8 points for every round the
    # seat stays beyond heading out now; the heuristic counts none.
    state = _midgame(4, 5, 40)
    view = state.view(0)
    me = _Me(view, 0, LEVELS)
    assert [bar.per_round for bar in me.bars] == [0.8] * 3
    assert [bar.per_round for bar in _Me(view, 0, HEURISTIC).bars] == [0.0] * 3
    # staying two rounds longer is as if each rival were taken to gain 1.6 points more
    # than its share, (2/4)**2, of the rival_gain of 8: a quarter of 8 + 6.4
    later = _Me(view, 0, dataclasses.replace(LEVELS, rival_gain=14.4))
    for value in (10.0, 25.0, 40.0):
        assert me.win_chance(value, 2) == pytest.approx(later.win_chance(value))
        assert me.win_chance(value, 2) < me.win_chance(value)
        assert me.win_chance(value, -1) == me.win_chance(value)  # sooner counts as now
    # a rival out adds nothing more; those inside the same however many they are
    players = [dict(p) for p in view["players"]]
    players[3]["status_id"] = ESCAPED
    three = _Me({**view, "players": players}, 0, LEVELS).bars
    assert [bar.per_round for bar in three] == [0.8, 0.8, 0.0]
    players[2]["status_id"] = ESCAPED
    two = _Me({**view, "players": players}, 0, LEVELS).bars
    assert [bar.per_round for bar in two] == [0.8, 0.0, 0.0]
    # at two players the rival's time is in rival_gain already: nothing more is counted
    duel = _midgame(2, 5, 40).view(0)
    assert [p["status_id"] for p in duel["players"]] == [INSIDE] * 2
    assert [bar.per_round for bar in _Me(duel, 0, LEVELS).bars] == [0.0]
    # and the plan weighs each target at the rounds it costs: some four-player midgame
    # decisions of the heuristic's own matches go elsewhere for it
    unhurried = dataclasses.replace(LEVELS, rival_gain_per_round=0.0)
    changed = 0
    for steps in (20, 27, 111, 146):
        state = _midgame(4, 0, steps)
        seat = state.current_player()
        view = state.view(seat)
        assert view["awaiting_id"] == D_TURN
        changed += _plan(_Me(view, seat, LEVELS)) != _plan(_Me(view, seat, unhurried))
    assert changed


@pytest.mark.parametrize("first", [cp.STAMINA, cp.SWIMMING])
def test_the_adventurer_taken_first_is_the_tunings_when_free(first: int) -> None:
    state = load_game("horus", players=2).new_initial_state()
    window = SeatWindow(state, state.current_player())
    chosen = decide(window, random.Random(0), dataclasses.replace(LEVELS, first_adventurer=first))
    assert chosen == A_SETUP + 2 * first
    # the levels' own order starts with Shoot
    assert decide(window, random.Random(0), LEVELS) == A_SETUP + 2 * cp.SHOOT


def test_the_shipped_tunings_differ_only_where_the_levels_were_tuned() -> None:
    assert Tuning() == HEURISTIC
    levels = dataclasses.replace(
        HEURISTIC, rivals_shut_in=False, rival_gain_sharing=2.0, rival_gain_per_round=0.8
    )
    assert levels == LEVELS
    assert load_game("horus").level_policy() is levels_policy
    assert load_game("horus").heuristic_policy() is policy


def test_estimated_returns_lie_in_range_and_end_as_the_returns() -> None:
    for seed in range(8):
        state = _midgame(2 + seed % 5, seed, 40 + 30 * seed)
        estimate = state.estimate_returns()
        assert len(estimate) == state.n
        assert all(0.0 <= x <= 1.0 for x in estimate)
        assert sum(estimate) <= 1.0 + 1e-9
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(state.rollout_action(rng))
        assert state.estimate_returns() == state.returns()


@pytest.mark.parametrize("players", [2, 3, 6])
def test_seats_still_choosing_their_adventurers_have_their_even_chance(players: int) -> None:
    # Before anyone is placed every seat is alike; once one is in at an exit with nothing,
    # it is judged as the others still choosing are.
    state = load_game("horus", players=players).new_initial_state()
    first = state.estimate_returns()
    assert len(set(first)) == 1 and first[0] > 0.5 / players
    rng = random.Random(players)
    while any(status == UNPLACED for status in state.status):
        placed = state.status.count(UNPLACED)
        state.apply_action(state.rollout_action(rng))
        if state.status.count(UNPLACED) < placed:
            break
    mover = next(q for q in range(players) if state.status[q] != UNPLACED)
    assert state.points(mover) == 0
    assert state.estimate_returns() == pytest.approx(first)


def test_estimated_returns_favour_the_seat_clearly_ahead() -> None:
    state = _turn_of_seat_0(["Anubis treasure (9)", "Horus treasure (10)", "Thoth treasure (8)"])
    state.square[0] = cp.ENTRANCES[0]
    state.square[1] = square(0, 4)
    # A lead of 27 points counts for more and more as the blocks fall (in the heuristic's
    # matches early leads were overtaken), and decides once most of them are down.
    leads = []
    for left in (36, 27, 18, 9):
        state.box = tuple(range(left))
        chances = state.estimate_returns()
        leads.append(chances[0] - chances[1])
    assert leads == sorted(leads) and leads[-1] > 0.9
    state.status = replaced(state.status, 1, SEALED)  # shut in: it can win nothing
    assert state.estimate_returns()[1] == 0.0
    assert state.estimate_returns()[0] > 0.0


def test_the_estimate_counts_the_load_out_and_what_weighs_on_a_raider() -> None:
    state = _turn_of_seat_0(["Anubis treasure (9)", "Horus treasure (10)"])
    state.square[0] = cp.ENTRANCES[0]
    state.square[1] = square(0, 4)
    inside = state.estimate_returns()
    state.apply_action(A_LEAVE)  # out with 19 points and the variety bonus
    out = state.estimate_returns()
    # whoever is out still has a chance while a rival raids on, and all of it once the
    # rival is shut in; and more points out make a better chance
    assert 0.0 < out[0] < 1.0 and 0.0 < out[1] < 1.0
    # with a seat out, somebody wins: the chances are all shared out among the seats
    assert sum(inside) < 1.0 and sum(out) == pytest.approx(1.0)
    state.status = replaced(state.status, 1, SEALED)
    assert state.estimate_returns()[0] > 0.5 and state.estimate_returns()[1] == 0.0
    state.status = replaced(state.status, 1, ESCAPED)
    state.hand[1] = tuple(
        sorted(
            [card("Anubis treasure (9)"), card("Thoth treasure (8)"), card("Horus treasure (10)")]
        )
    )
    assert state.estimate_returns()[1] > state.estimate_returns()[0]
    # a wound weighs on a raider still inside
    fresh = _turn_of_seat_0(["Anubis treasure (9)", "Horus treasure (10)"])
    fresh.square[0] = cp.ENTRANCES[0]
    fresh.square[1] = square(0, 4)
    assert fresh.estimate_returns() == inside
    fresh.hand[0] = tuple(sorted([*fresh.hand[0], card("Scorpion")]))
    assert fresh.estimate_returns()[0] < inside[0]


def test_the_rollout_policy_plays_legal_moves_and_does_not_walk_out_empty_handed() -> None:
    leaves_empty = 0
    for seed in range(30):
        state = _turn_of_seat_0([])
        state.square[0] = cp.ENTRANCES[0]
        a = state.rollout_action(random.Random(seed))
        assert a in state.legal_actions()
        leaves_empty += a == A_LEAVE
    assert leaves_empty <= 3  # only the rollout's bit of noise
    for seed in range(10):
        state = _midgame(3, seed, 30)
        rng = random.Random(seed)
        while not state.is_terminal():
            a = state.rollout_action(rng)
            if state.current_player() >= 0:
                assert a in state.legal_actions()
            state.apply_action(a)
