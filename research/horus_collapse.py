"""Measure the collapse of The Pyramid of Horus: when the way out closes, and who gets out.

Part 1, the board alone: for ORDERS random orders of the 36 blocks (one falls a round),
the round in which the last way out closes (no square reaches a free exit space) and
the round in which the Mummies' Corridor is first cut off from every exit; quantiles and
a histogram in bands of four rounds.

Part 2, games: GAMES games per player count (2 to 6) with every seat played at random
and with every seat played by the heuristic bot (seeds 0, 1, ...): rounds played; how
the game ended (the last adventurer inside left, or the blocks shut in or crushed the
last ones); the round the last way out closed where it closed before the end; the share
of adventurers who got out, were sealed in or crushed; the share of games nobody got
out of; the mean score of those who got out; and the share of
adventurers who, back from inside, ended a round on an exit space without leaving.

    .venv/bin/python research/horus_collapse.py [ORDERS] [GAMES] [PLAYER_COUNTS] [BOT_GAMES]

(BOT_GAMES: games per player count with the heuristic, GAMES if not given), e.g.
``research/horus_collapse.py 20000 500 2,3,4,5,6 100``. Figures in docs/rules/horus.md.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass

from necropolis.bots import make_bot
from necropolis.engine import CHANCE, SeatWindow, sample_chance
from necropolis.games import load_game
from necropolis.games.horus import components as cp
from necropolis.games.horus.codes import CRUSHED, ESCAPED, INSIDE, SEALED
from necropolis.games.horus.effects import SQUARE_BIT, exit_reach_bits
from necropolis.games.horus.state import HorusState

CORRIDOR_BITS = sum(
    SQUARE_BIT[sq] for sq in range(cp.NUM_SQUARES) if cp.AREA[sq] == cp.MUMMIES_CORRIDOR
)


def quantiles(xs: list[int]) -> str:
    if not xs:
        return "-"
    xs = sorted(xs)
    q = [xs[min(len(xs) - 1, int(p * len(xs)))] for p in (0.0, 0.1, 0.25, 0.5, 0.75, 0.9)]
    return (
        f"min {q[0]} / p10 {q[1]} / q1 {q[2]} / median {q[3]} / q3 {q[4]} / p90 {q[5]}"
        f" / max {xs[-1]}"
    )


def histogram(xs: list[int]) -> str:
    bands = Counter((x - 1) // 4 for x in xs)
    return "  ".join(f"{4 * b + 1}-{4 * b + 4}: {100 * bands[b] / len(xs):.1f}%" for b in range(9))


def board_alone(orders: int) -> None:
    rng = random.Random(12)
    last, corridor = [], []
    for _ in range(orders):
        order = list(range(cp.NUM_BLOCKS))
        rng.shuffle(order)
        fallen = [False] * cp.NUM_BLOCKS
        cut = 0
        for r, b in enumerate(order, 1):
            fallen[b] = True
            reach = exit_reach_bits(fallen)
            if not cut and not reach & CORRIDOR_BITS:
                cut = r
            if not reach:
                last.append(r)
                break
        corridor.append(cut)
    print(f"Board alone, {orders} random block orders (one block a round):")
    print(f"  last way out closes in round: {quantiles(last)}")
    print(f"    mean {statistics.mean(last):.1f}; {histogram(last)}")
    print(f"  corridor cut off from every exit in round: {quantiles(corridor)}")
    print(f"    mean {statistics.mean(corridor):.1f}; {histogram(corridor)}")


@dataclass
class Result:
    rounds: int
    closed: int  # the round the last way out closed, 0 if it had not by the end
    escaped: int
    sealed: int
    crushed: int
    scores: list[float]
    waited: int  # adventurers who ended a round back on an exit space, still inside


def play(players: int, seed: int, heuristic: bool) -> Result:
    game = load_game("horus", players=players)
    state = game.new_initial_state()
    assert isinstance(state, HorusState)
    rng = random.Random(seed)
    bot = make_bot("heuristic") if heuristic else None
    closed = 0
    been_in = [False] * players
    waited = set()
    last_round = -1
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(sample_chance(state, rng))
        elif bot is not None:
            state.apply_action(bot.choose(SeatWindow(state, seat), rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.round != last_round:  # a round has ended: who stays on an exit space
            last_round = state.round
            if not closed and not exit_reach_bits(state.fallen):
                closed = state.round - 1
            for s in range(players):
                if state.status[s] != INSIDE:
                    continue
                if state.square[s] not in cp.ENTRANCES:
                    been_in[s] = True
                elif been_in[s]:  # back on an exit space, and still inside: waiting
                    waited.add(s)
    if not closed and not exit_reach_bits(state.fallen):
        closed = state.round
    status = state.status
    return Result(
        rounds=state.round,
        closed=closed,
        escaped=status.count(ESCAPED),
        sealed=status.count(SEALED),
        crushed=status.count(CRUSHED),
        scores=[state.scores()[s] for s in range(players) if status[s] == ESCAPED],
        waited=len(waited),
    )


def games(count: int, counts: list[int], heuristic: bool) -> None:
    name = "heuristic" if heuristic else "random"
    print(f"\n{count} games per player count, every seat {name}:")
    print(
        "players | rounds | nobody out | got out | sealed | crushed | mean score out"
        " | last way out closed (games) | waited on an exit"
    )
    for n in counts:
        start = time.time()
        rows = [play(n, seed, heuristic) for seed in range(count)]
        seats = n * count
        rounds = [r.rounds for r in rows]
        closed = [r.closed for r in rows if r.closed]
        scores = [x for r in rows for x in r.scores]
        nobody = sum(1 for r in rows if not r.escaped)

        def share(counted: list[int], seats: int = seats) -> str:
            return f"{100 * sum(counted) / seats:.1f}%"

        print(
            f"{n} | {quantiles(rounds)} (mean {statistics.mean(rounds):.1f})"
            f" | {100 * nobody / count:.1f}%"
            f" | {share([r.escaped for r in rows])} | {share([r.sealed for r in rows])}"
            f" | {share([r.crushed for r in rows])}"
            f" | {statistics.mean(scores) if scores else 0:.1f}"
            f" | {100 * len(closed) / count:.0f}%: {quantiles(closed)}"
            f" | {share([r.waited for r in rows])}   [{time.time() - start:.0f} s]",
            flush=True,
        )


def main() -> None:
    orders = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    counts = [int(x) for x in sys.argv[3].split(",")] if len(sys.argv) > 3 else [2, 3, 4, 5, 6]
    bot_count = int(sys.argv[4]) if len(sys.argv) > 4 else count
    board_alone(orders)
    games(count, counts, heuristic=False)
    games(bot_count, counts, heuristic=True)


if __name__ == "__main__":
    main()
