"""Helpers for the Pyramid of Horus tests: playing out, choosing outcomes, counting cards.

Tests build positions through the public protocol (``apply_action``), picking chance
outcomes and decisions by their text or id; where a rulebook example needs a prepared
position, a test sets fields directly and names the passage it prepares.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

import necropolis
from necropolis.engine import CHANCE
from necropolis.engine.driver import sample_chance
from necropolis.engine.frozen import added, removed, replaced
from necropolis.games.horus import components as cp
from necropolis.games.horus.state import HorusState


def new_state(players: int = 3, **options: object) -> HorusState:
    state = necropolis.load_game("horus", players=players, **options).new_initial_state()
    assert isinstance(state, HorusState)
    return state


def setup(state: HorusState, adventurers: list[int], entrance: int = 0) -> None:
    """Each seat in turn takes the given adventurer on the given entrance space."""
    for adv in adventurers:
        state.apply_action(adv * 2 + entrance)


def card_totals(state: HorusState) -> Counter[int]:
    """Every card wherever it lies: supply, hands, bags, discard pile, sarcophagi, alcoves."""
    total: Counter[int] = Counter()
    for t in range(cp.NUM_CARD_TYPES):
        total[t] += state.supply[t]
    for seat in range(state.n):
        total.update(state.hand[seat])
        total.update(state.bag[seat])
    total.update(state.discard)
    for k in range(cp.NUM_SARCOPHAGI):
        if state.sarc_card[k] >= 0:
            total[state.sarc_card[k]] += 1
    for g, there in enumerate(state.alcove_idol):
        if there:
            total[cp.IDOL_CARD[g]] += 1
    if state.node == 6:  # a drawn wound awaiting Reflexes or Swimming is in the air
        total[state.node_arg] += 1
    for code, _, arg in state.queue:
        if code == 0:  # a card on its way to a player
            total[arg] += 1
    return total


EXPECTED = Counter({t: cp.CARD_COUNT[t] for t in range(cp.NUM_CARD_TYPES)})


def play_random(state: HorusState, rng: random.Random, check_every: int = 0) -> int:
    steps = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
        state.apply_action(action)
        steps += 1
        if check_every and steps % check_every == 0:
            assert +card_totals(state) == +EXPECTED
    return steps


def chance(state: HorusState, outcome: int) -> None:
    """Apply a chosen chance outcome (a die face 1..6 is given as face - 1 by callers)."""
    assert state.current_player() == CHANCE, state.view(None)["awaiting"]
    state.apply_action(outcome)


def roll(state: HorusState, faces: list[int]) -> None:
    """Roll dice showing ``faces`` (1..6), one chance node per die."""
    for f in faces:
        chance(state, f - 1)


def act(state: HorusState, text: str) -> None:
    """Apply the legal decision whose text is ``text``."""
    state.apply_action(state.string_to_action(text))


def card(name: str) -> int:
    return cp.CARD_NAME.index(name)


def square(row: int, col: int) -> int:
    return cp.SQUARE_AT[(row, col)]


def keep_all(state: HorusState) -> None:
    """Every seat asked in phase 1 keeps all its cards."""
    while state.node == 1:  # D_WLL
        act(state, f"seat {state.node_seat} keeps the rest")


def end_turns(state: HorusState) -> None:
    """Every seat still to act this round ends its turn at once."""
    while state.node in (2, 3):  # D_TURN, D_LOCK
        seat = state.node_seat
        if state.node == 3:
            act(state, f"seat {seat} gives up the lock")
        else:
            act(state, f"seat {seat} ends the turn")


def start(
    adventurers: list[int], hands: dict[int, list[str]] | None = None, **options: object
) -> HorusState:
    """A game whose seats took these adventurers (seat 0 is the Dice Keeper).

    ``hands`` lays cards in front of seats before the first round's phase 1 begins (the
    last seat's choice starts it), for examples that begin "after many rounds".
    """
    state = new_state(len(adventurers), **options)
    setup(state, adventurers[:-1])
    for seat, names in (hands or {}).items():
        fill(state, seat, names)
    setup(state, adventurers[-1:])
    return state


def fill(state: HorusState, seat: int, names: list[str]) -> None:
    """Lay these cards in front of ``seat``, taking them from where they lie at setup."""
    for name in names:
        t = card(name)
        if cp.CARD_KIND[t] == cp.IDOL:
            state.alcove_idol = replaced(state.alcove_idol, cp.CARD_GOD[t], False)
        else:
            assert state.supply[t] > 0
            state.supply = added(state.supply, t, -1)
        state.hand[seat] = tuple(sorted((*state.hand[seat], t)))


def drop_blocks(state: HorusState, numbers: Iterable[int]) -> None:
    """Prepare a position: the blocks ``numbers`` (1 to 36) have fallen from the box."""
    for b in numbers:
        state.fallen = replaced(state.fallen, b - 1, True)
        state.box = removed(state.box, b - 1)


DAVID, CHANTAL, DELROY, ABDEL, RASPUTIN, MAKI, JOSE, EDGAR = range(8)


def told(since: HorusState, now: HorusState, viewer: int | None = None) -> list[dict[str, Any]]:
    """The log entries ``viewer`` gets for the actions that led from ``since`` (a clone
    taken earlier) to ``now``, narrated step by step as a live table does."""
    state = since.clone()
    entries: list[dict[str, Any]] = []
    for action in now.history()[since.move_number() :]:
        before = state.clone()
        state.apply_action(action)
        entries += state.narrate(before, action, viewer)
    return entries


def said(entries: list[dict[str, Any]], kind: str | None = None) -> list[str]:
    """The texts of ``entries`` (of one kind, when given)."""
    return [e["text"] for e in entries if kind is None or e["kind"] == kind]


def block_15_example() -> HorusState:
    """'Block 15 seals the Cobra Nest': the second round's blocks phase, blocks 12, 13
    and 14 already down, David (seat 0) in the Cobra Nest, Chantal and Delroy out in the
    Scorpion Pit and the Crocodile Pond; block 15 is the next to fall."""
    state = start([DAVID, CHANTAL, DELROY])
    keep_all(state)
    roll(state, [1, 1, 1, 1, 1])
    end_turns(state)
    roll(state, [1, 1, 1, 1, 1])
    drop_blocks(state, (12, 13, 14))
    state.square[0] = square(7, 4)
    state.square[1] = square(5, 5)
    state.square[2] = square(3, 4)
    return state
