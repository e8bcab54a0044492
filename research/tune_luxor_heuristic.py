"""Screen weightings of the luxor strategy against the heuristic bot, match for match.

The luxor strategy (:mod:`necropolis.games.luxor.heuristic`) weighs what a position is
worth with a :class:`~necropolis.games.luxor.heuristic.Weights`; the heuristic bot plays
``HEURISTIC``, and the levels (easy, medium, hard's anchor) ``LEVELS``. This script plays
each weighting given (``field=value,...`` over the heuristic's; ``heuristic`` and
``levels`` name the two shipped ones) in one seat against the heuristic in every other,
``N`` matches each, the weighting's seat turned round the table from match to match,
match ``i`` from the seed ``SEED * 1_000_003 + i`` for every weighting (so that each
meets the same deals), and prints each one's share of the wins beside the heuristic
seats' mean share, with 95% intervals.

    .venv/bin/python research/tune_luxor_heuristic.py -n 300 --seed 41 heuristic horus_card=0.5
    .venv/bin/python research/tune_luxor_heuristic.py -n 400 --seed 42 body=2.4,horus_card=0.5

The screens of 2026-11-29 are in ``docs/strength.md`` ("luxor").
"""

from __future__ import annotations

import multiprocessing
import random
import sys
from collections.abc import Iterable
from pathlib import Path

from necropolis.engine.driver import play_match
from necropolis.engine.seat import SeatWindow
from necropolis.games import load_game
from necropolis.games.luxor import heuristic
from necropolis.games.luxor.heuristic import Weights

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the scripts' shared parts
from screening import parse_fields, parse_screen, screen_arguments, share_line


def parse_weights(text: str) -> Weights:
    """``heuristic``, ``levels``, or ``field=value,...`` over the heuristic's weights."""
    named = {"heuristic": heuristic.HEURISTIC, "levels": heuristic.LEVELS}
    return parse_fields(text, heuristic.HEURISTIC, named)


class TunedBot:
    """The luxor strategy under one weighting, as a player of the match driver."""

    def __init__(self, name: str, weights: Weights) -> None:
        self.name = name
        self.weights = weights

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        return heuristic.decide(window, rng, self.weights)


def play(job: tuple[str, Weights, int, int, int]) -> tuple[str, float, float]:
    """One match: the weighting's share of the win and the heuristic seats' mean share."""
    label, weights, players, seed, i = job
    game = load_game("luxor", players=players)
    seats = [TunedBot("heuristic", heuristic.HEURISTIC) for _ in range(players)]
    mine = i % players
    seats[mine] = TunedBot(label, weights)
    state, _ = play_match(game, seats, seed=seed * 1_000_003 + i)
    returns = state.returns()
    return label, returns[mine], (sum(returns) - returns[mine]) / (players - 1)


def screen(labels: Iterable[str], matches: int, players: int, seed: int, workers: int) -> None:
    """Play ``matches`` matches of each weighting on ``workers`` processes; print each
    one's line as its last match ends."""
    weights = {label: parse_weights(label) for label in labels}
    jobs = [(label, w, players, seed, i) for label, w in weights.items() for i in range(matches)]
    totals: dict[str, list[float]] = {}
    with multiprocessing.Pool(workers) as pool:
        for label, mine, theirs in pool.imap_unordered(play, jobs, chunksize=2):
            total = totals.setdefault(label, [0.0, 0.0, 0])
            total[0] += mine
            total[1] += theirs
            total[2] += 1
            if total[2] == matches:
                print(share_line(label, total[0], total[1], matches, players, seed), flush=True)


def main() -> None:
    description = __doc__.split("\n\n")[0]
    labels_help = "heuristic, levels or field=value,..."
    parser = screen_arguments(description, "weights", labels_help, 400, game="luxor")
    args = parse_screen(parser, "weights", parse_weights)
    screen(args.weights, args.matches, args.players, args.seed, args.workers)


if __name__ == "__main__":
    main()
