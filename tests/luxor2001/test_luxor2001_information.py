"""Hidden information in luxor2001: views, tensors, action descriptions, resampling.

Two states that differ only in what a seat cannot see (other hands, other pharaoh cards,
sarcophagus values it never looked at, the order of the draw pile) must give that seat,
and a spectator, the same view and the same tensor; the seat that can see the difference
must see it, so the test could fail. Resampled worlds must look the same to their seat
and play on; seeded play must be deterministic.
"""

from __future__ import annotations

import json
import random

import pytest

from necropolis.engine import CHANCE
from necropolis.engine.frozen import added, replaced
from necropolis.games.luxor2001 import LuxorState, rules
from necropolis.games.luxor2001.components import VALUE_EYES
from tests.luxor2001.luxor2001_support import new_state, play_random, random_step


def midgame(players: int, seed: int, **options: bool) -> LuxorState:
    """A state after random play in which some seat holds a sarcophagus."""
    rng = random.Random(seed)
    state = new_state(players, **options)
    while not (any(state.held) and state.phase == rules.INSERT and state.inserted > 25):
        random_step(state, rng)
        if state.is_terminal():
            rng = random.Random(seed := seed + 1000)
            state = new_state(players, **options)
    return state


def hidden_twin(state: LuxorState, seat: int) -> LuxorState:
    """Change everything ``seat`` cannot see, keeping what it can."""
    twin = state.clone()
    other = next(s for s in range(state.n) if s != seat and twin.hands[s])
    # Swap a card of another hand with one of the pile.
    a, b = twin.hands[other][0], twin.pile[-1]
    twin.hands[other] = replaced(twin.hands[other], 0, b)
    twin.pile[-1] = a
    twin.pile.sort()
    # Another seat's pharaoh card becomes a free animal.
    taken = set(twin.pharaoh)
    twin.pharaoh = replaced(twin.pharaoh, other, next(x for x in range(7) if x not in taken))
    # Sarcophagus values ``seat`` never saw change within their eye count.
    for s in range(state.n):
        for i, code in enumerate(twin.held[s]):
            if code >> 3 & (1 << seat):
                continue
            v = code & 7
            for w in range(7):
                if w != v and VALUE_EYES[w] == VALUE_EYES[v] and twin.value_pool[w]:
                    twin.value_pool = added(added(twin.value_pool, w, -1), v, 1)
                    twin.held = replaced(twin.held, s, replaced(twin.held[s], i, (code & ~7) | w))
                    break
    return twin


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("curse", [False, True])
def test_views_hide_what_a_seat_cannot_see(players: int, curse: bool) -> None:
    game = new_state(players, curse=curse).game
    for seed in range(4):
        state = midgame(players, seed, curse=curse)
        holder = next(s for s in range(players) if state.held[s])
        for seat in [*range(players), None]:
            if seat is None:
                twin = hidden_twin(hidden_twin(state, holder), (holder + 1) % players)
            else:
                twin = hidden_twin(state, seat)
            assert twin.view(seat) == state.view(seat)
            assert game.encode_view(twin.view(seat)) == game.encode_view(state.view(seat))
        # The seat whose hand was swapped sees the change: the comparison can fail.
        probe = (holder + 1) % players
        changed = next(s for s in range(players) if s != probe and state.hands[s])
        assert hidden_twin(state, probe).view(changed) != state.view(changed)


def test_own_secrets_are_shown_and_others_are_not() -> None:
    state = midgame(3, 1)
    holder = next(s for s in range(3) if state.held[s])
    mine = state.view(holder)
    assert mine["hand"] == sorted(state.hands[holder])
    assert all(points is not None for _, points in mine["sarcophagi"][holder])
    assert mine["pharaoh"] is not None and mine["pharaohs"] is None
    spectator = state.view(None)
    assert spectator["hand"] is None and spectator["pharaoh"] is None
    assert all(points is None for entries in spectator["sarcophagi"] for _, points in entries)
    text = json.dumps(spectator)
    assert "legal_actions" in spectator and spectator["legal_actions"] == []
    assert json.loads(text) == spectator


def test_descriptions_hide_draws_and_values() -> None:
    rng = random.Random(3)
    state = new_state(2)
    seen_draw = seen_open = False
    while not state.is_terminal():
        if state.phase == rules.DRAW:
            action = state.chance_outcomes()[0][0]
            mover = state.player
            assert state.describe_action(action, 1 - mover) == f"seat {mover} draws a card"
            assert state.describe_action(action, None) == f"seat {mover} draws a card"
            assert state.describe_action(action, mover) == state.action_to_string(action)
            seen_draw = True
        if state.phase == rules.OPEN:
            action = state.chance_outcomes()[0][0]
            text = state.describe_action(action, None)
            assert "worth" not in text and "sarcophagus" in text
            assert "worth" in state.describe_action(action, state.open_for)
            seen_open = True
        random_step(state, rng)
    assert seen_draw and seen_open


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "options", [{}, {"curse": True}, {"sphinx": True}], ids=["base", "curse", "sphinx"]
)
def test_resample_matches_the_view_and_plays_on(players: int, options: dict[str, bool]) -> None:
    rng = random.Random(players)
    game = new_state(players, **options).game
    for _ in range(3):
        state = new_state(players, **options)
        step = 0
        while not state.is_terminal():
            if step % 7 == 0:
                for seat in range(players):
                    world = state.resample(seat, rng)
                    assert world.view(seat) == state.view(seat)
                    assert game.encode_view(world.view(seat)) == game.encode_view(state.view(seat))
                    assert world.current_player() == state.current_player()
                    if step % 35 == 0:
                        play_random(world, random.Random(step))
            random_step(state, rng)
            step += 1


def test_resample_changes_hidden_things() -> None:
    state = midgame(4, 2)
    rng = random.Random(0)
    worlds = [state.resample(0, rng) for _ in range(20)]
    assert any(w.hands[1] != state.hands[1] for w in worlds)
    assert any(w.pharaoh[1:] != state.pharaoh[1:] for w in worlds)
    assert all(w.hands[0] == state.hands[0] and w.pharaoh[0] == state.pharaoh[0] for w in worlds)


def test_seeded_play_is_deterministic() -> None:
    def run(seed: int) -> tuple[list[int], list[float]]:
        state = new_state(3, curse=True)
        rng = random.Random(seed)
        while not state.is_terminal():
            random.random()  # stir the global generator: the game must not use it
            random_step(state, rng)
        return state.history(), state.scores()

    assert run(11) == run(11)
    assert run(11) != run(12)


def test_clones_are_independent() -> None:
    state = midgame(2, 5)
    copy = state.clone()
    before = state.view(None)
    random_step(copy, random.Random(1))
    while copy.current_player() == CHANCE:
        random_step(copy, random.Random(2))
    assert state.view(None) == before


def test_tensor_has_fixed_size_in_unit_range() -> None:
    rng = random.Random(9)
    state = new_state(4, curse=True, sphinx=True)
    game = state.game
    while not state.is_terminal():
        for seat in (0, None):
            vec = game.encode_view(state.view(seat))
            assert len(vec) == game.observation_size()
            assert all(0.0 <= x <= 1.0 for x in vec)
        random_step(state, rng)


def test_action_strings_unique_and_rendering() -> None:
    rng = random.Random(4)
    state = new_state(3, curse=True)
    game = state.game
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = sorted({a for s in state.acting_seats() for a in state.legal_actions(s)})
        texts = [state.action_to_string(a) for a in actions]
        assert len(set(texts)) == len(texts)
        if state.current_player() >= 0:
            a = actions[0]
            assert state.string_to_action(texts[0]) == a
        random_step(state, rng)
    board = game.render_view(state.view(0))
    assert "pillar" in board and "pts" in board and "CAM" in board


def test_resample_depends_only_on_the_view() -> None:
    for seed in range(4):
        state = midgame(3, seed, curse=True)
        for seat in range(3):
            twin = hidden_twin(state, seat)
            a = state.resample(seat, random.Random(seed))
            b = twin.resample(seat, random.Random(seed))
            assert (a.hands, a.pile, a.pharaoh, a.held, a.value_pool) == (
                b.hands,
                b.pile,
                b.pharaoh,
                b.held,
                b.value_pool,
            )
