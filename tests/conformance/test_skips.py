"""Every game: the decision a timed table plays for a seat out of time under the rule
"skip" (``State.skip_action``) is one of the seat's legal decisions, and exists only in
a game whose rules let a player give up a turn (``skips_turns``).

Horus's rulebook lets a player leave actions unused, keep their cards in phase 1 and give
up a lock: "done" is its skip wherever it is offered, and nowhere else (a jump, making
room, the set-up must be decided). luxor2001's rules allow no passing, and luxor's turn
always plays a card: they have none.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import necropolis
from necropolis.engine import CHANCE
from necropolis.engine.driver import sample_chance
from necropolis.engine.protocol import State
from necropolis.games.horus.codes import A_DONE
from tests.conformance.test_protocol_conformance import CONFIGS


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_skip_actions_are_legal_and_only_where_the_rules_allow_them(
    game_id: str, options: dict[str, Any]
) -> None:
    game = necropolis.load_game(game_id, **options)
    rng = random.Random(7)
    state: State = game.new_initial_state()
    skips = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(sample_chance(state, rng))
            continue
        legal = state.legal_actions(seat)
        skip = state.skip_action(seat)
        if skip is not None:
            assert type(game).skips_turns, skip
            assert skip in legal, (skip, legal)
            skips += 1
        if game_id == "horus":
            # "done" is the skip exactly where it is offered.
            assert (skip == A_DONE) == (A_DONE in legal), (skip, legal)
        for other in range(game.num_players):
            if other not in state.acting_seats():
                assert state.skip_action(other) is None
        state.apply_action(legal[rng.randrange(len(legal))])
    assert (skips > 0) == (game_id == "horus")
