"""The heuristic bot: the game's own strategy, or a generic one-ply Monte Carlo look.

A game may supply a hand-written strategy through :meth:`Game.heuristic_policy`; the bot
then simply follows it. Until a game has one, the bot falls back to flat Monte Carlo one
ply deep: it draws a few determinizations of the seat's window (the same worlds for every
candidate, so that the comparison is not blurred by luck), applies each legal action in
each world, plays the world out with the game's rollout policy, and keeps the action with
the best mean return for its seat; a small bonus for outscoring the other seats separates
actions that win equally often, and remaining ties are broken at random. It reads nothing
but the window, costs ``worlds × actions`` rollouts, and needs no knowledge of the game,
which is why it is the fallback: cheap, never illegal, and much better than random
wherever the immediate consequences of a move show in how matches end.
"""

from __future__ import annotations

import random

from necropolis.engine.seat import SeatWindow

#: How much finishing higher among the losers counts, beside a whole win (1). Small, so
#: that it only separates actions that win equally often (with several players, often
#: none of a handful of rollouts is won, and every action would otherwise tie).
PLACE_WEIGHT = 0.01


def _placement(scores: list[float], seat: int) -> float:
    """The share of the other seats that ``seat`` outscored (a tie counts half)."""
    mine = scores[seat]
    beaten = sum(1.0 if s < mine else 0.5 if s == mine else 0.0 for s in scores)
    return (beaten - 0.5) / (len(scores) - 1)  # the seat ties with itself: take that out


def one_ply_monte_carlo(
    window: SeatWindow, rng: random.Random, worlds: int = 4, max_rollouts: int = 64
) -> int:
    """The legal action with the best mean return over a few rolled-out worlds.

    ``worlds`` determinizations are drawn, fewer when the action list is long, so that
    the total stays near ``max_rollouts`` (but every action gets at least one world).
    """
    actions = window.legal_actions()
    if len(actions) == 1:
        return actions[0]
    seat = window.seat
    count = max(1, min(worlds, max_rollouts // len(actions)))
    samples = [window.resample(rng) for _ in range(count)]
    best: list[int] = []
    best_total = -1.0
    for action in actions:
        total = 0.0
        for sample in samples:
            world = sample.clone()
            world.apply_action(action)
            while not world.is_terminal():
                world.apply_legal_action(world.rollout_action(rng))
            total += world.returns()[seat] + PLACE_WEIGHT * _placement(world.scores(), seat)
        if total > best_total:
            best, best_total = [action], total
        elif total == best_total:
            best.append(action)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


class HeuristicBot:
    """Plays the game's heuristic policy, or :func:`one_ply_monte_carlo` if it has none."""

    def __init__(self, worlds: int = 4, max_rollouts: int = 64, name: str = "heuristic") -> None:
        self.worlds = worlds
        self.max_rollouts = max_rollouts
        self.name = name

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        policy = window.game.heuristic_policy()
        if policy is not None:
            return policy(window, rng)
        return one_ply_monte_carlo(window, rng, self.worlds, self.max_rollouts)
