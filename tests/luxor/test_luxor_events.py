"""Luxor's rules emit what happened as the rulebook tells it, once, as typed events.

The rulebook's examples (pages 5 to 7) replayed with ``apply_events``: each step an
adventurer takes, the Osiris tile that carries it on, the statue it passes, the chamber it
enters, each in order; a scarab's value goes to its taker alone.
"""

from __future__ import annotations

from necropolis.engine.events import Event, seen_by
from necropolis.games.luxor import events as ev
from necropolis.games.luxor import rules
from necropolis.games.luxor.components import BURIAL_CHAMBER, DIE, ONE, SCARAB, TWO
from tests.luxor.luxor_support import (
    chamber_example,
    chance,
    deck_origin,
    put_adventurers,
    put_hand,
    put_temple_tile,
    start,
)


def test_a_walk_past_a_statue_wakes_its_adventurer() -> None:
    # Page 5: a 5 rolled; the walk from field 7 crosses the Osiris tile on 9 (a step like
    # any tile) and passes statue 1 (after field 10): its adventurer stands up.
    st = start()
    put_adventurers(st, 0, {0: 1, 7: 1})
    put_hand(st, 0, [DIE, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    assert st.apply_events(rules.PLAY_LEFT) == [ev.CardPlayed(0, DIE, 0, False)]
    assert st.apply_events(4) == [ev.DieRolled(0, 5)]
    happened = st.apply_events(rules.MOVE_FROM + 7)
    assert happened[:2] == [ev.Moved(0, 7, 5, 12), ev.Woke(0, 0)]


def test_an_osiris_tile_carries_on_and_the_scarab_stays_its_takers_secret() -> None:
    # Page 6: two tiles from field 7 end on the Osiris tile of 3 on field 9, which carries
    # the adventurer on to field 12 (waking statue 1's), where the scarab tile lies.
    st = start(osiris=(3, 2, 1, 4))
    put_temple_tile(st, 12, SCARAB)
    put_adventurers(st, 0, {0: 1, 7: 1})
    put_hand(st, 0, [TWO, ONE, ONE, ONE, ONE], [deck_origin(st)] * 5)
    st.apply_action(rules.PLAY_LEFT)
    assert st.apply_events(rules.MOVE_FROM + 7) == [
        ev.Moved(0, 7, 2, 9),
        ev.OsirisPush(0, 9, 12),
        ev.Woke(0, 0),
    ]
    happened = st.apply_events(2)  # the scarab worth 3
    assert happened == [ev.ScarabTaken(0, 2)]
    assert seen_by(happened, 0) == [ev.ScarabTaken(0, 2)]
    assert seen_by(happened, 1) == seen_by(happened, None) == [ev.ScarabTaken(0, None)]


def test_entering_the_chamber_wins_the_sarcophagus_left_and_makes_the_round_the_last() -> None:
    # Page 7: a "2" from field 40 ends exactly in the burial chamber, a key handed in; the
    # 5-point sarcophagus is gone, so the 3-point one is won, and with the second entry
    # this round is the last. At the end every score is told part by part.
    st = chamber_example()
    st.apply_action(rules.PLAY_LEFT)
    assert st.apply_events(rules.MOVE_FROM + 40) == [
        ev.Moved(0, 40, 2, BURIAL_CHAMBER),
        ev.ChamberEntered(0, 2, 3, True),
    ]
    chance(st, ONE)
    happened: list[Event] = []
    while not st.is_terminal():
        action = st.legal_actions()[0] if st.current_player() >= 0 else st.chance_outcomes()[0][0]
        happened = st.apply_events(action)
    assert st.final is not None
    assert isinstance(happened[-1], ev.Won)
    over = [e for e in happened if isinstance(e, ev.MatchOver)]
    assert over == [ev.MatchOver(ev.ENDED, 1)]
    scores = [e for e in happened if isinstance(e, ev.FinalScore)]
    assert [(e.seat, e.sarcophagi, e.total) for e in scores] == [
        (s, row[2], row[6]) for s, row in enumerate(st.final)
    ]
