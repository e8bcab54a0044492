"""Shared helpers for the luxor2001 tests: random play, forced chance, prepared positions.

Random play picks decisions and chance outcomes from a seeded generator. ``force`` plays
a chosen chance outcome or decision through the public protocol. ``prepared`` builds a
position by setting fields, for rulebook examples that need a wall the protocol would take
dozens of steps to build; each caller names the rulebook passage it reproduces.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from necropolis.engine import CHANCE, sample_chance
from necropolis.engine.frozen import added, replaced
from necropolis.games import load_game
from necropolis.games.luxor2001 import LuxorState, rules
from necropolis.games.luxor2001.components import (
    ANIMALS,
    CARDS,
    CH_BACK,
    CH_CARD,
    CH_PHARAOH,
    INSERT_BASE,
    NUM_ANIMALS,
    SHAFTS,
)

A = {name: i for i, name in enumerate(ANIMALS)}


def new_state(players: int = 2, **options: bool) -> LuxorState:
    state = load_game("luxor2001", players=players, **options).new_initial_state()
    assert isinstance(state, LuxorState)
    return state


def random_step(state: LuxorState, rng: random.Random) -> int:
    seat = state.current_player()
    action = sample_chance(state, rng) if seat == CHANCE else rng.choice(state.legal_actions(seat))
    state.apply_action(action)
    return action


def play_random(state: LuxorState, rng: random.Random) -> int:
    steps = 0
    while not state.is_terminal():
        random_step(state, rng)
        steps += 1
    return steps


def card_of(top: str, bottom: str) -> int:
    """The card showing ``top`` over ``bottom`` (every ordered pair exists once)."""
    t, b = A[top], A[bottom]
    return next(i for i, c in enumerate(CARDS) if c[0] == t and c[2] == b)


def setup(
    state: LuxorState,
    pharaohs: Iterable[str],
    hands: Iterable[Iterable[int]],
    back: int | None = 0,
) -> None:
    """Play the setup chance events: these pharaoh cards, then deal these hands.

    In the curse variant the second pile's top card then shows its back: ``back`` 0 a
    hieroglyph, 1 a curse, ``None`` to leave that chance event pending.
    """
    for name in pharaohs:
        state.apply_action(CH_PHARAOH + A[name])
    dealt = [list(h) for h in hands]
    for k in range(3 * state.n):
        state.apply_action(CH_CARD + dealt[k % state.n][k // state.n])
    if state.curse:
        assert state.phase == rules.BACK
        if back is None:
            return
        state.apply_action(CH_BACK + back)
    assert state.phase == rules.INSERT


def insert(state: LuxorState, card: int, shaft: int) -> None:
    """Insert ``card`` into ``shaft`` (1-based, as the strings say)."""
    state.apply_action(INSERT_BASE + card * SHAFTS + shaft - 1)


def put(state: LuxorState, shaft: int, top: tuple[str, int], bottom: tuple[str, int]) -> None:
    """Prepared position: stack a card (animal, facing) pair into ``shaft`` (1-based)."""
    level = state.heights[shaft - 1]
    cell = 2 * level * SHAFTS + shaft - 1
    state.wall[cell] = A[bottom[0]] * 2 + bottom[1]
    state.wall[cell + SHAFTS] = A[top[0]] * 2 + top[1]
    state.heights[shaft - 1] = level + 1
    state.inserted += 1


def cell(row: int, shaft: int) -> int:
    """Cell index of ``row`` (1 = bottom) and ``shaft`` (1-based)."""
    return (row - 1) * SHAFTS + shaft - 1


def pillar(name: str) -> int:
    assert 0 <= A[name] < NUM_ANIMALS
    return A[name]


def card_where(
    top: str | None = None,
    top_facing: int | None = None,
    bottom: str | None = None,
    bottom_facing: int | None = None,
    avoid: Iterable[str] = (),
    used: Iterable[int] = (),
) -> int:
    """The first card matching the constraints, with neither half an ``avoid`` animal."""
    banned = {A[x] for x in avoid}
    taken = set(used)
    for i, (t, tf, b, bf) in enumerate(CARDS):
        if i in taken or t == b:
            continue
        if top is not None and t != A[top]:
            continue
        if bottom is not None and b != A[bottom]:
            continue
        if (top is None and t in banned) or (bottom is None and b in banned):
            continue
        if top_facing is not None and tf != top_facing:
            continue
        if bottom_facing is not None and bf != bottom_facing:
            continue
        return i
    raise AssertionError("no such card")


def facing_of(card: int, half: str) -> int:
    return CARDS[card][1] if half == "top" else CARDS[card][3]


def started(
    players: int,
    hands: list[list[int]],
    pharaohs: list[str] | None = None,
    back: int | None = 0,
    **options: bool,
) -> LuxorState:
    """A match whose setup dealt these pharaoh cards and hands, seat 0 to insert."""
    state = new_state(players, **options)
    setup(state, pharaohs or list(ANIMALS[:players]), hands, back)
    return state


def draw_filler(state: LuxorState) -> None:
    """Resolve a draw with the lowest card left in the pile (a card no test cares about)."""
    assert state.current_player() == CHANCE and state.phase == rules.DRAW
    state.apply_action(state.chance_outcomes()[0][0])


def place(state: LuxorState, card: int, shaft: int) -> None:
    """Prepared position: ``card`` already stands in ``shaft`` (1-based), scored long ago."""
    state.pile.remove(card)
    level = state.heights[shaft - 1]
    bottom = 2 * level * SHAFTS + shaft - 1
    t, tf, b, bf = CARDS[card]
    state.wall[bottom] = b * 2 + bf
    state.wall[bottom + SHAFTS] = t * 2 + tf
    state.heights[shaft - 1] = level + 1
    state.inserted += 1


def station(state: LuxorState, animal: str, seat: int, scarabs: int = 0) -> None:
    """Prepared position: ``seat``'s researcher (and ``scarabs``) at ``animal``'s pillar."""
    a = A[animal]
    assert state.occupant[a] == -1
    state.occupant = replaced(state.occupant, a, seat)
    state.res_supply = added(state.res_supply, seat, -1)
    state.scarabs[a] = scarabs
    state.scarab_supply -= scarabs


def logged(state: LuxorState, action: int, viewer: int | None = 0) -> list[dict[str, Any]]:
    """Apply ``action`` and return the log entries it made for ``viewer``."""
    before = state.clone()
    state.apply_action(action)
    return state.narrate(before, action, viewer)


def events(entries: list[dict[str, Any]]) -> list[tuple[str, int | None, dict[str, Any]]]:
    """``(kind, seat, params)`` of each entry; card and cell ids left out for brevity."""
    skip = {"cells", "card", "top", "top_facing", "bottom", "bottom_facing"}
    return [
        (e["kind"], e["seat"], {k: v for k, v in e["params"].items() if k not in skip})
        for e in entries
    ]
