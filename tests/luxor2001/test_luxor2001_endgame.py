"""The end of a luxor2001 match: full wall, final scarab moves, scoring and tie-break.

The rulebook's end-of-game example is replayed: seat 0 holds the camel pillar (a 2-eye
sarcophagus on top, one scarab) and the snake pillar (a 3-eye sarcophagus, two scarabs);
moving the camel's scarab to the snake opens the 3-eye sarcophagus. The wall's first 39
cards are a prepared position; the 40th is inserted through the protocol.
"""

from __future__ import annotations

import random

from necropolis.engine import CHANCE
from necropolis.engine.frozen import added, replaced
from necropolis.games.luxor2001 import LuxorState, rules
from necropolis.games.luxor2001.components import (
    CH_VALUE,
    DONE,
    INSERT_BASE,
    MOVE_BASE,
    SARCOPHAGUS_VALUES,
)
from tests.luxor2001.luxor2001_support import (
    A,
    card_of,
    events,
    insert,
    logged,
    new_state,
    place,
    random_step,
    started,
    station,
)

LAST = card_of("mule", "hippopotamus")
CAMEL, SNAKE = A["camel"], A["snake"]


def value(eyes: int, points: int) -> int:
    return SARCOPHAGUS_VALUES.index((eyes, points))


def give(state: LuxorState, seat: int, eyes: int, points: int) -> None:
    """Prepared: ``seat`` opened such a sarcophagus earlier in the match."""
    v = value(eyes, points)
    state.value_pool = added(state.value_pool, v, -1)
    state.held = replaced(state.held, seat, (*state.held[seat], v | (1 << seat) << 3))


def end_game_example() -> LuxorState:
    hands = [
        [LAST, card_of("mule", "cat"), card_of("mule", "ibis")],
        [card_of("cat", "mule"), card_of("ibis", "mule"), card_of("snake", "mule")],
    ]
    state = started(2, hands, pharaohs=["camel", "snake"])
    # Prepared: 39 cards stand in the wall; the ones around the last free place (shaft 8,
    # rows 9-10) show neither mules nor hippos ...
    tops = {7: [card_of("cat", "ibis"), card_of("ibis", "cat")], 8: [card_of("crocodile", "snake")]}
    reserved = {c for cards in tops.values() for c in cards}
    for shaft in range(1, 9):
        wanted = 5 if shaft < 8 else 4
        while state.heights[shaft - 1] < wanted - len(tops.get(shaft, [])):
            place(state, next(c for c in state.pile if c not in reserved), shaft)
        for card in tops.get(shaft, []):
            place(state, card, shaft)
    assert state.inserted == 39 and state.heights[7] == 4
    # ... seat 0's researchers at the camel pillar (2-eye sarcophagus on top, one scarab)
    # and the snake pillar (3-eye sarcophagus, two scarabs), as the example describes; the
    # sarcophagi already taken from them went to seat 1 earlier.
    station(state, "camel", 0, scarabs=1)
    station(state, "snake", 0, scarabs=2)
    state.stack = replaced(replaced(state.stack, CAMEL, 2), SNAKE, 1)
    give(state, 1, 1, 3)
    give(state, 1, 1, 4)
    give(state, 1, 2, 5)
    return state


def test_the_wall_fills_and_the_final_scarab_moves_begin() -> None:
    state = end_game_example()
    neighbours = [state.wall[c] >> 1 for c in (62, 63, 70, 78)]
    assert A["mule"] not in neighbours and A["hippopotamus"] not in neighbours
    entries = logged(state, INSERT_BASE + LAST * 8 + 7)
    assert not state.tokens and state.inserted == 40
    # No draw after the last card; seat 1 holds no pillar, so it has nothing to move.
    assert state.phase == rules.FINAL and state.current_player() == 0
    assert events(entries)[1:] == [
        ("final_moves_begin", None, {"first_seat": 1}),
        ("no_scarab_moves", 1, {}),
    ]
    prompt = state.prompt(0)
    assert prompt is not None and prompt["kind"] == "prompt_final"
    assert state.prompt(1) is None
    move_camel_snake = MOVE_BASE + CAMEL * 7 + SNAKE
    move_snake_camel = MOVE_BASE + SNAKE * 7 + CAMEL
    assert state.legal_actions() == [move_camel_snake, move_snake_camel, DONE]
    assert state.action_to_string(move_camel_snake) == (
        "move a scarab from the camel pillar to the snake pillar"
    )
    # The move that makes three says so: it opens the snake's 3-eye sarcophagus.
    info = state.action_info(move_camel_snake)
    assert (info["kind"], info["params"]) == (
        "move_scarab_opens",
        {"from_animal": "camel", "animal": "snake", "eyes": 3},
    )
    assert info["targets"] == [f"pillar:{CAMEL}", f"pillar:{SNAKE}"]
    assert state.action_info(move_snake_camel)["kind"] == "move_scarab"
    assert state.action_info(DONE)["kind"] == "stop_moving"
    other = state.clone()
    entries = logged(state, move_camel_snake)
    assert events(entries) == [
        ("scarab_moved", 0, {"from_animal": "camel", "animal": "snake"}),
    ]
    assert state.phase == rules.OPEN and state.open_for == 0
    three_eyed = sorted(a - CH_VALUE for a, _ in state.chance_outcomes())
    assert [SARCOPHAGUS_VALUES[v][0] for v in three_eyed] == [3, 3, 3]
    entries = logged(state, CH_VALUE + value(3, 10), 1)
    assert state.is_terminal()
    # Seat 1 does not see the value when it opens; the end shows everything.
    assert events(entries) == [
        ("sarcophagus_opened_hidden", 0, {"animal": "snake", "eyes": 3}),
        ("no_more_scarab_moves", 0, {}),
        ("match_over", None, {}),
        ("sarcophagi_shown", 0, {"count": 1, "values": [10]}),
        ("pharaoh_bonus", 0, {"animal": "camel", "points": 7}),
        ("sarcophagi_shown", 1, {"count": 3, "values": [3, 4, 5]}),
        ("pharaoh_no_bonus", 1, {"animal": "snake"}),
        ("final_score", 0, {"points": 17, "sarcophagi": 1}),
        ("final_score", 1, {"points": 12, "sarcophagi": 3}),
        ("match_won", 0, {}),
    ]
    assert entries[-1]["text"] == "Player 1 won the match"
    breakdown = state.score_breakdown()
    assert [[(p["kind"], p["points"]) for p in b["parts"]] for b in breakdown] == [
        [("part_sarcophagus", 10), ("part_pharaoh_bonus", 7)],
        [
            ("part_sarcophagus", 3),
            ("part_sarcophagus", 4),
            ("part_sarcophagus", 5),
            ("part_pharaoh_none", 0),
        ],
    ]
    assert [b["total"] for b in breakdown] == [17, 12]
    assert [b["tiebreak"][0]["value"] for b in breakdown] == [1, 3]
    assert state.scarabs[SNAKE] == 0 and state.scarabs[CAMEL] == 0
    assert state.scarab_supply == 16
    # Seat 0: 10 points plus the pharaoh bonus (camel card, researcher at the camel);
    # seat 1's pharaoh card is the snake, whose pillar holds seat 0's researcher: no bonus.
    assert state.scores() == [17.0, 12.0]
    assert state.returns() == [1.0, 0.0]
    view = state.view(None)
    assert view["scores"] == [17.0, 12.0] and view["pharaohs"] == ["camel", "snake"]
    # The other way round opens the 2-eye sarcophagus, which is worth less.
    other.apply_action(move_snake_camel)
    assert other.legal_actions() == [move_snake_camel, DONE]  # the camel now only receives
    other.apply_action(move_snake_camel)
    assert other.phase == rules.OPEN
    assert {SARCOPHAGUS_VALUES[a - CH_VALUE][0] for a, _ in other.chance_outcomes()} == {2}


def test_stopping_early_keeps_the_scarabs() -> None:
    state = end_game_example()
    insert(state, LAST, 8)
    entries = logged(state, DONE)
    assert state.is_terminal()
    assert events(entries)[:2] == [("stopped_moving", 0, {}), ("match_over", None, {})]
    assert events(entries)[-1] == ("match_won", 1, {})
    assert state.scarabs[CAMEL] == 1 and state.scarabs[SNAKE] == 2
    assert state.scores() == [7.0, 12.0]
    assert state.returns() == [0.0, 1.0]


def test_tie_goes_to_more_sarcophagi() -> None:
    state = end_game_example()
    insert(state, LAST, 8)
    state.apply_action(DONE)
    assert state.is_terminal()
    # Prepared final holdings: 17 points each (seat 0 with its pharaoh bonus), seat 1
    # holding more sarcophagi.
    state.held = ((value(3, 10),), (value(1, 3), value(1, 4), value(2, 5), value(2, 5)))
    assert state.scores() == [17.0, 17.0]
    assert state.returns() == [0.0, 1.0]
    # Equal points and equal counts: the win is shared.
    state.occupant = replaced(state.occupant, CAMEL, -1)  # prepared: no pharaoh bonus
    state.held = (
        (value(3, 8), value(1, 3), value(1, 4), value(1, 4)),
        (value(3, 8), value(2, 5), value(1, 3), value(1, 3)),
    )
    assert state.scores() == [19.0, 19.0]
    assert state.returns() == [0.5, 0.5]


def test_the_draw_pile_runs_dry_and_play_goes_on_from_the_hands() -> None:
    rng = random.Random(7)
    state = new_state(4)
    went_dry = False
    while not state.is_terminal():
        if state.phase == rules.INSERT and not state.pile:
            went_dry = True
            seat = state.current_player()
            size = len(state.hands[seat])
            random_step(state, rng)
            while state.current_player() == CHANCE or state.current_player() == seat:
                if state.is_terminal() or state.phase == rules.FINAL:
                    break
                assert state.phase != rules.DRAW
                random_step(state, rng)
            assert len(state.hands[seat]) == size - 1
        else:
            random_step(state, rng)
    assert went_dry
    assert sum(len(h) for h in state.hands) == 49 - 40
