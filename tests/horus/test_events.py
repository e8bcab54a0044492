"""The Pyramid of Horus's rules emit what happened as the rulebook tells it, as typed events.

The rulebook's examples replayed with ``apply_events``: the cards a search draws (shown
briefly to all, or under total secrecy to the finder alone), a mummy's walk and the wound
it deals naming that mummy, a block falling and sealing adventurers in.
"""

from __future__ import annotations

from necropolis.engine.events import Event, seen_by
from necropolis.games.horus import components as cp
from necropolis.games.horus import events as ev
from necropolis.games.horus.codes import INSIDE, SEALED
from necropolis.games.horus.state import HorusState
from tests.horus.helpers import (
    CHANTAL,
    DAVID,
    block_15_example,
    card,
    end_turns,
    keep_all,
    roll,
    square,
    start,
)


def _decide(state: HorusState, text: str) -> list[Event]:
    return state.apply_events(state.string_to_action(text))


def test_a_search_draws_a_card_shown_to_all_and_a_snake_wounds() -> None:
    # 'Search' in the Cobra Nest: the cards drawn are shown briefly to the table.
    state = start([DAVID, CHANTAL])
    state.square[0] = square(7, 4)
    keep_all(state)
    roll(state, [4, 4, 4, 4, 1])
    assert _decide(state, "seat 0 searches") == [ev.Decided(0), ev.Searched(0, square(7, 4))]
    snake = card("Snake")
    happened = state.apply_events(snake)
    assert happened == [
        ev.CardFound(0, snake, cp.RUBBLE, False),
        ev.CardGained(0, snake, False, ()),
    ]
    assert seen_by(happened, 1) == happened  # under the normal rules all see it


def test_under_total_secrecy_a_card_drawn_is_its_finders_alone() -> None:
    state = start([DAVID, CHANTAL], total_secrecy=True)
    state.square[0] = square(7, 4)
    keep_all(state)
    roll(state, [4, 4, 4, 4, 1])
    _decide(state, "seat 0 searches")
    snake = card("Snake")
    happened = state.apply_events(snake)
    assert seen_by(happened, 0) == happened
    assert (
        seen_by(happened, 1) == seen_by(happened, None) == [ev.CardFound(0, None, cp.RUBBLE, True)]
    )


def test_a_mummy_walks_and_its_touch_is_told_as_that_mummys_wound() -> None:
    # 'Imhotep turns at the wall' (three dice of four or more), with David standing on
    # the square Imhotep walks through first.
    state = start([DAVID, CHANTAL])
    keep_all(state)
    roll(state, [1, 1, 1, 1, 1])
    end_turns(state)
    imhotep = cp.MUMMY_NAMES.index("Imhotep")
    state.square[0] = square(5, 9)
    happened: list[Event] = []
    for face in [4, 6, 5, 1, 3]:
        happened = state.apply_events(face - 1)
    walks = [e for e in happened if isinstance(e, ev.MummyWalked)]
    assert (
        ev.MummyWalked(
            imhotep,
            -1,
            cp.SECTION_NAMES.index("thoth"),
            (
                square(5, 9),
                square(6, 9),
                square(5, 9),
            ),
            False,
        )
        in walks
    )
    touched = [e for e in happened if isinstance(e, ev.MummyTouch) and e.seat == 0]
    assert touched == [ev.MummyTouch(0, imhotep, -1)] * 2  # there, and again on the way back
    gained = [e for e in happened if isinstance(e, ev.CardGained) and e.seat == 0]
    assert [e.card for e in gained] == [cp.MUMMY_WOUND] * 2
    told = state.narrate_events(0, happened, 1, -1)
    assert [e["text"] for e in told if e["kind"] == "touched_by_mummy"] == [
        "Imhotep touched Player 1: a wound"
    ] * 2


def test_a_block_falls_and_seals_adventurers_in() -> None:
    # 'Block 15 seals the Cobra Nest': David inside it, the others out in the pit and pond.
    state = block_15_example()
    happened = state.apply_events(15 - 1)
    assert state.status == (INSIDE, SEALED, SEALED)
    assert happened[:3] == [ev.BlockFell(14), ev.Sealed(1), ev.Sealed(2)]
