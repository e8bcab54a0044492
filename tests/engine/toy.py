"""High card: a tiny game with chance and hidden cards, to test the kernel alone.

Each seat is dealt a hidden card (1 to 4, two copies each) by chance; then, in seat
order, each seat keeps its card or throws it away for a fresh draw. The highest card
wins; tied winners share. It exercises chance nodes, hidden information, views,
resampling and returns without depending on any real game.
"""

from __future__ import annotations

import random

from necropolis.engine import Game, Option, State, View, winners_share
from necropolis.engine.protocol import CHANCE, TERMINAL

KEEP, REDRAW = 0, 1
VALUES = (1, 2, 3, 4)
COPIES = 2


class HighCard(Game):
    id = "highcard"
    title = "High Card"
    min_players = 2
    max_players = 4
    default_players = 2
    extra_options = (Option("redraws", bool, True, "whether a seat may redraw"),)

    def new_initial_state(self) -> HighCardState:
        return HighCardState(self)

    def num_distinct_actions(self) -> int:
        return 2

    def max_chance_outcomes(self) -> int:
        return len(VALUES) + 1

    def max_game_length(self) -> int:
        return 3 * self.num_players

    def observation_size(self) -> int:
        return self.num_players + len(VALUES) + 1

    def encode_view(self, view: View) -> list[float]:
        vec = [0.0] * self.observation_size()
        if view["seat"] is not None:
            vec[view["seat"]] = 1.0
        card = view["my_card"]
        if card:
            vec[self.num_players + card - 1] = 1.0
        vec[-1] = view["decided"] / self.num_players
        return vec


class HighCardState(State):
    __slots__ = ("cards", "decided", "pending")

    def __init__(self, game: HighCard) -> None:
        super().__init__(game)
        self.cards: list[int] = []  # dealt card per seat; 0 = thrown away, awaiting draw
        self.decided = 0  # seats that have chosen keep or redraw
        self.pending = False  # a redraw awaits its chance outcome

    def current_player(self) -> int:
        n = self.game.num_players
        if len(self.cards) < n or self.pending:
            return CHANCE
        if self.decided < n and self.game.options["redraws"]:
            return self.decided
        return TERMINAL

    def _legal_actions(self, seat: int) -> list[int]:
        return [KEEP, REDRAW]

    def _remaining(self) -> dict[int, int]:
        left = dict.fromkeys(VALUES, COPIES)
        for c in self.cards:
            if c:
                left[c] -= 1
        return left

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != CHANCE:
            return []
        left = self._remaining()
        total = sum(left.values())
        return [(v, k / total) for v, k in sorted(left.items()) if k]

    def _apply(self, action: int) -> None:
        if self.pending:
            self.cards[self.decided - 1] = action
            self.pending = False
        elif len(self.cards) < self.game.num_players:
            self.cards.append(action)
        else:
            if action == REDRAW:
                self.cards[self.decided] = 0
                self.pending = True
            self.decided += 1

    def action_to_string(self, action: int) -> str:
        if self.current_player() == CHANCE:
            return f"card {action}"
        return "keep" if action == KEEP else "redraw"

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        return winners_share([float(c) for c in self.cards])

    def clone(self) -> HighCardState:
        new = self._clone_base()
        new.cards = self.cards.copy()
        new.decided = self.decided
        new.pending = self.pending
        return new

    def view(self, seat: int | None) -> View:
        over = self.is_terminal()
        return {
            "seat": seat,
            "dealt": len(self.cards),
            "decided": self.decided,
            "my_card": self.cards[seat] if seat is not None and seat < len(self.cards) else None,
            "cards": list(self.cards) if over else None,
            "current_player": self.current_player(),
        }

    def _resample(self, seat: int, rng: random.Random) -> HighCardState:
        new = self.clone()
        if self.is_terminal():  # every card is face up at the end
            return new
        mine = self.cards[seat] if seat < len(self.cards) else 0
        pool = [v for v in VALUES for _ in range(COPIES)]
        if mine:
            pool.remove(mine)
        rng.shuffle(pool)
        for i in range(len(new.cards)):
            if i != seat and new.cards[i]:
                new.cards[i] = pool.pop()
        return new
