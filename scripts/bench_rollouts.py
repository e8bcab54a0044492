"""What a search's steps cost, this checkout against git revision REV, in one run.

``necropolis bench`` gives each figure once, and on cores shared with other work one run's
figures move by a tenth or more. This script measures the work of a search's inner loop
the same way on both sides and alternates them, so that a change of a few percent shows
with its interval: for each game and player count it plays seeded random matches (the
same actions on both sides, chance outcomes and decisions drawn from one generator), then
times by CPU time, each as one loop, their steps replayed (``apply_legal_action``, with no
events asked for, as in a search), a clone of every position, and a world resampled for
the seat to act at every decision, and IS-MCTS iterations searched (a fixed number, with
rollouts cut off as the ``hard`` level's) from three of its decisions; each side runs in a
fresh process (the reference's package from ``git archive``), ``--rounds`` times in turn,
and the ratio (this checkout's rate over the reference's) is printed per figure with a 95%
interval over the rounds. A ratio below 1 is slower here. With ``--instructions`` each
figure is instead the machine instructions one of it takes, counted by valgrind
(cachegrind), which other work on a shared machine leaves unchanged: slow, and exact.

    .venv/bin/python scripts/bench_rollouts.py --reference main
    .venv/bin/python scripts/bench_rollouts.py --reference 8468cde --games luxor2001 --rounds 8
    .venv/bin/python scripts/bench_rollouts.py --reference main --instructions --matches 1
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from revisions import reference_source  # noqa: E402

FIGURES = ("steps", "clones", "resamples", "iterations")

#: IS-MCTS iterations searched at each of a match's three sampled decisions, with
#: rollouts cut off as the ``hard`` level's are (``bots.levels.HARD_CUTOFF``: 10 actions).
SEARCH_ITERATIONS = 40
SEARCH_CUTOFF = 10


def measure(
    game_id: str, players: int, matches: int, seed: int, only: str | None = None
) -> dict[str, float]:
    """Per figure, how many were done per CPU second over ``matches`` seeded matches: each
    match is first played (untimed) to fix its actions and keep its positions, then
    replayed step by step, its positions cloned, and a world resampled at each decision
    for the seat to act, each loop timed whole."""
    from necropolis.bots.ismcts import ISMCTSBot
    from necropolis.engine.protocol import CHANCE
    from necropolis.engine.seat import SeatWindow
    from necropolis.games import load_game

    game = load_game(game_id, players=players)
    done = dict.fromkeys(FIGURES, 0)
    spent = dict.fromkeys(FIGURES, 0.0)
    clock = time.process_time
    for i in range(matches):
        rng = random.Random(seed * 1_000_003 + i)
        state = game.new_initial_state()
        actions: list[int] = []
        positions = []
        deciding = []
        while not state.is_terminal():
            positions.append(state.clone())
            seat = state.current_player()
            if seat == CHANCE:
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                deciding.append((positions[-1], seat))
            actions.append(action)
            state.apply_legal_action(action)
        done["steps"] += len(actions)
        done["clones"] += len(positions)
        done["resamples"] += len(deciding)
        if only in (None, "steps"):
            replay = game.new_initial_state()
            start = clock()
            for action in actions:
                replay.apply_legal_action(action)
            spent["steps"] += clock() - start
        if only in (None, "clones"):
            start = clock()
            for position in positions:
                position.clone()
            spent["clones"] += clock() - start
        if only in (None, "resamples"):
            world_rng = random.Random(seed + i)
            start = clock()
            for position, seat in deciding:
                position.resample(seat, world_rng)
            spent["resamples"] += clock() - start
        if deciding and only in (None, "iterations"):
            bot = ISMCTSBot(iterations=SEARCH_ITERATIONS, seconds=None, cutoff=SEARCH_CUTOFF)
            search_rng = random.Random(seed - i)
            picks = [deciding[len(deciding) * k // 4] for k in (1, 2, 3)]
            start = clock()
            for position, seat in picks:
                bot.search(SeatWindow(position, seat), search_rng)
                done["iterations"] += bot.last.iterations
            spent["iterations"] += clock() - start
    if only is not None:
        return {name: float(done[name]) for name in FIGURES}
    return {name: done[name] / spent[name] for name in FIGURES if spent[name] > 0}


def _run(game_id: str, players: int, matches: int, seed: int, source: Path | None) -> Any:
    """:func:`measure` in a fresh process, on ``source``'s package if given."""
    command = [sys.executable, __file__, "--child", game_id, str(players), str(matches), str(seed)]
    return json.loads(_child(command, source))


def _child(command: list[str], source: Path | None) -> str:
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    if source is not None:
        environment["PYTHONPATH"] = str(source)
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"measuring failed:\n{done.stderr[-3000:]}")
    return done.stdout + done.stderr


def _instructions(
    game_id: str, players: int, matches: int, seed: int, source: Path | None
) -> dict[str, float]:
    """Per figure, the machine instructions one of it takes (valgrind's count, which no
    other work on the machine changes): a process running that loop alone, less one
    running none, divided by the loop's count."""
    counts: dict[str, float] = {}
    total: dict[str, int] = {}
    done: dict[str, float] = {}
    for only in ("none", *FIGURES):
        command = [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--child",
            game_id,
            str(players),
            str(matches),
            str(seed),
            "--only",
            only,
        ]
        out = _child(command, source)
        refs = next(line for line in out.splitlines() if "I   refs:" in line or "I refs:" in line)
        total[only] = int(refs.split(":")[1].replace(",", "").split()[0])
        done = json.loads(next(line for line in out.splitlines() if line.startswith("{")))
    for name in FIGURES:
        counts[name] = (total[name] - total["none"]) / done[name]
    return counts


def _interval(ratios: list[float]) -> tuple[float, float, float]:
    """The mean of ``ratios`` and its 95% interval (normal, over the rounds)."""
    mean = statistics.fmean(ratios)
    if len(ratios) < 2:
        return mean, math.nan, math.nan
    half = 1.96 * statistics.stdev(ratios) / math.sqrt(len(ratios))
    return mean, mean - half, mean + half


def _counts(cls: Any, wanted: str) -> list[int]:
    """The player counts of the game ``cls`` to measure: those asked for that it allows."""
    counts = range(cls.min_players, cls.max_players + 1)
    asked = {int(x) for x in wanted.split(",") if x}
    return [n for n in counts if not asked or n in asked]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", metavar="REV", help="git revision to compare with")
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    parser.add_argument("--players", default="", help="comma-separated counts (default: all)")
    parser.add_argument("--matches", type=int, default=3, help="matches per side and round")
    parser.add_argument("--rounds", type=int, default=5, help="turns of the two sides")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count machine instructions under valgrind instead of timing (slow, exact)",
    )
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--only", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        game_id, players, matches, seed = args.child
        print(json.dumps(measure(game_id, int(players), int(matches), int(seed), args.only)))
        return
    if not args.reference:
        parser.error("--reference REV is needed")
    from necropolis.games import game_class, game_ids

    wanted = [g for g in args.games.split(",") if g] or list(game_ids())
    with ExitStack() as stack:
        source = stack.enter_context(reference_source(args.reference, prefix="bench-rollouts-"))
        if args.instructions:
            print(f"instructions per figure, {args.reference} -> this checkout (ratio)")
            for game_id in wanted:
                cls = game_class(game_id)
                for players in _counts(cls, args.players):
                    theirs = _instructions(game_id, players, args.matches, args.seed, source)
                    ours = _instructions(game_id, players, args.matches, args.seed, None)
                    parts = [
                        f"{name} {theirs[name]:,.0f} -> {ours[name]:,.0f}"
                        f" ({ours[name] / theirs[name]:.4f})"
                        for name in FIGURES
                    ]
                    print(f"{game_id} ×{players}: " + ", ".join(parts), flush=True)
            return
        print(f"this checkout over {args.reference}: rate ratios, mean [95% interval]")
        for game_id in wanted:
            cls = game_class(game_id)
            for players in _counts(cls, args.players):
                ratios: dict[str, list[float]] = {name: [] for name in FIGURES}
                for k in range(args.rounds):
                    seed = args.seed + k
                    theirs = _run(game_id, players, args.matches, seed, source)
                    ours = _run(game_id, players, args.matches, seed, None)
                    for name in FIGURES:
                        if name in ours and name in theirs:
                            ratios[name].append(ours[name] / theirs[name])
                parts = []
                for name in FIGURES:
                    if ratios[name]:
                        mean, low, high = _interval(ratios[name])
                        parts.append(f"{name} {mean:.3f} [{low:.3f}, {high:.3f}]")
                print(f"{game_id} ×{players}: " + ", ".join(parts), flush=True)


if __name__ == "__main__":
    main()
