"""Pairs of true matches that one seat cannot tell apart, and everything a world carries.

:func:`twin_matches` plays a match at random and, at a chance event whose outcome one
seat does not see, plays a second outcome beside the first that leaves that seat's view
and what it is told the same; both matches then go on with the same actions for as long
as the seat still cannot tell them apart. Each step of such a pair is a pair of true
states with different histories and different hidden things, between which the seat
has no way to choose: nothing built for that seat may differ between them.
:func:`reachable` gathers everything that can be read from a state, its history, log
and serialized form included, so that two worlds can be compared whole.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from necropolis.engine import CHANCE, Game, SeatWindow, State
from necropolis.engine.driver import sample_chance

if TYPE_CHECKING:
    from necropolis.engine.protocol import Policy


def _told(state: State, before: State, action: int, seat: int) -> Any:
    return state.view(seat), state.narrate(before, action, seat)


def twin_matches(
    game: Game, seed: int, *, pairs: int = 12, length: int = 40
) -> Iterator[tuple[State, State, int]]:
    """Up to ``pairs`` runs of ``(a, b, seat)``: true states with different histories that
    ``seat`` has seen alike at every step. Each run follows one pair for up to ``length``
    steps; the pair is yielded at every one of them. Matches are played mostly by the
    game's heuristic policy (random play draws few hidden cards in some games)."""
    rng = random.Random(seed)
    policy = game.heuristic_policy()
    for _ in range(5):  # a match that finds no pair gives way to another
        state = game.new_initial_state()
        found = 0
        while not state.is_terminal() and found < pairs:
            if state.current_player() == CHANCE:
                outcome = sample_chance(state, rng)
            else:
                outcome = _decide(state, policy, rng)
            # one step in three is tried, to keep the search for pairs cheap
            twin = _twin(state, outcome, rng) if rng.random() < 0.35 else None
            if twin is not None:
                found += 1
                yield from _follow(state.clone(), outcome, twin, rng, length)
            state.apply_action(outcome)
        if found:
            return
    raise AssertionError("five matches without a hidden draw that a seat cannot tell apart")


def _decide(state: State, policy: Policy | None, rng: random.Random) -> int:
    seat = state.current_player()
    if policy is not None and rng.random() < 0.8:
        return policy(SeatWindow(state, seat), rng)
    actions = state.legal_actions()
    return actions[rng.randrange(len(actions))]


def _twin(state: State, outcome: int, rng: random.Random) -> tuple[int, int] | None:
    """Another chance outcome or decision at ``state`` and a seat (not the one deciding)
    that cannot tell it from ``outcome`` (None if every seat would)."""
    after = state.clone()
    after.apply_action(outcome)
    mover = state.current_player()
    if mover == CHANCE:
        others = [a for a, _ in state.chance_outcomes() if a != outcome]
    else:
        others = [a for a in state.legal_actions() if a != outcome]
    rng.shuffle(others)
    seats = [s for s in range(state.game.num_players) if s != mover]
    rng.shuffle(seats)
    for other in others:
        alt = state.clone()
        alt.apply_action(other)
        for seat in seats:
            if _told(after, state, outcome, seat) == _told(alt, state, other, seat):
                return other, seat
    return None


def _follow(
    start: State, outcome: int, twin: tuple[int, int], rng: random.Random, length: int
) -> Iterator[tuple[State, State, int]]:
    other, seat = twin
    a, b = start.clone(), start.clone()
    a.apply_action(outcome)
    b.apply_action(other)
    for _ in range(length):
        yield a, b, seat
        if a.is_terminal() or b.is_terminal():
            return
        if a.current_player() == CHANCE:
            action = sample_chance(a, rng)
        else:
            actions = a.legal_actions()
            action = actions[rng.randrange(len(actions))]
        if not b.is_legal(action):
            return
        before_a, before_b = a.clone(), b.clone()
        a.apply_action(action)
        b.apply_action(action)
        if _told(a, before_a, action, seat) != _told(b, before_b, action, seat):
            return  # the seat tells them apart from here on (a hidden thing came to light)


def _outcome(read: Callable[[], Any]) -> Any:
    """What reading gives: its value, or the kind of error it raises."""
    try:
        return ("value", read())
    except Exception as error:
        return ("raises", type(error).__name__)


def slots(state: State) -> dict[str, Any]:
    """Every slot of ``state`` as it is held, but the game object (shared by construction)."""
    names = {n for cls in type(state).__mro__ for n in getattr(cls, "__slots__", ())}
    return {n: getattr(state, n) for n in sorted(names) if n != "game" and hasattr(state, n)}


def fields(state: State) -> dict[str, Any]:
    """Every slot of ``state`` but the game object, with the actions it carries as one
    tuple: how a state splits them between its shared past and its latest (which a clone
    changes) is no part of what it is."""
    found = slots(state)
    found["_past"] = (*found["_past"], *found.pop("_history"))
    return found


def reachable(state: State) -> dict[str, Any]:
    """Everything that can be read from ``state``: its fields, history, move number, log
    for every seat and a spectator, the same of its clone, and its pickled bytes."""
    seats = (None, *range(state.game.num_players))
    clone = state.clone()
    return {
        "fields": fields(state),
        "history": _outcome(state.history),
        "move_number": state.move_number(),
        "logs": [_outcome(partial(state.log, v)) for v in seats],
        "clone": (fields(clone), _outcome(clone.history), clone.move_number()),
        "pickle": pickle.dumps(state),
    }
