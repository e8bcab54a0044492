"""What clocks cost the server, in process: per message, per action, per table loaded.

For each game, a match is played to its end at random with two person seats; then it
prints, in microseconds: the filter's ``state`` message for a seat as it leaves (its kept
text, and for a timed table the clocks measured and put in), untimed against timed; the
clock's share of every action applied (its fold); and the time to work a table's clock out
from its record when the table is loaded (the replay of :func:`clocks.replay`), with the
number of actions. Nothing touches a database: these are the CPU costs alone.

    .venv/bin/python scripts/bench_clocks.py
    .venv/bin/python scripts/bench_clocks.py --repeat 20000
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from necropolis.engine.protocol import CHANCE, sample_chance
from necropolis.games import game_ids, load_game
from necropolis.server import filter
from necropolis.server.clocks import Clock, replay
from necropolis.server.db import PLAYING, TableRow, now
from necropolis.server.live import LiveTable
from necropolis.server.models import ClockSettings
from necropolis.server.seats import Seat

SETTINGS = ClockSettings(mode="realtime", base=600, increment=20)


def row(game: str, players: int) -> TableRow:
    seats = [Seat(k, "link") for k in range(players)]
    options = dict(load_game(game, players=players).options)
    at = now()
    return TableRow(game, game, options, seats, "seed", PLAYING, 0, "c", "s", at, at)


def record(game: str, players: int, seed: int) -> list[tuple[int | None, int]]:
    """A whole match at random: ``(seat, action)`` of each action, chance as None."""
    rng = random.Random(seed)
    state = load_game(game, players=players).new_initial_state()
    out: list[tuple[int | None, int]] = []
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            action = sample_chance(state, rng)
            out.append((None, action))
        else:
            legal = state.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            out.append((seat, action))
        state.apply_action(action)
    return out


def per_call(fn: Callable[[], object], repeat: int) -> float:
    """Microseconds per call of ``fn``, the best of three runs."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, time.perf_counter() - start)
    return best / repeat * 1e6


def sender(live: LiveTable) -> Callable[[], object]:
    """Seat 0's ``state`` message leaving ``live`` (kept after the first)."""
    return lambda: filter.state_text(live, 0, live.version)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5000)
    args = parser.parse_args()
    print(f"{'game':10} {'actions':>7} {'message':>9} {'timed':>9} {'fold':>8} {'load':>9}")
    for game in game_ids():
        actions = record(game, 2, seed=1)
        half = actions[: len(actions) // 2]
        # A table in the middle of its match: its messages, untimed and timed.
        untimed = LiveTable(row(game, 2), half)
        timed = LiveTable(row(game, 2), half)
        timed.clock = replay(timed.row, SETTINGS, half, [], [])
        message = per_call(sender(untimed), args.repeat)
        with_clock = per_call(sender(timed), args.repeat)
        # The fold of one action: the whole record applied, with and without a clock.
        state = load_game(game, players=2).new_initial_state()
        clock = Clock("t", SETTINGS, 2, time.time())
        clock.start(state, frozenset())
        states = []
        for _seat, action in actions:
            state = state.clone()
            state.apply_action(action)
            states.append(state)
        start = time.perf_counter()
        for _ in range(20):
            for after in states:
                clock.action(after, time.time())
        fold = (time.perf_counter() - start) / (20 * len(states)) * 1e6
        # The clock worked out from the whole record, as a table is loaded.
        start = time.perf_counter()
        for _ in range(5):
            replay(row(game, 2), SETTINGS, actions, [], [])
        load = (time.perf_counter() - start) / 5 * 1e6
        print(
            f"{game:10} {len(actions):7d} {message:8.1f}µ {with_clock:8.1f}µ {fold:7.2f}µ"
            f" {load / 1000:8.1f}m"
        )
    print("message: a kept state message leaving (µs); timed: the same with its clocks;")
    print("fold: the clock's work per action applied (µs); load: a clock from a whole record (ms)")


if __name__ == "__main__":
    main()
