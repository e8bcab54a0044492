"""Driving a match: sampling chance from a seeded generator, asking players to decide.

``seed`` plus the players' decisions reproduce a match exactly: chance outcomes are drawn
from one :class:`random.Random` seeded once, one draw per chance node, and each bot gets
its own generator derived from the same seed, so a bot's thinking never shifts the dice.
A caller may draw the chance outcomes itself instead (``chance``: the duplicate deals of
:mod:`necropolis.analysis.duel`, which give every seating of a deal the same dice).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from necropolis.engine.protocol import CHANCE, Game, State, sample_chance
from necropolis.engine.record import MatchRecord
from necropolis.engine.seat import SeatWindow

__all__ = ["Player", "play_match", "player_rngs", "sample_chance"]


class Player(Protocol):
    """Anything that picks an action for a seat from what that seat may see."""

    name: str

    def choose(self, window: SeatWindow, rng: random.Random) -> int: ...


def player_rngs(seed: int | None, count: int) -> list[random.Random]:
    """Independent generators for the seats, derived from the match seed."""
    base = random.Random(seed)
    return [random.Random(base.getrandbits(64)) for _ in range(count)]


def play_match(
    game: Game,
    players: Sequence[Player],
    seed: int | None = None,
    on_action: Callable[[State, int], None] | None = None,
    chance: Callable[[State], int] | None = None,
) -> tuple[State, MatchRecord]:
    """Play a whole match; returns the final state and its record.

    ``on_action(state, action)`` is called before each action is applied. ``chance``,
    given, picks the outcome of every chance node (one of its :meth:`State.chance_outcomes`)
    instead of the generator seeded from ``seed``; the bots' generators still come from
    ``seed``.
    """
    if len(players) != game.num_players:
        raise ValueError(f"{game.id} with {game.num_players} players needs that many players")
    chance_rng = random.Random(seed)
    rngs = player_rngs(seed, len(players))
    state = game.new_initial_state()
    record = MatchRecord.start(game, [p.name for p in players], seed)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            action = sample_chance(state, chance_rng) if chance is None else chance(state)
        else:
            action = players[seat].choose(SeatWindow(state, seat), rngs[seat])
        if on_action is not None:
            on_action(state, action)
        state.apply_action(action)
        record.actions.append(action)
    return state, record
