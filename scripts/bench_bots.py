"""What asking the bots costs the server: the bot pool against a process pool, in one run.

Plays random matches of a game to gather positions, then has the same bot decisions made
twice, each way several times at a few levels of concurrency (decisions asked at once,
for tables of their own): by the server's :class:`~necropolis.server.bots.BotPool`
(worker processes on pipes the event loop watches) and, as the reference, by a
``concurrent.futures`` process pool from the same fork server, as the server did before.
It prints, for each, the wall time and the CPU the asking process spent per decision
(the workers' own thinking is not counted: it is the same both ways), and their ratio.

    .venv/bin/python scripts/bench_bots.py                    # luxor2001, easy
    .venv/bin/python scripts/bench_bots.py --game horus --level medium --decisions 100
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor

from necropolis.engine.protocol import CHANCE, sample_chance
from necropolis.games import load_game
from necropolis.server import bots

#: A position to decide at: the match's actions so far and the seat to move.
Position = tuple[list[int], int]
Ask = Callable[[Position, str], Awaitable[int]]


def positions(game_id: str, count: int, seed: int) -> list[Position]:
    """``count`` positions of random matches where a seat has more than one choice."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        state = load_game(game_id).new_initial_state()
        actions: list[int] = []
        while not state.is_terminal() and len(found) < count:
            if state.current_player() == CHANCE:
                action = sample_chance(state, rng)
            else:
                seat = next(iter(state.acting_seats()))
                legal = state.legal_actions(seat)
                if len(legal) > 1 and rng.random() < 0.3:
                    found.append((list(actions), seat))
                action = rng.choice(legal)
            state.apply_action(action)
            actions.append(action)
    return found


async def measure(ask: Ask, found: list[Position], concurrency: int) -> tuple[float, float]:
    """Wall seconds and this process's CPU seconds for every decision of ``found``, at
    most ``concurrency`` asked at a time, each position at a table of its own."""
    gate = asyncio.Semaphore(concurrency)

    async def one(k: int, position: Position) -> int:
        async with gate:
            return await ask(position, f"t{k}")

    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(one(k, p) for k, p in enumerate(found)))
    return time.perf_counter() - wall, time.process_time() - cpu


async def with_bot_pool(args: argparse.Namespace, found: list[Position]) -> list[list[float]]:
    pool = bots.BotPool(args.workers)

    async def ask(position: Position, table: str) -> int:
        return await pool.decide(args.game, {}, position[0], position[1], args.level, table)

    try:
        await ask(found[0], "warm")  # starts the workers
        return [list(await measure(ask, found, c)) for c in args.concurrency]
    finally:
        await pool.close()


async def with_process_pool(args: argparse.Namespace, found: list[Position]) -> list[list[float]]:
    context = multiprocessing.get_context("forkserver")
    pool = ProcessPoolExecutor(args.workers, mp_context=context)
    loop = asyncio.get_running_loop()

    async def ask(position: Position, table: str) -> int:
        actions, seat = position
        return await loop.run_in_executor(
            pool, bots.decide, args.game, {}, actions, seat, args.level, table
        )

    try:
        await ask(found[0], "warm")
        return [list(await measure(ask, found, c)) for c in args.concurrency]
    finally:
        pool.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="luxor2001")
    parser.add_argument("--level", default="easy")
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3, help="runs of each way, alternated")
    parser.add_argument(
        "--concurrency", type=lambda s: [int(x) for x in s.split(",")], default=[1, 4, 50]
    )
    args = parser.parse_args()
    multiprocessing.get_context("forkserver").set_forkserver_preload(
        ["necropolis.bots", "necropolis.games"]
    )
    found = positions(args.game, args.decisions, seed=1)
    totals = {"process pool": [[0.0, 0.0] for _ in args.concurrency]}
    totals["bot pool"] = [[0.0, 0.0] for _ in args.concurrency]
    for _ in range(args.repeats):
        for name, way in (("process pool", with_process_pool), ("bot pool", with_bot_pool)):
            for total, got in zip(totals[name], asyncio.run(way(args, found)), strict=True):
                total[0] += got[0]
                total[1] += got[1]
    n = args.decisions * args.repeats
    print(
        f"bench_bots: {args.game}, {args.level}, {args.decisions} decisions x {args.repeats},"
        f" {args.workers} workers"
    )
    for k, concurrency in enumerate(args.concurrency):
        old, new = totals["process pool"][k], totals["bot pool"][k]
        for name, (wall, cpu) in (("process pool", old), ("bot pool", new)):
            print(
                f"  concurrency {concurrency:3}  {name:12}  {n / wall:8.0f} decisions/s"
                f"  asking CPU {cpu / n * 1000:.3f} ms/decision"
            )
        print(
            f"  concurrency {concurrency:3}  ratio bot/process: wall {new[0] / old[0]:.2f},"
            f" asking CPU {new[1] / old[1]:.2f}"
        )


if __name__ == "__main__":
    main()
