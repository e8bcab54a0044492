"""Every game: what a seat may take back (``State.reveals``) never hides a reveal.

A table lets a seat take back its own decisions until something is revealed to it (Board
Game Arena's rule: never across a reveal). The kernel says a decision reveals when the
move passes to chance or another seat, when the match ends, inside a race of several
seats, or when the game declares that the decision shows its seat something hidden.
The games' declarations are checked here against ``resample``: for a decision said to
reveal nothing, every world consistent with the seat's view before it gives the seat the
same view after it as the true match does. Were a game to under-declare (a decision that
looks at a hidden card while the same seat plays on), some world would disagree.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import necropolis
from necropolis.engine import CHANCE
from necropolis.engine.driver import sample_chance
from necropolis.engine.protocol import State
from tests.conformance.test_protocol_conformance import CONFIGS
from tests.engine.toy import KEEP, REDRAW, HighCard
from tests.luxor2001.test_luxor2001_variants import cursed, reveal_curse

#: Worlds drawn per decision said to reveal nothing.
WORLDS = 4


def _walk(game_id: str, options: dict[str, Any], seed: int, matches: int) -> tuple[int, int]:
    """Random matches; every decision said to reveal nothing is checked against worlds.

    Returns (decisions kept in hand, decisions that reveal)."""
    game = necropolis.load_game(game_id, **options)
    rng = random.Random(seed)
    kept = revealing = 0
    for _ in range(matches):
        state: State = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            legal = state.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            after = state.clone()
            after.apply_action(action)
            if state.reveals(action, after):
                revealing += 1
            else:
                kept += 1
                # The same seat acts alone next and the match goes on.
                assert after.acting_seats() == (seat,) and not after.is_terminal()
                seen = after.view(seat)
                for k in range(WORLDS):
                    world = state.resample(seat, random.Random(k))
                    world.apply_action(action)
                    assert world.view(seat) == seen, (
                        f"{game_id}: {state.action_to_string(action)} at move "
                        f"{state.move_number()} shows seat {seat} something hidden"
                    )
            state = after
    return kept, revealing


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_a_decision_kept_in_hand_shows_its_seat_nothing_hidden(
    game_id: str, options: dict[str, Any]
) -> None:
    kept, revealing = _walk(game_id, options, seed=11 + options["players"], matches=2)
    assert revealing > 0
    # Each game has turns of several decisions that a seat may take back.
    assert kept > 0, f"{game_id}: no decision may ever be taken back"


@pytest.mark.parametrize("game_id", ["horus", "luxor", "luxor2001"])
def test_the_default_and_the_declared_reveals(game_id: str) -> None:
    """The kernel's default takes nothing back; each game declares its looks at hidden
    things, which reveal even when the same seat plays on."""
    toy = HighCard().new_initial_state()
    assert toy._shows_hidden(KEEP) and toy._shows_hidden(REDRAW)
    assert not toy.forfeits(KEEP)
    game = necropolis.load_game(game_id)
    declared = {
        "horus": {20, 24},  # search; open a sarcophagus
        "luxor": {52, 53, 54, 55, 56},  # a Horus card of each level, a scarab, a wild card
        "luxor2001": set(),
    }[game_id]
    probe = game.new_initial_state()
    for action in declared:
        assert probe._shows_hidden(action), action
    for action in range(game.num_distinct_actions()):
        if action not in declared and game_id != "horus":
            assert not probe._shows_hidden(action), action


def test_the_curse_race_is_never_kept_in_hand() -> None:
    """A claim or a pass in luxor2001's curse window reveals (other seats race on it),
    and so does the insert that turns the curse up."""
    state = cursed(3)
    # Seat 0 inserts a card and draws: the curse card turns up.
    assert all(state.reveals(a) for a in state.legal_actions())
    reveal_curse(state)
    assert len(state.acting_seats()) == 3
    for seat in state.acting_seats():
        for action in state.legal_actions(seat):
            assert state.reveals(action)


def test_horus_asks_before_leaving_or_giving_up_actions() -> None:
    game = necropolis.load_game("horus", players=2)
    rng = random.Random(4)
    state = game.new_initial_state()
    seen: set[str] = set()
    while not state.is_terminal() and not {"do_leave", "do_end_turn_early"} <= seen:
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(sample_chance(state, rng))
            continue
        for action in state.legal_actions(seat):
            kind = state.action_info(action)["kind"]
            assert state.forfeits(action) == (kind in ("do_leave", "do_end_turn_early")), kind
            seen.add(kind)
        legal = state.legal_actions(seat)
        state.apply_action(legal[rng.randrange(len(legal))])
    assert {"do_leave", "do_end_turn_early"} <= seen
