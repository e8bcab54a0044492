"""Screen candidate levels: two-player pairings of bots and of blundering heuristics.

The levels ``easy`` and ``medium`` are each game's heuristic with a random legal move at
a rate the game sets (``bots/levels.py``). Choosing the rates needs many pairings at once,
the heuristic at several rates against each other and against ``hard``; a tournament
plays named bots only, so this script plays them. A bot is a registered name
(``hard``, ``heuristic``, …), ``hNN``, the heuristic with a random move NN% of the time
(the levels' own bot, :class:`~necropolis.bots.levels.BlunderingBot`), ``hN/D``, the
same at the rate N/D (``h1/3`` is easy's default third exactly, where ``h33`` is 0.33),
or ``hardNNNN``,
hard with NNNN iterations a decision instead of the game's (its clock, cutoff,
exploration and anchor unchanged), ``hard@A`` hard anchored at the margin ``A`` instead
of the game's (``hardNNNN@A`` both). Each pairing
``GAME:A:B:N:SEED`` plays ``N`` matches, seats alternated, match ``i`` from the
tournament's seed for ``(SEED, i)``, so that ``necropolis tournament GAME --bots A,B -n N
-p 2 --seed SEED`` plays the very same matches once the levels carry those rates (hard's
clock aside). Every match is appended to ``OUT`` as a line of JSON as it ends (a stopped
run keeps what it played; ``--summary`` prints the win rates of one or more such files).

    .venv/bin/python research/screen_levels.py out.jsonl --workers 16 \\
        luxor:hard:h10:120:21 luxor:h15:h33:160:11
    .venv/bin/python research/screen_levels.py --summary out.jsonl

The figures of 2026-11-28 that set the rates are in ``docs/strength.md`` ("Levels") and
their matches in ``docs/strength/levels-screening.jsonl``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from necropolis.analysis.batch import match_seed
from necropolis.analysis.tournament import wilson_interval
from necropolis.bots import make_bot
from necropolis.bots.levels import BlunderingBot, hard
from necropolis.engine import SeatWindow, play_match
from necropolis.engine.driver import Player
from necropolis.games import load_game

Job = tuple[str, str, str, int, int]


def bot(name: str) -> Player:
    """A registered bot; ``hNN``: the heuristic with a random move NN% of the time;
    ``hN/D``: the same at the rate N/D; ``hardNNNN``: hard with NNNN iterations a
    decision; ``hard@A``: hard anchored at A; ``hardNNNN@A``: both."""
    rate: float | None = None
    if name.startswith("h") and name[1:].isdigit():
        rate = int(name[1:]) / 100
    elif name.startswith("h") and name.count("/") == 1:
        numerator, denominator = name[1:].split("/")
        if numerator.isdigit() and denominator.isdigit() and int(denominator) > 0:
            rate = int(numerator) / int(denominator)
        if rate is None or rate > 1:
            raise ValueError(f"a rate is N/D with 0 <= N <= D, not {name[1:]!r}")
    if rate is not None:
        chosen = rate
        return BlunderingBot(name, lambda game: chosen)
    if name.startswith("hard") and name != "hard":
        count, at, margin = name[4:].partition("@")
        if (count and not count.isdigit()) or (at and not _is_margin(margin)):
            raise ValueError(f"hard is hardNNNN, hard@A or hardNNNN@A, not {name!r}")
        search = hard()
        if count:
            search.iterations = int(count)
            search.game_iterations = False
        if at:
            search.anchor = float(margin)
        search.name = name
        return search
    return make_bot(name)


def _is_margin(text: str) -> bool:
    try:
        return float(text) >= 0.0
    except ValueError:
        return False


class _Timed:
    """A bot that sums the CPU seconds of its real decisions (forced moves not counted)."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.seconds = 0.0
        self.decisions = 0
        self.longest = 0.0

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        if len(window.legal_actions()) < 2:
            return self.inner.choose(window, rng)
        start = time.process_time()
        action = self.inner.choose(window, rng)
        spent = time.process_time() - start
        self.seconds += spent
        self.decisions += 1
        self.longest = max(self.longest, spent)
        return action


def play(job: Job) -> dict[str, Any]:
    """One match of a pairing, A in the first seat of the even matches."""
    game_id, first, second, index, seed = job
    lineup = (first, second) if index % 2 == 0 else (second, first)
    players = [_Timed(bot(name)) for name in lineup]
    final, _ = play_match(load_game(game_id, players=2), players, seed=match_seed(seed, index))
    returns = dict(zip(lineup, final.returns(), strict=True))
    return {
        "game": game_id,
        "a": first,
        "b": second,
        "i": index,
        "seed": seed,
        "a_ret": returns[first],
        "b_ret": returns[second],
        "secs": {p.name: [round(p.seconds, 3), p.decisions, round(p.longest, 3)] for p in players},
    }


def summary(paths: list[Path]) -> list[str]:
    """A line per pairing: A's win share with its 95% interval, CPU seconds a decision."""
    totals: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0.0] * 6)
    for path in paths:
        for line in path.read_text().splitlines():
            match = json.loads(line)
            row = totals[(match["game"], match["a"], match["b"])]
            row[0] += match["a_ret"]
            row[1] += 1
            for offset, side in ((2, match["a"]), (4, match["b"])):
                seconds, decisions, _ = match["secs"][side]
                row[offset] += seconds
                row[offset + 1] += decisions
    lines = []
    for (game, first, second), (wins, n, sa, da, sb, db) in sorted(totals.items()):
        low, high = wilson_interval(wins, int(n))
        lines.append(
            f"{game:10} {first:9} vs {second:9} {wins:6.1f}/{int(n):4} = {wins / n:6.1%}"
            f" ({low:.1%}-{high:.1%})  CPU s a decision: {sa / max(da, 1):.3f}"
            f" / {sb / max(db, 1):.3f}"
        )
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, nargs="?", help="the JSON lines file to append to")
    parser.add_argument("pairings", nargs="*", help="GAME:A:B:N:SEED")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--summary", nargs="+", type=Path, help="print these files' win rates")
    args = parser.parse_intermixed_args(argv)
    if args.summary:
        print("\n".join(summary(args.summary)))
        return 0
    if args.out is None or not args.pairings:
        parser.error("give OUT and at least one pairing (or --summary FILE…)")
    jobs: list[Job] = []
    for pairing in args.pairings:
        try:
            game, first, second, n, seed = pairing.split(":")
            jobs += [(game, first, second, i, int(seed)) for i in range(int(n))]
        except ValueError:
            parser.error(f"a pairing is GAME:A:B:N:SEED, not {pairing!r}")
    # The searches' pairings first, so that the cheap ones fill the tail of the run.
    jobs.sort(key=lambda job: "hard" not in job[1:3])
    with contextlib.ExitStack() as stack, args.out.open("a") as out:
        matches: Iterable[dict[str, Any]]
        if args.workers <= 1:
            # In this process: nothing forked (a caller's threads stay out of harm's way).
            matches = map(play, jobs)
        else:
            pool = stack.enter_context(multiprocessing.get_context("fork").Pool(args.workers))
            matches = pool.imap_unordered(play, jobs)
        for match in matches:
            out.write(json.dumps(match) + "\n")
            out.flush()
    print("\n".join(summary([args.out])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
