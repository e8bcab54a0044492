"""The random bot: a uniformly random legal action. The baseline every bot must beat."""

from __future__ import annotations

import random

from necropolis.engine.seat import SeatWindow


class RandomBot:
    """Picks uniformly among the seat's legal actions."""

    name = "random"

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        actions = window.legal_actions()
        return actions[rng.randrange(len(actions))]
