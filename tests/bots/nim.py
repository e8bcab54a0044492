"""Nim without secrets: a tiny game whose best moves are known, to test search.

A pile of stones; in turn each seat takes one or two; whoever takes the last stone wins.
With two players a pile that is a multiple of three is lost for the seat to move, so the
right move from 7 is to take one and from 8 to take two, several plies before the end.
It has no chance and no hidden information, so a determinization is a plain copy.
"""

from __future__ import annotations

import random

from necropolis.engine import Game, Option, State, View
from necropolis.engine.protocol import TERMINAL

TAKE_ONE, TAKE_TWO = 0, 1


class Nim(Game):
    id = "nim"
    title = "Nim"
    min_players = 2
    max_players = 3
    default_players = 2
    extra_options = (Option("pile", int, 7, "stones on the pile at the start"),)

    def new_initial_state(self) -> NimState:
        return NimState(self)

    def num_distinct_actions(self) -> int:
        return 2

    def max_chance_outcomes(self) -> int:
        return 0

    def max_game_length(self) -> int:
        return int(self.options["pile"])


class NimState(State):
    __slots__ = ("last", "pile", "to_move")

    def __init__(self, game: Nim) -> None:
        super().__init__(game)
        self.pile = int(game.options["pile"])
        self.to_move = 0
        self.last = -1  # the seat that took the last stone

    def current_player(self) -> int:
        return TERMINAL if self.pile == 0 else self.to_move

    def _legal_actions(self, seat: int) -> list[int]:
        return [TAKE_ONE, TAKE_TWO] if self.pile >= 2 else [TAKE_ONE]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def _apply(self, action: int) -> None:
        self.pile -= action + 1
        self.last = self.to_move
        self.to_move = (self.to_move + 1) % self.game.num_players

    def action_to_string(self, action: int) -> str:
        return f"take {action + 1}"

    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.pile:
            return [0.0] * n
        return [1.0 if seat == self.last else 0.0 for seat in range(n)]

    def clone(self) -> NimState:
        new = self._clone_base()
        new.pile, new.to_move, new.last = self.pile, self.to_move, self.last
        return new

    def view(self, seat: int | None) -> View:
        return {"pile": self.pile, "current_player": self.current_player()}

    def _resample(self, seat: int, rng: random.Random) -> NimState:
        return self.clone()
