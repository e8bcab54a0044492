"""Screen tunings of the horus strategy against the heuristic bot, match for match.

The horus strategy's judgement is set by a :class:`~necropolis.games.horus.heuristic.
Tuning`; the heuristic bot plays ``HEURISTIC``, and the levels (easy, medium, hard's
search) ``LEVELS``. This script plays each tuning given (``field=value,...``;
``heuristic`` and ``levels`` name the two shipped ones) in one seat against the
heuristic in every other, ``N`` matches each, the tuning's seat turned round the table
from match to match, match ``i`` from the seed ``SEED * 1_000_003 + i`` for every tuning
(so that each meets the same deals), and prints each tuning's share of the wins beside
the heuristic seats' mean share, with 95% intervals. A match nobody wins (everyone shut
in or crushed) counts for no seat, so the two shares need not add up to one.

    .venv/bin/python scripts/tune_horus_heuristic.py -n 1000 --seed 13 heuristic levels
    .venv/bin/python scripts/tune_horus_heuristic.py -n 900 --players 3 --seed 14 \\
        heuristic rivals_shut_in=false

The runs that chose ``LEVELS`` (2026-11-29) are in ``docs/strength.md`` ("horus").
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import random
from collections.abc import Iterable

from necropolis.analysis.tournament import wilson_interval
from necropolis.engine.driver import play_match
from necropolis.engine.seat import SeatWindow
from necropolis.games import load_game
from necropolis.games.horus import heuristic
from necropolis.games.horus.heuristic import Tuning


def parse_tuning(text: str) -> Tuning:
    """``heuristic``, ``levels``, or ``field=value,...`` over the heuristic's tuning."""
    if text == "heuristic":
        return heuristic.HEURISTIC
    if text == "levels":
        return heuristic.LEVELS
    fields = {f.name: f for f in dataclasses.fields(Tuning)}
    changes: dict[str, object] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        if not sep or name not in fields:
            known = ", ".join(fields)
            raise ValueError(f"{part!r} is not field=value with a field of Tuning ({known})")
        default = getattr(heuristic.HEURISTIC, name)
        if isinstance(default, bool):
            if value.lower() not in ("true", "false"):
                raise ValueError(f"{name} is true or false, not {value!r}")
            changes[name] = value.lower() == "true"
        else:
            kind = type(default)
            try:
                changes[name] = kind(value)
            except ValueError:
                what = "a whole number" if kind is int else "a number"
                raise ValueError(f"{name} is {what}, not {value!r}") from None
    return dataclasses.replace(heuristic.HEURISTIC, **changes)


class TunedBot:
    """The horus strategy under one tuning, as a player of the match driver."""

    def __init__(self, name: str, tuning: Tuning) -> None:
        self.name = name
        self.tuning = tuning

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        return heuristic.decide(window, rng, self.tuning)


def play(job: tuple[str, Tuning, int, int, int]) -> tuple[str, float, float]:
    """One match: the tuning's share of the win and the heuristic seats' mean share."""
    label, tuning, players, seed, i = job
    game = load_game("horus", players=players)
    seats: list[TunedBot] = [TunedBot("heuristic", heuristic.HEURISTIC)] * players
    mine = i % players
    seats[mine] = TunedBot(label, tuning)
    state, _ = play_match(game, seats, seed=seed * 1_000_003 + i)
    returns = state.returns()
    return label, returns[mine], (sum(returns) - returns[mine]) / (players - 1)


def screen(labels: Iterable[str], matches: int, players: int, seed: int, workers: int) -> None:
    """Play ``matches`` matches of each tuning on ``workers`` processes; print each
    tuning's line as its last match ends."""
    tunings = {label: parse_tuning(label) for label in labels}
    jobs = [(label, t, players, seed, i) for label, t in tunings.items() for i in range(matches)]
    totals = {label: [0.0, 0.0, 0] for label in tunings}
    with multiprocessing.Pool(workers) as pool:
        for label, mine, theirs in pool.imap_unordered(play, jobs, chunksize=4):
            total = totals[label]
            total[0] += mine
            total[1] += theirs
            total[2] += 1
            if total[2] == matches:
                low, high = wilson_interval(total[0], matches)
                base_low, base_high = wilson_interval(total[1], matches)
                print(
                    f"{label}: {total[0] / matches:.1%} ({low:.1%}-{high:.1%}) of {matches}"
                    f" matches at {players} players, seed {seed};"
                    f" the heuristic seats {total[1] / matches:.1%}"
                    f" ({base_low:.1%}-{base_high:.1%}) each",
                    flush=True,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tunings", nargs="+", help="heuristic, levels or field=value,...")
    parser.add_argument("-n", "--matches", type=int, default=1000)
    parser.add_argument("-p", "--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    try:
        for label in args.tunings:
            parse_tuning(label)
    except ValueError as error:
        parser.error(str(error))
    screen(args.tunings, args.matches, args.players, args.seed, args.workers)


if __name__ == "__main__":
    main()
