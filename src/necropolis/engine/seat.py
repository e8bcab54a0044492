"""What one seat may use to decide: its view, its legal actions, determinizations.

The CLI, the server and the bots hold a :class:`SeatWindow` rather than a state. It
answers only from the seat's view, the seat's own legal actions, and
:meth:`~necropolis.engine.protocol.State.resample`, so that a decision can never read
another seat's hidden cards.
"""

from __future__ import annotations

import random

from necropolis.engine.protocol import Game, State, View


class SeatWindow:
    """One seat's window onto a match in play."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def num_players(self) -> int:
        return self._state.game.num_players

    def view(self) -> View:
        return self._state.view(self.seat)

    def acting_seats(self) -> tuple[int, ...]:
        """The seats that may act now (public: every view says it)."""
        return self._state.acting_seats()

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions(self.seat)

    def action_to_string(self, action: int) -> str:
        """Text of one of this seat's legal actions (it names only what the seat knows)."""
        return self._state.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return self._state.string_to_action(text)

    def move_number(self) -> int:
        return self._state.move_number()

    def resample(self, rng: random.Random) -> State:
        """A whole state consistent with this seat's view: a determinization to search.

        Its history is sealed (it counts the moves but does not carry the true actions)."""
        return self._state.resample(self.seat, rng)
